"""The map as state: which tile is on each hex, city slots with station markers and
reservations, the tile supply, laying a tile (keeping markers and reservations on the matching
cities), and naming cities as 18xx.games does.

A hex's ``tile`` in the state is a tile instance id: ``'57-1'`` for a laid tile, or the
preprinted tile's id (``'<coord>-<n>'``) while nothing has been laid there.  A city id in an
action is ``'<tile id>-<part index>'`` (18xx.games numbers a tile's parts from 0, so Madrid's
second city on the preprinted tile is ``'H11-0-2'``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ferrovia.board.graph import ruby_part_indices
from ferrovia.errors import UnknownEntity
from ferrovia.lib18xx.state import Hex, State18xx
from ferrovia.notation.models import City, Edge, NodeRef, Tile

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx


def preprinted_id(coord: str) -> str:
    return f"{coord}-0"


def tile_name(tile_id: str) -> str:
    """``'X3-0'`` -> ``'X3'``; ``'57-12'`` -> ``'57'``."""
    return tile_id.rsplit("-", 1)[0]


def _city_slots(tile: Any) -> list[int]:
    return [c.slots for c in tile.cities]


def initial_hexes(game: Game18xx) -> dict[str, Hex]:
    out: dict[str, Hex] = {}
    for coord, hd in game.definition.hexes.items():
        slots = _city_slots(hd.tile)
        out[coord] = Hex(
            coord=coord,
            tile=preprinted_id(coord),
            rotation=0,
            tokens=[[None] * n for n in slots],
            reservations=[[None] * n for n in slots],
        )
    for corp in game.definition.corporations:
        # a company's home city is held for it (18xx.games reserves corporations' coordinates)
        home = corp.home
        h = out.get(home.hex) if home is not None else None
        if home is None or h is None or not h.reservations:
            continue
        city = home.city if home.city is not None else (0 if len(h.reservations) == 1 else None)
        if city is not None and city < len(h.reservations) and h.reservations[city]:
            if h.reservations[city][0] is None:
                h.reservations[city][0] = corp.symbol
    for p in game.privates:
        for r in p.reservations:
            h = out.get(r.hex)
            if h is None or r.city >= len(h.reservations):
                continue
            res = h.reservations[r.city]
            if r.slot < len(res) and res[r.slot] is None:
                res[r.slot] = p.symbol
            else:
                res.append(p.symbol)  # two privates share one space until a second one appears
    return out


def tile_has_paths(game: Game18xx, state: State18xx, coord: str) -> bool:
    """Whether the tile on ``coord`` carries any track."""
    return bool(tile_of(game, state.hexes[coord].tile, coord).paths)


def tile_of(game: Game18xx, tile_id: str, coord: str | None = None) -> Any:
    """The parsed tile of an instance id (preprinted tiles via their hex)."""
    name = tile_name(tile_id)
    tiles = game.definition.tiles
    if name in tiles:
        return tiles[name].tile
    if name in game.definition.hexes:
        return game.definition.hexes[name].tile
    raise UnknownEntity(f"no tile {tile_id!r}")


def resolve_city(game: Game18xx, state: State18xx, ref: str) -> tuple[str, int]:
    """``"H11-0-2"`` -> (hex, city index).  The last number is the city's *part* index in the
    tile code (18xx.games numbers every part), so Madrid's second city is ``H11-0-2``."""
    try:
        return city_from_id(game, state, ref)
    except KeyError as exc:  # its message, not str(exc), which would quote it
        raise UnknownEntity(str(exc.args[0]) if exc.args else ref, rule="city") from None


def city_ref(game: Game18xx, state: State18xx, coord: str, city: int) -> str:
    return city_id(game, state, coord, city)


def _take_counted(game: Game18xx, state: State18xx, tile_id: str) -> None:
    """Remove a tile instance from the supply (unlimited kinds grow a new instance)."""
    name = tile_name(tile_id)
    free = state.tiles.get(name)
    if free is None or tile_id not in free:
        raise UnknownEntity(f"tile {tile_id!r} is not available")
    free.remove(tile_id)
    if _unlimited(game, name) and not free:
        nxt = state.data.setdefault("tile_next", {})
        n = nxt.get(name, 1)
        free.append(f"{name}-{n}")
        nxt[name] = n + 1


