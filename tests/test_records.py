"""A loaded definition holds records of the validated models (ferrovia.data.records): the same
fields with the same values, read, compared, hashed and shown as the models are."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator
from functools import cached_property
from typing import Any

import pytest
from ferrovia.data.definition import GameDefinition, load_game
from ferrovia.data.records import FrozenDict, Record, plain, replace_fields
from ferrovia.data.validate import validate_game
from ferrovia.paths import gamedata_root
from ferrovia.schemas.trains import CompanySales
from pydantic import BaseModel

GAMES = ("1858", "1858_india", "1858_switzerland", "1830")


def _models(value: Any) -> Iterator[BaseModel]:
    """Every model inside ``value`` (itself included), depth first."""
    if isinstance(value, BaseModel):
        yield value
        for name in type(value).model_fields:
            yield from _models(getattr(value, name))
    elif isinstance(value, tuple):
        for item in value:
            yield from _models(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _models(item)


def _validated(game: str) -> GameDefinition:
    result = validate_game(gamedata_root() / game)
    assert result.definition is not None and not result.errors
    return result.definition


@pytest.mark.parametrize("game", GAMES)
def test_each_record_has_its_models_fields_values_and_text(game: str) -> None:
    validated = _validated(game)
    loaded = load_game(gamedata_root() / game)
    parts = ("game", "companies", "trains_file", "market", "privates", "phases", "options")
    models = [m for part in parts for m in _models(getattr(validated, part))]
    assert len(models) > 50
    memo: dict[int, Any] = {}
    for model in models:
        record = plain(model, memo)
        assert isinstance(record, Record)
        assert type(record).__name__ == type(model).__name__
        assert list(dict(record)) == list(type(model).model_fields)
        assert repr(record) == repr(model)  # values shown alike: records inside show as models
        assert record == copy.deepcopy(record) == pickle.loads(pickle.dumps(record))
        assert hash(record) == hash(pickle.loads(pickle.dumps(record)))
    # the definition load_game gives equals the validated one made records, part by part
    for part in parts:
        assert getattr(loaded, part) == plain(getattr(validated, part))
    assert loaded.hexes == plain(validated.hexes)
    assert loaded.tiles == plain(validated.tiles)


def test_a_distance_record_gives_the_same_measures() -> None:
    validated = _validated("1858")
    memo: dict[int, Any] = {}
    for train in validated.trains:
        for face in (train, *train.variants):
            given = plain(face.distance, memo).given()  # type: ignore[attr-defined]
            assert given == plain(face.distance.given(), memo)
            assert given  # every train runs some distance


def test_shared_parts_stay_shared_and_records_are_read_only() -> None:
    validated = _validated("1858")
    memo: dict[int, Any] = {}
    corps = plain(validated.companies.corporations, memo)
    assert plain(validated.companies.corporations[0], memo) is corps[0]
    with pytest.raises(TypeError, match="read-only"):
        corps[0].name = "x"  # type: ignore[misc]
    with pytest.raises(TypeError, match="read-only"):
        del corps[0].name  # type: ignore[misc]
    market = plain(validated.market, memo)
    assert isinstance(market.bank, FrozenDict)


def test_replace_fields_changes_only_what_it_is_given() -> None:
    loaded = load_game(gamedata_root() / "1858")
    changed = replace_fields(
        loaded.trains_file, between_companies=plain(CompanySales(min_price=40))
    )
    assert changed.between_companies.min_price == 40
    assert changed.trains == loaded.trains_file.trains
    assert changed != loaded.trains_file
    assert loaded.trains_file.between_companies != changed.between_companies


def test_every_method_a_model_defines_has_a_record_twin() -> None:
    # a record has its model's fields, not its methods: one the rules could call must be in
    # ferrovia.data.records._METHODS (validators and pydantic's own API are not the rules')
    from ferrovia.data.records import _METHODS
    from ferrovia.schemas.base import Model, _models

    missing = []
    for cls in dict.fromkeys(_models(Model)):
        for name, value in vars(cls).items():
            if name.startswith(("_", "model_")):
                continue
            if not callable(value) and not isinstance(value, property | cached_property):
                continue
            key = f"{cls.__module__}.{cls.__qualname__}"
            if name not in _METHODS.get(key, {}):
                missing.append(f"{key}.{name}")
    assert missing == []
