"""Stock-round rules [§8], one scenario per rule, with exact cash, prices and owners."""

from __future__ import annotations

import pytest
from ferrovia.errors import IllegalAction, OutOfTurn, UnknownEntity
from ferrovia.lib18xx import market
from ferrovia.lib18xx.stock import shares as sh
from rules_helpers import Table


def in_or(s: object) -> bool:
    return s.round.kind == "operating"


def test_auction_goes_round_in_multiples_of_five_and_the_highest_bidder_pays() -> None:
    t = Table(4)
    t.act("1", "bid", company="B&M", price=90)
    assert t.acting == "2"  # the auction goes round from the bidder
    t.act("2", "bid", company="B&M", price=95)
    t.act("3", "pass")
    t.act("4", "pass")
    t.act("1", "bid", company="B&M", price=100)
    t.act("2", "pass")
    s = t.state
    assert s.privates["B&M"].owner == "1" and s.player("1").companies == ["B&M"]
    assert (t.cash("1"), t.cash("2")) == (275, 375)
    assert s.privates["B&M"].floated  # its minor operates from the first OR
    assert t.acting == "2"  # the player after the one who opened the auction goes next


def test_bids_must_rise_by_multiples_of_five_above_the_minimum() -> None:
    t = Table(4)
    with pytest.raises(IllegalAction, match="minimum bid is 90"):
        t.act("1", "bid", company="B&M", price=85)
    t.act("1", "bid", company="B&M", price=90)
    with pytest.raises(IllegalAction, match="multiples of 5"):
        t.act("2", "bid", company="B&M", price=97)


def test_first_stock_round_cannot_start_companies() -> None:
    t = Table(4)
    t.act("1", "bid", company="B&M", price=90)
    for p in ("2", "3", "4"):
        t.act(p, "pass")
    with pytest.raises(IllegalAction, match="cannot start a company now"):
        t.act("B&M", "buy_shares", entity_type="company", shares=["TBF_0"], percent=40)


def test_round_ends_when_everyone_passes_in_turn() -> None:
    t = Table(3)
    for p in ("1", "2", "3"):
        t.act(p, "pass")
    # nothing floated, so both operating rounds are empty: straight to stock round 2
    assert (t.state.round.kind, t.state.turn) == ("stock", 2)


def worked_example() -> Table:
    """The Czech summary's example: 4 players; Player 1 buys B&M and starts TBF with it."""
    t = Table(4)
    t.act("1", "bid", company="B&M", price=90)
    t.act("2", "bid", company="B&M", price=95)
    t.act("3", "pass")
    t.act("4", "pass")
    t.act("1", "bid", company="B&M", price=100)
    t.act("2", "pass")
    for p in ("2", "3", "4", "1"):
        t.act(p, "pass")
    assert t.state.round.kind == "operating"
    return t


def to_players_turn(t: Table, player: str) -> None:
    """Pass until it is ``player``'s turn in the next stock round."""
    t.pass_until(lambda s: s.round.kind == "stock" and t.acting == player)


def test_worked_example_private_income_and_track_paid_by_the_owner() -> None:
    t = worked_example()
    assert t.cash("1") == 275 + 23  # private income at the start of the OR
    t.act("B&M", "lay_tile", hex="O8", tile="X3-0", rotation=0)  # Barcelona: free, home hex
    t.act("B&M", "lay_tile", hex="P7", tile="58-0", rotation=1)  # Girona: 40 mountain + 20
    # B&M's turn is over and it is the only operator: OR 1.2 starts and pays again
    assert (t.state.round.num, t.cash("1")) == (2, 238 + 23)


