"""Iberian Rails' rules, one by one, as pure functions with the rulebook's figures
(engine/games/iberian_rails/rules.py); the same rules played through the engine are in
tests/test_iberian_play.py."""

from __future__ import annotations

import doctest

import pytest
from ferrovia.games.iberian_rails import rules, schemas
from ferrovia.games.iberian_rails.rules import OpenAuction

SEATS = ("a", "b", "c", "d", "e")
HOTELIER = {1: 10, 2: 20, 3: 40, 4: 60, 5: 90}
GROUPS = (
    ("hotelier", "mafioso", "inspector"),
    ("engineer", "ghost", "construction_mech", "auctioneer", "phileas_fogg", "don_quixote"),
    ("banker", "bureaucrat", "venture_capitalist", "nephew", "tax_collector"),
)
SELECTION = {2: (2, 2, 2), 3: (3, 2, 2), 4: (3, 3, 2), 5: (3, 3, 3)}


@pytest.mark.parametrize("module", [rules, schemas])
def test_doctests(module: object) -> None:
    failures, _ = doctest.testmod(module)  # type: ignore[arg-type]
    assert failures == 0


# -- setup ------------------------------------------------------------------------------------


def test_starting_cash_by_player_count() -> None:
    table = {2: 120, 3: 80, 4: 60, 5: 50}
    assert [rules.starting_cash(table, n) for n in (2, 3, 4, 5)] == [120, 80, 60, 50]
    with pytest.raises(ValueError, match="for 2, 3, 4, 5 players, not 6"):
        rules.starting_cash(table, 6)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_selection_table_by_groups(players: int) -> None:
    replace = {"bureaucrat": "worker"} if players == 5 else {}
    for seed in range(20):
        _, row = rules.select_characters(seed, GROUPS, SELECTION[players], replace)
        assert len(row) == {2: 6, 3: 7, 4: 8, 5: 9}[players]
        assert len(set(row)) == len(row)
        for group, n in zip(GROUPS, SELECTION[players], strict=True):
            pool = {replace.get(c, c) for c in group}
            assert len(pool & set(row)) == n
        assert "bureaucrat" not in row if players == 5 else "worker" not in row


def test_the_row_is_random_and_seeded() -> None:
    rows = {rules.select_characters(s, GROUPS, (3, 3, 3), {})[1] for s in range(30)}
    assert len(rows) > 20  # different seeds, different rows
    once = rules.select_characters(11, GROUPS, (3, 3, 3), {})
    assert once == rules.select_characters(11, GROUPS, (3, 3, 3), {})


def test_worker_comes_in_for_the_bureaucrat_with_five() -> None:
    seen = set()
    for seed in range(60):
        seen |= set(rules.select_characters(seed, GROUPS, (3, 3, 3), {"bureaucrat": "worker"})[1])
    assert "worker" in seen and "bureaucrat" not in seen


# -- the opening auction and open auctions ----------------------------------------------------


def test_open_auction_first_bid_may_be_zero_and_the_last_one_in_wins() -> None:
    a = OpenAuction.start(SEATS[:3], opener="a")
    assert a.minimum() == 0 and not a.may_pass("a")  # the opener must bid
    a = a.bid("a", 0)
    assert a.turn == "b" and a.minimum() == 1
    a = a.pass_("b").pass_("c")
    assert a.done and a.winner == "a" and a.high == 0


def test_open_auction_passed_players_are_out_and_bidding_goes_clockwise() -> None:
    a = OpenAuction.start(SEATS[:4], opener="c")
    assert a.order == ("c", "d", "a", "b")
    a = a.bid("c", 3).bid("d", 4).pass_("a").bid("b", 9)
    assert a.turn == "c"  # a passed: out
    a = a.bid("c", 10).pass_("d")
    assert a.turn == "b" and not a.done
    a = a.pass_("b")
    assert (a.done, a.winner, a.high) == (True, "c", 10)
    with pytest.raises(ValueError, match="turn"):
        OpenAuction.start(SEATS[:3], "a").bid("b", 5)
    with pytest.raises(ValueError, match="at least 4"):
        a = OpenAuction.start(SEATS[:3], "a").bid("a", 3).bid("b", 3)


