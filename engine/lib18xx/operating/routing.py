"""The bridge from the game state to the route engine
(:mod:`ferrovia.board.graph`, :mod:`ferrovia.routes.value`):
the track graph of the map as it stands, the company's trains as route specs, the phase's tile
colours.  The graph is cached per map (tiles and rotations), since it changes only on a lay."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ferrovia.board.graph import (
    TrackGraph,
    build_graph,
    reachable,
    reaches_stop,
    runs_into,
    update_graph,
)
from ferrovia.board.graph import reached_edges as walk_reached_edges
from ferrovia.lib18xx import board
from ferrovia.lib18xx import state as state_module
from ferrovia.lib18xx.operating import common
from ferrovia.lib18xx.state import State18xx
from ferrovia.notation.models import Border, BorderType, Tile
from ferrovia.routes.value import (
    RouteRules,
    RouteSpec,
    TrainSpec,
    run_revenue,
    train_spec_from_data,
)

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx
    from ferrovia.routes.search import BestRoutes

_GRAPHS: dict[_MapKey, TrackGraph] = {}
#: the graphs built afresh for a map far from the last one (a game's first map: the same in
#: every game of a title), kept apart from the many a game's lays make, which clear _GRAPHS
_BUILT: dict[_MapKey, TrackGraph] = {}

#: id(state) -> what was worked out for it while a listing of legal actions runs
_LISTING: dict[int, dict[Any, Any]] = {}


@contextmanager
def listing(state: State18xx) -> Iterator[dict[Any, Any]]:
    """While legal actions are listed the state does not change, so its graph and reaches are
    worked out once (not once per lay checked); the memo is also the caller's to use."""
    key = id(state)
    memo = _LISTING.get(key)
    if memo is not None:  # nested: the outer listing's memo
        yield memo
        return
    memo = _LISTING[key] = {}
    try:
        yield memo
    finally:
        del _LISTING[key]


def listing_memo(state: State18xx) -> dict[Any, Any] | None:
    """The memo of the listing running on ``state``, if one is."""
    return _LISTING.get(id(state))


#: id(state) -> (its hexes dict, map edits then, definition, graph): the graph of a map no
#: tile has changed on since (the dict itself is kept, so an identity check cannot be fooled
#: by a reused id; a restore brings a new dict)
_CURRENT: dict[int, tuple[dict[str, Any], int, Any, TrackGraph]] = {}


def track_graph(game: Game18xx, state: State18xx) -> TrackGraph:
    """The track graph of the map as it stands (a cached one while no tile changes)."""
    hit = _CURRENT.get(id(state))
    if (
        hit is not None
        and hit[0] is state.hexes
        and hit[1] == state_module.map_edits
        and hit[2] is game.definition
    ):
        return hit[3]
    edits = state_module.map_edits
    graph = _track_graph(game, state)
    if len(_CURRENT) > 16:
        _CURRENT.clear()
    _CURRENT[id(state)] = (state.hexes, edits, game.definition, graph)
    return graph


#: id(definition) -> (map signature, graph, the hexes dict it was read from, map edits then,
#: hex -> its place in the signature, the signature's :func:`_sig_hash`) of the graph made
#: last, the base of the next
_LAST: dict[
    int,
    tuple[tuple[tuple[str, str, int], ...], TrackGraph, dict[str, Any], int, dict[str, int], int],
] = {}

#: a map differing from the last one in more hexes than this is built afresh
_UPDATE_MAX = 8


