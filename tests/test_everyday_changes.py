"""Twelve rule changes an author tries first, each made by YAML alone (an overlay that extends
gamedata/1858) and each seen taking effect in play by an exact figure: the held-out list of
issue #10 ("everyday rule changes must take effect; none silently ignored").

| change                                   | YAML                                         |
|------------------------------------------|----------------------------------------------|
| withholding moves the price down 2       | market.yaml ``movement.withheld: -2``        |
| three tile lays per operating turn       | tiles.yaml ``lays.corporation`` (3 entries)  |
| a company floats at 50 % sold            | companies.yaml ``float_percent: 50``         |
| a smaller bank                           | market.yaml ``bank``                         |
| certificate limit for 4 players          | market.yaml ``certificate_limit``            |
| 2-trains never rust                      | trains.yaml ``rusts_on: ~``                  |
| a private's income                       | privates.yaml ``income``                     |
| no sale in the first stock round         | market.yaml ``sell_after``                   |
| a train's price                          | trains.yaml ``price``                        |
| the train limit of a phase               | phases.yaml ``train_limit``                  |
| station cost                             | market.yaml ``stations.per_border``          |
| par prices                               | market.yaml ``stock_market.par_values``      |
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from ferrovia.data.definition import load_game
from ferrovia.errors import IllegalAction
from ferrovia.games import get_rules
from ferrovia.lib18xx.actions import BuyTrain, Dividend, LayTile
from ferrovia.lib18xx.game import Game18xx
from ferrovia.lib18xx.stock import shares as sh
from ferrovia.paths import gamedata_root

from tests.test_data_mutations import Table, _started
from tests.test_operating_steps import (
    PLAYERS,
    apply,
    corp_pass,
    float_company,
    give_train,
    new_state,
    price,
    sell_out,
    start_or,
)

BASE = gamedata_root() / "1858"


@pytest.fixture(scope="module")
def make(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Game18xx]:
    root = tmp_path_factory.mktemp("everyday")
    made: dict[str, Game18xx] = {}

    def game(name: str = "", players: int = 4, **files: str) -> Game18xx:
        if name not in made:
            if name:
                d = root / name
                d.mkdir()
                rel = os.path.relpath(BASE, d)
                (d / "game.yaml").write_text(f"extends: '{rel}'\n", encoding="utf-8")
                for kind, text in files.items():
                    (d / f"{kind}.yaml").write_text(text, encoding="utf-8")
            defn = load_game(d if name else BASE)
            made[name] = Game18xx(defn, get_rules(defn.rules), players)
        return made[name]

    return game


def test_withhold_moves_the_price_down_two(make: Callable[..., Game18xx]) -> None:
    results = []
    for game in (make(), make("withhold2", market="movement: {withheld: -2}\n")):
        state = new_state(game)
        float_company(game, state, "MZA", price=100, cash=0, holders={"1": 4}, home=("H11", 2))
        start_or(game, state)
        apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])  # nothing earned, no train
        results.append(price(game, state, "MZA"))
    # withheld (-1 or -2), then no train (-1): P100 -> 80, or -> 70
    assert results == [80, 70]


def _private_lays_left(game: Game18xx) -> tuple[int, list[str]]:
    """B&M lays in Barcelona and Gerona: which operating round it is then, and what it may do."""
    state = new_state(game)
    state.privates["B&M"].owner = "1"
    state.privates["B&M"].floated = True
    state.player("1").companies.append("B&M")
    state.privates["R&T"].closed = True  # so Reus & Tarragona (N9) is open to a lay
    start_or(game, state)
    apply(
        game,
        state,
        [
            LayTile(entity="B&M", entity_type="minor", hex="O8", tile="X3-0", rotation=0),
            LayTile(entity="B&M", entity_type="minor", hex="P7", tile="58-0", rotation=1),
        ],
    )
    can = sorted({f"{a.type} {getattr(a, 'hex', '')}".strip() for a in game.legal_actions(state)})
    return state.round.num, can


def test_three_tile_lays_per_turn(make: Callable[..., Game18xx]) -> None:
    three = """lays:
  private:
    - {upgrade: false}
    - {upgrade: false, cost: 20, metre_cost: 10, other_hex: true}
    - {upgrade: false, cost: 20, metre_cost: 10, other_hex: true}
