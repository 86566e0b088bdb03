"""Just enough of an 18xx.games 1858 export to value its routes: the map, tokens, trains, phase.

A light reader for the route engine's own checks and tools (and the ``ferrovia routes``
fallback until the rules engine's replay, :mod:`ferrovia.play.replay`, is available): it follows
only
what routes depend on -- tiles laid (``lay_tile``), station tokens (``place_token``), trains
bought (their face: ``variant``), the phase and wounded trains (from the first purchase of each
train type) -- and honours ``undo``/``redo``.  It does not check any rule; the rules engine
does.  Facts (which purchase starts which phase, which wounds which train, each phase's tile
colours) come from the game's definition (:func:`ferrovia.data.definition.load_game`).

>>> game = ExportReader.open("219682.json")  # doctest: +SKIP
>>> for snap in game.run_routes():  # doctest: +SKIP
...     snap.action["id"], snap.phase_colours
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ferrovia.board.graph import TrackGraph, build_graph
from ferrovia.notation import parse
from ferrovia.notation.models import Tile
from ferrovia.paths import gamedata_root
from ferrovia.routes.value import TrainSpec, train_spec_from_data
from ferrovia.schemas.trains import Train, Variant


@dataclass(frozen=True)
class RouteData:
    """Map and train facts of one game, read from ``gamedata/<game>``."""

    hex_codes: Mapping[str, str]
    hex_colours: Mapping[str, str]
    tile_codes: Mapping[str, str]
    trains: Mapping[str, TrainSpec]  # face name -> spec (not wounded)
    card_of_face: Mapping[str, str]  # face name -> card (type) name
    phase_on: Mapping[str, str]  # card name whose first purchase starts the phase -> phase
    obsolete_on: Mapping[str, str]  # card -> card whose first purchase wounds it
    #: card -> what rusts it: a card name (its first purchase) or (faces, {players: N}) (the
    #: Nth train bought from the bank with one of those faces)
    rusts_on: Mapping[str, Any] = field(default_factory=dict)
    #: phase names in order -> the tile colours of each (phases.yaml ``tiles``)
    phase_tiles: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @staticmethod
    def load(game_dir: Path | None = None) -> RouteData:
        """The facts of the game in ``game_dir`` (default 1858) through the loader, so a
        variant's ``extends`` and overlays count."""
        from ferrovia.data.definition import load_game

        defn = load_game(game_dir or gamedata_root() / "1858")
        hex_codes = {c: h.code for c, h in defn.hexes.items()}
        hex_colours = {c: h.color for c, h in defn.hexes.items()}
        tiles = {name: t.code for name, t in defn.tiles.items()}
        trains: dict[str, TrainSpec] = {}
        card_of_face: dict[str, str] = {}
        obsolete_on: dict[str, str] = {}
        rusts_on: dict[str, Any] = {}
        for t in defn.trains:
            rust = t.rusts_on
            if rust is not None and not isinstance(rust, str):
                n = rust.nth_purchase
                counts = {str(k): int(v) for k, v in n.items()} if isinstance(n, dict) else {}
                rusts_on[t.name] = (tuple(rust.of), counts)
            elif rust:
                rusts_on[t.name] = str(rust)
            faces: list[Train | Variant] = [t, *t.variants]
            for face in faces:
                trains[face.name] = train_spec_from_data(
                    face.name,
                    face.distance.given(),
                    gauge=face.gauge,
                    multiplier=face.multiplier,
                )
                card_of_face[face.name] = t.name
            if isinstance(t.obsolete_on, str):
                obsolete_on[t.name] = t.obsolete_on
        phase_on: dict[str, str] = {}
        for ph in defn.phases:
            for name in ph.on:
                phase_on[card_of_face.get(name, name)] = ph.name
        phase_tiles = {ph.name: tuple(ph.tiles) for ph in defn.phases}
        return RouteData(
            hex_codes,
            hex_colours,
            tiles,
            trains,
            card_of_face,
            phase_on,
            obsolete_on,
            rusts_on,
            phase_tiles,
        )

    def tile(self, name: str) -> Tile:
        return parse(self.tile_codes[name])


