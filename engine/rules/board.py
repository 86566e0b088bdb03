"""The map as state: tiles on hexes, city slots with station markers and reservations, and the
tile supply.  City references (``"<tile id>-<city index>"``) resolve here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import UnknownEntity
from engine.rules.state import GameState, Hex

if TYPE_CHECKING:
    from engine.rules.game import Game


def preprinted_id(coord: str) -> str:
    return f"{coord}-0"


def tile_name(tile_id: str) -> str:
    """``'X3-0'`` -> ``'X3'``; ``'57-12'`` -> ``'57'``."""
    return tile_id.rsplit("-", 1)[0]


def _city_slots(tile: Any) -> list[int]:
    return [c.slots for c in tile.cities]


def initial_hexes(game: Game) -> dict[str, Hex]:
    out: dict[str, Hex] = {}
    for coord, hd in game.data.hexes.items():
        slots = _city_slots(hd.tile)
        out[coord] = Hex(
            coord=coord,
            tile=preprinted_id(coord),
            rotation=0,
            tokens=[[None] * n for n in slots],
            reservations=[[None] * n for n in slots],
        )
    for p in game.data.privates:
        for hx, city, slot in p.reservations:
            h = out.get(hx)
            if h is None or city >= len(h.reservations):
                continue
            res = h.reservations[city]
            if slot < len(res) and res[slot] is None:
                res[slot] = p.sym
            else:
                res.append(p.sym)  # two privates share one space until a second one appears
    return out


def tile_def(game: Game, tile_id: str, coord: str | None = None) -> Any:
    """The parsed tile of an instance id (preprinted tiles via their hex)."""
    name = tile_name(tile_id)
    tiles = game.definition.tiles
    if name in tiles:
        return tiles[name].tile
    if name in game.data.hexes:
        return game.data.hexes[name].tile
    raise UnknownEntity(f"no tile {tile_id!r}")


def resolve_city(game: Game, state: GameState, ref: str) -> tuple[str, int]:
    """``"202-1-0"`` -> (hex coordinate, city index) where that tile instance lies now."""
    tid, _, idx = ref.rpartition("-")
    if not tid or not idx.isdigit():
        raise UnknownEntity(f"bad city reference {ref!r}")
    name = tile_name(tid)
    if name in state.hexes and state.hexes[name].tile == preprinted_id(name):
        return name, int(idx)
    for h in state.hexes.values():
        if h.tile == tid:
            return h.coord, int(idx)
    raise UnknownEntity(f"city {ref!r} is not on the map")


def city_ref(state: GameState, coord: str, city: int) -> str:
    return f"{state.hexes[coord].tile}-{city}"


def take_tile(game: Game, state: GameState, tile_id: str) -> None:
    """Remove a tile instance from the supply (unlimited kinds grow a new instance)."""
    name = tile_name(tile_id)
    free = state.tiles.get(name)
    if free is None or tile_id not in free:
        raise UnknownEntity(f"tile {tile_id!r} is not available")
    free.remove(tile_id)
    if game.data.tiles.get(name, 0) is None and not free:
        nxt = state.data.setdefault("tile_next", {})
        n = nxt.get(name, 1)
        free.append(f"{name}-{n}")
        nxt[name] = n + 1


def return_tile(state: GameState, tile_id: str) -> None:
    """An upgraded-over tile goes back to the supply (preprinted ones do not)."""
    name = tile_name(tile_id)
    if name in state.tiles and tile_id not in state.tiles[name]:
        state.tiles[name].append(tile_id)


def free_slot(state: GameState, coord: str, city: int, corp: str) -> int | None:
    """The slot a company's marker would take: its own (or its privates') reservation, else the
    first empty unreserved slot."""
    h = state.hexes[coord]
    tokens = h.tokens[city]
    res = h.reservations[city] if city < len(h.reservations) else []
    mine = {corp, *state.corporations[corp].companies} if corp in state.corporations else {corp}
    for i, r in enumerate(res):
        if r in mine and i < len(tokens) and tokens[i] is None:
            return i
    for i, t in enumerate(tokens):
        if t is None and (i >= len(res) or res[i] is None):
            return i
    return None


def tokenable(state: GameState, coord: str, city: int, corp: str) -> bool:
    h = state.hexes[coord]
    if any(corp in slots for slots in h.tokens):
        return False
    return free_slot(state, coord, city, corp) is not None


def place_token(
    state: GameState, corp: str, coord: str, city: int, price: int, why: str = "station"
) -> None:
    """Put the company's next unused marker in a city, paying ``price`` to the bank."""
    from engine.errors import IllegalAction
    from engine.rules.ledger import transfer

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
    h.tokens[city][slot] = corp
    token.hex, token.city, token.price = coord, city, price
    res = h.reservations[city] if city < len(h.reservations) else []
    if corp in res:
        res[res.index(corp)] = None
    state.log.append(f"{corp} places a station marker in {coord}")


def tile_color(game: Game, tile_id: str) -> str:
    name = tile_name(tile_id)
    if name in game.definition.tiles:
        return str(game.definition.tiles[name].color)
    return str(game.data.hexes[name].color)
