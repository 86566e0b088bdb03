"""``ferrovia lsp``: a language server over stdin/stdout (see :mod:`ferrovia.authoring.lsp`)."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "lsp",
        help="a language server for editors: errors as you type, hover, go to definition",
        description=(
            "Speak the Language Server Protocol over stdin/stdout: every error ferrovia "
            "validate gives, as the author types; hover on tile codes, tile names and hexes; "
            "go to the definition of a tile, a hex or an extends: base."
        ),
    )
    parser.add_argument(
        "--stdio", action="store_true", help="use stdin/stdout (the default, and the only way)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ferrovia.authoring.lsp import serve_stdio  # late: pygls is only needed here

    serve_stdio()
    return 0
