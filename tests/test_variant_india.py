"""1858 India (gamedata/1858_india, an overlay on 1858): its data validates, its pointy board
has 18xx.games' neighbours, its recorded game replays to its exact result, and each of its own
rules (mine/oil/port tokens, Pullman cars, locomotive works) works as in that game."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import shared_path
from ferrovia.board import hexmap
from ferrovia.data.validate import validate_game
from ferrovia.errors import IllegalAction
from ferrovia.paths import gamedata_root
from ferrovia.play.replay import game_dir_for, load_export, replay

GAME = gamedata_root() / "1858_india"


def test_india_data_validates() -> None:
    res = validate_game(GAME)
    assert res.errors == []
    d = res.definition
    assert d is not None
    assert d.game.layout == "pointy" and len(d.hexes) == 155
    assert d.hexes["E12"].name == "Delhi" and len(d.hexes["E12"].tile.cities) == 3
    railways = [p for p in d.privates if p.kind == "railway"]
    works = [p.symbol for p in d.privates if p.kind == "works"]
    assert len(railways) == 30 and works == ["LW1", "LW2"]
    assert len(d.companies.corporations) == 10
    assert [t.name for t in d.trains][-1] == "Pullman"
    qsb = next(o for o in d.options if o.id == "quick_start_b")
    assert [p.cost for p in qsb.packets[5]] == [390, 365, 360, 395, 390]
    assert game_dir_for("1858India") == GAME


def test_pointy_neighbours_use_number_columns_and_letter_rows() -> None:
    # 18xx.games pointy axes: the number is the (doubled) column, the letter the row.
    assert hexmap.neighbours("D3", "pointy") == {
        0: "E2", 1: "D1", 2: "C2", 3: "C4", 4: "D5", 5: "E4"
    }  # fmt: skip
    assert hexmap.edge_towards("D3", "E4", "pointy") == 5


def test_a_mine_token_is_collected_as_in_the_recorded_game() -> None:
    path = shared_path("fixtures", "18xx.games", "1858India", "hotseat_qs_b.json")
    res = replay(load_export(path), until=150)
    assert res.error is None, res.error
    assert res.state.corporations["GIP"].data["hex_tokens"] == ["mine"]
    assert "I16" not in res.state.data["hex_tokens"]
    assert any("GIP spends 50 and collects a mine token from hex I16" in m for m in res.state.log)


INDIA_GAME = ("fixtures", "18xx.games", "1858India", "hotseat_qs_b.json")


def _at(until: int):  # type: ignore[no-untyped-def]
    res = replay(load_export(shared_path(*INDIA_GAME)), until=until)
    assert res.error is None, res.error
    res.game.check = True  # a refused action leaves the state as it was (replays skip this)
    return res.game, res.state


def test_the_recorded_india_game_replays_to_its_exact_result() -> None:
    data = load_export(shared_path(*INDIA_GAME))
    res = replay(data)
    assert res.error is None, str(res.error)
    assert res.state.finished and res.state.game_end_reason == "bank"
    assert res.game.result(res.state) == {str(k): int(v) for k, v in data["result"].items()}


def test_a_company_at_its_train_limit_still_buys_a_pullman_but_only_one() -> None:
    from ferrovia.lib18xx.actions import BuyTrain
    from ferrovia.lib18xx.operating import common, trains

    game, state = _at(281)  # MSM, at its limit of trains, is about to buy the first Pullman
    assert common.trains_against_limit(game, state, "MSM") == trains.limit_of(game, state, "MSM")
    game.apply(state, BuyTrain(entity="MSM", entity_type="corporation", id=282,
                               train="Pullman-0", price=100, variant="Pullman"))  # fmt: skip
    assert "Pullman-0" in state.corporations["MSM"].trains
    assert trains.crowded_companies(game, state) == []  # the car is outside the limit
    before = state.dumps()
    with pytest.raises(IllegalAction):
        game.apply(state, BuyTrain(entity="MSM", entity_type="corporation", id=283,
                                   train="Pullman-1", price=100, variant="Pullman"))  # fmt: skip
    assert state.dumps() == before


def test_a_pullman_attached_to_a_broad_train_adds_ten_a_city() -> None:
    from ferrovia.lib18xx.actions import Choose
    from ferrovia.lib18xx.operating import routing

    game, state = _at(352)  # MSM is about to attach its Pullman to its 2H-3
    with pytest.raises(IllegalAction, match="cannot attach"):
        game.apply(state, Choose(entity="MSM", entity_type="corporation", id=353,
                                 choice="Pullman-0"))  # fmt: skip
    game.apply(state, Choose(entity="MSM", entity_type="corporation", id=353, choice="2H-3"))
    assert routing.attached_car(state, "MSM") == ("Pullman-0", "2H-3")
    # P13-O14-O12: two cities and a town; the wounded 2H earns 50 and its Pullman 5 a city
    # (18xx.games recorded 60)
    assert state.trains["2H-3"].obsolete
    assert routing.car_bonus(game, state, "MSM", "2H-3", ["city", "town", "city"]) == 10
    assert routing.car_bonus(game, state, "MSM", "4H-2", ["city", "city"]) == 0
    # one attachment per operating round
    assert "choose" not in game.round(state).active_step().actions("MSM")  # type: ignore[union-attr]


def test_a_pullman_behind_a_sound_train_adds_ten_and_never_runs_alone() -> None:
    from ferrovia.lib18xx.operating import common, route_step, routing

    game, state = _at(353)
    state.trains["2H-3"].obsolete = False
    assert routing.car_bonus(game, state, "MSM", "2H-3", ["city", "offboard", "town"]) == 20
    step = game.round(state).active_step()
    assert "Pullman-0" not in route_step.runnable_trains(step, "MSM")  # type: ignore[arg-type]
    assert common.engines(game, state, "MSM") == ["2H-3", "4H-2"]


def test_a_locomotive_works_is_bought_at_face_value_and_takes_ten_percent_off_trains() -> None:
    from ferrovia.lib18xx.actions import BuyCompany, BuyTrain
    from ferrovia.lib18xx.operating import trains

    game, state = _at(508)  # SIR, in phase 5, has just issued shares to buy a train
    assert trains.works_for_sale(game, state, "SIR") == ["LW1", "LW2"]
    assert "LW1" not in game.rules.buyable_privates(game, state)  # never auctioned
    with pytest.raises(IllegalAction, match="LW1 costs 100"):
        game.apply(state, BuyCompany(entity="SIR", entity_type="corporation", id=509,
                                     company="LW1", price=90))  # fmt: skip
    game.apply(state, BuyCompany(entity="SIR", entity_type="corporation", id=509,
                                 company="LW1", price=100))  # fmt: skip
    assert state.privates["LW1"].owner == "SIR" and state.corporations["SIR"].companies == ["LW1"]
    assert trains.works_for_sale(game, state, "SIR") == []  # one works a company
    assert trains.bank_train_prices(game, state, "5E-1", "SIR") == {"5E": 450, "4M": 450}
    assert trains.bank_train_prices(game, state, "5E-1", "EIR") == {"5E": 500, "4M": 500}
    with pytest.raises(IllegalAction, match="costs SIR 450"):
        game.apply(state, BuyTrain(entity="SIR", entity_type="corporation", id=510,
                                   train="5E-1", price=500, variant="4M"))  # fmt: skip


def test_a_locomotive_works_pays_its_company_ten_each_operating_round_and_never_closes() -> None:
    _game, state = _at(998)
    assert state.privates["LW1"].owner == "SIR" and not state.privates["LW1"].closed
    assert state.privates["LW2"].owner == "EIR" and not state.privates["LW2"].closed
    assert any("SIR collects 10 from LW1" in m for m in state.log)


def test_a_gauge_conversion_relays_a_tile_of_the_same_colour_with_one_section_regauged() -> None:
    from ferrovia.lib18xx.actions import LayTile

    game, state = _at(139)  # GIP's turn; J13 holds #657 (a city, one metre and one broad line)
    assert state.hexes["J13"].tile == "657-1" and state.hexes["J13"].rotation == 4
    before = state.dumps()
    with pytest.raises(IllegalAction, match="rotation 0"):  # the line would move
        game.apply(state, LayTile(entity="GIP", entity_type="corporation", id=140,
                                  hex="J13", tile="57-0", rotation=0))  # fmt: skip
    assert state.dumps() == before
    # the metre line becomes broad: #57 (both lines broad) in the old tile's place
    game.apply(state, LayTile(entity="GIP", entity_type="corporation", id=140,
                              hex="J13", tile="57-0", rotation=4))  # fmt: skip
    assert state.hexes["J13"].tile == "57-0"
    assert "657-1" in state.tiles["657"]  # the old tile goes back to the supply


def test_which_gauge_changes_make_a_conversion() -> None:
    from ferrovia.games.g1858.india import Rules1858India
    from ferrovia.notation import parse

    d = validate_game(GAME).definition
    assert d is not None
    counts = d.upgrade_rules.gauge_conversions  # tiles.yaml upgrades.gauge_conversions
    assert counts is not None and (counts.plain_track, counts.with_stops) == ((1,), (1, 2))
    allowed = (counts.plain_track, counts.with_stops)

    def converts(old: object, r0: int, new: object, r: int) -> bool:
        return Rules1858India.converts_gauge(old, r0, new, r, allowed)

    city = "city=revenue:20;path=a:0,b:_0{};path=a:2,b:_0{}"
    metre = ",track:narrow"
    assert converts(parse(city.format("", "")), 0, parse(city.format(metre, "")), 0)
    # a city tile may change two sections at once, all the same way
    assert converts(parse(city.format("", "")), 0, parse(city.format(metre, metre)), 0)
    assert not converts(parse(city.format(metre, "")), 0, parse(city.format("", metre)), 0)
    assert not converts(parse(city.format("", "")), 0, parse(city.format("", "")), 0)
    # plain track: exactly one section
    cross = "path=a:0,b:3{};path=a:1,b:4{}"
    assert converts(parse(cross.format("", "")), 0, parse(cross.format(metre, "")), 0)
    assert not converts(parse(cross.format("", "")), 0, parse(cross.format(metre, metre)), 0)


def test_hex_tokens_are_data_and_checked(tmp_path: Path) -> None:
    from ferrovia.data.validate import validate_game

    d = validate_game(GAME).definition
    assert d is not None
    tokens = d.game.hex_tokens
    assert {k: (t.cost, t.from_status, t.bonus_hex) for k, t in tokens.items()} == {
        "mine": (50, None, "C18"),
        "oil": (100, "oil_tokens", "C22"),
        "port": (200, "port_tokens", "C26"),
    }
    assert tokens["port"].hexes == ("L17", "O8")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "game.yaml").write_text(
        f"extends: {GAME}\nname: bad\ntitle: Bad\n"
        "hex_tokens:\n  mine: {cost: 50, bonus_hex: D3, hexes: [D3, ZZ9]}\n"
    )
    errors = [f"{e.line}:{e.col}: {e.message}" for e in validate_game(bad).errors]
    assert errors == [
        "5:31: 'D3' is not an off-board hex on the map",
        "5:47: no hex 'ZZ9' on the map",
    ]


def test_no_conversion_leaves_a_station_without_a_space() -> None:
    from ferrovia.games.g1858.india import Rules1858India
    from ferrovia.notation import parse

    game, state = _at(139)
    fits = Rules1858India.stations_fit
    one_space = parse("city=revenue:20;path=a:0,b:_0;path=a:3,b:_0")
    h = state.hexes["J13"]
    assert state.privates["HB"].owner == "bank"
    h.tokens, h.reservations = [["GIP"]], [["HB"]]  # GIP's station and HB's reservation
    assert not fits(game, state, "J13", one_space)
    assert not game.rules.extra_upgrade(game, state, "GIP", "J13", "57")
    state.privates["HB"].owner = "GIP"  # its own private's space: it goes back there
    assert fits(game, state, "J13", one_space)
    h.reservations = [[None]]
    assert fits(game, state, "J13", one_space)
    assert game.rules.extra_upgrade(game, state, "GIP", "J13", "57")


def test_a_locomotive_works_closes_with_its_company() -> None:
    from ferrovia.games.g1858 import closure
    from ferrovia.lib18xx.operating import trains

    game, state = _at(510)
    assert state.privates["LW1"].owner == "SIR"
    closure.close_corporation(game, state, "SIR")
    assert state.privates["LW1"].closed and state.privates["LW1"].owner == "bank"
    assert trains.works_for_sale(game, state, "EIR") == ["LW2"]  # never for sale again


# One seeded game per player count (seeds whose games are short, to keep the suite quick;
# tools/xcheck plays many more against 18xx.games).
@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [(3, 16, ()), (4, 17, ("quick_start_a",)), (5, 6, ()), (6, 11, ())],
)
def test_a_random_india_game_plays_to_the_end_and_its_log_replays_identically(
    players: int, seed: int, options: tuple[str, ...]
) -> None:
    import json

    from ferrovia.play.selfplay import play

    res = play(players, seed, options, game_name="1858_india")
    assert res.state.finished and res.state.game_end_reason in ("bank", "dnf")
    assert res.state.total_cash() == res.game.bank_cash
    again = replay(json.loads(json.dumps(res.log)))
    assert again.error is None, str(again.error)
    assert again.state.finished
    assert again.game.result(again.state) == res.game.result(res.state)
    assert again.state.dumps() == res.state.dumps()


def test_bombay_holds_both_spaces_for_its_two_privates() -> None:
    from ferrovia.play.selfplay import new_game

    _game, state = new_game(4, 1, game="1858_india")
    assert state.hexes["K6"].reservations == [["BS", "BT"]]  # as 18xx.games orders them


def test_an_upgrade_reached_only_through_a_full_city_adds_no_track_to_a_route() -> None:
    """18xx.games walks a company's network through a city only when the city has a free
    space or the company's own station: a gauge conversion of Patna reached by a broad line
    from Benares, whose new broad track lies past Patna's two other stations, is refused
    (random game seed 4, 3 players, action 1668: 14 on G20 for MSM)."""
    from ferrovia.data.definition import load_game
    from ferrovia.games import get_rules
    from ferrovia.lib18xx import board
    from ferrovia.lib18xx.actions import LayTile
    from ferrovia.lib18xx.game import Game18xx
    from test_operating_steps import float_company, new_state, start_or

    game = Game18xx(load_game(GAME), get_rules("1858_india"), 4)
    state = new_state(game)
    state.phase = "5"  # green tiles
    board.lay(game, state, "G16", "57-0", 1)  # Allahabad, MSM's station: edges 1 and 4
    board.lay(game, state, "G18", "4-0", 1)  # Benares: broad on to Patna
    board.lay(game, state, "G20", "661-0", 0)  # Patna: broad toward Benares, metre on
    float_company(game, state, "MSM", price=100, cash=500, holders={"1": 4}, home=("G16", 0))
    state.privates["PB"].closed = True  # its reservation on Patna gone
    state.hexes["G20"].tokens, state.hexes["G20"].reservations = [["EIR", "PNS"]], [[None, None]]
    start_or(game, state)
    assert game.current_entity(state) == "MSM"
    lay = LayTile(entity="MSM", entity_type="corporation", hex="G20", tile="14-0", rotation=3)
    before = state.dumps()
    with pytest.raises(IllegalAction, match="must add track to a route of MSM"):
        game.apply(state, lay)
    assert state.dumps() == before
    listed = {
        a.tile for a in game.legal_actions(state) if isinstance(a, LayTile) and a.hex == "G20"
    }
    assert listed == {"X9-0", "X10-0"}  # brown upgrades only: they change Patna's value
    state.hexes["G20"].tokens = [["EIR", None]]  # a free space: MSM's line goes on
    game.apply(state, lay)
    assert state.hexes["G20"].tile == "14-0"


def test_a_company_left_with_only_a_pullman_is_marked_down_twice() -> None:
    """18xx.games ends the buy-trains step twice when a purchase leaves nothing more to buy,
    and a company whose only train is a Pullman is marked down for owning no train each time
    (random game seed 5, 4 players, action 359: BBC buys a Pullman, 80 -> 70 -> 65)."""
    from ferrovia.data.definition import load_game
    from ferrovia.games import get_rules
    from ferrovia.kernel.actions import Pass
    from ferrovia.lib18xx.actions import BuyTrain
    from ferrovia.lib18xx.game import Game18xx
    from test_operating_steps import float_company, give_train, new_state, price, start_or

    game = Game18xx(load_game(GAME), get_rules("1858_india"), 4)
    state = new_state(game)
    state.phase = "3"  # Pullmans for sale
    float_company(game, state, "BBC", price=90, cash=83, holders={"4": 4}, home=("K6", 0))
    # another company's train is for sale from 1: BBC may buy trains, though it has 83
    float_company(game, state, "EIR", price=90, cash=0, holders={"1": 4}, home=("E12", 0))
    give_train(state, "EIR", "4H-0")
    start_or(game, state)
    while game.active_step(state).NAME != "buy_train":  # type: ignore[union-attr]
        game.apply(state, Pass(entity="BBC", entity_type="corporation"))
    assert price(game, state, "BBC") == 80  # no run: marked down once already
    director = state.player("4").cash
    game.apply(
        state,
        BuyTrain(
            entity="BBC", entity_type="corporation", train="Pullman-0", price=100, variant="Pullman"
        ),
    )
    assert state.corporations["BBC"].cash == 0 and state.player("4").cash == director - 17
    assert price(game, state, "BBC") == 65
    assert [m for m in state.log if "does not own a train" in m] == ["BBC does not own a train"] * 2


def test_a_closed_works_still_holds_the_buy_trains_step_for_a_pass() -> None:
    """18xx.games keeps a locomotive works closed with its company among the works for sale
    (it cannot be bought): a company that could afford one must pass its buy-trains step
    (random game seed 4, 3 players, action 1202: MSM after LW1 and LW2 closed)."""
    from ferrovia.data.definition import load_game
    from ferrovia.games import get_rules
    from ferrovia.kernel.actions import Pass
    from ferrovia.lib18xx.actions import BuyCompany
    from ferrovia.lib18xx.game import Game18xx
    from test_operating_steps import float_company, give_train, new_state, start_or

    game = Game18xx(load_game(GAME), get_rules("1858_india"), 4)
    state = new_state(game)
    state.phase = "5"  # works for sale
    state.depot = [t for t in state.depot if t[:2] in ("5E", "6E", "7E", "5D")]  # too dear
    float_company(game, state, "MSM", price=100, cash=238, holders={"1": 4}, home=("G16", 0))
    give_train(state, "MSM", "5E-0")
    state.privates["LW1"].closed = True  # closed with its company, back to the bank
    state.privates["LW2"].owner = "EIR"
    start_or(game, state)
    while game.active_step(state).NAME != "buy_train":  # type: ignore[union-attr]
        legal = game.legal_actions(state)  # no track laid, no run
        game.apply(state, next((a for a in legal if isinstance(a, Pass)), legal[0]))
    assert game.current_entity(state) == "MSM"
    assert game.legal_actions(state) == [Pass(entity="MSM", entity_type="corporation")]
    state.privates["LW1"].closed = False  # open, it is for sale
    assert BuyCompany(
        entity="MSM", entity_type="corporation", company="LW1", price=100
    ) in game.legal_actions(state)


def test_a_private_railway_starts_from_the_city_its_reservation_moved_to() -> None:
    """On a home hex of several cities a private railway starts from the city holding its
    reservation now: Calcutta upgraded to #X29 moves CK's reservation to the city toward
    Khulna, so track toward Assam (H23) is off CK's network (random game seed 11, 6
    players, action 1199: 7 on H23 for CK)."""
    from ferrovia.data.definition import load_game
    from ferrovia.games import get_rules
    from ferrovia.lib18xx import board
    from ferrovia.lib18xx.game import Game18xx
    from ferrovia.lib18xx.operating import routing
    from test_operating_steps import new_state

    game = Game18xx(load_game(GAME), get_rules("1858_india"), 4)
    state = new_state(game)
    state.privates["CK"].owner = "1"
    state.privates["CK"].floated = True
    state.player("1").companies.append("CK")
    state.phase = "5"
    board.lay(game, state, "I22", "X29-0", 4)
    assert state.hexes["I22"].reservations == [["CK"], ["CPC"], ["HH"]]
    reached = routing.reached_edges_by_gauge(game, state, "CK", "H23")
    assert (set(reached["broad"]), set(reached["metre"])) == (set(), set())
    toward_khulna = routing.reached_edges_by_gauge(game, state, "CK", "I24")
    assert 1 in toward_khulna["broad"]  # I22's edge 4, the reserved city's way out


def test_an_india_game_in_progress_renders_and_views(tmp_path: Path) -> None:
    """render --game and view work on India's pointy map, money in pounds as exported."""
    import json
    import re

    from ferrovia.cli import main

    export = shared_path(*INDIA_GAME)
    svg = tmp_path / "at.svg"
    args = ["render", str(gamedata_root() / "1858_india"), "--game", str(export), "--at", "500"]
    assert main([*args, "-o", str(svg)]) == 0
    assert "<title>C6: tile 79, rotation 0</title>" in svg.read_text(encoding="utf-8")
    html_path = tmp_path / "game.html"
    assert main(["view", str(export), "-o", str(html_path)]) == 0
    html = html_path.read_text(encoding="utf-8")
    assert html.count('class="hex-cell"') == 155
    found = re.search(r'id="frames-data">(.*?)</script>', html, re.S)
    assert found is not None
    data = json.loads(found.group(1))
    by_id = {f["id"]: f for f in data["frames"]}
    assert data["currency"] == "£%d"
    assert by_id[1]["text"] == "BT lays tile 58 on K8 (Poona), rotation 1, paying £0"
    assert by_id[87]["text"] == "BBC places a station marker in K6 (Bombay), paying £0"
