"""What the renderer needs from a game definition, as plain data.

:func:`load_board` reads a game directory through :func:`ferrovia.definition.load_game` (the
validated definition, one source of truth). When the data does not validate, it says so on
stderr and draws what the YAML files hold anyway (a map with a broken trains file is still
worth seeing; a broken map file is still an error naming file, line and column). Everything
here is the renderer's own view: hexes with parsed tiles, tile manifest entries, private
railway markers, company colours and the market's prices.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ferrovia.errors import DataError, DataErrors
from ferrovia.notation import models as m
from ferrovia.notation import parse


@dataclass(frozen=True)
class MapHex:
    coord: str
    color: str
    tile: m.Tile
    name: str | None = None


@dataclass(frozen=True)
class TileEntry:
    name: str
    color: str
    count: int | None  # None: unlimited
    tile: m.Tile


@dataclass(frozen=True)
class PrivateMark:
    symbol: str
    home_hexes: tuple[str, ...]
    icon: str | None
    reservations: tuple[tuple[str, int, int], ...]  # (hex, city index, slot)
    color: str | None = None


@dataclass(frozen=True)
class BoardSource:
    """A game's board as the renderer sees it."""

    title: str
    layout: str
    hexes: tuple[MapHex, ...]
    tiles: tuple[TileEntry, ...] = ()
    privates: tuple[PrivateMark, ...] = ()
    icon_prefix: str = ""
    company_colors: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    market_spaces: tuple[int, ...] = ()
    currency: str = "P%d"  # game.yaml ``currency``: how money is written

    @property
    def icon_names(self) -> dict[str, str]:
        """Icon image (``1858/BM``) -> private symbol (``B&M``)."""
        out: dict[str, str] = {}
        for p in self.privates:
            if p.icon:
                out[f"{self.icon_prefix}{p.icon}"] = p.symbol
        return out


def _yaml(path: Path) -> Any:
    """A data file's plain tree, read by the loader (its size limit, character checks and
    positioned YAML errors hold here too)."""
    from ferrovia.errors import DataErrors
    from ferrovia.loader import load_yaml
    from ferrovia.overlay import plain

    doc, errors = load_yaml(path)
    if doc is None:
        raise DataErrors(errors) if len(errors) > 1 else errors[0]
    data = plain(doc.data)
    # a file that is not a mapping has nothing to draw from (the validator says why)
    return data if isinstance(data, dict) else {}


def _parse_code(code: str, where: str, path: Path) -> m.Tile:
    from ferrovia.notation.errors import NotationError

    try:
        return parse(code or "")
    except NotationError as exc:
        raise DataError(str(path), 0, 0, f"{where}: {exc}") from None


def board_from_definition(defn: Any) -> BoardSource:
    """The renderer's view of a validated :class:`ferrovia.definition.GameDefinition`."""
    hexes = tuple(MapHex(h.coord, h.color, h.tile, h.name) for h in defn.hexes.values())
    tiles = tuple(TileEntry(t.name, t.color, t.count, t.tile) for t in defn.tiles.values())
    privates = tuple(
        PrivateMark(
            symbol=p.symbol,
            home_hexes=tuple(p.home_hexes),
            icon=p.icon,
            reservations=tuple((r.hex, r.city, r.slot) for r in p.reservations),
            color=p.color,
        )
        for p in defn.privates
    )
    colors = {c.symbol: (c.color, c.text_color) for c in defn.corporations}
    return BoardSource(
        title=str(defn.title or defn.name),
        layout=str(defn.layout),
        hexes=hexes,
        tiles=tiles,
        privates=privates,
        icon_prefix=f"{defn.path.name}/",
        company_colors=colors,
        market_spaces=tuple(defn.market.stock_market.spaces),
        currency=str(defn.currency),
    )


def load_board(game_dir: Path | str, *, warn: Any = None) -> BoardSource:
    """Read ``game_dir`` (``gamedata/1858``) into a :class:`BoardSource`.

    Uses the validated definition; if the game does not validate, ``warn`` (default: print to
    stderr) is told how many errors there are and the YAML files are read directly.
    Raises :class:`ferrovia.errors.DataError` naming the file when the map itself cannot be read.
    """
    root = Path(game_dir)
    if not (root / "map.yaml").is_file():
        raise DataError(str(root / "map.yaml"), 1, 1, "file not found (is this a game directory?)")
    failure: DataErrors | None = None
    try:
        from ferrovia.definition import load_game

        return board_from_definition(load_game(root))
    except DataErrors as exc:
        failure = exc
        count = len(exc.errors) or 1
        message = (
            f"warning: {root} has {count} data error(s) (see 'ferrovia validate {root}'); "
            "drawing what the files hold"
        )
    except Exception as exc:  # the definition layer failing must not stop a drawing
        message = f"warning: could not build the game definition ({type(exc).__name__}: {exc})"
    try:
        board = read_board(root)
    except DataError:
        if failure is not None:
            raise failure from None  # the validator's errors name file, line and column
        raise
    if warn is None:
        import sys

        print(f"ferrovia: {message}", file=sys.stderr)
    else:
        warn(message)
    return board


