"""The heavy-tail figures of issue #12: seeded random games, per game and per player count.

    .venv/bin/python tools/bench/bench_tail.py                       # everything (~100+ games)
    .venv/bin/python tools/bench/bench_tail.py --players 6 --seeds 5 --first 11 --json p6.json
    .venv/bin/python tools/bench/bench_tail.py --merge p*.json       # the table of saved pieces

Each game is ``ferrovia play [--game G] --players P --seed S`` as a library call (the random
bot on every seat): by default 1858 with 2-6 players and 20 seeds each, and 1830 (3-6 players)
and 1858 India (2-6) with a few seeds each.  Times are CPU seconds of this process
(``time.process_time``), which a machine shared by others distorts less than wall time.

Printed: per game its actions, CPU seconds and milliseconds per action; per player count (and
game) the games finished, median and worst seconds per game and per action; overall the worst
and the median milliseconds per action and their ratio (the goal: at most 3), and the slowest
single ``legal_actions`` listing and the slowest route search (``routing.best_run``) with where
they happened (game, seed, action number, round, entity, trains), goal under 200 ms each; and
the slowest listing that ran no route search, with its step (the reach walks of a track or
token step), which the route search cannot be blamed for.

``--dump DIR`` pickles the inputs of every route search slower than ``--dump-ms`` (the graph,
trains, phase, company, tokens, rules of :func:`ferrovia.routes.search.best_routes`) so a slow
search can be rerun alone (``--rerun FILE``: its CPU time and result).  The route search of play
has a work budget (``ferrovia.routes.search.PLAY_BUDGET``): the searches it stopped are counted, and
``--dump-stopped DIR`` pickles theirs, which ``--rerun`` runs exact (how far below the optimum
the budgeted run was).  ``--json FILE`` saves the
per-game figures, ``--merge`` prints the tables of saved pieces (run the 100-game set in
pieces on a busy machine).
"""

from __future__ import annotations

import argparse
import gc
import json
import pickle
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

#: (game, player counts, seeds) of the default run
DEFAULT_SETS: list[tuple[str, list[int], int]] = [
    ("1858", [2, 3, 4, 5, 6], 20),
    ("1830", [2, 3, 4, 5, 6], 2),
    ("1858_india", [3, 4, 5, 6], 2),
]


@dataclass
class Call:
    """One slow call and where it happened."""

    ms: float = 0.0
    gc_ms: float = 0.0  # of which the garbage collector
    action: int = 0  # actions applied before it
    where: str = ""  # round and entity
    what: str = ""  # for a route search: the trains


@dataclass
class GameFigures:
    game: str
    players: int
    seed: int
    actions: int = 0
    finished: bool = False
    cpu: float = 0.0
    gc: float = 0.0  # of which the garbage collector
    listing: Call = field(default_factory=Call)
    #: the slowest listing that ran no route search (``where`` names the step)
    other: Call = field(default_factory=Call)
    route: Call = field(default_factory=Call)
    listings: int = 0
    routes: int = 0
    slow_listings: int = 0  # listings over 200 ms
    slow_others: int = 0  # of which listings with no route search in them
    slow_routes: int = 0  # route searches over 200 ms
    stopped: int = 0  # route searches stopped at their work budget (a run not proven best)

    @property
    def per_action(self) -> float:
        return self.cpu / max(self.actions, 1)

    @staticmethod
    def from_json(d: dict[str, Any]) -> GameFigures:
        d = dict(d)
        d["listing"] = Call(**d["listing"])
        d["other"] = Call(**d.get("other", {}))
        d["route"] = Call(**d["route"])
        return GameFigures(**d)


LIMIT_MS = 200.0


