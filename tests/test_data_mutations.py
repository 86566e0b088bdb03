"""The data is the rules: one rule-bearing field of 1858 changed in a variant (an overlay that
``extends`` gamedata/1858), and the scenario whose behaviour changes by an exact amount.

Each test plays the same position on 1858 and on the variant; the 1858 figure is the rulebook's
and the variant's follows from the changed number alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ferrovia.data.definition import GameDefinition, load_game
from ferrovia.errors import FerroviaError, IllegalAction
from ferrovia.games import get_rules
from ferrovia.kernel.actions import action_from_json
from ferrovia.lib18xx.actions import Dividend, LayTile
from ferrovia.lib18xx.game import Game18xx
from ferrovia.lib18xx.operating import dividend, routing, track
from ferrovia.lib18xx.stock import shares as sh
from ferrovia.paths import gamedata_root

from tests.test_operating_steps import (
    PLAYERS,
    apply,
    corp_pass,
    float_company,
    give_train,
    new_state,
    price,
    start_or,
)

BASE = gamedata_root() / "1858"


def variant(tmp: Path, name: str, files: dict[str, str]) -> GameDefinition:
    """A variant of 1858 that says only ``files`` (kind -> YAML text)."""
    d = tmp / name
    d.mkdir()
    own = files.pop("game", "")
    (d / "game.yaml").write_text(f"extends: '{os.path.relpath(BASE, d)}'\n{own}", encoding="utf-8")
    for kind, text in files.items():
        (d / f"{kind}.yaml").write_text(text, encoding="utf-8")
    return load_game(d)


@pytest.fixture(scope="module")
def make(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Game18xx]:
    root = tmp_path_factory.mktemp("variants")
    made: dict[str, Game18xx] = {}

    def game(name: str = "", players: int = 4, **files: str) -> Game18xx:
        key = f"{name}/{players}"
        if key not in made:
            defn = load_game(BASE) if not name else variant(root, name, files)
            made[key] = Game18xx(defn, get_rules(defn.rules), players)
        return made[key]

    return game


# -- market.yaml movement -------------------------------------------------------------------------


def _zero_earnings(game: Game18xx) -> int:
    state = new_state(game)
    float_company(game, state, "MZA", price=100, cash=0, holders={"1": 4}, home=("H11", 2))
    start_or(game, state)
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])  # nothing earned, no train
    return price(game, state, "MZA")


def test_withheld_and_no_train_moves(make: Callable[..., Game18xx]) -> None:
    # 1858: withheld -1 and no train -1 take P100 two spaces left, to P80
    assert _zero_earnings(make()) == 80
    assert _zero_earnings(make("withhold3", market="movement: {withheld: -3}\n")) == 65
    assert _zero_earnings(make("notrain0", market="movement: {no_train: 0}\n")) == 90


def _payout(game: Game18xx, at: int) -> int:
    """MZA at ``at`` pays out B&M's P23 (4 a share on 5 shares), then buys no train."""
    state = new_state(game)
    float_company(game, state, "MZA", price=at, cash=0, holders={"1": 4}, home=("H11", 2))
    state.privates["B&M"].owner = "MZA"
    state.corporations["MZA"].companies.append("B&M")
    start_or(game, state)
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
    apply(game, state, [Dividend(entity="MZA", entity_type="corporation", kind_="payout")])
    apply(game, state, [corp_pass("MZA")])
    return price(game, state, "MZA")


def test_dividend_moves(make: Callable[..., Game18xx]) -> None:
    # 4 a share x 10 = 40 < 70: no move for the dividend, one left for having no train
    assert _payout(make(), 70) == 65
    # x 20 = 80 >= 70: one right, then one left
    assert _payout(make("times20", market="movement: {dividend_times: 20}\n"), 70) == 70
    # a dividend below the test moves 'paid'
    assert _payout(make("paid-1", market="movement: {paid: -1}\n"), 70) == 60
    rules = make("right2", market="movement: {dividend_at_least_price: 2}\n")
    assert dividend.market_steps(10, 100, rules.definition.market.movement) == 2


# -- market.yaml sell rules -----------------------------------------------------------------------


class Table:
    """Players '1'..'4' on a game, with terse actions (as tests/rules_helpers.py)."""

    def __init__(self, game: Game18xx) -> None:
        self.game = game
        self.state = game.new_state(PLAYERS, 1)
        self.n = 0

    def act(self, entity: str, kind: str, **fields: Any) -> None:
        self.n += 1
        wire = {"type": kind, "entity": entity, "entity_type": "player", "id": self.n, **fields}
        self.game.apply(self.state, action_from_json(wire, self.game.action_types))


