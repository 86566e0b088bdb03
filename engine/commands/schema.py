"""``ferrovia schema [--out DIR]``: write the JSON Schema of every YAML file kind.

Editors (yaml-language-server) read these through the ``# yaml-language-server: $schema=...``
line at the top of each data file; ``tests/test_schema.py`` checks the committed copies are
up to date with the pydantic models in ``schemas/``.  A variant's files (overlays) point at
``KIND.overlay.schema.json`` instead (:mod:`ferrovia.overlay_schema`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ferrovia.errors import FerroviaError
from ferrovia.paths import schemas_json_dir
from ferrovia.schemas import FILE_KINDS, json_schema_text


def schema_files() -> dict[str, str]:
    """File name -> text of every generated schema (``map.schema.json``: ...)."""
    return {f"{kind}.schema.json": json_schema_text(kind) for kind in FILE_KINDS}


def overlay_schema_files() -> dict[str, str]:
    """File name -> text of every overlay schema (``map.overlay.schema.json``: ...)."""
    from ferrovia.overlay_schema import OVERLAY_KINDS, overlay_schema_text

    return {f"{kind}.overlay.schema.json": overlay_schema_text(kind) for kind in OVERLAY_KINDS}


def write_schemas(out: Path) -> list[Path]:
    """Write every schema (full and overlay) into ``out`` (created if needed); return the
    paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in {**schema_files(), **overlay_schema_files()}.items():
        path = out / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "schema",
        help="write the JSON Schema of every game-data file kind",
        description="Write one JSON Schema per YAML file kind (game, map, tiles, ...).",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="directory to write into (default: the package's schemas/json/)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    out: Path = args.out if args.out is not None else schemas_json_dir()
    if out.exists() and not out.is_dir():
        print(f"ferrovia schema: {out} is not a directory", file=sys.stderr)
        return 2
    try:
        written = write_schemas(out)
    except OSError as exc:
        raise FerroviaError(f"cannot write {exc.filename or out}: {exc.strerror}") from None
    for path in written:
        print(path)
    return 0
