"""The ``ferrovia`` command line.

Each subcommand lives in its own module under :mod:`ferrovia.commands` and exposes
``register(subparsers)``; this module only finds them, so adding a command touches one file.
Exit codes: 0 success, 1 the input is wrong (invalid data, illegal action), 2 usage error.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from ferrovia import __version__, commands
from ferrovia.errors import FerroviaError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ferrovia", description="An 18xx engine whose games are declared as data."
    )
    parser.add_argument("--version", action="version", version=f"ferrovia {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"ferrovia.commands.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except FerroviaError as exc:
        print(f"ferrovia: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
