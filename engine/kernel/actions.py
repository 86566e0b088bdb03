"""Typed, immutable actions and their wire form, 18xx.games' own JSON (same field names).

The kernel's own action types are those every game has: ``pass``, ``message``, ``undo``,
``redo`` and the ``program_*`` settings.  A rules library or a title declares its others
(``Rules.actions()``: frozen dataclasses subclassing :class:`Action`, with a ``TYPE``) and
parses with the game's table (``Game.action_types``).  A field is read from the wire by its
annotation (text, a whole number, a list of texts, each optionally null); its metadata may name
another wire key (``wire``), what else it accepts (``accepts``: (words, types)), or functions
that read and write it (``parse(data, value)``, ``dump(value)``) for a structured value;
``unique`` (what an item is, in words) rejects a list of texts naming one item twice.

>>> a = action_from_json({"type": "message", "entity": 7978, "id": 2, "message": "hi"})
>>> (type(a).__name__, a.entity, a.message)
('Message', '7978', 'hi')
>>> action_to_json(a)["entity"]
7978
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from ferrovia.errors import IllegalAction, UnknownEntity

T = TypeVar("T")


@dataclass(frozen=True)
class Action:
    """Common fields.  ``entity`` is always a string ref (18xx.games player ids are ints)."""

    TYPE: ClassVar[str] = ""

    entity: str
    entity_type: str = "player"
    id: int | None = None
    created_at: int | None = None
    user: int | None = None
    auto_actions: tuple[Action, ...] = ()

    @property
    def kind(self) -> str:
        return self.TYPE

    @property
    def type(self) -> str:
        return self.TYPE


@dataclass(frozen=True)
class Pass(Action):
    TYPE: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Message(Action):
    TYPE: ClassVar[str] = "message"
    message: str = ""


@dataclass(frozen=True)
class Undo(Action):
    TYPE: ClassVar[str] = "undo"
    action_id: int | None = None


@dataclass(frozen=True)
class Redo(Action):
    TYPE: ClassVar[str] = "redo"


@dataclass(frozen=True)
class Program(Action):
    """``program_*`` (auto-pass settings): recorded, never change the game."""

    TYPE: ClassVar[str] = "program"
    program: str = ""
    settings: tuple[tuple[str, Any], ...] = ()


ACTION_TYPES: dict[str, type[Action]] = {cls.TYPE: cls for cls in (Pass, Message, Undo, Redo)}
"""The kernel's action types (``program_*`` are parsed by their prefix)."""
_BASE = {"type", "entity", "entity_type", "id", "created_at", "user", "auto_actions"}


def _wire(f: dataclasses.Field[Any]) -> str:
    return str(f.metadata.get("wire", f.name))


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


# What each annotated field accepts on the wire (18xx.games' JSON); a wrong type is reported
# here, with the action's id and the field, instead of failing deep inside a step.
WIRE_TYPES: dict[str, WireType] = {
    "str": ("text", (str,)),
    "int": ("a whole number", (int,)),
    "int | None": ("a whole number or null", (int, type(None))),
    "str | None": ("text or null", (str, type(None))),
}
WireType = tuple[str, tuple[type, ...]]
"""What a field accepts on the wire: (in words, the JSON types)."""


