"""Per action id, the cash of every holder after Ferrovia applied it (pairs with dump.rb)."""

from __future__ import annotations

import json
import sys

from ferrovia.replay import filter_actions, game_for
from ferrovia.rules.actions import action_from_json


def main(path: str) -> None:
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    game, state = game_for(data)

    def snap() -> dict[str, int]:
        cash = {p.id: p.cash for p in state.players}
        cash.update({k: v.cash for k, v in state.corporations.items()})
        cash.update({k: v.cash for k, v in state.privates.items()})
        cash["bank"] = state.bank_cash
        return cash

    print(json.dumps({"id": 0, "cash": snap()}))
    for raw in filter_actions(data["actions"]):
        try:
            game.apply(state, action_from_json(raw))
        except Exception as exc:  # report where Ferrovia stops, whatever the cause
            print(json.dumps({"id": raw["id"], "error": str(exc)}))
            break
        print(json.dumps({"id": raw["id"], "cash": snap(), "round": state.round.kind}))


if __name__ == "__main__":
    main(sys.argv[1])