def return_tile(state: State18xx, tile_id: str) -> None:
    """An upgraded-over tile goes back to the supply (preprinted ones do not)."""
    name = tile_name(tile_id)
    if name in state.tiles and tile_id not in state.tiles[name]:
        state.tiles[name].append(tile_id)


def _holds_reservation(state: State18xx, r: str | None, corp: str) -> bool:
    """A reservation belongs to a company if it is the company's own or one of its privates'."""
    if r is None:
        return False
    return r == corp or (r in state.privates and state.privates[r].owner == corp)


def free_slot(state: State18xx, coord: str, city: int, corp: str) -> int | None:
    """The slot a company's marker would take: its own (or its privates') reservation, else the
    first empty unreserved slot (18xx.games ``City#get_slot``).  A reservation sharing a single
    space (Sevilla, Córdoba, Zaragoza) may point past the last slot: the marker goes there."""
    h = state.hexes[coord]
    tokens = h.tokens[city]
    res = h.reservations[city] if city < len(h.reservations) else []
    for i, r in enumerate(res):
        if _holds_reservation(state, r, corp):
            return i
    for i, t in enumerate(tokens):
        if t is None and (i >= len(res) or res[i] is None):
            return i
    return None


def tokenable(state: State18xx, coord: str, city: int, corp: str) -> bool:
    h = state.hexes[coord]
    if any(corp in slots for slots in h.tokens):
        return False
    return free_slot(state, coord, city, corp) is not None


def place_token(
    state: State18xx, corp: str, coord: str, city: int, price: int, why: str = "station"
) -> None:
    """Put the company's next unused marker in a city, paying ``price`` to the bank."""
    from ferrovia.errors import IllegalAction
    from ferrovia.kernel.ledger import transfer

    c = state.corporations[corp]
    token = next((t for t in c.tokens if t.hex is None), None)
    if token is None:
        raise IllegalAction(f"{corp} has no station markers left", rule="station markers")
    if not tokenable(state, coord, city, corp):
        raise IllegalAction(f"{corp} cannot place a marker in {coord} city {city}", rule="station")
    slot = free_slot(state, coord, city, corp)
    assert slot is not None
    if price > 0:
        transfer(state, corp, "bank", price, why)
    h = state.hexes[coord]
    res = h.reservations[city] if city < len(h.reservations) else []
    if slot == 1 and len(h.tokens[city]) == 1 and sum(1 for r in res if r) == 2:
        # two privates share the single space of a yellow city: the one tokening takes the
        # space, the other keeps the reservation for the second space a green tile brings
        slot = 0
        res.reverse()
    while len(h.tokens[city]) <= slot:
        h.tokens[city].append(None)
    h.tokens[city][slot] = corp
    token.hex, token.city, token.price = coord, city, price
    for i, r in enumerate(res):
        if _holds_reservation(state, r, corp):
            res[i] = None
            break
    state.log.append(f"{corp} places a station marker in {coord}")


def tile_color(game: Game18xx, tile_id: str) -> str:
    name = tile_name(tile_id)
    if name in game.definition.tiles:
        return str(game.definition.tiles[name].color)
    return str(game.definition.hexes[name].color)


def city_slots(game: Game18xx, state: State18xx, coord: str, city: int) -> int:
    """Printed station spaces of a city on the hex's current tile."""
    tile = tile_of(game, state.hexes[coord].tile, coord)
    return int(tile.cities[city].slots)


def city_has_room(game: Game18xx, state: State18xx, coord: str, city: int) -> bool:
    """Fewer markers than printed spaces (markers may sit past the last space, see free_slot)."""
    used = sum(1 for t in state.hexes[coord].tokens[city] if t)
    return used < city_slots(game, state, coord, city)