def show(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def format_error(data: dict[str, Any], what: str) -> IllegalAction:
    ident = data.get("id")
    index = ident if isinstance(ident, int) and not isinstance(ident, bool) else None
    return IllegalAction(f"{data.get('type')}: {what}", index=index, rule="action format")


def check_wire(data: dict[str, Any], key: str, value: Any, expected: WireType) -> None:
    """Raise the action-format error unless ``value`` is of ``expected`` (a bool is never a
    number)."""
    name, types = expected
    if isinstance(value, bool) or not isinstance(value, types):
        raise format_error(data, f"{key} must be {name}, got {show(value)}")


def wire_texts(data: dict[str, Any], key: str, value: Any) -> tuple[str, ...]:
    if not all_texts(value):
        raise format_error(data, f"{key} must be a list of texts, got {show(value)}")
    return tuple(value)


def all_texts(value: Any) -> bool:
    """Whether ``value`` is a list of texts (a plain loop: asked for every list of every
    action parsed)."""
    if not isinstance(value, list):
        return False
    for v in value:
        if not isinstance(v, str):
            return False
    return True


#: class -> (its fields' defaults in field order, the fields without one), or None when it is
#: built by calling the class; see _build
_PLANS: dict[type, tuple[dict[str, Any], tuple[str, ...]] | None] = {}


def _plan(cls: type) -> tuple[dict[str, Any], tuple[str, ...]] | None:
    """:data:`_PLANS` of ``cls``: None unless it is a plain frozen dataclass, whose
    ``__init__`` does nothing but set its fields (no ``__post_init__``, slots, or field made
    by a factory or not set by ``__init__``)."""
    params = cls.__dict__.get("__dataclass_params__")  # (the class's own: not inherited)
    plan: tuple[dict[str, Any], tuple[str, ...]] | None = None
    if (
        params is not None
        and params.init
        and params.frozen
        and "__slots__" not in cls.__dict__
        and not hasattr(cls, "__post_init__")
    ):
        fields = dataclasses.fields(cls)
        if all(f.init and f.default_factory is dataclasses.MISSING for f in fields):
            required = tuple(f.name for f in fields if f.default is dataclasses.MISSING)
            plan = ({f.name: f.default for f in fields}, required)
    _PLANS[cls] = plan
    return plan


def build(cls: type[T], values: dict[str, Any]) -> T:
    """``cls(**values)`` for a frozen dataclass, its fields set straight into the new
    object's ``__dict__`` in field order, as its ``__init__`` leaves them: that ``__init__``
    sets each field through ``object.__setattr__``, ~5x dearer (every action of a replay is
    parsed).  ``values`` name fields of ``cls`` only, in field order (the parser's own
    values; tests/test_action_parse.py).  Any other class, or values leaving out a field
    without a default, go through ``cls(**values)``."""
    plan = _PLANS[cls] if cls in _PLANS else _plan(cls)
    if plan is None:
        return cls(**values)
    template, required = plan
    for name in required:
        if name not in values:
            return cls(**values)  # (raises the class's own TypeError)
    obj = object.__new__(cls)
    fields = obj.__dict__
    if len(values) != len(template):
        fields.update(template)  # the defaults first, so the fields stay in their order
    fields.update(values)
    return obj


def action_from_json(
    data: dict[str, Any], types: Mapping[str, type[Action]] | None = None
) -> Action:
    """Parse one action (18xx.games wire form); raises UnknownEntity for an unknown type and
    IllegalAction (rule ``'action format'``) for a field of the wrong type.  ``types``: the
    action types of the game being played (``Game.action_types``; default the core's)."""
    known = ACTION_TYPES if types is None else types
    if not isinstance(data, dict):
        raise IllegalAction(f"an action must be an object, got {show(data)}", rule="action format")
    kind = data.get("type")
    if not isinstance(kind, str):
        ident = data.get("id")
        raise UnknownEntity(
            f"action without a type: {show(data)}",
            index=ident if isinstance(ident, int) and not isinstance(ident, bool) else None,
            rule="action format",
        )
    entity = data.get("entity")
    if isinstance(entity, bool) or not isinstance(entity, (str, int)):
        raise format_error(data, f"entity must be an id or a name, got {show(entity)}")
    ident = data.get("id")
    if ident is not None and (isinstance(ident, bool) or not isinstance(ident, int)):
        check_wire(data, "id", ident, WIRE_TYPES["int | None"])  # (raises)
    entity_type = data.get("entity_type", "player")
    if not isinstance(entity_type, str):
        check_wire(data, "entity_type", entity_type, WIRE_TYPES["str"])  # (raises)
    autos = data.get("auto_actions") or []
    if not isinstance(autos, list):
        raise format_error(data, "auto_actions must be a list of actions")
    values: dict[str, Any] = {
        "entity": str(entity),
        "entity_type": entity_type,
        "id": ident,
        "created_at": data.get("created_at"),
        "user": data.get("user"),
        "auto_actions": tuple([action_from_json(a, known) for a in autos]) if autos else (),
    }
    # (the first letter asked first: str.startswith parses its arguments, dear per action)
    if kind[:1] == "p" and kind.startswith("program_"):
        settings = tuple(sorted((k, _freeze(v)) for k, v in data.items() if k not in _BASE))
        return Program(**values, program=kind, settings=settings)
    cls = known.get(kind)
    if cls is None:
        raise UnknownEntity(f"unknown action type {kind!r}", index=ident, rule="action format")
    for name, key, texts, expected, parse, unique in _fields_of(kind, cls):
        if key not in data:
            continue
        value = data[key]
        if parse is not None:
            value = parse(data, value)
        elif texts:
            value = wire_texts(data, key, value)
            if unique and len(set(value)) != len(value):
                # (e.g. a certificate is one card: a bundle naming it twice is malformed, and
                # letting it through would count its percent twice)
                raise format_error(data, f"{key} names {unique} twice: {show(value)}")
        else:
            if expected is not None and (
                isinstance(value, bool) or not isinstance(value, expected[1])
            ):
                check_wire(data, key, value, expected)  # (raises)
            if isinstance(value, list):
                value = _freeze(value)
        values[name] = value
    return build(cls, values)


_FieldPlan = tuple[
    str, str, bool, WireType | None, Callable[[dict[str, Any], Any], Any] | None, str
]

#: (action type, class) -> per field not in the common part: (name, wire key, a list of
#: texts?, the wire type checked, its parse function, what no item may name twice) -- read
#: from the dataclass once, not once per action
_FIELD_PLANS: dict[tuple[str, type[Action]], tuple[_FieldPlan, ...]] = {}

_COMMON_FIELDS = frozenset({"entity", "entity_type", "id", "created_at", "user", "auto_actions"})


def _fields_of(kind: str, cls: type[Action]) -> tuple[_FieldPlan, ...]:
    plan = _FIELD_PLANS.get((kind, cls))
    if plan is None:
        out = []
        for f in dataclasses.fields(cls):
            if f.name in _COMMON_FIELDS:
                continue
            key = _wire(f)
            texts = f.type == "tuple[str, ...]"
            expected = f.metadata.get("accepts") or WIRE_TYPES.get(str(f.type))
            parse = f.metadata.get("parse")
            out.append((f.name, key, texts, expected, parse, str(f.metadata.get("unique", ""))))
        plan = _FIELD_PLANS[(kind, cls)] = tuple(out)
    return plan


def action_to_json(action: Action) -> dict[str, Any]:
    """The 18xx.games wire form of an action (entity ids that look like ints become ints)."""
    out: dict[str, Any] = {"type": action.program if isinstance(action, Program) else action.TYPE}
    out["entity"] = int(action.entity) if action.entity.isdigit() else action.entity
    out["entity_type"] = action.entity_type
    for key in ("id", "created_at", "user"):
        if getattr(action, key) is not None:
            out[key] = getattr(action, key)
    if isinstance(action, Program):
        out.update({k: _thaw(v) for k, v in action.settings})
    else:
        for f in dataclasses.fields(action):
            if f.name in _BASE:
                continue
            value = getattr(action, f.name)
            dump = f.metadata.get("dump")
            if dump is not None:
                value = dump(value)
            elif value is None:
                continue
            out[_wire(f)] = _thaw(value)
    if action.auto_actions:
        out["auto_actions"] = [action_to_json(a) for a in action.auto_actions]
    return out
