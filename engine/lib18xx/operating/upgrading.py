"""tiles.yaml ``upgrades`` as the track step applies them: which tile may replace which.

The geometry is :mod:`ferrovia.board.tiles` (18xx.games' generic upgrade test); the switches a game
declares choose which of its parts apply: ``same_label`` and ``future_labels`` (labels),
``same_stops`` and ``labelled_cities_change_count`` (towns and cities), ``gauges_kept_by``
(which new gauge keeps old track of a gauge); the track step reads ``must_use``.

>>> from ferrovia.notation import Gauge
>>> fits = gauge_fits({"broad": ("broad", "dual"), "metre": ("metre", "dual"), "dual": ("dual",)})
>>> fits(Gauge.NARROW, Gauge.DUAL), fits(Gauge.DUAL, Gauge.BROAD)
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ferrovia.board import tiles
from ferrovia.notation.models import FutureLabel, Gauge

if TYPE_CHECKING:  # the definition holds records of it (ferrovia.data.records)
    from ferrovia.schemas.tiles import UpgradeRules

_SCHEMA_GAUGE = {"broad": Gauge.BROAD, "metre": Gauge.NARROW, "dual": Gauge.DUAL}


@lru_cache(maxsize=32)
def _fits(table: tuple[tuple[str, tuple[str, ...]], ...]) -> tiles.GaugeFits:
    kept = {_SCHEMA_GAUGE[old]: {_SCHEMA_GAUGE[n] for n in new} for old, new in table}

    def fits(old: Gauge, new: Gauge) -> bool:
        return new in kept.get(old, ())

    return fits


def gauge_fits(table: Mapping[Any, Sequence[str]] | None) -> tiles.GaugeFits:
    """The gauge test of ``upgrades.gauges_kept_by`` (absent: 18xx.games' own, which is
    1858's table).  One function per table, so the rotation cache keeps working."""
    if table is None:
        return tiles.reference_gauge_fits
    return _fits(tuple(sorted((k, tuple(v)) for k, v in table.items())))


def is_candidate(
    rules: UpgradeRules,
    old: Any,
    old_colour: str,
    new: Any,
    new_colour: str,
    *,
    old_rotation: int,
    future_label: FutureLabel | None,
) -> bool:
    """Whether ``new`` may replace ``old`` at all (before rotations and routes): the next
    colour in ``upgrades.colors``, every old path kept at some rotation, and the label and
    stop rules the game switches on."""
    order = tuple(rules.colors) if old_colour != "white" else ("white", *rules.colors)
    if not tiles.upgrades_to_correct_colour(old_colour, new_colour, order):
        return False
    if not tiles.paths_are_subset(
        old, old_rotation, new, gauge_fits=gauge_fits(rules.gauges_kept_by)
    ):
        return False
    if rules.same_label:
        if rules.future_labels:
            if not tiles.upgrades_to_correct_label(old, new, new_colour, future_label=future_label):
                return False
        elif old.label != new.label:
            return False
    if rules.same_stops:
        if not tiles.upgrades_to_correct_city_town(old, old_colour, old_rotation, new):
            return False
        if not rules.labelled_cities_change_count and len(old.cities) != len(new.cities):
            return False
    return True