def read_board(game_dir: Path | str) -> BoardSource:
    """Read the YAML files of ``game_dir`` directly (no cross-file validation)."""
    root = Path(game_dir)
    map_path = root / "map.yaml"
    if not map_path.is_file():
        raise DataError(str(map_path), 1, 1, "file not found (is this a game directory?)")
    game: dict[str, Any] = {}
    if (root / "game.yaml").is_file():
        game = _yaml(root / "game.yaml") or {}
    data = _yaml(map_path) or {}
    if not isinstance(data, dict) or not isinstance(data.get("hexes"), dict):
        raise DataError(str(map_path), 1, 1, "expected a mapping with 'hexes'")
    layout = str(data.get("layout") or game.get("layout") or "flat")
    hexes: list[MapHex] = []
    for coord, spec in data["hexes"].items():
        spec = spec or {}
        tile = _parse_code(str(spec.get("code") or ""), f"hex {coord}", map_path)
        hexes.append(MapHex(str(coord), str(spec.get("color", "white")), tile, spec.get("name")))
    title = str(game.get("title") or game.get("name") or root.name)
    return BoardSource(
        title=title,
        layout=layout,
        hexes=tuple(hexes),
        tiles=_load_tiles(root, game),
        privates=_load_privates(root),
        icon_prefix=f"{root.name}/",
        company_colors=_load_company_colors(root),
        market_spaces=_load_market_spaces(root),
        currency=str(game.get("currency") or "%d"),
    )


def _tileset_codes(root: Path, game: Mapping[str, Any]) -> dict[str, tuple[str, str]]:
    name = str(game.get("tileset") or "standard")
    for candidate in (root.parent / "tilesets" / f"{name}.yaml",):
        if candidate.is_file():
            data = _yaml(candidate) or {}
            tiles = data.get("tiles") or {}
            return {
                str(k): (str(v.get("color", "white")), str(v.get("code") or ""))
                for k, v in tiles.items()
            }
    return {}


def _load_tiles(root: Path, game: Mapping[str, Any]) -> tuple[TileEntry, ...]:
    path = root / "tiles.yaml"
    if not path.is_file():
        return ()
    data = _yaml(path) or {}
    shared = _tileset_codes(root, game)
    entries: list[TileEntry] = []
    for name, spec in (data.get("tiles") or {}).items():
        spec = spec or {}
        key = str(name)
        color, code = shared.get(key, ("white", ""))
        color = str(spec.get("color", color))
        code = str(spec.get("code", code) or "")
        raw = spec.get("count", 1)
        count = None if raw in (None, "unlimited") else int(raw)
        entries.append(TileEntry(key, color, count, _parse_code(code, f"tile {key}", path)))
    return tuple(entries)


def _load_privates(root: Path) -> tuple[PrivateMark, ...]:
    path = root / "privates.yaml"
    if not path.is_file():
        return ()
    data = _yaml(path) or {}
    out: list[PrivateMark] = []
    for p in data.get("privates") or []:
        res = tuple(
            (str(r.get("hex")), int(r.get("city", 0)), int(r.get("slot", 0)))
            for r in (p.get("reservations") or [])
        )
        out.append(
            PrivateMark(
                symbol=str(p.get("symbol", "")),
                home_hexes=tuple(str(h) for h in p.get("home_hexes") or []),
                icon=p.get("icon"),
                reservations=res,
                color=p.get("color"),
            )
        )
    return tuple(out)


def _load_company_colors(root: Path) -> dict[str, tuple[str, str]]:
    """Company symbol -> (fill, text colour), from companies.yaml when it exists."""
    path = root / "companies.yaml"
    if not path.is_file():
        return {}
    data = _yaml(path) or {}
    items = data.get("companies") or data.get("corporations") or []
    out: dict[str, tuple[str, str]] = {}
    for c in items if isinstance(items, list) else []:
        sym = c.get("symbol") or c.get("sym") or c.get("name")
        if not sym:
            continue
        fill = str(c.get("color") or c.get("colour") or "#666")
        text = str(c.get("text_color") or c.get("text_colour") or "white")
        out[str(sym)] = (fill, text)
    return out


def _load_market_spaces(root: Path) -> tuple[int, ...]:
    path = root / "market.yaml"
    if not path.is_file():
        return ()
    data = _yaml(path) or {}
    spaces = (data.get("stock_market") or {}).get("spaces") or []
    return tuple(int(v) for v in spaces if isinstance(v, int | float))
