"""1830 as data on the generic core: validation, the 2-D market, the waterfall auction, the
stock round, and how far the 18xx.games exports replay (in progress: each test pins the
furthest action reached so a regression shows, and is raised as the rules grow)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from conftest import GAMEDATA, shared_path
from ferrovia.data.definition import GameDefinition, load_game
from ferrovia.errors import GameError, IllegalAction, OutOfTurn
from ferrovia.games import get_rules
from ferrovia.lib18xx import market
from ferrovia.lib18xx.actions import action_from_json
from ferrovia.lib18xx.game import Game18xx
from ferrovia.lib18xx.state import State18xx
from ferrovia.play.replay import replay


@lru_cache(maxsize=1)
def definition() -> GameDefinition:
    return load_game(GAMEDATA / "1830")


def table(players: int = 3) -> tuple[Game18xx, State18xx]:
    game = Game18xx(definition(), get_rules("1830"), players)
    state = game.new_state([(str(i), f"Player {i}") for i in range(1, players + 1)], 1)
    return game, state


def act(game: Game18xx, state: State18xx, entity: str, kind: str, **fields: object) -> None:
    et = "corporation" if entity in state.corporations else "player"
    wire = {"type": kind, "entity": entity, "entity_type": et, **fields}
    game.apply(state, action_from_json(wire, game.action_types))


def test_1830_data_validates_with_its_components() -> None:
    counts = definition().counts()
    assert counts["hexes"] == 93 and counts["privates"] == 6 and counts["corporations"] == 8
    assert definition().layout == "pointy"


def test_grid_market_moves_as_a_2d_market() -> None:
    game, state = table()
    corp = state.corporations["PRR"]
    corp.market = [0, 6]  # 100, a par space
    assert market.share_price(game, state.corporations["PRR"]) == 100
    market.move(game, state, "PRR", "right")
    assert corp.market == [0, 7] and market.share_price(game, state.corporations["PRR"]) == 112
    market.move(game, state, "PRR", "down")
    assert market.share_price(game, state.corporations["PRR"]) == 100  # [1, 7]
    corp.market = [0, 18]  # 350, the top right: right goes up, which stays put
    market.move(game, state, "PRR", "right")
    assert corp.market == [0, 18]
    corp.market = [1, 18]
    market.move(game, state, "PRR", "right")
    assert corp.market == [0, 18]
    corp.market = [8, 2]  # 20: left is 10, then no space, so left goes down: 10 below
    market.move(game, state, "PRR", "left")
    assert corp.market == [8, 1]
    market.move(game, state, "PRR", "left")
    assert corp.market == [8, 1]  # below [8, 1] is no space either: it stays
    corp.market = [10, 3]  # the bottom row: down stays
    market.move(game, state, "PRR", "down")
    assert corp.market == [10, 3]


def test_the_cheapest_private_is_bought_and_bids_on_others_wait_for_it() -> None:
    game, state = table()
    act(game, state, "1", "bid", company="CA", price=165)  # a bid on a dearer private
    assert state.privates["CA"].owner == "bank"
    with pytest.raises(IllegalAction, match="SV costs 20"):
        act(game, state, "2", "bid", company="SV", price=15)
    act(game, state, "2", "bid", company="SV", price=20)  # buys the cheapest
    assert state.privates["SV"].owner == "2" and state.player("2").cash == 780
    act(game, state, "3", "bid", company="CS", price=45)  # the cheapest now: bought at 45
    assert state.privates["CS"].owner == "3" and state.player("3").cash == 755
    act(game, state, "1", "bid", company="MH", price=115)
    act(game, state, "2", "bid", company="MH", price=120)  # MH waits for DH to be sold
    with pytest.raises(IllegalAction, match="at most"):
        act(game, state, "3", "bid", company="BO", price=800)
    act(game, state, "3", "pass")
    act(game, state, "1", "pass")
    act(game, state, "2", "pass")  # all passed after a purchase: the privates pay income
    assert state.player("2").cash == 785 and state.player("3").cash == 765
    act(game, state, "3", "bid", company="DH", price=70)  # DH bought: MH's auction starts
    assert game.current_entity(state) == "1"  # the lowest bidder raises or drops out
    act(game, state, "1", "pass")
    assert state.privates["MH"].owner == "2" and state.player("2").cash == 665


def test_the_camden_and_amboy_brings_a_prr_share_and_the_b_and_o_its_presidency() -> None:
    game, state = table()
    for sym, price in (("SV", 20), ("CS", 40), ("DH", 70), ("MH", 110), ("CA", 160)):
        act(game, state, game.current_entity(state) or "", "bid", company=sym, price=price)
    buyer = state.privates["CA"].owner
    assert [s.id for s in state.corporations["PRR"].shares if s.owner == buyer] == ["PRR_1"]
    bo = game.current_entity(state) or ""
    act(game, state, bo, "bid", company="BO", price=220)
    assert state.round.kind == "auction" and game.current_entity(state) == bo  # par B&O first
    act(game, state, bo, "par", corporation="B&O", share_price="67,5,6")
    assert state.corporations["B&O"].director == bo and state.round.kind == "stock"


def test_a_player_parring_pays_twice_par_and_the_company_floats_at_sixty_percent() -> None:
    game, state = table()
    for sym, price in (("SV", 20), ("CS", 40), ("DH", 70), ("MH", 110), ("CA", 160)):
        act(game, state, game.current_entity(state) or "", "bid", company=sym, price=price)
    act(game, state, game.current_entity(state) or "", "bid", company="BO", price=220)
    bo = game.current_entity(state) or ""
    act(game, state, bo, "par", corporation="B&O", share_price="100,0,6")
    p = game.current_entity(state) or ""
    cash = state.player(p).cash
    act(game, state, p, "par", corporation="NYC", share_price="90,1,6")
    assert state.player(p).cash == cash - 180
    nyc = state.corporations["NYC"]
    bought = 1
    while not nyc.floated:
        q = game.current_entity(state) or ""
        if q == p:
            act(game, state, q, "buy_shares", shares=[f"NYC_{bought}"], percent=10)
            bought += 1
        else:
            act(game, state, q, "pass")
    assert bought == 5 and state.player(p).cash == cash - 180 - 4 * 90  # at par, to the bank
    assert nyc.cash == 900  # ten times par from the bank once 60 % is sold


EXPORTS = ("1830_game_end_bank.json", "26855.json", "29133.json")
# every recorded run checked against the exact optimum: (runs, the runs that left money)
ROUTE_CHECK = {
    "1830_game_end_bank.json": (99, {(70, "B&O", 90, 100), (348, "B&O", 320, 340)}),
    "26855.json": (43, {(296, "PRR", 110, 130), (328, "NYC", 210, 240)}),
    "29133.json": (24, set()),
}


@pytest.mark.parametrize("name", EXPORTS)
def test_1830_exports_replay_blind_to_their_exact_result(name: str) -> None:
    """The bank breaks in the first; a president goes bankrupt in the others (one with the
    multiple_brown_from_ipo option).  Blind: the file's result is read only to compare.  No
    recorded run beats the route search's optimum (``replay --check-routes``)."""
    path = shared_path("fixtures", "18xx.games", "1830", name)
    data = json.loads(path.read_text(encoding="utf-8"))
    blind = {k: v for k, v in data.items() if k not in ("result", "status", "game_end_reason")}
    res = replay(blind, check_routes=True)
    assert res.error is None, str(res.error)
    assert res.state.finished and res.state.game_end_reason == data["game_end_reason"]
    assert res.game.result(res.state) == {k: int(v) for k, v in data["result"].items()}
    rc = res.route_check
    assert rc is not None and rc.below == [] and rc.inexact == []
    checked, above = ROUTE_CHECK[name]
    assert rc.checked == checked
    assert {(c.action, c.company, c.recorded, c.optimum) for c in rc.above} == above


