"""Which keys each part type of a tile code takes, in canonical order: the key, the model field
it fills and whether it is required.

Pure data, shared by the parser (which pairs each key with how its value is read) and the
formatter (which writes keys in this order), so neither needs the other.

>>> [k.key for k in PART_KEYS["stub"]]
['edge']
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Key:
    """One key a part type takes and the model field it fills."""

    key: str
    field: str
    required: bool = False


def _k(key: str, *, field: str | None = None, required: bool = False) -> Key:
    return Key(key, field or key, required)


_CENTRE = (
    _k("groups"),
    _k("hide"),
    _k("visit_cost"),
    _k("route"),
    _k("format"),
)

#: Keys of every part type, in canonical (formatting) order.
PART_KEYS: dict[str, tuple[Key, ...]] = {
    "path": (
        _k("a", required=True),
        _k("b", required=True),
        _k("terminal"),
        _k("lanes"),
        _k("a_lane"),
        _k("b_lane"),
        _k("track"),
        _k("ignore"),
    ),
    "city": (
        _k("revenue", required=True),
        _k("slots"),
        *_CENTRE,
        _k("boom"),
        _k("outline"),
        _k("loc"),
    ),
    "pass": (
        _k("revenue", required=True),
        _k("slots"),
        *_CENTRE,
        _k("boom"),
        _k("loc"),
        _k("color"),
        _k("size"),
    ),
    "town": (
        _k("revenue", required=True),
        *_CENTRE,
        _k("loc"),
        _k("boom"),
        _k("style"),
        _k("to_city"),
    ),
    "halt": (
        _k("symbol"),
        _k("revenue"),
        *_CENTRE,
        _k("loc"),
    ),
    "offboard": (
        _k("revenue", required=True),
        *_CENTRE,
        _k("rows"),
    ),
    "junction": (),
    "label": (),  # text, not key:value
    "upgrade": (
        _k("cost"),
        _k("terrain", field="terrains"),
        _k("size"),
        _k("loc"),
    ),
    "border": (
        _k("edge", required=True),
        _k("type"),
        _k("cost"),
        _k("color"),
    ),
    "icon": (
        _k("image", required=True),
        _k("name"),
        _k("sticky"),
        _k("blocks_lay"),
        _k("large"),
        _k("loc"),
    ),
    "stub": (_k("edge", required=True),),
    "partition": (
        _k("a", required=True),
        _k("b", required=True),
        _k("type"),
        _k("restrict"),
        _k("length"),
    ),
    "frame": (_k("color", required=True), _k("color2")),
    "stripes": (_k("color", required=True),),
    "future_label": (_k("label"), _k("color")),
}
