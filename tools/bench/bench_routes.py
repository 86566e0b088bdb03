"""Time the optimal route search at every operating turn of the 1858 fixture games.

For every ``run_routes`` of the four 18xx.games exports (state from
:mod:`ferrovia.routes.exportstate`),
runs :func:`ferrovia.routes.search.best_routes` for the operating company and its trains and prints
the
total, median and worst time per company turn, and whether the best found is ever below what the
players recorded (it must not be: their run is legal).

    .venv/bin/python tools/bench/bench_routes.py [FILES...] [--slowest N] [--limit N]

It also prints how the time grows with the network (stops of the track graph, in buckets) and
with the number of trains.  ``--limit N`` passes a candidate limit (turns it stops are counted
as inexact); without it every turn is the exact search.

Figures (session 2, 2 cores, every turn exact).  The four 18xx.games games, 299 company
turns: total 1.7-2.0 s, median 1.7-1.8 ms, worst 150-180 ms (1858_game_end_bank #979, A, two 7E; it
took 416 s, then 33 s, before E/D trains were searched by stop sequences), none over 200 ms.
By stops the company reaches: 0-9 median 0.3 ms, 10-19 0.6, 20-29 1.0, 30-39 2.2 (worst 77),
40-49 3.8 (worst 180), 50-59 4.6 ms (worst 47); by trains: one 1.2 ms (worst 67), two 2.3 ms
(worst 180), three 1.0 ms.  The 8 random reference games (pass their files), 1,167 turns:
median 1.3 ms, worst 0.4-0.5 s (three E trains, or 6E+7E), 5 turns over 200 ms.

Session 10 (a slower machine: the session-9 code took 220-237 ms at #979 there): total
3.05-3.10 s, median 4.5-4.8 ms, worst 174-178 ms (#979), none over 200 ms, three runs at
load average 1.

Session 11 (the machine slower again: the session-10 code took 271-317 ms at #979 alone):
total 4.16-4.33 s, median 6.9-7.2 ms, worst 205-213 ms (#979, 818M instructions against
1,086M at the end of session 10), one turn over 200 ms in each of three runs at load 0.4.

Session 12 (the machine's speed moved by half within the session: at its start the session-11
code read total 4.47-4.55 s, median 7.4-7.5 ms, worst 234-275 ms; an hour later, alternating
the two at load 1-2, the session-11 code total 2.99-3.25 s, worst 140-184 ms): total 2.51-2.72
s, median 4.2-4.9 ms, worst 116-130 ms (#979, 632M instructions against 817M), none over
200 ms.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

from ferrovia.board.graph import reachable
from ferrovia.routes.exportstate import ExportReader, RouteData
from ferrovia.routes.search import best_routes
from ferrovia.routes.search.cache import _LINK_SETS, _MAPS, _RECENT

DEFAULT = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "18xx.games" / "1858"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", type=Path, help="export files (default: the 4 fixtures)")
    ap.add_argument("--slowest", type=int, default=5, help="list the N slowest turns")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per turn")
    ap.add_argument("--limit", type=int, default=None, help="candidate limit per turn")
    args = ap.parse_args(argv)
    files = args.games or sorted(DEFAULT.glob("*.json"))
    if not files:
        print(f"no games found (looked in {DEFAULT})", file=sys.stderr)
        return 1
    data = RouteData.load()
    times: list[tuple[float, str, int, str, int, int]] = []
    by_size: dict[int, list[float]] = {}
    by_trains: dict[int, list[float]] = {}
    inexact = 0
    below = 0
    for f in files:
        for snap in ExportReader.open(f, data).snapshots():
            action = snap.action
            company = action["entity"]
            trains = sorted(snap.company_trains(company).items())
            graph = snap.graph
            # the search itself, cold: not a repeat found in the cache, nor reusing the work
            # of an earlier turn's search on the same chains (which a game does reuse)
            _RECENT.clear()
            _MAPS.clear()
            _LINK_SETS.clear()
            # the garbage of earlier turns collected first: a collection pass that happens to
            # start inside this turn's timing walks the whole heap (219682 #648, a 6 ms search,
            # read 80-95 ms so)
            gc.collect()
            start = time.process_time()
            best = best_routes(
                graph,
                trains,
                phase=snap.phase_colours,
                company=company,
                tokens=snap.tokens,
                limit=args.limit,
            )
            took = time.process_time() - start
            inexact += not best.exact
            by_size.setdefault(
                len(reachable(graph, company, tokens=snap.tokens, gauge=None).stops) // 10 * 10, []
            ).append(took)
            by_trains.setdefault(len(trains), []).append(took)
            recorded = sum(int(r["revenue"]) for r in action["routes"])
            if best.total < recorded and best.exact:
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
        f"best below the recorded run: {below}; over 200 ms: {sum(t > 0.2 for t in ts)}, "
        f"over 1 s: {sum(t > 1 for t in ts)}; inexact (limit): {inexact}"
    )

    def row(label: str, xs: list[float]) -> str:
        return (
            f"  {label:<14} {len(xs):4d} turns  median {statistics.median(xs) * 1000:8.1f} ms"
            f"  worst {max(xs) * 1000:10.1f} ms"
        )

    print("by network size (stops the company reaches):")
    for size in sorted(by_size):
        print(row(f"{size}-{size + 9}", by_size[size]))
    print("by number of trains:")
    for n in sorted(by_trains):
        print(row(f"{n} train(s)", by_trains[n]))
    better = sum(1 for t in times if t[4] > t[5])
    print(f"turns where a better run existed than the one played: {better}")
    for took, name, aid, company, total, recorded in sorted(times, reverse=True)[: args.slowest]:
        print(f"  {took * 1000:8.1f} ms  {name} #{aid} {company}: {total} (played {recorded})")
    return 1 if below else 0


if __name__ == "__main__":
    raise SystemExit(main())