def _started(game: Game18xx) -> Table:
    """Phase 5 (companies start by buying the director's certificate): Player 1 starts MZA at
    P100 and everyone passes, so the second stock round is Player 1's again."""
    t = Table(game)
    t.state.phase = "5"
    t.state.turn = 2
    t.act("1", "par", corporation="MZA", share_price=f"100,0,{_col(game, 100)}")
    home = next(a for a in game.legal_actions(t.state) if a.type == "place_token")
    game.apply(t.state, home)  # MZA's home station, where the director likes
    return t


def _col(game: Game18xx, value: int) -> int:
    return list(game.definition.market.stock_market.spaces).index(value)


def test_sell_after(make: Callable[..., Game18xx]) -> None:
    for game, allowed in ((make(), False), (make("any", market="sell_after: any_time\n"), True)):
        t = _started(game)
        mza = t.state.corporations["MZA"]
        t.act("2", "buy_shares", shares=[mza.shares[1].id], percent=20)
        step = t.game.round(t.state).step("stock")
        share = sh.Bundle("MZA", [mza.shares[1]], 20)
        assert step.can_sell("2", share) is allowed  # MZA has not operated yet


def test_director_sale_moves(make: Callable[..., Game18xx]) -> None:
    results = []
    for game in (make(), make("dirsell4", market="movement: {director_sells: -4}\n")):
        t = _started(game)
        mza = t.state.corporations["MZA"]
        mza.operated = True
        t.act("2", "buy_shares", shares=[mza.shares[1].id], percent=20)
        t.act("3", "buy_shares", shares=[mza.shares[2].id], percent=20)
        t.act("4", "pass")
        sh.move_share(t.state, mza.shares[3], "1")  # the director holds a share besides
        t.act("1", "sell_shares", shares=[mza.shares[3].id], percent=20)
        results.append(price(game, t.state, "MZA"))
    assert results == [90, 65]  # one space left, or four


# -- market.yaml auctions -------------------------------------------------------------------------


def test_bid_increment_and_multiples(make: Callable[..., Game18xx]) -> None:
    t = Table(make())
    t.act("1", "bid", company="B&M", price=90)
    with pytest.raises(IllegalAction, match="minimum bid is 95"):
        t.act("2", "bid", company="B&M", price=94)
    t = Table(make("inc10", market="minimum_bid_increment: 10\n"))
    t.act("1", "bid", company="B&M", price=90)
    with pytest.raises(IllegalAction, match="minimum bid is 100"):
        t.act("2", "bid", company="B&M", price=95)
    t = Table(make("free", market="bids_in_multiples: false\n"))
    t.act("1", "bid", company="B&M", price=91)  # refused in 1858: not a multiple of 5
    with pytest.raises(IllegalAction, match="multiples of 5"):
        Table(make()).act("1", "bid", company="B&M", price=91)


# -- market.yaml station costs --------------------------------------------------------------------


def test_station_costs(make: Callable[..., Game18xx]) -> None:
    costs = []
    for game in (
        make(),
        make("border50", market="stations: {per_border: 50}\n"),
        make("min30", market="stations: {minimum: 30}\n"),
    ):
        state = new_state(game)
        float_company(game, state, "MZA", price=100, cash=300, holders={"1": 4}, home=("H11", 1))
        costs.append(
            (
                game.rules.station_cost(game, state, "MZA", "O8"),
                game.rules.station_cost(game, state, "MZA", "H11"),
            )
        )
    # Barcelona is two province borders from Madrid; Madrid is MZA's own province
    assert costs == [(80, 20), (100, 20), (80, 30)]


# -- tiles.yaml lays and terrain ------------------------------------------------------------------


def _private_lays(game: Game18xx) -> int:
    state = new_state(game)
    state.privates["B&M"].owner = "1"
    state.privates["B&M"].floated = True
    state.player("1").companies.append("B&M")
    start_or(game, state)
    apply(
        game,
        state,
        [
            LayTile(entity="B&M", entity_type="minor", hex="O8", tile="X3-0", rotation=0),
            LayTile(entity="B&M", entity_type="minor", hex="P7", tile="58-0", rotation=1),
        ],
    )
    return state.player("1").cash - 500 - 2 * 23  # what the two lays cost (income twice)