# -- the character draft ----------------------------------------------------------------------


def test_first_round_brown_ceo_first_then_clockwise() -> None:
    assert rules.first_round_order(SEATS[:4], "c") == ("c", "d", "a", "b")


def test_later_rounds_from_the_front_of_the_row() -> None:
    row = ("inspector", "ghost", "banker", "hotelier", "nephew")
    held = {"a": "nephew", "b": "inspector", "c": "banker"}
    assert rules.draft_order(row, held) == ("b", "c", "a")


def test_never_the_card_just_put_back_nor_one_in_a_hand() -> None:
    row = ("inspector", "ghost", "banker", "hotelier", "nephew")
    # b (front) has put the inspector back; a still holds the nephew, c the banker
    assert rules.draft_choices(row, {"nephew", "banker"}, "inspector") == ("ghost", "hotelier")
    # later c may take the inspector b put back
    assert "inspector" in rules.draft_choices(row, {"nephew", "ghost"}, "banker")


# -- building track ---------------------------------------------------------------------------


def test_hotelier_schedule_prices_each_track_as_the_difference() -> None:
    assert [rules.track_price(HOTELIER, n) for n in range(6)] == [10, 10, 20, 20, 30, None]
    assert sum(rules.track_price(HOTELIER, n) or 0 for n in range(5)) == 90  # 5 for 90


def test_the_nephew_cannot_build() -> None:
    assert rules.track_price({}, 0) is None


BOARD = {"A": ("B", "D"), "B": ("A", "C"), "C": ("B",), "D": ("A",)}


def _problem(hex_id: str, **kw: object) -> str | None:
    args: dict[str, object] = {
        "hex_id": hex_id,
        "board": BOARD,
        "on_hex": [],
        "network": ["A"],
        "company": "y",
        "tracks_left": 20,
        "price": 10,
        "fee": 0,
        "cash": 100,
        "tracks_per_hex": 2,
    }
    args.update(kw)
    return rules.lay_problem(**args)  # type: ignore[arg-type]


def test_track_legality() -> None:
    assert _problem("B") is None
    assert _problem("C") == "not connected"  # tracks of a company stay connected
    assert _problem("Z") == "off the board"
    assert _problem("B", on_hex=["y"]) == "already there"  # one track per company per hex
    assert _problem("B", on_hex=["r", "g"]) == "hex full"  # at most two companies a hex
    assert _problem("B", tracks_left=0) == "no track left"
    assert _problem("B", price=None) == "schedule done"
    assert _problem("C", network=["A", "B"]) is None


def test_occupation_fee_goes_to_the_company_already_there_and_must_be_payable() -> None:
    assert rules.occupation_fee(["red"], 10) == ("red", 10)
    assert rules.occupation_fee([], 10) == ("", 0)
    assert _problem("B", on_hex=["r"], fee=10, price=10, cash=20) is None
    assert _problem("B", on_hex=["r"], fee=10, price=10, cash=19) == "cannot pay"
    assert _problem("B", price=10, cash=9) == "cannot pay"


def test_hotel_bonus_ten_per_tourism_city() -> None:
    assert rules.hotel_bonus(2, 10) == 20  # the rulebook's example
    assert rules.hotel_bonus(0, 10) == 0
    kinds = {"A": "city", "B": "tourism", "C": "tourism", "D": "plain"}
    assert rules.connected("ABCD", kinds, "tourism") == 2
    assert rules.connected("ABCD", kinds, "city", "tourism") == 3


# -- closed auctions --------------------------------------------------------------------------


def test_closed_auction_highest_bid_wins() -> None:
    assert rules.closed_auction_winner({"a": 4, "b": 9, "c": 2}, SEATS[:3], ceo="a") == "b"