def _track_graph(game: Game18xx, state: State18xx) -> TrackGraph:
    last = _LAST.get(id(game.definition))
    edits = state_module.map_edits
    since = None
    changed: list[tuple[str, str, int]] | None
    if last is not None and last[2] is state.hexes and len(last[0]) == len(state.hexes):
        # the same map object: only the hexes assigned a tile or rotation since can differ
        since = state_module.edited_since(last[3])
    if last is not None and since is not None:
        sig, changed, sig_hash = _resigned(state, last[0], last[4], since, last[5])
        places = last[4]
    else:
        sig, changed = _signature(state, last[0] if last is not None else None)
        places = {entry[0]: i for i, entry in enumerate(sig)}
        sig_hash = _sig_hash(sig)
    key = _MapKey(id(game.definition), sig, sig_hash)
    graph = _GRAPHS.get(key) or _BUILT.get(key)
    if graph is None:
        graph = _updated_graph(game, state, last[:2] if last is not None else None, changed)
        if graph is None:
            tiles = {
                c: (_with_hex_borders(game, state, c), h.rotation) for c, h in state.hexes.items()
            }
            colors = {c: str(hd.color) for c, hd in game.definition.hexes.items()}
            graph = build_graph(tiles, colors=colors, layout=str(game.definition.layout))
            if changed is None:  # (not a rebuild packing a game's ids: that map is its own)
                if len(_BUILT) > 8:
                    _BUILT.clear()
                _BUILT[key] = graph
        if len(_GRAPHS) > 64:
            _GRAPHS.clear()
        _GRAPHS[key] = graph
    _LAST[id(game.definition)] = (sig, graph, state.hexes, edits, places, sig_hash)
    return graph


Signature = tuple[tuple[str, str, int], ...]

_HASH_MASK = (1 << 61) - 1


def _sig_hash(sig: Signature) -> int:
    """A signature's hash, a sum over its entries (each with its place), so that a lay's
    few changed entries bring it up to date (:func:`_resigned`)."""
    return sum(hash((i, entry)) for i, entry in enumerate(sig)) & _HASH_MASK


class _MapKey:
    """A map's key in ``_GRAPHS``: the definition's id and the map's signature, with the
    signature's :func:`_sig_hash` carried from the last map's (hashing the whole signature,
    a tuple of every hex's entry, was ~20k instructions, twice on every lay)."""

    __slots__ = ("_hash", "definition", "sig")

    def __init__(self, definition: int, sig: Signature, sig_hash: int) -> None:
        self.definition = definition
        self.sig = sig
        self._hash = hash((definition, sig_hash))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _MapKey)
            and self._hash == other._hash
            and self.definition == other.definition
            and self.sig == other.sig
        )


def _resigned(
    state: State18xx, last: Signature, places: dict[str, int], edited: list[str], last_hash: int
) -> tuple[Signature, list[tuple[str, str, int]], int]:
    """:func:`_signature` of ``state``'s map, read from the same hexes dict as ``last`` and
    changed since only by the assignments to the hexes ``edited`` (``places``: each hex's
    place in ``last``): those hexes alone are read again, not the whole map on every lay.
    Also its :func:`_sig_hash`, from ``last``'s (``last_hash``) and the entries changed."""
    hexes = state.hexes
    out = list(last)
    at: list[int] = []
    sig_hash = last_hash
    for c in set(edited):
        i = places.get(c)
        if i is None:
            continue  # another map's hex
        h = hexes[c]
        old = out[i]
        if old[1] != h.tile or old[2] != h.rotation:
            out[i] = new = (c, h.tile, h.rotation)
            at.append(i)
            sig_hash += hash((i, new)) - hash((i, old))
    at.sort()  # in map order, as _signature lists them (the order ids are given in)
    return tuple(out), [out[i] for i in at], sig_hash & _HASH_MASK


def _signature(
    state: State18xx, last: Signature | None
) -> tuple[Signature, list[tuple[str, str, int]] | None]:
    """The map's (hex, tile, rotation) entries, and those differing from ``last`` (None when
    the hexes are not the same ones in the same order).  An entry equal to the last one is
    that same tuple: a lay makes one new entry, not one per hex (kept as cache keys, new
    tuples on every lay were a large part of the objects the cyclic collector walked)."""
    hexes = state.hexes
    if last is None or len(last) != len(hexes):
        return tuple([(c, h.tile, h.rotation) for c, h in hexes.items()]), None
    out: list[tuple[str, str, int]] = []
    changed: list[tuple[str, str, int]] | None = []
    for old, (c, h) in zip(last, hexes.items(), strict=True):
        if old[1] == h.tile and old[2] == h.rotation and old[0] == c:
            out.append(old)
            continue
        new = (c, h.tile, h.rotation)
        out.append(new)
        if changed is not None:
            if old[0] == c:
                changed.append(new)
            else:
                changed = None  # another map: built afresh
    return tuple(out), changed


