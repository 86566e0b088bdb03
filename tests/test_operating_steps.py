"""Operating-round steps on small hand-built 1858 positions: exact amounts a player would check.

Each test starts a real 4-player game from gamedata/1858, sets up the few companies it needs
(director, shares, price, cash, trains, stations) and starts an operating round, then applies
actions and checks money, prices and trains.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import pytest
from ferrovia.board import tiles
from ferrovia.data.definition import GameDefinition, load_game
from ferrovia.data.records import plain, replace_fields
from ferrovia.errors import IllegalAction
from ferrovia.games import get_rules
from ferrovia.kernel.actions import Action, Pass
from ferrovia.lib18xx import board, market
from ferrovia.lib18xx.actions import (
    BuyTrain,
    Choose,
    Dividend,
    LayTile,
    PlaceToken,
    RunRoutes,
    ScrapTrain,
    SellShares,
)
from ferrovia.lib18xx.game import Game18xx
from ferrovia.lib18xx.operating import phases, routing
from ferrovia.lib18xx.rounds import OperatingRound
from ferrovia.lib18xx.state import POOL, State18xx
from ferrovia.lib18xx.stock.shares import move_share, set_par
from ferrovia.paths import gamedata_root
from ferrovia.schemas.trains import CompanySales

PLAYERS = [("1", "Ana"), ("2", "Bea"), ("3", "Cid"), ("4", "Dan")]


@pytest.fixture(scope="module")
def definition() -> object:
    return load_game(gamedata_root() / "1858")


@pytest.fixture
def game(definition: object) -> Game18xx:
    return Game18xx(definition, get_rules("1858"), len(PLAYERS))


def new_state(game: Game18xx) -> State18xx:
    state = game.new_state(PLAYERS, seed=1)
    for p in state.players:  # a clean slate: everyone starts with 500
        p.cash = 500
    state.bank_cash = 12000 - 2000
    return state


def col_of(game: Game18xx, price: int) -> int:
    return list(market.spaces(game)).index(price)


def float_company(
    game: Game18xx,
    state: State18xx,
    sym: str,
    *,
    price: int,
    cash: int,
    holders: dict[str, int],
    home: tuple[str, int] | None = None,
) -> None:
    """``holders``: holder -> number of certificates (the director's first, counted as one)."""
    corp = state.corporations[sym]
    set_par(game, state, corp, col_of(game, price))
    shares = list(corp.shares)
    for holder, n in holders.items():
        for _ in range(n):
            move_share(state, shares.pop(0), holder)
    corp.director = next(iter(holders))
    corp.ipoed = corp.floated = True
    state.bank_cash -= cash
    corp.cash = cash
    if home is not None:
        coord, city = home
        state.hexes[coord].tokens[city][0] = sym
        corp.tokens[0].hex, corp.tokens[0].city = coord, city


def give_train(state: State18xx, sym: str, tid: str, *, obsolete: bool = False) -> None:
    state.depot.remove(tid)
    t = state.trains[tid]
    t.owner = sym
    t.obsolete = obsolete
    state.corporations[sym].trains.append(tid)


def start_or(game: Game18xx, state: State18xx) -> None:
    rnd = OperatingRound.create(game, state, 1)
    rnd.setup()


def apply(game: Game18xx, state: State18xx, actions: Iterable[Action]) -> None:
    for a in actions:
        game.apply(state, a)


def corp_pass(sym: str) -> Pass:
    return Pass(entity=sym, entity_type="corporation")


def price(game: Game18xx, state: State18xx, sym: str) -> int:
    return market.share_price(game, state.corporations[sym])


# -- 9.6 / 9.7: earnings, payout, owned privates ------------------------------------------------


def test_private_income_paid_out_then_private_closes_with_face_value(game: Game18xx) -> None:
    state = new_state(game)
    # MZA at P100: Ana director (40%) + one 20% share, Bea one share, one share in the pool.
    float_company(
        game, state, "MZA", price=100, cash=50, holders={"1": 2, "2": 1, POOL: 1}, home=("H11", 2)
    )
    state.privates["B&M"].owner = "MZA"  # income 23 in phase 2, face value 115
    state.corporations["MZA"].companies.append("B&M")
    start_or(game, state)
    total = state.total_cash()
    # no trains: track, token, then the dividend on the private's income alone
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
    apply(game, state, [Dividend(entity="MZA", entity_type="corporation", kind_="payout")])
    # 23 // 5 = 4 a share: Ana 3 shares = 12, Bea 4, the pool's 4 lost, MZA keeps the odd 3
    # and then receives B&M's face value 115
    assert state.player("1").cash == 500 + 12
    assert state.player("2").cash == 500 + 4
    assert state.corporations["MZA"].cash == 50 + 3 + 115
    assert state.privates["B&M"].closed
    assert state.corporations["MZA"].companies == []
    assert price(game, state, "MZA") == 100  # 4 x 10 < 100: no move
    assert state.total_cash() == total


def test_withholding_moves_the_price_left_and_half_pays_half(game: Game18xx) -> None:
    state = new_state(game)
    float_company(game, state, "MZA", price=100, cash=0, holders={"1": 4}, home=("H11", 2))
    state.privates["B&M"].owner = "MZA"
    state.corporations["MZA"].companies.append("B&M")
    start_or(game, state)
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
    apply(game, state, [Dividend(entity="MZA", entity_type="corporation", kind_="half")])
    # half of 23 = 11 -> 2 a share; Ana holds all 5 shares... 4 certificates = 5 shares
    assert state.player("1").cash == 500 + 2 * 5
    assert state.corporations["MZA"].cash == 23 - 10 + 115
    # 2 x 10 < 100: the price stays
    assert price(game, state, "MZA") == 100


def test_zero_earnings_skip_the_dividend_and_move_left_and_no_train_moves_again(
    game: Game18xx,
) -> None:
    state = new_state(game)
    float_company(game, state, "MZA", price=100, cash=0, holders={"1": 4}, home=("H11", 2))
    start_or(game, state)
    # track pass, token pass: no trains, no income -> dividend skipped (withheld: left), no
    # money for a train -> buy step skipped without a train: left again; turn over
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
    assert price(game, state, "MZA") == 80
    assert (state.round.kind, state.round.num) == ("operating", 2)  # MZA's turn is over


# -- 9.4 station markers ------------------------------------------------------------------------


def test_station_must_be_on_a_route_and_costs_40_per_province_border(game: Game18xx) -> None:
    state = new_state(game)
    # MZA in Madrid's north-west city (H11 city 1); track from it to Valladolid (G8) through
    # Ávila (G10): Valladolid is one province away, P40; Barcelona (O8), not connected, would
    # be two (P80) but MZA cannot reach it
    float_company(game, state, "MZA", price=100, cash=300, holders={"1": 4}, home=("H11", 1))
    board.lay(game, state, "G10", "58-0", 3)
    board.lay(game, state, "G8", "57-0", 0)
    state.privates["M&V"].closed = True  # Valladolid's space is no longer held for M&V
    assert game.rules.station_cost(game, state, "MZA", "O8") == 80
    start_or(game, state)
    apply(game, state, [corp_pass("MZA")])  # no track
    with pytest.raises(IllegalAction, match="not on a route of MZA"):
        game.apply(state, PlaceToken(entity="MZA", entity_type="corporation", city="O8-0-0"))
    with pytest.raises(IllegalAction, match="costs MZA 40, not 20"):
        game.apply(
            state, PlaceToken(entity="MZA", entity_type="corporation", city="57-0-0", cost=20)
        )
    game.apply(state, PlaceToken(entity="MZA", entity_type="corporation", city="57-0-0", cost=40))
    assert state.corporations["MZA"].cash == 260
    assert state.hexes["G8"].tokens[0] == ["MZA"]


# -- 9.3 track ------------------------------------------------------------------------------------


def test_private_lays_home_tile_free_and_pays_terrain_plus_20_outside(game: Game18xx) -> None:
    state = new_state(game)
    state.privates["B&M"].owner = "1"
    state.privates["B&M"].floated = True
    state.player("1").companies.append("B&M")
    start_or(game, state)
    assert state.player("1").cash == 500 + 23  # B&M's income first
    apply(
        game,
        state,
        [
            LayTile(entity="B&M", entity_type="minor", hex="O8", tile="X3-0", rotation=0),
            # Gerona (P7): mountain P40 + P20 for the second tile
            LayTile(entity="B&M", entity_type="minor", hex="P7", tile="58-0", rotation=1),
        ],
    )
    # (B&M was the only operator: the next OR has begun and paid its income again)
    assert state.player("1").cash == 500 + 23 - 60 + 23
    assert state.hexes["P7"].tile == "58-0"


def test_private_may_not_upgrade(game: Game18xx) -> None:
    state = new_state(game)
    state.privates["M&A"].owner = "1"
    state.privates["M&A"].floated = True
    state.player("1").companies.append("M&A")
    start_or(game, state)
    with pytest.raises(IllegalAction, match="may not upgrade"):
        game.apply(
            state, LayTile(entity="M&A", entity_type="minor", hex="H11", tile="X7-0", rotation=0)
        )


# -- 9.8 trains -----------------------------------------------------------------------------------


def test_trainless_company_emergency_issue_then_must_buy_from_the_bank(game: Game18xx) -> None:
    state = new_state(game)
    # MZA at P70 with P40: Ana holds 3 certificates, 1 share in the treasury (issued later),
    # it has run once already (so it is not its first turn)
    float_company(game, state, "MZA", price=70, cash=40, holders={"1": 3}, home=("H11", 2))
    state.corporations["MZA"].data["operating_turns"] = 1
    # another company's train is for sale (from P1), so MZA may try to buy: emergency money
    float_company(game, state, "A", price=60, cash=0, holders={"2": 4}, home=("E18", 0))
    give_train(state, "A", "2H-1")
    start_or(game, state)
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])  # track, token; dividend skipped
    assert price(game, state, "MZA") == 65  # zero earnings
    treasury = [s.id for s in state.corporations["MZA"].shares if s.owner == "MZA"]
    game.apply(
        state,
        SellShares(entity="MZA", entity_type="corporation", shares=(treasury[0],), percent=20),
    )
    assert state.corporations["MZA"].cash == 40 + 65
    assert price(game, state, "MZA") == 60
    with pytest.raises(IllegalAction, match="train must be bought"):
        game.apply(state, corp_pass("MZA"))
    with pytest.raises(IllegalAction, match="from the bank"):
        game.apply(
            state, BuyTrain(entity="MZA", entity_type="corporation", train="2H-1", price=100)
        )
    game.apply(
        state,
        BuyTrain(entity="MZA", entity_type="corporation", train="2H-0", price=100, variant="2H"),
    )
    assert state.corporations["MZA"].trains == ["2H-0"]
    assert state.corporations["MZA"].cash == 5


