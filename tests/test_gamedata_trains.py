"""1858 trains.yaml: the facts an 18xx player checks on the train chart.

Values are read straight from the YAML and compared with the rulebook's train table, its
phase section and the Czech summary (``../shared/seeds``), and with 18xx.games' numbers.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import GAMEDATA, shared_path
from ruamel.yaml import YAML

TRAINS_FILE = GAMEDATA / "1858" / "trains.yaml"

BROAD_ORDER = ["2H", "4H", "6H", "5E", "6E", "7E", "5D"]
METRE_FACE = {"4H": "2M", "6H": "3M", "5E": "4M", "6E": "5M", "7E": "6M"}


def _load() -> dict[str, Any]:
    data: dict[str, Any] = YAML(typ="safe").load(TRAINS_FILE.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def trains() -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in _load()["trains"]}


def _faces(trains: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every buyable face, broad and metre, by name."""
    faces: dict[str, dict[str, Any]] = {}
    for train in trains.values():
        faces[train["name"]] = train
        for variant in train.get("variants", []):
            faces[variant["name"]] = variant
    return faces


def test_schema_line_comes_first() -> None:
    first = TRAINS_FILE.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../schemas/json/trains.schema.json"


def test_types_in_sale_order_with_their_metre_faces(trains: dict[str, dict[str, Any]]) -> None:
    assert list(trains) == BROAD_ORDER
    faces = {name: [v["name"] for v in t.get("variants", [])] for name, t in trains.items()}
    assert faces == {
        "2H": [],
        "4H": ["2M"],
        "6H": ["3M"],
        "5E": ["4M"],
        "6E": ["5M"],
        "7E": ["6M"],
        "5D": [],
    }


def test_prices_of_every_face(trains: dict[str, dict[str, Any]]) -> None:
    prices = {name: face["price"] for name, face in _faces(trains).items()}
    assert prices == {
        "2H": 100,
        "4H": 200,
        "2M": 100,
        "6H": 300,
        "3M": 200,
        "5E": 500,
        "4M": 400,
        "6E": 650,
        "5M": 550,
        "7E": 800,
        "6M": 700,
        "5D": 1100,
    }


@pytest.mark.parametrize("players", ["3", "4", "5", "6"])
def test_counts_for_three_to_six_players(trains: dict[str, dict[str, Any]], players: str) -> None:
    counts = {name: t["count"][players] for name, t in trains.items()}
    assert counts == {"2H": 6, "4H": 5, "6H": 4, "5E": 3, "6E": 2, "7E": 16, "5D": 8}


def test_two_players_get_fewer_early_trains(trains: dict[str, dict[str, Any]]) -> None:
    counts = {name: t["count"]["2"] for name, t in trains.items()}
    assert counts == {"2H": 4, "4H": 3, "6H": 3, "5E": 2, "6E": 2, "7E": 16, "5D": 8}
    assert all(set(t["count"]) == {"2", "3", "4", "5", "6"} for t in trains.values())


def test_gauges_m_faces_are_metre(trains: dict[str, dict[str, Any]]) -> None:
    gauges = {name: face["gauge"] for name, face in _faces(trains).items()}
    assert {n for n, g in gauges.items() if g == "metre"} == {"2M", "3M", "4M", "5M", "6M"}
    assert {n for n, g in gauges.items() if g == "broad"} == set(BROAD_ORDER)


def test_distances(trains: dict[str, dict[str, Any]]) -> None:
    for name, face in _faces(trains).items():
        number, kind = int(name[:-1]), name[-1]
        distance = face["distance"]
        if kind == "H":
            # H trains count hex edges; every stop on the way scores.
            assert distance == {"hexes": number}, name
        elif kind == "M":
            # M trains count large stops and score every town on the way.
            assert distance == {
                "large_stops": {"visit": number, "pay": number},
                "small_stops": {"visit": 99, "pay": 99},
            }, name
        else:
            # E and D trains count large stops and skip (never score) towns.
            assert kind in "ED", name
            assert distance == {
                "large_stops": {"visit": number, "pay": number},
                "small_stops": {"visit": 99, "pay": 0},
            }, name


def test_only_the_5d_doubles_and_it_waits_for_phase_7(trains: dict[str, dict[str, Any]]) -> None:
    multipliers = {name: face.get("multiplier", 1) for name, face in _faces(trains).items()}
    assert {n: m for n, m in multipliers.items() if m != 1} == {"5D": 2}
    assert {n: t["available_on"] for n, t in trains.items() if "available_on" in t} == {"5D": "7"}