def test_worked_example_exchange_for_the_directors_certificate_at_the_highest_par() -> None:
    t = worked_example()
    t.act("B&M", "lay_tile", hex="O8", tile="X3-0", rotation=0)
    t.act("B&M", "lay_tile", hex="P7", tile="58-0", rotation=1)
    to_players_turn(t, "1")
    t.act("B&M", "buy_shares", entity_type="company", shares=["TBF_0"], percent=40)
    t.act("TBF", "place_token", city="X3-0-0", slot=0)
    s = t.state
    tbf = s.corporations["TBF"]
    assert (t.cash("1"), tbf.cash, tbf.par_price, tbf.director) == (151, 110, 110, "1")
    assert tbf.floated and tbf.companies == ["B&M"] and s.privates["B&M"].owner == "TBF"
    assert s.hexes["O8"].tokens[0] == ["TBF"]
    assert "B&M" not in s.player("1").companies
    # the turn ended with that purchase; the others buy one share each, Player 1 a second
    assert t.acting == "2"
    t.act("2", "buy_shares", shares=["TBF_1"], percent=20)
    t.act("3", "buy_shares", shares=["TBF_2"], percent=20)
    t.act("4", "pass")
    t.act("1", "buy_shares", shares=["TBF_3"], percent=20)
    assert (t.cash("1"), tbf.cash) == (41, 440)
    assert sh.percent_of(tbf, "1") == 60 and sh.percent_of(tbf, "TBF") == 0


def test_selling_needs_the_company_to_have_operated_and_drops_price_only_for_director() -> None:
    t = worked_example()
    to_players_turn(t, "1")
    t.act("B&M", "buy_shares", entity_type="company", shares=["TBF_0"], percent=40)
    t.act("TBF", "place_token", city="O8-0-0", slot=0)
    t.act("2", "buy_shares", shares=["TBF_1"], percent=20)
    t.act("3", "pass")
    t.act("4", "pass")
    with pytest.raises(IllegalAction):  # TBF has not operated yet: selling is not offered
        t.act("1", "sell_shares", shares=["TBF_0"], percent=20)
    tbf = t.state.corporations["TBF"]
    tbf.operated = True  # as after its first operating turn
    before = tbf.market
    t.act("1", "pass")
    t.act("2", "sell_shares", shares=["TBF_1"], percent=20)  # not the director: no drop
    assert tbf.market == before and t.cash("2") == 375 - 110 + 110
    assert sh.percent_of(tbf, "pool") == 20


def test_the_directors_certificate_never_goes_to_the_pool() -> None:
    t = worked_example()
    to_players_turn(t, "1")
    t.act("B&M", "buy_shares", entity_type="company", shares=["TBF_0"], percent=40)
    t.act("TBF", "place_token", city="O8-0-0", slot=0)
    t.state.corporations["TBF"].operated = True
    for p in ("2", "3", "4"):
        t.act(p, "pass")
    with pytest.raises(IllegalAction, match="cannot sell"):
        t.act("1", "sell_shares", shares=["TBF_0"], percent=40)


def test_director_change_goes_to_the_player_with_more_shares() -> None:
    t = worked_example()
    to_players_turn(t, "1")
    t.act("B&M", "buy_shares", entity_type="company", shares=["TBF_0"], percent=40)
    t.act("TBF", "place_token", city="O8-0-0", slot=0)
    s = t.state
    tbf = s.corporations["TBF"]
    # Player 2 ends up with 60 % against Player 1's 40 %
    sh.buy_shares(t.game, s, "2", sh.Bundle("TBF", [sh.find_share(s, "TBF_1")], 20), price=0)
    sh.buy_shares(t.game, s, "2", sh.Bundle("TBF", [sh.find_share(s, "TBF_2")], 20), price=0)
    assert tbf.director == "1"  # a tie keeps the director
    sh.buy_shares(t.game, s, "2", sh.Bundle("TBF", [sh.find_share(s, "TBF_3")], 20), price=0)
    assert tbf.director == "2"
    assert sh.find_share(s, "TBF_0").owner == "2"
    assert sh.percent_of(tbf, "1") == 40 and sh.percent_of(tbf, "2") == 60