def test_director_pays_what_a_trainless_company_lacks(game: Game18xx) -> None:
    state = new_state(game)
    float_company(game, state, "MZA", price=100, cash=30, holders={"1": 4}, home=("H11", 2))
    # (as in 18xx.games the step is offered only when some train is within the treasury:
    # here another company's, from P1)
    float_company(game, state, "A", price=60, cash=0, holders={"2": 4}, home=("E18", 0))
    give_train(state, "A", "2H-1")
    start_or(game, state)
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
    game.apply(
        state,
        BuyTrain(entity="MZA", entity_type="corporation", train="2H-0", price=100, variant="2H"),
    )
    assert state.corporations["MZA"].cash == 0
    assert state.player("1").cash == 500 - 70


def test_other_company_train_at_any_price_up_to_treasury(game: Game18xx) -> None:
    state = new_state(game)
    float_company(game, state, "MZA", price=100, cash=300, holders={"1": 4}, home=("H11", 2))
    float_company(game, state, "A", price=90, cash=0, holders={"2": 4}, home=("E18", 0))
    give_train(state, "MZA", "2H-0")
    give_train(state, "A", "2H-1")
    state.trains["2H-0"].operated = True
    start_or(game, state)
    assert game.current_entity(state) == "MZA"
    state.trains["2H-0"].operated = True  # nothing to run in this position
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
    with pytest.raises(IllegalAction):
        game.apply(
            state, BuyTrain(entity="MZA", entity_type="corporation", train="2H-1", price=301)
        )
    # the dividend step has nothing (no route run), buy A's 2H for P1
    game.apply(state, BuyTrain(entity="MZA", entity_type="corporation", train="2H-1", price=1))
    assert state.corporations["A"].cash == 1
    assert state.corporations["MZA"].trains == ["2H-0", "2H-1"]


