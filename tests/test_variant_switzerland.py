"""1858 Switzerland (gamedata/1858_switzerland, an overlay on 1858): it validates, and a real
18xx.games game replays to its exact final scores."""

from __future__ import annotations

from conftest import shared_path
from ferrovia.data.validate import validate_game
from ferrovia.paths import gamedata_root
from ferrovia.play.replay import game_dir_for, load_export, replay

GAME = gamedata_root() / "1858_switzerland"


def test_switzerland_validates_with_its_own_board_and_components() -> None:
    res = validate_game(GAME)
    assert res.errors == []
    d = res.definition
    assert d is not None
    assert len(d.hexes) == 72 and d.hexes["H5"].name == "Zürich"
    assert [c.symbol for c in d.companies.corporations] == ["AB", "STB", "RhB", "BLS", "MOB"]
    assert [p.batch for p in d.privates].count(3) == 4
    assert [t.name for t in d.trains] == ["2H", "4H", "6H", "5E", "6E", "5D"]
    assert [p.name for p in d.phases] == ["2", "3", "4", "5", "6"]
    assert d.rules == "1858_switzerland"


def test_18xx_games_title_finds_the_variant() -> None:
    assert game_dir_for("1858Switzerland") == GAME


def test_game_end_bank_replays_to_the_exact_result() -> None:
    path = shared_path(
        "fixtures", "18xx.games", "1858Switzerland", "1858Switzerland_game_end_bank.json"
    )
    data = load_export(path)
    res = replay(data)
    assert res.error is None, res.error
    assert res.state.finished and res.state.game_end_reason == "bank"
    assert res.game.result(res.state) == {str(k): v for k, v in data["result"].items()}
    assert res.game.result(res.state) == {"5507": 7034, "6364": 6709, "9913": 6681}


def test_mountain_railway_hooks() -> None:
    from ferrovia.play.selfplay import new_game

    game, state = new_game(3, 1, (), "1858_switzerland")
    rules = game.rules
    # D15 is a white P120 mountain, A10 a P40 one.
    assert rules.extra_upgrade(game, state, "AB", "D15", "X28")
    assert not rules.extra_upgrade(game, state, "AB", "A10", "X28")
    assert not rules.extra_upgrade(game, state, "AB", "D15", "57")
    assert not rules.extra_upgrade(game, state, "NB", "D15", "X28")  # privates never build one
    # Its own price instead of the terrain; the second-lay fee stays.
    assert rules.tile_lay_cost(game, state, "AB", "D15", "X29", 120) == 90
    assert rules.tile_lay_cost(game, state, "AB", "D15", "X30", 140) == 140
    assert rules.tile_lay_cost(game, state, "AB", "D15", "9", 120) == 120
    rules.after_lay_tile(game, state, "AB", "D15", "X29")
    assert not rules.extra_upgrade(game, state, "AB", "F15", "X28")  # one per company
    assert rules.extra_upgrade(game, state, "STB", "F15", "X28")
    route = [{"train": "5E-0", "revenue": 270, "hexes": ["A12", "H1"]}]
    assert rules.extra_revenue(game, state, "AB", route) == 30
    assert rules.extra_revenue(game, state, "AB", []) == 0
    assert rules.extra_revenue(game, state, "STB", route) == 0


def test_north_south_bonus_by_phase_and_multiplier() -> None:
    from ferrovia.play.selfplay import new_game

    game, state = new_game(3, 1, (), "1858_switzerland")
    rules = game.rules
    tid = next(t for t in state.depot if state.trains[t].name == "5D")
    state.phase = "5"
    assert rules.route_bonus(game, state, "AB", tid, ["I2", "H5", "H15"]) == 2 * 50
    assert rules.route_bonus(game, state, "AB", tid, ["I2", "H5"]) == 0
    state.phase = "6"
    two = next(t for t in state.depot if state.trains[t].name == "2H")
    assert rules.route_bonus(game, state, "AB", two, ["L7", "H5", "B7"]) == 80  # east-west, gray
    assert rules.route_bonus(game, state, "AB", two, ["L7", "A14", "D3", "I16"]) == 80 + 60