@contextmanager
def watching(
    fig: GameFigures,
    dump: Path | None = None,
    dump_ms: float = LIMIT_MS,
    dump_stopped: Path | None = None,
) -> Iterator[None]:
    """Time every ``Game.legal_actions`` and ``routing.best_run`` call of one game."""
    # (the module play's search is called from: routing.route_search imports best_routes from
    # routesearch when it runs, so a spy on another module's name would see no search)
    from ferrovia.kernel.game import Game
    from ferrovia.lib18xx.operating import routing
    from ferrovia.routes import search as route_module

    orig_legal = Game.legal_actions
    orig_apply = Game.apply
    orig_run = routing.best_run
    orig_best = route_module.best_routes
    applied = [0]
    collecting = [0.0, 0.0]  # garbage collector: CPU seconds so far, start of this pass

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            collecting[1] = time.process_time()
        else:
            collecting[0] += time.process_time() - collecting[1]

    def where(game: Any, state: Any) -> str:
        rnd = state.round
        return f"{rnd.kind} {state.turn}.{rnd.num} {game.current_entity(state)}"

    def apply(self: Any, state: Any, action: Any) -> Any:
        applied[0] += 1
        return orig_apply(self, state, action)

    def legal(self: Any, state: Any) -> Any:
        t0, g0, r0 = time.process_time(), collecting[0], fig.routes
        try:
            return orig_legal(self, state)
        finally:
            ms = 1000 * (time.process_time() - t0)
            fig.listings += 1
            fig.slow_listings += ms > LIMIT_MS
            if ms > fig.listing.ms:
                gc_ms = 1000 * (collecting[0] - g0)
                fig.listing = Call(ms, gc_ms, applied[0], where(self, state))
            if fig.routes == r0:  # no route search: what else is slow
                fig.slow_others += ms > LIMIT_MS
                if ms > fig.other.ms:
                    gc_ms = 1000 * (collecting[0] - g0)
                    step = type(self.active_step(state)).__name__
                    fig.other = Call(ms, gc_ms, applied[0], f"{where(self, state)} {step}")

    def run(game: Any, state: Any, corp: str, train_ids: list[str]) -> Any:
        t0, g0 = time.process_time(), collecting[0]
        try:
            return orig_run(game, state, corp, train_ids)
        finally:
            ms = 1000 * (time.process_time() - t0)
            fig.routes += 1
            fig.slow_routes += ms > LIMIT_MS
            if ms > fig.route.ms:
                gc_ms = 1000 * (collecting[0] - g0)
                names = "+".join(state.trains[t].name for t in train_ids)
                where_ = f"{where(game, state)} ({corp})"
                fig.route = Call(ms, gc_ms, applied[0], where_, names)

    def best(*args: Any, **kw: Any) -> Any:
        t0 = time.process_time()
        out = orig_best(*args, **kw)
        ms = 1000 * (time.process_time() - t0)
        fig.stopped += not out.exact
        for folder in (dump if ms > dump_ms else None, None if out.exact else dump_stopped):
            if folder is not None:
                folder.mkdir(parents=True, exist_ok=True)
                name = f"{fig.game}-p{fig.players}-s{fig.seed}-a{applied[0]}.pickle"
                with open(folder / name, "wb") as fh:
                    pickle.dump((args, kw, ms, out.total), fh)
        return out

    gc.callbacks.append(on_gc)
    Game.legal_actions = legal  # type: ignore[method-assign]
    Game.apply = apply  # type: ignore[method-assign]
    routing.best_run = run
    route_module.best_routes = best
    try:
        yield
    finally:
        gc.callbacks.remove(on_gc)
        fig.gc = collecting[0]
        Game.legal_actions = orig_legal  # type: ignore[method-assign]
        Game.apply = orig_apply  # type: ignore[method-assign]
        routing.best_run = orig_run
        route_module.best_routes = orig_best


def play_one(
    game: str,
    players: int,
    seed: int,
    dump: Path | None = None,
    dump_ms: float = LIMIT_MS,
    dump_stopped: Path | None = None,
) -> GameFigures:
    from ferrovia.play.selfplay import play

    fig = GameFigures(game, players, seed)
    with watching(fig, dump, dump_ms, dump_stopped):
        t0 = time.process_time()
        res = play(players, seed, game_name=game)
        fig.cpu = time.process_time() - t0
    fig.actions = len(res.actions)
    fig.finished = bool(res.state.finished)
    return fig