def test_other_company_train_minimum_is_data(definition: object) -> None:
    """trains.yaml ``between_companies.min_price`` is the least one company may pay another:
    at 40, a purchase at 39 is refused and the listing offers it at 40."""
    assert isinstance(definition, GameDefinition)
    dearer = dataclasses.replace(
        definition,
        trains_file=replace_fields(
            definition.trains_file, between_companies=plain(CompanySales(min_price=40))
        ),
    )
    game = Game18xx(dearer, get_rules("1858"), len(PLAYERS))
    state = new_state(game)
    float_company(game, state, "MZA", price=100, cash=300, holders={"1": 4}, home=("H11", 2))
    float_company(game, state, "A", price=90, cash=0, holders={"2": 4}, home=("E18", 0))
    give_train(state, "MZA", "2H-0")
    give_train(state, "A", "2H-1")
    start_or(game, state)
    state.trains["2H-0"].operated = True  # nothing to run in this position
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
    offered = [
        a for a in game.legal_actions(state) if isinstance(a, BuyTrain) and a.train == "2H-1"
    ]
    assert [a.price for a in offered] == [40]
    with pytest.raises(IllegalAction, match="between 40 and 300"):
        game.apply(state, BuyTrain(entity="MZA", entity_type="corporation", train="2H-1", price=39))
    game.apply(state, BuyTrain(entity="MZA", entity_type="corporation", train="2H-1", price=40))
    assert state.corporations["A"].cash == 40


