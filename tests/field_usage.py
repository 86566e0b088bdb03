"""Which schema fields the rules and the renderer read: an access-recording definition.

``all_fields()`` lists every field of every file model (``schemas/``), as ``Model.field``.
``recording()`` patches attribute access on the data models (and on the loader's
``HexDef``/``TileDef`` views of map.yaml and tiles.yaml) so that every field read while it is
active is noted.  ``exercise()`` plays a few seeded random games of 1858 and its variants and
renders their boards and final states, with the definitions loaded (validated) *before*
recording starts, so only reads by the rules and the renderer count, not the validator's.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ferrovia.data.records import Record
from ferrovia.schemas import FILE_KINDS
from ferrovia.schemas.base import Model
from ferrovia.schemas.game import Files
from pydantic import BaseModel

# The loader turns these map/tiles fields into dataclass attributes of the same name.
VIEW_FIELDS = {
    "HexDef": {"color": "Hex.color", "name": "Hex.name", "code": "Hex.code", "tile": "Hex.code"},
    "TileDef": {
        "color": "ManifestEntry.color",
        "count": "ManifestEntry.count",
        "code": "ManifestEntry.code",
        "tile": "ManifestEntry.code",
        "upgrades_to": "ManifestEntry.upgrades_to",
    },
}


def models_in(annotation: Any) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
        return
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        yield from models_in(typing.get_args(annotation)[0])
        return
    if origin is not None or isinstance(annotation, types.UnionType):
        for arg in typing.get_args(annotation):
            yield from models_in(arg)


def all_models() -> list[type[BaseModel]]:
    seen: list[type[BaseModel]] = []
    todo = list(FILE_KINDS.values())
    while todo:
        model = todo.pop()
        if model in seen:
            continue
        seen.append(model)
        for info in model.model_fields.values():
            todo.extend(models_in(info.annotation))
    return seen


def all_fields() -> set[str]:
    return {f"{m.__name__}.{name}" for m in all_models() for name in m.model_fields}


@contextlib.contextmanager
def recording() -> Iterator[set[str]]:
    """Note every model field read inside the block (``Model.field`` strings)."""
    from ferrovia.data import definition

    read: set[str] = set()
    original = Model.__getattribute__
    fields = {m: set(m.model_fields) for m in all_models()}
    # a loaded definition holds records of the models (ferrovia.data.records), by the model's key
    by_key = {
        f"{m.__module__}.{m.__qualname__}": (m.__name__, names) for m, names in fields.items()
    }
    record_original = Record.__getattribute__

    def record_get(self: Any, name: str) -> Any:
        model, names = by_key.get(type(self)._key, ("", ()))
        if name in names:
            read.add(f"{model}.{name}")
        return record_original(self, name)

    def model_get(self: Any, name: str) -> Any:
        cls = type(self)
        if name in fields.get(cls, ()):
            read.add(f"{cls.__name__}.{name}")
        return original(self, name)

    def mark_all(model: Any) -> None:
        cls = type(model)
        for name in fields.get(cls, ()):
            read.add(f"{cls.__name__}.{name}")
            value = original(model, name)
            for item in value if isinstance(value, tuple) else (value,):
                if isinstance(item, BaseModel):
                    mark_all(item)

    dump = BaseModel.model_dump

    def model_dump(self: Any, *args: Any, **kwargs: Any) -> Any:
        mark_all(self)
        return dump(self, *args, **kwargs)

    patched: list[tuple[type, Any]] = []
    for view, names in VIEW_FIELDS.items():
        cls = getattr(definition, view)
        get = cls.__getattribute__

        def view_get(self: Any, name: str, get: Any = get, names: Any = names) -> Any:
            if name in names:
                read.add(names[name])
            return get(self, name)

        patched.append((cls, get))
        cls.__getattribute__ = view_get  # type: ignore[method-assign]
    Model.__getattribute__ = model_get  # type: ignore[method-assign]
    Record.__getattribute__ = record_get  # type: ignore[method-assign]
    BaseModel.model_dump = model_dump  # type: ignore[method-assign]
    try:
        yield read
    finally:
        Model.__getattribute__ = original  # type: ignore[method-assign]
        Record.__getattribute__ = record_original  # type: ignore[method-assign]
        BaseModel.model_dump = dump  # type: ignore[method-assign]
        for cls, get in patched:
            cls.__getattribute__ = get  # type: ignore[method-assign]


GAMES: tuple[tuple[str, int, int, int, tuple[str, ...]], ...] = (
    ("1858", 4, 3, 1000, ()),
    ("1858", 2, 5, 300, ()),
    ("1858", 3, 1, 60, ("quick_start_b",)),
    ("1858_switzerland", 3, 2, 400, ()),
    ("1858_india", 4, 1, 400, ()),
    ("1830", 4, 1, 400, ()),
)
"""(game, players, seed, most actions, optional rules) of the random games played: 1858 into
its late phases, and the start of the others."""

FILES_FIELDS = tuple(Files.model_fields)


def exercise(games: tuple[tuple[str, int, int, int, tuple[str, ...]], ...] = GAMES) -> None:
    """Play the seeded games and render each game's board, manifest and final state."""
    from ferrovia.data.definition import load_game
    from ferrovia.paths import gamedata_root
    from ferrovia.play.selfplay import play
    from ferrovia.render.manifest_svg import render_manifest
    from ferrovia.render.map_svg import render_map
    from ferrovia.render.source import board_from_definition
    from ferrovia.render.state_svg import render_state
    from ferrovia.render.timeline import build_timeline

    with tempfile.TemporaryDirectory() as tmp:
        for name, players, seed, most, options in games:
            result = play(players, seed, options, game_name=name, max_actions=most)
            log = Path(tmp) / f"{name}-{players}-{seed}.json"
            log.write_text(json.dumps(result.log), encoding="utf-8")
            board = board_from_definition(load_game(gamedata_root() / name))
            render_map(board)
            render_manifest(board)
            timeline = build_timeline(board, log, game_dir=gamedata_root() / name)
            frame = timeline.frame_at(None)
            render_state(board, frame.map_state, frame.view)