def _updated_graph(
    game: Game18xx,
    state: State18xx,
    last: tuple[Signature, TrackGraph] | None,
    changed: list[tuple[str, str, int]] | None,
) -> TrackGraph | None:
    """The graph of the map made from the last one (``last``: its signature and graph) by
    updating the hexes laid since (``changed``; :func:`ferrovia.board.graph.update_graph`), or None
    when there is no close one to start from."""
    if last is None or changed is None or len(changed) > _UPDATE_MAX:
        return None
    graph = last[1]
    if graph.dead > len(graph.paths) // 2 + 64:
        return None  # many ids left unused: a fresh build packs them again
    return update_graph(
        graph, {c: (_with_hex_borders(game, state, c), rot) for c, _, rot in changed}
    )


def _with_hex_borders(game: Game18xx, state: State18xx, coord: str) -> Tile:
    """The tile on ``coord`` with the hex's impassable borders: a border belongs to the map,
    not to the printed tile, so it stays closed under every tile laid there (18xx.games moves
    the borders onto each new tile)."""
    placed = board.placed(game, state, coord)
    if placed.preprinted:
        return placed.tile
    closed = [
        b for b in game.definition.hexes[coord].tile.borders if b.type is BorderType.IMPASSABLE
    ]
    if not closed:
        return placed.tile
    rotation = state.hexes[coord].rotation
    # the graph turns a tile's borders with the tile: turn them back so they stay put
    extra = tuple(Border(edge=(b.edge - rotation) % 6, type=b.type) for b in closed)
    return Tile(parts=(*placed.tile.parts, *extra))


def route_rules(game: Game18xx) -> RouteRules:
    """The route engine's settings from the data: a wounded train's run is divided by
    trains.yaml ``wounded.revenue_divisor``."""
    rules = game.memo.get("route_rules")  # (from the definition alone: made once per game)
    if rules is None:
        rules = game.memo["route_rules"] = RouteRules(
            wounded_divisor=game.definition.wounded.revenue_divisor
        )
    assert isinstance(rules, RouteRules)
    return rules


def train_spec(game: Game18xx, state: State18xx, tid: str) -> TrainSpec:
    t = state.trains[tid]
    return face_spec(game, t.name, t.obsolete)


def face_spec(game: Game18xx, name: str, obsolete: bool = False) -> TrainSpec:
    """The route spec of a train face by name (``obsolete``: wounded)."""
    # a face's spec follows from the data alone (and the wound): worked out once per game
    key = ("train_spec", name, obsolete)
    spec = game.memo.get(key)
    if spec is None:
        spec = game.memo[key] = _train_spec(game, name, obsolete)
    assert isinstance(spec, TrainSpec)
    return spec


def _train_spec(game: Game18xx, name: str, obsolete: bool) -> TrainSpec:
    typ, variant = common.face_def(game, name)
    face = variant or typ
    distance = face.distance.given()
    return train_spec_from_data(
        name,
        distance,
        gauge=str(face.gauge),
        multiplier=int(face.multiplier),
        obsolete=obsolete,
    )


def attached_car(state: State18xx, corp: str) -> tuple[str, str] | None:
    """(car, host train) the company attached this operating round, if any."""
    pair = state.round.data.get("attached", {}).get(corp)
    return (str(pair[0]), str(pair[1])) if pair else None


def car_bonus(
    game: Game18xx, state: State18xx, corp: str, train: str, stop_kinds: list[str]
) -> int:
    """What the car attached to ``train`` adds to its route: trains.yaml ``per_large_stop``
    for each city or off-board, times the host's multiplier, divided for a wounded host as its
    revenue is (1858 India's Pullman: 10 a stop, 5 behind a wounded train, 20 behind a 5D)."""
    pair = attached_car(state, corp)
    if pair is None or pair[1] != train:
        return 0
    car = common.train_type_def(game, pair[0]).car
    host = state.trains[train]
    typ, variant = common.face_def(game, host.name)
    per_stop = int(car.per_large_stop) * int((variant or typ).multiplier)
    if host.obsolete:
        per_stop //= int(game.definition.wounded.revenue_divisor)
    return per_stop * sum(1 for k in stop_kinds if k in ("city", "offboard"))


#: id(state) -> (its hexes dict, token_edits then, its hexes with city spaces)
_TOKEN_HEXES: dict[int, tuple[dict[str, Any], int, list[str]]] = {}


