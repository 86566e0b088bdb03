"""Per action id, the state after Ferrovia applied it (pairs with dump.rb): cash, trains,
share prices, players' shares, phase."""

from __future__ import annotations

import json
import sys
from typing import Any

from ferrovia.lib18xx import market
from ferrovia.lib18xx.actions import action_from_json
from ferrovia.lib18xx.state import State18xx
from ferrovia.play.replay import filter_actions, game_for


def line(game: Any, state: State18xx, ident: int) -> dict[str, Any]:
    cash = {p.id: p.cash for p in state.players}
    cash.update({k: v.cash for k, v in state.corporations.items()})
    cash.update({k: v.cash for k, v in state.privates.items()})
    cash["bank"] = state.bank_cash
    holders = {**state.corporations, **state.privates}
    trains = {k: sorted(state.trains[t].name for t in v.trains) for k, v in holders.items()}
    prices: dict[str, int] = {}
    for sym, corp in state.corporations.items():
        if corp.market is not None:
            prices[sym] = market.price_at(game, corp.market)
    shares: dict[str, dict[str, int]] = {p.id: {} for p in state.players}
    for corp in state.corporations.values():
        for s in corp.shares:
            if s.owner in shares:
                shares[s.owner][s.corp] = shares[s.owner].get(s.corp, 0) + s.percent
    return {
        "id": ident,
        "cash": cash,
        "trains": trains,
        "prices": prices,
        "shares": shares,
        "phase": state.phase,
        "round": state.round.kind,
    }


def main(path: str) -> None:
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    game, state = game_for(data)
    print(json.dumps(line(game, state, 0)))
    for raw in filter_actions(data["actions"]):
        try:
            game.apply(state, action_from_json(raw))
        except Exception as exc:  # report where Ferrovia stops, whatever the cause
            print(json.dumps({"id": raw["id"], "error": str(exc)}))
            break
        print(json.dumps(line(game, state, raw["id"])))


if __name__ == "__main__":
    main(sys.argv[1])
