"""1858's 2-player game, declared as data (per-player-count tables in gamedata/1858 and
privates.yaml ``two_player_unavailable``): the numbers it sets up, and a seeded random game
that plays to the end."""

from __future__ import annotations

from collections import Counter

from ferrovia.play.selfplay import new_game, play


def test_two_player_setup_comes_from_the_data() -> None:
    game, state = new_game(2, 3)
    assert state.bank_cash + sum(p.cash for p in state.players) == 8000
    assert [p.cash for p in state.players] == [500, 500]
    assert game.cert_limit == 21 and game.holding_limit == 70
    counts = Counter(state.trains[t].name for t in state.depot)
    assert counts == {"2H": 4, "4H": 3, "6H": 3, "5E": 2, "6E": 2, "7E": 16, "5D": 8}
    drawn = state.data["unbuyable_privates"]
    batches = Counter(game.definition.private(sym).batch for sym in drawn)
    assert batches == {1: 5, 2: 2} and "H&G" not in drawn
    rule = next(t for t in game.definition.trains if t.name == "6H").rusts_on
    assert rule is not None and not isinstance(rule, str) and rule.nth_purchase[2] == 3
    buyable = game.rules.buyable_privates(game, state)
    assert not set(drawn) & set(buyable)


def test_a_seeded_random_two_player_game_plays_to_the_end() -> None:
    # seed 5: random bots (one seeded stream per seat since #14) that break the bank
    res = play(2, 5)
    assert res.state.finished
    assert res.state.game_end_reason == "bank"
    assert len(res.actions) > 300
