"""Station tokens on the map and what they block: a city full of other companies' markers, an
offboard always (:func:`blocks`, :func:`passable_stops` for a whole map)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ferrovia.board.graph.model import Stop, TrackGraph

Tokens = Mapping[str, Sequence[Sequence[str | None]]]
"""Station tokens on the map: hex -> per city (tile city order) -> per slot, company or None."""


def city_tokens(tokens: Tokens, stop: Stop) -> list[str]:
    """Companies with a station token in the city ``stop``."""
    if stop.city_number is None:
        return []
    per_city = tokens.get(stop.hex, ())
    if stop.city_number >= len(per_city):
        return []
    return [t for t in per_city[stop.city_number] if t]


def blocks(stop: Stop, company: str | None, tokens: Tokens) -> bool:
    """Whether a route or a walk of ``company`` may not pass *through* ``stop``."""
    if stop.kind == "offboard":
        return True
    if stop.kind != "city" or company is None:
        return False
    held = city_tokens(tokens, stop)
    return company not in held and len(held) >= stop.slots


def _stop_passable(s: Stop) -> bool:
    """``not blocks(s, company, {})`` for a company: with no station there, a city blocks only
    when it has no slot, an offboard always."""
    return s.kind != "offboard" and (s.kind != "city" or s.slots > 0)


def _passable_base(graph: TrackGraph) -> list[bool]:
    """:func:`_stop_passable` of every stop, by id (kept on the graph: a walk copies it)."""
    base = graph.walk_passable
    if base is None:
        base = graph.walk_passable = [_stop_passable(s) for s in graph.stops]
    return base


#: (hex, city number) of each of a company's stations, in the map's order; and the cities with
#: markers, (hex, city number, markers there; -1 where one is the company's own)
_Stations = tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int, int], ...]]


#: company -> (a copy of the map's stations then, :func:`_stations` of them)
_STATIONS: dict[str, tuple[dict[str, list[list[str | None]]], _Stations]] = {}


def _stations(company: str, tokens: Tokens) -> _Stations:
    """Where ``company`` has stations and which cities hold markers (see :data:`_Stations`),
    read from the map's stations ``tokens``.  Kept per company with a copy of what it was read
    from, compared whole on each use: the stations change far less often than walks are
    asked for (the lists are the game state's own, changed in place, hence the copy)."""
    hit = _STATIONS.get(company)
    if hit is not None and hit[0] == tokens:
        return hit[1]
    own: list[tuple[str, int]] = []
    marked: list[tuple[str, int, int]] = []
    for h, per_city in tokens.items():
        for n, slots in enumerate(per_city):
            if company in slots:
                own.append((h, n))
            if company and company in slots:
                marked.append((h, n, -1))
                continue
            # the markers there (no list made)
            held = len(slots) - slots.count(None) - slots.count("")
            if held:
                marked.append((h, n, held))
    found = (tuple(own), tuple(marked))
    if len(_STATIONS) > 64:
        _STATIONS.clear()
    _STATIONS[company] = ({h: list(map(list, per_city)) for h, per_city in tokens.items()}, found)
    return found


def passable_stops(
    graph: TrackGraph, company: str | None, tokens: Tokens, stations: _Stations | None = None
) -> list[bool]:
    """``not blocks(stop, company, tokens)`` for every stop of ``graph``, by id: a city looked
    at only where its hex holds station tokens (a walk asks this for the whole map, and
    most of it holds none).

    >>> from ferrovia.board.graph import build_graph
    >>> from ferrovia.notation import parse
    >>> g = build_graph({"A1": (parse("city=revenue:20;path=a:0,b:_0"), 0),
    ...                  "A3": (parse("city=revenue:20;path=a:3,b:_0"), 0)})
    >>> passable_stops(g, "X", {"A1": [["Y"]]}), passable_stops(g, "Y", {"A1": [["Y"]]})
    ([False, True], [True, True])
    """
    stops = graph.stops
    if company is None:
        return [s.kind != "offboard" for s in stops]
    out = list(_passable_base(graph))
    hex_cities = graph.hex_cities
    # (city_tokens and blocks, inline: per city with markers, per walk.)  A hex's cities are
    # in city-number order, so the n-th is city number n
    if stations is None:
        stations = _stations(company, tokens)
    for h, n, held in stations[1]:
        cities = hex_cities.get(h)
        if cities is not None and n < len(cities):
            sid = cities[n]
            out[sid] = held < 0 or held < stops[sid].slots
    return out


def tokened_by(stop: Stop, company: str, tokens: Tokens) -> bool:
    return company in city_tokens(tokens, stop)