PRIVATE_LAYS = """lays:
  private:
    - {upgrade: false}
    - {upgrade: false, cost: 35, metre_cost: 10, other_hex: true}
"""


def test_second_lay_fee_and_terrain(make: Callable[..., Game18xx]) -> None:
    # Gerona (P7): mountain P40 + P20 for the second lay
    assert _private_lays(make()) == -60
    assert _private_lays(make("lay35", tiles=PRIVATE_LAYS)) == -75
    # the same change as one addressed entry of the keyless list (overlay ``set:``)
    assert _private_lays(make("set35", tiles="set: {lays.private.1.cost: 35}\n")) == -75
    terrain = make("paid", tiles="upgrades: {terrain: {metre_only: full}}\n")
    rules = terrain.definition.upgrade_rules.terrain
    assert track.terrain_cost(45, {"narrow"}, rules) == 45  # 1858 (half): 23


# -- trains.yaml wounded --------------------------------------------------------------------------


def test_wounded_rules(make: Callable[..., Game18xx]) -> None:
    for game, divisor in ((make(), 2), (make("w4", trains="wounded: {revenue_divisor: 5}\n"), 5)):
        assert routing.route_rules(game).wounded_divisor == divisor
        state = new_state(game)
        float_company(game, state, "MZA", price=100, cash=0, holders={"1": 4}, home=("H11", 1))
        from ferrovia.lib18xx import board

        board.lay(game, state, "G10", "58-0", 3)
        board.lay(game, state, "G8", "57-0", 0)
        give_train(state, "MZA", "2H-0", obsolete=True)
        state.phase = "4"
        start_or(game, state)
        apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
        (best,) = routing.best_run(game, state, "MZA", ["2H-0"])
        assert best.revenue == 70 // divisor  # Madrid 40 + Ávila 10 + Valladolid 20


def test_wounded_trains_may_not_be_discarded(make: Callable[..., Game18xx]) -> None:
    scrappable = []
    for game in (make(), make("keep", trains="wounded: {may_be_discarded: false}\n")):
        state = new_state(game)
        float_company(game, state, "MZA", price=100, cash=0, holders={"1": 4}, home=("H11", 1))
        give_train(state, "MZA", "2H-0", obsolete=True)
        start_or(game, state)
        scrappable.append(game.round(state).step("buy_train")._scrappable("MZA"))
    assert scrappable == [["2H-0"], []]


# -- game.yaml end --------------------------------------------------------------------------------


def test_bank_broken_timing(make: Callable[..., Game18xx]) -> None:
    for game, at_once in (
        (make(), False),
        (make("now", game="end: {bank_broken: immediate}\n"), True),
    ):
        state = new_state(game)
        float_company(game, state, "MZA", price=100, cash=0, holders={"1": 4}, home=("H11", 2))
        state.privates["B&M"].owner = "MZA"
        state.corporations["MZA"].companies.append("B&M")
        moved = state.bank_cash - 10
        state.bank_cash = 10
        state.player("4").cash += moved
        start_or(game, state)
        apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
        apply(game, state, [Dividend(entity="MZA", entity_type="corporation", kind_="payout")])
        assert state.bank_broken and state.finished is at_once


# -- options.yaml ---------------------------------------------------------------------------------


def test_an_option_is_only_for_its_player_counts() -> None:
    from ferrovia.play.replay import game_for
    from ferrovia.play.selfplay import export_header

    with pytest.raises(FerroviaError, match="is for 3, 4, 5, 6 players, not 2"):
        game_for(export_header(2, 1, ("quick_start_a",)))
    with pytest.raises(FerroviaError, match="cannot be used with 'quick_start_b'"):
        game_for(export_header(4, 1, ("quick_start_a", "quick_start_b")))


def test_a_minimum_bid_off_the_bid_step_opens_at_the_next_step(
    make: Callable[..., Game18xx],
) -> None:
    # B&M's minimum bid P88 with bids in multiples of 5: the lowest legal bid is P90 (a bot
    # bidding the minimum had been refused at play time)
    t = Table(make("bm88", privates="privates:\n  - {symbol: B&M, minimum_bid: 88}\n"))
    step = t.game.round(t.state).step("stock")
    assert step.min_bid("B&M") == 90
    with pytest.raises(IllegalAction, match="minimum bid is 90"):
        t.act("1", "bid", company="B&M", price=85)
    t.act("1", "bid", company="B&M", price=90)