@dataclass
class Snapshot:
    """The route-relevant state just before one ``run_routes`` action."""

    action: Mapping[str, Any]
    index: int
    hex_tiles: dict[str, tuple[Tile, int]]
    colours: Mapping[str, str]
    tokens: dict[str, list[list[str | None]]]
    phase: str
    trains: dict[str, TrainSpec]  # train id -> spec (wounded if obsolete)
    owners: dict[str, str]  # train id -> company
    data: RouteData = field(repr=False)

    @property
    def phase_colours(self) -> tuple[str, ...]:
        return tuple(self.data.phase_tiles.get(self.phase, ("yellow",)))

    @cached_property
    def graph(self) -> TrackGraph:
        return build_graph(self.hex_tiles, colors=self.colours)

    def company_trains(self, company: str) -> dict[str, TrainSpec]:
        return {t: s for t, s in self.trains.items() if self.owners.get(t) == company}


def effective_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions that stand after ``undo``/``redo``, without messages: the replay's own
    filter (:func:`ferrovia.play.replay.filter_actions`, 18xx.games semantics), so undo is
    resolved in one place."""
    from ferrovia.play.replay import filter_actions

    return [a for a in filter_actions(actions) if a.get("type") != "message"]


class ExportReader:
    """Walks an export's effective actions, keeping the map state routes need."""

    def __init__(self, export: Mapping[str, Any], data: RouteData | None = None) -> None:
        self.export = export
        self.data = data or RouteData.load()
        self.actions = effective_actions(list(export["actions"]))

    @staticmethod
    def open(path: Path | str, data: RouteData | None = None) -> ExportReader:
        return ExportReader(json.loads(Path(path).read_text(encoding="utf-8")), data)

    def _closures(self) -> dict[int, list[str]]:
        """Corporations that closed (share price reached 0): index of the action after which.

        An export records no closing, only that a closed corporation is started again
        (``par``).  It is taken to close right after its last own action before that ``par``
        (it closes by its own dividend or by share sales before it operates again).
        """
        out: dict[int, list[str]] = {}
        last_own: dict[str, int] = {}
        for i, a in enumerate(self.actions):
            started = []
            if a["type"] == "par":
                started.append(str(a.get("corporation")))
            elif a["type"] == "buy_shares" and a.get("entity_type") == "company":
                # a private exchanged for a director's certificate starts the company
                started += [s[:-2] for s in a.get("shares", []) if str(s).endswith("_0")]
            for corp in started:
                if corp in last_own:
                    out.setdefault(last_own[corp], []).append(corp)
                    del last_own[corp]
            for act in [a, *(a.get("auto_actions") or [])]:
                if act.get("entity_type") == "corporation":
                    last_own[str(act["entity"])] = i
        # a company that stops acting while another completes two more turns has closed
        turns: list[tuple[int, str]] = []  # (index, corporation) where a turn starts
        prev = None
        for i, a in enumerate(self.actions):
            if a.get("entity_type") == "corporation" and a.get("entity") != prev:
                turns.append((i, str(a["entity"])))
            prev = a.get("entity")
        for corp, i in last_own.items():
            later: dict[str, int] = {}
            for j, other in turns:
                if j > i and other != corp:
                    later[other] = later.get(other, 0) + 1
            if any(n >= 3 for n in later.values()):
                out.setdefault(i, []).append(corp)
        return out

    def snapshots(self, *, until: int | None = None) -> Iterator[Snapshot]:
        """A snapshot before each ``run_routes`` (or only before action id ``until``)."""
        data = self.data
        tiles: dict[str, tuple[Tile, int]] = {h: (parse(c), 0) for h, c in data.hex_codes.items()}
        tile_ids = {h: f"{h}-0" for h in data.hex_codes}
        tokens: dict[str, list[list[str | None]]] = {}
        bought: set[str] = set()
        order = list(data.phase_tiles)
        phase = order[0]
        faces: dict[str, str] = {}
        owners: dict[str, str] = {}
        closes_after = self._closures()
        scrapped: set[str] = set()  # rusted or scrapped: never back in the depot
        counted: dict[str, int] = {}  # card -> trains bought from the bank that count to rust it
        players = len(self.export.get("players") or [])

        def city_slots(h: str) -> list[list[str | None]]:
            tile = tiles[h][0]
            return tokens.setdefault(h, [[None] * c.slots for c in tile.cities])

        for i, a in enumerate(self.actions):
            kind = a["type"]
            if (until is not None and a.get("id") == until) or (
                until is None and kind == "run_routes"
            ):
                specs: dict[str, TrainSpec] = {}
                for tid, face in faces.items():
                    spec = data.trains.get(face)
                    if spec is None:
                        continue
                    card = data.card_of_face.get(face, face)
                    wound = data.obsolete_on.get(card)
                    specs[tid] = spec.wounded(wound in bought) if wound else spec
                yield Snapshot(
                    a,
                    i,
                    dict(tiles),
                    data.hex_colours,
                    {h: [list(s) for s in v] for h, v in tokens.items()},
                    phase,
                    specs,
                    dict(owners),
                    data,
                )
                if until is not None:
                    return
            for corp in closes_after.get(i - 1, ()):
                for per_city in tokens.values():
                    for slots in per_city:
                        for k, t in enumerate(slots):
                            if t == corp:
                                slots[k] = None
            if kind == "lay_tile":
                h = a["hex"]
                name = a["tile"].rsplit("-", 1)[0]
                new = data.tile(name)
                old_tokens = tokens.get(h)
                tiles[h] = (new, int(a.get("rotation", 0)))
                tile_ids[h] = a["tile"]
                if old_tokens:
                    fresh: list[list[str | None]] = [[None] * c.slots for c in new.cities]
                    held = [(ci, t) for ci, slots in enumerate(old_tokens) for t in slots if t]
                    for ci, t in held:
                        target = fresh[ci if ci < len(fresh) else 0] if fresh else None
                        if target is None:
                            continue
                        if None in target:
                            target[target.index(None)] = t
                        else:
                            target.append(t)
                    tokens[h] = fresh
            elif kind == "place_token":
                city_id = str(a["city"])
                tile_id, part = city_id.rsplit("-", 1)
                for h, tid in tile_ids.items():
                    if tid == tile_id:
                        tile = tiles[h][0]
                        # the city whose part index is `part`
                        from ferrovia.board.graph import ruby_part_indices

                        idx = ruby_part_indices(tile)
                        cities = [
                            n
                            for n, (p, pi) in enumerate(zip(tile.parts, idx, strict=True))
                            if pi == int(part)
                        ]
                        if not cities:
                            break
                        part_obj = tile.parts[cities[0]]
                        number = next(k for k, c in enumerate(tile.cities) if c is part_obj)
                        slots = city_slots(h)[number]
                        who = str(a.get("tokener") or a["entity"])
                        slot = a.get("slot")
                        if isinstance(slot, int) and slot < len(slots) and slots[slot] is None:
                            slots[slot] = who
                        elif None in slots:
                            slots[slots.index(None)] = who
                        else:
                            slots.append(who)
                        break
            elif kind == "buy_train":
                tid = str(a["train"])
                card = tid.rsplit("-", 1)[0]
                from_bank = tid not in owners and tid not in scrapped
                # a discarded train goes back to the depot and may be bought with either face
                faces[tid] = str(a.get("variant") or faces.get(tid) or card)
                owners[tid] = str(a["entity"])
                rusting: list[str] = []
                if card not in bought:
                    bought.add(card)
                    new_phase = data.phase_on.get(card)
                    if new_phase and order.index(new_phase) > order.index(phase):
                        phase = new_phase
                    rusting += [c for c, r in data.rusts_on.items() if r == card]
                if from_bank:
                    for c, r in data.rusts_on.items():
                        if isinstance(r, tuple) and faces[tid] in r[0]:
                            counted[c] = counted.get(c, 0) + 1
                            if counted[c] == r[1].get(str(players), 0):
                                rusting.append(c)
                for c in rusting:
                    for t in [t for t in owners if t.rsplit("-", 1)[0] == c]:
                        del owners[t]
                        scrapped.add(t)
            elif kind in ("discard_train", "scrap_train"):
                owners.pop(str(a["train"]), None)
                if kind == "scrap_train":
                    scrapped.add(str(a["train"]))
