"""``ferrovia routes --game FILE --at ID --company SYM``: a company's best routes at a moment.

Replays the export through the rules engine (:mod:`ferrovia.play.replay`) up to and including action
``ID`` (``--before ID``: up to the action before it, e.g. to compare with a recorded
``run_routes``), then runs the exact search :func:`ferrovia.routes.search.best_routes` for the
company's trains and prints each route (train, stops, revenue) and the total (``--budget N``:
the search as play runs it, stopped after N units of work, then the best run found).  When the
rules engine cannot replay that far (an illegal action, another game's data), the run fails
with exit 1 and the reason: there is no position to value.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ferrovia.errors import FerroviaError

if TYPE_CHECKING:
    from ferrovia.board.graph import TrackGraph
    from ferrovia.lib18xx.game import Game18xx
    from ferrovia.lib18xx.state import State18xx
    from ferrovia.routes.search import BestRoutes
    from ferrovia.routes.value import TrainSpec


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "routes", help="the best routes of a company at a moment of a game"
    )
    p.add_argument("--game", type=Path, required=True, help="18xx.games export (JSON)")
    at = p.add_mutually_exclusive_group(required=True)
    at.add_argument("--at", type=int, help="after this action id")
    at.add_argument("--before", type=int, help="just before this action id")
    p.add_argument("--company", required=True, help="company symbol, e.g. MZA")
    p.add_argument(
        "--game-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="the game's data directory (default: the game the file's title names)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument(
        "--budget",
        type=int,
        default=None,
        metavar="N",
        help="stop the search after N units of work, as play does (routesearch.PLAY_BUDGET); "
        "a run found then is legal but not proven best (default: exact)",
    )
    p.set_defaults(func=run)


class _NoSuchCompany(FerroviaError):
    pass


class _ReplayStopped(FerroviaError):
    pass


def _from_rules(
    data: dict[str, Any], until: int, company: str, game_dir: Path
) -> tuple[Game18xx, State18xx, list[tuple[str, TrainSpec]]]:
    from ferrovia.lib18xx.game import as_18xx
    from ferrovia.lib18xx.operating import common, routing
    from ferrovia.play.replay import replay

    res = replay(data, until=until, game_dir=game_dir)
    if res.error is not None:
        raise _ReplayStopped(f"the replay stopped before action {until}: {res.error}")
    game, state = as_18xx(res.game, res.state)
    if company not in state.corporations:
        known = ", ".join(sorted(state.corporations))
        raise _NoSuchCompany(f"no public company {company!r} (companies: {known})")
    trains = [(t, routing.train_spec(game, state, t)) for t in common.trains_of(state, company)]
    return game, state, trains


def run(args: argparse.Namespace) -> int:
    from ferrovia.outputs import game_directory, readable_file
    from ferrovia.play.gamefile import read_game_file
    from ferrovia.play.replay import locate_game

    readable_file(args.game, "game file")
    if args.game_dir is not None:
        game_directory(args.game_dir)
    data = read_game_file(args.game)  # a DataError at FILE:LINE:COL when it cannot be read
    named = args.at if args.at is not None else args.before
    ids = [a.get("id") for a in data["actions"] if isinstance(a.get("id"), int)]
    if named not in ids and not (args.at == 0):
        span = f"its actions are numbered {min(ids)}..{max(ids)}" if ids else "it has none"
        flag = "--at" if args.at is not None else "--before"
        print(
            f"ferrovia routes: {flag} {named}: {args.game} has no action {named} ({span})",
            file=sys.stderr,
        )
        return 2
    until = args.at if args.at is not None else args.before - 1
    # the game must be known and its data valid: no reading of another game's map instead
    game_dir = locate_game(data, file=args.game, game_dir=args.game_dir)
    # a replay that stops before the moment asked raises _ReplayStopped (exit 1): the position
    # is unknown, and routes on a guessed one would be a wrong answer
    game, state, trains = _from_rules(data, until, args.company, game_dir)
    if not trains:
        if args.json:
            print(json.dumps({"company": args.company, "total": 0, "seconds": 0.0, "routes": []}))
        else:
            print(f"{args.company}: no trains, so no run (best run 0)")
        return 0
    from ferrovia.lib18xx.operating import routing

    graph = routing.track_graph(game, state)
    start = time.perf_counter()
    # the search replay --check-routes runs (the game's route rules), or play's with --budget
    best = routing.route_search(game, state, args.company, trains, budget=args.budget)
    took = time.perf_counter() - start
    if args.json:
        out = _as_json(graph, best, args.company, took)
        if args.budget is not None:
            out["exact"] = best.exact
        print(json.dumps(out))
        return 0
    print(f"{args.company}: best run {best.total} ({len(trains)} trains, {took * 1000:.1f} ms)")
    if not best.exact:
        print(f"  (the search stopped at its budget of {args.budget}: not proven best)")
    for r in best.routes:
        stops = "-".join(graph.stops[s].hex for s in r.route.stops)
        print(f"  {r.train:<8} {r.revenue:>5}  {stops}")
    ran = {r.train for r in best.routes}
    for tid, _ in trains:
        if tid not in ran:
            print(f"  {tid:<8}     0  (no route)")
    return 0


def _as_json(graph: TrackGraph, best: BestRoutes, company: str, took: float) -> dict[str, Any]:
    return {
        "company": company,
        "total": best.total,
        "seconds": round(took, 4),
        "routes": [
            {
                "train": r.train,
                "revenue": r.revenue,
                "hexes": [graph.stops[s].hex for s in r.route.stops],
                "nodes": [graph.stops[s].signature for s in r.route.stops],
                "connections": r.route.connections(),
            }
            for r in best.routes
        ],
    }
