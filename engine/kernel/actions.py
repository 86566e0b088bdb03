"""Typed, immutable actions.  The wire form is 18xx.games' own JSON (same field names).

>>> a = action_from_json({"type": "bid", "entity": 7978, "entity_type": "player", "id": 2,
...                       "company": "L&C", "price": 70})
>>> (type(a).__name__, a.entity, a.company, a.price)
('Bid', '7978', 'L&C', 70)
>>> action_to_json(a)["price"]
70
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
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
class Bid(Action):
    TYPE: ClassVar[str] = "bid"
    company: str = ""
    price: int = 0


@dataclass(frozen=True)
class BuyShares(Action):
    """Buy certificates (from treasury or pool); with entity_type company/minor: an exchange."""

    TYPE: ClassVar[str] = "buy_shares"
    shares: tuple[str, ...] = ()
    percent: int = 0
    share_price: int | None = None


@dataclass(frozen=True)
class SellShares(Action):
    """A player selling to the pool; a corporation selling its treasury shares = issuing."""

    TYPE: ClassVar[str] = "sell_shares"
    shares: tuple[str, ...] = ()
    percent: int = 0
    share_price: int | None = None


@dataclass(frozen=True)
class Par(Action):
    """Start a public company at ``share_price``: a market cell id ``"price,row,col"``."""

    TYPE: ClassVar[str] = "par"
    corporation: str = ""
    share_price: str = ""


@dataclass(frozen=True)
class Convert(Action):
    TYPE: ClassVar[str] = "convert"


@dataclass(frozen=True)
class Choose(Action):
    TYPE: ClassVar[str] = "choose"
    choice: str = ""


@dataclass(frozen=True)
class LayTile(Action):
    TYPE: ClassVar[str] = "lay_tile"
    hex: str = ""
    tile: str = ""  # tile instance id, e.g. '57-1'
    rotation: int = 0


@dataclass(frozen=True)
class PlaceToken(Action):
    """``city`` is ``"<tile id>-<city index>"`` (e.g. ``"202-1-0"``, ``"A14-0-0"``)."""

    TYPE: ClassVar[str] = "place_token"
    city: str = ""
    slot: int = 0
    cost: int | None = None
    tokener: str | None = None


@dataclass(frozen=True)
class Route:
    train: str
    connections: tuple[tuple[str, ...], ...] = ()
    hexes: tuple[str, ...] = ()
    revenue: int = 0
    revenue_str: str = ""
    nodes: tuple[str, ...] = ()


@dataclass(frozen=True)
class RunRoutes(Action):
    TYPE: ClassVar[str] = "run_routes"
    routes: tuple[Route, ...] = ()
    extra_revenue: int = 0
    subsidy: int = 0


@dataclass(frozen=True)
class Dividend(Action):
    TYPE: ClassVar[str] = "dividend"
    kind_: str = field(default="", metadata={"wire": "kind"})  # 'payout', 'withhold', 'half'


@dataclass(frozen=True)
class BuyTrain(Action):
    TYPE: ClassVar[str] = "buy_train"
    train: str = ""
    price: int = 0
    variant: str | None = None
    exchange: str | None = None


@dataclass(frozen=True)
class DiscardTrain(Action):
    TYPE: ClassVar[str] = "discard_train"
    train: str = ""


@dataclass(frozen=True)
class ScrapTrain(Action):
    TYPE: ClassVar[str] = "scrap_train"
    train: str = ""


@dataclass(frozen=True)
class BuyCompany(Action):
    TYPE: ClassVar[str] = "buy_company"
    company: str = ""
    price: int = 0


@dataclass(frozen=True)
class Bankrupt(Action):
    """A player (for a company that cannot buy a train it must have) declares bankruptcy."""

    TYPE: ClassVar[str] = "bankrupt"


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
class RemoveHexToken(Action):
    """Take a token printed on a hex (1858 India's mine, oil and port tokens)."""

    TYPE: ClassVar[str] = "remove_hex_token"
    hex: str = ""


@dataclass(frozen=True)
class Program(Action):
    """``program_*`` (auto-pass settings): recorded, never change the game."""

    TYPE: ClassVar[str] = "program"
    program: str = ""
    settings: tuple[tuple[str, Any], ...] = ()


ACTION_TYPES: dict[str, type[Action]] = {
    cls.TYPE: cls
    for cls in (
        Pass,
        Bid,
        BuyShares,
        SellShares,
        Par,
        Convert,
        Choose,
        LayTile,
        PlaceToken,
        RunRoutes,
        Dividend,
        BuyTrain,
        DiscardTrain,
        ScrapTrain,
        BuyCompany,
        Bankrupt,
        Message,
        Undo,
        Redo,
        RemoveHexToken,
    )
}
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
_WIRE_TYPES: dict[str, tuple[str, tuple[type, ...]]] = {
    "str": ("text", (str,)),
    "int": ("a whole number", (int,)),
    "int | None": ("a whole number or null", (int, type(None))),
    "str | None": ("text or null", (str, type(None))),
}
# 18xx.games' choose carries text or an object (e.g. a company choice)
_FIELD_TYPES: dict[tuple[str, str], tuple[str, tuple[type, ...]]] = {
    ("choose", "choice"): ("text or an object", (str, dict)),
}
_ROUTE_FIELDS: dict[str, tuple[str, tuple[type, ...]]] = {
    "train": ("text", (str,)),
    "revenue": ("a whole number", (int,)),
    "revenue_str": ("text", (str,)),
}


def _show(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _format_error(data: dict[str, Any], what: str) -> IllegalAction:
    ident = data.get("id")
    index = ident if isinstance(ident, int) and not isinstance(ident, bool) else None
    return IllegalAction(f"{data.get('type')}: {what}", index=index, rule="action format")


def _check(
    data: dict[str, Any], key: str, value: Any, expected: tuple[str, tuple[type, ...]]
) -> None:
    name, types = expected
    if isinstance(value, bool) or not isinstance(value, types):
        raise _format_error(data, f"{key} must be {name}, got {_show(value)}")


def _texts(data: dict[str, Any], key: str, value: Any) -> tuple[str, ...]:
    if not _all_texts(value):
        raise _format_error(data, f"{key} must be a list of texts, got {_show(value)}")
    return tuple(value)


def _all_texts(value: Any) -> bool:
    """Whether ``value`` is a list of texts (a plain loop: asked for every list of every
    action parsed)."""
    if not isinstance(value, list):
        return False
    for v in value:
        if not isinstance(v, str):
            return False
    return True


def _route(data: dict[str, Any], i: int, r: Any) -> Route:
    # (the field names of a message are made only for a message: every route is parsed)
    if not isinstance(r, dict):
        raise _format_error(data, f"routes[{i}] must be an object, got {_show(r)}")
    if "train" not in r:
        raise _format_error(data, f"routes[{i}] has no train")
    for key, expected in _ROUTE_FIELDS.items():
        if key in r:
            value = r[key]
            if isinstance(value, bool) or not isinstance(value, expected[1]):
                _check(data, f"routes[{i}].{key}", value, expected)  # (raises)
    connections = r.get("connections", [])
    if not isinstance(connections, list):
        raise _format_error(data, f"routes[{i}].connections must be a list of hex lists")
    for j, c in enumerate(connections):
        if not _all_texts(c):
            _texts(data, f"routes[{i}].connections[{j}]", c)  # (raises)
    hexes, nodes = r.get("hexes", []), r.get("nodes", [])
    if not _all_texts(hexes):
        _texts(data, f"routes[{i}].hexes", hexes)  # (raises)
    if not _all_texts(nodes):
        _texts(data, f"routes[{i}].nodes", nodes)  # (raises)
    return _build(
        Route,
        {
            "train": r["train"],
            "connections": tuple([tuple(c) for c in connections]),
            "hexes": tuple(hexes),
            "revenue": int(r.get("revenue", 0)),
            "revenue_str": str(r.get("revenue_str", "")),
            "nodes": tuple(nodes),
        },
    )


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


def _build(cls: type[T], values: dict[str, Any]) -> T:
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
        raise IllegalAction(f"an action must be an object, got {_show(data)}", rule="action format")
    kind = data.get("type")
    if not isinstance(kind, str):
        ident = data.get("id")
        raise UnknownEntity(
            f"action without a type: {_show(data)}",
            index=ident if isinstance(ident, int) and not isinstance(ident, bool) else None,
            rule="action format",
        )
    entity = data.get("entity")
    if isinstance(entity, bool) or not isinstance(entity, (str, int)):
        raise _format_error(data, f"entity must be an id or a name, got {_show(entity)}")
    ident = data.get("id")
    if ident is not None and (isinstance(ident, bool) or not isinstance(ident, int)):
        _check(data, "id", ident, _WIRE_TYPES["int | None"])  # (raises)
    entity_type = data.get("entity_type", "player")
    if not isinstance(entity_type, str):
        _check(data, "entity_type", entity_type, _WIRE_TYPES["str"])  # (raises)
    autos = data.get("auto_actions") or []
    if not isinstance(autos, list):
        raise _format_error(data, "auto_actions must be a list of actions")
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
    for name, key, texts, expected in _fields_of(kind, cls):
        if key not in data:
            continue
        value = data[key]
        if name == "routes":
            if not isinstance(value, list):
                raise _format_error(data, "routes must be a list of routes")
            value = tuple([_route(data, i, r) for i, r in enumerate(value)])
        elif texts:
            value = _texts(data, key, value)
            if key == "shares" and len(set(value)) != len(value):
                # A certificate is one card: a bundle naming it twice is malformed, and
                # letting it through would count its percent twice.
                raise _format_error(data, f"shares names a certificate twice: {_show(value)}")
        else:
            if expected is not None and (
                isinstance(value, bool) or not isinstance(value, expected[1])
            ):
                _check(data, key, value, expected)  # (raises)
            if isinstance(value, list):
                value = _freeze(value)
        values[name] = value
    return _build(cls, values)


_FieldPlan = tuple[str, str, bool, tuple[str, tuple[type, ...]] | None]

#: (action type, class) -> per field not in the common part: (name, wire key, a list of
#: texts?, the wire type checked) -- read from the dataclass once, not once per action
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
            expected = _FIELD_TYPES.get((kind, key)) or _WIRE_TYPES.get(str(f.type))
            out.append((f.name, key, texts, expected))
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
            if f.name == "routes":
                value = [
                    {
                        "train": r.train,
                        "connections": [list(c) for c in r.connections],
                        "hexes": list(r.hexes),
                        "revenue": r.revenue,
                        "revenue_str": r.revenue_str,
                        "nodes": list(r.nodes),
                    }
                    for r in value
                ]
            elif value is None:
                continue
            out[_wire(f)] = _thaw(value)
    if action.auto_actions:
        out["auto_actions"] = [action_to_json(a) for a in action.auto_actions]
    return out