def _unlimited(game: Game18xx, name: str) -> bool:
    """tiles.yaml ``count: unlimited``."""
    tile = game.definition.tiles.get(name)
    return tile is not None and tile.count is None


@dataclass(frozen=True)
class PlacedTile:
    """The tile on a hex now: parsed (unrotated), its colour and rotation."""

    tile: Tile
    color: str
    rotation: int
    preprinted: bool


def is_laid_tile(game: Game18xx, tile_id: str) -> bool:
    return tile_name(tile_id) in game.definition.tiles


def placed(game: Game18xx, state: State18xx, coord: str) -> PlacedTile:
    h = state.hexes[coord]
    # the answer follows from the definition, the hex and its tile and rotation: made once
    # per game for each (asked several times a lay)
    memo: dict[tuple[str, str, int], PlacedTile] | None = game.memo.get("board.placed")
    if memo is None:
        memo = game.memo["board.placed"] = {}
    key = (coord, h.tile, h.rotation)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = _placed(game, coord, h.tile, h.rotation)
    return hit


def _placed(game: Game18xx, coord: str, tile_id: str, rotation: int) -> PlacedTile:
    if is_laid_tile(game, tile_id):
        td = game.definition.tiles[tile_name(tile_id)]
        return PlacedTile(td.tile, str(td.color), rotation, False)
    hd = game.definition.hexes[coord]
    return PlacedTile(hd.tile, str(hd.color), rotation, True)


def tile_def(game: Game18xx, tile_id: str) -> tuple[Tile, str]:
    try:
        td = game.definition.tiles[tile_name(tile_id)]
    except KeyError:
        raise UnknownEntity(f"no tile {tile_id!r} in this game", rule="track") from None
    return td.tile, str(td.color)


def track_gauges(tile: Tile) -> list[str]:
    """The gauge of each track path (a multiset, as upgrades compare them)."""
    return [str(p.track) for p in tile.paths]


def city_exits(tile: Tile, rotation: int) -> list[frozenset[int]]:
    """For each city of the tile, the (rotated) edges its track leaves by."""
    node_index = {id(n): i for i, n in enumerate(tile.nodes)}
    out: list[frozenset[int]] = []
    for city in tile.cities:
        ni = node_index[id(city)]
        exits: set[int] = set()
        for path in tile.paths:
            ends = path.ends
            if any(isinstance(e, NodeRef) and e.index == ni for e in ends):
                for e in ends:
                    if isinstance(e, Edge):
                        exits.add((e.num + rotation) % 6)
        out.append(frozenset(exits))
    return out


def city_map(old: Tile, old_rot: int, new: Tile, new_rot: int) -> dict[int, int | None]:
    """Which city of the new tile each old city becomes (18xx.games ``city_map_for``): by
    index when the old cities have no track yet, else the new city whose exits include the
    old one's; cities left over are matched by index, then to the first unused city."""
    old_ex = city_exits(old, old_rot)
    new_ex = city_exits(new, new_rot)
    mapping: dict[int, int | None] = {}
    if all(not e for e in old_ex) and len(old_ex) == len(new_ex):
        mapping = {i: i for i in range(len(old_ex))}
    else:
        for i, ex in enumerate(old_ex):
            mapping[i] = next((j for j, nex in enumerate(new_ex) if ex and ex <= nex), None)
    used = {j for j in mapping.values() if j is not None}
    for i in range(len(old_ex)):
        if mapping.get(i) is not None:
            continue
        j: int | None = i if i < len(new_ex) else None
        if j is None or j in used:
            j = next((k for k in range(len(new_ex)) if k not in used), None)
        mapping[i] = j
        if j is not None:
            used.add(j)
    return mapping


def _into(old: list[str | None], size: int) -> list[str | None]:
    """Old reservations in a city of ``size`` slots: same places when they fit, otherwise
    packed to the front (never dropping one)."""
    if len(old) <= size:
        return list(old) + [None] * (size - len(old))
    kept = [s for s in old if s is not None]
    return kept + [None] * max(0, size - len(kept))


