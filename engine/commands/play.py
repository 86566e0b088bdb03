"""``ferrovia play --players N --seed S [--bots NAMES]``: a whole game played by bots."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ferrovia.errors import FerroviaError, UsageError
from ferrovia.outputs import game_directory


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
    from ferrovia.data.definition import load_game
    from ferrovia.play.replay import game_dir_for, setup_problem
    from ferrovia.play.selfplay import game_source

    title, directory = game_source(args.game)
    if directory is None:
        try:
            directory = game_dir_for(title)
        except FerroviaError as exc:
            if "/" in args.game or Path(args.game).exists():
                game_directory(args.game)  # says why the directory is not a game
            raise UsageError(f"--game {args.game}: {exc}") from None
    defn = load_game(directory)
    max_actions = getattr(args, "max_actions", 0)  # simulate asks too, without one
    if max_actions < 0:
        return f"--max-actions {max_actions}: expected 0 or more"
    problem = setup_problem(defn, args.players, tuple(args.option))
    if problem is None:
        return None
    if problem.startswith(f"{defn.name} is for"):
        return f"--players {args.players}: {problem.removesuffix(f', not {args.players}')}"
    if problem.startswith("unknown optional rule"):
        bad = next(o for o in args.option if o not in {x.id for x in defn.options})
        known = sorted(o.id for o in defn.options)
        return f"--option {bad}: {defn.name} has {', '.join(known) or 'no options'}"
    return f"--option: {problem}"


def run(args: argparse.Namespace) -> int:
    from ferrovia.outputs import Inputs, check_file, write_file
    from ferrovia.play.selfplay import game_source, play

    inputs = Inputs()
    _, directory = game_source(args.game)
    if directory is not None:
        inputs.add_game(directory)
    if args.log is not None:
        check_file(args.log, inputs)  # before the game, not after it
    wrong = usage_error(args)
    if wrong is not None:
        print(f"ferrovia play: {wrong}", file=sys.stderr)
        return 2
    from ferrovia.play.bots.base import bot_class, parse_bots

    try:
        bots = parse_bots(args.bots, args.players)
        for name in sorted(set(bots)):
            bot_class(name)
    except FerroviaError as exc:
        print(f"ferrovia play: {exc}", file=sys.stderr)
        return 2
    res = play(
        args.players,
        args.seed,
        tuple(args.option),
        args.max_actions,
        args.game,
        bots=bots,
        log_path=args.log,
    )
    if args.log is not None:
        write_file(args.log, json.dumps(res.log, indent=0) + "\n", inputs)
    result = res.game.result(res.state)
    if args.json:
        doc = {
            "finished": res.state.finished,
            "result": result,
            "actions": len(res.actions),
            "game_end_reason": res.state.game_end_reason,
            # the whole run in seconds, as always; the parts in the object replay --json gives
            "seconds": round(res.seconds, 4),
            "timings": {
                "load": round(res.load_seconds, 4),
                "play": round(res.seconds - res.load_seconds, 4),
            },
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
