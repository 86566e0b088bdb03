"""Operating-round arithmetic (1858 rules 9.3-9.10, 11): exact amounts a player would check."""

from __future__ import annotations

import doctest

import pytest
from ferrovia.games.g1858 import stations
from ferrovia.lib18xx.operating import dividend, game_end, phases, track, trains
from ferrovia.lib18xx.operating.phases import TrainFacts
from ferrovia.schemas.market import Movement
from ferrovia.schemas.tiles import TerrainRules, TileLay

MOVES = Movement(
    withheld=-1,
    dividend_at_least_price=1,
    dividend_times=10,
    director_sells=-1,
    others_sell=0,
    no_train=-1,
)


@pytest.mark.parametrize("module", [dividend, game_end, phases, stations, track, trains])
def test_doctests(module: object) -> None:
    failures, _ = doctest.testmod(module)  # type: ignore[arg-type]
    assert failures == 0


# -- 9.6 distribute earnings ----------------------------------------------------------------


def test_full_payout_remainder_goes_to_company() -> None:
    # P137 on a 10-share company: P13 a share, the odd P7 to the treasury.
    assert dividend.split_earnings(137, 10, "payout") == dividend.Payout(13, 7)


def test_half_payout_halves_before_dividing() -> None:
    # P137 half: P68 to share out -> P6 a share on 10 shares, company keeps 137 - 60 = 77.
    assert dividend.split_earnings(137, 10, "half") == dividend.Payout(6, 77)
    # 5-share company: 68 // 5 = 13 a share, company keeps 137 - 65 = 72.
    assert dividend.split_earnings(137, 5, "half") == dividend.Payout(13, 72)


def test_payments_to_holders_treasury_paid_pool_lost() -> None:
    # 10-share company, director 4 shares (incl. the 2-share certificate), a player 2, the
    # treasury 1, the pool 3; P130 paid in full = P13 a share.
    pay = dividend.holder_payments(13, {"1": 4, "2": 2, "MZA": 1, "pool": 3}, pool="pool")
    assert pay == {"1": 52, "2": 26, "MZA": 13}


def test_market_move_ten_times_dividend_rule_even_for_five_share() -> None:
    # 5-share company at P100 paying P10 a share: 10 x 10 >= 100 -> right.
    assert dividend.market_steps(10, 100, MOVES) == 1
    # P9 a share at P100: stays.
    assert dividend.market_steps(9, 100, MOVES) == 0
    # withheld (or P0 a share): left.
    assert dividend.market_steps(0, 100, MOVES) == -1


def test_unknown_dividend_kind_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown dividend kind 'all'"):
        dividend.split_earnings(10, 10, "all")


# -- 9.4 station markers ----------------------------------------------------------------------


def test_station_cost_nearest_marker_counts() -> None:
    # MZA in Madrid, second marker in Barcelona two provinces away: P80 (rulebook example).
    assert stations.station_cost([2], per_boundary=40, minimum=20) == 80
    # another marker only one boundary away makes it P40
    assert stations.station_cost([2, 1], per_boundary=40, minimum=20) == 40
    # same province: P20
    assert stations.station_cost([0, 3], per_boundary=40, minimum=20) == 20


# -- 9.3 track --------------------------------------------------------------------------------


SECOND = TileLay(cost=20, metre_cost=10, other_hex=True)
TERRAIN = TerrainRules(metre_only="half", private_home_hexes="free")


def test_second_tile_costs_20_and_10_when_metre_only() -> None:
    assert (
        track.tile_lay_cost(
            SECOND, TERRAIN, terrain=0, new_gauges={"broad"}, turn_gauges=[{"broad"}, {"broad"}]
        )
        == 20
    )
    assert (
        track.tile_lay_cost(
            SECOND, TERRAIN, terrain=0, new_gauges={"narrow"}, turn_gauges=[{"broad"}, {"narrow"}]
        )
        == 10
    )


