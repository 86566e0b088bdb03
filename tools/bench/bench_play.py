"""Seeded random games: CPU seconds per game and per action, and the slowest single calls.

    .venv/bin/python tools/bench/bench_play.py [--players 2 3 4 5 6] [--seeds 20] [--first 1]

Each game is ``ferrovia play --players N --seed S`` as a library call (the random bot on every
seat).  Times are CPU seconds of this process (user + sys), which a busy shared machine
distorts less than wall time.  Per player count: games finished, the median and the worst
game's seconds per action and their ratio (the heavy-tail figure), and the slowest single
``legal_actions`` listing and route search (``best_run``) of all those games.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


@dataclass
class GameFigures:
    players: int
    seed: int
    actions: int
    finished: bool
    cpu: float
    worst_listing: float = 0.0
    worst_route: float = 0.0

    @property
    def per_action(self) -> float:
        return self.cpu / max(self.actions, 1)


@dataclass
class _Watch:
    """The slowest call of a wrapped function."""

    worst: float = 0.0
    calls: int = 0
    wrapped: list[tuple[Any, str, Any]] = field(default_factory=list)

    def wrap(self, owner: Any, name: str) -> None:
        original = getattr(owner, name)
        watch = self

        def timed(*args: Any, **kw: Any) -> Any:
            t0 = time.process_time()
            try:
                return original(*args, **kw)
            finally:
                watch.calls += 1
                watch.worst = max(watch.worst, time.process_time() - t0)

        self.wrapped.append((owner, name, original))
        setattr(owner, name, timed)

    def restore(self) -> None:
        for owner, name, original in reversed(self.wrapped):
            setattr(owner, name, original)


@contextmanager
def watching() -> Iterator[tuple[_Watch, _Watch]]:
    from ferrovia.kernel.game import Game
    from ferrovia.lib18xx.operating import routing

    listing, route = _Watch(), _Watch()
    listing.wrap(Game, "legal_actions")
    route.wrap(routing, "best_run")
    try:
        yield listing, route
    finally:
        listing.restore()
        route.restore()


def play_one(players: int, seed: int) -> GameFigures:
    from ferrovia.play.selfplay import play

    with watching() as (listing, route):
        t0 = time.process_time()
        res = play(players, seed)
        cpu = time.process_time() - t0
    return GameFigures(
        players,
        seed,
        len(res.actions),
        bool(res.state.finished),
        cpu,
        listing.worst,
        route.worst,
    )


def summary(games: list[GameFigures]) -> str:
    per = [g.per_action for g in games]
    median = statistics.median(per)
    worst = max(games, key=lambda g: g.per_action)
    return (
        f"{games[0].players} players: {sum(g.finished for g in games)}/{len(games)} finished, "
        f"{statistics.median(g.cpu for g in games):.1f} s/game median, "
        f"{1000 * median:.1f} ms/action median, worst {1000 * worst.per_action:.1f} "
        f"(seed {worst.seed}, {worst.per_action / median:.2f}x median); slowest listing "
        f"{1000 * max(g.worst_listing for g in games):.0f} ms, slowest route search "
        f"{1000 * max(g.worst_route for g in games):.0f} ms"
    )


def run(
    player_counts: list[int], seeds: range, out: Callable[[str], None] = print
) -> dict[int, list[GameFigures]]:
    results: dict[int, list[GameFigures]] = {}
    for n in player_counts:
        games = []
        for seed in seeds:
            g = play_one(n, seed)
            games.append(g)
            out(
                f"  p{n} seed {seed}: {g.actions} actions, {g.cpu:.1f} s, "
                f"{1000 * g.per_action:.1f} ms/action, listing <= {1000 * g.worst_listing:.0f} ms,"
                f" route <= {1000 * g.worst_route:.0f} ms{'' if g.finished else ' (NOT finished)'}"
            )
        results[n] = games
        out(summary(games))
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5, 6])
    ap.add_argument("--seeds", type=int, default=20, help="games per player count")
    ap.add_argument("--first", type=int, default=1, help="first seed")
    args = ap.parse_args(argv)
    run(args.players, range(args.first, args.first + args.seeds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
