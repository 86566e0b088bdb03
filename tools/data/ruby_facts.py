"""Read 1858 map and tile facts out of the 18xx.games mirror, for checking our YAML.

Nothing here is imported by the engine: it is a developer tool. It reads the Ruby sources
(``git show HEAD:<path>`` in the mirror) at run time with a few regular expressions that
understand just the literal shapes those files use (``%w[...] => 'a' 'b'`` entries, string
maps), and returns plain Python data. No Ruby is executed.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

# A git clone (bare or not) of tobymao/18xx: $FERROVIA_18XX_REPO, else ../18xx beside this checkout
MIRROR = Path(os.environ.get("FERROVIA_18XX_REPO") or Path(__file__).resolve().parents[3] / "18xx")
MAP_RB = "lib/engine/game/g_1858/map.rb"
TILES_RB = "lib/engine/game/g_1858/tiles.rb"
CONFIG_TILE_RB = "lib/engine/config/tile.rb"

# The order in which 18xx.games looks a tile name up in its shared registry: the first
# dictionary holding the name decides the tile's colour (and so wins over later ones).
REGISTRY_ORDER = (
    ("WHITE", "white"),
    ("YELLOW", "yellow"),
    ("GREEN", "green"),
    ("GREENBROWN", "green"),
    ("BROWN", "brown"),
    ("BROWNGRAY", "brown"),
    ("GRAY", "gray"),
    ("RED", "red"),
    ("BLUE", "blue"),
    ("BROWNSEPIA", "brown"),
)

_STRING = re.compile(r"'([^']*)'")


def source(path: str, mirror: Path = MIRROR) -> str:
    """The text of ``path`` at the mirror's HEAD."""
    return subprocess.run(
        ["git", "-C", str(mirror), "show", f"HEAD:{path}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def _block(text: str, start: str) -> str:
    """The text from ``start`` (at the beginning of a line) up to the next ``}.freeze``."""
    found = re.search(r"^\s*" + re.escape(start), text, re.MULTILINE)
    if found is None:
        raise ValueError(f"{start!r} not found")
    begin = found.end()
    return text[begin : text.index("}.freeze", begin)]


def _strip_comments(text: str) -> str:
    # Whole-line comments only; no code string in these files contains '#'.
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


def normalise(code: str) -> str:
    """A code with the empty trailing part removed (18xx.games' split ignores it)."""
    return code.rstrip(";")


@dataclass(frozen=True)
class PreprintedHex:
    coord: str
    color: str
    code: str  # as written, trailing ';' removed
    group_index: int  # position in its %w[...] group: 18xx.games names the tile '<coord>-<n>'


def map_hexes(text: str | None = None) -> dict[str, PreprintedHex]:
    """Every hex of the 1858 map, keyed by coordinate."""
    body = _strip_comments(_block(text if text is not None else source(MAP_RB), "HEXES = {"))
    token = re.compile(r"^\s*(\w+): \{|%w\[([^\]]*)\]\s*=>|'([^']*)'", re.MULTILINE)
    color = ""
    groups: list[tuple[str, list[str], list[str]]] = []
    for match in token.finditer(body):
        key, coords, string = match.groups()
        if key is not None:
            color = key
        elif coords is not None:
            groups.append((color, coords.split(), []))
        else:
            groups[-1][2].append(string)
    hexes: dict[str, PreprintedHex] = {}
    for group_color, coords, parts in groups:
        for index, coord in enumerate(coords):
            if coord in hexes:
                raise ValueError(f"{coord} appears twice in HEXES")
            hexes[coord] = PreprintedHex(coord, group_color, normalise("".join(parts)), index)
    return hexes


def location_names(text: str | None = None) -> dict[str, str]:
    body = _block(text if text is not None else source(MAP_RB), "LOCATION_NAMES = {")
    return dict(re.findall(r"'(\w+)' => '([^']*)'", body))


@dataclass(frozen=True)
class ManifestEntry:
    name: str
    count: int | str  # an int or 'unlimited'
    color: str | None = None  # only for the game's own tiles
    code: str | None = None


def tile_manifest(text: str | None = None) -> dict[str, ManifestEntry]:
    """The 1858 TILES manifest, keyed by tile name, in file order."""
    body = _strip_comments(_block(text if text is not None else source(TILES_RB), "TILES = {"))
    entry = re.compile(r"'([^']+)' =>\s*(\d+|'unlimited'|\{.*?\})", re.DOTALL)
    manifest: dict[str, ManifestEntry] = {}
    for name, value in entry.findall(body):
        if value.startswith("{"):
            count = re.search(r"'count' => (\d+|'unlimited')", value)
            color = re.search(r"'color' => '(\w+)'", value)
            code_at = value.index("'code' =>") + len("'code' =>")
            if count is None or color is None:
                raise ValueError(f"tile {name}: cannot read count/color")
            manifest[name] = ManifestEntry(
                name,
                _count(count.group(1)),
                color.group(1),
                normalise("".join(_STRING.findall(value[code_at:]))),
            )
        else:
            manifest[name] = ManifestEntry(name, _count(value))
    return manifest


def _count(value: str) -> int | str:
    return "unlimited" if value.strip("'") == "unlimited" else int(value)


def registry(text: str | None = None) -> dict[str, tuple[str, str]]:
    """The shared tile registry: name -> (colour, code), honouring lookup precedence."""
    text = text if text is not None else source(CONFIG_TILE_RB)
    line = re.compile(r"^\s*'([^']+)' => '([^']*)',?\s*$", re.MULTILINE)
    found: dict[str, tuple[str, str]] = {}
    for constant, color in REGISTRY_ORDER:
        body = _strip_comments(_block(text, f"{constant} = {{"))
        for name, code in line.findall(body):
            found.setdefault(name, (color, normalise(code)))
    return found