#: id(state) -> (its hexes dict, token_lists then, its token map)
_TOKEN_MAPS: dict[int, tuple[dict[str, Any], int, dict[str, list[list[str | None]]]]] = {}


def token_map(state: State18xx) -> dict[str, list[list[str | None]]]:
    """The map's station spaces, hex -> per city, per slot: the hexes with a city only (the
    walks and route checks read the map's tokens with ``.get``, so a hex left with none is
    harmless).  Which hexes those are is kept until a Hex gains or loses its city spaces
    (``state.token_edits``); the map itself until a Hex is given new lists
    (``state.token_lists``: the lists are the hexes' own, changed in place), so callers
    share it and must not change it."""
    hexes = state.hexes
    made = _TOKEN_MAPS.get(id(state))
    if made is not None and made[0] is hexes and made[1] == state_module.token_lists:
        return made[2]
    lists = state_module.token_lists
    hit = _TOKEN_HEXES.get(id(state))
    if hit is None or hit[0] is not hexes or hit[1] != state_module.token_edits:
        coords = [c for c, h in hexes.items() if h.tokens]
        if len(_TOKEN_HEXES) > 16:
            _TOKEN_HEXES.clear()
        hit = _TOKEN_HEXES[id(state)] = (hexes, state_module.token_edits, coords)
    out = {c: hexes[c].tokens for c in hit[2]}
    if len(_TOKEN_MAPS) > 16:
        _TOKEN_MAPS.clear()
    _TOKEN_MAPS[id(state)] = (hexes, lists, out)
    return out


def route_revenues(game: Game18xx, state: State18xx, corp: str, routes: Any) -> list[int]:
    """Ferrovia's value of each recorded route of a ``run_routes`` (raises IllegalAction for
    an illegal route or combination)."""
    specs = [
        RouteSpec(
            train=r.train,
            connections=tuple(tuple(c) for c in r.connections),
            nodes=tuple(r.nodes) if r.nodes else None,
            revenue=r.revenue,
        )
        for r in routes
    ]
    trains = {r.train: train_spec(game, state, r.train) for r in routes}
    tokens = token_map(state)
    phase = list(common.current_phase(game, state).tiles)
    graph = track_graph(game, state)
    result = run_revenue(
        graph, specs, trains, phase=phase, company=corp, tokens=tokens, rules=route_rules(game)
    )
    by_train = {
        # A game's own per-route bonus (1858 Switzerland: north-south, east-west), and what an
        # attached car adds.
        r.train: r.revenue
        + game.rules.route_bonus(
            game, state, corp, r.train, [graph.stops[s].hex for s in r.route.stops]
        )
        + car_bonus(game, state, corp, r.train, [graph.stops[s].kind for s in r.route.stops])
        for r in result.routes
    }
    return [by_train[r.train] for r in routes]


_REACH: dict[Any, tuple[TrackGraph, Any]] = {}


def _reaches(game: Game18xx, state: State18xx, operator: str) -> list[Any]:
    """The operator's broad and metre reach (cached per map, stations and operator)."""
    return [_reach(game, state, operator, family) for family in GAUGE_FAMILIES]


def _reach(game: Game18xx, state: State18xx, operator: str, family: str) -> Any:
    """The operator's reach on one gauge family (cached per map, stations and operator; a
    question about one family does not pay for the other)."""
    memo = _LISTING.get(id(state))
    if memo is not None:
        hit = memo.get(("reach", operator, family))
        if hit is None:
            hit = memo[("reach", operator, family)] = _reach_of(game, state, operator, family)
        return hit
    return _reach_of(game, state, operator, family)


def _reach_of(game: Game18xx, state: State18xx, operator: str, family: str) -> Any:
    graph, key = _reach_key(game, state, operator, family)
    return _remembered(key, graph, lambda: _compute_reach(game, state, graph, operator, family))


def _remembered(key: tuple[Any, ...], graph: TrackGraph, make: Callable[[], Any]) -> Any:
    """``_REACH[key]`` made on ``graph``, else ``make()`` remembered there."""
    hit = _REACH.get(key)
    if hit is None or hit[0] is not graph:  # the graph kept in the entry: no reused id
        hit = (graph, make())
        if len(_REACH) > 256 or len(_KEPT) > 256:
            _REACH.clear()
            _KEPT.clear()
        _REACH[key] = hit
        _KEPT[id(graph)] = graph
    return hit[1]


