"""The loaded definition's data without pydantic: each validated file model becomes a record.

A :class:`Record` holds the same fields, in the same order, with the same values as the
pydantic model it was made from (``ferrovia.schemas``), read the same way (``train.distance``),
equal, hashed and shown like it, and read-only.  :func:`plain` turns a validated value into
records (models inside tuples and mappings included, shared parts still shared).  A game
definition is made of records (:func:`ferrovia.data.definition.load_game`), so a definition read
back from the cache (:mod:`ferrovia.data.defcache`) needs neither pydantic nor the schema modules:
importing them was ~0.08 s of CPU, a quarter of a first replay in a fresh process.  The models
validate; the records are what the rules read.

This module imports nothing heavy: keep it so (the fresh-process test in
tests/test_defcache.py checks that a cache-hit replay loads no pydantic).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import fields, is_dataclass, replace
from types import MappingProxyType
from typing import Any, ClassVar, NoReturn, TypeVar


class FrozenDict(dict[Any, Any]):
    """A dict that refuses every change (the mappings inside a loaded definition).

    >>> d = FrozenDict({"a": 1})
    >>> d["a"] = 2
    Traceback (most recent call last):
    ...
    TypeError: game data is read-only
    """

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("game data is read-only")

    __setitem__ = _read_only
    __delitem__ = _read_only
    __ior__ = _read_only
    clear = _read_only
    pop = _read_only
    popitem = _read_only
    setdefault = _read_only
    update = _read_only

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))

    def __reduce__(self) -> tuple[Any, ...]:  # copy/pickle without __setitem__
        return (FrozenDict, (dict(self),))


class Record:
    """One model's field values (see the module docstring); made by :func:`plain`."""

    __slots__ = ("__dict__",)
    _fields: ClassVar[tuple[str, ...]] = ()
    _key: ClassVar[str] = ""

    def __init__(self, values: tuple[Any, ...]) -> None:
        object.__setattr__(self, "__dict__", dict(zip(self._fields, values, strict=True)))

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise TypeError(f"game data is read-only ({type(self).__name__}.{name})")

    def __delattr__(self, name: str) -> NoReturn:
        raise TypeError(f"game data is read-only ({type(self).__name__}.{name})")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((self._key, *self.__dict__.values()))

    def __repr__(self) -> str:  # as pydantic shows the model
        fields = ", ".join(f"{name}={value!r}" for name, value in self.__dict__.items())
        return f"{type(self).__name__}({fields})"

    def __iter__(self) -> Iterator[tuple[str, Any]]:  # (field, value) pairs, as a model's
        return iter(self.__dict__.items())

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self._key, self._fields, tuple(self.__dict__.values())))


def _given(self: Any) -> dict[str, Any]:
    """The measures given, by name (schemas.trains.Distance.given); each field read as an
    attribute, as the model's method does (tests/field_usage.py notes what the rules read)."""
    measures = {name: getattr(self, name) for name in self._fields}
    return {name: value for name, value in measures.items() if value is not None}


#: methods a model defines besides its fields, by the model's module and name, for its records
_METHODS: dict[str, dict[str, Callable[..., Any]]] = {
    "ferrovia.schemas.trains.Distance": {"given": _given},
}

#: key -> the record class of that model (one class per model in a process)
_CLASSES: dict[str, type[Record]] = {}


def record_class(key: str, fields: tuple[str, ...]) -> type[Record]:
    """The record class of the model ``key`` (``module.Name``) with these fields."""
    cls = _CLASSES.get(key)
    if cls is None:
        name = key.rpartition(".")[2]
        body: dict[str, Any] = {"__slots__": (), "_fields": fields, "_key": key}
        body.update(_METHODS.get(key, {}))
        cls = _CLASSES[key] = type(name, (Record,), body)
    return cls


def _rebuild(key: str, fields: tuple[str, ...], values: tuple[Any, ...]) -> Record:
    return record_class(key, fields)(values)


T = TypeVar("T")


def plain(value: T, memo: dict[int, Any] | None = None) -> T:
    """``value`` with every pydantic model in it made a record (tuples, lists, dicts, read-only
    mappings and frozen dataclasses looked into; the same object twice is one record, given
    the same ``memo``).  Typed as its argument: a record stands for its model."""
    from pydantic import BaseModel  # only where a definition is made: pydantic is loaded

    made: T = _plain(value, {} if memo is None else memo, BaseModel)
    return made


def _plain(value: Any, memo: dict[int, Any], model: type) -> Any:
    done = memo.get(id(value))
    if done is not None:
        return done[1]
    out: Any = value
    if isinstance(value, model):
        cls = type(value)
        names = tuple(cls.model_fields)  # type: ignore[attr-defined]
        record = record_class(f"{cls.__module__}.{cls.__qualname__}", names)
        out = record(tuple(_plain(value.__dict__[n], memo, model) for n in names))
    elif type(value) is tuple:
        out = tuple(_plain(v, memo, model) for v in value)
    elif isinstance(value, FrozenDict):
        out = FrozenDict({k: _plain(v, memo, model) for k, v in value.items()})
    elif type(value) is dict:
        out = {k: _plain(v, memo, model) for k, v in value.items()}
    elif type(value) is list:
        out = [_plain(v, memo, model) for v in value]
    elif isinstance(value, MappingProxyType):
        out = MappingProxyType({k: _plain(v, memo, model) for k, v in value.items()})
    elif is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in fields(value):
            if f.init:
                old = getattr(value, f.name)
                new = _plain(old, memo, model)
                if new is not old:
                    changes[f.name] = new
        if changes:
            out = replace(value, **changes)
    memo[id(value)] = (value, out)  # the value kept alive, so its id is not reused meanwhile
    return out


def replace_fields(record: T, **changes: Any) -> T:
    """A copy of ``record`` with some fields changed (values given as records)."""
    assert isinstance(record, Record)
    values = {**record.__dict__, **changes}
    return type(record)(tuple(values[n] for n in record._fields))
