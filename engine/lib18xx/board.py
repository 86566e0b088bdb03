"""The map as state: tiles on hexes, city slots with station markers and reservations, and the
tile supply.  City references (``"<tile id>-<city index>"``) resolve here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ferrovia.errors import UnknownEntity
from ferrovia.kernel.state import GameState, Hex

if TYPE_CHECKING:
    from ferrovia.kernel.game import Game


def preprinted_id(coord: str) -> str:
    return f"{coord}-0"


def tile_name(tile_id: str) -> str:
    """``'X3-0'`` -> ``'X3'``; ``'57-12'`` -> ``'57'``."""
    return tile_id.rsplit("-", 1)[0]


def _city_slots(tile: Any) -> list[int]:
    return [c.slots for c in tile.cities]


def initial_hexes(game: Game) -> dict[str, Hex]:
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


def tile_has_paths(game: Game, state: GameState, coord: str) -> bool:
    """Whether the tile on ``coord`` carries any track."""
    return bool(tile_def(game, state.hexes[coord].tile, coord).paths)


def tile_def(game: Game, tile_id: str, coord: str | None = None) -> Any:
    """The parsed tile of an instance id (preprinted tiles via their hex)."""
    name = tile_name(tile_id)
    tiles = game.definition.tiles
    if name in tiles:
        return tiles[name].tile
    if name in game.definition.hexes:
        return game.definition.hexes[name].tile
    raise UnknownEntity(f"no tile {tile_id!r}")


def resolve_city(game: Game, state: GameState, ref: str) -> tuple[str, int]:
    """``"H11-0-2"`` -> (hex, city index).  The last number is the city's *part* index in the
    tile code (18xx.games numbers every part), so Madrid's second city is ``H11-0-2``."""
    from ferrovia.lib18xx.operating.board import city_from_id

    try:
        return city_from_id(game, state, ref)
    except KeyError as exc:  # its message, not str(exc), which would quote it
        raise UnknownEntity(str(exc.args[0]) if exc.args else ref, rule="city") from None


def city_ref(game: Game, state: GameState, coord: str, city: int) -> str:
    from ferrovia.lib18xx.operating.board import city_id

    return city_id(game, state, coord, city)


def take_tile(game: Game, state: GameState, tile_id: str) -> None:
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


def return_tile(state: GameState, tile_id: str) -> None:
    """An upgraded-over tile goes back to the supply (preprinted ones do not)."""
    name = tile_name(tile_id)
    if name in state.tiles and tile_id not in state.tiles[name]:
        state.tiles[name].append(tile_id)


def _holds_reservation(state: GameState, r: str | None, corp: str) -> bool:
    """A reservation belongs to a company if it is the company's own or one of its privates'."""
    if r is None:
        return False
    return r == corp or (r in state.privates and state.privates[r].owner == corp)


def free_slot(state: GameState, coord: str, city: int, corp: str) -> int | None:
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


def tokenable(state: GameState, coord: str, city: int, corp: str) -> bool:
    h = state.hexes[coord]
    if any(corp in slots for slots in h.tokens):
        return False
    return free_slot(state, coord, city, corp) is not None


def place_token(
    state: GameState, corp: str, coord: str, city: int, price: int, why: str = "station"
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


def tile_color(game: Game, tile_id: str) -> str:
    name = tile_name(tile_id)
    if name in game.definition.tiles:
        return str(game.definition.tiles[name].color)
    return str(game.definition.hexes[name].color)


def city_slots(game: Game, state: GameState, coord: str, city: int) -> int:
    """Printed station spaces of a city on the hex's current tile."""
    tile = tile_def(game, state.hexes[coord].tile, coord)
    return int(tile.cities[city].slots)


def city_has_room(game: Game, state: GameState, coord: str, city: int) -> bool:
    """Fewer markers than printed spaces (markers may sit past the last space, see free_slot)."""
    used = sum(1 for t in state.hexes[coord].tokens[city] if t)
    return used < city_slots(game, state, coord, city)


def _unlimited(game: Game, name: str) -> bool:
    """tiles.yaml ``count: unlimited``."""
    tile = game.definition.tiles.get(name)
    return tile is not None and tile.count is None
