"""Positions where Ferrovia once disagreed with the 18xx.games engine on a random game.

Each test is the smallest hand-built 1858 position showing the rule 18xx.games applies there
(found by replaying Ferrovia's random games through the reference engine, see the commit that
added each test).  Positions are built as in tests/test_operating_steps.py.
"""

from __future__ import annotations

import pytest
from ferrovia.data.definition import load_game
from ferrovia.errors import IllegalAction
from ferrovia.games import get_rules
from ferrovia.games.g1858 import closure
from ferrovia.kernel.actions import action_to_json
from ferrovia.lib18xx import board
from ferrovia.lib18xx.actions import BuyShares, BuyTrain, LayTile, SellShares, action_from_json
from ferrovia.lib18xx.game import Game18xx
from ferrovia.lib18xx.operating import common
from ferrovia.lib18xx.rounds import StockRound
from ferrovia.lib18xx.state import POOL, State18xx
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


@pytest.fixture(scope="module")
def definition() -> object:
    return load_game(gamedata_root() / "1858")


@pytest.fixture
def game(definition: object) -> Game18xx:
    return Game18xx(definition, get_rules("1858"), len(PLAYERS))


def _share_offers(game: Game18xx, state: State18xx) -> list[dict[str, object]]:
    return [
        action_to_json(a)
        for a in game.legal_actions(state)
        if isinstance(a, SellShares | BuyShares)
    ]


def test_issue_and_redeem_offers_carry_the_bundle_percent(game: Game18xx) -> None:
    """18xx.games prices an issue or a redemption from the action's ``percent`` (a logged
    ``percent: 0`` issues for nothing), so every offered bundle must state its percent."""
    state = new_state(game)
    # MZA at P70: Ana director + 1 share, one share in the pool, two in the treasury
    float_company(
        game, state, "MZA", price=70, cash=200, holders={"1": 2, POOL: 1}, home=("H11", 2)
    )
    state.corporations["MZA"].data["operating_turns"] = 2
    give_train(state, "MZA", "2H-0")
    start_or(game, state)
    state.trains["2H-0"].operated = True  # nothing to run in this position
    apply(game, state, [corp_pass("MZA")] * 3)  # track, token, buy trains
    assert state.round.steps[-1].name == "issue_shares"
    offers = _share_offers(game, state)
    assert {(o["type"], len(o["shares"]), o["percent"]) for o in offers} == {
        ("buy_shares", 1, 20),
        ("sell_shares", 1, 20),  # two would put 60% in the pool
    }
    issue = next(o for o in offers if o["type"] == "sell_shares")
    assert price(game, state, "MZA") == 65  # no run: withheld, one step left
    game.apply(state, action_from_json({**issue, "id": 1}))
    assert state.corporations["MZA"].cash == 200 + 65
    assert price(game, state, "MZA") == 60


def test_emergency_issue_offer_carries_the_bundle_percent(game: Game18xx) -> None:
    state = new_state(game)
    float_company(game, state, "MZA", price=70, cash=40, holders={"1": 3}, home=("H11", 2))
    state.corporations["MZA"].data["operating_turns"] = 1
    float_company(game, state, "A", price=60, cash=0, holders={"2": 4}, home=("E18", 0))
    give_train(state, "A", "2H-1")
    start_or(game, state)
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
    offers = [o for o in _share_offers(game, state) if o["type"] == "sell_shares"]
    assert offers and all(o["percent"] == 20 * len(o["shares"]) for o in offers)