def _holds_for(state: State18xx, holder: str | None, corp: str) -> bool:
    """Whether a reservation is the company's own (or its private's)."""
    if holder is None:
        return False
    return holder == corp or (holder in state.privates and state.privates[holder].owner == corp)


def _holds(state: State18xx, holder: str | None) -> bool:
    """Whether a reservation still holds its space: an open private's or an open
    company's home (1830)."""
    if holder in state.corporations:
        homes = state.data.get("home_reservations", ())
        return holder in homes and not state.corporations[holder].closed
    return holder in state.privates and not state.privates[holder].closed


def token_slot(
    state: State18xx, tokens: list[str | None], reservations: list[str | None], corp: str
) -> int | None:
    """The slot a company's marker takes in a city (18xx.games ``get_slot``): one reserved for
    it (or for a private it owns), else the first slot neither filled nor held.  The
    ``slot`` an action records is not used for this, as in 18xx.games."""
    for i, r in enumerate(reservations):
        if _holds_for(state, r, corp):
            if i < len(tokens) and tokens[i] is None:
                return i
            if i >= len(tokens) and len(tokens) == 1 and tokens[0] is None:
                # a one-slot city held for two privates: the second one's company takes the
                # only slot, and the other private's reservation moves to the next slot
                reservations.reverse()
                return 0
    for i, t in enumerate(tokens):
        if t is None and not (i < len(reservations) and _holds(state, reservations[i])):
            return i
    return None


def _place(
    state: State18xx, tokens: list[str | None], reservations: list[str | None], corp: str
) -> None:
    """Re-place a marker moved by an upgrade (as a new marker, but never lost)."""
    slot = token_slot(state, tokens, reservations, corp)
    if slot is None:
        slot = next((i for i, t in enumerate(tokens) if t is None), None)
    if slot is None:
        tokens.append(corp)
    else:
        tokens[slot] = corp


def take_tile(game: Game18xx, state: State18xx, tile_id: str) -> None:
    """Take a tile instance from the supply.  Laying an unlimited kind always adds a fresh
    instance numbered one above the highest in existence (18xx.games ``add_extra_tile``), even
    when upgraded-over copies are lying in the supply."""
    name = tile_name(tile_id)
    if name not in game.definition.tiles or game.definition.tiles[name].count is not None:
        _take_counted(game, state, tile_id)
        return
    free = state.tiles.setdefault(name, [])
    on_map = [h.tile for h in state.hexes.values()]
    if tile_id in free:
        free.remove(tile_id)
    elif tile_id in on_map:
        raise KeyError(f"tile {tile_id} is already on the map")
    # the instances of this kind: '<name>-<n>'; those on the map found by one regex pass
    # over the map's tile ids, one a line (a string test per hex was ~80k instructions a lay)
    prefix = f"{name}-"
    cut = len(prefix)
    numbers = [int(t[cut:]) for t in (*free, tile_id) if t[:cut] == prefix and t[cut:].isdigit()]
    numbers += [int(n) for n in _instances(prefix).findall("\n".join(on_map)) if n.isdigit()]
    top = max(numbers)
    free.append(f"{name}-{top + 1}")


#: tile-id prefix ('57-') -> the pattern of what follows it on a line of tile ids
_INSTANCES: dict[str, re.Pattern[str]] = {}


def _instances(prefix: str) -> re.Pattern[str]:
    pattern = _INSTANCES.get(prefix)
    if pattern is None:
        pattern = _INSTANCES[prefix] = re.compile(f"^{re.escape(prefix)}(.*)$", re.MULTILINE)
    return pattern


