"""Chains around one company (:class:`_ChainSet`): every chain leaving every stop it reaches,
with compact track masks, and the exits of each stop.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ferrovia.board.graph import (
    Chain,
    Tokens,
    TrackGraph,
    blocks,
    chains_from,
    gauge_skip,
    tokened_by,
)
from ferrovia.routes.search.records import _Option

#: (ways per link, stubs, the shift of ``_Option.both``, remembered answers per avoided track)
_Links = tuple[
    dict[tuple[int, int], tuple["_Option", ...]],
    dict[int, tuple["_Option", ...]],
    int,
    dict[int, tuple[dict[Any, Any], ...]],
]


@dataclass
class _ChainSet:
    """The chains of one gauge family around one company, with compact track masks."""

    chains: list[Chain]
    masks: list[int]
    adjacency: dict[int, list[tuple[int, int]]]  # stop -> [(chain index, other stop)]
    special: list[bool]  # a chain with a terminal path: checked in full
    #: distance and bound tables, shared by the trains that measure distance alike
    tables: dict[tuple[object, ...], dict[int, Any]] = field(default_factory=dict)
    #: links between paying stops, per set of stops passed for free (:class:`_LinkEnumerator`)
    links: dict[tuple[bool, ...], _Links] = field(default_factory=dict)


def _chain_set(
    graph: TrackGraph, company: str, tokens: Tokens, gauge: str, bit: dict[int, int]
) -> _ChainSet:
    """The chains around ``company`` on ``gauge`` track; ``bit`` numbers track keys (shared by
    the chain sets of one search, so masks of both gauges compare)."""
    skip = gauge_skip(gauge)
    seen: set[frozenset[int]] = set()
    chains: list[Chain] = []
    # every stop a route of the company can touch: out from its stations, through stops that
    # do not block it (what :func:`ferrovia.board.graph.reachable` finds, walked chain by chain)
    start = [st.id for st in graph.stops if tokened_by(st, company, tokens)]
    reached = set(start)
    todo = list(start)
    while todo:
        s = todo.pop()
        # (a chain back to a stop reached, on paths already seen, is not built: it could
        # neither add a chain nor reach a stop)
        for c in chains_from(graph, s, skip, known=seen, known_ends=reached):
            k = frozenset(c.paths)
            if k not in seen:
                seen.add(k)
                chains.append(c)
            other = c.b
            if other not in reached:
                reached.add(other)
                if not blocks(graph.stops[other], company, tokens):
                    todo.append(other)
    # (a chain between two blocking stops could only be a whole route without a station)
    masks = []
    adjacency: dict[int, list[tuple[int, int]]] = {}
    special = []
    for i, c in enumerate(chains):
        m = 0
        for key in c.keys:
            if key not in bit:
                bit[key] = len(bit)
            m |= 1 << bit[key]
        masks.append(m)
        adjacency.setdefault(c.a, []).append((i, c.b))
        adjacency.setdefault(c.b, []).append((i, c.a))
        # (a terminal path anywhere on it, as the chain's own flags tell)
        special.append(c.first_terminal or c.last_terminal or c.terminal_inside or c.a == c.b)
    return _ChainSet(chains, masks, adjacency, special)


def _exits(graph: TrackGraph, chain_sets: Iterable[_ChainSet]) -> dict[int, int]:
    """Per stop, at most how many track-disjoint chains can meet there: chains that leave it
    by the same path share that path's track."""
    firsts: dict[int, set[int]] = {}
    for cs in chain_sets:
        for c in cs.chains:
            for stop, path in ((c.a, c.paths[0]), (c.b, c.paths[-1])):
                # a path without track keys cannot make two chains conflict: count it apart
                firsts.setdefault(stop, set()).add(
                    path if graph.paths[path].keys else -1 - len(firsts.get(stop, ()))
                )
    return {s: len(v) for s, v in firsts.items()}