# -- 9.10 phases, wounding, rusting ---------------------------------------------------------------


def sell_out(state: State18xx, *prefixes: str) -> None:
    """Take every bank train of these types out of the depot (as if sold and since rusted)."""
    for tid in list(state.depot):
        if tid.startswith(prefixes):
            state.depot.remove(tid)
            state.trains[tid].rusted = True
            state.trains[tid].owner = ""


def test_first_6h_starts_phase_4_wounds_2h_and_wounded_can_be_scrapped(game: Game18xx) -> None:
    state = new_state(game)
    float_company(game, state, "MZA", price=100, cash=1000, holders={"1": 4}, home=("H11", 2))
    give_train(state, "MZA", "2H-0")
    state.depot.remove("2H-5")
    state.trains["2H-5"].owner = POOL  # one 2H lies in the bank pool
    sell_out(state, "2H-", "4H-")
    state.phase = "3"
    start_or(game, state)
    state.trains["2H-0"].operated = True  # (it has nowhere to run here)
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
    game.apply(
        state,
        BuyTrain(entity="MZA", entity_type="corporation", train="6H-0", price=300, variant="6H"),
    )
    assert state.phase == "4"
    assert state.trains["2H-0"].obsolete  # wounded: runs for half
    assert state.trains["2H-5"].rusted  # the pool's 2H is removed as it becomes wounded
    game.apply(state, ScrapTrain(entity="MZA", entity_type="corporation", train="2H-0"))
    assert state.corporations["MZA"].trains == ["6H-0"]
    assert state.trains["2H-0"].rusted