def lay(game: Game18xx, state: State18xx, coord: str, tile_id: str, rotation: int) -> None:
    """Put tile instance ``tile_id`` on ``coord``; reservations follow their city, markers are
    re-placed one by one in their old order (so a marker may move to a lower free slot); the
    old tile (if it was a laid one) goes back to the supply."""
    h: Hex = state.hexes[coord]
    before = placed(game, state, coord)
    new_tile, _color = tile_def(game, tile_id)
    mapping = city_map(before.tile, before.rotation, new_tile, rotation)
    slots = [c.slots for c in new_tile.cities]
    sources: dict[int, list[int]] = {}
    for i, j in sorted(mapping.items()):
        if j is not None:
            sources.setdefault(j, []).append(i)
    tokens: list[list[str | None]] = [[None] * n for n in slots]
    reservations: list[list[str | None]] = [[None] * n for n in slots]
    for j, olds in sources.items():
        old_res = [h.reservations[i] if i < len(h.reservations) else [] for i in olds]
        old_tok = [h.tokens[i] if i < len(h.tokens) else [] for i in olds]
        if len(olds) == 1:
            reservations[j] = _into(old_res[0], slots[j])
        else:
            reservations[j] = _into([r for rs in old_res for r in rs if r is not None], slots[j])
        for corp in [t for ts in old_tok for t in ts if t is not None]:
            _place(state, tokens[j], reservations[j], corp)
    take_tile(game, state, tile_id)
    if not before.preprinted:
        return_tile(state, h.tile)
    h.tile = tile_id
    h.rotation = rotation
    h.tokens = tokens
    h.reservations = reservations


# -- cities -------------------------------------------------------------------------------------


def city_from_id(game: Game18xx, state: State18xx, city_id: str) -> tuple[str, int]:
    """(hex, city index on its current tile) named by an 18xx.games city id.  The last number
    is the city's *part* index in the tile code; a preprinted tile may be named after its hex
    with any instance number."""
    tile_id, _, part = city_id.rpartition("-")
    if not tile_id or not part.isdigit():
        raise KeyError(f"bad city reference {city_id!r}")
    name = tile_name(tile_id)
    coord = None
    if name in state.hexes and not is_laid_tile(game, state.hexes[name].tile):
        coord = name
    else:
        coord = next((c for c, h in state.hexes.items() if h.tile == tile_id), None)
    if coord is None:
        raise KeyError(f"no hex carries tile {tile_id} (city {city_id})")
    tile = placed(game, state, coord).tile
    index = int(part)
    ruby = ruby_part_indices(tile)  # (a path with lanes counts as several parts)
    if index not in ruby or not isinstance(tile.parts[ruby.index(index)], City):
        raise KeyError(f"{city_id}: part {index} of {tile_id} is not a city")
    target = tile.parts[ruby.index(index)]
    for ci, city in enumerate(tile.cities):
        if city is target:
            return coord, ci
    raise KeyError(city_id)


def city_id(game: Game18xx, state: State18xx, coord: str, city: int) -> str:
    tile = placed(game, state, coord).tile
    target = tile.cities[city]
    index = next(i for i, p in enumerate(tile.parts) if p is target)
    return f"{state.hexes[coord].tile}-{ruby_part_indices(tile)[index]}"


def station_hexes(state: State18xx, corp: str) -> list[str]:
    """Hexes where ``corp`` has a station marker."""
    return [c for c, h in state.hexes.items() if any(corp in slots for slots in h.tokens)]


def lift_tokens_for_choice(game: Game18xx, state: State18xx, coord: str, had_paths: bool) -> None:
    """A first tile with track on a hex of several cities that held markers (a home station
    placed before any track, 1830's Erie): each marker comes off, and its company chooses
    the city again (18xx.games ``update_token!``: the round's ``pending_tokens``)."""
    h = state.hexes[coord]
    if had_paths or len(h.tokens) < 2 or not placed(game, state, coord).tile.paths:
        return
    for ci, slots in enumerate(h.tokens):
        for si, corp in enumerate(slots):
            if corp is None or corp not in state.corporations:
                continue
            slots[si] = None
            for t in state.corporations[corp].tokens:
                if t.hex == coord and t.city == ci:
                    t.hex = t.city = None
                    break
            pend = state.round.data.setdefault("pending_tokens", [])
            pend.append({"entity": corp, "hexes": [coord], "cities": None})
            state.log.append(f"{corp} must choose city for token")