def test_conversion_halves_every_certificate_and_adds_five_treasury_shares() -> None:
    t = worked_example()
    to_players_turn(t, "1")
    t.act("B&M", "buy_shares", entity_type="company", shares=["TBF_0"], percent=40)
    t.act("TBF", "place_token", city="O8-0-0", slot=0)
    t.act("2", "buy_shares", shares=["TBF_1"], percent=20)
    t.game.rules.convert(t.game, t.state, "TBF")
    tbf = t.state.corporations["TBF"]
    assert tbf.kind == "10-share" and len(tbf.shares) == 9
    assert (sh.percent_of(tbf, "1"), sh.percent_of(tbf, "2"), sh.percent_of(tbf, "TBF")) == (
        20,
        10,
        70,
    )
    assert [s.index for s in sh.holder_shares(tbf, "TBF")][-5:] == [4, 5, 6, 7, 8]


def test_out_of_turn_and_unknown_entities_raise_typed_errors_and_change_nothing() -> None:
    t = Table(4)
    before = t.state.dumps()
    with pytest.raises(OutOfTurn):
        t.act("2", "bid", company="B&M", price=90)
    with pytest.raises(UnknownEntity):
        t.act("99", "pass")
    with pytest.raises(IllegalAction):
        t.act("1", "bid", company="NOPE", price=90)
    with pytest.raises(IllegalAction):
        t.act("1", "bid", company="B&M", price=10_000)
    assert t.state.dumps() == before


def test_a_failure_half_way_through_an_action_rolls_everything_back() -> None:
    t = worked_example()
    t.pass_until(lambda s: s.round.kind == "stock")
    before = t.state.dumps()
    # the exchange starts TBF, then the (wrong) home city is refused in the recorded
    # auto-action: the whole action, exchange included, is undone
    wire = t.wire("B&M", "buy_shares", entity_type="company", shares=["TBF_0"], percent=40)
    wire["auto_actions"] = [
        {"type": "place_token", "entity": "TBF", "entity_type": "corporation", "city": "A14-0-0"}
    ]
    from ferrovia.lib18xx.actions import action_from_json

    with pytest.raises(IllegalAction, match="cannot start in A14"):
        t.game.apply(t.state, action_from_json(wire))
    assert t.state.dumps() == before


def test_quick_start_deals_packets_with_the_seeded_generator() -> None:
    a = Table(4, seed=317182052, options=("quick_start_a",))
    b = Table(4, seed=317182052, options=("quick_start_a",))
    assert [p.companies for p in a.state.players] == [p.companies for p in b.state.players]
    assert a.state.round.kind == "operating"
    owned = sorted(c for p in a.state.players for c in p.companies)
    assert len(owned) == 16 and "B&M" in owned
    # each player paid exactly their packet's price
    costs = {tuple(ps): c for ps, c in a.game.packets("quick_start_a")}
    for p in a.state.players:
        assert p.cash + costs[tuple(p.companies)] - _income(a, p.companies) == 375


def _income(t: Table, syms: list[str]) -> int:
    return sum(t.game.definition.private_income(s, t.state.phase) for s in syms)


def test_two_players_draw_five_and_two_unbuyable_privates_from_the_seed() -> None:
    a, b = Table(2, seed=5), Table(2, seed=5)
    drawn = a.state.data["unbuyable_privates"]
    assert drawn == b.state.data["unbuyable_privates"]
    batches = [a.game.definition.private(sym).batch for sym in drawn]
    assert batches == [1] * 5 + [2] * 2
    assert Table(2, seed=6).state.data["unbuyable_privates"] != drawn
    with pytest.raises(IllegalAction, match="cannot be bought"):
        a.act("1", "bid", company=drawn[0], price=a.game.definition.private(drawn[0]).minimum_bid)


