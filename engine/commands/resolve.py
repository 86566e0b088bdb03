"""``ferrovia resolve GAME_DIR``: the fully merged definition of a variant, as YAML.

Each file of the game (``game.yaml``, ``map.yaml``, ...) is printed after merging it over the
base game it ``extends`` (engine/data/overlay.py), one YAML document per file headed by its name.
``--origins`` lists instead where each entry (each top-level key and each entry of a
collection) comes from, ``FILE:LINE:COL``; ``-o DIR`` writes the merged files into DIR: a
standalone game (without ``extends``) that ``ferrovia validate DIR`` checks like any other.
Writing into an existing directory that is not empty needs ``--force``, and never into the
game or a base it reads; nothing is written unless the merged game validates.  Exit 0, 1 on a
data error, 2 on a usage error (see README, "Exit codes and errors").
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import Any

from ferrovia.errors import DataErrors

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
        "--force",
        action="store_true",
        help="with -o: write into a directory that exists and is not empty (never one read)",
    )
    parser.add_argument(
        "--origins",
        action="store_true",
        help="list where each entry comes from (FILE:LINE:COL) instead of printing YAML",
    )
    parser.set_defaults(func=run)


def plain(data: Any) -> Any:
    """:func:`ferrovia.data.overlay.plain`, imported when used."""
    from ferrovia.data.overlay import plain as overlay_plain

    return overlay_plain(data)


def dump(data: Any) -> str:
    from ruamel.yaml import YAML  # slow to import: only when the command runs

    yaml = YAML(typ="rt")
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    buf = io.StringIO()
    yaml.dump(data, buf)
    return buf.getvalue()


def run(args: argparse.Namespace) -> int:
    from ferrovia.data.overlay import PART_FILES, origins, resolved_files
    from ferrovia.data.validate import validate_game
    from ferrovia.outputs import Inputs, check_dir, game_directory, write_dir

    game_dir: Path = game_directory(args.game)
    inputs = Inputs()
    inputs.add_game(game_dir)
    if args.out is not None:
        check_dir(args.out, [f"{k}.yaml" for k in ("game", *PART_FILES)], inputs, force=args.force)
    try:
        docs = resolved_files(game_dir)
    except DataErrors as exc:
        for err in exc.errors:
            print(err, file=sys.stderr)
        return 1
    # a merged game that does not validate is not written (nor printed): say why instead
    errors = validate_game(game_dir).errors
    if errors:
        for err in errors:
            print(err, file=sys.stderr)
        return 1
    if args.origins:
        for kind, doc in docs.items():
            for path, file, line, col in origins(doc):
                print(f"{kind}.yaml {path}  {file}:{line}:{col}")
        return 0
    texts = _texts(docs)
    if args.out is not None:
        headed = {n: _SCHEMA.format(kind=n.removesuffix(".yaml")) + t for n, t in texts.items()}
        write_dir(args.out, headed, inputs, force=args.force)
    else:
        sys.stdout.write("".join(f"--- # {name}\n{text}" for name, text in texts.items()))
    return 0


def _texts(docs: dict[str, Any]) -> dict[str, str]:
    """File name -> YAML text of each merged file (-o adds the schema line for editors)."""
    from ferrovia.data.overlay import EXTENDS  # slow to import: only when the command runs

    out: dict[str, str] = {}
    for kind, doc in docs.items():
        data = _clean(doc.data)
        if kind == "game" and isinstance(data, dict):
            data.pop(EXTENDS, None)
            data.pop("files", None)  # written under the default names
        out[f"{kind}.yaml"] = dump(data)
    return out


def _clean(node: Any) -> Any:
    """A fresh tree without the source comments (flow style kept for short entries)."""
    from ruamel.yaml.comments import (  # slow to import: only when the command runs
        CommentedMap,
        CommentedSeq,
    )

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