def test_metre_track_does_not_extend_a_broad_only_line(game: Game18xx) -> None:
    """18xx.games checks a lay on the broad network with the tile's broad track and on the
    metre network with its metre track: a metre tile beside the end of a broad line is
    not on any route (random game g-1001-3, action 298: 77 on C16 for SJ&C)."""
    state = new_state(game)
    state.phase = "3"  # metre gauge and green tiles available
    state.privates["SJ&C"].owner = "1"
    state.privates["SJ&C"].floated = True
    state.player("1").companies.append("SJ&C")
    # Sevilla (E18, SJ&C's home) upgraded to green 622, then broad straight track on to D17
    board.lay(game, state, "E18", "622-0", 0)
    board.lay(game, state, "D17", "9-4", 5)
    start_or(game, state)
    assert game.current_entity(state) == "SJ&C"
    before = state.dumps()
    with pytest.raises(IllegalAction, match="does not extend a route of SJ&C"):
        game.apply(
            state, LayTile(entity="SJ&C", entity_type="minor", hex="C16", tile="77-0", rotation=4)
        )
    assert state.dumps() == before
    lays = {
        (a.tile, a.rotation)
        for a in game.legal_actions(state)
        if isinstance(a, LayTile) and a.hex == "C16"
    }
    # only broad track can continue the line from D17 (edge 5 of C16)
    assert lays == {("7-0", 4), ("7-0", 5), ("8-0", 3), ("8-0", 5), ("9-0", 2), ("9-0", 5)}
    game.apply(
        state, LayTile(entity="SJ&C", entity_type="minor", hex="C16", tile="9-0", rotation=5)
    )
    assert state.hexes["C16"].tile == "9-0"


def test_impassable_border_stays_closed_under_a_laid_tile(game: Game18xx) -> None:
    """Setúbal (B15) has an impassable side (edge 2, toward A14).  18xx.games keeps a hex's
    borders on every tile laid there, so an upgrade may never point track through it
    (random game g-1010-2, action 701: 204 on B15 for MZA)."""
    state = new_state(game)
    state.phase = "3"
    float_company(game, state, "MZA", price=100, cash=300, holders={"1": 4}, home=("A14", 0))
    board.lay(game, state, "B13", "7-0", 0)  # Lisboa (A14) - B13 - Setúbal (B15)
    board.lay(game, state, "B15", "3-0", 3)  # Setúbal's town, track to edges 3 and 4
    start_or(game, state)
    assert game.current_entity(state) == "MZA"
    offers = {
        (a.tile, a.rotation)
        for a in game.legal_actions(state)
        if isinstance(a, LayTile) and a.hex == "B15"
    }
    # 204 keeps edges 3 and 4 only at rotation 0 (0, 2, 3, 4) or 1 (1, 3, 4, 5): edge 2 is
    # closed and edge 1 leads off the map
    assert not any(tile.startswith("204-") for tile, _ in offers)
    assert ("87-0", 3) in offers  # 3, 4, 5, 0: every side open
    with pytest.raises(IllegalAction, match="cannot be laid on B15 at rotation 0"):
        game.apply(state, LayTile(entity="MZA", entity_type="corporation", hex="B15", tile="204-0"))


def test_closing_private_hands_a_shared_slot_to_the_other_private(game: Game18xx) -> None:
    """Zaragoza (L7) has one slot held for both M&Z and Z&P.  When M&Z's company took its
    home station there, M&Z's hold went; once M&Z closes, 18xx.games tidies the city so
    Z&P's hold sits on the slot, and a company cannot put a station there even after the
    first station has gone (random game g-1000-2, action 303: A tokens L7)."""
    state = new_state(game)
    h = state.hexes["L7"]
    assert h.reservations == [["M&Z", "Z&P"]]
    h.reservations[0][0] = None  # M&Z's company took the slot (its station since removed)
    assert board.token_slot(state, h.tokens[0], list(h.reservations[0]), "MZA") == 0
    game.rules.close_private(game, state, "M&Z")
    assert h.reservations == [["Z&P"]]
    assert board.token_slot(state, h.tokens[0], list(h.reservations[0]), "MZA") is None


