"""1858 India (gamedata/1858_india, an overlay on 1858): its data validates. Its rules are not
written yet (see docs/AUTHORING.md), so it has no rule-hook set and does not play."""

from __future__ import annotations

from engine.paths import gamedata_root
from engine.replay import game_dir_for
from engine.validate import validate_game

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
