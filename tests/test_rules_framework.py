"""The rules framework: state round-trips, the ledger conserves money, actions parse exactly."""

from __future__ import annotations

import json

import pytest
from conftest import shared_path
from ferrovia.errors import IllegalAction
from ferrovia.kernel import rng
from ferrovia.kernel.actions import action_to_json
from ferrovia.kernel.ledger import transfer
from ferrovia.kernel.state import RoundState, StepState
from ferrovia.lib18xx.actions import Bid, action_from_json
from ferrovia.lib18xx.state import Hex, Player18xx, Share, State18xx, Token, Train


def _sample_state() -> State18xx:
    from ferrovia.lib18xx.state import Corporation, Private

    s = State18xx(bank_cash=12000, phase="2", turn=3)
    s.players = [Player18xx("1", "Ana", 500, ["B&M"]), Player18xx("2", "Ben", 420)]
    s.corporations["TBF"] = Corporation(
        sym="TBF",
        cash=220,
        market=[0, 9],
        shares=[Share("TBF", 0, 40, True, "1"), Share("TBF", 1, 20, False, "TBF")],
        tokens=[Token(0, "O8", 0), Token(40)],
        director="1",
        floated=True,
    )
    s.privates["B&M"] = Private("B&M", owner="1", floated=True, data={"minor": True})
    s.trains["2H-0"] = Train("2H-0", "2H", owner="TBF", variant="2H")
    s.hexes["O8"] = Hex("O8", "O8-0", 0, [["TBF"]], [[None]])
    s.round = RoundState("stock", 1, ["1", "2"], 1, [StepState("g1858_stock", data={"x": 1})])
    s.market = {"0,9": ["TBF"]}
    return s


def test_state_json_round_trip_is_exact() -> None:
    s = _sample_state()
    text = s.dumps()
    back = State18xx.loads(text)
    assert back == s
    assert back.dumps() == text
    assert json.loads(text)["corporations"]["TBF"]["shares"][0]["owner"] == "1"


def test_snapshot_restore_is_exact() -> None:
    s = _sample_state()
    before = s.dumps()
    snap = s.snapshot()
    s.players[0].cash = 0
    s.corporations["TBF"].shares[1].owner = "pool"
    s.round.steps[0].data["x"] = 2
    s.restore(snap)
    assert s.dumps() == before


def test_ledger_conserves_money_and_refuses_overdraft() -> None:
    s = _sample_state()
    total = s.total_cash()
    transfer(s, "1", "bank", 115, "buys B&M")
    transfer(s, "bank", "TBF", 30, "income")
    transfer(s, "TBF", "2", 20, "dividend")
    assert (s.player("1").cash, s.corporations["TBF"].cash, s.player("2").cash) == (385, 230, 440)
    assert s.total_cash() == total
    with pytest.raises(IllegalAction):
        transfer(s, "2", "bank", 10_000, "too much")
    assert s.total_cash() == total and s.player("2").cash == 440


def test_bank_breaks_when_it_would_go_below_zero() -> None:
    s = State18xx(players=[Player18xx("1", "A")], bank_cash=10)
    transfer(s, "bank", "1", 15, "dividend")
    assert s.bank_broken and s.bank_cash == -5 and s.total_cash() == 10


def test_rng_matches_18xx_games_lcg() -> None:
    x = rng.seed_value(317182052)
    x, v = rng.draw(x)
    assert v == (1103515245 * 317182052 + 12345) % 2**31
    _, order = rng.shuffled(rng.seed_value(1), ["a", "b", "c", "d"])
    assert sorted(order) == ["a", "b", "c", "d"]


def test_action_wire_form_round_trips() -> None:
    a = Bid(entity="7978", id=2, company="L&C", price=70)
    assert action_to_json(a) == {
        "type": "bid",
        "entity": 7978,
        "entity_type": "player",
        "id": 2,
        "company": "L&C",
        "price": 70,
    }
    assert action_from_json(action_to_json(a)) == a


def test_every_fixture_action_round_trips() -> None:
    root = shared_path("fixtures")
    files = sorted(root.glob("18xx.games/1858/*.json")) + sorted(
        root.glob("reference-random/*.json")
    )
    n = 0
    for f in files:
        for raw in json.loads(f.read_text())["actions"]:
            assert action_to_json(action_from_json(raw)) == raw
            n += 1
    assert n > 10000
