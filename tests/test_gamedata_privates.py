"""1858 privates.yaml: the 22 private railways as a player reads them off the certificates.

Values are read straight from the YAML and compared with the rulebook's private tables, the
Czech summary's list of privates and its worked example (``../shared/seeds``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import GAMEDATA, shared_path
from ruamel.yaml import YAML

PRIVATES_FILE = GAMEDATA / "1858" / "privates.yaml"


def _load() -> dict[str, Any]:
    data: dict[str, Any] = YAML(typ="safe").load(PRIVATES_FILE.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def privates() -> dict[str, dict[str, Any]]:
    return {p["symbol"]: p for p in _load()["privates"]}


def test_schema_line_comes_first() -> None:
    first = PRIVATES_FILE.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../schemas/json/privates.schema.json"


def test_twenty_two_privates_numbered_in_order(privates: dict[str, dict[str, Any]]) -> None:
    assert [p["number"] for p in privates.values()] == list(range(1, 23))
    assert list(privates) == [
        "H&G", "B&M", "M&A", "P&L", "V&J", "R&T", "L&C", "M&V", "M&Z", "C&S", "SJ&C",
        "Z&P", "C&B", "C&M", "M&C", "A&S", "B&CR", "S&C", "M&S", "CM&P", "O&V", "L&G",
    ]  # fmt: skip


def test_seventeen_from_the_start_five_from_phase_3(privates: dict[str, dict[str, Any]]) -> None:
    batch = {p["number"]: p["batch"] for p in privates.values()}
    assert [n for n, b in batch.items() if b == 1] == list(range(1, 18))
    assert [n for n, b in batch.items() if b == 2] == list(range(18, 23))
    colours = {p["batch"]: p["color"] for p in privates.values()}
    assert colours == {1: "yellow", 2: "green"}


def test_barcelona_and_mataro(privates: dict[str, dict[str, Any]]) -> None:
    bm = privates["B&M"]
    assert bm["number"] == 2
    assert bm["name"] == "Barcelona and Mataró Railway"
    assert (bm["minimum_bid"], bm["face_value"]) == (90, 115)
    assert bm["income"] == {"2": 23, "3": 35}
    assert bm["home_hexes"] == ["O8"]
    assert bm["reservations"] == [{"hex": "O8", "city": 0, "name": "Barcelona"}]
    assert bm["can_start"] == "any"
    assert bm["start_cities"] == [{"hex": "O8", "city": 0}]


def test_spot_values(privates: dict[str, dict[str, Any]]) -> None:
    def card(sym: str) -> tuple[int, int, dict[str, int], list[str]]:
        p = privates[sym]
        return p["minimum_bid"], p["face_value"], p["income"], p["home_hexes"]

    assert card("H&G") == (30, 30, {"2": 10}, [])
    assert card("M&V") == (95, 120, {"2": 24, "3": 36}, ["G8", "G10", "H11"])
    assert card("B&CR") == (50, 65, {"2": 13, "3": 20}, ["D15", "E14", "F15"])
    assert card("CM&P") == (165, 135, {"3": 40}, ["D13", "E12", "F13", "G12", "H11"])
    assert card("L&G") == (120, 120, {"3": 36}, ["F1", "F3", "F5"])


def test_madrid_has_three_reserved_cities(privates: dict[str, dict[str, Any]]) -> None:
    madrid = {
        sym: r["city"]
        for sym, p in privates.items()
        for r in p.get("reservations", [])
        if r["hex"] == "H11"
    }
    # Rulebook: M&A "Madrid (E)", CM&P "Madrid (W)"; the M&V takes the city towards Valladolid.
    assert madrid == {"M&A": 2, "M&V": 1, "CM&P": 0}


def test_who_cannot_start_a_public_company(privates: dict[str, dict[str, Any]]) -> None:
    cannot = [sym for sym, p in privates.items() if p["can_start"] == "none"]
    assert cannot == ["H&G", "R&T", "B&CR", "M&S"]
    # H&G has no railway on the map: no home, no minor, never exchanged for a share.
    hg = privates["H&G"]
    assert (hg["home_hexes"], hg["minor"], hg["exchange_for_share"]) == ([], False, False)
    assert [s for s, p in privates.items() if not p["exchange_for_share"]] == ["H&G"]


def test_starting_cities_are_the_reserved_ones(privates: dict[str, dict[str, Any]]) -> None:
    for sym, p in privates.items():
        reserved = [(r["hex"], r["city"]) for r in p.get("reservations", [])]
        assert all(h in p["home_hexes"] for h, _ in reserved), sym
        if p["can_start"] == "none":
            assert reserved == [] and "start_cities" not in p, sym
        else:
            assert p["can_start"] == "any", sym
            assert [(c["hex"], c["city"]) for c in p["start_cities"]] == reserved, sym
            assert reserved, sym


def test_shared_single_slot_reservations(privates: dict[str, dict[str, Any]]) -> None:
    # a one-slot city two privates hold: both reserve the same space (the first to use it
    # takes it); the data says so once, in each private's own reservations
    holders: dict[tuple[str, int, int], list[str]] = {}
    for sym, p in privates.items():
        for r in p.get("reservations", []):
            holders.setdefault((r["hex"], r["city"], r.get("slot", 0)), []).append(sym)
    shared = {k: sorted(v) for k, v in holders.items() if len(v) > 1}
    assert shared == {
        ("L7", 0, 0): ["M&Z", "Z&P"],
        ("E18", 0, 0): ["C&S", "SJ&C"],
        ("G18", 0, 0): ["C&M", "C&S"],
    }


def test_blocked_and_future_track_hexes_are_home_hexes(
    privates: dict[str, dict[str, Any]],
) -> None:
    for sym, p in privates.items():
        assert set(p["blocks_hexes"]) <= set(p["home_hexes"]), sym
    # Hexes preprinted with track (Madrid, Aranjuez, Zaragoza, Lisboa, Gijón, Cartagena) are
    # home hexes nobody needs to be kept out of.
    unblocked = {
        sym: sorted(set(p["home_hexes"]) - set(p["blocks_hexes"])) for sym, p in privates.items()
    }
    assert {s: h for s, h in unblocked.items() if h} == {
        "M&A": ["H11", "H13"],
        "L&C": ["A14"],
        "M&V": ["H11"],
        "M&Z": ["L7"],
        "Z&P": ["L7"],
        "M&C": ["L19"],
        "CM&P": ["H11"],
        "L&G": ["F1"],
    }
    # the map prints a future line on a home hex of every minor but these
    codes = {c: h.get("code", "") for c, h in _map_hexes().items()}
    no_future = [
        s
        for s, p in privates.items()
        if p["minor"] and not any("track:future" in codes[h] for h in p["home_hexes"])
    ]
    assert no_future == ["B&M", "M&A", "V&J", "R&T", "C&B", "M&S"]
    for sym, p in privates.items():  # and a home hex with a future line is kept for it
        future = [h for h in p["home_hexes"] if "track:future" in codes[h]]
        assert set(future) <= set(p["blocks_hexes"]), sym


def test_minimum_bids(privates: dict[str, dict[str, Any]]) -> None:
    for sym, p in privates.items():
        assert p["minimum_bid"] % 5 == 0, sym
    above_face = [s for s, p in privates.items() if p["minimum_bid"] > p["face_value"]]
    assert above_face == ["CM&P"]
    # The green privates are auctioned from their face value (CM&P aside).
    assert [s for s, p in privates.items() if p["minimum_bid"] == p["face_value"]] == [
        "H&G", "S&C", "M&S", "O&V", "L&G",
    ]  # fmt: skip


def test_income_rises_in_phase_3_for_the_first_batch(privates: dict[str, dict[str, Any]]) -> None:
    for sym, p in privates.items():
        if sym == "H&G":
            assert p["income"] == {"2": 10}
        elif p["batch"] == 1:
            assert set(p["income"]) == {"2", "3"}, sym
            assert p["income"]["3"] > p["income"]["2"], sym
        else:
            assert set(p["income"]) == {"3"}, sym


def test_two_player_game_withholds_some_privates() -> None:
    assert _load()["two_player_unavailable"] == {"batch_1": 5, "batch_2": 2}


# --- cross-checks with the rulebook and the Czech summary ---------------------------------


def test_rulebook_private_tables(privates: dict[str, dict[str, Any]]) -> None:
    text = shared_path("seeds", "1858-rulebook.txt").read_text(encoding="utf-8")
    rows = re.findall(r"^(\d+)\t([^\t]+)\t(\d+)\t(\d+)\t(\d+(?:/\d+)?)\t(.+)$", text, re.M)
    assert len(rows) == 8  # P1-P4 and P18-P21 survive in the shared text
    by_number = {p["number"]: p for p in privates.values()}
    for number, _name, min_bid, face, income, home in rows:
        p = by_number[int(number)]
        assert p["minimum_bid"] == int(min_bid), number
        assert p["face_value"] == int(face), number
        assert sorted(p["income"].values()) == [int(i) for i in income.split("/")], number
        assert (home == "None") == (p["can_start"] == "none"), number


_CS_LINE = re.compile(
    r"• (\S+) \(P(\d+)(, zelená)?\) — Pt(\d+), příjem (\d+)(?:→(\d+))?"
    r"(?: \(fáze 3\))?(?:, domovy? ([A-Z0-9/]+))? — (.+)"
)


def test_czech_summary_list_of_privates(privates: dict[str, dict[str, Any]]) -> None:
    text = shared_path("seeds", "1858-summary-cs.txt").read_text(encoding="utf-8")
    lines = _CS_LINE.findall(text)
    assert len(lines) == 22
    for sym, number, green, face, first, later, homes, start in lines:
        p = privates[sym]
        assert p["number"] == int(number), sym
        assert p["face_value"] == int(face), sym
        incomes = [int(first)] + ([int(later)] if later else [])
        assert list(p["income"].values()) == incomes, sym
        assert sorted(p["home_hexes"]) == sorted(homes.split("/") if homes else []), sym
        can_start = start.startswith("zakládá")
        assert can_start == (p["can_start"] == "any"), sym
        assert bool(green) == (p["batch"] == 2), sym


def test_czech_worked_example(privates: dict[str, dict[str, Any]]) -> None:
    """H1 buys B&M for P100, earns P23 twice, starts TBF in Barcelona at P110."""
    text = shared_path("seeds", "1858-summary-cs.txt").read_text(encoding="utf-8")
    bm = privates["B&M"]
    # "[B&M], nominálně Pt115, na minimu Pt90 ... [H1] ji vyhraje za Pt100. Dává Pt23"
    assert "nominálně Pt115, na minimu Pt90" in text
    assert (bm["face_value"], bm["minimum_bid"]) == (115, 90)
    winning_bid = 100
    assert winning_bid >= bm["minimum_bid"] and winning_bid % 5 == 0
    cash = 375 - winning_bid
    assert cash == 275
    # OR 1.1: income, then the yellow Barcelona tile is free in its home hex, Girona costs
    # P40 mountain + P20 for the second lay.
    assert "Barcelona" in [r["name"] for r in bm["reservations"]]
    cash += bm["income"]["2"] - 40 - 20
    assert cash == 238
    cash += bm["income"]["2"]  # OR 1.2
    assert cash == 261
    # SR 2: par is the highest par price not above face value 115 -> P110, station in Barcelona.
    par = 110
    assert par <= bm["face_value"] < par + 10
    assert bm["can_start"] == "any" and bm["start_cities"] == [{"hex": "O8", "city": 0}]
    assert cash - par == 151
    # Phase 3: B&M then pays TBF P35.
    assert "bude [B&M] dávat [TBF] Pt35" in text
    assert bm["income"]["3"] == 35


# --- consistency with map.yaml (owned by the map engineer) -------------------------------


def _map_hexes() -> dict[str, dict[str, Any]]:
    with (GAMEDATA / "1858" / "map.yaml").open(encoding="utf-8") as handle:
        data: dict[str, dict[str, Any]] = YAML(typ="safe").load(handle)["hexes"]
    return data


@pytest.fixture(scope="module")
def map_hexes() -> dict[str, dict[str, Any]]:
    path = GAMEDATA / "1858" / "map.yaml"
    if not path.exists():
        pytest.skip("gamedata/1858/map.yaml not written yet")
    hexes: dict[str, dict[str, Any]] = YAML(typ="safe").load(path.read_text("utf-8"))["hexes"]
    return hexes


def test_reservations_are_named_cities_on_the_map(
    privates: dict[str, dict[str, Any]], map_hexes: dict[str, dict[str, Any]]
) -> None:
    for sym, p in privates.items():
        for r in p.get("reservations", []):
            hex_ = map_hexes[r["hex"]]
            assert hex_.get("name") == r["name"], (sym, r)
            assert r["city"] < hex_.get("code", "").count("city="), (sym, r)


def test_home_hexes_match_the_map(
    privates: dict[str, dict[str, Any]], map_hexes: dict[str, dict[str, Any]]
) -> None:
    for sym, p in privates.items():
        codes = {h: map_hexes[h].get("code", "") for h in p["home_hexes"]}
        # Others are kept out of the home hexes that are still empty (white) on the map.
        white = [h for h in p["home_hexes"] if map_hexes[h]["color"] == "white"]
        assert sorted(p["blocks_hexes"]) == sorted(white), sym
        # Its icon marks every home hex but Madrid, where three privates meet.
        marked = [h for h, code in codes.items() if f"image:1858/{p.get('icon')}" in code]
        assert sorted(marked) == sorted(h for h in p["home_hexes"] if h != "H11"), sym


def test_quick_start_packets_cost_their_face_values(privates: dict[str, dict[str, Any]]) -> None:
    """Each 18xx.games quick-start packet costs exactly the face values of its privates."""
    path = GAMEDATA / "1858" / "options.yaml"
    if not path.exists():
        pytest.skip("gamedata/1858/options.yaml not written yet")
    options = YAML(typ="safe").load(path.read_text("utf-8"))["options"]
    packets = [
        packet
        for option in options
        for per_players in option.get("packets", {}).values()
        for packet in per_players
    ]
    assert packets
    for packet in packets:
        face = sum(privates[sym]["face_value"] for sym in packet["privates"])
        assert face == packet["cost"], packet
        assert all(privates[sym]["batch"] == 1 for sym in packet["privates"]), packet
