"""Time the optimal route search at every operating turn of the 1858 fixture games.

For every ``run_routes`` of the four 18xx.games exports (state from :mod:`engine.routestate`),
runs :func:`engine.routes.best_routes` for the operating company and its trains and prints the
total, median and worst time per company turn, and whether the best found is ever below what the
players recorded (it must not be: their run is legal).

    .venv/bin/python tools/bench/bench_routes.py [--games DIR_OR_FILES...] [--slowest N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from engine.routes import best_routes
from engine.routestate import ExportReader, RouteData

DEFAULT = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "18xx.games" / "1858"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", type=Path, help="export files (default: the 4 fixtures)")
    ap.add_argument("--slowest", type=int, default=5, help="list the N slowest turns")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per turn")
    args = ap.parse_args(argv)
    files = args.games or sorted(DEFAULT.glob("*.json"))
    if not files:
        print(f"no games found (looked in {DEFAULT})", file=sys.stderr)
        return 1
    data = RouteData.load()
    times: list[tuple[float, str, int, str, int, int]] = []
    below = 0
    for f in files:
        for snap in ExportReader.open(f, data).snapshots():
            action = snap.action
            company = action["entity"]
            trains = sorted(snap.company_trains(company).items())
            graph = snap.graph
            start = time.perf_counter()
            best = best_routes(
                graph, trains, phase=snap.phase_colours, company=company, tokens=snap.tokens
            )
            took = time.perf_counter() - start
            recorded = sum(int(r["revenue"]) for r in action["routes"])
            if best.total < recorded:
                below += 1
                print(f"BELOW {f.name} #{action['id']}: {best.total} < {recorded}")
            times.append((took, f.name, action["id"], company, best.total, recorded))
            if args.verbose:
                print(
                    f"{f.name} #{action['id']} {company}: {best.total} (played {recorded}) "
                    f"{took * 1000:.1f} ms",
                    flush=True,
                )
    ts = [t[0] for t in times]
    print(
        f"{len(ts)} company turns in {len(files)} games: total {sum(ts):.2f} s, "
        f"median {statistics.median(ts) * 1000:.1f} ms, worst {max(ts) * 1000:.1f} ms; "
        f"best below the recorded run: {below}"
    )
    better = sum(1 for t in times if t[4] > t[5])
    print(f"turns where a better run existed than the one played: {better}")
    for took, name, aid, company, total, recorded in sorted(times, reverse=True)[: args.slowest]:
        print(f"  {took * 1000:8.1f} ms  {name} #{aid} {company}: {total} (played {recorded})")
    return 1 if below else 0


if __name__ == "__main__":
    raise SystemExit(main())