"""
    # 1858: two lays end B&M's turn (it is alone: the next operating round begins)
    assert _private_lays_left(make()) == (2, ["lay_tile N9", "pass"])
    # three: still the first operating round, with a third lay to make
    assert _private_lays_left(make("lays3", tiles=three)) == (1, ["lay_tile N9", "pass"])


def test_float_at_fifty_percent(make: Callable[..., Game18xx]) -> None:
    half = "corporations:\n" + "".join(
        f"  - {{symbol: {c.symbol}, float_percent: 50}}\n" for c in make().definition.corporations
    )
    floated = []
    for game in (make(), make("float50", companies=half)):
        state = new_state(game)
        corp = state.corporations["MZA"]
        sh.set_par(game, state, corp, list(game.definition.market.stock_market.spaces).index(100))
        sh.move_share(state, corp.shares[0], "1")  # the director's 40 %
        first = sh.float_check(game, state, corp)
        sh.move_share(state, corp.shares[1], "2")  # and one 20 % share: 60 % sold
        floated.append((first, sh.float_check(game, state, corp) or first))
    assert floated == [(True, True), (False, True)]


def test_bank_size(make: Callable[..., Game18xx]) -> None:
    banks = []
    for game in (make(), make("bank9000", market="bank: {'4': 9000}\n")):
        state = game.new_state(PLAYERS, 1)
        banks.append(state.bank_cash)
    assert banks == [12000 - 4 * 375, 9000 - 4 * 375]


def test_certificate_limit(make: Callable[..., Game18xx]) -> None:
    # Player 1 holds 5 certificates and bids on a sixth private
    for game, refused in (
        (make(), False),
        (make("cert5", market="certificate_limit: {'4': 5}\n"), True),
    ):
        t = Table(game)
        for sym in ("M&A", "V&J", "M&C", "B&CR", "R&T"):
            t.state.privates[sym].owner = "1"
            t.state.player("1").companies.append(sym)
        if refused:
            with pytest.raises(IllegalAction, match="certificate limit"):
                t.act("1", "bid", company="B&M", price=90)
        else:
            t.act("1", "bid", company="B&M", price=90)


def _after_6e(game: Game18xx) -> dict[str, Any]:
    state = new_state(game)
    float_company(game, state, "MZA", price=100, cash=1000, holders={"1": 4}, home=("H11", 2))
    float_company(game, state, "A", price=90, cash=0, holders={"2": 4}, home=("E18", 0))
    give_train(state, "A", "2H-0", obsolete=True)
    sell_out(state, "2H-", "4H-", "6H-", "5E-")
    state.phase = "5"
    from ferrovia.lib18xx.operating import phases

    for sym in ("MZA", "A"):
        phases.convert_share_structure(game, state, sym)
    start_or(game, state)
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
    game.apply(
        state,
        BuyTrain(entity="MZA", entity_type="corporation", train="6E-0", price=650, variant="6E"),
    )
    return {"phase": state.phase, "A": list(state.corporations["A"].trains)}


def test_two_trains_never_rust(make: Callable[..., Game18xx]) -> None:
    assert _after_6e(make()) == {"phase": "6", "A": []}  # 1858: the 6E rusts the 2H
    keep = make("no-rust", trains="trains:\n  - {name: 2H, rusts_on: ~}\n")
    assert _after_6e(keep) == {"phase": "6", "A": ["2H-0"]}


def test_private_income(make: Callable[..., Game18xx]) -> None:
    paid = []
    for game in (
        make(),
        make("bm30", privates="privates:\n  - {symbol: B&M, income: {'2': 30}}\n"),
    ):
        state = new_state(game)
        float_company(game, state, "MZA", price=100, cash=0, holders={"1": 4}, home=("H11", 2))
        state.privates["B&M"].owner = "MZA"
        state.corporations["MZA"].companies.append("B&M")
        start_or(game, state)
        apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
        apply(game, state, [Dividend(entity="MZA", entity_type="corporation", kind_="withhold")])
        paid.append(state.corporations["MZA"].cash - 115)  # less B&M's face value at closure
    assert paid == [23, 30]


def test_no_sale_in_the_first_stock_round(make: Callable[..., Game18xx]) -> None:
    seen = []
    for game in (
        make("any", market="sell_after: any_time\n"),
        make("sr1", market="sell_after: first_stock_round\n"),
    ):
        t = _started(game)  # the second stock round (turn 2)
        mza = t.state.corporations["MZA"]
        t.act("2", "buy_shares", shares=[mza.shares[1].id], percent=20)
        step = t.game.round(t.state).step("stock")
        bundle = sh.Bundle("MZA", [mza.shares[1]], 20)
        t.state.turn = 1
        first = step.can_sell("2", bundle)
        t.state.turn = 2
        seen.append((first, step.can_sell("2", bundle)))
    assert seen == [(True, True), (False, True)]


def test_train_price(make: Callable[..., Game18xx]) -> None:
    for game, listed in (
        (make(), 100),
        (make("2h120", trains="trains:\n  - {name: 2H, price: 120}\n"), 120),
    ):
        state = new_state(game)
        float_company(game, state, "MZA", price=100, cash=300, holders={"1": 4}, home=("H11", 2))
        start_or(game, state)
        apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
        buys = [a for a in game.legal_actions(state) if a.type == "buy_train"]
        assert {a.price for a in buys if a.train.startswith("2H")} == {listed}
        if listed != 100:
            with pytest.raises(IllegalAction):
                game.apply(
                    state,
                    BuyTrain(
                        entity="MZA",
                        entity_type="corporation",
                        train="2H-0",
                        price=100,
                        variant="2H",
                    ),
                )
        game.apply(
            state,
            BuyTrain(
                entity="MZA", entity_type="corporation", train="2H-0", price=listed, variant="2H"
            ),
        )
        assert state.corporations["MZA"].cash == 300 - listed


def _trains_bought(game: Game18xx) -> int:
    state = new_state(game)
    float_company(game, state, "MZA", price=100, cash=1000, holders={"1": 4}, home=("H11", 2))
    start_or(game, state)
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
    n = 0
    while any(a.type == "buy_train" for a in game.legal_actions(state)):
        tid = f"2H-{n}"
        game.apply(
            state,
            BuyTrain(entity="MZA", entity_type="corporation", train=tid, price=100, variant="2H"),
        )
        n += 1
    return n


def test_phase_train_limit(make: Callable[..., Game18xx]) -> None:
    limit2 = "phases:\n  - {name: '2', train_limit: {5-share: 2, 10-share: 4}}\n"
    assert [_trains_bought(make()), _trains_bought(make("limit2", phases=limit2))] == [3, 2]


def test_station_cost(make: Callable[..., Game18xx]) -> None:
    costs = []
    for game in (make(), make("station60", market="stations: {per_border: 60}\n")):
        state = new_state(game)
        float_company(game, state, "MZA", price=100, cash=300, holders={"1": 4}, home=("H11", 1))
        costs.append(game.rules.station_cost(game, state, "MZA", "O8"))  # two borders away
    assert costs == [80, 120]


def _par(game: Game18xx, at: int) -> bool:
    """Whether Player 1 may start MZA at ``at`` in phase 5 (a director's certificate bought)."""
    t = Table(game)
    t.state.phase = "5"
    t.state.turn = 2
    col = list(game.definition.market.stock_market.spaces).index(at)
    try:
        t.act("1", "par", corporation="MZA", share_price=f"{at},0,{col}")
    except IllegalAction:
        return False
    return True


def test_par_prices(make: Callable[..., Game18xx]) -> None:
    pars = "stock_market: {par_values: [60, 70, 80, 90, 100]}\n"
    allowed = [
        [_par(game, at) for at in (60, 100, 150)] for game in (make(), make("pars", market=pars))
    ]
    assert allowed == [[False, True, True], [True, True, False]]
