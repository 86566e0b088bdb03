"""``ferrovia schema [--out DIR]``: write the JSON Schema of every YAML file kind.

Editors (yaml-language-server) read these through the ``# yaml-language-server: $schema=...``
line at the top of each data file; ``tests/test_schema.py`` checks the committed copies are
up to date with the pydantic models in ``schemas/``.  A variant's files (overlays) point at
``KIND.overlay.schema.json`` instead (:mod:`ferrovia.authoring.overlay_schema`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ferrovia.paths import schemas_json_dir


def schema_files() -> dict[str, str]:
    """File name -> text of every generated schema (``map.schema.json``: ...)."""
    from ferrovia.schemas import (  # slow to import: only when the command runs
        FILE_KINDS,
        json_schema_text,
    )

    return {f"{kind}.schema.json": json_schema_text(kind) for kind in FILE_KINDS}


def overlay_schema_files() -> dict[str, str]:
    """File name -> text of every overlay schema (``map.overlay.schema.json``: ...)."""
    from ferrovia.authoring.overlay_schema import OVERLAY_KINDS, overlay_schema_text

    return {f"{kind}.overlay.schema.json": overlay_schema_text(kind) for kind in OVERLAY_KINDS}


def write_schemas(out: Path, *, force: bool = True) -> list[Path]:
    """Write every schema (full and overlay) into ``out`` (created whole if new; an existing
    directory that is not empty only with ``force``); return the paths written."""
    from ferrovia.outputs import write_dir

    files = {**schema_files(), **overlay_schema_files()}
    write_dir(out, files, force=force)
    return [out / name for name in files]


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
    parser.add_argument(
        "--force",
        action="store_true",
        help="with --out: write into a directory that exists and is not empty",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # the package's own schemas/json/ is regenerated in place; another directory that holds
    # files already needs --force (same-named files are replaced, others left alone)
    out: Path = args.out if args.out is not None else schemas_json_dir()
    written = write_schemas(out, force=args.force or args.out is None)
    for path in written:
        print(path)
    return 0
