"""The board as the operating steps change it: which tile is on a hex, laying a tile (keeping
station markers and reservations on the matching cities), and naming cities as 18xx.games does.

A hex's ``tile`` in the state is a tile instance id: ``'57-1'`` for a laid tile, or the
preprinted tile's id (``'<coord>-<n>'``) while nothing has been laid there.  A city id in an
action is ``'<tile id>-<part index>'`` (18xx.games numbers a tile's parts from 0, so Madrid's
second city on the preprinted tile is ``'H11-0-2'``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ferrovia.board.graph import ruby_part_indices
from ferrovia.errors import UnknownEntity
from ferrovia.kernel.state import GameState, Hex
from ferrovia.lib18xx import board as core_board
from ferrovia.notation.models import City, Edge, NodeRef, Tile

if TYPE_CHECKING:
    from ferrovia.kernel.game import Game


def tile_name(tile_id: str) -> str:
    """``'57-1'`` -> ``'57'``."""
    return tile_id.rsplit("-", 1)[0]


@dataclass(frozen=True)
class PlacedTile:
    """The tile on a hex now: parsed (unrotated), its colour and rotation."""

    tile: Tile
    color: str
    rotation: int
    preprinted: bool


def is_laid_tile(game: Game, tile_id: str) -> bool:
    return tile_name(tile_id) in game.definition.tiles


def placed(game: Game, state: GameState, coord: str) -> PlacedTile:
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


def _placed(game: Game, coord: str, tile_id: str, rotation: int) -> PlacedTile:
    if is_laid_tile(game, tile_id):
        td = game.definition.tiles[tile_name(tile_id)]
        return PlacedTile(td.tile, str(td.color), rotation, False)
    hd = game.definition.hexes[coord]
    return PlacedTile(hd.tile, str(hd.color), rotation, True)


def tile_def(game: Game, tile_id: str) -> tuple[Tile, str]:
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


def _holds_for(state: GameState, holder: str | None, corp: str) -> bool:
    """Whether a reservation is the company's own (or its private's)."""
    if holder is None:
        return False
    return holder == corp or (holder in state.privates and state.privates[holder].owner == corp)


def _holds(state: GameState, holder: str | None) -> bool:
    """Whether a reservation still holds its space: an open private's or an open
    company's home (1830)."""
    if holder in state.corporations:
        homes = state.data.get("home_reservations", ())
        return holder in homes and not state.corporations[holder].closed
    return holder in state.privates and not state.privates[holder].closed


def token_slot(
    state: GameState, tokens: list[str | None], reservations: list[str | None], corp: str
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
    state: GameState, tokens: list[str | None], reservations: list[str | None], corp: str
) -> None:
    """Re-place a marker moved by an upgrade (as a new marker, but never lost)."""
    slot = token_slot(state, tokens, reservations, corp)
    if slot is None:
        slot = next((i for i, t in enumerate(tokens) if t is None), None)
    if slot is None:
        tokens.append(corp)
    else:
        tokens[slot] = corp


def take_tile(game: Game, state: GameState, tile_id: str) -> None:
    """Take a tile instance from the supply.  Laying an unlimited kind always adds a fresh
    instance numbered one above the highest in existence (18xx.games ``add_extra_tile``), even
    when upgraded-over copies are lying in the supply."""
    name = tile_name(tile_id)
    if name not in game.definition.tiles or game.definition.tiles[name].count is not None:
        core_board.take_tile(game, state, tile_id)
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


def lay(game: Game, state: GameState, coord: str, tile_id: str, rotation: int) -> None:
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
        core_board.return_tile(state, h.tile)
    h.tile = tile_id
    h.rotation = rotation
    h.tokens = tokens
    h.reservations = reservations


# -- cities -------------------------------------------------------------------------------------


def city_from_id(game: Game, state: GameState, city_id: str) -> tuple[str, int]:
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


def city_id(game: Game, state: GameState, coord: str, city: int) -> str:
    tile = placed(game, state, coord).tile
    target = tile.cities[city]
    index = next(i for i, p in enumerate(tile.parts) if p is target)
    return f"{state.hexes[coord].tile}-{ruby_part_indices(tile)[index]}"


def station_hexes(state: GameState, corp: str) -> list[str]:
    """Hexes where ``corp`` has a station marker."""
    return [c for c, h in state.hexes.items() if any(corp in slots for slots in h.tokens)]


def lift_tokens_for_choice(game: Game, state: GameState, coord: str, had_paths: bool) -> None:
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
