"""``ferrovia play --players N --seed S [--bots NAMES]``: a whole game played by bots."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ferrovia.errors import FerroviaError


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "play", help="play a whole game with bots (random by default; deterministic per seed)"
    )
    p.add_argument(
        "--game", default="1858", help="bundled game name or a game directory (default 1858)"
    )
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--option", action="append", default=[], help="optional rule, e.g. quick_start_a"
    )
    p.add_argument("--max-actions", type=int, default=20000)
    p.add_argument(
        "--bots",
        default=None,
        metavar="NAMES",
        help="bot of each seat, comma-separated (e.g. greedy,greedy,random,greedy; one name "
        "fills every seat): random, greedy, an entry point of group ferrovia.bots, or "
        "module:Class (default: random)",
    )
    p.add_argument("--json", action="store_true", help="print the machine-readable summary")
    p.add_argument("--log", type=Path, default=None, help="write the action log here")
    p.set_defaults(func=run)


def usage_error(args: argparse.Namespace) -> str | None:
    """What is wrong with --players / --option for the chosen game (a usage error), if any."""
    from ferrovia.definition import load_game
    from ferrovia.play import export_header
    from ferrovia.replay import game_dir_for

    defn = load_game(game_dir_for(export_header(args.players, args.seed, (), args.game)["title"]))
    low, high = defn.players.min, defn.players.max
    if not low <= args.players <= high:
        return f"--players {args.players}: {defn.name} is for {low} to {high} players"
    known = sorted(o.id for o in defn.options)
    for option in args.option:
        if option not in known:
            return f"--option {option}: {defn.name} has {', '.join(known) or 'no options'}"
    return None


def run(args: argparse.Namespace) -> int:
    from ferrovia.play import play

    wrong = usage_error(args)
    if wrong is not None:
        print(f"ferrovia play: {wrong}", file=sys.stderr)
        return 2
    from ferrovia.bots.base import bot_class, parse_bots

    try:
        bots = parse_bots(args.bots, args.players)
        for name in sorted(set(bots)):
            bot_class(name)
    except FerroviaError as exc:
        print(f"ferrovia play: {exc}", file=sys.stderr)
        return 2
    res = play(args.players, args.seed, tuple(args.option), args.max_actions, args.game, bots=bots)
    if args.log is not None:
        try:
            args.log.write_text(json.dumps(res.log, indent=0) + "\n", encoding="utf-8")
        except OSError as exc:
            raise FerroviaError(f"cannot write {args.log}: {exc.strerror}") from None
    result = res.game.result(res.state)
    if args.json:
        doc = {
            "finished": res.state.finished,
            "result": result,
            "actions": len(res.actions),
            "game_end_reason": res.state.game_end_reason,
            "seconds": round(res.seconds, 4),
        }
        print(json.dumps(doc))
        return 0
    names = {p.id: p.name for p in res.state.players}
    status = "finished" if res.state.finished else "stopped (action cap)"
    print(
        f"{len(res.actions)} actions, {status}"
        + (f" ({res.state.game_end_reason})" if res.state.game_end_reason else "")
    )
    for pid, value in sorted(result.items(), key=lambda kv: -kv[1]):
        print(f"  {names[pid]:<12} {value:>7}")
    return 0
