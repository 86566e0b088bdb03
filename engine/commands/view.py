"""``ferrovia view``: a game file as one self-contained HTML page to step through."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "view",
        help="write an HTML page that steps through a game (board, panels, log)",
        description=(
            "Replay FILE (an 18xx.games export or a Ferrovia log) and write one self-contained "
            "HTML page (no network) with next/previous, jump to an action, the board, the "
            "panels and the game log in words. Open PAGE#action=ID to start at an action."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="the game file")
    parser.add_argument(
        "-o",
        "--output",
        metavar="PAGE",
        default="game.html",
        help="where to write the page (default: game.html)",
    )
    parser.add_argument(
        "--game-dir",
        metavar="DIR",
        help="the game's data directory (default: gamedata/<title of FILE>)",
    )
    parser.add_argument(
        "--board-only",
        action="store_true",
        help="do not run the rules engine: follow tiles and stations only",
    )
    parser.set_defaults(func=run)


def game_dir_for(file: Path, explicit: str | None) -> Path:
    """The data directory of the game a file records (the resolver replay uses too)."""
    from ferrovia.outputs import game_directory
    from ferrovia.play.gamefile import read_game_file
    from ferrovia.play.replay import locate_game

    if explicit:
        return game_directory(explicit)
    data = read_game_file(file, require_players=False)
    return locate_game(data, file=file)


def run(args: argparse.Namespace) -> int:
    from ferrovia.outputs import Inputs, check_file, readable_file, write_file
    from ferrovia.render.source import load_board
    from ferrovia.render.timeline import build_timeline
    from ferrovia.render.viewer import render_viewer

    file = readable_file(args.file, "game file")
    game_dir = game_dir_for(file, args.game_dir)
    inputs = Inputs(file)
    inputs.add_game(game_dir)
    out = check_file(args.output, inputs)  # before the work, not after it
    board = load_board(game_dir)
    timeline = build_timeline(board, file, game_dir=game_dir, use_rules=not args.board_only)
    # the rules engine stopped (illegal action) or could not set the game up: the page still
    # shows the board to the end and says why, and the run says so too, exiting 1 (bad input)
    stopped = bool(timeline.note) and not args.board_only
    if stopped:
        print(f"ferrovia: warning: {timeline.note}", file=sys.stderr)
    html = render_viewer(board, timeline)
    write_file(out, html, inputs)
    print(f"{out}: {len(timeline.frames) - 1} actions, {len(html) // 1024} KiB", file=sys.stderr)
    return 1 if stopped else 0
