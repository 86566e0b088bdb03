"""Check a whole game directory: every file, every tile code, every cross-reference.

:func:`validate_game` never stops at the first mistake.  It loads each YAML file of the game
(and the tile set ``game.yaml`` names), validates each against its model (``schemas/``), parses
every tile code with its file position, then checks what refers to what — each problem becomes
a :class:`~ferrovia.errors.DataError` at the position of the offending key or value, reported
file by file, top to bottom.  When nothing is wrong it also builds the
:class:`~ferrovia.data.definition.GameDefinition`.

Cross-reference checks, by file:

* map: coordinates are well formed and on the layout's grid (one parity of letter index + row
  number for the whole map, as 18xx.games connects neighbours); the layout is game.yaml's.
* tiles: each manifest tile is in the tile set or has its own code; explicit upgrade lists name
  tiles (and hexes) that exist, go one colour step up and keep the old track in some rotation.
* privates: home, reservation, start-city, blocked and future-track hexes exist with the cities
  they need; income phases, startable corporations exist.
* companies: share structures and the conversion event exist.
* trains: unique names; ``obsolete_on``/``rusts_on``/``available_on`` refer to trains/phases;
  counts cover every player count.
* phases: ``on`` trains, tile colours and train-limit structures exist.
* market: par values and ``closes_at`` are market spaces; per-player tables cover every player
  count; station provinces name map cities.
* options: ``excludes`` and packet privates exist.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from ferrovia.board.tiles import upgrade_rotations
from ferrovia.data.definition import GameDefinition, HexDef, TileDef, build_definition
from ferrovia.data.loader import PathItem, YamlDoc, load_model
from ferrovia.data.overlay import MergedDoc, load_part, part_exists
from ferrovia.errors import DataError
from ferrovia.notation.errors import NotationError
from ferrovia.notation.models import Tile
from ferrovia.notation.parser import parse
from ferrovia.paths import gamedata_root
from ferrovia.schemas import (
    CompaniesFile,
    GameFile,
    MapFile,
    MarketFile,
    OptionsFile,
    PhasesFile,
    PrivatesFile,
    TilesetFile,
    TilesFile,
    TrainsFile,
)
from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

_COORD = re.compile(r"^([A-Z]{1,2})([0-9]{1,3})$")
_LETTERS = [chr(c) for c in range(ord("A"), ord("Z") + 1)]
_LETTERS += ["A" + c for c in _LETTERS]


def coord_xy(coord: str) -> tuple[int, int] | None:
    """18xx.games' doubled coordinates of ``'G18'``: (letter index, number - 1), or None.

    >>> coord_xy("A14"), coord_xy("G8"), coord_xy("a1")
    ((0, 13), (6, 7), None)
    """
    found = _COORD.match(coord)
    if not found:
        return None
    return _LETTERS.index(found.group(1)), int(found.group(2)) - 1


_OFFBOARD = re.compile(r"(?:^|;)offboard=([^;]*)")


def with_group_revenue(
    code: str, groups: Mapping[str, Any]
) -> tuple[str, str | None, tuple[int, int]]:
    """``code`` with its off-board's group value (map.yaml ``group_revenues``) filled in when
    the off-board names a group that has one and gives no revenue itself; that group; and
    where the text went in (index, length) so errors can be told in the code as written.

    >>> with_group_revenue("offboard=groups:F,hide:1;path=a:0,b:_0", {"F": {"yellow": 30}})
    ('offboard=revenue:yellow_30,groups:F,hide:1;path=a:0,b:_0', 'F', (9, 18))
    >>> with_group_revenue("offboard=revenue:20,groups:F", {"F": 30})
    ('offboard=revenue:20,groups:F', None, (0, 0))
    """
    match = _OFFBOARD.search(code)
    if match is None:
        return code, None, (0, 0)
    keys = dict(item.split(":", 1) for item in match.group(1).split(",") if ":" in item)
    if "revenue" in keys:
        return code, None, (0, 0)
    group = next((g for g in keys.get("groups", "").split("|") if g in groups), None)
    if group is None:
        return code, None, (0, 0)
    value = groups[group]
    text = (
        "|".join(f"{colour}_{n}" for colour, n in value.items())
        if isinstance(value, Mapping)
        else str(value)
    )
    at = match.start(1)
    insert = f"revenue:{text}{',' if match.group(1) else ''}"
    return code[:at] + insert + code[at:], group, (at, len(insert))


@dataclass
class ValidationResult:
    """What checking one game directory found."""

    path: Path
    shown: str
    """The directory as shown in messages."""
    title: str | None = None
    errors: list[DataError] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    """Sizes of what loaded (also when there are errors)."""
    definition: GameDefinition | None = None

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass
class _Part(Generic[T]):
    """A validated file: its model and its document (for positions)."""

    model: T
    doc: YamlDoc


def _show(path: Path) -> str:
    """A path as a person gave it, or relative to the working directory when below it."""
    if not path.is_absolute():
        return os.path.normpath(str(path))
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class _Checker:
    """One validation run; collects errors."""

    def __init__(self, game_dir: Path, shown: str) -> None:
        self.dir = game_dir
        self.shown = shown
        self.errors: list[DataError] = []
        self.files: dict[str, str] = {"game": "game.yaml"}
        self.raw: dict[str, Any] = {}
        self.loaded: list[str] = []
        """File name shown -> its YAML tree, also when its model did not validate."""

    # ------------------------------------------------------------------ loading
    def load(self, path: Path, shown: str, model: type[M]) -> _Part[M] | None:
        self.loaded.append(shown)
        if path.parent == self.dir:  # a file of the game: merged over its base if it extends one
            kind = next((k for k, f in self.files.items() if f == path.name), path.stem)
            doc, result, errors = load_part(self.dir, self.shown, path.name, kind, model)
        else:
            doc, result, errors = load_model(path, shown, model)
        self.errors.extend(errors)
        if doc is None or doc.data is None:
            return None
        self.raw[shown] = doc.data
        if result is None:
            return None
        return _Part(result, doc)

    def file(self, name: str) -> tuple[Path, str]:
        return self.dir / name, os.path.normpath(os.path.join(self.shown, name))

    def tileset_path(self, name: str) -> tuple[Path, str]:
        """``<game>/../tilesets/<name>.yaml``, else the bundled one (a game copied elsewhere)."""
        local = self.dir.parent / "tilesets" / f"{name}.yaml"
        shown = os.path.normpath(os.path.join(self.shown, "..", "tilesets", f"{name}.yaml"))
        if not local.is_file():
            bundled = gamedata_root() / "tilesets" / f"{name}.yaml"
            if bundled.is_file():
                return bundled, _show(bundled)
        return local, shown

    def err(
        self, doc: YamlDoc, path: Sequence[PathItem], message: str, *, key: bool = False
    ) -> None:
        self.errors.append(doc.error(path, message, at_key=key))

    def parse_code(
        self,
        doc: YamlDoc,
        path: Sequence[PathItem],
        code: str,
        inserted: tuple[int, int] = (0, 0),
    ) -> Tile | None:
        """``code`` parsed, or None with its error reported; ``inserted`` (index, length) is
        text the loader put in (a group's revenue), left out again of the error's column."""
        # Strict: our data must not rely on the slips 18xx.games' decoder tolerates (edge 6,
        # a repeated key, a glued part...); every bundled code is clean.
        try:
            return parse(code, strict=True)
        except NotationError as exc:
            at, length = inserted
            if length:
                index = exc.index - length if exc.index >= at + length else min(exc.index, at)
                exc = NotationError(code[:at] + code[at + length :], index, exc.message)
            origin, style = doc.scalar_origin(path)
            if not doc.single_line(path, code):
                # The columns of a folded or multi-line scalar do not map one to one.
                self.errors.append(
                    DataError(origin.file, origin.line, origin.col, f"tile code: {exc.message}")
                )
            else:
                self.errors.append(exc.located(origin, style).to_data_error())
            return None

    # ------------------------------------------------------------------ the run
    def run(self) -> ValidationResult:
        result = ValidationResult(self.dir, self.shown)
        game_path, game_shown = self.file("game.yaml")
        game = self.load(game_path, game_shown, GameFile)
        files = game.model.files if game else GameFile.model_fields["files"].default
        self.files = {"game": "game.yaml", **files.model_dump()}
        if game:
            result.title = game.model.title
            self.check_rules(game)

        def part(name: str, model: type[M], optional: bool = False) -> _Part[M] | None:
            path, shown = self.file(name)
            if optional and not part_exists(self.dir, name):
                return None
            return self.load(path, shown, model)

        gmap = part(files.map, MapFile)
        tiles = part(files.tiles, TilesFile)
        privates = part(files.privates, PrivatesFile)
        companies = part(files.companies, CompaniesFile)
        trains = part(files.trains, TrainsFile)
        phases = part(files.phases, PhasesFile)
        market = part(files.market, MarketFile)
        options = part(files.options, OptionsFile, optional=True)
        tileset = None
        # Even when game.yaml has errors elsewhere, its tile set name is used if readable, so
        # the tiles are still checked in the same run.
        raw_game = self.raw.get(game_shown)
        tileset_name = game.model.tileset if game else None
        if tileset_name is None and isinstance(raw_game, dict):
            name = raw_game.get("tileset")
            tileset_name = name if isinstance(name, str) and name else None
        if tileset_name is not None:
            ts_path, ts_shown = self.tileset_path(tileset_name)
            if not ts_path.exists():
                if game:
                    self.err(game.doc, ("tileset",), f"no tile set {tileset_name!r} ({ts_shown})")
            else:
                tileset = self.load(ts_path, ts_shown, TilesetFile)

        players = list(range(game.model.players.min, game.model.players.max + 1)) if game else []
        hexes = self.check_map(gmap, game)
        tile_defs = self.check_tiles(tiles, tileset, hexes, gmap)
        phase_names = {p.name for p in phases.model.phases} if phases else None
        structures = set(companies.model.share_structures) if companies else None
        corp_symbols = {c.symbol for c in companies.model.corporations} if companies else None
        train_names = self.check_trains(trains, phase_names, players)
        events = {e for t in trains.model.trains for e in t.events} if trains else None
        self.check_companies(companies, events)
        private_symbols = self.check_privates(privates, hexes, gmap, phase_names, corp_symbols)
        self.check_phases(phases, train_names, structures, tiles)
        if tiles and phase_names is not None:
            first_metre = tiles.model.upgrades.metre_gauge_from_phase
            if first_metre is not None and first_metre not in phase_names:
                self.err(
                    tiles.doc,
                    ("upgrades", "metre_gauge_from_phase"),
                    f"no phase {first_metre!r} in phases.yaml",
                )
        if game and hexes is not None:
            self.check_hex_tokens(game, hexes, phases.model.phases if phases else None)
        self.check_market(market, players, hexes, set(gmap.model.hexes) if gmap else None)
        self.check_options(options, private_symbols, players)

        def count(name: str, key: str) -> int:
            # From the YAML itself, so a file with a schema error still shows its size.
            data = self.raw.get(self.file(name)[1])
            entries = data.get(key) if isinstance(data, dict) else None
            return len(entries) if isinstance(entries, dict | list) else 0

        result.counts = {
            "hexes": count(files.map, "hexes"),
            "tiles": count(files.tiles, "tiles"),
            "privates": count(files.privates, "privates"),
            "corporations": count(files.companies, "corporations"),
            "trains": count(files.trains, "trains"),
            "phases": count(files.phases, "phases"),
        }
        # Report file by file (in loading order), top to bottom within each file.
        order = {name: i for i, name in enumerate(self.loaded)}
        result.errors = sorted(
            self.errors, key=lambda e: (order.get(e.file, len(order)), e.line, e.col)
        )
        if self.errors:
            return result
        assert game and gmap and tiles and privates and companies and trains and phases
        assert market and hexes is not None and tile_defs is not None
        result.definition = build_definition(
            self.dir,
            game=game.model,
            hexes=hexes,
            tiles=tile_defs,
            upgrade_rules=tiles.model.upgrades,
            tile_lays=tiles.model.lays,
            privates=privates.model,
            companies=companies.model,
            trains=trains.model,
            phases=phases.model,
            market=market.model,
            options=options.model if options else OptionsFile(),
            route_bonuses=gmap.model.route_bonuses if gmap else None,
        )
        return result

    # ------------------------------------------------------------------ game
    def check_hex_tokens(
        self, game: _Part[GameFile], hexes: Mapping[str, HexDef], phases: Any
    ) -> None:
        """``hex_tokens``: the hexes exist, the bonus hex is an off-board, the status is one
        some phase has."""
        statuses = {st for p in phases for st in p.status} if phases is not None else None
        for kind, tokens in game.model.hex_tokens.items():
            where = ("hex_tokens", kind)
            for i, coord in enumerate(tokens.hexes):
                if coord not in hexes:
                    self.err(game.doc, (*where, "hexes", i), f"no hex {coord!r} on the map")
            bonus = hexes.get(tokens.bonus_hex)
            if bonus is None or not bonus.tile.offboards:
                self.err(
                    game.doc,
                    (*where, "bonus_hex"),
                    f"{tokens.bonus_hex!r} is not an off-board hex on the map",
                )
            if statuses is not None and tokens.from_status not in (None, *statuses):
                self.err(
                    game.doc,
                    (*where, "from_status"),
                    f"no phase has the status {tokens.from_status!r}",
                )

    def check_rules(self, game: _Part[GameFile]) -> None:
        """``rules:`` names a registered rule-hook set (engine/games), or nothing can play."""
        from ferrovia.games import available

        known = available()
        if game.model.rules not in known:
            self.err(
                game.doc,
                ("rules",),
                f"no rule set {game.model.rules!r} (known rule sets: {', '.join(known)})",
            )

    # ------------------------------------------------------------------ map
    def check_map(
        self, gmap: _Part[MapFile] | None, game: _Part[GameFile] | None
    ) -> dict[str, HexDef] | None:
        if gmap is None:
            return None
        doc = gmap.doc
        layout = game.model.layout if game else "flat"
        coords: dict[str, tuple[int, int]] = {}
        for coord in gmap.model.hexes:
            xy = coord_xy(coord)
            if xy is None:
                self.err(
                    doc,
                    ("hexes", coord),
                    f"bad coordinate {coord!r}: expected capital letters then a row number "
                    "(e.g. 'A14')",
                    key=True,
                )
            else:
                coords[coord] = xy
        parity = Counter((x + y) % 2 for x, y in coords.values())
        if parity:
            expected = parity.most_common(1)[0][0]
            example = next(c for c, (x, y) in coords.items() if (x + y) % 2 == expected)
            for coord, (x, y) in coords.items():
                if (x + y) % 2 != expected:
                    self.err(
                        doc,
                        ("hexes", coord),
                        f"coordinate {coord!r} is off this map's {layout} hex grid: "
                        f"its letter and number do not alternate like the other hexes' "
                        f"(e.g. {example!r})",
                        key=True,
                    )
        hexes: dict[str, HexDef] = {}
        used_groups: set[str] = set()
        for coord, hexdata in gmap.model.hexes.items():
            code, group, inserted = with_group_revenue(hexdata.code, gmap.model.group_revenues)
            if group is not None:
                used_groups.add(group)
            tile = self.parse_code(doc, ("hexes", coord, "code"), code, inserted)
            if tile is None or coord not in coords:
                continue
            x, y = coords[coord]
            hexes[coord] = HexDef(coord, hexdata.color, hexdata.name, code, tile, x, y)
        for group in gmap.model.group_revenues:
            inherited = isinstance(doc, MergedDoc) and doc.locate(("group_revenues", group))[3]
            # a value the base needs is not this variant's to drop (1858 India has no France)
            if group not in used_groups and not inherited:
                self.err(
                    doc,
                    ("group_revenues", group),
                    f"no off-board of group {group!r} takes this value (an offboard with "
                    f"groups:{group} and no revenue of its own)",
                    key=True,
                )
        for name, bonus in gmap.model.route_bonuses.items():
            for key in ("one_end", "other_end"):
                for j, coord in enumerate(getattr(bonus, key)):
                    if coord not in gmap.model.hexes:
                        self.err(doc, ("route_bonuses", name, key, j), f"no hex {coord!r}")
            shown = hexes.get(bonus.value_hex)
            if shown is None or not shown.tile.offboards:
                self.err(
                    doc,
                    ("route_bonuses", name, "value_hex"),
                    f"{bonus.value_hex} is not an off-board hex of the map",
                )
        return hexes

    # ------------------------------------------------------------------ tiles
    def check_tiles(
        self,
        tiles: _Part[TilesFile] | None,
        tileset: _Part[TilesetFile] | None,
        hexes: dict[str, HexDef] | None,
        gmap: _Part[MapFile] | None,
    ) -> dict[str, TileDef] | None:
        shared: dict[str, Tile | None] = {}
        if tileset is not None:
            for name, tdef in tileset.model.tiles.items():
                shared[name] = self.parse_code(tileset.doc, ("tiles", name, "code"), tdef.code)
        if tiles is None:
            return None
        doc = tiles.doc
        defs: dict[str, TileDef] = {}
        for name, entry in tiles.model.tiles.items():
            if entry.code is not None and entry.color is not None:
                tile = self.parse_code(doc, ("tiles", name, "code"), entry.code)
                if tile is not None:
                    defs[name] = TileDef(
                        name,
                        entry.color,
                        entry.count,
                        entry.code,
                        tile,
                        entry.upgrades_to,
                        True,
                        entry.special_lay,
                    )
            elif tileset is not None and name in tileset.model.tiles:
                shared_tile = shared.get(name)
                if shared_tile is not None:
                    tdef = tileset.model.tiles[name]
                    defs[name] = TileDef(
                        name,
                        tdef.color,
                        entry.count,
                        tdef.code,
                        shared_tile,
                        entry.upgrades_to,
                        special_lay=entry.special_lay,
                    )
            elif tileset is not None:
                self.err(
                    doc,
                    ("tiles", name),
                    f"tile {name!r} is not in the tile set {tileset.doc.file} and has no own "
                    "'color' and 'code'",
                    key=True,
                )
        rules = tiles.model.upgrades
        order: list[str] = list(rules.colors)
        for name, entry in tiles.model.tiles.items():
            for i, new in enumerate(entry.upgrades_to or ()):
                where = ("tiles", name, "upgrades_to", i)
                if new not in tiles.model.tiles:
                    self.err(doc, where, f"upgrade {new!r} of tile {name!r} is not in the manifest")
                elif name in defs and new in defs:
                    self.check_upgrade(doc, where, defs[name], f"tile {name!r}", defs[new], order)
        for coord, names in rules.hexes.items():
            if hexes is not None and gmap is not None and coord not in gmap.model.hexes:
                self.err(
                    doc, ("upgrades", "hexes", coord), f"no hex {coord!r} on the map", key=True
                )
                continue
            for i, new in enumerate(names):
                where = ("upgrades", "hexes", coord, i)
                if new not in tiles.model.tiles:
                    self.err(doc, where, f"tile {new!r} (for hex {coord}) is not in the manifest")
                elif hexes is not None and coord in hexes and new in defs:
                    old = hexes[coord]
                    self.check_upgrade(
                        doc,
                        where,
                        TileDef(coord, old.color, None, old.code, old.tile),
                        f"hex {coord}",
                        defs[new],
                        order,
                    )
        return defs

    def check_upgrade(
        self,
        doc: YamlDoc,
        where: Sequence[PathItem],
        old: TileDef,
        old_label: str,
        new: TileDef,
        order: list[str],
    ) -> None:
        """A listed upgrade must go one colour step up and keep the old track."""
        if old.color in order and new.color in order:
            if order.index(new.color) != order.index(old.color) + 1:
                self.err(
                    doc,
                    where,
                    f"{new.name!r} ({new.color}) cannot upgrade {old_label} ({old.color}): "
                    f"upgrades go one step along {', '.join(order)}",
                )
                return
        if not upgrade_rotations(old.tile, 0, new.tile):
            self.err(
                doc,
                where,
                f"{new.name!r} does not keep the track of {old_label} in any rotation",
            )

    # ------------------------------------------------------------------ trains
    def check_trains(
        self, trains: _Part[TrainsFile] | None, phase_names: set[str] | None, players: list[int]
    ) -> set[str] | None:
        if trains is None:
            return None
        doc = trains.doc
        names: set[str] = set()
        types: set[str] = set()
        for i, train in enumerate(trains.model.trains):
            faces = [(("trains", i, "name"), train.name)] + [
                (("trains", i, "variants", j, "name"), v.name) for j, v in enumerate(train.variants)
            ]
            for where, name in faces:
                if name in names:
                    self.err(doc, where, f"train name {name!r} is used twice")
                names.add(name)
            types.add(train.name)
            runs: list[tuple[tuple[PathItem, ...], Any]] = [(("trains", i), train)]
            runs += [(("trains", i, "variants", j), v) for j, v in enumerate(train.variants)]
            for at, face in runs:
                large = face.distance.large_stops
                if large is not None and large.visit < 1:
                    # a route starts at one of the company's stations, in a city: a large stop
                    self.err(
                        doc,
                        (*at, "distance", "large_stops", "visit"),
                        f"{face.name} could run no route: a route visits at least one large "
                        "stop (the station it starts from)",
                    )
        for i, train in enumerate(trains.model.trains):
            for key in ("obsolete_on", "rusts_on"):
                rust = getattr(train, key)
                if isinstance(rust, str):
                    if rust not in names:
                        self.err(doc, ("trains", i, key), f"no train {rust!r}")
                elif rust is not None:
                    for j, face in enumerate(rust.of):
                        if face not in names:
                            self.err(doc, ("trains", i, key, "of", j), f"no train {face!r}")
                    if isinstance(rust.nth_purchase, dict):
                        self.cover(
                            doc, ("trains", i, key, "nth_purchase"), rust.nth_purchase, players
                        )
            if (
                train.available_on is not None
                and phase_names is not None
                and train.available_on not in phase_names
            ):
                self.err(doc, ("trains", i, "available_on"), f"no phase {train.available_on!r}")
            if isinstance(train.count, dict):
                self.cover(doc, ("trains", i, "count"), train.count, players)
        return names

    def cover(
        self, doc: YamlDoc, where: Sequence[PathItem], table: dict[int, Any], players: list[int]
    ) -> None:
        """A per-player-count table must give a value for every allowed player count."""
        missing = [n for n in players if n not in table]
        if missing:
            self.err(
                doc,
                where,
                f"no value for {', '.join(map(str, missing))} players "
                f"(game.yaml allows {players[0]}-{players[-1]})",
                key=True,
            )
        for n in table:
            if players and n not in players:
                self.err(
                    doc,
                    [*where, n],
                    f"{n} players is outside game.yaml's {players[0]}-{players[-1]}",
                    key=True,
                )

    # ------------------------------------------------------------------ companies
    def check_companies(
        self, companies: _Part[CompaniesFile] | None, events: set[str] | None
    ) -> None:
        if companies is None:
            return
        doc = companies.doc
        model = companies.model
        seen: set[str] = set()
        for i, corp in enumerate(model.corporations):
            if corp.symbol in seen:
                self.err(doc, ("corporations", i, "symbol"), f"corporation {corp.symbol!r} twice")
            seen.add(corp.symbol)
            if corp.structure not in model.share_structures:
                self.err(
                    doc,
                    ("corporations", i, "structure"),
                    f"no share structure {corp.structure!r} "
                    f"(share_structures: {', '.join(model.share_structures)})",
                )
        conv = model.conversion
        if conv is not None:
            for key, value in (("from", conv.from_structure), ("to", conv.to)):
                if value not in model.share_structures:
                    self.err(doc, ("conversion", key), f"no share structure {value!r}")
            if events is not None and conv.on_event not in events:
                self.err(
                    doc, ("conversion", "on_event"), f"no train has the event {conv.on_event!r}"
                )

    # ------------------------------------------------------------------ privates
    def check_privates(
        self,
        privates: _Part[PrivatesFile] | None,
        hexes: dict[str, HexDef] | None,
        gmap: _Part[MapFile] | None,
        phase_names: set[str] | None,
        corp_symbols: set[str] | None,
    ) -> set[str] | None:
        if privates is None:
            return None
        doc = privates.doc
        by_symbol = {p.symbol: p for p in privates.model.privates}
        symbols = set(by_symbol)
        seen: set[str] = set()
        numbers: set[int] = set()
        on_map = set(gmap.model.hexes) if gmap else None

        def hex_exists(where: Sequence[PathItem], coord: str) -> bool:
            if on_map is not None and coord not in on_map:
                self.err(doc, where, f"no hex {coord!r} on the map")
                return False
            return hexes is not None and coord in hexes

        def city_exists(where: Sequence[PathItem], coord: str, city: int, slot: int = 0) -> None:
            if not hex_exists([*where, "hex"], coord):
                return
            assert hexes is not None
            cities = hexes[coord].tile.cities
            if city >= len(cities):
                have = f"only {len(cities)}" if cities else "no"
                self.err(
                    doc,
                    [*where, "city"] if city else [*where, "hex"],
                    f"hex {coord} has {have} cit{'y' if len(cities) == 1 else 'ies'}; "
                    f"city index {city} does not exist",
                )
            elif slot >= cities[city].slots:
                self.err(
                    doc,
                    [*where, "slot"],
                    f"city {city} of hex {coord} has {cities[city].slots} slot(s); "
                    f"slot {slot} does not exist",
                )

        for i, private in enumerate(privates.model.privates):
            base: tuple[PathItem, ...] = ("privates", i)
            if private.symbol in seen:
                self.err(doc, (*base, "symbol"), f"private {private.symbol!r} twice")
            seen.add(private.symbol)
            if private.number in numbers:
                self.err(doc, (*base, "number"), f"private number {private.number} twice")
            numbers.add(private.number)
            for j, coord in enumerate(private.home_hexes):
                hex_exists((*base, "home_hexes", j), coord)
            for j, res in enumerate(private.reservations):
                city_exists((*base, "reservations", j), res.hex, res.city, res.slot)
            reserved = {(r.hex, r.city) for r in private.reservations}
            for j, start in enumerate(private.start_cities):
                city_exists((*base, "start_cities", j), start.hex, start.city)
                if (start.hex, start.city) not in reserved:
                    self.err(
                        doc,
                        (*base, "start_cities", j),
                        f"start city {start.hex} city {start.city} is not one of "
                        f"{private.symbol}'s reservations",
                    )
            if private.can_start != "none" and not private.start_cities:
                self.err(
                    doc,
                    (*base, "can_start"),
                    f"{private.symbol} can start a company but has no 'start_cities'",
                    key=True,
                )
            for j, coord in enumerate(private.blocks_hexes):
                if coord not in private.home_hexes:
                    self.err(
                        doc, (*base, "blocks_hexes", j), f"{coord} is not one of its home hexes"
                    )
            if phase_names is not None:
                for phase in private.income:
                    if phase not in phase_names:
                        self.err(doc, (*base, "income", phase), f"no phase {phase!r}", key=True)
            if isinstance(private.can_start, tuple) and corp_symbols is not None:
                for j, sym in enumerate(private.can_start):
                    if sym not in corp_symbols:
                        self.err(doc, (*base, "can_start", j), f"no corporation {sym!r}")
        self.check_home_blocks(doc, privates.model.privates, hexes)
        return symbols

    def check_home_blocks(
        self, doc: Any, privates: Sequence[Any], hexes: dict[str, HexDef] | None
    ) -> None:
        """A private that lays track must be able to lay its first tile at home: a white home
        hex that another private blocks (and it does not block itself) would refuse it for as
        long as the other is open.  A hex that takes no tile (Switzerland's gray Gotthard,
        H11, shared by two privates' lines) is blocked for no one's lay, so it is fine."""
        for i, private in enumerate(privates):
            if not private.minor:
                continue
            for j, coord in enumerate(private.home_hexes):
                if coord in private.blocks_hexes:
                    continue  # a hex blocked by two privates is open to either
                if hexes is not None and coord in hexes and hexes[coord].color != "white":
                    continue  # no first tile goes there: the block refuses nothing
                others = [
                    q.symbol
                    for q in privates
                    if q.symbol != private.symbol and coord in q.blocks_hexes
                ]
                if others:
                    self.err(
                        doc,
                        ("privates", i, "home_hexes", j),
                        f"{private.symbol}'s home hex {coord} is blocked by "
                        f"{', '.join(others)}: {private.symbol} could lay no tile there while "
                        f"{'it is' if len(others) == 1 else 'they are'} open (list {coord} in "
                        f"{private.symbol}'s blocks_hexes too, or take it out of theirs)",
                    )

    # ------------------------------------------------------------------ phases
    def check_phases(
        self,
        phases: _Part[PhasesFile] | None,
        train_names: set[str] | None,
        structures: set[str] | None,
        tiles: _Part[TilesFile] | None,
    ) -> None:
        if phases is None:
            return
        doc = phases.doc
        colors = list(tiles.model.upgrades.colors) if tiles else None
        seen: set[str] = set()
        for i, phase in enumerate(phases.model.phases):
            if phase.name in seen:
                self.err(doc, ("phases", i, "name"), f"phase {phase.name!r} twice")
            seen.add(phase.name)
            if train_names is not None:
                for j, train in enumerate(phase.on):
                    if train not in train_names:
                        self.err(doc, ("phases", i, "on", j), f"no train {train!r} in trains.yaml")
            if colors is not None:
                for j, color in enumerate(phase.tiles):
                    if color not in colors:
                        self.err(
                            doc,
                            ("phases", i, "tiles", j),
                            f"{color!r} is not a tile colour ({', '.join(colors)})",
                        )
            if structures is not None:
                for key in phase.train_limit:
                    if key not in structures:
                        self.err(
                            doc,
                            ("phases", i, "train_limit", key),
                            f"no share structure {key!r} in companies.yaml",
                            key=True,
                        )

    # ------------------------------------------------------------------ market
    def check_market(
        self,
        market: _Part[MarketFile] | None,
        players: list[int],
        hexes: dict[str, HexDef] | None,
        on_map: set[str] | None,
    ) -> None:
        if market is None:
            return
        doc = market.doc
        model = market.model
        spaces = set(model.stock_market.spaces)
        for i, par in enumerate(model.stock_market.par_values):
            if par not in spaces:
                self.err(
                    doc,
                    ("stock_market", "par_values", i),
                    f"par value {par} is not a space of the stock market",
                )
        if model.stock_market.closes_at is not None and model.stock_market.closes_at not in spaces:
            self.err(
                doc,
                ("stock_market", "closes_at"),
                f"{model.stock_market.closes_at} is not a space of the stock market",
            )
        for key in ("bank", "certificate_limit", "starting_cash"):
            if players:
                self.cover(doc, (key,), getattr(model, key), players)
        stations = model.stations
        if stations is not None:
            provinces = set(stations.provinces)
            for name, cities in stations.provinces.items():
                for j, coord in enumerate(cities):
                    where = ("stations", "provinces", name, j)
                    if on_map is not None and coord not in on_map:
                        self.err(doc, where, f"no hex {coord!r} on the map")
                    elif hexes is not None and coord in hexes and not hexes[coord].tile.cities:
                        self.err(doc, where, f"hex {coord} has no city")
            self.check_provinces(doc, stations, hexes)
            for name, row in stations.borders_between.items():
                if name not in provinces:
                    self.err(
                        doc,
                        ("stations", "borders_between", name),
                        f"no province {name!r}",
                        key=True,
                    )
                for other in row:
                    if other not in provinces:
                        self.err(
                            doc,
                            ("stations", "borders_between", name, other),
                            f"no province {other!r}",
                            key=True,
                        )

    def check_provinces(self, doc: Any, stations: Any, hexes: dict[str, HexDef] | None) -> None:
        """What the station-cost rule needs at play time: every city of the map in exactly one
        province (else a station there silently costs the minimum), and a border count for
        every pair of provinces (else pricing a station fails)."""
        owner: dict[str, str] = {}
        for name, cities in stations.provinces.items():
            for j, coord in enumerate(cities):
                if coord in owner and owner[coord] != name:
                    self.err(
                        doc,
                        ("stations", "provinces", name, j),
                        f"{coord} is already in province {owner[coord]!r}",
                    )
                owner.setdefault(coord, name)
        if hexes is not None:
            lost = sorted(c for c, h in hexes.items() if h.tile.cities and c not in owner)
            for coord in lost:
                named = f" ({hexes[coord].name})" if hexes[coord].name else ""
                self.err(
                    doc,
                    ("stations", "provinces"),
                    f"city {coord}{named} is in no province: its station cost is undefined",
                    key=True,
                )
        for name in stations.provinces:
            row = stations.borders_between.get(name)
            if row is None:
                continue  # reported as a missing row below when it matters
            missing = [o for o in stations.provinces if o not in row]
            if missing:
                self.err(
                    doc,
                    ("stations", "borders_between", name),
                    f"no border count from {name} to {', '.join(missing)}",
                    key=True,
                )
        absent = [n for n in stations.provinces if n not in stations.borders_between]
        if absent:
            self.err(
                doc,
                ("stations", "borders_between"),
                f"no border counts from {', '.join(absent)}",
                key=True,
            )

    # ------------------------------------------------------------------ options
    def check_options(
        self, options: _Part[OptionsFile] | None, privates: set[str] | None, players: list[int]
    ) -> None:
        if options is None:
            return
        doc = options.doc
        ids = {o.id for o in options.model.options}
        for i, option in enumerate(options.model.options):
            for j, other in enumerate(option.excludes):
                if other not in ids:
                    self.err(doc, ("options", i, "excludes", j), f"no option {other!r}")
            for j, n in enumerate(option.players):
                if players and n not in players:
                    self.err(
                        doc,
                        ("options", i, "players", j),
                        f"{n} players is outside game.yaml's {players[0]}-{players[-1]}",
                    )
            for n, packets in option.packets.items():
                if option.players and n not in option.players:
                    self.err(
                        doc,
                        ("options", i, "packets", n),
                        f"packets for {n} players, but the option is for "
                        f"{', '.join(map(str, option.players))}",
                        key=True,
                    )
                if len(packets) != n:
                    self.err(
                        doc,
                        ("options", i, "packets", n),
                        f"{len(packets)} packets for {n} players",
                        key=True,
                    )
                given: set[str] = set()
                for k, packet in enumerate(packets):
                    for m, sym in enumerate(packet.privates):
                        where = ("options", i, "packets", n, k, "privates", m)
                        if privates is not None and sym not in privates:
                            self.err(doc, where, f"no private {sym!r}")
                        elif sym in given:
                            self.err(doc, where, f"private {sym!r} is in two packets")
                        given.add(sym)


def validate_game(path: Path, shown: str | None = None) -> ValidationResult:
    """Check the game in directory ``path`` (containing ``game.yaml``); never raises on bad data.

    ``shown`` is how the directory appears in messages (default: ``path`` as given, or relative
    to the working directory).
    """
    return _Checker(path, shown if shown is not None else _show(path)).run()


def find_games(root: Path) -> list[Path]:
    """Every game directory (one holding ``game.yaml``) at or below ``root``, sorted."""
    if (root / "game.yaml").is_file():
        return [root]
    return sorted(p.parent for p in root.rglob("game.yaml"))
