"""The immutable GameDefinition of 1858, as the rules engine reads it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from ferrovia.data.definition import GameDefinition, load_game

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "gamedata" / "1858"
FILES = ("game", "map", "tiles", "privates", "companies", "trains", "phases", "market", "options")


@pytest.fixture(scope="module")
def g1858() -> GameDefinition:
    missing = [f for f in FILES if not (GAME / f"{f}.yaml").exists()]
    if missing:
        pytest.skip(f"gamedata/1858 not complete yet: {', '.join(missing)}")
    return load_game(GAME)


def test_identity(g1858: GameDefinition) -> None:
    assert (g1858.name, g1858.title, g1858.designer) == (
        "1858",
        "1858: The Railways of Iberia",
        "Ian D Wilson",
    )
    assert (g1858.players.min, g1858.players.max, g1858.layout, g1858.rules) == (
        2,
        6,
        "flat",
        "1858",
    )
    assert g1858.format_money(120) == "P120"


def test_counts(g1858: GameDefinition) -> None:
    assert g1858.counts() == {
        "hexes": 127,
        "tiles": 108,
        "privates": 22,
        "corporations": 8,
        "trains": 7,
        "phases": 6,
    }


def test_hexes_carry_parsed_tiles(g1858: GameDefinition) -> None:
    lisboa = g1858.hexes["A14"]
    assert (lisboa.coord, lisboa.color, lisboa.name, lisboa.x, lisboa.y) == (
        "A14",
        "green",
        "Lisboa",
        0,
        13,
    )
    assert lisboa.tile.cities[0].slots == 2
    assert lisboa.tile.label == "L"
    assert sum(1 for h in g1858.hexes.values() if h.name) == 52


def test_tiles_have_counts_codes_and_parsed_tiles(g1858: GameDefinition) -> None:
    assert g1858.tiles["1"].count is None  # unlimited
    assert g1858.tiles["14"].count == 2
    own = g1858.tiles["84"]
    assert (own.color, own.count, own.own) == ("green", 2, True)
    assert len(own.tile.paths) == 3
    assert g1858.tiles["57"].own is False
    assert list(g1858.upgrade_rules.colors) == ["yellow", "green", "brown", "gray"]


def test_money_per_player_count(g1858: GameDefinition) -> None:
    assert [g1858.bank_cash(n) for n in range(2, 7)] == [8000, 12000, 12000, 12000, 12000]
    assert [g1858.cert_limit(n) for n in range(2, 7)] == [21, 21, 16, 13, 11]
    assert [g1858.starting_cash(n) for n in range(2, 7)] == [500, 500, 375, 300, 250]
    with pytest.raises(ValueError, match="no bank size for 7 players"):
        g1858.bank_cash(7)
    assert [g1858.holding_limit(n) for n in range(2, 7)] == [70, 60, 60, 60, 60]


def test_private_income_applies_from_its_phase_on(g1858: GameDefinition) -> None:
    assert [g1858.private_income("B&M", p) for p in "234567"] == [23, 35, 35, 35, 35, 35]
    assert g1858.private_income("H&G", "5") == 10


def test_market(g1858: GameDefinition) -> None:
    market = g1858.market.stock_market
    assert market.spaces[:5] == (0, 50, 60, 65, 70)
    assert market.spaces[-1] == 300
    assert market.par_values == (70, 80, 90, 100, 110, 120, 135, 150)
    assert g1858.market.bank_pool_limit == 50
    stations = g1858.market.stations
    assert stations is not None
    # The rulebook's example: MZA in Madrid, next station in Barcelona costs P80.
    borders = stations.borders_between["La Mancha"]["Cataluña"]
    assert max(stations.minimum, stations.per_border * borders) == 80


def test_corporations(g1858: GameDefinition) -> None:
    symbols = [c.symbol for c in g1858.corporations]
    assert symbols == ["A", "AVT", "MZA", "N", "RP", "TBF", "W", "ZPB"]
    mza = g1858.corporation("MZA")
    assert (mza.float_percent, mza.station_markers, mza.structure) == (40, 3, "5-share")
    assert g1858.share_structures["5-share"].shares == (40, 20, 20, 20)
    assert g1858.share_structures["10-share"].shares == (20,) + (10,) * 8


def test_trains_and_variants(g1858: GameDefinition) -> None:
    assert [t.name for t in g1858.trains] == ["2H", "4H", "6H", "5E", "6E", "7E", "5D"]
    card, face = g1858.train("2M")
    assert card.name == "4H" and face is not None and face.price == 100
    assert g1858.train("4H") == (card, None)
    assert g1858.train_count("2H", 2) == 4
    assert g1858.train_count("2H", 4) == 6


def test_phases(g1858: GameDefinition) -> None:
    assert [p.name for p in g1858.phases] == ["2", "3", "4", "5", "6", "7"]
    five = g1858.phase("5")
    assert five.on == ("5E", "4M") and five.train_limit == {"10-share": 2}
    assert g1858.phase("7").tiles == ("yellow", "green", "brown", "gray")


def test_privates_and_options(g1858: GameDefinition) -> None:
    assert g1858.private("B&M").home_hexes == ("O8",)
    assert [p.number for p in g1858.privates] == list(range(1, 23))
    quick = g1858.option("quick_start_a")
    assert quick.excludes == ("quick_start_b",)
    assert [p.cost for p in quick.packets[4]] == [360, 350, 365, 370]


def test_definition_is_immutable(g1858: GameDefinition) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        g1858.path = Path("/")  # type: ignore[misc]
    with pytest.raises(TypeError):
        g1858.hexes["Z1"] = g1858.hexes["A14"]  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        g1858.hexes["A14"].name = "x"  # type: ignore[misc]
    with pytest.raises(
        TypeError, match="read-only"
    ):  # a record of the model (ferrovia.data.records)
        g1858.corporations[0].name = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        g1858.trains[0].variants.append(None)  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="read-only"):
        g1858.market.bank[2] = 1
    with pytest.raises(TypeError, match="read-only"):
        g1858.market.stations.borders_between["Galicia"].clear()  # type: ignore[union-attr]
    assert g1858.bank_cash(2) == 8000


def test_definition_models_copy_and_hash(g1858: GameDefinition) -> None:
    import copy
    import pickle

    market = g1858.market
    assert copy.deepcopy(market) == market
    assert pickle.loads(pickle.dumps(market)) == market
    assert hash(market) == hash(copy.deepcopy(market))