def test_6h_rust_on_the_fifth_grey_train_from_the_bank(game: Game18xx) -> None:
    state = new_state(game)
    float_company(game, state, "MZA", price=100, cash=2000, holders={"1": 4}, home=("H11", 2))
    float_company(game, state, "A", price=90, cash=0, holders={"2": 4}, home=("E18", 0))
    give_train(state, "A", "6H-0", obsolete=True)
    sell_out(state, "2H-", "4H-", "6H-", "5E-", "6E-")
    state.phase = "7"
    for sym in ("MZA", "A"):  # phase 5 made every company a 10-share one
        phases.convert_share_structure(game, state, sym)
    state.data["purchases_toward_rust_6H"] = 4
    start_or(game, state)
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
    game.apply(
        state,
        BuyTrain(entity="MZA", entity_type="corporation", train="7E-0", price=700, variant="6M"),
    )
    assert state.trains["6H-0"].rusted
    assert state.corporations["A"].trains == []


# -- 5 company closure ----------------------------------------------------------------------------


def test_company_falling_off_the_market_closes_and_its_shares_are_worthless(game: Game18xx) -> None:
    state = new_state(game)
    float_company(game, state, "MZA", price=50, cash=10, holders={"1": 3, "2": 1}, home=("H11", 2))
    start_or(game, state)
    before = game.result(state)
    assert before["2"] == 500 + 50
    bank = state.bank_cash
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])  # zero earnings: to the 0 space
    assert state.corporations["MZA"].closed is False  # a fresh, unstarted MZA replaces it
    assert not state.corporations["MZA"].floated
    assert state.hexes["H11"].tokens[2] == [None]
    assert state.bank_cash == bank + 10
    assert game.result(state)["2"] == 500


def test_tile_must_extend_the_operators_network_and_keep_old_track(game: Game18xx) -> None:
    state = new_state(game)
    state.privates["B&M"].owner = "1"
    state.privates["B&M"].floated = True
    state.player("1").companies.append("B&M")
    start_or(game, state)
    cash = state.player("1").cash
    # a tile far away (I12), turned to fit the map, is on no route of B&M
    sides = routing.track_graph(game, state).neighbours["I12"]
    plain = game.definition.tiles["7"].tile
    rotation = next(r for r in range(6) if set(tiles.exits(plain, r)) <= set(sides))
    with pytest.raises(IllegalAction, match="does not extend a route of B&M"):
        game.apply(
            state,
            LayTile(entity="B&M", entity_type="minor", hex="I12", tile="7-0", rotation=rotation),
        )
    # a plain-track tile cannot go on a city
    with pytest.raises(IllegalAction, match="cannot become 7"):
        game.apply(
            state, LayTile(entity="B&M", entity_type="minor", hex="O8", tile="7-0", rotation=0)
        )
    assert state.player("1").cash == cash  # nothing changed
    assert state.hexes["O8"].tile == "O8-0"


# -- 11 game end ----------------------------------------------------------------------------------


def test_bank_breaking_in_an_or_ends_the_game_at_the_end_of_that_or(game: Game18xx) -> None:
    state = new_state(game)
    float_company(game, state, "MZA", price=100, cash=0, holders={"1": 2, "2": 1}, home=("H11", 2))
    float_company(game, state, "A", price=90, cash=0, holders={"3": 4}, home=("E18", 0))
    state.privates["B&M"].owner = "MZA"
    state.corporations["MZA"].companies.append("B&M")
    moved = state.bank_cash - 10
    state.bank_cash = 10  # (the rest sits with player 4, so money is conserved)
    state.player("4").cash += moved
    start_or(game, state)
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
    # 23 pays 4 a share: the bank cannot pay the private's face value (115) on top: it breaks
    apply(game, state, [Dividend(entity="MZA", entity_type="corporation", kind_="payout")])
    assert state.bank_broken and not state.finished
    apply(game, state, [corp_pass("MZA")])  # MZA buys no train: its turn ends
    assert not state.finished  # A still operates in this OR
    apply(game, state, [corp_pass("A"), corp_pass("A")])
    assert state.finished and state.game_end_reason == "bank"
    # final wealth: cash + certificates at market value; MZA paid out (4 a share: no move)
    # and then had no train (100 -> 90); Ana holds 3 of its 5 shares
    assert price(game, state, "MZA") == 90
    assert game.result(state)["1"] == state.player("1").cash + 3 * 90
    assert game.result(state)["3"] == state.player("3").cash + 5 * price(game, state, "A")


