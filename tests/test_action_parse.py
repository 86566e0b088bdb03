"""Parsing builds each action as its class's own ``__init__`` would (actions.build sets the
fields straight into the object): equal, with the same fields in the same order, on every
action of real and random games, auto-actions and routes included."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from conftest import shared_path
from ferrovia.kernel.actions import Action, action_from_json, build
from ferrovia.lib18xx.actions import LayTile, Route
from ferrovia.play.replay import filter_actions, game_for, load_export


def _rebuilt(obj: Any) -> Any:
    """``obj`` made again through its class's ``__init__`` (its parts too)."""
    if isinstance(obj, tuple):
        return tuple(_rebuilt(v) for v in obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        values = {f.name: _rebuilt(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
        return type(obj)(**values)
    return obj


def _same(a: Any, b: Any) -> None:
    assert a == b
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        assert type(a) is type(b)
        assert list(vars(a).items()) == list(vars(b).items())
        for f in dataclasses.fields(a):
            _same(getattr(a, f.name), getattr(b, f.name))
    elif isinstance(a, tuple):
        for x, y in zip(a, b, strict=True):
            _same(x, y)


@pytest.mark.parametrize(
    "parts",
    [
        ("18xx.games", "1858", "1858_game_end_bank.json"),
        ("18xx.games", "1858India", "hotseat_qs_b.json"),
        ("18xx.games", "1830", "26855.json"),
        ("reference-random", "random-s104-p6.json"),
    ],
    ids=lambda p: p[-1],
)
def test_parsed_actions_are_built_as_their_classes_build_them(parts: tuple[str, ...]) -> None:
    data = load_export(shared_path("fixtures", *parts))
    game, _ = game_for(data, None)
    kinds: set[str] = set()
    for raw in filter_actions(list(data["actions"])):
        action = action_from_json(raw, game.action_types)
        _same(action, _rebuilt(action))
        kinds.add(action.type)
    assert {"lay_tile", "run_routes", "buy_shares", "pass"} <= kinds


def test_build_falls_back_to_the_class_when_it_cannot_fill_the_fields() -> None:
    lay = build(LayTile, {"entity": "A", "hex": "B2", "tile": "57-1", "rotation": 2})
    assert lay == LayTile(entity="A", hex="B2", tile="57-1", rotation=2)
    assert list(vars(lay)) == [f.name for f in dataclasses.fields(LayTile)]
    with pytest.raises(dataclasses.FrozenInstanceError):
        lay.hex = "C3"  # type: ignore[misc]
    with pytest.raises(TypeError):
        build(LayTile, {"hex": "B2"})  # no entity: the class's own error
    route = build(Route, {"train": "2H-0", "revenue": 40})
    assert route == Route(train="2H-0", revenue=40)
    assert list(vars(route)) == [f.name for f in dataclasses.fields(Route)]

    @dataclasses.dataclass(frozen=True)
    class Counted(Action):
        seen: list[int] = dataclasses.field(default_factory=list)

        def __post_init__(self) -> None:
            self.seen.append(1)

    assert build(Counted, {"entity": "A"}).seen == [1]  # (its __init__ ran)