def test_wounding_and_rusting(trains: dict[str, dict[str, Any]]) -> None:
    assert {n: t.get("obsolete_on") for n, t in trains.items()} == {
        "2H": "6H",
        "4H": "6E",
        "6H": "7E",
        "5E": None,
        "6E": None,
        "7E": None,
        "5D": None,
    }
    assert trains["2H"]["rusts_on"] == "6E"
    assert trains["4H"]["rusts_on"] == "7E"
    # 6H/3M rust on the Nth grey train: the third with 2 players, the fifth otherwise.
    assert trains["6H"]["rusts_on"] == {
        "nth_purchase": {"2": 3, "3": 5, "4": 5, "5": 5, "6": 5},
        "of": ["7E", "6M", "5D"],
    }
    assert [n for n, t in trains.items() if "rusts_on" not in t] == ["5E", "6E", "7E", "5D"]


def test_metre_faces_carry_no_rules_of_their_own(trains: dict[str, dict[str, Any]]) -> None:
    # Wounding, rusting, counts and events belong to the card, whichever face is up.
    card_keys = {"count", "obsolete_on", "rusts_on", "events", "available_on", "variants"}
    for train in trains.values():
        for variant in train.get("variants", []):
            assert not card_keys & set(variant), variant["name"]


def test_events(trains: dict[str, dict[str, Any]]) -> None:
    assert {n: t["events"] for n, t in trains.items() if "events" in t} == {
        "4H": ["green_privates_available"],
        "5E": ["corporations_convert", "privates_close"],
    }


def test_wounded_trains_run_for_half(trains: dict[str, dict[str, Any]]) -> None:
    wounded = _load()["wounded"]
    assert wounded["revenue_divisor"] == 2
    assert wounded["counts_for_train_limit"] is True


# --- cross-checks with the rulebook and the Czech summary ---------------------------------


def _rulebook() -> str:
    return shared_path("seeds", "1858-rulebook.txt").read_text(encoding="utf-8")


def _phase_starters(text: str) -> dict[str, str]:
    """Phase -> type whose first purchase starts it, from the rulebook's section 9.10."""
    found = re.findall(r"Phase (\d) starts on the purchase of the first (\w+)(?:/\w+)? train", text)
    return dict(found)


def test_rulebook_train_table(trains: dict[str, dict[str, Any]]) -> None:
    text = _rulebook()
    starters = _phase_starters(text)
    assert starters == {"3": "4H", "4": "6H", "5": "5E", "6": "6E", "7": "7E"}
    rows = re.findall(
        r"^(\w+(?:/\w+)?)\t(\d+(?:/\d+)?)\t(\d+)\t(\d)\t(Phase \d|-)\t(.+)$", text, re.MULTILINE
    )
    assert len(rows) == 4  # 2H, 4H/2M, 6H/3M, 5E/4M survive in the shared text
    for faces, costs, number, _phase, wounded, rusts in rows:
        names = faces.split("/")
        train = trains[names[0]]
        assert [v["name"] for v in train.get("variants", [])] == names[1:]
        prices = [train["price"]] + [v["price"] for v in train.get("variants", [])]
        assert prices == [int(c) for c in costs.split("/")]
        assert train["count"]["4"] == int(number)
        if wounded == "-":
            assert "obsolete_on" not in train
        else:
            assert train["obsolete_on"] == starters[wounded.split()[1]]
        if rusts.startswith("Phase"):
            assert train["rusts_on"] == starters[rusts.split()[1]]
        elif rusts == "Fifth Phase 7 train":
            assert train["rusts_on"]["nth_purchase"]["4"] == 5
        else:
            assert rusts == "-"
            assert "rusts_on" not in train


def test_czech_summary_prices(trains: dict[str, dict[str, Any]]) -> None:
    text = shared_path("seeds", "1858-summary-cs.txt").read_text(encoding="utf-8")
    # Phase cards read e.g. "7E · Pt800 · 6M · Pt700 · 5D · Pt1 100".
    pairs = re.findall(r"(\d[HMED]) · Pt(\d[\d\u00a0 ]*\d|\d)", text)
    listed = {name: int(re.sub(r"\D", "", price)) for name, price in pairs}
    assert len(listed) == 12
    assert listed == {name: face["price"] for name, face in _faces(trains).items()}
    # "3 kusy při 2 hráčích, 5 při více hráčích": the grey train that rusts the 6H.
    assert "3 kusy při 2 hráčích, 5 při více hráčích" in text
    assert trains["6H"]["rusts_on"]["nth_purchase"]["2"] == 3
