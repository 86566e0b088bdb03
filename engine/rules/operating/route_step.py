"""Run trains [1858 rules 9.5]: record each train's route and what it earns.

The route search and revenue are the routes engineer's (:mod:`ferrovia.routes`); this step checks
the trains are the company's own, each runs once, and keeps the routes for the dividend step.
Every route is valued by Ferrovia's route engine; a recorded revenue (18xx.games export) must
equal it.
"""

from __future__ import annotations

from typing import Any

from ferrovia.errors import IllegalAction
from ferrovia.rules.actions import Action, RunRoutes
from ferrovia.rules.operating import common, routing
from ferrovia.rules.step import Step


def runnable_trains(step: Step, corp: str) -> list[str]:
    return [t for t in common.trains_of(step.state, corp) if not step.state.trains[t].operated]


class RouteStep(Step):
    NAME = "route"
    DESCRIPTION = "Run Routes"

    @classmethod
    def round_data(cls) -> dict[str, Any]:
        return {"routes": []}

    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity() or not common.operating_company(self.state, entity):
            return []
        return ["run_routes"] if runnable_trains(self, entity) else []

    def process_run_routes(self, action: Action) -> None:
        assert isinstance(action, RunRoutes)
        op = action.entity
        seen: set[str] = set()
        for route in action.routes:
            if route.train not in self.state.trains:
                raise self.illegal(action, "9.5 trains", f"no train {route.train}")
            train = self.state.trains[route.train]
            if train.owner != op:
                raise self.illegal(action, "9.5 trains", f"{route.train} is not {op}'s train")
            if route.train in seen:
                raise self.illegal(action, "9.5 trains", f"{route.train} runs twice")
            if train.operated:
                raise self.illegal(action, "9.5 trains", f"{route.train} has already run")
            seen.add(route.train)
        try:
            values = routing.route_revenues(self.game, self.state, op, action.routes)
        except IllegalAction as exc:
            raise self.illegal(action, exc.rule or "9.1 routes", exc.message) from None
        routes: list[dict[str, Any]] = []
        for route, value in zip(action.routes, values, strict=True):
            if value != route.revenue:
                raise self.illegal(
                    action,
                    "9.5 route value",
                    f"{route.train} on {'-'.join(route.hexes)} earns {value}, not {route.revenue}",
                )
            routes.append({"train": route.train, "revenue": value, "hexes": list(route.hexes)})
            name = self.state.trains[route.train].name
            self.log(f"{op} runs a {name} train for {value}: {route.revenue_str}")
        self.rdata["routes"] = routes
        self.pass_()

    def legal_actions(self, entity: str) -> list[Action]:
        """The company's best run (exact search of :func:`ferrovia.routes.best_routes`), and not
        running at all (always legal)."""
        out: list[Action] = []
        best = routing.best_run(self.game, self.state, entity, runnable_trains(self, entity))
        if best:
            out.append(RunRoutes(entity=entity, entity_type="corporation", routes=tuple(best)))
        out.append(RunRoutes(entity=entity, entity_type="corporation", routes=()))
        return out
