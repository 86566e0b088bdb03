"""Run trains [1858 rules 9.5]: record each train's route and what it earns.

The route search and revenue are the routes engineer's (:mod:`engine.routes`); this step checks
the trains are the company's own, each runs once, and keeps the routes for the dividend step.
When a recorded action carries revenues (an 18xx.games export), they are checked against
Ferrovia's own computation when one is available for the route.
"""

from __future__ import annotations

from typing import Any

from engine.rules.actions import Action, RunRoutes
from engine.rules.operating import common
from engine.rules.registry import register_step
from engine.rules.step import Step


def runnable_trains(step: Step, corp: str) -> list[str]:
    return [t for t in common.trains_of(step.state, corp) if not step.state.trains[t].operated]


@register_step
class RouteStep(Step):
    NAME = "route"
    DESCRIPTION = "Run Routes"

    @classmethod
    def round_data(cls) -> dict[str, Any]:
        return {"routes": []}

    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity() or entity not in self.state.corporations:
            return []
        return ["run_routes"] if runnable_trains(self, entity) else []

    def process_run_routes(self, action: Action) -> None:
        assert isinstance(action, RunRoutes)
        op = action.entity
        seen: set[str] = set()
        routes: list[dict[str, Any]] = []
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
            revenue = self._revenue(action, route)
            routes.append({"train": route.train, "revenue": revenue, "hexes": list(route.hexes)})
            self.log(f"{op} runs a {train.name} train for {revenue}: {route.revenue_str}")
        self.rdata["routes"] = routes
        self.pass_()

    def _revenue(self, action: RunRoutes, route: Any) -> int:
        """The route's value (wounded trains already halved).  Ferrovia's own route engine
        checks it when it can evaluate the route; otherwise the recorded value stands."""
        checker = getattr(self.game.rules, "route_revenue", None)
        if checker is not None:
            computed = checker(self.game, self.state, action.entity, route)
            if computed is not None and computed != route.revenue:
                raise self.illegal(
                    action,
                    "9.5 route value",
                    f"{route.train} on {'-'.join(route.hexes)} earns {computed}, "
                    f"not {route.revenue}",
                )
            if computed is not None:
                return int(computed)
        return int(route.revenue)
