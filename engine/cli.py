"""The ``ferrovia`` command line.

Each subcommand lives in its own module under :mod:`ferrovia.commands` and exposes
``register(subparsers)``; this module only finds them, so adding a command touches one file.
Exit codes (README, "Exit codes and errors"): 0 success; 1 an input's content is wrong
(invalid data, an illegal action, a replay that stopped) or the command could not do what was
asked; 2 the command line asks for something impossible (an unknown option or value, a path
that does not exist or cannot be read or written as asked, an output that is an input).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from ferrovia import __version__, commands
from ferrovia.errors import FerroviaError, UsageError, visible


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
        code = int(args.func(args))
        sys.stdout.flush()  # a closed pipe is found here, not at exit
        return code
    except UsageError as exc:
        print(f"ferrovia {args.command}: {visible(str(exc))}", file=sys.stderr)
        return 2
    except FerroviaError as exc:
        print(f"ferrovia: {visible(str(exc))}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # the reader stopped early (``| head``): not all was delivered, so not a success
        _silence_stdout()
        print("ferrovia: output closed before all of it was written (broken pipe)", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("ferrovia: interrupted", file=sys.stderr)
        return 130
    except (RecursionError, MemoryError) as exc:
        print(
            f"ferrovia {args.command}: the input is too large or nested too deeply"
            f" ({type(exc).__name__})",
            file=sys.stderr,
        )
        return 1
    except Exception as exc:  # a bug: still a message, never a traceback (unless asked)
        if os.environ.get("FERROVIA_TRACEBACK"):
            raise
        where = _where(exc)
        print(
            f"ferrovia {args.command}: internal error: {type(exc).__name__}: {exc}{where}"
            " (this is a bug in Ferrovia; FERROVIA_TRACEBACK=1 shows the traceback)",
            file=sys.stderr,
        )
        return 1


def _where(exc: BaseException) -> str:
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return ""
    return f" at {os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno}"


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so Python's own flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
