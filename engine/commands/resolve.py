"""``ferrovia resolve GAME_DIR``: the fully merged definition of a variant, as YAML.

Each file of the game (``game.yaml``, ``map.yaml``, ...) is printed after merging it over the
base game it ``extends`` (engine/overlay.py), one YAML document per file headed by its name.
``--origins`` lists instead where each entry (each top-level key and each entry of a
collection) comes from, ``FILE:LINE:COL``; ``-o DIR`` writes the merged files into DIR: a
standalone game (without ``extends``) that ``ferrovia validate DIR`` checks like any other.
Exit 0, or 1 on a data error.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import Any

from ferrovia.errors import DataErrors, FerroviaError
from ferrovia.overlay import EXTENDS, origins, plain, resolved_files
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

_SCHEMA = "# yaml-language-server: $schema=../../schemas/json/{kind}.schema.json\n"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "resolve",
        help="print a variant merged over its base game, as YAML",
        description="Print (or write with -o) every file of GAME_DIR merged over its base.",
    )
    parser.add_argument("game", type=Path, metavar="GAME_DIR", help="game directory")
    parser.add_argument("-o", "--out", type=Path, default=None, help="write the files here")
    parser.add_argument(
        "--origins",
        action="store_true",
        help="list where each entry comes from (FILE:LINE:COL) instead of printing YAML",
    )
    parser.set_defaults(func=run)


def dump(data: Any) -> str:
    yaml = YAML(typ="rt")
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    buf = io.StringIO()
    yaml.dump(data, buf)
    return buf.getvalue()


def run(args: argparse.Namespace) -> int:
    game_dir: Path = args.game
    if not (game_dir / "game.yaml").is_file():
        print(f"ferrovia resolve: {game_dir}: no game.yaml", file=sys.stderr)
        return 2
    try:
        docs = resolved_files(game_dir)
    except DataErrors as exc:
        for err in exc.errors:
            print(err, file=sys.stderr)
        return 1
    if args.origins:
        for kind, doc in docs.items():
            for path, file, line, col in origins(doc):
                print(f"{kind}.yaml {path}  {file}:{line}:{col}")
        return 0
    try:
        return _write(docs, args.out)
    except OSError as exc:  # -o names a file, or a place that cannot be written
        raise FerroviaError(f"cannot write {exc.filename or args.out}: {exc.strerror}") from None


def _write(docs: dict[str, Any], out: Path | None) -> int:
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    chunks: list[str] = []
    for kind, doc in docs.items():
        data = _clean(doc.data)
        if kind == "game" and isinstance(data, dict):
            data.pop(EXTENDS, None)
            data.pop("files", None)  # written under the default names
        text = dump(data)
        if out is not None:
            (out / f"{kind}.yaml").write_text(_SCHEMA.format(kind=kind) + text, encoding="utf-8")
        else:
            chunks.append(f"--- # {kind}.yaml\n{text}")
    if chunks:
        sys.stdout.write("".join(chunks))
    return 0


def _clean(node: Any) -> Any:
    """A fresh tree without the source comments (flow style kept for short entries)."""
    if isinstance(node, dict):
        out = CommentedMap((k, _clean(v)) for k, v in node.items())
        fa: Any = getattr(node, "fa", None)
        if fa is not None and fa.flow_style():
            out.fa.set_flow_style()
        return out
    if isinstance(node, list):
        seq = CommentedSeq(_clean(v) for v in node)
        sfa: Any = getattr(node, "fa", None)
        if sfa is not None and sfa.flow_style():
            seq.fa.set_flow_style()
        return seq
    return node


__all__ = ["dump", "plain", "register", "run"]
