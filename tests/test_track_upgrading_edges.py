"""``track.upgrading_edges``: the lay check asks only whether one of these exits is reached
(a walk that stops at the first) instead of the whole set of reached exits, which is exact
only if the upgrade rule holds for a set of reached edges exactly when the set holds one of
them.  Checked here against the rule as stated -- the new tile's paths joined one by one from
the whole set, through the nodes the network passes -- for every upgrade of 1858's tiles (and
its India variant's), every rotation, every set of reached edges, with and without blocked
nodes; ``uses_new_track_or_city``, which the engine answers from the same edges, too."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from ferrovia.board import tiles as tile_parts
from ferrovia.data.definition import load_game
from ferrovia.lib18xx.operating import upgrading
from ferrovia.lib18xx.operating.track import _counts, upgrading_edges, uses_new_track_or_city
from ferrovia.paths import gamedata_root


def _rule(
    old: Any, new: Any, rotation: int, reached: set[int], passable: Any, revenue: bool
) -> bool:
    """The upgrade rule read directly: the paths on the network, joined one by one at a
    reached edge or through a passable node of a joined path; one of them is new track or
    (``revenue``) touches a stop whose value changes."""
    fresh = {id(p) for p in tile_parts.new_track(old, 0, new, rotation)}
    connected: set[int] = set()
    nodes: set[int] = set()
    grew = True
    while grew:
        grew = False
        for i, p in enumerate(new.paths):
            if i in connected:
                continue
            edges = {(e + rotation) % 6 for e in p.edges}
            if edges & reached or any(n in nodes for n in p.node_refs):
                connected.add(i)
                nodes.update(n for n in p.node_refs if passable is None or passable(n))
                grew = True
    return any(
        _counts(old, 0, new, rotation, i, fresh, revenue, tile_parts.reference_gauge_fits)
        for i in connected
    )


def _upgrades(name: str) -> list[tuple[Any, Any]]:
    d = load_game(gamedata_root() / name)
    rules = d.upgrade_rules
    tiles = [(td.tile, str(td.color)) for td in d.tiles.values()]
    tiles += [(hd.tile, str(hd.color)) for hd in d.hexes.values() if hd.tile.paths]
    out = []
    for (old, old_color), (new, new_color) in itertools.product(tiles, repeat=2):
        if new_color == "white" or not new.paths:
            continue
        if upgrading.is_candidate(
            rules, old, old_color, new, new_color, old_rotation=0, future_label=None
        ):
            out.append((old, new))
    return out


@pytest.mark.parametrize("name", ["1858", "1858_india"])
def test_the_rule_holds_for_a_set_of_edges_exactly_when_for_one_of_them(name: str) -> None:
    pairs = _upgrades(name)
    assert pairs
    checked = 0
    for (old, new), rotation in itertools.product(pairs[:: max(1, len(pairs) // 120)], range(6)):
        for passable in (None, lambda ref: ref % 2 == 0):  # some nodes blocked, or none
            for revenue in (True, False):
                kw: dict[str, Any] = {"passable": passable, "revenue": revenue}
                good = upgrading_edges(old, 0, new, rotation, range(6), **kw)
                for k in range(7):
                    for reached in itertools.combinations(range(6), k):
                        whole = _rule(old, new, rotation, set(reached), passable, revenue)
                        assert whole == bool(good & set(reached)), (old, new, rotation, reached)
                        assert whole == uses_new_track_or_city(
                            old, 0, new, rotation, set(reached), **kw
                        )
                        checked += 1
    assert checked > 1000
