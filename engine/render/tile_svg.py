"""One hex drawn from the tile model: track, cities, towns, revenues, labels, terrain, borders.

Drawing happens in two steps. :func:`layout_tile` decides where everything goes (node
positions, track curves, then each text item in the first free spot of its candidate list, so
no text covers a revenue circle, a city or track when there is room); :func:`draw_tile` turns
the layout into SVG. Both work in the hex's own frame (centre 0,0, corner radius 100, flat
top, edge 0 at the bottom); ``rotation`` turns the tile clockwise by 60° steps while text
stays upright.

Track styles follow the 1858 rulebook (§9.2): broad gauge a solid black line, metre gauge
alternate black and white, dual gauge a white line bordered with black; track printed for a
private railway's future line is dashed.

>>> from ferrovia.notation import parse
>>> svg = draw_tile(parse("city=revenue:20;path=a:0,b:_0;path=a:_0,b:3"), "yellow")
>>> svg.count('class="slot"'), svg.count('class="track broad"')
(1, 2)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ferrovia.notation import models as m
from ferrovia.render import geometry as g
from ferrovia.render.svg import el

# Board colours (the shades players know from 18xx.games boards).
COLOURS: dict[str, str] = {
    "white": "#EAE0C8",
    "yellow": "#fde900",
    "green": "#71bf44",
    "brown": "#cb7745",
    "gray": "#bcbdc0",
    "grey": "#bcbdc0",
    "red": "#ec232a",
    "blue": "#35A7FF",
    "black": "#000000",
    "purple": "#A79ECD",
    "orange": "#FFA500",
    "sepia": "#6b4b35",
    "salmon": "#e57373",
    "pink": "#ff8ed2",
    "navy": "#2443c1",
    "lightblue": "#add8e6",
    "gray60": "#96989d",
    "gray50": "#7b7d84",
    "gray40": "#626569",
}

PROVINCE_ORANGE = "#f08c00"
IMPASSABLE_BLUE = "#1f5fbf"
MOUNTAIN_FILL = "#cb7745"
WATER_STROKE = "#147ebe"

TRACK_WIDTH = 8.0
LANE_SPACING = 7.0
SLOT_RADIUS = 25.0
TOWN_DOT_RADIUS = 10.0
REVENUE_RADIUS = 15.0
FONT = "Arial, Helvetica, sans-serif"


def colour(name: str | None, default: str = "white") -> str:
    """SVG fill for a board colour name (``#rrggbb`` passes through)."""
    if not name:
        return COLOURS[default]
    if name.startswith("#"):
        return name
    return COLOURS.get(name.lower(), COLOURS["gray"])


def text_colour_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (a ``#rrggbb`` colour)."""
    value = colour(fill)
    if len(value) == 4:
        value = "#" + "".join(c * 2 for c in value[1:])
    try:
        r, gg, b = (int(value[i : i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        return "black"
    return "black" if (0.299 * r + 0.587 * gg + 0.114 * b) > 140 else "white"


# ----------------------------------------------------------------------------- inputs
@dataclass(frozen=True)
class Token:
    """A station marker in a city slot: the company's symbol on its colour."""

    symbol: str
    fill: str
    text: str = "white"


@dataclass(frozen=True)
class HexExtras:
    """What a map or a game state adds to a tile: name, tokens, reservations, markers.

    ``tokens`` and ``reserved`` are keyed by city index (the city's place among the tile's
    cities), each a list by slot. ``markers`` are private-railway symbols shown on the hex;
    ``icon_names`` maps an icon image (``1858/BM``) to the text to show (``B&M``).
    """

    name: str | None = None
    tokens: Mapping[int, Sequence[Token | None]] = field(default_factory=dict)
    reserved: Mapping[int, Sequence[str | None]] = field(default_factory=dict)
    markers: Sequence[str] = ()
    icon_names: Mapping[str, str] = field(default_factory=dict)
    number: str | None = None  # tile number, shown small in a corner (tile manifests)
    count: str | None = None  # remaining count, shown next to the number
    show_zero_revenue: bool = False
    tooltip: str | None = None  # shown on hover (an SVG <title>): "B9 (Porto): tile 201, ..."


# ----------------------------------------------------------------------------- layout
@dataclass(frozen=True)
class TrackPiece:
    """One drawn stretch of track."""

    begin: g.Point
    end: g.Point
    arc: g.Arc | None
    gauge: str  # broad, narrow, dual, future, thin
    kind: str = "line"  # line, terminal, offboard
    terminal_style: int = 1
    edge: float = 0.0  # for terminal/offboard shapes: the edge they start at (rotated)
    shift: float = 0.0  # lane offset across the track, for tapered shapes

    def d(self) -> str:
        b, e = self.begin, self.end
        if self.arc is None:
            return f"M {g.fmt(b[0])} {g.fmt(b[1])} L {g.fmt(e[0])} {g.fmt(e[1])}"
        r = g.fmt(self.arc.radius)
        return (
            f"M {g.fmt(b[0])} {g.fmt(b[1])} A {r} {r} 0 0 {self.arc.sweep} "
            f"{g.fmt(e[0])} {g.fmt(e[1])}"
        )


@dataclass(frozen=True)
class NodePlace:
    """Where a node sits and how it is drawn."""

    index: int
    part: m.Node
    at: g.Point
    heading: g.Point | None = None  # along the track, for bar towns


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle occupied by a text item (centre, half sizes)."""

    cx: float
    cy: float
    hw: float
    hh: float

    def hits_circle(self, x: float, y: float, r: float) -> bool:
        dx = max(abs(x - self.cx) - self.hw, 0.0)
        dy = max(abs(y - self.cy) - self.hh, 0.0)
        return dx * dx + dy * dy < r * r

    def hits_box(self, other: Box) -> bool:
        return abs(self.cx - other.cx) < self.hw + other.hw and abs(self.cy - other.cy) < (
            self.hh + other.hh
        )


@dataclass
class Placed:
    """A text-like item placed by the layout: what it is, where, and its box."""

    kind: str  # revenue, phase_revenue, label, terrain, name, icon, marker, future_label, ...
    box: Box
    text: str = ""
    data: object = None


@dataclass
class Layout:
    nodes: list[NodePlace]
    track: list[TrackPiece]
    items: list[Placed]
    circles: list[tuple[float, float, float]]  # occupied discs (cities, towns, track samples)


def _loc_value(loc: str | None) -> float | None:
    if loc is None or loc == "center":
        return None
    try:
        return float(loc)
    except ValueError:
        return None


def _edge_dir(edge: float) -> g.Point:
    x, y = g.edge_point(edge, 1.0)
    return (x, y)


def _mean_edge(edges: Sequence[int]) -> float | None:
    """The (possibly fractional) edge direction averaging ``edges``; None if they cancel."""
    sx = sum(_edge_dir(e)[0] for e in edges)
    sy = sum(_edge_dir(e)[1] for e in edges)
    if math.hypot(sx, sy) < 0.3:
        return None
    # edge_point(e) = (-sin(60e), cos(60e)) -> e = atan2(-x, y) / 60°
    return (math.degrees(math.atan2(-sx, sy)) / 60.0) % 6


def _rot_edge(edge: int, rotation: int) -> int:
    return (edge + rotation) % 6


def _inside_hex(box: Box, margin: float = 3.0) -> bool:
    limit_y = g.APOTHEM - margin
    for sx in (-1, 1):
        for sy in (-1, 1):
            x, y = abs(box.cx + sx * box.hw), abs(box.cy + sy * box.hh)
            if y > limit_y or math.sqrt(3) * x + y > math.sqrt(3) * (g.RADIUS - margin):
                return False
    return True


def text_box(text: str, size: float, cx: float, cy: float) -> Box:
    """Approximate box of ``text`` at font ``size`` centred on (cx, cy)."""
    width = max(len(text), 1) * size * 0.58
    return Box(cx, cy, width / 2 + 1, size * 0.55)


class _Occupancy:
    def __init__(self) -> None:
        self.circles: list[tuple[float, float, float]] = []
        self.boxes: list[Box] = []
        self.weights: list[int] = []

    def _circle_hits(self, box: Box, first_only: bool) -> int:
        # inlined Box.hits_circle with early outs: this loop is the layout's hot spot
        cx, cy, hw, hh = box.cx, box.cy, box.hw, box.hh
        hits = 0
        for x, y, r in self.circles:
            dx = abs(x - cx) - hw
            if dx >= r:
                continue
            dy = abs(y - cy) - hh
            if dy >= r:
                continue
            dx = dx if dx > 0 else 0.0
            dy = dy if dy > 0 else 0.0
            if dx * dx + dy * dy < r * r:
                hits += 1
                if first_only:
                    return hits
        return hits

    def free(self, box: Box) -> bool:
        return not any(box.hits_box(b) for b in self.boxes) and not self._circle_hits(box, True)

    def cost(self, box: Box) -> int:
        # covering a revenue is far worse than touching track or another text
        return self._circle_hits(box, False) + sum(
            w for b, w in zip(self.boxes, self.weights, strict=True) if box.hits_box(b)
        )

    def add(self, box: Box, weight: int) -> None:
        self.boxes.append(box)
        self.weights.append(weight)

    def place(self, candidates: Sequence[Box]) -> Box:
        inside = [b for b in candidates if _inside_hex(b)] or list(candidates)
        for box in inside:
            if self.free(box):
                return box
        return min(inside, key=self.cost)


# Spots for free-standing items, best first: a ring half-way out, then nearer the corners.
_RING = [
    (0.0, -55.0),
    (0.0, 55.0),
    (-48.0, -30.0),
    (48.0, -30.0),
    (-48.0, 30.0),
    (48.0, 30.0),
    (-62.0, 0.0),
    (62.0, 0.0),
    (-30.0, -62.0),
    (30.0, -62.0),
    (-30.0, 62.0),
    (30.0, 62.0),
    (0.0, -70.0),
    (0.0, 70.0),
    (-70.0, -15.0),
    (70.0, -15.0),
    (-70.0, 15.0),
    (70.0, 15.0),
    (-20.0, -40.0),
    (20.0, -40.0),
    (-20.0, 40.0),
    (20.0, 40.0),
    (0.0, 0.0),
]


def _spots(prefer: Sequence[g.Point] = ()) -> list[g.Point]:
    return [*prefer, *_RING]


def _lane_shift(lane: m.Lane | None) -> float:
    if lane is None or lane.width <= 1:
        return 0.0
    return ((lane.index * 2) - lane.width + 1) * (TRACK_WIDTH + LANE_SPACING) / 2.0


def _shifted(point: g.Point, edge: float, shift: float) -> g.Point:
    """Move a track end sideways along its hex side (lanes)."""
    if not shift:
        return point
    theta = math.radians(edge * 60.0)
    return (point[0] + shift * math.cos(theta), point[1] + shift * math.sin(theta))


def _expand_lanes(path: m.Path) -> list[tuple[m.Path, m.Lane | None, m.Lane | None]]:
    if path.lanes and path.lanes > 1:
        return [
            (path, m.Lane(path.lanes, i), m.Lane(path.lanes, path.lanes - 1 - i))
            for i in range(path.lanes)
        ]
    return [(path, path.a_lane, path.b_lane)]


def _place_nodes(tile: m.Tile, rotation: int) -> list[NodePlace]:
    nodes = tile.nodes
    all_paths = tile.paths + tile.future_paths
    exits: dict[int, list[int]] = {i: [] for i in range(len(nodes))}
    for path in all_paths:
        ends = path.ends
        for here, there in (ends, ends[::-1]):
            if isinstance(here, m.NodeRef) and isinstance(there, m.Edge):
                if here.index in exits:
                    exits[here.index].append(_rot_edge(there.num, rotation))
    stops = [i for i, n in enumerate(nodes) if not isinstance(n, m.Junction | m.Offboard)]
    places: dict[int, NodePlace] = {}
    used_dirs: list[float] = []
    free_nodes: list[int] = []
    for i, node in enumerate(nodes):
        loc = _loc_value(getattr(node, "loc", None))
        ex = sorted(set(exits[i]))
        if isinstance(node, m.Junction | m.Offboard) or getattr(node, "loc", None) == "center":
            places[i] = NodePlace(i, node, (0.0, 0.0))
            continue
        if loc is not None:
            loc = (loc + rotation) % 6
            dist = 50.0 if isinstance(node, m.City) else 45.0
            places[i] = NodePlace(i, node, g.edge_point(loc, dist), _heading_across(loc))
            used_dirs.append(loc)
            continue
        if isinstance(node, m.Town) and len(ex) == 2:
            begin = g.edge_point(ex[0])
            mid, heading = g.arc_midpoint(begin, g.towards_centre(begin), g.edge_point(ex[1]))
            places[i] = NodePlace(i, node, mid, heading)
            if math.hypot(*mid) > 5:
                used_dirs.append(_mean_edge(ex) or 0.0)
            continue
        if len(stops) == 1:
            places[i] = NodePlace(i, node, (0.0, 0.0), _heading_from_exits(ex))
            continue
        if ex:
            direction = _mean_edge(ex)
            if direction is None:
                direction = float(ex[0])
            dist = 50.0 if isinstance(node, m.City) else 45.0
            if isinstance(node, m.City) and node.slots >= 2:
                dist = 40.0
            places[i] = NodePlace(i, node, g.edge_point(direction, dist), _heading_from_exits(ex))
            used_dirs.append(direction)
            continue
        free_nodes.append(i)
    # nodes with neither exits nor a location: spread them where nothing else points
    options = [0.0, 3.0, 1.5, 4.5, 1.0, 4.0, 2.0, 5.0, 2.5, 5.5, 0.5, 3.5]
    for i in free_nodes:
        node = nodes[i]
        if len(stops) == 1:
            places[i] = NodePlace(i, node, (0.0, 0.0))
            continue

        def clearance(d: float) -> float:
            return min((min(abs(d - u) % 6, 6 - abs(d - u) % 6) for u in used_dirs), default=6.0)

        best = max(options, key=clearance)
        used_dirs.append(best)
        dist = 45.0 if isinstance(node, m.City) and node.slots < 2 else 40.0
        places[i] = NodePlace(i, node, g.edge_point(best, dist))
    result = [places[i] for i in range(len(nodes))]
    return _separate(result)


def _heading_across(loc: float) -> g.Point:
    x, y = g.edge_point(loc, 1.0)
    return (x, y)


def _heading_from_exits(ex: Sequence[int]) -> g.Point | None:
    if len(ex) == 1:
        return _edge_dir(ex[0])
    return None


def _separate(places: list[NodePlace]) -> list[NodePlace]:
    """Two stops drawn on the same spot (two straight towns crossing): slide them apart."""
    out = list(places)
    for a in range(len(out)):
        for b in range(a + 1, len(out)):
            pa, pb = out[a], out[b]
            if isinstance(pa.part, m.Junction | m.Offboard) or isinstance(
                pb.part, m.Junction | m.Offboard
            ):
                continue
            if math.dist(pa.at, pb.at) >= 24:
                continue
            for idx, sign in ((a, -1.0), (b, 1.0)):
                p = out[idx]
                hx, hy = p.heading or (1.0, 0.0)
                norm = math.hypot(hx, hy) or 1.0
                out[idx] = NodePlace(
                    p.index,
                    p.part,
                    (p.at[0] + sign * 22 * hx / norm, p.at[1] + sign * 22 * hy / norm),
                    p.heading,
                )
    return out


def _track(tile: m.Tile, rotation: int, places: list[NodePlace]) -> list[TrackPiece]:
    pieces: list[TrackPiece] = []
    for path in (*tile.paths, *tile.future_paths):
        gauge = str(path.track)
        for p, a_lane, b_lane in _expand_lanes(path):
            pieces.extend(_path_pieces(tile, p, rotation, places, gauge, a_lane, b_lane))
    return pieces


def _path_pieces(
    tile: m.Tile,
    path: m.Path,
    rotation: int,
    places: list[NodePlace],
    gauge: str,
    a_lane: m.Lane | None,
    b_lane: m.Lane | None,
) -> list[TrackPiece]:
    a, b = path.a, path.b
    if isinstance(a, m.NodeRef) and isinstance(b, m.Edge):
        a, b = b, a
        a_lane, b_lane = b_lane, a_lane
    if isinstance(a, m.Edge) and isinstance(b, m.Edge):
        ea, eb = _rot_edge(a.num, rotation), _rot_edge(b.num, rotation)
        begin = _shifted(g.edge_point(ea), ea, _lane_shift(a_lane))
        end = _shifted(g.edge_point(eb), eb, -_lane_shift(b_lane))
        if ea == eb:
            return [TrackPiece(begin, (0.0, 0.0), None, gauge)]
        arc = g.tangent_arc(begin, g.towards_centre(g.edge_point(ea)), end)
        return [TrackPiece(begin, end, arc, gauge)]
    if isinstance(a, m.Edge) and isinstance(b, m.NodeRef):
        ea = _rot_edge(a.num, rotation)
        shift = _lane_shift(a_lane)
        begin = _shifted(g.edge_point(ea), ea, shift)
        if b.index >= len(places):
            return []
        place = places[b.index]
        if isinstance(place.part, m.Offboard):
            return [TrackPiece(begin, (0.0, 0.0), None, gauge, "offboard", edge=ea, shift=shift)]
        if path.terminal:
            return [
                TrackPiece(
                    begin, place.at, None, gauge, "terminal", path.terminal, edge=ea, shift=shift
                )
            ]
        end = place.at if not shift or math.hypot(*place.at) > 1 else _shifted(place.at, ea, shift)
        arc = g.tangent_arc(begin, g.towards_centre(g.edge_point(ea)), end)
        return [TrackPiece(begin, end, arc, gauge)]
    if isinstance(a, m.NodeRef) and isinstance(b, m.NodeRef):
        if a.index >= len(places) or b.index >= len(places):
            return []
        return [TrackPiece(places[a.index].at, places[b.index].at, None, gauge)]
    return []


def _slot_offsets(slots: int) -> list[g.Point]:
    """Centres of a city's slot circles around the city's centre (18xx board convention)."""
    first = {
        1: (0.0, 0.0),
        2: (-SLOT_RADIUS, 0.0),
        3: (0.0, -29.0),
        4: (-SLOT_RADIUS, -SLOT_RADIUS),
        5: (0.0, -43.0),
        6: (0.0, -50.0),
        7: (0.0, -52.0),
        8: (0.0, -54.0),
    }.get(slots, (0.0, -55.0))
    if slots <= 1:
        return [first]
    return [g.rotate(first, 360.0 * k / slots) for k in range(slots)]


def slot_radius(slots: int) -> float:
    return {7: 22.0, 8: 20.5}.get(slots, 19.0 if slots >= 9 else SLOT_RADIUS)


def _city_extent(slots: int) -> float:
    """Radius of the disc a city occupies."""
    if slots <= 1:
        return SLOT_RADIUS
    return max(math.hypot(*o) for o in _slot_offsets(slots)) + slot_radius(slots)


def _revenue_text(rev: m.Revenue) -> str:
    return str(rev.flat) if rev.flat is not None else "|".join(str(v) for _, v in rev.phases)


def layout_tile(tile: m.Tile, rotation: int = 0, extras: HexExtras | None = None) -> Layout:
    """Decide where every part of ``tile`` goes (see the module docstring)."""
    extras = extras or HexExtras()
    rotation %= 6
    places = _place_nodes(tile, rotation)
    track = _track(tile, rotation, places)
    occ = _Occupancy()
    for piece in track:
        if piece.kind == "offboard":
            pts = g.sample(piece.begin, g.edge_point(piece.edge, 45), None, 6)
        elif piece.kind == "terminal":
            pts = g.sample(piece.begin, g.edge_point(piece.edge, 35), None, 6)
        else:
            pts = g.sample(piece.begin, piece.end, piece.arc, 6)
        occ.circles.extend((x, y, TRACK_WIDTH / 2 + 2) for x, y in pts)
    for place in places:
        x, y = place.at
        if isinstance(place.part, m.City):
            occ.circles.append((x, y, _city_extent(place.part.slots) + 2))
        elif isinstance(place.part, m.Town):
            occ.circles.append((x, y, 18.0))
    items: list[Placed] = []

    def put(kind: str, boxes: Sequence[Box], text: str = "", data: object = None) -> Placed:
        box = occ.place(boxes)
        occ.add(box, 1000 if kind in ("revenue", "phase_revenue") else 10)
        item = Placed(kind, box, text, data)
        items.append(item)
        return item

    # revenues: one circle per stop, or one for all when every stop pays the same
    stop_parts: list[tuple[NodePlace, m.RevenueCentre]] = [
        (p, p.part) for p in places if isinstance(p.part, m.City | m.Town) and not p.part.hide
    ]
    shown = [
        p
        for p, part in stop_parts
        if part.revenue.is_phased or part.revenue.flat or extras.show_zero_revenue
    ]
    revenue_of = {id(p): part.revenue for p, part in stop_parts}
    flat_values = {
        _revenue_text(revenue_of[id(p)]) for p in shown if not revenue_of[id(p)].is_phased
    }
    if (
        len(shown) > 1
        and len(flat_values) == 1
        and all(not revenue_of[id(p)].is_phased for p in shown)
    ):
        text = next(iter(flat_values))
        put(
            "revenue",
            [Box(x, y, REVENUE_RADIUS, REVENUE_RADIUS) for x, y in _spots([(0, 0)])],
            text,
        )
    else:
        for p in shown:
            rev = revenue_of[id(p)]
            if rev.is_phased:
                extent = _city_extent(p.part.slots) if isinstance(p.part, m.City) else 12.0
                _put_phased(put, rev, near=p.at, reach=extent)
                continue
            reach = (
                _city_extent(p.part.slots) + REVENUE_RADIUS + 3
                if isinstance(p.part, m.City)
                else 18 + REVENUE_RADIUS
            )
            cands = [
                Box(
                    p.at[0] + reach * math.cos(math.radians(a)),
                    p.at[1] + reach * math.sin(math.radians(a)),
                    REVENUE_RADIUS,
                    REVENUE_RADIUS,
                )
                for a in (-135, -45, 135, 45, -90, 90, 180, 0, -160, -20, 160, 20)
            ]
            put("revenue", cands, _revenue_text(rev))
    for place in places:
        if isinstance(place.part, m.Offboard) and not place.part.hide:
            _put_phased(put, place.part.revenue, near=(0.0, -30.0))
    # labels, terrain, icons, names
    for label in tile.labels:
        size = 30.0 if len(label.text) <= 2 else 22.0
        cands = [text_box(label.text, size, x, y) for x, y in _spots([(-55, -35), (-60, 0)])]
        put("label", cands, label.text, size)
    fl = tile.future_label
    if fl is not None and fl.label:
        cands = [text_box(fl.label, 16, x, y) for x, y in _spots([(55, -35)])]
        put("future_label", cands, fl.label, fl.color)
    for up in tile.upgrades:
        if not up.cost and not up.terrains:
            continue
        width = 24 + 9 * len(str(up.cost))
        cands = [Box(x, y, width / 2, 13) for x, y in _spots([(0, -45), (0, 45)])]
        put("terrain", cands, str(up.cost) if up.cost else "", up.terrains)
    for border in tile.borders:
        if border.cost:
            e = _rot_edge(border.edge, rotation)
            bx, by = g.edge_point(e, 72)
            put("border_cost", [Box(bx, by, 12, 12)], str(border.cost))
    markers = list(extras.markers)
    # a reserved slot already shows the private's symbol: no second badge for it
    in_slots = {t for slots in extras.reserved.values() for s in slots if s for t in s.split("/")}
    for icon in tile.icons:
        text = extras.icon_names.get(icon.image, icon.name or icon.image.rsplit("/", 1)[-1])
        if text in markers:
            markers.remove(text)
        if text in in_slots:
            continue
        kind = "port" if icon.image.rsplit("/", 1)[-1] == "port" else "icon"
        if kind == "port":
            cands = [Box(x, y, 16, 16) for x, y in _spots([(0, 0)] if not places else [])]
        else:
            cands = [text_box(text, 13, x, y) for x, y in _spots()]
            cands = [Box(b.cx, b.cy, b.hw + 4, b.hh + 3) for b in cands]
        put(kind, cands, text)
    for text in markers:
        if text in in_slots:
            continue
        cands = [
            Box(b.cx, b.cy, b.hw + 4, b.hh + 3)
            for b in (text_box(text, 13, x, y) for x, y in _spots())
        ]
        put("icon", cands, text)
    if extras.name:
        size = 13.0 if len(extras.name) <= 14 else 11.0
        name_spots = [
            (dx, dy)
            for dy in (72.0, -72.0, 60.0, -60.0, 46.0, -46.0, 32.0, -32.0, 0.0)
            for dx in (0.0, -14.0, 14.0, -28.0, 28.0)
        ]
        # a long name gets smaller before it is allowed to cover anything
        cands = [
            text_box(extras.name, sz, x, y)
            for sz in (size, size - 2, size - 4)
            for x, y in name_spots
        ]
        put("name", cands, extras.name, None)
    if extras.number:
        number_text = extras.number + (f" ×{extras.count}" if extras.count else "")
        cands = [
            text_box(number_text, 12, x, y) for x, y in [(52, 68), (-52, 68), (52, -68), (-52, -68)]
        ]
        put("number", cands, number_text)
    return Layout(places, track, items, occ.circles)


def _put_phased(put: object, rev: m.Revenue, near: g.Point, reach: float = 0.0) -> None:
    """Coloured boxes, one per phase: next to their stop, else wherever there is room."""
    values = rev.phases if rev.is_phased else (("white", rev.flat or 0),)
    width = sum(8 + 9 * len(str(v)) for _, v in values)
    x0, y0 = near
    spots: list[g.Point] = [(x0, y0)] if not reach else []
    if reach:
        spots += [(x0, y0 - reach - 13), (x0, y0 + reach + 13)]
        spots += [(x0 + dx * (reach + width / 2), y0) for dx in (-1, 1)]
    spots += [(0, -40), (0, 40), (0, -60), (0, 60), (0, 0), (0, -20), (0, 20), (0, -72), (0, 72)]
    cands = [Box(x, y, width / 2, 12) for x, y in spots]
    put("phase_revenue", cands, "", values)  # type: ignore[operator]


# ----------------------------------------------------------------------------- drawing
def _taper_d(piece: TrackPiece, half: float) -> str:
    """A tapered end of track pointing into the hex (drawn for edge 0, then rotated)."""
    s = piece.shift
    if piece.kind == "terminal":
        far, tip = (85.0, 65.0) if piece.terminal_style == 2 else (70.0, 35.0)
    else:
        far, tip = 75.0, 48.0
    # a narrower shape keeps the same tip angle: its tip moves towards the edge
    tip += (TRACK_WIDTH / 2 - half) * (far - tip) / (TRACK_WIDTH / 2)
    return (
        f"M {g.fmt(s + half)} {g.fmt(far)} L {g.fmt(s + half)} 87 L {g.fmt(s - half)} 87 "
        f"L {g.fmt(s - half)} {g.fmt(far)} L {g.fmt(s)} {g.fmt(tip)} Z"
    )


def _tapered_svg(piece: TrackPiece, cls: str) -> str:
    """Terminal and off-board track ends, in the gauge's style."""
    gauge = piece.gauge
    rotate = f"rotate({g.fmt(piece.edge * 60)})"
    half = TRACK_WIDTH / 2
    fill = "#707070" if piece.kind == "terminal" and piece.terminal_style == 2 else "black"
    if gauge == "future":
        return el(
            "path",
            {
                "class": cls,
                "d": _taper_d(piece, half),
                "transform": rotate,
                "fill": "none",
                "stroke": "#333",
                "stroke_width": 3,
                "stroke_dasharray": "6 4",
            },
        )
    outer = el(
        "path",
        {
            "d": _taper_d(piece, half + (1 if gauge == "dual" else 0)),
            "fill": fill,
            "stroke": "none",
        },
    )
    if gauge == "dual":  # a white line bordered with black
        inner = el("path", {"d": _taper_d(piece, half - 2.5), "fill": "white"})
        return el("g", {"class": cls, "transform": rotate}, [outer, inner])
    if gauge == "narrow":  # alternate black and white along the track
        s = g.fmt(piece.shift)
        stripe = el(
            "path",
            {
                "d": f"M {s} 87 L {s} 62",
                "stroke": "white",
                "stroke_width": TRACK_WIDTH - 3,
                "stroke_dasharray": "6 6",
            },
        )
        return el("g", {"class": cls, "transform": rotate}, [outer, stripe])
    return el("g", {"class": cls, "transform": rotate}, [outer])


def _track_svg(piece: TrackPiece) -> str:
    gauge = piece.gauge
    cls = f"track {gauge}"
    if piece.kind in ("terminal", "offboard"):
        return _tapered_svg(piece, cls)
    d = piece.d()
    if gauge == "narrow":
        return el(
            "g",
            {"class": cls, "fill": "none"},
            [
                el("path", {"d": d, "stroke": "black", "stroke_width": TRACK_WIDTH}),
                el(
                    "path",
                    {
                        "d": d,
                        "stroke": "white",
                        "stroke_width": TRACK_WIDTH - 3,
                        "stroke_dasharray": "9 9",
                    },
                ),
            ],
        )
    if gauge == "dual":
        return el(
            "g",
            {"class": cls, "fill": "none"},
            [
                el("path", {"d": d, "stroke": "black", "stroke_width": TRACK_WIDTH + 2}),
                el("path", {"d": d, "stroke": "white", "stroke_width": TRACK_WIDTH - 3}),
            ],
        )
    if gauge == "future":
        return el(
            "path",
            {
                "class": cls,
                "d": d,
                "fill": "none",
                "stroke": "#333",
                "stroke_width": 5,
                "stroke_dasharray": "10 7",
            },
        )
    width = TRACK_WIDTH / 2 if gauge == "thin" else TRACK_WIDTH
    return el(
        "path", {"class": cls, "d": d, "fill": "none", "stroke": "black", "stroke_width": width}
    )


def _city_svg(place: NodePlace, city_index: int, extras: HexExtras) -> str:
    city = place.part
    assert isinstance(city, m.City)
    x, y = place.at
    slots = max(city.slots, 1)
    parts: list[str] = []
    r = slot_radius(slots)
    if slots == 2:
        parts.append(
            el(
                "rect",
                {
                    "x": -SLOT_RADIUS,
                    "y": -SLOT_RADIUS,
                    "width": 2 * SLOT_RADIUS,
                    "height": 2 * SLOT_RADIUS,
                    "fill": "white",
                },
            )
        )
    elif slots == 3:
        pts = g.points_attr(g.corners(0.458))
        parts.append(
            el("polygon", {"points": pts, "fill": "white", "stroke": "black", "stroke_width": 2})
        )
    elif slots == 4:
        parts.append(
            el(
                "rect",
                {
                    "x": -2 * SLOT_RADIUS,
                    "y": -2 * SLOT_RADIUS,
                    "width": 4 * SLOT_RADIUS,
                    "height": 4 * SLOT_RADIUS,
                    "rx": SLOT_RADIUS,
                    "fill": "white",
                    "stroke": "black",
                    "stroke_width": 2,
                },
            )
        )
    elif slots >= 5:
        parts.append(
            el(
                "circle",
                {"r": _city_extent(slots), "fill": "white", "stroke": "black", "stroke_width": 2},
            )
        )
    tokens = extras.tokens.get(city_index, ())
    reserved = extras.reserved.get(city_index, ())
    for k, (ox, oy) in enumerate(_slot_offsets(slots)):
        parts.append(
            el(
                "circle",
                {
                    "class": "slot",
                    "cx": ox,
                    "cy": oy,
                    "r": r,
                    "fill": "white",
                    "stroke": "black",
                    "stroke_width": 2,
                },
            )
        )
        token = tokens[k] if k < len(tokens) else None
        if token is not None:
            parts.append(
                el(
                    "circle",
                    {
                        "class": "token",
                        "cx": ox,
                        "cy": oy,
                        "r": r - 3,
                        "fill": colour(token.fill),
                        "stroke": "black",
                        "stroke_width": 1,
                    },
                )
            )
            size = 14 if len(token.symbol) <= 3 else 10
            parts.append(
                el(
                    "text",
                    {
                        "class": "token-label",
                        "x": ox,
                        "y": oy,
                        "fill": token.text,
                        "font_size": size,
                        "font_weight": "bold",
                        "text_anchor": "middle",
                        "dominant_baseline": "central",
                    },
                    text=token.symbol,
                )
            )
        elif k < len(reserved) and reserved[k]:
            text = reserved[k] or ""
            parts.append(
                el(
                    "text",
                    {
                        "class": "reserved",
                        "x": ox,
                        "y": oy,
                        "fill": "black",
                        "font_size": 10 if len(text) <= 4 else 8,
                        "text_anchor": "middle",
                        "dominant_baseline": "central",
                    },
                    text=text,
                )
            )
    return el("g", {"class": "city", "transform": f"translate({g.fmt(x)} {g.fmt(y)})"}, parts)


def _town_svg(place: NodePlace, exits: int) -> str:
    town = place.part
    assert isinstance(town, m.Town)
    x, y = place.at
    style = town.style
    if style is m.TownStyle.HIDDEN:
        return ""
    bar = style is m.TownStyle.RECT or (style is None and place.heading is not None and exits >= 1)
    if isinstance(town, m.Halt):
        bar = False
    if bar and place.heading is not None:
        hx, hy = place.heading
        angle = math.degrees(math.atan2(hy, hx))
        return el(
            "rect",
            {
                "class": "town",
                "x": -16,
                "y": -5,
                "width": 32,
                "height": 10,
                "fill": "black",
                "transform": f"translate({g.fmt(x)} {g.fmt(y)}) rotate({g.fmt(angle + 90)})",
            },
        )
    return el(
        "circle",
        {
            "class": "town",
            "cx": x,
            "cy": y,
            "r": TOWN_DOT_RADIUS,
            "fill": "black",
            "stroke": "white",
            "stroke_width": 2,
        },
    )


def _text(x: float, y: float, text: str, size: float, **extra: str | float | None) -> str:
    attrs: dict[str, str | float | None] = {
        "x": x,
        "y": y,
        "font_size": size,
        "text_anchor": "middle",
        "dominant_baseline": "central",
    }
    attrs.update(extra)
    return el("text", attrs, text=text)


def _item_svg(item: Placed) -> str:
    b = item.box
    if item.kind == "revenue":
        size = 15 if len(item.text) <= 2 else 12
        return el(
            "g",
            {"class": "revenue", "transform": f"translate({g.fmt(b.cx)} {g.fmt(b.cy)})"},
            [
                el(
                    "circle",
                    {"r": REVENUE_RADIUS, "fill": "white", "stroke": "black", "stroke_width": 1.5},
                ),
                _text(0, 0, item.text, size, fill="black"),
            ],
        )
    if item.kind == "phase_revenue":
        values = item.data if isinstance(item.data, tuple) else ()
        widths = [8 + 9 * len(str(v)) for _, v in values]
        x = b.cx - sum(widths) / 2
        parts: list[str] = []
        for (phase, value), w in zip(values, widths, strict=True):
            fill = colour(phase)
            parts.append(
                el(
                    "rect",
                    {
                        "x": x,
                        "y": b.cy - 12,
                        "width": w,
                        "height": 24,
                        "fill": fill,
                        "stroke": "black",
                        "stroke_width": 1,
                    },
                )
            )
            parts.append(_text(x + w / 2, b.cy, str(value), 15, fill=text_colour_on(fill)))
            x += w
        return el("g", {"class": "phase-revenue"}, parts)
    if item.kind == "label":
        label_size = float(item.data) if isinstance(item.data, int | float) else 30.0
        return _text(
            b.cx, b.cy, item.text, label_size, class_="label", font_weight="bold", fill="black"
        )
    if item.kind == "future_label":
        fill = colour(item.data if isinstance(item.data, str) else "white")
        return el(
            "g",
            {"class": "future-label"},
            [
                el(
                    "rect",
                    {
                        "x": b.cx - b.hw,
                        "y": b.cy - b.hh - 1,
                        "width": 2 * b.hw,
                        "height": 2 * b.hh + 2,
                        "rx": 3,
                        "fill": fill,
                    },
                ),
                _text(b.cx, b.cy, item.text, 16, font_weight="bold", fill=text_colour_on(fill)),
            ],
        )
    if item.kind == "terrain":
        terrains = item.data if isinstance(item.data, tuple) else ()
        return _terrain_svg(b, item.text, terrains)
    if item.kind == "border_cost":
        return el(
            "g",
            {"class": "border-cost"},
            [
                el("circle", {"cx": b.cx, "cy": b.cy, "r": 12, "fill": "white", "stroke": "black"}),
                _text(b.cx, b.cy, item.text, 12),
            ],
        )
    if item.kind == "port":
        return el(
            "g",
            {"class": "port", "transform": f"translate({g.fmt(b.cx)} {g.fmt(b.cy)})"},
            [
                el("circle", {"r": 15, "fill": "white", "stroke": "black", "stroke_width": 1.5}),
                el(
                    "path",
                    {
                        "d": "M 0 -9 V 9 M -6 -4 H 6 M -9 3 Q 0 14 9 3",
                        "fill": "none",
                        "stroke": "black",
                        "stroke_width": 2.2,
                    },
                ),
                el(
                    "circle",
                    {"cy": -10, "r": 2.5, "fill": "none", "stroke": "black", "stroke_width": 1.5},
                ),
            ],
        )
    if item.kind == "icon":
        return el(
            "g",
            {"class": "marker"},
            [
                el(
                    "rect",
                    {
                        "x": b.cx - b.hw,
                        "y": b.cy - b.hh,
                        "width": 2 * b.hw,
                        "height": 2 * b.hh,
                        "rx": 4,
                        "fill": "white",
                        "stroke": "#6b1d1d",
                        "stroke_width": 1.5,
                    },
                ),
                _text(b.cx, b.cy, item.text, 13, font_weight="bold", fill="#6b1d1d"),
            ],
        )
    if item.kind == "name":
        name_size = round(b.hh / 0.55, 1)
        return _text(b.cx, b.cy, item.text, name_size, class_="name", fill="black")
    if item.kind == "number":
        return _text(b.cx, b.cy, item.text, 12, class_="number", fill="black")
    return ""


def _terrain_svg(b: Box, cost: str, terrains: Sequence[str]) -> str:
    x0 = b.cx - b.hw
    parts: list[str] = []
    kind = terrains[0] if terrains else ""
    if kind in ("water", "river", "lake"):
        parts.append(
            el(
                "path",
                {
                    "class": "water",
                    "d": (
                        f"M {g.fmt(x0 + 1)} {g.fmt(b.cy - 3)} q 5 -6 10 0 t 10 0 "
                        f"M {g.fmt(x0 + 1)} {g.fmt(b.cy + 4)} q 5 -6 10 0 t 10 0"
                    ),
                    "fill": "none",
                    "stroke": WATER_STROKE,
                    "stroke_width": 2.5,
                },
            )
        )
    elif kind:
        parts.append(
            el(
                "polygon",
                {
                    "class": "mountain",
                    "points": g.points_attr(
                        [(x0 + 1, b.cy + 10), (x0 + 11, b.cy - 9), (x0 + 21, b.cy + 10)]
                    ),
                    "fill": MOUNTAIN_FILL,
                    "stroke": "black",
                    "stroke_width": 1,
                },
            )
        )
    if cost:
        parts.append(_text(x0 + 23, b.cy + 1, cost, 15, text_anchor="start", fill="black"))
    return el("g", {"class": "terrain"}, parts)


def _stripes_svg(stripes: m.Stripes | None) -> list[str]:
    """Three bands of a second colour across the hex (a tile between two colours)."""
    if stripes is None:
        return []
    root3 = math.sqrt(3)

    def band(x0: float, x1: float) -> list[g.Point]:
        # the hex's top and bottom at x: flat for |x| <= 50, sloping towards the side corners
        def half(x: float) -> float:
            return g.APOTHEM if abs(x) <= 50 else (g.RADIUS - abs(x)) * root3

        xs = sorted({x0, x1, *(v for v in (-50.0, 50.0) if x0 < v < x1)})
        top = [(x, -half(x)) for x in xs]
        bottom = [(x, half(x)) for x in reversed(xs)]
        return [g.rotate(p, 60.0) for p in top + bottom]

    fill = colour(stripes.color)
    return [
        el("polygon", {"class": "stripe", "points": g.points_attr(band(a, b)), "fill": fill})
        for a, b in ((-16.0, 16.0), (48.0, 80.0), (-80.0, -48.0))
    ]


def _outline_svg(fill: str, hidden_edges: set[int], frame: m.Frame | None) -> list[str]:
    pts = g.points_attr(g.corners())
    parts = []
    if hidden_edges:
        parts.append(el("polygon", {"class": "hex", "points": pts, "fill": fill, "stroke": "none"}))
        for e in range(6):
            if e in hidden_edges:
                continue
            (x1, y1), (x2, y2) = g.edge_segment(e)
            parts.append(
                el(
                    "line",
                    {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "stroke": "black", "stroke_width": 2},
                )
            )
    else:
        parts.append(
            el(
                "polygon",
                {"class": "hex", "points": pts, "fill": fill, "stroke": "black", "stroke_width": 2},
            )
        )
    if frame is not None:
        parts.append(
            el(
                "polygon",
                {
                    "points": g.points_attr(g.corners(0.94)),
                    "fill": "none",
                    "stroke": colour(frame.color),
                    "stroke_width": 10,
                },
            )
        )
    return parts


def border_svg(tile: m.Tile, rotation: int = 0) -> str:
    """Province borders (dashed orange), impassable sides (thick blue) and other typed borders.

    Drawn in a layer above every hex so the neighbour's fill never hides half of the line.
    """
    parts: list[str] = []
    for border in tile.borders:
        if border.type is None:
            continue
        e = _rot_edge(border.edge, rotation)
        (x1, y1), (x2, y2) = g.edge_segment(e)
        kind = str(border.type)
        if border.type is m.BorderType.PROVINCE:
            stroke, width, dash = PROVINCE_ORANGE, 7, "14 9"
        elif border.type is m.BorderType.IMPASSABLE:
            stroke, width, dash = IMPASSABLE_BLUE, 12, None
        elif border.type is m.BorderType.WATER:
            stroke, width, dash = COLOURS["blue"], 8, None
        elif border.type is m.BorderType.MOUNTAIN:
            stroke, width, dash = COLOURS["sepia"], 8, None
        else:
            stroke, width, dash = "#444", 4, None
        if border.color:
            stroke = colour(border.color)
        parts.append(
            el(
                "line",
                {
                    "class": f"border {kind}",
                    "x1": x1,
                    "y1": y1,
                    "x2": x2,
                    "y2": y2,
                    "stroke": stroke,
                    "stroke_width": width,
                    "stroke_dasharray": dash,
                    "stroke_linecap": "round" if dash is None else "butt",
                },
            )
        )
    return "".join(parts)


def _partition_svg(tile: m.Tile, rotation: int) -> list[str]:
    out = []
    pts = g.corners()
    for part in tile.partitions:
        # vertex k of a partition sits between edges k-1 and k; corner index k+1 in our order
        a = pts[(part.a.num + rotation + 1) % 6]
        b = pts[(part.b.num + rotation + 1) % 6]
        out.append(
            el(
                "line",
                {
                    "class": "partition",
                    "x1": a[0],
                    "y1": a[1],
                    "x2": b[0],
                    "y2": b[1],
                    "stroke": "black",
                    "stroke_width": 4,
                    "stroke_dasharray": "8 6",
                },
            )
        )
    return out


def draw_tile(
    tile: m.Tile,
    color: str = "white",
    rotation: int = 0,
    extras: HexExtras | None = None,
    *,
    borders: bool = True,
    layout: Layout | None = None,
) -> str:
    """The hex as an SVG ``<g>`` in its own frame (translate it onto a map).

    ``borders=False`` leaves province/impassable borders out so a map can draw them on top of
    all hexes (see :func:`border_svg`).
    """
    extras = extras or HexExtras()
    rotation %= 6
    lay = layout or layout_tile(tile, rotation, extras)
    fill = colour(color)
    hidden = {_rot_edge(b.edge, rotation) for b in tile.borders if b.type is None}
    parts = _outline_svg(fill, hidden, tile.frame)
    parts[1:1] = _stripes_svg(tile.stripes)  # over the fill, under the outline's edges
    parts.extend(_partition_svg(tile, rotation))
    exits_of: dict[int, int] = {}
    for path in (*tile.paths, *tile.future_paths):
        for ref in path.node_refs:
            exits_of[ref] = exits_of.get(ref, 0) + 1
    for piece in lay.track:
        parts.append(_track_svg(piece))
    for stub in tile.stubs:
        e = _rot_edge(stub.edge, rotation)
        begin, end = g.edge_point(e), g.edge_point(e, 55)
        parts.append(_track_svg(TrackPiece(begin, end, None, "broad")))
    city_index = 0
    for place in lay.nodes:
        if isinstance(place.part, m.City):
            parts.append(_city_svg(place, city_index, extras))
            city_index += 1
        elif isinstance(place.part, m.Town):
            parts.append(_town_svg(place, exits_of.get(place.index, 0)))
    for item in lay.items:
        parts.append(_item_svg(item))
    if borders:
        parts.append(border_svg(tile, rotation))
    if extras.tooltip:
        parts.insert(0, el("title", text=extras.tooltip))
    return el("g", {"class": "tile", "font_family": FONT}, parts)


def tile_svg(
    tile: m.Tile,
    color: str = "white",
    rotation: int = 0,
    extras: HexExtras | None = None,
    *,
    scale: float = 1.0,
) -> str:
    """A standalone SVG document showing one hex."""
    from ferrovia.render.svg import document

    size = 2 * (g.RADIUS + 6)
    body = draw_tile(tile, color, rotation, extras)
    return document(size * scale, size * scale, (-g.RADIUS - 6, -g.RADIUS - 6, size, size), [body])
