"""Compare gamedata/1858 map and tiles with the 18xx.games sources they were taken from.

Usage: ``.venv/bin/python tools/data/check_1858.py [--mirror PATH]``

Prints one line per difference and exits 1 if there is any. What is compared:
- map.yaml: the set of hexes, each hex's colour and code (18xx.games' trailing ';' ignored),
  the location names;
- tiles.yaml: the manifest (names, counts), the game's own tiles (colour, code), and that
  every other tile is in the tile set;
- tilesets/standard.yaml: each tile's colour and code against the shared registry, and that it
  holds only tiles some bundled game's manifest uses.
It also parses every code with ``ferrovia.notation`` when that package is importable.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ruby_facts

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "gamedata" / "1858"
TILESET = ROOT / "gamedata" / "tilesets" / "standard.yaml"


def load(path: Path) -> Any:
    with path.open(encoding="utf-8") as handle:
        return YAML(typ="safe").load(handle)


def check_map(hexes: dict[str, Any], names_yaml: dict[str, str]) -> Iterator[str]:
    ruby = ruby_facts.map_hexes()
    names = ruby_facts.location_names()
    for coord in sorted(set(ruby) - set(hexes)):
        yield f"map: {coord} missing"
    for coord in sorted(set(hexes) - set(ruby)):
        yield f"map: {coord} is not an 18xx.games hex"
    for coord in sorted(set(ruby) & set(hexes)):
        ours, theirs = hexes[coord], ruby[coord]
        if ours.get("color") != theirs.color:
            yield f"map: {coord} colour {ours.get('color')} != {theirs.color}"
        if ruby_facts.normalise(ours.get("code") or "") != theirs.code:
            yield f"map: {coord} code\n  ours   {ours.get('code')}\n  theirs {theirs.code}"
    for coord in sorted(set(names) | set(names_yaml)):
        if names.get(coord) != names_yaml.get(coord):
            yield f"map: {coord} name {names_yaml.get(coord)!r} != {names.get(coord)!r}"
    if len(hexes) != 127 or len(names_yaml) != 52:
        yield f"map: {len(hexes)} hexes and {len(names_yaml)} names (expected 127 and 52)"


def check_tiles(manifest: dict[str, Any], tileset: dict[str, Any]) -> Iterator[str]:
    ruby = ruby_facts.tile_manifest()
    registry = ruby_facts.registry()
    if list(manifest) != list(ruby):
        yield f"tiles: names/order differ: {sorted(set(manifest) ^ set(ruby))}"
    for name, theirs in ruby.items():
        ours = manifest.get(name)
        if ours is None:
            continue
        if ours.get("count") != theirs.count:
            yield f"tiles: {name} count {ours.get('count')} != {theirs.count}"
        if theirs.code is not None:
            if (ours.get("color"), ours.get("code")) != (theirs.color, theirs.code):
                yield f"tiles: {name} own tile differs: {ours} vs {theirs}"
        elif "code" in ours or "color" in ours:
            yield f"tiles: {name} should come from the tile set, not carry its own code"
        elif name not in tileset:
            yield f"tiles: {name} is not in the tile set"
    for name, entry in tileset.items():
        expected = registry.get(name)
        if expected is None:
            yield f"tileset: {name} is not an 18xx.games registry tile"
        elif (entry.get("color"), entry.get("code")) != expected:
            yield f"tileset: {name} {entry} != {expected}"
    used = {n for n, e in manifest.items() if "code" not in e}
    for game in (ROOT / "gamedata").iterdir():
        other = game / "tiles.yaml"
        if game != GAME and other.is_file():
            used |= {n for n, e in (load(other).get("tiles") or {}).items() if "code" not in e}
    for name in sorted(set(tileset) - used):
        yield f"tileset: {name} is used by no bundled game"


def check_notation(codes: dict[str, str]) -> Iterator[str]:
    try:
        notation: Any = importlib.import_module("ferrovia.notation")
    except ImportError:
        notation = None
    parse = getattr(notation, "parse", None)
    if parse is None:
        print("(ferrovia.notation.parse not available yet: codes not parsed)")
        return
    for where, code in codes.items():
        try:
            parse(code, strict=True)  # new data: none of the slips lenient mode forgives
        except Exception as error:
            yield f"notation: {where}: {error}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", type=Path, default=ruby_facts.MIRROR)
    args = parser.parse_args(argv)
    ruby_facts.MIRROR = args.mirror

    map_data = load(GAME / "map.yaml")
    hexes = map_data["hexes"]
    try:  # a group's value (France's) is said once in map.yaml; 18xx.games repeats it
        from ferrovia.data.validate import with_group_revenue

        groups = map_data.get("group_revenues") or {}
        for entry in hexes.values():
            if entry.get("code"):
                entry["code"] = with_group_revenue(entry["code"], groups)[0]
    except ImportError:
        pass
    names = {c: h["name"] for c, h in hexes.items() if "name" in h}
    problems = list(check_map(hexes, names))
    codes = {f"map {c}": h["code"] for c, h in hexes.items() if h.get("code")}

    tiles_path = GAME / "tiles.yaml"
    if tiles_path.is_file() and TILESET.is_file():
        manifest = load(tiles_path)["tiles"]
        tileset = load(TILESET)["tiles"]
        problems += check_tiles(manifest, tileset)
        codes |= {f"tiles {n}": e["code"] for n, e in manifest.items() if "code" in e}
        codes |= {f"tileset {n}": e["code"] for n, e in tileset.items() if e.get("code")}
    else:
        print("(tiles.yaml or tilesets/standard.yaml absent: tiles not checked)")
    problems += check_notation(codes)

    for problem in problems:
        print(problem)
    print(f"{len(hexes)} hexes, {len(names)} names, {len(codes)} codes: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
