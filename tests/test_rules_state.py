"""A game state saved mid-game loads back exactly and plays on identically; money is conserved
after every single action of a real game."""

from __future__ import annotations

import json

from conftest import shared_path
from ferrovia.lib18xx.actions import action_from_json
from ferrovia.lib18xx.state import State18xx
from ferrovia.play.replay import filter_actions, game_for, load_export


def test_save_load_mid_game_round_trips_and_continues_identically() -> None:
    data = load_export(shared_path("fixtures", "reference-random", "random-s103-p5.json"))
    game, state = game_for(data)
    actions = [action_from_json(a) for a in filter_actions(data["actions"])]
    half = len(actions) // 2
    for a in actions[:half]:
        game.apply(state, a)
    text = state.dumps()
    loaded = State18xx.loads(text)
    assert loaded == state
    assert loaded.dumps() == text
    json.loads(text)  # plain JSON
    for a in actions[half:]:
        game.apply(state, a)
        game.apply(loaded, a)
    assert loaded.dumps() == state.dumps()
    assert game.result(loaded) == {str(k): v for k, v in data["result"].items()}


def test_money_is_conserved_after_every_action() -> None:
    data = load_export(shared_path("fixtures", "18xx.games", "1858", "1858-quick-start-a.json"))
    game, state = game_for(data)
    total = game.bank_cash
    assert state.total_cash() == total
    for raw in filter_actions(data["actions"]):
        game.apply(state, action_from_json(raw))
        assert state.total_cash() == total, raw
