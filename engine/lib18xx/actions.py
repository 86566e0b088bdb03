"""The 18xx library's action types (18xx.games' wire form, same field names): bids, shares,
pars, conversions, choices, tiles, tokens, routes, dividends, trains, companies, bankruptcy.

``Rules18xx.actions()`` declares them to the kernel, so a game of the 18xx library parses them
with its ``Game.action_types``.

>>> a = action_from_json({"type": "bid", "entity": 7978, "entity_type": "player", "id": 2,
...                       "company": "L&C", "price": 70})
>>> (type(a).__name__, a.entity, a.company, a.price)
('Bid', '7978', 'L&C', 70)
>>> action_to_json(a)["price"]
70
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ferrovia.kernel import actions as kernel_actions
from ferrovia.kernel.actions import (
    Action,
    action_to_json,
    all_texts,
    build,
    check_wire,
    format_error,
    show,
    wire_texts,
)

__all__ = ["ACTION_TYPES", "action_from_json", "action_to_json"]

_ROUTE_FIELDS: dict[str, tuple[str, tuple[type, ...]]] = {
    "train": ("text", (str,)),
    "revenue": ("a whole number", (int,)),
    "revenue_str": ("text", (str,)),
}


@dataclass(frozen=True)
class Bid(Action):
    TYPE: ClassVar[str] = "bid"
    company: str = ""
    price: int = 0


@dataclass(frozen=True)
class BuyShares(Action):
    """Buy certificates (from treasury or pool); with entity_type company/minor: an exchange."""

    TYPE: ClassVar[str] = "buy_shares"
    shares: tuple[str, ...] = field(default=(), metadata={"unique": "a certificate"})
    percent: int = 0
    share_price: int | None = None


@dataclass(frozen=True)
class SellShares(Action):
    """A player selling to the pool; a corporation selling its treasury shares = issuing."""

    TYPE: ClassVar[str] = "sell_shares"
    shares: tuple[str, ...] = field(default=(), metadata={"unique": "a certificate"})
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
    # 18xx.games' choose carries text or an object (e.g. a company choice)
    choice: str = field(default="", metadata={"accepts": ("text or an object", (str, dict))})


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


def _route(data: dict[str, Any], i: int, r: Any) -> Route:
    # (the field names of a message are made only for a message: every route is parsed)
    if not isinstance(r, dict):
        raise format_error(data, f"routes[{i}] must be an object, got {show(r)}")
    if "train" not in r:
        raise format_error(data, f"routes[{i}] has no train")
    for key, expected in _ROUTE_FIELDS.items():
        if key in r:
            value = r[key]
            if isinstance(value, bool) or not isinstance(value, expected[1]):
                check_wire(data, f"routes[{i}].{key}", value, expected)  # (raises)
    connections = r.get("connections", [])
    if not isinstance(connections, list):
        raise format_error(data, f"routes[{i}].connections must be a list of hex lists")
    for j, c in enumerate(connections):
        if not all_texts(c):
            wire_texts(data, f"routes[{i}].connections[{j}]", c)  # (raises)
    hexes, nodes = r.get("hexes", []), r.get("nodes", [])
    if not all_texts(hexes):
        wire_texts(data, f"routes[{i}].hexes", hexes)  # (raises)
    if not all_texts(nodes):
        wire_texts(data, f"routes[{i}].nodes", nodes)  # (raises)
    return build(
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


def _parse_routes(data: dict[str, Any], value: Any) -> tuple[Route, ...]:
    if not isinstance(value, list):
        raise format_error(data, "routes must be a list of routes")
    return tuple([_route(data, i, r) for i, r in enumerate(value)])


def _dump_routes(routes: tuple[Route, ...]) -> list[dict[str, Any]]:
    return [
        {
            "train": r.train,
            "connections": [list(c) for c in r.connections],
            "hexes": list(r.hexes),
            "revenue": r.revenue,
            "revenue_str": r.revenue_str,
            "nodes": list(r.nodes),
        }
        for r in routes
    ]


@dataclass(frozen=True)
class RunRoutes(Action):
    TYPE: ClassVar[str] = "run_routes"
    routes: tuple[Route, ...] = field(
        default=(), metadata={"parse": _parse_routes, "dump": _dump_routes}
    )
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


ACTIONS: tuple[type[Action], ...] = (
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
)
"""The action types of the 18xx library (``Rules18xx.actions()``)."""

ACTION_TYPES: dict[str, type[Action]] = {
    **kernel_actions.ACTION_TYPES,
    **{cls.TYPE: cls for cls in ACTIONS},
}
"""The kernel's action types and the library's, by wire name: a table to parse an 18xx
game's actions with when no game is at hand (:func:`action_from_json`)."""


def action_from_json(
    data: dict[str, Any], types: Mapping[str, type[Action]] | None = None
) -> Action:
    """The kernel's parser (:func:`ferrovia.kernel.actions.action_from_json`), with the 18xx
    library's table when no game's (``Game.action_types``) is given."""
    return kernel_actions.action_from_json(data, ACTION_TYPES if types is None else types)
