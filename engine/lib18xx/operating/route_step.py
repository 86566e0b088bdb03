"""Run trains: record each train's route and what it earns.

The route search and revenue are the routes engineer's (:mod:`ferrovia.routes.value`); this step
checks
the trains are the company's own, each runs once, and keeps the routes for the dividend step.
Every route is valued by Ferrovia's route engine; a recorded revenue (18xx.games export) must
equal it.
"""

from __future__ import annotations

from typing import Any

from ferrovia.errors import IllegalAction
from ferrovia.kernel.actions import Action
from ferrovia.lib18xx.actions import Choose, RunRoutes
from ferrovia.lib18xx.operating import common, routing
from ferrovia.lib18xx.step import Step18xx


def runnable_trains(step: Step18xx, corp: str) -> list[str]:
    """The company's trains that have not run yet; a car never runs on its own."""
    return [
        t for t in common.engines(step.game, step.state, corp) if not step.state.trains[t].operated
    ]


def attachable_trains(step: Step18xx, corp: str) -> list[str]:
    """The trains of ``corp`` its car could be attached to (trains.yaml ``car.attaches_to``),
    while no car is attached yet this operating round."""
    if routing.attached_car(step.state, corp) is not None:
        return []
    out: list[str] = []
    for car_id in common.cars(step.game, step.state, corp)[:1]:
        gauge = common.train_type_def(step.game, car_id).car.attaches_to
        for tid in common.engines(step.game, step.state, corp):
            typ, variant = common.face_def(step.game, step.state.trains[tid].name)
            if str((variant or typ).gauge) == gauge:
                out.append(tid)
    return out


class RouteStep(Step18xx):
    NAME = "route"
    DESCRIPTION = "Run Routes"

    @classmethod
    def round_data(cls) -> dict[str, Any]:
        return {"routes": [], "attached": {}}

    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity() or not common.operating_company(self.state, entity):
            return []
        if not runnable_trains(self, entity):
            return []
        if not self.game.rules.route_available(self.game, self.state, entity):
            return []
        return ["run_routes", "choose"] if attachable_trains(self, entity) else ["run_routes"]

    def process_choose(self, action: Action) -> None:
        """Attach the company's car to one of its trains for this operating round."""
        assert isinstance(action, Choose)
        op = action.entity
        if action.choice not in attachable_trains(self, op):
            raise self.illegal(action, "cars", f"{op} cannot attach its car to {action.choice!r}")
        car = common.cars(self.game, self.state, op)[0]
        self.rdata.setdefault("attached", {})[op] = [car, action.choice]
        name = self.state.trains[action.choice].name
        self.log(f"{op} attaches its {self.state.trains[car].name} to its {name} train")

    def process_run_routes(self, action: Action) -> None:
        assert isinstance(action, RunRoutes)
        op = action.entity
        seen: set[str] = set()
        for route in action.routes:
            if route.train not in self.state.trains:
                raise self.illegal(action, "running trains", f"no train {route.train}")
            train = self.state.trains[route.train]
            if train.owner != op:
                raise self.illegal(action, "running trains", f"{route.train} is not {op}'s train")
            if route.train in seen:
                raise self.illegal(action, "running trains", f"{route.train} runs twice")
            if train.operated:
                raise self.illegal(action, "running trains", f"{route.train} has already run")
            seen.add(route.train)
        try:
            values = routing.route_revenues(self.game, self.state, op, action.routes)
        except IllegalAction as exc:
            raise self.illegal(action, exc.rule or "routes", exc.message) from None
        routes: list[dict[str, Any]] = []
        for route, value in zip(action.routes, values, strict=True):
            if value != route.revenue:
                raise self.illegal(
                    action,
                    "route value",
                    f"{route.train} on {'-'.join(route.hexes)} earns {value}, not {route.revenue}",
                )
            routes.append({"train": route.train, "revenue": value, "hexes": list(route.hexes)})
            name = self.state.trains[route.train].name
            self.log(f"{op} runs a {name} train for {value}: {route.revenue_str}")
        # 18xx.games' engine takes a run's extra revenue (1858 India's mine, oil and port
        # bonus) from the action, as its client computed it: it must be the game's own figure
        extra = self.game.rules.extra_revenue(self.game, self.state, op, routes)
        if action.extra_revenue != extra:
            raise self.illegal(
                action,
                "route value",
                f"{op}'s extra revenue is {extra}, not {action.extra_revenue}",
            )
        self.rdata["routes"] = routes
        self.pass_()

    def legal_actions(self, entity: str) -> list[Action]:
        """The company's best run (:func:`ferrovia.routes.search.best_routes` with the work
        budget of play, ``ferrovia.routes.search.PLAY_BUDGET``: the exact best unless the search
        stops at the budget, then the best legal run it found, at worst the greedy one -- so no
        listing waits on the exponential corner of two long trains; README, Speed, has the figures:
        in 118 random games 1.8 % of the searches stopped, up to 13 % in the slowest
        1858 6-player games), and not running at all (always legal).  Deterministic:
        the search's inputs give the same run in any process, whatever ran before."""
        out: list[Action] = []
        for tid in attachable_trains(self, entity):
            out.append(Choose(entity=entity, entity_type="corporation", choice=tid))
        best = routing.best_run(self.game, self.state, entity, runnable_trains(self, entity))
        if best:
            dicts = [{"train": r.train, "revenue": r.revenue, "hexes": list(r.hexes)} for r in best]
            extra = self.game.rules.extra_revenue(self.game, self.state, entity, dicts)
            out.append(
                RunRoutes(
                    entity=entity,
                    entity_type="corporation",
                    routes=tuple(best),
                    extra_revenue=extra,
                )
            )
        out.append(RunRoutes(entity=entity, entity_type="corporation", routes=()))
        return out
