"""Tile -> canonical code: parts in their order, keys in a fixed order, defaults left out.

``parse(format_tile(t)) == t`` for every tile ``parse`` can return, so the canonical form of a
code is ``format_tile(parse(code))``.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import TYPE_CHECKING

from ferrovia.notation.keys import PART_KEYS

if TYPE_CHECKING:  # the models call this module to print themselves: types only, no import
    from ferrovia.notation import models as m

_DEFAULTS: dict[type, dict[str, object]] = {}


def _defaults(cls: type) -> dict[str, object]:
    found = _DEFAULTS.get(cls)
    if found is None:
        found = {
            f.name: f.default
            for f in dataclasses.fields(cls)
            if f.default is not dataclasses.MISSING
        }
        _DEFAULTS[cls] = found
    return found


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return "|".join(str(v) for v in value)
    if isinstance(value, float):
        return format(value, "g") if value != int(value) else str(int(value))
    return str(value)


def format_part(part: m.Part) -> str:
    """One part in canonical form.

    >>> from ferrovia.notation import models as m
    >>> format_part(m.City(revenue=m.Revenue(flat=20), slots=2))
    'city=revenue:20,slots:2'
    """
    kind = part.KIND
    if kind == "label":
        text = getattr(part, "text", "")
        return f"label={text}" if text else "label"
    defaults = _defaults(type(part))
    items: list[str] = []
    for spec in PART_KEYS[kind]:
        value = getattr(part, spec.field)
        if not spec.required and spec.field in defaults and value == defaults[spec.field]:
            continue
        items.append(f"{spec.key}:{_value(value)}")
    items.extend(f"{k}:{v}" for k, v in part.extra)
    return f"{kind}={','.join(items)}" if items else kind


def format_tile(tile: m.Tile) -> str:
    """The canonical code of a tile.

    >>> from ferrovia.notation import parse
    >>> format_tile(parse("city=slots:1,revenue:20;path=b:_0,a:0"))
    'city=revenue:20;path=a:0,b:_0'
    """
    return ";".join(format_part(p) for p in tile.parts)
