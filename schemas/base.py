"""Building blocks shared by every file model: strict, frozen models and common value types.

Every model forbids unknown keys (a typo is an error at the key's position, not silently
ignored) and is frozen (the loaded definition is immutable).  Names that YAML would read as
numbers (tile ``57``, phase ``2``) are accepted as strings.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import sys
import typing
from collections.abc import Iterator
from typing import Annotated, Any, Literal

from ferrovia.data.records import FrozenDict  # the read-only mappings; pickled without pydantic
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

Color = Literal["white", "yellow", "green", "brown", "gray", "red", "blue"]
"""Hex and tile colours: ``red`` is off-board, ``blue`` is sea, ``white`` an empty hex."""

TILE_COLORS: tuple[Color, ...] = ("yellow", "green", "brown", "gray")
"""Colours a laid tile can have (as opposed to preprinted hex colours)."""

Gauge = Literal["broad", "metre", "dual"]

Money = Annotated[int, Field(ge=0, description="an amount of money (integer)")]
PositiveInt = Annotated[int, Field(gt=0)]
Name = Annotated[str, Field(min_length=1)]
PlayerCount = Annotated[int, Field(ge=1, le=12, description="a number of players")]


def _freeze(value: Any) -> Any:
    if isinstance(value, dict) and not isinstance(value, FrozenDict):
        return FrozenDict({k: _freeze(v) for k, v in value.items()})
    return value


class Model(BaseModel):
    """Base of every data model: unknown keys are errors; instances are immutable.

    Lists are tuples and mappings are :class:`FrozenDict`, so nothing inside a loaded model
    can change either (and models hash).
    """

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        coerce_numbers_to_str=True,
        str_strip_whitespace=False,
        # no use_attribute_docstrings: it reads and parses each model's source when the class
        # is made (~55 ms per process); the JSON Schema gets them from field_descriptions()
        # validators are built at the first validation: a definition from the cache needs none
        defer_build=True,
    )

    def model_post_init(self, context: Any, /) -> None:
        for name, value in self.__dict__.items():
            if isinstance(value, dict):
                object.__setattr__(self, name, _freeze(value))


def _models(cls: type[Model]) -> Iterator[type[Model]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _models(sub)


def _attribute_docs(cls: type[Model], sources: dict[str, ast.Module]) -> dict[str, str]:
    """The docstrings under the fields ``cls`` annotates itself (a string statement right
    after an annotated name), cleaned as pydantic's ``use_attribute_docstrings`` does."""
    module = sys.modules.get(cls.__module__)
    if module is None or not getattr(module, "__file__", None):
        return {}
    tree = sources.get(cls.__module__)
    if tree is None:
        try:
            text = inspect.getsource(module)
        except (OSError, TypeError):  # no source to read (as pydantic: no descriptions then)
            return {}
        tree = sources[cls.__module__] = ast.parse(text)
    body: list[ast.stmt] = tree.body
    node: ast.ClassDef | None = None
    for name in cls.__qualname__.split("."):
        node = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == name), None)
        if node is None:
            return {}
        body = node.body
    docs: dict[str, str] = {}
    for stmt, after in itertools.pairwise(body):
        if (
            isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[stmt.target.id] = inspect.cleandoc(after.value.value)
    return docs


def _nested_models(annotation: Any) -> Iterator[type[Model]]:
    if isinstance(annotation, type) and issubclass(annotation, Model):
        yield annotation
    for arg in typing.get_args(annotation):
        yield from _nested_models(arg)


#: the models whose fields have been given their docstrings
_DESCRIBED: set[type[Model]] = set()


def field_descriptions() -> None:
    """Give every model field without a ``description`` the docstring written under it (in
    the class that declares the field), as ``use_attribute_docstrings`` would have at class
    creation; a model already built is rebuilt, models it contains first, so its JSON Schema
    carries them.  Called before a JSON Schema is generated; it does nothing again unless a
    model was defined since."""
    models = list(dict.fromkeys(_models(Model)))
    fresh = [cls for cls in models if cls not in _DESCRIBED]
    if not fresh:
        return
    _DESCRIBED.update(fresh)
    sources: dict[str, ast.Module] = {}
    docs: dict[type[Model], dict[str, str]] = {}
    for cls in fresh:
        for name, info in cls.model_fields.items():
            if info.description is not None:
                continue
            owner = next(c for c in cls.__mro__ if name in inspect.get_annotations(c))
            if owner not in docs:
                docs[owner] = _attribute_docs(owner, sources)
            info.description = docs[owner].get(name)
    done: set[type[Model]] = set()

    def rebuild(cls: type[Model]) -> None:
        if cls in done:
            return
        done.add(cls)
        for info in cls.model_fields.values():
            for inner in _nested_models(info.annotation):
                rebuild(inner)
        if cls.__pydantic_complete__:
            cls.model_rebuild(force=True)

    for cls in models:
        rebuild(cls)


def _unlimited_to_none(value: Any) -> Any:
    if value == "unlimited":
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise PydanticCustomError(
            "count", "expected a whole number or 'unlimited', got {value}", {"value": repr(value)}
        )
    if value < 0:  # the JSON Schema's minimum 0, enforced here too
        raise PydanticCustomError(
            "count", "expected a count of 0 or more, got {value}", {"value": repr(value)}
        )
    if value > MAX_COUNT:  # every piece is made when a game starts: a typo must not hang it
        raise PydanticCustomError(
            "count",
            "expected at most {limit} pieces (or 'unlimited'), got {value}",
            {"value": repr(value), "limit": MAX_COUNT},
        )
    return value


MAX_COUNT = 1000
"""The most pieces of one kind a game may have (real games have a few dozen at most)."""


Count = Annotated[
    int | None,
    BeforeValidator(_unlimited_to_none),
    Field(
        json_schema_extra={
            "anyOf": [
                {"type": "integer", "minimum": 0, "maximum": 1000},
                {"const": "unlimited"},
            ]
        },
    ),
]
"""A number of pieces, or ``unlimited`` (read as ``None``)."""


def _not_empty(value: Any) -> Any:
    if len(value) == 0:
        raise PydanticCustomError("empty", "must not be empty")
    return value


NotEmpty = AfterValidator(_not_empty)
"""Annotate a tuple or dict that needs at least one entry.

(Checked after the entries validate, unlike ``min_length``, so one bad entry is one error.)
"""
ListNotEmpty = Field(json_schema_extra={"minItems": 1})
MapNotEmpty = Field(json_schema_extra={"minProperties": 1})

PerPlayers = dict[PlayerCount, Money]
"""A value per player count, e.g. ``{2: 8000, 3: 12000}``."""
