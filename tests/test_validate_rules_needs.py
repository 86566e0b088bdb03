"""The validator knows what the rules need at play time: data the rules would fail on, or
silently misprice, is an error at its line and column."""

from __future__ import annotations

from pathlib import Path

import pytest
from ferrovia.validate import validate_game

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
