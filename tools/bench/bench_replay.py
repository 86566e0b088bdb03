"""Replay benchmark: each fixture's replay time in-process and as a whole command.

    .venv/bin/python tools/bench/bench_replay.py [--repeat N] [--checked]

In-process = applying the actions (every action checked against the rules), excluding reading
the file and loading the definition: "first" is the first replay of the fixture in this process
(cold per-map caches, what one ``ferrovia replay`` pays), "replay s" the best of ``--repeat``.
"load s" is the definition load of the first replay (``seconds.load``: the on-disk definition
cache of engine/data/defcache.py hits after the first run), "cmd s" the whole ``ferrovia replay
--json`` command's wall time (interpreter start, imports, load, replay).  ``--checked`` also
snapshots the state before every action (what ``Game.apply`` does for interactive play).
18xx.games replays these in 0.24-0.37 s in-process without checks (0.3-0.8 ms per action).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ferrovia.play.replay import load_export, replay  # noqa: E402


def fixtures() -> list[Path]:
    shared = ROOT.parent / "shared" / "fixtures"
    return sorted(shared.glob("18xx.games/1858/*.json")) + sorted(
        shared.glob("reference-random/*.json")
    )


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--checked", action="store_true")
    args = ap.parse_args()
    files = fixtures()
    if not files:
        print("no fixtures (../shared/fixtures absent)")
        return 1
    print(
        f"{'fixture':<38} {'actions':>7} {'first s':>8} {'replay s':>9} {'ms/act':>7} "
        f"{'act/s':>7} {'load s':>7} {'cmd s':>7}"
    )
    tot_a = tot_t = tot_first = 0.0
    for f in files:
        data = load_export(f)
        best = float("inf")
        n = 0
        first = load = 0.0
        for i in range(max(args.repeat, 1)):
            res = replay(data, check=args.checked)
            if res.error is not None:
                print(f"{f.name}: FAILS at {res.failed_action and res.failed_action.get('id')}")
                break
            if i == 0:
                first, load = res.replay_seconds, res.load_seconds
            best = min(best, res.replay_seconds)
            n = res.actions
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "ferrovia", "replay", "--json", str(f)],
            check=False,
            capture_output=True,
            cwd=ROOT,
        )
        cmd = time.perf_counter() - t0
        tot_a += n
        tot_t += best
        tot_first += first
        print(
            f"{f.name:<38} {n:>7} {first:>8.3f} {best:>9.3f} {1000 * best / max(n, 1):>7.3f} "
            f"{n / best:>7.0f} {load:>7.3f} {cmd:>7.2f}"
        )
    ms = 1000 * tot_t / tot_a
    print(
        f"{'total':<38} {int(tot_a):>7} {tot_first:>8.3f} {tot_t:>9.3f} {ms:>7.3f} "
        f"{tot_a / tot_t:>7.0f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
