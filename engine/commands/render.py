"""``ferrovia render``: draw a game's map, its tile manifest, or a game state, as SVG."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ferrovia.errors import FerroviaError


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
    if args.game_dir:
        return Path(args.game_dir)
    from ferrovia.commands.view import game_dir_for

    return game_dir_for(Path(args.game), None)  # the game the file records (its title)


def run(args: argparse.Namespace) -> int:
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
    if not args.scale > 0:  # also refuses nan
        print(f"ferrovia render: --scale must be above 0, not {args.scale}", file=sys.stderr)
        return 2
    if args.game and not Path(args.game).is_file():
        raise FerroviaError(f"{args.game}: no such file")
    if args.at is not None and args.at != 0:
        from ferrovia.export import read_game_file

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
    board = load_board(game_dir)
    if args.tiles:
        from ferrovia.render.manifest_svg import render_manifest

        svg = render_manifest(board, scale=args.scale)
    elif args.game:
        from ferrovia.render.state_svg import render_state_file

        svg = render_state_file(
            board, Path(args.game), args.at, scale=args.scale, game_dir=game_dir
        )
    else:
        svg = render_map(board, scale=args.scale)
    _write(svg, args.output)
    return 0


def _write(text: str, output: str | None) -> None:
    if output and output != "-":
        path = Path(output)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise FerroviaError(f"cannot write {path}: {exc.strerror}") from None
    else:
        sys.stdout.write(text)