def test_closed_auction_ties_nearest_the_ceo_clockwise_ceo_wins_all() -> None:
    seats = SEATS[:5]
    bids = {"a": 6, "b": 6, "c": 1, "d": 6, "e": 6}
    assert rules.closed_auction_winner(bids, seats, ceo="c") == "d"  # d sits next to c
    assert rules.closed_auction_winner(bids, seats, ceo="e") == "e"  # the CEO wins ties
    assert rules.closed_auction_winner(bids, seats, ceo="a") == "a"
    assert rules.closed_auction_winner({"a": 0, "b": 0}, seats[:2], ceo="b") == "b"


def test_closed_auction_money_to_the_ceo_or_the_bank_when_paying_oneself() -> None:
    assert rules.closed_auction_payee("ceo", "a", "blue", "b") == "a"
    assert rules.closed_auction_payee("ceo", "a", "blue", "a") == "bank"  # the CEO wins
    assert rules.closed_auction_payee("company", "a", "blue", "a") == "blue"
    assert rules.closed_auction_payee("bank", "a", "blue", "b") == "bank"


# -- payouts and CEOs -------------------------------------------------------------------------


def test_payout_every_player_share_and_every_reserve_share() -> None:
    assert rules.payout(5, {"a": 2, "b": 1, "c": 0}, 3, "blue") == (
        ("a", 10),
        ("b", 5),
        ("blue", 15),
    )
    assert rules.payout(5, {"a": 1}, 0, "blue") == (("a", 5),)


def test_share_value_by_cities_and_column() -> None:
    rows = [[2, 3, 4, 5], [3, 4, 5, 6], [5, 6, 7, 9]]
    assert rules.share_value(rows, 4, 1) == 5  # brown starts in the fourth column
    assert rules.share_value(rows, 1, 3) == 5
    assert rules.share_value(rows, 4, 12) == 9  # past the table: its last row


def test_ceo_change_needs_more_shares_than_the_ceo() -> None:
    assert rules.ceo_after("a", {"a": 2, "b": 2}, "b") == "a"  # the incumbent keeps a tie
    assert rules.ceo_after("a", {"a": 2, "b": 3}, "b") == "b"
    assert rules.ceo_after("a", {"a": 3, "b": 1}, "a") == "a"
    assert rules.ceo_after(None, {"c": 1}, "c") == "c"


def test_passing_only_when_nothing_is_possible() -> None:
    assert rules.company_choices(can_build=True, reserve=0, auctions=()) == ("build",)
    assert rules.company_choices(can_build=False, reserve=1, auctions=("open",)) == (
        "open_auction",
    )
    assert rules.company_choices(can_build=False, reserve=0, auctions=("open", "closed")) == ()
    assert rules.company_choices(can_build=False, reserve=3, auctions=()) == ()


# -- the end ----------------------------------------------------------------------------------


def test_end_four_sold_out_or_twelve_cities() -> None:
    reserves = {"y": 0, "b": 0, "u": 0, "g": 2, "r": 1, "x": 1}
    cities = dict.fromkeys(reserves, 5)
    assert rules.end_reason(reserves, cities, sold_out=4, most_cities=12) is None
    assert rules.end_reason({**reserves, "g": 0}, cities, sold_out=4, most_cities=12) == "shares"
    assert rules.end_reason(reserves, {**cities, "r": 11}, sold_out=4, most_cities=12) is None
    assert rules.end_reason(reserves, {**cities, "r": 12}, sold_out=4, most_cities=12) == "cities"


def test_final_payout_pays_players_twice() -> None:
    out = rules.final_payout({"y": 6, "b": 10}, {"y": {"a": 2, "b": 1}, "b": {"b": 3}}, 2)
    assert out == {"a": 24, "b": 72}


def test_tie_breakers_fewest_shares_then_the_card_nearer_the_rear() -> None:
    row = ("ghost", "banker", "hotelier", "nephew")
    cards = {"a": "ghost", "b": "banker", "c": "hotelier", "d": "nephew"}
    cash = {"a": 100, "b": 120, "c": 100, "d": 100}
    shares = {"a": 2, "b": 9, "c": 3, "d": 3}
    # b has the most pesetas; a has the fewest shares of the rest; c and d tie on both,
    # d's card is nearer the rear
    assert rules.ranking(cash, shares, cards, row) == ("b", "a", "d", "c")