#: id(graph) -> graph, for each graph something is kept for in ``_REACH`` (a question on a
#: map with nothing kept, as each lay check of a replay is, need not work out its key)
_KEPT: dict[int, TrackGraph] = {}


def _reached_edges(
    game: Game18xx,
    state: State18xx,
    operator: str,
    family: str,
    coord: str,
    within: frozenset[int] | None = None,
    first: bool = False,
) -> frozenset[int]:
    """``_reach(...).hexes.get(coord)`` (cut to ``within`` when given): from a reach already
    made, else from a walk that stops once those edges of ``coord`` are all found
    (:func:`ferrovia.board.graph.reached_edges`; a lay check on a map just changed needs no more;
    kept beside the reaches, by hex).  ``first``: once one is found (a part of the answer,
    empty only when it is)."""

    def cut(edges: frozenset[int]) -> frozenset[int]:
        return edges if within is None else edges & within

    # (listing lays: many hexes are asked about on one map, one whole reach serves them)
    edges: frozenset[int] = _settled(
        game,
        state,
        operator,
        family,
        ("edges", coord, within, first),
        lambda reach: cut(reach.hexes.get(coord, frozenset())),
        lambda graph, **kw: walk_reached_edges(
            graph, operator, coord, within=within, first=first, **kw
        ),
    )
    return edges


def _reach_key(
    game: Game18xx, state: State18xx, operator: str, family: str
) -> tuple[TrackGraph, tuple[Any, ...]]:
    """The track graph and the key of the operator's reach on it in ``_REACH``."""
    graph = track_graph(game, state)  # one object per map: its id stands for the tiles
    held: tuple[Any, ...] = ()
    if operator in state.privates:
        # a private railway starts from the cities holding its reservation (_compute_reach)
        held = tuple(
            tuple(map(tuple, state.hexes[h].reservations)) if h in state.hexes else ()
            for h in game.definition.private(operator).home_hexes
        )
    key = (
        id(game.definition),
        operator,
        family,
        id(graph),
        tuple([(c, tuple(map(tuple, h.tokens))) for c, h in state.hexes.items() if h.tokens]),
        held,
    )
    return graph, key


def reached_hexes(game: Game18xx, state: State18xx, operator: str) -> set[str]:
    """Hexes some edge of which the operator's broad or metre network reaches."""
    out: set[str] = set()
    for r in _reaches(game, state, operator):
        out |= {h for h, edges in r.hexes.items() if edges}
    return out


def _compute_reach(
    game: Game18xx, state: State18xx, graph: TrackGraph, operator: str, family: str
) -> Any:
    tokens, home, home_cities = _reach_args(game, state, operator)
    return reachable(
        graph, operator, tokens=tokens, gauge=family, home_hexes=home, home_cities=home_cities
    )


def _reach_args(
    game: Game18xx, state: State18xx, operator: str
) -> tuple[dict[str, Any], tuple[str, ...], dict[str, list[int]]]:
    """The stations on the map, and a private railway's home hexes and reserved cities."""
    # (hexes without a city left out: the walk reads the map's token lists once or twice)
    tokens = token_map(state)
    home: tuple[str, ...] = ()
    home_cities: dict[str, list[int]] = {}
    if operator in state.privates:
        p = game.definition.private(operator)
        home = tuple(p.home_hexes)
        # the cities holding its reservation now (an upgrade may have moved it to another
        # city of the hex), as 18xx.games starts a private railway from its reserved city
        for h in home:
            held = state.hexes[h].reservations if h in state.hexes else []
            home_cities[h] = [i for i, slots in enumerate(held) if operator in slots]
    return tokens, home, home_cities


