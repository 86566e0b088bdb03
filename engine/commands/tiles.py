"""``ferrovia tiles check|format FILE|-``: check tile codes, or print their canonical form.

The input has one tile code per line (an empty line is the blank tile).  Every bad line is
reported as ``FILE:LINE:COL: error: MESSAGE`` (``<stdin>`` for ``-``), with the code and a
caret under it when ``--show-code`` is given.  ``check`` prints the reports on stdout;
``format`` prints one canonical code per input line on stdout (a bad line is echoed
unchanged, so lines stay aligned) and the reports on stderr.  Exit 0 when every line is
valid, 1 when some are not (or the input is over 4 MB), 2 on a usage error or unreadable file.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any, TextIO

from ferrovia.errors import DataError
from ferrovia.outputs import readable_file

if TYPE_CHECKING:
    from ferrovia.notation import NotationError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tiles",
        help="check tile codes or print them in canonical form",
        description=(__doc__ or "").split("\n\n", 1)[-1].replace("``", ""),
    )
    actions = parser.add_subparsers(dest="tiles_action", metavar="ACTION", required=True)
    for name, help_text in (
        ("check", "report every invalid tile code"),
        ("format", "print the canonical form of every tile code"),
    ):
        sub = actions.add_parser(name, help=help_text)
        sub.add_argument("file", metavar="FILE", help="one tile code per line; - for stdin")
        sub.add_argument(
            "--strict",
            action="store_true",
            help="also reject the slips real 18xx.games data has and its decoder tolerates",
        )
        sub.add_argument(
            "--show-code", action="store_true", help="show the code with a caret under errors"
        )
        sub.set_defaults(func=run)


def _read(file: str) -> tuple[str, list[str]] | None:
    from ferrovia.data.loader import MAX_YAML_BYTES  # slow to import: only when the command runs

    if file == "-":
        text = sys.stdin.read(MAX_YAML_BYTES + 1)
        name = "<stdin>"
        if len(text) > MAX_YAML_BYTES:
            raise DataError(name, 1, 1, f"more than {MAX_YAML_BYTES / 1e6:g} MB of tile codes")
    else:
        readable_file(file)  # why it cannot be read (a usage error, exit 2)
        size = os.stat(file).st_size
        if size > MAX_YAML_BYTES:
            raise DataError(
                file,
                1,
                1,
                f"the file is too large ({size / 1e6:.1f} MB; at most"
                f" {MAX_YAML_BYTES / 1e6:g} MB of tile codes)",
            )
        try:
            with open(file, encoding="utf-8", errors="replace", newline="") as handle:
                text = handle.read()
        except OSError as exc:
            print(f"ferrovia tiles: cannot read {file}: {exc.strerror or exc}", file=sys.stderr)
            return None
        name = file
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline ending the last line does not start another
    return name, [line.removesuffix("\r") for line in lines]


def _report(out: TextIO, name: str, lineno: int, err: NotationError, show_code: bool) -> None:
    print(f"{name}:{lineno}:{err.col}: error: {err.message}", file=out)
    if show_code:
        print(err.caret, file=out)


def run(args: argparse.Namespace) -> int:
    from ferrovia.notation import (  # slow to import: only when the command runs
        NotationError,
        format_tile,
        parse,
    )

    read = _read(args.file)
    if read is None:
        return 2
    name, lines = read
    formatting = args.tiles_action == "format"
    reports = sys.stderr if formatting else sys.stdout
    bad = 0
    for lineno, code in enumerate(lines, 1):
        try:
            tile = parse(code, strict=args.strict)
        except NotationError as err:
            bad += 1
            _report(reports, name, lineno, err, args.show_code)
            if formatting:
                print(code)
            continue
        if formatting:
            print(format_tile(tile))
    if bad:
        print(f"{bad} of {len(lines)} tile codes are invalid", file=sys.stderr)
    return 1 if bad else 0