def test_worked_example_continues_into_the_companys_first_operating_rounds() -> None:
    """Summary steps 7-11: TBF earns B&M's P23 (no train yet) and pays P4 a share, keeping the
    odd P3; it buys a 2H; next OR the 2H runs Barcelona-Girona for P50.  Unlike the summary
    (which keeps B&M paying), 18xx.games closes a company's privates after its dividend,
    paying their face value (P115) into its treasury; the fixtures confirm that order."""
    t = worked_example()
    t.act("B&M", "lay_tile", hex="O8", tile="X3-0", rotation=0)
    t.act("B&M", "lay_tile", hex="P7", tile="58-0", rotation=1)
    to_players_turn(t, "1")
    t.act("B&M", "buy_shares", entity_type="company", shares=["TBF_0"], percent=40)
    t.act("TBF", "place_token", city="X3-0-0", slot=0)
    t.act("2", "buy_shares", shares=["TBF_1"], percent=20)
    t.act("3", "buy_shares", shares=["TBF_2"], percent=20)
    t.act("4", "pass")
    t.act("1", "buy_shares", shares=["TBF_3"], percent=20)
    t.pass_until(lambda s: s.round.kind == "operating" and t.acting == "TBF")
    tbf = t.state.corporations["TBF"]
    assert (t.cash("1"), tbf.cash) == (41, 440)  # B&M's income now goes to TBF, not Player 1
    t.pass_until(lambda s: "dividend" in t.game.round(s).actions_for("TBF"))
    t.act("TBF", "dividend", kind="payout")
    assert (t.cash("1"), t.cash("2"), tbf.market) == (53, 375 - 110 + 4, [0, 8])  # no move
    assert t.state.privates["B&M"].closed and tbf.cash == 440 + 3 + 115
    t.act("TBF", "buy_train", train="2H-0", price=100, variant="2H")
    assert tbf.cash == 458 and tbf.trains == ["2H-0"]
    t.pass_until(lambda s: "run_routes" in t.game.round(s).actions_for("TBF"))
    route = {
        "train": "2H-0",
        "connections": [["O8", "P7"]],
        "hexes": ["O8", "P7"],
        "revenue": 50,
        "revenue_str": "O8-P7",
    }
    t.act("TBF", "run_routes", routes=[route], extra_revenue=0, subsidy=0)
    t.act("TBF", "dividend", kind="payout")
    # P10 a share: less than a tenth of P110, so the price stays
    assert (t.cash("1"), tbf.cash, market.spaces(t.game)[tbf.market[1]]) == (83, 458, 110)


def started_tbf() -> Table:
    """Player 1 has started TBF with B&M (40 %); it is Player 2's turn in stock round 2."""
    t = worked_example()
    to_players_turn(t, "1")
    t.act("B&M", "buy_shares", entity_type="company", shares=["TBF_0"], percent=40)
    t.act("TBF", "place_token", city="O8-0-0", slot=0)
    return t


def test_holding_limit_is_sixty_percent_of_one_company() -> None:
    t = started_tbf()
    for p in ("2", "3", "4"):
        t.act(p, "pass")
    t.act("1", "buy_shares", shares=["TBF_1"], percent=20)  # 60 %
    for p in ("2", "3", "4"):
        t.act(p, "pass")
    with pytest.raises(IllegalAction, match=r"limit|cannot buy_shares"):
        t.act("1", "buy_shares", shares=["TBF_2"], percent=20)  # would be 80 %


def test_bank_pool_holds_at_most_fifty_percent() -> None:
    t = started_tbf()
    s = t.state
    tbf = s.corporations["TBF"]
    tbf.operated = True
    for sid in ("TBF_1", "TBF_2"):
        sh.find_share(s, sid).owner = "pool"  # 40 % already in the pool
    sh.find_share(s, "TBF_3").owner = "2"
    with pytest.raises(IllegalAction, match="cannot sell"):
        t.act("2", "sell_shares", shares=["TBF_3"], percent=20)


