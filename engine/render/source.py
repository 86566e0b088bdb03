"""What the renderer needs from a game definition, as plain data.

The renderer reads a game directory through :func:`engine.definition.load_game` when that is
available and falls back to reading the YAML files itself, so drawing keeps working while the
definition layer grows (and a broken privates file does not stop the map from drawing).
Everything here is the renderer's own view: hexes with parsed tiles, tile manifest entries,
and private-railway markers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import DataError
from engine.notation import models as m
from engine.notation.parser import parse


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

    @property
    def icon_names(self) -> dict[str, str]:
        """Icon image (``1858/BM``) -> private symbol (``B&M``)."""
        out: dict[str, str] = {}
        for p in self.privates:
            if p.icon:
                out[f"{self.icon_prefix}{p.icon}"] = p.symbol
        return out


def _yaml(path: Path) -> Any:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError

    yaml = YAML(typ="safe")
    try:
        with path.open(encoding="utf-8") as fh:
            return yaml.load(fh)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark
        line = mark.line + 1 if mark is not None else 0
        col = mark.column + 1 if mark is not None else 0
        raise DataError(str(path), line, col, str(exc.problem or exc)) from None


def _parse_code(code: str, where: str, path: Path) -> m.Tile:
    from engine.notation.errors import NotationError

    try:
        return parse(code or "")
    except NotationError as exc:
        raise DataError(str(path), 0, 0, f"{where}: {exc}") from None


def load_board(game_dir: Path | str) -> BoardSource:
    """Read ``game_dir`` (``gamedata/1858``) into a :class:`BoardSource`.

    Raises :class:`engine.errors.DataError` naming the file when something is missing or wrong.
    """
    root = Path(game_dir)
    map_path = root / "map.yaml"
    if not map_path.is_file():
        raise DataError(str(map_path), 0, 0, "no map.yaml in this game directory")
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