def test_terrain_halved_for_metre_and_free_in_private_home() -> None:
    first = TileLay()
    assert (
        track.tile_lay_cost(
            first, TERRAIN, terrain=80, new_gauges={"narrow"}, turn_gauges=[{"narrow"}]
        )
        == 40
    )
    assert (
        track.tile_lay_cost(first, TERRAIN, terrain=80, new_gauges={"dual"}, turn_gauges=[{"dual"}])
        == 80
    )
    assert (
        track.tile_lay_cost(
            first,
            TERRAIN,
            terrain=80,
            new_gauges={"broad"},
            turn_gauges=[{"broad"}],
            home_of_private=True,
        )
        == 0
    )
    # with terrain paid in full the same metre lay costs all 80
    full = TerrainRules(metre_only="full", private_home_hexes="paid")
    assert (
        track.tile_lay_cost(
            first, full, terrain=80, new_gauges={"narrow"}, turn_gauges=[{"narrow"}]
        )
        == 80
    )


def test_new_track_is_what_the_upgrade_adds() -> None:
    # a green upgrade keeping one broad path and adding a metre path: the new track is metre
    assert track.new_track_gauges(["broad"], ["broad", "narrow"]) == frozenset({"narrow"})


# -- 9.8 trains -------------------------------------------------------------------------------


def test_emergency_issue_never_more_than_needed() -> None:
    # P50 cash, shares at P80, dearest bank train P300: 1-3 shares leave it short, 4 reach
    # it (P370), 5 would be more than needed.
    bundles = [(1, 80), (2, 160), (3, 240), (4, 320), (5, 400)]
    assert trains.emergency_issue_sizes(bundles, 50, 300) == [1, 2, 3, 4]


def test_train_limit_by_company_kind() -> None:
    assert trains.train_limit({"5-share": 2, "10-share": 3}, "5-share") == 2
    assert trains.train_limit({"10-share": 2}, "5-share") == 0


# -- 9.10 phases ------------------------------------------------------------------------------


def _t(id_: str, type_: str, *, pool: bool = False, obsolete: bool = False) -> TrainFacts:
    facts = {"2H": ("6H", "6E"), "4H": ("6E", "7E"), "6H": ("7E", None)}
    w, r = facts[type_]
    return TrainFacts(id_, type_, pool, obsolete, w, r)


def test_phase_7_wounds_6h_and_rusts_4h() -> None:
    ts = [_t("4H-0", "4H", obsolete=True), _t("6H-1", "6H"), _t("6H-2", "6H", pool=True)]
    out = phases.wound_and_rust(ts, "7E")
    assert out.wounded == ("6H-1", "6H-2")
    assert out.rusted == ("4H-0", "6H-2")  # the pool's 6H is removed as it becomes wounded


def test_phase_starts_can_chain_only_on_triggers() -> None:
    order = ["2", "3", "4", "5", "6", "7"]
    trig = {
        "3": ["4H", "2M"],
        "4": ["6H", "3M"],
        "5": ["5E", "4M"],
        "6": ["6E", "5M"],
        "7": ["7E", "6M"],
    }
    assert phases.phases_started(order, "4", trig, ["5E", "4M"]) == ["5"]
    assert phases.phases_started(order, "7", trig, ["7E"]) == []


def test_grey_counter_counts_only_grey_faces_from_bank() -> None:
    grey = ["7E", "6M", "5D"]
    assert phases.counts_as_grey("6M", True, grey)
    assert not phases.counts_as_grey("7E", False, grey)
    assert not phases.counts_as_grey("6E", True, grey)


# -- 11 final scores --------------------------------------------------------------------------


def test_final_score_counts_shares_privates_and_cash_only() -> None:
    # P250 cash, director's certificate (2 shares) + 1 share of a P100 company, one share of a
    # P65 company, and a P110 private.
    assert game_end.final_score(250, [(100, 2), (100, 1), (65, 1)], [110]) == 250 + 300 + 65 + 110
