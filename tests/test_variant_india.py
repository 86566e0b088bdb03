"""1858 India (gamedata/1858_india, an overlay on 1858), in progress: its data validates, its
pointy board has 18xx.games' neighbours, and its mine tokens are collected as in a real game."""

from __future__ import annotations

from conftest import shared_path
from ferrovia import hexmap
from ferrovia.paths import gamedata_root
from ferrovia.replay import game_dir_for, load_export, replay
from ferrovia.validate import validate_game

GAME = gamedata_root() / "1858_india"


def test_india_data_validates() -> None:
    res = validate_game(GAME)
    assert res.errors == []
    d = res.definition
    assert d is not None
    assert d.game.layout == "pointy" and len(d.hexes) == 155
    assert d.hexes["E12"].name == "Delhi" and len(d.hexes["E12"].tile.cities) == 3
    assert len(d.privates) == 30 and len(d.companies.corporations) == 10
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
