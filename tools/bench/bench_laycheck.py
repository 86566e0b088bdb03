"""Lay-check reach benchmark: the operator's reach asked by every tile lay of the 1858 fixture
replays (and the station and private-connection checks), as a replay asks it.

    .venv/bin/python tools/bench/bench_laycheck.py [--repeat N]

Each fixture is replayed once, every reach question it asks being recorded (graph, operator,
hex or stop, tokens, gauge); the questions are then asked again ``--repeat`` times and the
CPU time of a pass printed (best and median), with how many walks ran, how many of them ran
to the end (the rest stopped once the answer was settled) and the ``walk_path`` calls: the
cost the lay check pays that 18xx.games pays in its per-company graph.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ferrovia.board.graph import walk  # noqa: E402
from ferrovia.lib18xx.operating import routing  # noqa: E402
from ferrovia.play.replay import load_export, replay  # noqa: E402

#: the walks routing asks for (patched to record them)
ASKED = ("walk_reached_edges", "reaches_stop", "runs_into")


def record(files: list[Path]) -> list[tuple[Any, tuple[Any, ...], dict[str, Any]]]:
    calls: list[tuple[Any, tuple[Any, ...], dict[str, Any]]] = []
    saved = {name: getattr(routing, name) for name in ASKED if hasattr(routing, name)}

    def recorder(fn: Any) -> Any:
        def call(*a: Any, **kw: Any) -> Any:
            calls.append((fn, a, dict(kw)))
            return fn(*a, **kw)

        return call

    try:
        for name, fn in saved.items():
            setattr(routing, name, recorder(fn))
        for f in files:
            res = replay(load_export(f))
            if res.error is not None:
                raise SystemExit(f"{f.name}: {res.error}")
    finally:
        for name, fn in saved.items():
            setattr(routing, name, fn)
    return calls


def count(calls: list[tuple[Any, tuple[Any, ...], dict[str, Any]]]) -> Counter[str]:
    """Walks run, run to the end, and walk_path calls, over one pass."""
    out: Counter[str] = Counter()
    walk_path, run = walk._Walk.walk_path, walk._Walk.run

    def counted_path(self: Any, *a: Any) -> None:
        out["walk_path calls"] += 1
        walk_path(self, *a)

    def counted_run(self: Any, starts: Any) -> None:
        out["walks"] += 1
        run(self, starts)
        out["walks run to the end"] += 1

    walk._Walk.walk_path, walk._Walk.run = counted_path, counted_run  # type: ignore[method-assign]
    try:
        for fn, a, kw in calls:
            fn(*a, **kw)
    finally:
        walk._Walk.walk_path, walk._Walk.run = walk_path, run  # type: ignore[method-assign]
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    shared = ROOT.parent / "shared" / "fixtures" / "18xx.games" / "1858"
    files = sorted(shared.glob("*.json")) + sorted(
        (ROOT.parent / "shared" / "fixtures" / "reference-random").glob("*.json")
    )
    if not files:
        print("lay-check reach: skipped (no ../shared/fixtures)")
        return 0
    calls = record(files)
    times = []
    for _ in range(args.repeat):
        t0 = time.process_time()
        for fn, a, kw in calls:
            fn(*a, **kw)
        times.append(time.process_time() - t0)
    kinds = Counter(fn.__name__ for fn, _, _ in calls)
    print(f"lay-check reach over {len(files)} fixtures: {dict(kinds)}")
    for what, n in count(calls).items():
        print(f"  {what}: {n}")
    print(
        f"  CPU s per pass: best {min(times):.3f}, median {statistics.median(times):.3f}"
        f" ({args.repeat} passes)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
