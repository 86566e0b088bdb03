"""``ferrovia replay FILE``: replay an 18xx.games export (or Ferrovia log) and print standings."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.errors import FerroviaError


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "replay", help="replay an 18xx.games export and print the standings"
    )
    p.add_argument("file", type=Path)
    p.add_argument("--json", action="store_true", help="print the machine-readable summary")
    p.add_argument(
        "--until", type=int, default=None, help="stop after this action id (0: the start)"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from engine.replay import describe_failure, load_export, replay

    try:
        data = load_export(args.file)
    except (OSError, json.JSONDecodeError) as exc:
        print(f"ferrovia: cannot read {args.file}: {exc}", file=sys.stderr)
        return 1
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
    try:
        res = replay(data, until=args.until)
    except FerroviaError as exc:
        print(f"ferrovia: {exc}", file=sys.stderr)
        return 1
    if res.error is not None:
        print(describe_failure(res), file=sys.stderr)
        return 1
    if args.json:
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
    return 0
