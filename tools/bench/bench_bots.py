"""Bot games: throughput (games per minute per core) and what the greedy bot's games look like.

Plays N 4-player 1858 games with greedy bots in every seat and M mixed games (greedy, greedy,
random, greedy) through :func:`ferrovia.play.simulate.run_games`, and prints

- games per minute per core: games / CPU minutes spent inside the games (each worker process
  measures its own CPU time, so the figure does not depend on how many cores ran them),
- the share of greedy games that end by the bank breaking, their ORs per game next to the
  recorded 18xx.games games' (../shared/fixtures/18xx.games/1858, when present),
- how often the best greedy player beats the random one in the mixed games.

    .venv/bin/python tools/bench/bench_bots.py [--games N] [--mixed M] [--workers W] [--seed S]

Figures (session 3, 2 shared cores): see README "Bots and simulate".
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from ferrovia.play import simulate as sim

FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "18xx.games" / "1858"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="all-greedy games (default 40)")
    ap.add_argument("--mixed", type=int, default=20, help="mixed games (default 20)")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: cores)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    greedy = sim.run_games(
        sim.specs_for("1858", args.games, 4, ["greedy"] * 4, args.seed), workers=args.workers
    )
    wall = time.perf_counter() - t0
    ok = [r for r in greedy if "error" not in r]
    cpu = sum(r["cpu_seconds"] for r in ok)
    print(f"greedy x4, {len(ok)} games ({len(greedy) - len(ok)} failed), wall {wall:.0f} s")
    for r in [r for r in greedy if "error" in r][:3]:
        print(f"  seed {r['seed']} failed: {r['error'][:200]}")
    if ok:
        print(
            f"  games per minute per core: {60 * len(ok) / cpu:.2f} "
            f"(CPU {cpu / len(ok):.1f} s a game, {statistics.fmean(r['actions'] for r in ok):.0f}"
            " actions)"
        )
        bank = sum(r["end_reason"] == "bank" for r in ok)
        lo, hi = sim.wilson(bank, len(ok))
        print(f"  bank broken: {bank}/{len(ok)} = {bank / len(ok):.0%} (95% {lo:.0%}-{hi:.0%})")
        ors = sorted(r["ors"] for r in ok)
        print(
            f"  ORs per game: mean {statistics.fmean(ors):.1f}, median {statistics.median(ors)},"
            f" {ors[0]}-{ors[-1]}; all: {ors}"
        )
    for path in sorted(FIXTURES.glob("*.json")):
        rec = sim.replay_record(path)
        print(
            f"  recorded {rec['file']}: {rec['ors']} ORs, {rec['actions']} actions, "
            f"ends {rec['end_reason']}"
        )
    if args.mixed:
        mixed = sim.run_games(
            sim.specs_for(
                "1858", args.mixed, 4, ["greedy", "greedy", "random", "greedy"], args.seed + 1000
            ),
            workers=args.workers,
        )
        s = sim.summarise(mixed)
        h = s["winners"]["head_to_head"].get("greedy>random")
        if h:
            print(
                f"mixed greedy,greedy,random,greedy, {h['of']} games: the best greedy player "
                f"beats the random one in {h['count']} = {h['rate']:.0%} "
                f"(95% {h['ci95'][0]:.0%}-{h['ci95'][1]:.0%}); bank broken "
                f"{s['bank_broken']['rate']:.0%}, ORs mean {s['length']['ors'].get('mean')}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