def test_bank_pool_sells_the_first_discarded_of_two_alike_trains(game: Game18xx) -> None:
    """Two 4H/2M cards in the bank pool: 18xx.games offers the one discarded first (its
    discarded list is in arrival order), not the lower-numbered one (random game g-1039-6,
    action 437: N buys 4H-2 while 4H-4 had been discarded before it)."""
    state = new_state(game)
    float_company(game, state, "MZA", price=100, cash=300, holders={"1": 4}, home=("H11", 2))
    state.phase = "3"
    for tid in ("4H-4", "4H-2"):  # one company discards 4H-4, then another 4H-2
        state.depot.remove(tid)
        common.to_pool(state, tid)
    start_or(game, state)
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])  # track, token
    pool_offers = {
        (a.train, a.variant)
        for a in game.legal_actions(state)
        if isinstance(a, BuyTrain) and state.trains[a.train].owner == POOL
    }
    assert pool_offers == {("4H-4", "4H"), ("4H-4", "2M")}
    with pytest.raises(IllegalAction):
        game.apply(
            state,
            BuyTrain(
                entity="MZA", entity_type="corporation", train="4H-2", price=100, variant="2M"
            ),
        )
    game.apply(
        state,
        BuyTrain(entity="MZA", entity_type="corporation", train="4H-4", price=100, variant="2M"),
    )
    assert state.corporations["MZA"].trains == ["4H-4"]


def test_a_restarted_company_is_new_to_the_stock_rounds_sale_records(game: Game18xx) -> None:
    """A player who sold AVT earlier in a stock round may buy the restarted AVT after it
    closed: 18xx.games keeps who sold what per company object, and a closed company is
    replaced by a new one (random game g-1002-4, action 1232: Player 2 could still buy)."""
    state = new_state(game)
    float_company(game, state, "AVT", price=70, cash=0, holders={"1": 2, "2": 1})
    rnd = StockRound.create(game, state, 1)
    rnd.setup()
    step = next(s for s in rnd.steps() if s.NAME == "stock")
    state.round.data["players_sold"] = {"2": {"AVT": "prev", "N": "prev"}}
    state.round.data["players_bought"] = {"2": {"AVT": 20}}
    assert step.sold_any("2", "AVT")
    closure.close_corporation(game, state, "AVT")
    assert not step.sold_any("2", "AVT")
    assert step.sold_any("2", "N")  # other companies' records stay
    assert state.round.data["players_bought"] == {"2": {}}


def test_company_closing_in_stock_round_moves_play_on_by_one_player(definition: object) -> None:
    """A sale by its director (Player 1) drops TBF onto the closing space.  Until TBF closes,
    Player 3 could still buy its shares at 0, so 18xx.games' turn order stops there; after
    the closure it moves on by just one player: Player 1 (now with nothing to do) passes,
    everyone has passed and the round ends right there.  The priority deal goes to Player 1,
    not one seat further (random game g-1031-3, action 1532)."""
    game = Game18xx(definition, get_rules("1858"), 3)
    state = game.new_state([("2", "Bea"), ("3", "Cid"), ("1", "Ana")], seed=1)
    for p in state.players:
        p.cash = 0
    state.bank_cash = 12000
    float_company(game, state, "TBF", price=50, cash=0, holders={"1": 2})
    float_company(game, state, "MZA", price=100, cash=0, holders={"3": 1}, home=("H11", 2))
    for sym in ("TBF", "MZA"):
        state.corporations[sym].operated = True  # its shares may be sold
        game.rules.convert(game, state, sym)  # 10-share already: nothing to convert
    for priv in state.privates.values():
        priv.closed = True  # nothing to bid for
    rnd = StockRound.create(game, state, 1)
    rnd.setup()
    state.round.data["players_sold"] = {"2": {"TBF": "prev"}}  # Bea sold TBF earlier
    state.round.passed = ["2", "3"]
    state.round.entity_index = 2
    rnd.start_entity()
    assert game.current_entity(state) == "1"
    share = next(
        s.id for s in state.corporations["TBF"].shares if s.owner == "1" and not s.president
    )
    game.apply(state, SellShares(entity="1", shares=(share,), percent=10))
    assert state.corporations["TBF"].ipoed is False  # closed and restarted
    assert state.round.kind == "operating"
    assert [p.id for p in state.players] == ["1", "2", "3"]
