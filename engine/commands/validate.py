"""``ferrovia validate [PATH ...]``: check game data; exit 0 valid, 1 errors, 2 usage.

Each PATH is a game directory (holding ``game.yaml``), a directory searched for them, or a
YAML file of a game (its game is checked); with none, every bundled game under ``gamedata/``
is checked.  ``--format`` picks the output:

* ``text``: ``FILE:LINE:COL: error: MESSAGE`` lines, then one summary line per game;
* ``github``: ``::error file=...,line=...,col=...::MESSAGE`` workflow commands;
* ``json``: ``{"games": [{"path", "title", "counts": {...}, "errors": [{"file", "line",
  "col", "message"}]}]}``;
* ``sarif``: a SARIF 2.1.0 log for code-scanning tools (:mod:`ferrovia.authoring.sarif`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ferrovia.outputs import readable_file
from ferrovia.paths import gamedata_root

if TYPE_CHECKING:
    from ferrovia.data.validate import ValidationResult

COUNT_NAMES = ("hexes", "tiles", "privates", "corporations", "trains", "phases")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="check game data (schemas, tile codes, cross-references)",
        description="Check game directories; with no PATH, every bundled game.",
    )
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="game directory")
    parser.add_argument(
        "--format",
        choices=("text", "json", "github", "sarif"),
        default="text",
        help="output format (sarif: SARIF 2.1.0 for code-scanning tools)",
    )
    parser.set_defaults(func=run)


def summary(result: ValidationResult) -> str:
    """``gamedata/1858: ok — 127 hexes, 108 tiles, ...`` (or the number of errors)."""
    counts = ", ".join(f"{result.counts.get(k, 0)} {k}" for k in COUNT_NAMES)
    n = len(result.errors)
    state = "ok" if n == 0 else f"{n} error{'s' if n != 1 else ''}"
    return f"{result.shown}: {state} — {counts}"


def _github_escape(text: str, *, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def run(args: argparse.Namespace) -> int:
    from ferrovia.data.validate import find_games, validate_game

    paths: list[Path] = args.paths or [gamedata_root()]
    games: list[Path] = []
    for path in paths:
        if not path.is_dir():
            readable_file(path)  # why it cannot be read, if it cannot (a usage error, exit 2)
        if path.is_file():
            # A data file: check the game it belongs to (handy from editors and CI diffs).
            if path.suffix in (".yaml", ".yml") and (path.parent / "game.yaml").is_file():
                games.append(path.parent)
                continue
            print(f"ferrovia validate: {path}: not a game directory", file=sys.stderr)
            return 2
        found = find_games(path)
        if not found:
            print(f"ferrovia validate: {path}: no game.yaml found", file=sys.stderr)
            return 2
        games.extend(found)
    unique = list(dict.fromkeys(games))  # a game named twice is checked once
    results = [validate_game(game) for game in unique]
    if args.format == "json":
        document = {
            "games": [
                {
                    "path": r.shown,
                    "title": r.title,
                    "counts": {k: r.counts.get(k, 0) for k in COUNT_NAMES},
                    "errors": [
                        {"file": e.file, "line": e.line, "col": e.col, "message": e.message}
                        for e in r.errors
                    ],
                }
                for r in results
            ]
        }
        print(json.dumps(document, indent=2, ensure_ascii=False))
    elif args.format == "sarif":
        from ferrovia.authoring.sarif import sarif_log

        log = sarif_log(e for r in results for e in r.errors)
        print(json.dumps(log, indent=2, ensure_ascii=False))
    elif args.format == "github":
        for r in results:
            for e in r.errors:
                print(
                    f"::error file={_github_escape(e.file, prop=True)},line={e.line},"
                    f"col={e.col}::{_github_escape(e.message)}"
                )
    else:
        for r in results:
            for e in r.errors:
                print(e)
            print(summary(r))
    return 1 if any(r.errors for r in results) else 0
