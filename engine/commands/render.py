"""``ferrovia render``: draw a game's map, its tile manifest, or a game state, as SVG."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "render",
        help="draw a game's map, tile manifest or a game state as SVG",
        description=(
            "Draw GAME_DIR's map (default), its tile manifest (--tiles), or a game after an "
            "action (--game FILE --at ACTION_ID), as one SVG file."
        ),
    )
    parser.add_argument(
        "game_dir",
        nargs="?",
        metavar="GAME_DIR",
        help="a game directory, e.g. gamedata/1858 (with --game: the game the file records)",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    parser.add_argument("--tiles", action="store_true", help="draw the tile manifest")
    parser.add_argument(
        "--game", metavar="FILE", help="an 18xx.games export or Ferrovia log to replay"
    )
    parser.add_argument(
        "--at",
        metavar="ACTION_ID",
        type=int,
        default=None,
        help="with --game: the state after this action id (default: the end)",
    )
    parser.add_argument(
        "--scale",
        type=float,
        default=0.5,
        help="pixels per SVG unit (a hex is 200 units across; default 0.5)",
    )
    parser.set_defaults(func=run)


def _game_dir(args: argparse.Namespace) -> Path:
    from ferrovia.outputs import game_directory

    if args.game_dir:
        return game_directory(args.game_dir)
    from ferrovia.commands.view import game_dir_for

    return game_dir_for(Path(args.game), None)  # the game the file records (its title)


MAX_SCALE = 100.0  # a hex 20 000 pixels across: far past any screen or print


def run(args: argparse.Namespace) -> int:
    from ferrovia.outputs import Inputs, check_file, readable_file, write_file
    from ferrovia.render.map_svg import render_map
    from ferrovia.render.source import load_board

    if args.at is not None and not args.game:
        print("ferrovia render: --at needs --game FILE", file=sys.stderr)
        return 2
    if args.tiles and args.game:
        print("ferrovia render: --tiles and --game do not go together", file=sys.stderr)
        return 2
    if not args.game and not args.game_dir:
        print("ferrovia render: give GAME_DIR (or --game FILE)", file=sys.stderr)
        return 2
    if not 0 < args.scale <= MAX_SCALE:  # also refuses nan and inf
        print(
            f"ferrovia render: --scale must be above 0 and at most {MAX_SCALE:g}, not {args.scale}",
            file=sys.stderr,
        )
        return 2
    inputs = Inputs()
    if args.game:
        inputs.add(readable_file(args.game, "game file"))
    if args.at is not None and args.at != 0:
        from ferrovia.play.gamefile import read_game_file

        actions = read_game_file(Path(args.game), require_players=False)["actions"]
        ids = [a.get("id") for a in actions if isinstance(a.get("id"), int)]
        if args.at not in ids:
            span = f"its actions are numbered {min(ids)}..{max(ids)}" if ids else "it has none"
            print(
                f"ferrovia render: --at {args.at}: {args.game} has no action {args.at} ({span})",
                file=sys.stderr,
            )
            return 2
    game_dir = _game_dir(args)
    inputs.add_game(game_dir)
    out = args.output if args.output and args.output != "-" else None
    if out is not None:
        check_file(out, inputs)  # before the work, not after it
    board = load_board(game_dir)
    stopped = ""
    if args.tiles:
        from ferrovia.render.manifest_svg import render_manifest

        svg = render_manifest(board, scale=args.scale)
    elif args.game:
        from ferrovia.render.state_svg import render_state
        from ferrovia.render.timeline import build_timeline

        timeline = build_timeline(board, Path(args.game), game_dir=game_dir, upto=args.at)
        frame = timeline.frame_at(args.at)
        svg = render_state(board, frame.map_state, frame.view, scale=args.scale)
        stopped = timeline.note
    else:
        svg = render_map(board, scale=args.scale)
    if out is not None:
        write_file(out, svg, inputs)
    else:
        sys.stdout.write(svg)
    if stopped:
        # the drawing shows the board as far as it goes; the run did not do all it was asked
        print(f"ferrovia: warning: {stopped}", file=sys.stderr)
        return 1
    return 0