def test_company_emergency_issuing_off_the_market_closes_and_the_next_operates(
    game: Game18xx,
) -> None:
    state = new_state(game)
    # MZA at P60 with no train and P10: zero earnings take it to P50, then an emergency issue
    # moves it one more space left, onto the closing space
    float_company(game, state, "MZA", price=60, cash=10, holders={"1": 3}, home=("H11", 2))
    state.corporations["MZA"].data["operating_turns"] = 1
    float_company(game, state, "A", price=50, cash=0, holders={"2": 4}, home=("E18", 0))
    give_train(state, "A", "2H-1")
    start_or(game, state)
    assert game.current_entity(state) == "MZA"
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])  # zero earnings: 60 -> 50
    assert price(game, state, "MZA") == 50
    treasury = [s.id for s in state.corporations["MZA"].shares if s.owner == "MZA"]
    game.apply(
        state,
        SellShares(entity="MZA", entity_type="corporation", shares=(treasury[0],), percent=20),
    )
    # 50 -> the closing space: MZA closes at once, its station leaves Madrid, A operates
    assert not state.corporations["MZA"].floated
    assert state.hexes["H11"].tokens[2] == [None]
    assert game.current_entity(state) == "A"


# -- 9.5 wounded trains ---------------------------------------------------------------------------


def test_wounded_train_earns_half_and_recorded_revenue_must_match(game: Game18xx) -> None:
    state = new_state(game)
    # MZA in Madrid's north-west city; Ávila (G10, town) and Valladolid (G8, city) beyond
    float_company(game, state, "MZA", price=100, cash=0, holders={"1": 4}, home=("H11", 1))
    board.lay(game, state, "G10", "58-0", 3)
    board.lay(game, state, "G8", "57-0", 0)
    give_train(state, "MZA", "2H-0", obsolete=True)
    state.phase = "4"
    start_or(game, state)
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
    (best,) = routing.best_run(game, state, "MZA", ["2H-0"])
    assert best.hexes == ("H11", "G10", "G8") or best.hexes == ("G8", "G10", "H11")
    # Madrid 40 + Ávila 10 + Valladolid 20 = 70, halved for the wounded 2H
    assert best.revenue == 35
    with pytest.raises(IllegalAction, match="earns 35, not 70"):
        game.apply(
            state,
            RunRoutes(
                entity="MZA",
                entity_type="corporation",
                routes=(dataclasses.replace(best, revenue=70),),
            ),
        )
    game.apply(state, RunRoutes(entity="MZA", entity_type="corporation", routes=(best,)))
    game.apply(state, Dividend(entity="MZA", entity_type="corporation", kind_="payout"))
    assert state.player("1").cash == 500 + 35  # 7 a share, Ana holds all 5


# -- 10 private closure round ---------------------------------------------------------------------


def closure_round(game: Game18xx, state: State18xx) -> None:
    from ferrovia.games.g1858 import PrivateClosureRound

    state.phase = "5"
    for sym in state.corporations:
        phases.convert_share_structure(game, state, sym)
    rnd = PrivateClosureRound.create(game, state, 2)
    rnd.setup()


