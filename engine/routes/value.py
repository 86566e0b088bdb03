"""Train routes: the legality and revenue of given routes.

Everything here is pure: it reads a :class:`~ferrovia.board.graph.TrackGraph`, the station tokens
(``hex -> per city -> per slot -> company or None``, as the game state keeps them), train specs
and the phase's tile colours, and never changes any of them.

Given routes (exact replay of 18xx.games)
-----------------------------------------
A ``run_routes`` action names each route by its *connections*: one hex list per stop-to-stop
run of track, in the order the track was walked (``[["G18", "G20"], ["G20", "H19"]]``); a run
through a junction names the junction's hex once; a run along a single stop-to-stop path of a
tile with several such paths is ``["<hex> <n>.<m>"]``.  It also records the route's stops
(``nodes``: ``"<hex>-<part index>"``).  :func:`resolve_route` finds the track the connections
describe: every chain (see :mod:`ferrovia.board.graph`) whose hex list is the connection's, then a
sequence of them where each shares exactly one stop with the next, no track twice and -- when
the recorded ``nodes`` are known -- exactly those stops (18xx.games settles ties pairwise and
prefers the recorded stops; this search is global, so it never loses a route the recorded
stops allow).

:func:`route_revenue` then applies, in 18xx.games' order, the usual route rules (with the
gauges and distance forms the train data says) and raises :class:`~ferrovia.errors.IllegalAction`
naming the rule broken:

- at least two stops; one of them a city with the company's station token;
- a stop *group* at most once (France's hexes are one group);
- a terminal path only at the ends of the route;
- gauge: metre trains never on broad track, other trains never on metre track (dual is both).
  18xx.games checks this per train over the whole route, so a route never changes gauge;
- no stop twice;
- distance: an H train crosses at most N hex sides; M/E/D trains visit at most N large stops
  (cities, ports, France) and any number of towns (``visit`` counts);
- no track reused by the company's routes (a hex side, per lane, or a stop-to-stop path);
- the route may pass *through* a stop only if it does not block the company: an offboard
  (France, ports) always blocks, so it can only end a route; so does a city whose slots are all
  held by other companies.

Revenue: the stops that pay (H trains: all; M: all; E/D: large stops only, towns are skipped;
when more stops could pay than the train allows, the best legal selection as 18xx.games picks
it) summed at the phase's value (a phased revenue such as France's ``yellow_30|green_40|...``
takes the latest colour the phase allows), times the train's multiplier (5D: 2), halved
(rounded down) for a wounded (obsolete) train.  The company's run earns the sum of its routes
plus the income of the private railways it owns (:func:`run_revenue`).

The best routes of a company (exact, issue #6) are searched in :mod:`ferrovia.routes.search`.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ferrovia.board.graph import (
    Chain,
    Stop,
    Tokens,
    TrackGraph,
    blocks,
    chains_from,
    gauge_skip,
    tokened_by,
)
from ferrovia.errors import IllegalAction

LARGE = frozenset({"city", "offboard"})
SMALL = frozenset({"town"})


# ----------------------------------------------------------------------------- trains
@dataclass(frozen=True, slots=True)
class DistanceRow:
    """One 18xx.games distance row: stops of ``kinds`` the train may ``visit`` and ``pay``."""

    kinds: frozenset[str]
    pay: int
    visit: int
    multiplier: int | None = None


@dataclass(frozen=True, slots=True)
class TrainSpec:
    """What a train can do on a route.

    ``distance``: an int is a count of hex sides crossed (1858 H trains); otherwise distance
    rows.  ``gauge``: ``"broad"`` (runs on broad and dual track) or ``"metre"`` (metre and
    dual).  ``obsolete``: a wounded train (half revenue).

    >>> TrainSpec.hexes("2H", 2).distance
    2
    >>> e = TrainSpec.stops("5E", large=(5, 5), small=(99, 0))
    >>> [(sorted(r.kinds), r.visit, r.pay) for r in e.distance]
    [(['town'], 99, 0), (['city', 'offboard'], 5, 5)]
    """

    name: str
    distance: int | tuple[DistanceRow, ...]
    gauge: str = "broad"
    multiplier: int = 1
    obsolete: bool = False
    requires_token: bool = True

    @staticmethod
    def hexes(
        name: str, n: int, *, gauge: str = "broad", multiplier: int = 1, obsolete: bool = False
    ) -> TrainSpec:
        return TrainSpec(name, n, gauge=gauge, multiplier=multiplier, obsolete=obsolete)

    @staticmethod
    def stops(
        name: str,
        *,
        large: tuple[int, int],
        small: tuple[int, int],
        gauge: str = "broad",
        multiplier: int = 1,
        obsolete: bool = False,
    ) -> TrainSpec:
        """A stop-counting train: (visit, pay) of ``large`` (cities, offboards) and ``small``."""
        rows = (
            DistanceRow(SMALL, pay=small[1], visit=small[0]),
            DistanceRow(LARGE, pay=large[1], visit=large[0]),
        )
        return TrainSpec(name, rows, gauge=gauge, multiplier=multiplier, obsolete=obsolete)

    def wounded(self, obsolete: bool = True) -> TrainSpec:
        return TrainSpec(
            self.name, self.distance, self.gauge, self.multiplier, obsolete, self.requires_token
        )

    @property
    def skip_track(self) -> str | None:
        return gauge_skip("metre" if self.gauge in ("metre", "narrow") else "broad")

    @property
    def forbidden_track(self) -> str:
        """The gauge a route of this train may not contain at all."""
        return "broad" if self.gauge in ("metre", "narrow") else "narrow"


def train_spec_from_data(
    name: str,
    distance: Mapping[str, object],
    *,
    gauge: str = "broad",
    multiplier: int | None = None,
    obsolete: bool = False,
) -> TrainSpec:
    """A spec from a ``trains.yaml`` distance (``{hexes: N}``, ``{stops: N}`` or large/small
    stop counts).

    >>> [(sorted(r.kinds), r.visit) for r in train_spec_from_data("3", {"stops": 3}).distance]
    [(['city', 'offboard', 'town'], 3)]
    """
    mult = multiplier or 1
    if distance.get("stops") is not None:
        # N stops of any kind (1830's 2-6 and D): one row over every kind of stop
        n = int(str(distance["stops"]))
        row = DistanceRow(LARGE | SMALL, pay=n, visit=n)
        return TrainSpec(name, (row,), gauge=gauge, multiplier=mult, obsolete=obsolete)
    if "hexes" in distance:
        return TrainSpec.hexes(
            name, int(str(distance["hexes"])), gauge=gauge, multiplier=mult, obsolete=obsolete
        )

    def pair(key: str) -> tuple[int, int]:
        v = distance.get(key) or {}
        if isinstance(v, Mapping):
            return int(v.get("visit", 0)), int(v.get("pay", 0))
        visit = getattr(v, "visit", 0)
        pay = getattr(v, "pay", 0)
        return int(visit), int(pay)

    return TrainSpec.stops(
        name,
        large=pair("large_stops"),
        small=pair("small_stops"),
        gauge=gauge,
        multiplier=mult,
        obsolete=obsolete,
    )


# ----------------------------------------------------------------------------- routes
@dataclass(frozen=True, slots=True)
class RouteSpec:
    """A route as a ``run_routes`` action writes it."""

    train: str
    connections: tuple[tuple[str, ...], ...]
    nodes: tuple[str, ...] | None = None
    revenue: int | None = None  # as recorded, for checks

    @staticmethod
    def from_action(route: Mapping[str, object]) -> RouteSpec:
        """One route of a ``run_routes`` action; :class:`IllegalAction` if it is malformed."""
        train = route.get("train")
        conns = route.get("connections")
        if not isinstance(train, str) or not isinstance(conns, list):
            raise IllegalAction(
                "a run_routes route needs 'train' (a train id) and 'connections' (hex lists)",
                rule="run_routes format",
            )
        if not all(isinstance(c, list) and c for c in conns):
            raise IllegalAction(
                f"train {train}: each connection must be a non-empty list of hexes",
                rule="run_routes format",
            )
        nodes = route.get("nodes")
        rev = route.get("revenue")
        return RouteSpec(
            train=train,
            connections=tuple(tuple(str(h) for h in c) for c in conns),
            nodes=tuple(str(n) for n in nodes) if isinstance(nodes, list) else None,
            revenue=int(rev) if isinstance(rev, int) else None,
        )


@dataclass(frozen=True, slots=True)
class Route:
    """Track in place: stops ``stops[0] .. stops[-1]`` joined by ``chains`` (one fewer)."""

    stops: tuple[int, ...]
    chains: tuple[Chain, ...]

    @property
    def keys(self) -> frozenset[int]:
        out: set[int] = set()
        for c in self.chains:
            out |= c.keys
        return frozenset(out)

    def connections(self) -> list[list[str]]:
        """The ``connections`` 18xx.games would write (hex lists, walked stop to stop)."""
        out = []
        for i, c in enumerate(self.chains):
            hexes = list(c.hexes)
            if c.a != self.stops[i] and len(hexes) > 1:
                hexes.reverse()
            out.append(hexes)
        return out


@dataclass(frozen=True, slots=True)
class RouteResult:
    train: str
    revenue: int
    route: Route
    paying: tuple[int, ...]  # stop ids that score

    def describe(self, graph: TrackGraph) -> str:
        return "-".join(graph.stops[s].hex for s in self.route.stops)


@dataclass(frozen=True)
class RunResult:
    """A company's whole run: each route's revenue, the private income and the total."""

    routes: tuple[RouteResult, ...]
    private_income: int
    total: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", sum(r.revenue for r in self.routes) + self.private_income)


@dataclass(frozen=True, slots=True)
class RouteRules:
    """Per-game route hooks (what data cannot say); :data:`DEFAULT_ROUTE_RULES` when the
    caller has no game (a game's come from
    :func:`ferrovia.lib18xx.operating.routing.route_rules`)."""

    #: an int distance counts hex sides crossed (True) or stops visited (False, 18xx default)
    int_distance_counts_hex_sides: bool = True
    #: a wounded (obsolete) train's route revenue is divided by this (rounded down); 1 = no effect
    wounded_divisor: int = 2


DEFAULT_ROUTE_RULES = RouteRules()

_RULE_STOPS = "a route connects at least two stops"
_RULE_TOKEN = "a route includes a city with the company's station marker"
_RULE_ONCE = "a route reaches each city, port or France at most once"
_RULE_GAUGE = "metre trains run on metre or dual track, other trains on broad or dual"
_RULE_TERMINAL = "a route that visits a port or France must terminate there"
_RULE_REUSE = "routes may not share track segments"
_RULE_BLOCKED = "a route may not pass through a city filled by other companies"
_RULE_DISTANCE = "a train runs at most its distance"
_RULE_TRACK = "a route is a continuous track segment"


def _illegal(message: str, rule: str) -> IllegalAction:
    return IllegalAction(message, rule=rule)


def _stops_of_hex(graph: TrackGraph, hex_label: str) -> tuple[int, ...]:
    return graph.hex_stops.get(hex_label.split()[0], ())


#: (connection, track skipped) -> (its hexes' names, the fragments of its hexes then, its
#: chains): a company runs the same connections turn after turn while lays elsewhere make
#: new graphs
_CHAINS: dict[
    tuple[tuple[str, ...], str | None],
    tuple[tuple[str, ...], tuple[Any, ...], tuple[Chain, ...]],
] = {}
_CHAINS_MAX = 4096


def connection_chains(
    graph: TrackGraph, connection: Sequence[str], skip: str | None
) -> list[Chain]:
    """Chains whose 18xx.games hex list is ``connection``, shortest first.

    A chain runs only on the paths of the connection's own hexes and the links between them,
    which their fragments fix (ids included: an update keeps an unchanged hex's fragment and
    ids, as ``graph._links_of`` relies on too), so the chains found for the same hexes' same
    fragments in an earlier graph are the answer again."""
    if not connection:
        return []
    key = (tuple(connection), skip)
    frags = graph.fragments
    hit = _CHAINS.get(key)
    if hit is not None:
        # (a plain loop: this check runs for every connection of every run checked)
        for h, f in zip(hit[0], hit[1], strict=True):
            if frags.get(h) is not f:
                break
        else:
            return list(hit[2])
    names = tuple([h.split()[0] for h in connection])
    where = tuple([frags.get(h) for h in names])
    found = [
        c
        for start in _stops_of_hex(graph, connection[0])
        for c in chains_from(graph, start, skip, prefix=connection)
        if graph.stops[c.b].hex == names[-1]
    ]
    found.sort(key=lambda c: len(c.paths))
    if None not in where:
        if len(_CHAINS) > _CHAINS_MAX:
            _CHAINS.clear()
        _CHAINS[key] = (names, where, tuple(found))
    return found


def resolve_route(
    graph: TrackGraph,
    spec: RouteSpec,
    train: TrainSpec,
    *,
    avoid: frozenset[int] = frozenset(),
    company: str | None = None,
    tokens: Tokens | None = None,
) -> Route:
    """The track a route's connections describe (see the module docstring).

    ``avoid``: track keys used by the company's other routes (preferred not to reuse).
    Raises :class:`IllegalAction` when the connections are not track of this train's gauge.
    """
    skip = train.skip_track
    options = [connection_chains(graph, c, skip) for c in spec.connections]
    for conn, opts in zip(spec.connections, options, strict=True):
        if not opts:
            raise _illegal(
                f"train {spec.train}: no {train.gauge} track runs {'-'.join(conn)} stop to stop",
                _RULE_TRACK,
            )
    wanted: set[int] | None = None
    if spec.nodes is not None and all(n in graph.by_signature for n in spec.nodes):
        wanted = {graph.by_signature[n] for n in spec.nodes}

    def assemble(restrict: set[int] | None, avoid_keys: frozenset[int]) -> Route | None:
        if len(options) == 1:
            # 18xx.games takes the first chain with the company's token (then the token
            # check reports a chain without one)
            for need_token in (True, False):
                for c in options[0]:
                    if restrict is not None and not {c.a, c.b} <= restrict:
                        continue
                    if c.keys & avoid_keys:
                        continue
                    if need_token and company is not None and tokens is not None:
                        ends = (graph.stops[c.a], graph.stops[c.b])
                        if not any(tokened_by(s, company, tokens) for s in ends):
                            continue
                    return Route((c.a, c.b), (c,))
            return None

        def search(
            i: int, prev: Chain, joint: int | None, used: frozenset[int]
        ) -> list[Chain] | None:
            if i == len(options):
                return []
            for c in options[i]:
                if restrict is not None and not {c.a, c.b} <= restrict:
                    continue
                if c.keys & used:
                    continue
                shared = {prev.a, prev.b} & {c.a, c.b}
                if len(shared) != 1:
                    continue
                middle = next(iter(shared))
                if joint is not None and middle == joint:
                    continue  # must continue from the far end of prev
                rest = search(i + 1, c, middle, used | c.keys)
                if rest is not None:
                    return [c, *rest]
            return None

        for first in options[0]:
            if restrict is not None and not {first.a, first.b} <= restrict:
                continue
            if first.keys & avoid_keys:
                continue
            rest = search(1, first, None, avoid_keys | first.keys)
            if rest is None:
                continue
            chains = [first, *rest]
            # order the stops along the route
            second = chains[1]
            start = first.a if first.b in (second.a, second.b) else first.b
            stops = [start]
            for c in chains:
                stops.append(c.b if stops[-1] == c.a else c.a)
            return Route(tuple(stops), tuple(chains))
        return None

    attempts: list[tuple[set[int] | None, frozenset[int]]] = []
    if wanted is not None:
        attempts += [(wanted, avoid), (wanted, frozenset())]
    attempts += [(None, avoid), (None, frozenset())]
    for restrict, avoid_keys in attempts:
        route = assemble(restrict, avoid_keys)
        if route is not None:
            return route
    raise _illegal(
        f"train {spec.train}: the connections {[list(c) for c in spec.connections]} do not "
        "join into one route",
        _RULE_TRACK,
    )


# ----------------------------------------------------------------------------- revenue
def _kind_row(train: TrainSpec, kind: str) -> int | None:
    # 18xx.games sorts rows by how many kinds they list, and a stop takes the first that fits
    # (the index is in train.distance; worked out once per train, see _rows_of)
    return _rows_of(train)[3].get(kind)


def stop_value(stop: Stop, train: TrainSpec, phase: Sequence[str]) -> int:
    """What ``stop`` pays ``train`` in a phase allowing the tile colours ``phase`` (its row's
    multiplier, or the train's)."""
    mult = train.multiplier
    if not isinstance(train.distance, int):
        row = _kind_row(train, stop.kind)
        if row is not None:
            m = train.distance[row].multiplier
            mult = m if m is not None else train.multiplier
    return mult * stop.revenue.for_phase(phase)


def check_distance(graph: TrackGraph, route: Route, train: TrainSpec, rules: RouteRules) -> None:
    if isinstance(train.distance, int):
        if rules.int_distance_counts_hex_sides:
            used = sum(c.edges for c in route.chains)
            if used > train.distance:
                raise _illegal(
                    f"{used} is too many hex edges for {train.name} train", _RULE_DISTANCE
                )
        else:
            used = sum(graph.stops[s].visit_cost for s in route.stops)
            if used > train.distance:
                raise _illegal(f"{used} is too many stops for {train.name} train", _RULE_DISTANCE)
        return
    rows = train.distance
    left = [r.visit for r in rows]
    by_kind: dict[str, int] = {}
    for s in route.stops:
        st = graph.stops[s]
        by_kind[st.kind] = by_kind.get(st.kind, 0) + st.visit_cost
    # kinds with fewer possible rows are placed first, each into its rows in order
    kind_rows = {k: [i for i, r in enumerate(rows) if k in r.kinds] for k in by_kind}
    for kind in sorted(by_kind, key=lambda k: len(kind_rows[k])):
        num = by_kind[kind]
        for i in kind_rows[kind]:
            if left[i] <= 0:
                continue
            take = min(num, left[i])
            left[i] -= take
            num -= take
            if num <= 0:
                break
        if num > 0:
            raise _illegal(f"route has too many stops for a {train.name} train", _RULE_DISTANCE)


#: id(train) -> (the train, :func:`_rows_of` of it): the spec kept, so the id is its own
_Rows = tuple[tuple[DistanceRow, ...], dict[str, int], bool, dict[str, int]]
_ROWS: dict[int, tuple[TrainSpec, _Rows]] = {}


def _rows_of(train: TrainSpec) -> _Rows:
    """A stop-counting train's distance rows as :func:`paying_stops` reads them: sorted by
    how many kinds they list (as 18xx.games sorts them), each kind's first row among those,
    whether no two rows share a kind, and each kind's first row as an index of
    ``train.distance`` (:func:`_kind_row`) -- the same for every route the train runs,
    worked out once."""
    hit = _ROWS.get(id(train))
    if hit is not None and hit[0] is train:
        return hit[1]
    distance = train.distance
    assert not isinstance(distance, int)
    order = sorted(range(len(distance)), key=lambda i: len(distance[i].kinds))
    rows = tuple(distance[i] for i in order)
    first_row: dict[str, int] = {}
    first_index: dict[str, int] = {}
    for at, i in enumerate(order):
        for kind in distance[i].kinds:
            first_row.setdefault(kind, at)
            first_index.setdefault(kind, i)
    disjoint = all(not (a.kinds & b.kinds) for a, b in itertools.combinations(rows, 2))
    if len(_ROWS) > 256:
        _ROWS.clear()
    found = (rows, first_row, disjoint, first_index)
    _ROWS[id(train)] = (train, found)
    return found


def paying_stops(
    graph: TrackGraph,
    stops: Sequence[int],
    train: TrainSpec,
    phase: Sequence[str],
    company: str,
    tokens: Tokens,
) -> tuple[int, ...]:
    """The stops that score (18xx.games ``compute_stops``: the best legal selection)."""
    if isinstance(train.distance, int) or not stops:
        return tuple(stops)
    rows, first_row, disjoint, _ = _rows_of(train)
    # fast exact case: every stop's row has room for all its stops (or pays nothing)
    counts = [0] * len(rows)
    row_of: list[int | None] = []
    for s in stops:
        r = first_row.get(graph.stops[s].kind)
        row_of.append(r)
        if r is not None:
            counts[r] += 1
    if disjoint and all(c <= rows[i].pay or rows[i].pay == 0 for i, c in enumerate(counts)):
        chosen = tuple(
            s for s, r in zip(stops, row_of, strict=True) if r is not None and rows[r].pay > 0
        )
        if not train.requires_token or any(
            tokened_by(graph.stops[s], company, tokens) for s in chosen
        ):
            return chosen
    # general case, as 18xx.games: the most stops that fit, best revenue among those
    max_n = min(sum(r.pay for r in rows), len(stops))
    for n in range(max_n, 0, -1):
        best: tuple[int, tuple[int, ...]] | None = None
        for combo in itertools.combinations(stops, n):
            if train.requires_token and not any(
                tokened_by(graph.stops[s], company, tokens) for s in combo
            ):
                continue
            used = [0] * len(rows)
            ok = True
            for s in combo:
                kind = graph.stops[s].kind
                r = next(
                    (i for i, row in enumerate(rows) if kind in row.kinds and used[i] < row.pay),
                    None,
                )
                if r is None:
                    ok = False
                    break
                used[r] += 1
            if not ok:
                continue
            value = sum(stop_value(graph.stops[s], train, phase) for s in combo)
            if best is None or value > best[0]:
                best = (value, combo)
        if best is not None and best[0] > 0:
            return best[1]
    return ()


def route_revenue(
    graph: TrackGraph,
    route: Route,
    train: TrainSpec,
    *,
    phase: Sequence[str],
    company: str,
    tokens: Tokens,
    other_keys: frozenset[int] = frozenset(),
    rules: RouteRules = DEFAULT_ROUTE_RULES,
) -> tuple[int, tuple[int, ...]]:
    """(revenue, paying stops) of ``route`` run by ``train``; :class:`IllegalAction` if illegal.

    ``phase``: the tile colours the phase allows (``["yellow", "green"]``); ``other_keys``:
    track keys of the company's other routes this run.
    """
    stops = [graph.stops[s] for s in route.stops]
    if len(set(route.stops)) < 2:
        raise _illegal("route must have at least 2 stops", _RULE_STOPS)
    if not any(tokened_by(s, company, tokens) for s in stops):
        raise _illegal(f"route must contain a station marker of {company}", _RULE_TOKEN)
    groups: set[str] = set()
    for s in dict.fromkeys(route.stops):
        for grp in graph.stops[s].groups:
            if grp in groups:
                raise _illegal(f"cannot use group {grp} more than once", _RULE_ONCE)
            groups.add(grp)
    ordered: list[int] = []
    for i, c in enumerate(route.chains):
        ordered.extend(c.paths if c.a == route.stops[i] else reversed(c.paths))
    if len(ordered) >= 3 and any(graph.paths[p].terminal for p in ordered[1:-1]):
        raise _illegal("route cannot pass through a terminal", _RULE_TERMINAL)
    forbidden = train.forbidden_track
    for c in route.chains:
        if forbidden in c.tracks:
            raise _illegal(
                f"a {train.name} train's route cannot contain {forbidden} gauge track",
                _RULE_GAUGE,
            )
    if len(set(route.stops)) != len(route.stops):
        dup = next(s for s in stops if route.stops.count(s.id) > 1)
        raise _illegal(f"cannot use {dup.hex} twice", _RULE_ONCE)
    check_distance(graph, route, train, rules)
    seen: set[int] = set(other_keys)
    for c in route.chains:
        for p in c.paths:
            for k in graph.paths[p].keys:
                if k in seen:
                    raise _illegal(
                        f"route cannot reuse track on {graph.key_names[k][0]}", _RULE_REUSE
                    )
                seen.add(k)
    for st in stops[1:-1]:
        if blocks(st, company, tokens):
            why = "an offboard" if st.kind == "offboard" else "a city full of other companies"
            raise _illegal(f"route passes through {st.hex}, {why}", _RULE_BLOCKED)
    paying = paying_stops(graph, route.stops, train, phase, company, tokens)
    revenue = sum(stop_value(graph.stops[s], train, phase) for s in paying)
    if train.obsolete and rules.wounded_divisor > 1:
        revenue //= rules.wounded_divisor
    return revenue, paying


def run_revenue(
    graph: TrackGraph,
    routes: Sequence[RouteSpec],
    trains: Mapping[str, TrainSpec],
    *,
    phase: Sequence[str],
    company: str,
    tokens: Tokens,
    private_income: int = 0,
    rules: RouteRules = DEFAULT_ROUTE_RULES,
) -> RunResult:
    """Check and value a whole ``run_routes``: every route, no shared track, plus privates.

    ``trains``: train id (``"2H-1"``) -> its spec; ``private_income``: the income of the
    private railways the company owns, which 18xx.games adds to the run's revenue.
    Raises :class:`IllegalAction` for an illegal route, naming the train.
    """
    seen_trains: set[str] = set()
    resolved: list[tuple[RouteSpec, TrainSpec, Route]] = []
    used: frozenset[int] = frozenset()
    for spec in routes:
        if spec.train in seen_trains:
            raise _illegal(f"train {spec.train} runs twice", "each train runs one route")
        seen_trains.add(spec.train)
        train = trains.get(spec.train)
        if train is None:
            raise _illegal(f"{company} has no train {spec.train}", "run own trains")
        route = resolve_route(graph, spec, train, avoid=used, company=company, tokens=tokens)
        used = used | route.keys
        resolved.append((spec, train, route))
    results: list[RouteResult] = []
    all_keys = [r.keys for _, _, r in resolved]
    for i, (spec, train, route) in enumerate(resolved):
        others = frozenset().union(*(k for j, k in enumerate(all_keys) if j != i))
        try:
            revenue, paying = route_revenue(
                graph,
                route,
                train,
                phase=phase,
                company=company,
                tokens=tokens,
                other_keys=others,
                rules=rules,
            )
        except IllegalAction as exc:
            raise IllegalAction(f"train {spec.train}: {exc.message}", rule=exc.rule) from None
        results.append(RouteResult(spec.train, revenue, route, paying))
    return RunResult(tuple(results), private_income)
