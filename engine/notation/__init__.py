"""The 18xx.games tile notation: parse codes into typed immutable tiles, and format them back.

A tile code is what 18xx.games writes for a tile, e.g.
``city=revenue:20;path=a:0,b:_0;path=a:_0,b:3;label=Y``: parts separated by ``;``, each
``type=key:value,...`` (a label is ``label=TEXT``, a junction just ``junction``).

Public API (import from ``ferrovia.notation``)
--------------------------------------------
``parse(code, *, origin=None, style=None, strict=False) -> Tile``
    Parse (results cached by code; tiles are immutable, so sharing is safe).  Raises
    :class:`NotationError`.  ``origin: SourcePos`` is the YAML file position of the code's first
    character (for a quoted scalar: the character after the opening quote); ``style`` is
    ``"plain"``/``None``, ``"'"`` or ``'"'`` so columns account for ``''`` and ``\\"``
    escaping.  One-line scalars only: for block/folded scalars pass the position of the
    line the code is on.  ``strict=True`` also rejects the slips lenient mode tolerates for
    compatibility with real 18xx.games data (see :mod:`ferrovia.notation.parser`).
``check(code, *, origin=None, style=None, strict=False) -> NotationError | None``
    The same, returning the error instead of raising.
``format_tile(tile) -> str`` / ``format_part(part) -> str``
    Canonical code: parts in order, keys in a fixed order, default values left out;
    ``parse(format_tile(t)) == t``.  ``str(tile)`` is ``format_tile(tile)``.
``NotationError(FerroviaError)``
    ``.code``, ``.index`` (0-based), ``.col`` (1-based, as in messages), ``.message`` (what was
    expected), ``.file_pos -> SourcePos | None`` (needs ``origin``), ``.to_data_error()``,
    ``.caret``; ``str()`` is ``"<file:line:col | column N>: error: MESSAGE"`` then the code and a
    caret line under the offending character.

Models (frozen, slotted dataclasses; compare by value)
-------------------------------------------------------
``Tile(parts)`` with views ``nodes, paths (track only, no future), future_paths, cities
(incl. passes), towns (incl. halts), offboards, junctions, labels, upgrades, borders, icons,
stubs, partitions, halts, passes, city_towns, terrains`` and ``label, frame, stripes,
future_label`` (last one wins), ``node(ref)``, ``node_index(node)``.

Parts (all have ``extra``: ignored keys kept in lenient mode):
``Path(a, b, terminal, lanes, a_lane, b_lane, track: Gauge, ignore)`` with ends ``Edge(num)`` or
``NodeRef(index)``; ``City(revenue, slots, groups, hide, visit_cost, route: Route, format, boom,
outline, loc)``; ``Pass(City)`` + ``color, size``; ``Town(revenue, groups, hide, visit_cost,
route, format, loc, boom, style: TownStyle, to_city)``; ``Halt(Town)`` + ``symbol``;
``Offboard(revenue, groups, hide, visit_cost, route, format, rows)``; ``Junction()``;
``Label(text)``; ``Upgrade(cost, terrains, size, loc)``; ``Border(edge, type: BorderType, cost,
color)``; ``Icon(image, name, sticky, blocks_lay, large, loc)``; ``Stub(edge)``;
``Partition(a: Vertex, b: Vertex, type, restrict, length)``; ``Frame(color, color2)``;
``Stripes(color)``; ``FutureLabel(label, color)``.  ``Revenue(flat | phases)`` with
``for_phase(tile_colours)``, ``max``, ``as_dict()``; ``Lane(width, index)``.
Enums (``StrEnum``): ``Gauge, Route, TownStyle, BorderType, PartitionType, Restrict``.

Geometry on parsed tiles (rotation, exits, track segments, upgrade rotations, the generic
upgrade rule) is in :mod:`ferrovia.board.tiles`; the CLI is ``ferrovia tiles check|format FILE|-``.

``_N`` names the N-th (0-based) node in code order among city, pass, town, halt, offboard and
junction parts, and must be defined before the path that names it.

>>> from ferrovia.notation import format_tile, parse
>>> tile = parse("city=revenue:yellow_20|brown_40;path=a:0,b:_0;label=Y")
>>> tile.cities[0].revenue.for_phase(["yellow", "green"]), tile.label
(20, 'Y')
>>> format_tile(tile)
'city=revenue:yellow_20|brown_40;path=a:0,b:_0;label=Y'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ferrovia.notation.errors import NotationError, QuoteStyle, file_column_offset
from ferrovia.notation.models import (
    KNOWN_TERRAINS,
    PART_CLASSES,
    Border,
    BorderType,
    City,
    Edge,
    Endpoint,
    Frame,
    FutureLabel,
    Gauge,
    Halt,
    Icon,
    Junction,
    Label,
    Lane,
    Node,
    NodeRef,
    Offboard,
    Part,
    Partition,
    PartitionType,
    Pass,
    Path,
    Restrict,
    Revenue,
    RevenueCentre,
    Route,
    Stripes,
    Stub,
    Tile,
    Town,
    TownStyle,
    Upgrade,
    Vertex,
)

if TYPE_CHECKING:
    from ferrovia.notation.formatter import format_part, format_tile
    from ferrovia.notation.parser import INERT_KEYS, PART_KEYS, PART_TYPES, check, parse

# The parser builds a lark grammar and the formatter imports it: both load on first use, so a
# replay from the definition cache (which holds parsed tiles) never pays for them (~30 ms).
_LAZY = {
    "format_part": "formatter",
    "format_tile": "formatter",
    "INERT_KEYS": "parser",
    "PART_KEYS": "parser",
    "PART_TYPES": "parser",
    "check": "parser",
    "parse": "parser",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"ferrovia.notation.{module}"), name)
    globals()[name] = value  # later look-ups are plain module attributes
    return value


__all__ = [
    "INERT_KEYS",
    "KNOWN_TERRAINS",
    "PART_CLASSES",
    "PART_KEYS",
    "PART_TYPES",
    "Border",
    "BorderType",
    "City",
    "Edge",
    "Endpoint",
    "Frame",
    "FutureLabel",
    "Gauge",
    "Halt",
    "Icon",
    "Junction",
    "Label",
    "Lane",
    "Node",
    "NodeRef",
    "NotationError",
    "Offboard",
    "Part",
    "Partition",
    "PartitionType",
    "Pass",
    "Path",
    "QuoteStyle",
    "Restrict",
    "Revenue",
    "RevenueCentre",
    "Route",
    "Stripes",
    "Stub",
    "Tile",
    "Town",
    "TownStyle",
    "Upgrade",
    "Vertex",
    "check",
    "file_column_offset",
    "format_part",
    "format_tile",
    "parse",
]