def _settled(
    game: Game18xx,
    state: State18xx,
    operator: str,
    family: str,
    question: tuple[Any, ...],
    answer: Callable[[Any], Any],
    walk: Callable[..., Any],
) -> Any:
    """``answer(_reach(...))``: from a whole reach already made (while listing, or kept),
    else from a walk that stops once it is settled (``walk(graph, **reach arguments)``,
    kept beside the reaches under ``question`` when something is kept for the map)."""
    if _LISTING.get(id(state)) is not None:
        return answer(_reach(game, state, operator, family))

    def make() -> Any:
        tokens, home, home_cities = _reach_args(game, state, operator)
        return walk(graph, tokens=tokens, gauge=family, home_hexes=home, home_cities=home_cities)

    graph = track_graph(game, state)
    if _KEPT.get(id(graph)) is not graph:
        # nothing kept for this map (each lay check of a replay: every lay makes a new
        # one), so no key is worked out; only a walk kept here could have answered
        return make()
    graph, key = _reach_key(game, state, operator, family)
    hit = _REACH.get(key)
    if hit is not None and hit[0] is graph:
        return answer(hit[1])
    return _remembered((*key, *question), graph, make)


def reaches_city(game: Game18xx, state: State18xx, operator: str, coord: str, city: int) -> bool:
    """Whether a city is on the operator's broad or metre network (it may put a station
    there)."""
    stop = track_graph(game, state).city(coord, city)
    if stop is None:
        return False
    sid = stop.id
    return any(
        _settled(
            game,
            state,
            operator,
            family,
            ("stop", sid),
            lambda reach: sid in reach.stops,
            lambda graph, **kw: reaches_stop(graph, operator, sid, **kw),
        )
        for family in GAUGE_FAMILIES
    )


GAUGE_FAMILIES = ("broad", "metre")  # the order of :func:`_reaches`


def has_route(game: Game18xx, state: State18xx, corp: str) -> bool:
    """Whether a run of two stops starts at one of the company's stations (18xx.games
    ``route_available``, and ``route_train_purchase``, which obliges a trainless company to
    buy a train): its network walked from each station alone, the company's other stations
    ending a walk, so a station only a teleport joined (1830's DH) makes no run."""
    if not any(len(r.stops) > 1 for r in _reaches(game, state, corp)):
        return False
    stations = [  # the map's markers: an upgrade may renumber a city under a marker
        (c, i) for c, h in state.hexes.items() for i, slots in enumerate(h.tokens) if corp in slots
    ]
    if len(stations) < 2:
        return True
    graph = track_graph(game, state)
    other = "\0" + corp  # a stranger's marker: reached as a stop, never walked through
    for here in stations:
        tokens = {
            c: [
                [other if m == corp and (c, i) != here else m for m in slots]
                for i, slots in enumerate(h.tokens)
            ]
            for c, h in state.hexes.items()
            if h.tokens
        }
        for gauge in GAUGE_FAMILIES:
            if len(reachable(graph, corp, tokens=tokens, gauge=gauge).stops) > 1:
                return True
    return False


class ReachedEdges(Mapping[str, set[int]]):
    """Edges of one hex the operator's network reaches, per gauge family, each family's
    reach worked out only when asked for (a lay that extends the broad network needs no
    metre reach)."""

    def __init__(self, game: Game18xx, state: State18xx, operator: str, coord: str) -> None:
        self._args = (game, state, operator)
        self._coord = coord
        self._done: dict[str, set[int]] = {}

    def __getitem__(self, family: str) -> set[int]:
        hit = self._done.get(family)
        if hit is None:
            if family not in GAUGE_FAMILIES:
                raise KeyError(family)
            hit = self._done[family] = set(_reached_edges(*self._args, family, self._coord))
        return hit

    def within(self, family: str, edges: Collection[int], *, first: bool = False) -> set[int]:
        """``self[family] & edges``, the walk stopped once those edges are found when the
        family's edges are not known yet (a lay check needs only the new tile's exits).
        ``first``: a part of it, empty only when it is (the walk stopped at the first edge
        found: a lay on a hex without track asks no more)."""
        hit = self._done.get(family)
        if hit is not None:
            return hit & set(edges)
        if family not in GAUGE_FAMILIES:
            raise KeyError(family)
        if not edges:
            return set()  # (nothing asked: no walk)
        return set(_reached_edges(*self._args, family, self._coord, frozenset(edges), first))

    def __iter__(self) -> Iterator[str]:
        return iter(GAUGE_FAMILIES)

    def __len__(self) -> int:
        return len(GAUGE_FAMILIES)