def test_closure_round_treasury_share_with_consent_and_sale_to_bank(game: Game18xx) -> None:
    state = new_state(game)
    # A (Ana) has a station in Madrid, a home hex of M&V (Bea's); C&S (Cid's) is far away
    float_company(game, state, "A", price=100, cash=0, holders={"1": 2}, home=("H11", 2))
    for sym, owner in (("M&V", "2"), ("C&S", "3")):
        state.privates[sym].owner = owner
        state.privates[sym].floated = True
        state.player(owner).companies.append(sym)
    state.operating_rounds = 2
    closure_round(game, state)
    assert game.current_entity(state) == "M&V"  # in number order
    cash_a, cash_bea = state.corporations["A"].cash, state.player("2").cash
    ask = {"corporation": "A", "from": "treasury"}
    game.apply(state, Choose(entity="M&V", entity_type="minor", choice=ask))
    assert game.current_entity(state) == "A"  # Ana must consent for A
    game.apply(state, Choose(entity="A", entity_type="corporation", choice="approve"))
    a_shares = [s for s in state.corporations["A"].shares if s.owner == "2"]
    assert [s.percent for s in a_shares] == [10]
    assert state.privates["M&V"].closed
    assert state.corporations["A"].cash == cash_a + 120  # M&V's face value, to A
    assert state.player("2").cash == cash_bea
    # A may also put a free station in M&V's reserved city (Valladolid); it declines
    game.apply(state, Pass(entity="A", entity_type="corporation"))
    # C&S: A is not connected to Sevilla/Córdoba, so only the sale to the bank remains
    market = {"corporation": "A", "from": "market"}
    with pytest.raises(IllegalAction, match="not connected"):
        game.apply(state, Choose(entity="C&S", entity_type="minor", choice=market))
    cid = state.player("3").cash
    game.apply(state, Pass(entity="C&S", entity_type="minor"))
    assert state.privates["C&S"].closed
    assert state.player("3").cash == cid + 105  # its face value
    assert state.round.kind != "closure"


def test_bad_lay_input_is_a_clear_error_and_changes_nothing(game: Game18xx) -> None:
    state = new_state(game)
    state.privates["B&M"].owner = "1"
    state.privates["B&M"].floated = True
    state.player("1").companies.append("B&M")
    start_or(game, state)
    before = state.dumps()
    for tile, rotation, msg in (("999-0", 0, "no tile '999-0'"), ("X3-0", 7, "rotation 7")):
        with pytest.raises(IllegalAction, match=msg):
            game.apply(
                state,
                LayTile(entity="B&M", entity_type="minor", hex="O8", tile=tile, rotation=rotation),
            )
    assert state.dumps() == before


def test_a_pool_train_may_be_bought_with_either_face(game: Game18xx) -> None:
    state = new_state(game)
    float_company(game, state, "MZA", price=100, cash=300, holders={"1": 4}, home=("H11", 2))
    state.depot.remove("4H-4")
    state.trains["4H-4"].owner = POOL  # a 4H card lies in the bank pool
    state.phase = "3"
    start_or(game, state)
    apply(game, state, [corp_pass("MZA"), corp_pass("MZA")])
    game.apply(
        state,
        BuyTrain(entity="MZA", entity_type="corporation", train="4H-4", price=100, variant="2M"),
    )
    assert state.trains["4H-4"].name == "2M"
    assert state.corporations["MZA"].cash == 200


def test_private_first_tile_in_home_hex_points_to_its_other_home_hexes(game: Game18xx) -> None:
    # rulebook 9.3 example 1: the C&S laying in F17 must point towards Sevilla (E18) and
    # Córdoba (G18)
    state = new_state(game)
    state.privates["C&S"].owner = "1"
    state.privates["C&S"].floated = True
    state.player("1").companies.append("C&S")
    start_or(game, state)
    assert game.current_entity(state) == "C&S"
    with pytest.raises(IllegalAction, match="must connect toward"):
        game.apply(
            state, LayTile(entity="C&S", entity_type="minor", hex="F17", tile="8-0", rotation=0)
        )
    game.apply(state, LayTile(entity="C&S", entity_type="minor", hex="F17", tile="8-0", rotation=5))
    assert state.hexes["F17"].tile == "8-0"