def test_the_routes_command_finds_the_b_and_o_run_an_1830_export_missed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """B&O ran 90 at action 70 (I15-I19 and I15-J14); two runs through Washington give 100."""
    from ferrovia.cli import main

    game = shared_path("fixtures", "18xx.games", "1830", "1830_game_end_bank.json")
    assert main(["routes", "--game", str(game), "--before", "70", "--company", "B&O"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("B&O: best run 100 (2 trains")
    assert sorted(line.split()[1:] for line in out[1:]) == [["50", "I15-J14"], ["50", "J14-K13"]]


def test_the_1830_viewer_steps_through_an_export_in_dollars(tmp_path: Path) -> None:
    import re

    from ferrovia.cli import main

    game = shared_path("fixtures", "18xx.games", "1830", "29133.json")
    out = tmp_path / "game.html"
    assert main(["view", str(game), "-o", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert html.count('class="hex-cell"') == 93
    found = re.search(r'id="frames-data">(.*?)</script>', html, re.S)
    assert found is not None
    data = json.loads(found.group(1))
    by_id = {f["id"]: f for f in data["frames"]}
    assert len(data["frames"]) == 335 and data["currency"] == "$%d"
    assert by_id[44]["text"] == "B&O lays tile 7 on I17, rotation 1, paying $80"
    assert by_id[102]["text"] == "PRR places a station marker in H16 (Lancaster), paying $40"


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (6, 2)])
def test_random_1830_game_plays_to_the_end_and_replays_identically(players: int, seed: int) -> None:
    from ferrovia.play.selfplay import play

    res = play(players, seed, game_name="1830")
    assert res.state.finished and res.state.game_end_reason in ("bank", "bankrupt")
    assert res.state.total_cash() == res.game.bank_cash  # no money made or lost
    again = replay(json.loads(json.dumps(res.log)))
    assert again.error is None, str(again.error)
    assert again.state.dumps() == res.state.dumps()


def test_the_1830_map_tiles_and_a_game_in_progress_render(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    from ferrovia.cli import main

    assert main(["render", str(GAMEDATA / "1830"), "-o", str(tmp_path / "map.svg")]) == 0
    root = ET.parse(tmp_path / "map.svg").getroot()
    cells = [e for e in root.iter() if (e.get("class") or "").split() == ["hex-cell"]]
    assert len(cells) == 93
    assert main(["render", str(GAMEDATA / "1830"), "--tiles", "-o", str(tmp_path / "t.svg")]) == 0
    export = shared_path("fixtures", "18xx.games", "1830", "1830_game_end_bank.json")
    out = tmp_path / "at.svg"
    args = ["render", str(GAMEDATA / "1830"), "--game", str(export), "--at", "300"]
    assert main([*args, "-o", str(out)]) == 0
    assert "<title>I17: tile 9, rotation 1</title>" in out.read_text(encoding="utf-8")


def test_an_1830_variant_resolves_and_differs_only_where_it_says(tmp_path: Path) -> None:
    from ferrovia.cli import main

    variant = tmp_path / "rich"
    variant.mkdir()
    (variant / "game.yaml").write_text(
        f"extends: {GAMEDATA / '1830'}\nname: 1830_rich\ntitle: '1830 rich'\n", encoding="utf-8"
    )
    (variant / "market.yaml").write_text("bank: {'3': 15000}\n", encoding="utf-8")
    assert main(["validate", str(variant)]) == 0
    defn = load_game(variant)
    assert defn.bank_cash(3) == 15000 and defn.bank_cash(4) == 12000
    assert defn.market.stock_market.shape == "grid"
    assert main(["diff", str(GAMEDATA / "1830"), str(variant)]) == 0


def floated(game: Game18xx, state: State18xx, sym: str, director: str, *, col: int = 6) -> None:
    """``sym`` floated at the par in row 0, column ``col`` (6: 100), 60 % its director's."""
    from ferrovia.lib18xx.stock.shares import move_share, set_par

    corp = state.corporations[sym]
    set_par(game, state, corp, col)
    for share in corp.shares[:5]:
        move_share(state, share, director)
    corp.director, corp.ipoed, corp.floated = director, True, True
    state.bank_cash -= 1000
    corp.cash = 1000


def test_a_home_station_goes_where_an_upgrade_moved_its_reservation() -> None:
    """18xx.games seed 7104: B&M upgraded New York (G19) to tile 54 before NYNH first ran; the
    reserved city (printed index 0, track to edge 3) is index 1 on the 54, so NYNH's home
    station is there and its network runs north (F18, F20), not to G17."""
    from ferrovia.lib18xx import board
    from ferrovia.lib18xx.operating import routing
    from ferrovia.lib18xx.rounds import OperatingRound

    game, state = table()
    floated(game, state, "NYNH", "1")
    board.lay(game, state, "G19", "54-0", 0)
    assert state.hexes["G19"].reservations == [[None], ["NYNH"]]
    OperatingRound.create(game, state, 1).setup()
    assert state.hexes["G19"].tokens == [[None], ["NYNH"]]
    assert routing.reached_hexes(game, state, "NYNH") == {"G19", "F18", "F20"}
    with pytest.raises(IllegalAction, match="does not extend a route of NYNH"):
        act(game, state, "NYNH", "lay_tile", hex="G17", tile="56-0", rotation=2)


def _nyc_owning(sym: str) -> tuple[Game18xx, State18xx]:
    """NYC floated with 1,000 and owning private ``sym``; its first operating turn begun."""
    from ferrovia.lib18xx.rounds import OperatingRound

    game, state = table()
    floated(game, state, "NYC", "1")
    state.privates[sym].owner = "NYC"
    state.corporations["NYC"].companies.append(sym)
    OperatingRound.create(game, state, 1).setup()
    return game, state


def test_the_delaware_and_hudson_lays_f16_as_the_turns_lay_and_brings_a_free_station() -> None:
    """18xx.games teleport: during NYC's track step the DH lays a 57 on the mountain (NYC pays
    the 120), unconnected, as NYC's lay; the round then waits for the DH's station there,
    which is NYC's next marker for nothing, and its station of the turn."""
    game, state = _nyc_owning("DH")
    offered = [a for a in game.legal_actions(state) if a.entity == "DH"]
    assert {(a.type, getattr(a, "hex", "")) for a in offered} == {("lay_tile", "F16")}
    act(game, state, "DH", "lay_tile", hex="F16", tile="57-0", rotation=0)
    nyc = state.corporations["NYC"]
    assert nyc.cash == 1000 + 15 - 120 and state.hexes["F16"].tile == "57-0"  # DH paid 15
    assert game.current_entity(state) == "DH"  # the station comes first
    with pytest.raises(OutOfTurn, match="waiting for DH"):
        act(game, state, "NYC", "pass")
    act(game, state, "DH", "place_token", city="57-0-0")
    nyc = state.corporations["NYC"]
    assert state.hexes["F16"].tokens == [["NYC"]] and nyc.cash == 895
    assert [t.price for t in nyc.tokens if t.hex] == [0, 0]  # its home and this one
    assert game.current_entity(state) == "NYC"
    assert "place_token" not in game.round(state).actions_for("NYC")  # its station of the turn
    assert "lay_tile" not in game.round(state).actions_for("NYC")  # and its lay
    # New York and Scranton are two stations, but no track joins them: no run (18xx.games
    # walks from each station alone), so a train would not run and the route step is skipped
    assert not game.rules.route_available(game, state, "NYC")
    from ferrovia.lib18xx.operating.emergency import must_buy

    assert not must_buy(game, state, "NYC")  # nor must it buy a train for one


def test_the_delaware_and_hudson_teleports_only_in_its_companys_track_step() -> None:
    game, state = _nyc_owning("DH")
    act(game, state, "NYC", "lay_tile", hex="E19", tile="57-0", rotation=0)  # NYC's own lay
    with pytest.raises(GameError, match="DH cannot"):
        act(game, state, "DH", "lay_tile", hex="F16", tile="57-1", rotation=0)
    assert state.hexes["F16"].tile == "F16-0"


def test_the_delaware_and_hudsons_station_may_be_declined() -> None:
    game, state = _nyc_owning("DH")
    act(game, state, "DH", "lay_tile", hex="F16", tile="57-0", rotation=0)
    act(game, state, "DH", "pass")
    assert state.hexes["F16"].tokens == [[None]] and game.current_entity(state) == "NYC"


def test_buying_the_camden_and_amboy_from_a_player_hands_its_prr_share_over_again() -> None:
    """18xx.games gives a private's shares on every purchase by a player (after_buy_company):
    PRR_1 in the pool goes to the new owner free; while a player holds it the sale is refused."""
    from ferrovia.lib18xx.rounds import StockRound
    from ferrovia.lib18xx.stock.shares import find_share, move_share

    game, state = table()
    state.privates["CA"].owner = "2"
    state.player("2").companies.append("CA")
    state.turn = 2  # players trade privates from the second stock round
    StockRound.create(game, state).setup()
    move_share(state, find_share(state, "PRR_1"), "2")
    buyer = game.current_entity(state) or ""
    assert buyer == "1"
    with pytest.raises(IllegalAction, match="PRR_1 is with a player"):
        act(game, state, "1", "buy_company", company="CA", price=50)
    move_share(state, find_share(state, "PRR_1"), "pool")
    act(game, state, "1", "buy_company", company="CA", price=50)
    assert state.privates["CA"].owner == "1" and find_share(state, "PRR_1").owner == "1"
    assert state.player("1").cash == 800 - 50 and state.player("2").cash == 800 + 50


def test_companies_over_the_train_limit_discard_in_charter_order() -> None:
    """18xx.games' usual crowded_corps: NYC before ERIE although ERIE's price is higher (1858
    sorts them into operating order)."""
    from ferrovia.lib18xx.operating.trains import crowded_companies

    game, state = table()
    floated(game, state, "ERIE", "1", col=8)  # 126
    floated(game, state, "NYC", "2")  # 100
    state.phase = "4"  # three trains at most
    for sym, names in (
        ("NYC", ["2-0", "2-1", "2-2", "2-3"]),
        ("ERIE", ["3-0", "3-1", "3-2", "3-3"]),
    ):
        for tid in names:
            state.depot.remove(tid)
            state.trains[tid].owner = sym
            state.corporations[sym].trains.append(tid)
    assert crowded_companies(game, state) == ["NYC", "ERIE"]


def test_no_tile_goes_on_a_hex_a_players_private_blocks() -> None:
    """At the first lay of an export, a company laying on each hex a player-owned private
    blocks is refused for that (the blocked hexes are looked up only for those hexes)."""
    from ferrovia.lib18xx.actions import LayTile
    from ferrovia.play.replay import filter_actions, game_for

    data = json.loads(
        shared_path("fixtures", "18xx.games", "1830", "26855.json").read_text(encoding="utf-8")
    )
    game, state = game_for(data)
    actions = [action_from_json(a) for a in filter_actions(list(data["actions"]))]
    first = next(i for i, a in enumerate(actions) if isinstance(a, LayTile))
    for a in actions[:first]:
        game.apply(state, a)
    lay = actions[first]
    assert isinstance(lay, LayTile)
    held = {
        h
        for p in game.definition.privates
        if (ps := state.privates.get(p.symbol)) and not ps.closed and state.is_player(ps.owner)
        for ab in p.abilities
        if ab.type == "blocks_hexes"
        for h in ab.hexes
    }
    assert held
    for h in sorted(held):
        blocked = LayTile(
            entity=lay.entity, entity_type=lay.entity_type, hex=h, tile=lay.tile, rotation=0
        )
        with pytest.raises(IllegalAction, match=f"a private blocks {h}"):
            game.apply(state, blocked)
    game.apply(state, lay)  # the recorded lay stands


def _at_its_limit(cash: int) -> tuple[Game18xx, State18xx, Any]:
    """Phase 6, the Ds next in the depot; B&O at its limit of two trains (a 5 and a 6) with
    ``cash``, C&O owning a 4; an operating round begun, its buy-train step returned."""
    from ferrovia.lib18xx.operating.common import remove_from_play
    from ferrovia.lib18xx.operating.trains import BuyTrainStep
    from ferrovia.lib18xx.rounds import OperatingRound

    game, state = table()
    floated(game, state, "B&O", "1")
    floated(game, state, "C&O", "2")
    state.phase = "6"
    for tid in [t for t in state.depot if state.trains[t].name != "D"]:
        owner = {"5-0": "B&O", "6-0": "B&O", "4-0": "C&O"}.get(tid)
        if owner is None:
            remove_from_play(state, tid)
            continue
        state.depot.remove(tid)
        state.trains[tid].owner = owner
        state.corporations[owner].trains.append(tid)
    state.corporations["B&O"].cash = cash
    OperatingRound.create(game, state, 1).setup()
    step = next(s for s in game.bound_steps(state) if isinstance(s, BuyTrainStep))
    return game, state, step


def test_at_its_limit_a_company_able_to_trade_in_for_a_d_may_still_buy_and_discards_after() -> None:
    """18xx.games (its own random play, seed 12106, two players): B&O, at its phase-6 limit of
    two with a 5 and a 6 and 951 in its treasury, could still trade one in for a D (1,100 less
    300), so its buy step stayed open; it bought C&O's 4 for 886, then discarded it.  With
    less than 800 the step is closed and the same purchase breaks the train limit."""
    from ferrovia.lib18xx.operating.trains import crowded_companies

    game, state, step = _at_its_limit(951)
    assert step.can_buy("B&O")
    wire = {"type": "buy_train", "entity": "B&O", "entity_type": "corporation"}
    buy = action_from_json({**wire, "train": "4-0", "price": 886}, game.action_types)
    step.process_buy_train(buy)
    assert sorted(state.corporations["B&O"].trains) == ["4-0", "5-0", "6-0"]
    assert state.corporations["B&O"].cash == 951 - 886
    assert crowded_companies(game, state) == ["B&O"]

    game, state, step = _at_its_limit(799)
    assert not step.can_buy("B&O")
    buy = action_from_json({**wire, "train": "4-0", "price": 500}, game.action_types)
    with pytest.raises(IllegalAction, match="no room for another train"):
        step.process_buy_train(buy)