def test_certificate_limit_stops_buying_and_bidding() -> None:
    t = started_tbf()
    s = t.state
    # Player 2 holds the limit (16 with 4 players): privates count as certificates
    s.player("2").companies = [p.symbol for p in t.game.privates if p.symbol != "B&M"][:16]
    for sym in s.player("2").companies:
        s.privates[sym].owner = "2"
    assert sh.num_certs(t.game, s, "2") == t.game.cert_limit == 16
    with pytest.raises(IllegalAction, match="limit"):
        t.act("2", "buy_shares", shares=["TBF_1"], percent=20)


def test_exchange_for_a_share_needs_the_directors_consent_and_a_connection() -> None:
    t = started_tbf()
    s = t.state
    # Player 2 owns P&L (home B9/B11): TBF in Barcelona does not reach it.  As on
    # 18xx.games, the request is made all the same; the director may only deny it
    s.privates["P&L"].owner = "2"
    s.player("2").companies.append("P&L")
    s.corporations["TBF"].operated = True
    t.act("P&L", "buy_shares", shares=["TBF_1"], percent=20)
    assert t.acting == "1" and s.round.data["pending_approval"] == "TBF"
    offered = t.game.legal_actions(s)
    assert [a.choice for a in offered if a.entity == "TBF" and a.type == "choose"] == ["deny"]
    before = s.dumps()
    with pytest.raises(IllegalAction, match="not connected"):
        t.act("TBF", "choose", choice="approve")
    assert t.state.dumps() == before
    t.act("TBF", "choose", choice="deny")
    s = t.state
    assert s.privates["P&L"].owner == "2" and t.acting == "2"
    # with a station in one of its home hexes it is connected; the director must consent
    s.corporations["TBF"].tokens[1].hex = "B11"
    t.act("P&L", "buy_shares", shares=["TBF_1"], percent=20)
    assert t.acting == "1" and s.round.data["pending_approval"] == "TBF"
    t.act("TBF", "choose", choice="deny")
    assert s.privates["P&L"].owner == "2" and t.acting == "2"
    t.act("P&L", "buy_shares", shares=["TBF_1"], percent=20)
    t.act("TBF", "choose", choice="approve")
    assert s.privates["P&L"].owner == "TBF" and sh.find_share(s, "TBF_1").owner == "2"
    assert t.cash("2") == 375  # an exchange costs nothing
    # TBF may take P&L's reserved space in Porto (its director decides), then Player 2's
    # turn goes on: an exchange is not a purchase
    assert t.acting == "1" and s.round.data["pending_tokens"][0]["cities"] == [["B9", 0]]
    t.act("TBF", "pass")
    assert t.acting == "2"


def test_from_phase_five_a_company_starts_by_buying_the_directors_certificate() -> None:
    t = started_tbf()
    s = t.state
    s.phase = "5"
    t.game.rules.convert(t.game, s, "MZA")
    t.act("2", "par", corporation="MZA", share_price="90,0,6")
    mza = s.corporations["MZA"]
    assert (mza.par_price, t.cash("2"), mza.cash) == (90, 375 - 180, 180)  # 20 % at 90
    assert mza.floated and t.acting == "2"  # the director places the home station now
    # in any free city space, paying twice its revenue: Lisboa (green, P40) costs P80
    with pytest.raises(IllegalAction, match="cannot start in H11"):  # reserved for privates
        t.act("MZA", "place_token", city="H11-0-0", slot=0)
    t.act("MZA", "place_token", city="A14-0-0", slot=1)
    mza = s.corporations["MZA"]  # a refused action restores the state's objects: look again
    assert "MZA" in s.hexes["A14"].tokens[0] and mza.cash == 100


def test_a_recorded_share_price_must_be_the_market_price() -> None:
    t = started_tbf()
    before = t.state.dumps()
    with pytest.raises(IllegalAction, match="cost 110, not 1"):
        t.act("2", "buy_shares", shares=["TBF_1"], percent=20, share_price=1)
    assert t.state.dumps() == before
    t.act("2", "buy_shares", shares=["TBF_1"], percent=20, share_price=110)
    assert t.cash("2") == 375 - 110