def reached_within(
    by_gauge: Mapping[str, set[int]], family: str, edges: Collection[int], *, first: bool = False
) -> set[int]:
    """``by_gauge[family] & edges``, asking no more of a :class:`ReachedEdges` than that
    (``first``: a part of it, empty only when it is; see :meth:`ReachedEdges.within`)."""
    if isinstance(by_gauge, ReachedEdges):
        return by_gauge.within(family, edges, first=first)
    return by_gauge[family] & set(edges)


def reached_edges_by_gauge(
    game: Game18xx, state: State18xx, operator: str, coord: str
) -> ReachedEdges:
    """Edges of ``coord`` the operator's network reaches, per gauge family (``"broad"``:
    broad and dual track, ``"metre"``: metre and dual), worked out when read."""
    return ReachedEdges(game, state, operator, coord)


def reached_edges(game: Game18xx, state: State18xx, operator: str, coord: str) -> set[int]:
    """Edges of ``coord`` the operator's broad or metre network reaches (a private railway's
    starts from its home hexes, a company's from its stations)."""
    out: set[int] = set()
    for reach in _reaches(game, state, operator):
        out |= set(reach.hexes.get(coord, ()))
    return out


def reaches_any_hex(game: Game18xx, state: State18xx, corp: str, hexes: Any) -> bool:
    """Whether a company's trains could run into one of ``hexes`` on broad or metre track, or
    it has a station on one (18xx.games ``corporation_private_connected?``)."""
    wanted = frozenset(hexes)
    if any(any(corp in slots for slots in state.hexes[h].tokens) for h in wanted):
        return True
    return any(
        _settled(
            game,
            state,
            corp,
            family,
            ("runs into", wanted),
            lambda reach: bool(wanted & reach.run_hexes),
            lambda graph, **kw: runs_into(graph, corp, wanted, **kw),
        )
        for family in GAUGE_FAMILIES
    )


def route_search(
    game: Game18xx,
    state: State18xx,
    corp: str,
    trains: list[tuple[str, TrainSpec]],
    *,
    budget: int | None,
    limit: int | None = None,
) -> BestRoutes:
    """:func:`ferrovia.routes.search.best_routes` on the map as it stands: its track graph,
    stations, the phase's colours and the game's route rules (``budget``/``limit``: as there,
    None for the exact search)."""
    from ferrovia.routes.search import best_routes

    return best_routes(
        track_graph(game, state),
        trains,
        phase=list(common.current_phase(game, state).tiles),
        company=corp,
        tokens=token_map(state),
        rules=route_rules(game),
        limit=limit,
        budget=budget,
    )


def play_search(
    game: Game18xx, state: State18xx, corp: str, trains: list[tuple[str, TrainSpec]]
) -> BestRoutes:
    """The route search of play (``legal_actions``' run, the bots' estimates): with the work
    budget :data:`ferrovia.routes.search.PLAY_BUDGET` -- the exact best unless the search runs
    out of it, then the best legal run it found."""
    from ferrovia.routes.search import PLAY_BUDGET

    return route_search(game, state, corp, trains, budget=PLAY_BUDGET)


def best_run(game: Game18xx, state: State18xx, corp: str, train_ids: list[str]) -> list[Any]:
    """The best legal routes of a company's trains, as ``run_routes`` routes (the search of
    :func:`play_search`)."""
    from ferrovia.lib18xx.actions import Route

    graph = track_graph(game, state)
    best = play_search(game, state, corp, [(t, train_spec(game, state, t)) for t in train_ids])
    out = []
    for r in best.routes:
        stops = [graph.stops[s] for s in r.route.stops]
        out.append(
            Route(
                train=r.train,
                connections=tuple(tuple(c) for c in r.route.connections()),
                hexes=tuple(s.hex for s in stops),
                # The game's route bonus is added, not searched for (a legal, maybe not best run).
                revenue=r.revenue
                + game.rules.route_bonus(game, state, corp, r.train, [s.hex for s in stops])
                + car_bonus(game, state, corp, r.train, [s.kind for s in stops]),
                revenue_str="-".join(s.hex for s in stops),
                nodes=tuple(s.signature for s in stops),
            )
        )
    return out