def game_line(g: GameFigures) -> str:
    return (
        f"  {g.game} p{g.players} seed {g.seed:>2}: {g.actions:>5} actions {g.cpu:7.1f} s "
        f"{1000 * g.per_action:6.2f} ms/action (gc {g.gc:.1f} s); "
        f"listing <= {g.listing.ms:4.0f} ms (gc {g.listing.gc_ms:.0f}), "
        f"route <= {g.route.ms:4.0f} ms (gc {g.route.gc_ms:.0f}); "
        f"{g.stopped} of {g.routes} searches stopped at the budget"
        f"{'' if g.finished else '  NOT FINISHED'}"
    )


def _median_game(games: list[GameFigures]) -> GameFigures:
    ordered = sorted(games, key=lambda g: g.per_action)
    return ordered[(len(ordered) - 1) // 2]


def table(games: list[GameFigures], out: Callable[[str], None] = print) -> None:
    """Per game and player count, then the worst cases overall."""
    out(
        f"{'game':<11} {'P':>1} {'games':>5} {'done':>4} {'s/game med':>10} {'s/game max':>10} "
        f"{'ms/act med':>10} {'ms/act max':>10} {'max/med':>7} {'listing max':>11} "
        f"{'route max':>9}"
    )
    keys = sorted({(g.game, g.players) for g in games})
    for title, players in keys:
        gs = [g for g in games if (g.game, g.players) == (title, players)]
        per = [g.per_action for g in gs]
        med = statistics.median(per)
        out(
            f"{title:<11} {players:>1} {len(gs):>5} {sum(g.finished for g in gs):>4} "
            f"{statistics.median(g.cpu for g in gs):>10.1f} {max(g.cpu for g in gs):>10.1f} "
            f"{1000 * med:>10.2f} {1000 * max(per):>10.2f} {max(per) / med:>7.2f} "
            f"{max(g.listing.ms for g in gs):>8.0f} ms {max(g.route.ms for g in gs):>6.0f} ms"
        )
    for title in sorted({g.game for g in games}):
        gs = [g for g in games if g.game == title]
        worst = max(gs, key=lambda g: g.per_action)
        median = statistics.median(g.per_action for g in gs)
        mid = _median_game(gs)
        out(
            f"{title}: {len(gs)} games, {sum(g.finished for g in gs)} finished; s/action worst "
            f"{1000 * worst.per_action:.2f} ms (p{worst.players} seed {worst.seed}, "
            f"{worst.cpu:.1f} s), median {1000 * median:.2f} ms (p{mid.players} seed {mid.seed}),"
            f" worst/median {worst.per_action / median:.2f} (goal <= 3)"
        )
    lw = max(games, key=lambda g: g.listing.ms)
    rw = max(games, key=lambda g: g.route.ms)
    out(
        f"slowest legal_actions: {lw.listing.ms:.0f} ms ({lw.game} p{lw.players} seed {lw.seed}, "
        f"after action {lw.listing.action}, {lw.listing.where}; garbage collector "
        f"{lw.listing.gc_ms:.0f} ms of it); "
        f"{sum(g.slow_listings for g in games)} of {sum(g.listings for g in games)} listings "
        f"over {LIMIT_MS:.0f} ms"
    )
    ow = max(games, key=lambda g: g.other.ms)
    out(
        f"slowest listing without a route search: {ow.other.ms:.0f} ms ({ow.game} "
        f"p{ow.players} seed {ow.seed}, after action {ow.other.action}, {ow.other.where}; "
        f"garbage collector {ow.other.gc_ms:.0f} ms of it); "
        f"{sum(g.slow_others for g in games)} such listings over {LIMIT_MS:.0f} ms"
    )
    out(
        f"slowest route search: {rw.route.ms:.0f} ms ({rw.game} p{rw.players} seed {rw.seed}, "
        f"after action {rw.route.action}, {rw.route.where}, {rw.route.what}; garbage "
        f"collector {rw.route.gc_ms:.0f} ms of it); "
        f"{sum(g.slow_routes for g in games)} of {sum(g.routes for g in games)} searches "
        f"over {LIMIT_MS:.0f} ms"
    )
    out(
        f"route searches stopped at their work budget (routesearch.PLAY_BUDGET; the best run "
        f"found, not proven best): {sum(g.stopped for g in games)} of "
        f"{sum(g.routes for g in games)} (--dump-stopped DIR, then --rerun: how far below "
        f"the exact optimum)"
    )


def rerun(path: Path) -> tuple[int, int]:
    """Run one dumped route search again, exact (without the budget it may have had): its
    CPU time and total then and now; returns (total then, exact total)."""
    from ferrovia.routes.search import best_routes, cache

    with open(path, "rb") as fh:
        args, kw, ms, total = pickle.load(fh)
    budget = kw.pop("budget", None)
    # cold, as the search ran in the game (the caches hold nothing of it)
    for kept in (cache._RECENT, cache._MAPS, cache._LINK_SETS):
        kept.clear()
    t0 = time.process_time()
    out = best_routes(*args, **kw)
    now = 1000 * (time.process_time() - t0)
    trains = "+".join(spec.name for _, spec in args[1]) if len(args) > 1 else "?"
    then = f"budget {budget}" if budget is not None else "exact"
    print(
        f"{path.name}: {trains}, {ms:.0f} ms then ({then}), {now:.0f} ms now exact; total "
        f"{total} then, {out.total} now{'' if out.total == total else '  DIFFERENT'}"
    )
    return total, out.total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", help="1858, 1830, 1858_india (default: all)")
    ap.add_argument("--players", type=int, nargs="*")
    ap.add_argument("--seeds", type=int, help="games per player count")
    ap.add_argument("--first", type=int, default=1, help="first seed")
    ap.add_argument("--json", type=Path, help="save the per-game figures here")
    ap.add_argument("--merge", type=Path, nargs="*", help="print the table of saved pieces")
    ap.add_argument("--dump", type=Path, help="pickle slow route searches' inputs here")
    ap.add_argument("--dump-ms", type=float, default=LIMIT_MS)
    ap.add_argument(
        "--dump-stopped", type=Path, help="pickle the inputs of searches stopped at the budget"
    )
    ap.add_argument("--rerun", type=Path, nargs="*", help="rerun dumped route searches")
    args = ap.parse_args(argv)
    if args.rerun:
        pairs = [rerun(p) for p in args.rerun]
        gaps = [(exact - then) / exact for then, exact in pairs if exact]
        if gaps:
            print(
                f"{len(pairs)} searches: {sum(g == 0 for g in gaps)} found the optimum; below "
                f"it by {100 * statistics.mean(gaps):.1f} % on average, at most "
                f"{100 * max(gaps):.1f} %"
            )
        return 0
    if args.merge:
        games = [GameFigures.from_json(d) for p in args.merge for d in json.loads(p.read_text())]
        table(games)
        return 0
    sets = []
    for title, counts, seeds in DEFAULT_SETS:
        if args.game and title not in args.game:
            continue
        chosen = [p for p in (args.players or counts) if p in counts]
        sets.append((title, chosen, args.seeds or seeds))
    games: list[GameFigures] = []
    for title, counts, seeds in sets:
        for players in counts:
            for seed in range(args.first, args.first + seeds):
                g = play_one(title, players, seed, args.dump, args.dump_ms, args.dump_stopped)
                games.append(g)
                print(game_line(g), flush=True)
                if args.json:
                    tmp = args.json.with_suffix(args.json.suffix + ".tmp")
                    tmp.write_text(json.dumps([asdict(x) for x in games]))
                    tmp.replace(args.json)
    if games:
        table(games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
