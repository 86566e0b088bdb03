"""``ferrovia replay FILE``: replay an 18xx.games export (or Ferrovia log) and print standings."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ferrovia.errors import FerroviaError


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "replay", help="replay an 18xx.games export and print the standings"
    )
    p.add_argument("file", type=Path)
    p.add_argument(
        "--game-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="the game's data directory (default: the game the file's title names)",
    )
    p.add_argument("--json", action="store_true", help="print the machine-readable summary")
    p.add_argument(
        "--until", type=int, default=None, help="stop after this action id (0: the start)"
    )
    p.add_argument(
        "--check-routes",
        action="store_true",
        help="compare every run_routes with the company's optimal run just before it",
    )
    p.add_argument(
        "--route-limit",
        type=int,
        default=None,
        metavar="N",
        help="with --check-routes: at most N candidate routes per turn; a turn it stops is"
        " reported as inexact (default: no limit, every optimum exact)",
    )
    p.set_defaults(func=run)


def _print_route_check(res: Any, *, to_stderr_only: bool) -> None:
    """Above-optimum cases to stdout (unless JSON is printed), below-optimum ones (a bug in
    the search or the rules: a legal run beats the "optimum") always, loudly, to stderr."""
    rc = res.route_check
    if rc is None:
        return
    for c in rc.below:
        print(
            f"ROUTE CHECK BUG: action {c.action} {c.company}: optimum {c.optimum} is below the"
            f" recorded legal run {c.recorded}",
            file=sys.stderr,
        )
    for c in rc.inexact:
        print(
            f"route check: action {c.action} {c.company}: optimum not proven (candidate limit);"
            f" best found {c.optimum}, recorded {c.recorded}",
            file=sys.stderr,
        )
    if to_stderr_only:
        return
    for c in rc.above:
        print(
            f"  action {c.action} {c.company}: recorded {c.recorded}, optimum {c.optimum}"
            + ("" if c.exact else " (not proven optimal)")
        )
    print(
        f"route check: {rc.checked} runs checked, optimum above recorded: {len(rc.above)},"
        f" optimum below recorded: {len(rc.below)} (must be 0), not proven: {len(rc.inexact)}"
        f" ({rc.seconds:.1f} s)"
    )


def run(args: argparse.Namespace) -> int:
    from ferrovia.outputs import game_directory, readable_file
    from ferrovia.play.replay import describe_failure, load_export, locate_game, replay

    readable_file(args.file, "game file")
    if args.game_dir is not None:
        game_directory(args.game_dir)
    data = load_export(args.file)
    if args.until is not None and args.until != 0:
        ids = [a.get("id") for a in data["actions"] if isinstance(a.get("id"), int)]
        if args.until not in ids:
            span = f"its actions are numbered {min(ids)}..{max(ids)}" if ids else "it has none"
            print(
                f"ferrovia replay: --until {args.until}: {args.file} has no action"
                f" {args.until} ({span})",
                file=sys.stderr,
            )
            return 2
    if args.route_limit is not None and args.route_limit < 1:
        print(
            f"ferrovia replay: --route-limit {args.route_limit}: expected 1 or more",
            file=sys.stderr,
        )
        return 2
    try:
        res = replay(
            data,
            until=args.until,
            check_routes=args.check_routes,
            route_limit=args.route_limit,
            game_dir=locate_game(data, file=args.file, game_dir=args.game_dir),
        )
    except FerroviaError as exc:
        print(f"ferrovia: {exc}", file=sys.stderr)
        return 1
    if res.error is not None:
        _print_route_check(res, to_stderr_only=False)
        print(describe_failure(res), file=sys.stderr)
        return 1
    if args.json:
        _print_route_check(res, to_stderr_only=True)
        print(json.dumps(res.to_json()))
        return 0
    names = {p.id: p.name for p in res.state.players}
    result = res.game.result(res.state)
    status = "finished" if res.state.finished else "in progress"
    print(
        f"{args.file.name}: {res.actions} actions, {status}"
        + (f" ({res.state.game_end_reason})" if res.state.game_end_reason else "")
    )
    for pid, value in sorted(result.items(), key=lambda kv: -kv[1]):
        print(f"  {names[pid]:<20} {value:>7}")
    _print_route_check(res, to_stderr_only=False)
    return 0
