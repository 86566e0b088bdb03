"""What searches share between calls: results by everything a search reads, and the work
of the latest maps (chain sets, enumerators, links and their answers).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ferrovia.board.graph import Chain, Tokens, TrackGraph, blocks, tokened_by
from ferrovia.routes.search.chains import _ChainSet, _Links
from ferrovia.routes.search.enumerator import _Enumerator
from ferrovia.routes.search.records import BestRoutes, _Candidate
from ferrovia.routes.search.runsearch import _PAIR_AFTER
from ferrovia.routes.search.sequences import _MAX_WAYS
from ferrovia.routes.value import RouteRules, TrainSpec


@dataclass
class _MapWork:
    """What the searches of one company over one unchanged part of the map share, whatever
    trains they run: the chain sets (their distance and bound tables, and the links of a
    town mesh with every answer about which ways fit), one enumerator per train spec, and
    each spec's best route.  A company's map often stands still while its trains change (a
    train bought, one rusted): random 1858 p6 seed 20, company A ran 7E+6E, 7E and 7E+7E
    on the same chains, and most of a cold 7E+7E search is working out the town ways."""

    chain_sets: dict[str, _ChainSet]
    enumerators: dict[TrainSpec, _Enumerator] = field(default_factory=dict)
    tops: dict[TrainSpec, list[_Candidate]] = field(default_factory=dict)


def _trim(links: dict[tuple[bool, ...], _Links]) -> None:
    """Before a search reuses links: forget the answers about the track avoided by earlier
    searches' partner routes once there are many (each search asks about its own), keeping
    those about the whole map."""
    for shared in links.values():
        memo = shared[3]
        if len(memo) > _MEMO_AVOIDS:
            for avoid in [a for a in memo if a]:
                del memo[avoid]


#: the latest searches' results by everything they read (:func:`_map_inputs`, the trains, the
#: limit): late in a game a company's part of the map often stands still while others build
#: elsewhere, and its search would find the same run again (random 1858 p6 seed 20: 5E+5E,
#: 7E and 6M+6E searches of 0.2-0.9 s each came back unchanged OR after OR)
_RECENT: OrderedDict[tuple[object, ...], BestRoutes] = OrderedDict()
_RECENT_SIZE = 64
#: the work of the latest searches by the part of the map they read (:class:`_MapWork`)
_MAPS: OrderedDict[_Inputs, _MapWork] = OrderedDict()
_MAPS_SIZE = 16
#: the links of the latest chain sets by their chains and track numbering (:class:`_MapWork`)
_LINK_SETS: OrderedDict[tuple[object, ...], dict[tuple[bool, ...], _Links]] = OrderedDict()
_MEMO_AVOIDS = 64  # avoided-track entries of a link memo kept between searches


class _Inputs:
    """:func:`_map_inputs`' key with its hash worked out once: hashing it hashes every chain,
    stop and path it names (a dataclass hash each, ~1M instructions at #979), and a search
    looks it up in ``_RECENT`` and ``_MAPS`` up to four times."""

    __slots__ = ("hash", "key")

    def __init__(self, key: tuple[object, ...]) -> None:
        self.key = key
        self.hash = hash(key)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, _Inputs) and self.key == other.key)


def _map_inputs(
    graph: TrackGraph,
    chain_sets: Mapping[str, _ChainSet],
    phase: Sequence[str],
    company: str,
    tokens: Tokens,
    rules: RouteRules,
) -> _Inputs:
    """Everything a search reads but its trains and limit, as a key: the company's chains
    (in the order walked, which fixes the order of everything after, and the numbering of
    their track), the stops they touch (with whether the company has a station there and
    whether they block it) and the paths they run over -- the rest of the map cannot change
    its routes."""
    stops: set[int] = set()
    paths: set[int] = set()
    chains: list[tuple[Chain, ...]] = []
    for cs in chain_sets.values():
        chains.append(tuple(cs.chains))
        stops.update(cs.adjacency)
        for c in cs.chains:
            paths.update(c.paths)
    at = graph.stops
    return _Inputs(
        (
            _PAIR_AFTER,  # (tests lower these to take the rare paths)
            _MAX_WAYS,
            company,
            tuple(phase),
            rules,
            tuple(chain_sets),
            tuple(chains),
            # (of the stations, the search reads only whose a stop is and whether it blocks:
            # another company's station in a city with room left changes nothing)
            tuple(
                (at[s], tokened_by(at[s], company, tokens), blocks(at[s], company, tokens))
                for s in sorted(stops)
            ),
            tuple(graph.paths[p] for p in sorted(paths)),
        )
    )
