"""The validator knows what the rules need at play time: data the rules would fail on, or
silently misprice, is an error at its line and column."""

from __future__ import annotations

from pathlib import Path

import pytest
from ferrovia.data.validate import validate_game

from tests.test_validate import edit, only_error, where


@pytest.fixture
def game(gamedata_copy: Path) -> Path:
    return gamedata_copy


def test_a_city_in_no_province_is_an_error(game: Path) -> None:
    # Vigo (B5) dropped from Galicia: a station there would silently cost the minimum
    text = edit(game / "market.yaml", "Galicia:           [B5, C2]", "Galicia:           [C2]")
    error = only_error(validate_game(game))
    assert (error.line, error.col) == where(text, "provinces:")
    assert error.message == "city B5 (Vigo) is in no province: its station cost is undefined"


def test_a_city_in_two_provinces_is_an_error(game: Path) -> None:
    text = edit(game / "market.yaml", "Asturias:          [F1]", "Asturias:          [F1, C2]")
    error = only_error(validate_game(game))
    assert (error.line, error.col) == where(text, "C2]", after="Asturias:")
    assert error.message == "C2 is already in province 'Galicia'"


def test_a_missing_border_count_is_an_error(game: Path) -> None:
    text = edit(game / "market.yaml", "Cataluña: 4}\n    North Portugal:", "}\n    North Portugal:")
    error = only_error(validate_game(game))
    assert (error.line, error.col) == where(text, "Galicia:", after="borders_between:")
    assert error.message == "no border count from Galicia to Cataluña"


def test_a_private_home_hex_another_private_blocks_is_an_error(game: Path) -> None:
    # M&A given Barcelona (O8) as a home: B&M blocks O8 while it is open, so M&A could never
    # lay its first tile there
    text = edit(game / "privates.yaml", "home_hexes: [H11, H13]", "home_hexes: [H11, H13, O8]")
    error = only_error(validate_game(game))
    assert (error.line, error.col) == where(text, "O8]", after="symbol: 'M&A'")
    assert error.message == (
        "M&A's home hex O8 is blocked by B&M: M&A could lay no tile there while it is open "
        "(list O8 in M&A's blocks_hexes too, or take it out of theirs)"
    )


def test_the_refusal_the_blocked_home_error_foretells() -> None:
    """What the validator reports is what play would do: a lay on a hex another open private
    blocks is refused with the rule and the blocking private named."""
    from ferrovia.data.definition import load_game
    from ferrovia.errors import IllegalAction
    from ferrovia.games import get_rules
    from ferrovia.lib18xx.actions import LayTile
    from ferrovia.lib18xx.game import Game18xx
    from ferrovia.paths import gamedata_root

    from tests.test_operating_steps import new_state, start_or

    defn = load_game(gamedata_root() / "1858")
    g = Game18xx(defn, get_rules(defn.rules), 4)
    state = new_state(g)
    state.privates["P&L"].owner = "1"
    state.privates["P&L"].floated = True
    state.player("1").companies.append("P&L")
    start_or(g, state)
    step = g.round(state).step("track")
    lay = LayTile(entity="P&L", entity_type="minor", hex="O8", tile="X3-0", rotation=0)
    with pytest.raises(IllegalAction, match="O8 is reserved for B&M"):
        step._check_blocked(lay, "white")


def test_a_shared_home_on_a_hex_without_tiles_is_fine() -> None:
    # Switzerland's Gotthard (H11, gray: no tile is ever laid) is home to GB's broad line and
    # FOB's metre one; GB blocks it, FOB does not, and that refuses nobody
    from ferrovia.paths import gamedata_root

    result = validate_game(gamedata_root() / "1858_switzerland")
    assert result.errors == []
    assert result.definition is not None
    privates = {p.symbol: p for p in result.definition.privates}
    assert "H11" in privates["GB"].blocks_hexes and "H11" not in privates["FOB"].blocks_hexes
    assert "H11" in privates["FOB"].home_hexes
    assert result.definition.hexes["H11"].color == "gray"


def test_a_train_that_may_visit_no_city_is_an_error(game: Path) -> None:
    # 2H's metre face 2M visiting no large stop: its route could not even leave its station
    # (sample_check: the route search then offered a run that play refused)
    old = "large_stops: {visit: 2, pay: 2}"
    text = edit(game / "trains.yaml", old, "large_stops: {visit: 0, pay: 2}")
    error = only_error(validate_game(game))
    assert (error.line, error.col) == where(text, "0, pay: 2}")
    assert error.message == (
        "2M could run no route: a route visits at least one large stop (the station it starts from)"
    )
