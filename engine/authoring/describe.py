"""A tile code in words: what a player sees printed on the tile (for editor hovers and the
live preview).

>>> from ferrovia.notation.parser import parse
>>> print(describe_tile(parse("city=revenue:20;path=a:0,b:_0;path=a:_0,b:3;label=B")))
- city 1: revenue 20, 1 slot
- track: edge 0 – city 1, city 1 – edge 3
- label B
>>> print(describe_tile(parse(
...     "offboard=revenue:yellow_20|brown_40;path=a:1,b:_0,track:narrow;border=edge:4")))
- off-board 1: revenue 20 (yellow), 40 (brown)
- metre-gauge track: edge 1 – off-board 1
- impassable border on edge 4
>>> describe_tile(parse(""))
'- no track, no cities or towns'
"""

from __future__ import annotations

from ferrovia.notation import models as m

__all__ = ["describe_tile"]

_GAUGE = {
    m.Gauge.BROAD: "track",
    m.Gauge.NARROW: "metre-gauge track",
    m.Gauge.DUAL: "dual-gauge track",
    m.Gauge.FUTURE: "future track",
}


def _revenue(revenue: m.Revenue) -> str:
    if revenue.flat is not None:
        return f"revenue {revenue.flat}"
    return "revenue " + ", ".join(f"{value} ({colour})" for colour, value in revenue.phases)


def _node_names(tile: m.Tile) -> list[str]:
    """``city 1``, ``town 2``... for each node, numbered per kind in code order."""
    seen: dict[str, int] = {}
    names = []
    for node in tile.nodes:
        kind = _kind(node)
        seen[kind] = seen.get(kind, 0) + 1
        names.append(f"{kind} {seen[kind]}")
    return names


def _kind(node: m.Node) -> str:
    if isinstance(node, m.Pass):
        return "pass"
    if isinstance(node, m.City):
        return "city"
    if isinstance(node, m.Halt):
        return "halt"
    if isinstance(node, m.Town):
        return "town"
    if isinstance(node, m.Offboard):
        return "off-board"
    return "junction"


def describe_tile(tile: m.Tile) -> str:
    """Markdown bullet lines: revenue centres, track by gauge, label, terrain, borders."""
    lines: list[str] = []
    names = _node_names(tile)
    for name, node in zip(names, tile.nodes, strict=True):
        if isinstance(node, m.Junction):
            continue
        bits = []
        if isinstance(node, m.RevenueCentre):
            bits.append(_revenue(node.revenue))
        if isinstance(node, m.City):
            bits.append(f"{node.slots} slot{'s' if node.slots != 1 else ''}")
        if isinstance(node, m.RevenueCentre) and node.groups:
            bits.append("groups " + ", ".join(node.groups))
        lines.append(f"- {name}: {', '.join(bits)}")

    def end(point: m.Endpoint) -> str:
        if isinstance(point, m.Edge):
            return f"edge {point.num}"
        return names[point.index] if 0 <= point.index < len(names) else f"node {point.index}"

    by_gauge: dict[m.Gauge, list[str]] = {}
    for path in (*tile.paths, *tile.future_paths):
        by_gauge.setdefault(path.track, []).append(f"{end(path.a)} – {end(path.b)}")
    for gauge, runs in by_gauge.items():
        lines.append(f"- {_GAUGE.get(gauge, f'{gauge} track')}: {', '.join(runs)}")
    if not tile.nodes and not by_gauge:
        lines.append("- no track, no cities or towns")
    if tile.label:
        lines.append(f"- label {tile.label}")
    for upgrade in tile.upgrades:
        terrain = f" ({', '.join(upgrade.terrains)})" if upgrade.terrains else ""
        lines.append(f"- upgrade costs {upgrade.cost}{terrain}")
    for border in tile.borders:
        kind = border.type.value if border.type is not None else "impassable"
        cost = f", costs {border.cost}" if border.cost else ""
        lines.append(f"- {kind} border on edge {border.edge}{cost}")
    for icon in tile.icons:
        lines.append(f"- icon {icon.name or icon.image}")
    return "\n".join(lines)
