"""Lay or upgrade track: what one tile operation costs.

The tile operations of a turn and their fees are tiles.yaml ``lays`` (by kind of operator);
terrain (the hex's printed cost) is paid on the first tile laid there, reduced as
``upgrades.terrain`` says when the only new track is metre gauge or the lay is in a private
railway's own home hex.  Like 18xx.games, a lay's ``metre_cost`` replaces its ``cost`` when the
new track of *any* of the turn's operations is entirely metre gauge.

>>> from ferrovia.schemas.tiles import TerrainRules, TileLay
>>> second = TileLay(cost=20, metre_cost=10, other_hex=True)
>>> rules = TerrainRules(metre_only="half", private_home_hexes="free")
>>> tile_lay_cost(TileLay(), rules, terrain=60, new_gauges={"narrow"}, turn_gauges=[{"narrow"}])
30
>>> tile_lay_cost(second, rules, terrain=0, new_gauges={"broad"},
...               turn_gauges=[{"narrow"}, {"broad"}])
10
>>> tile_lay_cost(second, rules, terrain=40, new_gauges={"broad"},
...               turn_gauges=[{"broad"}, {"broad"}])
60
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence, Set
from typing import TYPE_CHECKING, Any

from ferrovia.board import hexmap, tiles
from ferrovia.board.graph import gauge_skip
from ferrovia.errors import IllegalAction
from ferrovia.kernel.actions import Action, Pass
from ferrovia.kernel.ledger import transfer
from ferrovia.lib18xx import abilities, board
from ferrovia.lib18xx.actions import LayTile
from ferrovia.lib18xx.operating import common, routing, upgrading
from ferrovia.lib18xx.rules import Rules18xx
from ferrovia.lib18xx.state import BANK
from ferrovia.lib18xx.step import Step18xx

if TYPE_CHECKING:  # the definition holds records of them (ferrovia.data.records)
    from ferrovia.schemas.tiles import TerrainRules, TileLay

METRE = "narrow"  # 18xx.games' name for metre gauge, used in tile codes
MAX_LAYS_OFFERED = 40  # random play needs some legal lays, not all of them


def new_track_gauges(old_tracks: Iterable[str], new_tracks: Iterable[str]) -> frozenset[str]:
    """Gauges of the track a lay adds: the new tile's paths minus those it keeps (as a
    multiset of path gauges, the way an upgrade preserves old track).

    >>> sorted(new_track_gauges(["broad"], ["broad", "narrow", "narrow"]))
    ['narrow']
    >>> sorted(new_track_gauges([], ["dual"]))
    ['dual']
    """
    # (a tile has a handful of paths: list removal is cheaper than two Counters, every lay)
    remaining = list(new_tracks)
    for g in old_tracks:
        if g in remaining:
            remaining.remove(g)
    return frozenset(remaining)


def only_metre(gauges: Set[str]) -> bool:
    return set(gauges) == {METRE}


def terrain_cost(
    terrain: int, new_gauges: Set[str], rules: TerrainRules, *, home_of_private: bool = False
) -> int:
    """Terrain paid for a lay: free in a private's home hex and halved (rounding the discount
    down) for metre-only track when tiles.yaml ``upgrades.terrain`` says so.

    >>> from ferrovia.schemas.tiles import TerrainRules
    >>> rules = TerrainRules(metre_only="half", private_home_hexes="free")
    >>> terrain_cost(45, {"narrow"}, rules), terrain_cost(40, {"dual"}, rules)
    (23, 40)
    >>> terrain_cost(40, {"broad"}, rules, home_of_private=True)
    0
    """
    if terrain <= 0 or (home_of_private and rules.private_home_hexes == "free"):
        return 0
    if rules.metre_only == "half" and only_metre(new_gauges):
        return terrain - terrain // 2
    return terrain


def tile_lay_cost(
    lay: TileLay,
    rules: TerrainRules,
    *,
    terrain: int,
    new_gauges: Set[str],
    turn_gauges: Sequence[Set[str]],
    home_of_private: bool = False,
) -> int:
    """Total cost of one tile operation: its terrain and the lay's own fee.

    ``turn_gauges`` lists the new-track gauges of every operation this turn *including* this one.
    """
    cost = terrain_cost(terrain, new_gauges, rules, home_of_private=home_of_private)
    if lay.metre_cost is not None and any(only_metre(g) for g in turn_gauges):
        return cost + lay.metre_cost
    return cost + lay.cost


# -- the step -----------------------------------------------------------------------------------


def uses_new_track_or_city(
    old: Any,
    old_rotation: int,
    new: Any,
    rotation: int,
    reached: set[int],
    *,
    usable: Callable[[Any], bool] | None = None,
    passable: Callable[[int], bool] | None = None,
    revenue: bool = True,
    gauge_fits: tiles.GaugeFits = tiles.reference_gauge_fits,
) -> bool:
    """18xx.games' semi-restrictive rule for an upgrade: among the new tile's paths on the
    operator's network (joined at a ``reached`` edge, or through a stop of the tile the
    operator may pass), one is new track or (with ``revenue``) touches a stop whose value
    changes.  ``usable``: the paths the network can use (one gauge family's); None: all.
    ``passable``: whether the network goes on through a node (a city full of other companies'
    stations stops it); None: every node.

    >>> from ferrovia.notation import parse
    >>> straight, x = parse("path=a:0,b:3"), parse("path=a:0,b:3;path=a:1,b:4")
    >>> uses_new_track_or_city(straight, 0, x, 0, {0})  # the new crossing is off the network
    False
    >>> uses_new_track_or_city(straight, 0, x, 0, {1})
    True
    """
    # (it holds for a set of reached edges exactly when it holds for one of them alone)
    return bool(
        upgrading_edges(
            old,
            old_rotation,
            new,
            rotation,
            reached,
            usable=usable,
            passable=passable,
            revenue=revenue,
            gauge_fits=gauge_fits,
        )
    )


def upgrading_edges(
    old: Any,
    old_rotation: int,
    new: Any,
    rotation: int,
    edges: Collection[int],
    *,
    usable: Callable[[Any], bool] | None = None,
    passable: Callable[[int], bool] | None = None,
    revenue: bool = True,
    gauge_fits: tiles.GaugeFits = tiles.reference_gauge_fits,
) -> set[int]:
    """The edges ``e`` of ``edges`` for which ``uses_new_track_or_city(..., {e}, ...)`` holds.
    That answer for a set of reached edges is whether it holds one of these
    (``tests/test_track_upgrading_edges.py`` checks it against joining the paths one by one
    from the whole set): a path is on
    the network by a chain of paths sharing passable nodes from one reached edge, so the
    paths joined from a set are those joined from each of its edges, and the rule asks of
    each joined path alone.  A lay check then needs only whether one of these is reached
    (a walk that stops at the first), not every reached exit of the tile.

    >>> from ferrovia.notation import parse
    >>> straight, x = parse("path=a:0,b:3"), parse("path=a:0,b:3;path=a:1,b:4")
    >>> sorted(upgrading_edges(straight, 0, x, 0, range(6)))
    [1, 4]
    """
    if not edges:
        return set()
    fresh = {
        id(p) for p in tiles.new_track(old, old_rotation, new, rotation, gauge_fits=gauge_fits)
    }
    # The paths joined from an edge: those of its paths' group, paths grouped when they
    # share a node the network passes through
    group: dict[int, int] = {}  # usable path index -> the first path of its group
    by_node: dict[int, int] = {}  # passable node -> a path through it
    passes: dict[int, bool] = {}

    def root(i: int) -> int:
        while group[i] != i:
            i = group[i]
        return i

    path_edges: list[tuple[int, set[int]]] = []
    for i, p in enumerate(new.paths):
        if usable is not None and not usable(p):
            continue
        group[i] = i
        path_edges.append((i, {(e + rotation) % 6 for e in p.edges}))
        for n in p.node_refs:
            ok = passes.get(n)
            if ok is None:
                ok = passes[n] = passable is None or passable(n)
            if not ok:
                continue
            other = by_node.setdefault(n, i)
            a, b = root(i), root(other)
            if a != b:
                group[max(a, b)] = min(a, b)
    counted: dict[int, bool] = {}  # group -> whether one of its paths is new or changes a city

    def counts(g: int) -> bool:
        hit = counted.get(g)
        if hit is None:
            hit = counted[g] = any(
                _counts(old, old_rotation, new, rotation, i, fresh, revenue, gauge_fits)
                for i in group
                if root(i) == g
            )
        return hit

    return {e for e in edges if any(e in pe and counts(root(i)) for i, pe in path_edges)}


def _counts(
    old: Any,
    old_rotation: int,
    new: Any,
    rotation: int,
    i: int,
    fresh: set[int],
    revenue: bool,
    gauge_fits: tiles.GaugeFits,
) -> bool:
    """Whether the new tile's path ``i`` is new track or (``revenue``) touches a stop whose
    value changes."""
    np_ = new.paths[i]
    if id(np_) in fresh:
        return True
    op = next(
        (
            o
            for o in old.paths
            if tiles.path_kept(new, np_, rotation, old, o, old_rotation, gauge_fits=gauge_fits)
        ),
        None,
    )
    return op is None or (revenue and _stop_values(new, np_) != _stop_values(old, op))


def _stop_values(tile: Any, path: Any) -> list[int]:
    """Best values of the stops a path touches (how 18xx.games compares an upgrade's cities)."""
    out = []
    for ref in path.node_refs:
        node = tile.nodes[ref]
        revenue = getattr(node, "revenue", None)
        if revenue is not None:
            out.append(int(revenue.max))
    return sorted(out)


def _tile_lays(step: Step18xx, operator: str) -> tuple[TileLay, ...]:
    """The operator's tile operations per turn (tiles.yaml ``lays``: ``private`` for a
    private railway, ``corporation`` for a public company)."""
    kind = "private" if common.is_minor(step.state, operator) else "corporation"
    return step.game.definition.tile_lays.get(kind, ())


#: per game definition: (coord, old tile, its rotation, next colour) -> the tiles of that
#: colour with a legal rotation there (kept between listings: a question of geometry)
_SHAPED: dict[int, tuple[Any, dict[tuple[str, int, int, str | None], tuple[str, ...]]]] = {}


def _shaped_tiles(
    game: Any, state: Any, coord: str, old: board.PlacedTile, colour: str | None, sides: Any
) -> tuple[str, ...]:
    """The tiles of ``colour`` that some rotation lets replace ``old`` on ``coord`` (the game's
    ``upgrade_rotations`` hook, not yet whether the operator may lay them).  Most tiles of the
    next colour fit no rotation of a given hex; listing asks this for every hex it reaches, so
    when the game keeps the core's hook -- the tiles and the map's edges alone decide -- the
    answer is remembered between listings."""
    names = [n for n, td in game.definition.tiles.items() if td.color == colour]

    def ask() -> tuple[str, ...]:  # in the order of the game's tiles
        return tuple(
            n
            for n in names
            if game.rules.upgrade_rotations(game, state, coord, old, n, sides.__contains__)
        )

    if type(game.rules).upgrade_rotations is not Rules18xx.upgrade_rotations:
        return ask()  # a game's own rule may read the state: asked every time
    entry = _SHAPED.get(id(game.definition))
    if entry is None or entry[0] is not game.definition:
        if len(_SHAPED) > 8:
            _SHAPED.clear()
        entry = _SHAPED[id(game.definition)] = (game.definition, {})
    key = (coord, id(old.tile), old.rotation % 6, colour)
    found = entry[1].get(key)
    if found is None:
        found = entry[1][key] = ask()
    return found


def _blockable(game: Any) -> frozenset[str]:
    """Every hex some private's ``blocks_hexes`` ability names (whether or not it is in force:
    a lay elsewhere need not ask which are; worked out once per game)."""
    hit = game.memo.get("blockable hexes")
    if hit is None:
        hit = game.memo["blockable hexes"] = frozenset(
            h
            for p in game.definition.privates
            for ab in abilities.of(game, p.symbol, "blocks_hexes")
            for h in ab.hexes
        )
    out: frozenset[str] = hit
    return out


class TrackStep(Step18xx):
    """Lay or upgrade track: one or two tile operations, then the turn moves on."""

    NAME = "track"
    DESCRIPTION = "Lay/Upgrade Track"

    @classmethod
    def round_data(cls) -> dict[str, Any]:
        return {"num_laid_track": 0, "laid_hexes": [], "gauges_added": []}

    def setup(self) -> None:
        self.rdata["num_laid_track"] = 0
        self.rdata["laid_hexes"] = []
        self.rdata["gauges_added"] = []

    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity():
            return []
        if not (
            common.is_minor(self.state, entity) or common.operating_company(self.state, entity)
        ):
            return []
        return ["lay_tile", "pass"]

    def check_lay(self, action: LayTile, *, special: bool = False) -> tuple[int, frozenset[str]]:
        """Every rule a lay must meet (raises :class:`IllegalAction`); its cost and the gauges
        of the track it adds.  ``special``: a private's extra lay (not one of the turn's tile
        operations, and it need not connect)."""
        game, state, op = self.game, self.state, action.entity
        lays = _tile_lays(self, op)
        index = 0 if special else int(self.rdata["num_laid_track"])
        if not special and index >= len(lays):
            raise self.illegal(action, "tile operations", f"{op} has laid all its tiles")
        if action.hex not in state.hexes:
            raise self.illegal(action, "map", f"no hex {action.hex}")
        lay = game.definition.private_lay if special else lays[index]
        assert lay is not None  # every loaded definition has one
        if board.tile_name(action.tile) not in game.definition.tiles:
            raise self.illegal(action, "tiles", f"no tile {action.tile!r} in this game")
        if action.rotation not in range(6):
            raise self.illegal(action, "tiles", f"rotation {action.rotation} is not 0-5")
        old = board.placed(game, state, action.hex)
        new_tile, new_color = board.tile_def(game, action.tile)
        upgrade = old.color != "white"
        if upgrade and not lay.upgrade:
            raise self.illegal(action, "tile operations", f"{op} may not upgrade track now")
        if lay.other_hex and action.hex in self.rdata["laid_hexes"]:
            raise self.illegal(action, "second tile", f"{action.hex} was already laid this turn")
        phase = common.current_phase(game, state)
        if new_color not in phase.tiles:
            raise self.illegal(
                action, "phases", f"{new_color} tiles are not available in phase {state.phase}"
            )
        if "narrow" in board.track_gauges(new_tile) and not self._metre_allowed():
            raise self.illegal(action, "gauges", "metre gauge track is not available yet")
        free = state.tiles.get(board.tile_name(action.tile))
        if free is None or action.tile not in free:
            raise self.illegal(action, "tile supply", f"tile {action.tile} is not available")
        self._check_blocked(action, old.color)
        self._check_tile(action, old, new_tile, new_color, connect=not special)

        return self._lay_cost(action, old, new_tile, lay)

    def _lay_cost(
        self, action: LayTile, old: board.PlacedTile, new_tile: Any, lay: TileLay | None = None
    ) -> tuple[int, frozenset[str]]:
        """A lay's cost and the gauges of the track it adds; raises when the operator cannot
        pay it.  ``lay``: the tile operation (default: the turn's next)."""
        game, state, op = self.game, self.state, action.entity
        if lay is None:
            lay = _tile_lays(self, op)[int(self.rdata["num_laid_track"])]
        gauges = new_track_gauges(board.track_gauges(old.tile), board.track_gauges(new_tile))
        turn_gauges = [frozenset(g) for g in self.rdata["gauges_added"]] + [gauges]
        terrain = old.tile.upgrades[0].cost if (old.preprinted and old.tile.upgrades) else 0
        home = common.is_minor(state, op) and action.hex in game.definition.private(op).home_hexes
        cost = tile_lay_cost(
            lay,
            game.definition.upgrade_rules.terrain,
            terrain=terrain,
            new_gauges=gauges,
            turn_gauges=turn_gauges,
            home_of_private=home,
        )
        cost = game.rules.tile_lay_cost(
            game, state, op, action.hex, board.tile_name(action.tile), cost
        )
        self._check_payable(action, op, cost)
        return cost, gauges

    def process_lay_tile(self, action: Action) -> None:
        assert isinstance(action, LayTile)
        game, op = self.game, action.entity
        cost, gauges = self.check_lay(action)
        self._pay(action, op, cost)
        had_paths = bool(board.placed(game, self.state, action.hex).tile.paths)
        board.lay(game, self.state, action.hex, action.tile, action.rotation)
        board.lift_tokens_for_choice(game, self.state, action.hex, had_paths)
        index = int(self.rdata["num_laid_track"])
        self.rdata["gauges_added"].append(sorted(gauges))
        self.rdata["num_laid_track"] = index + 1
        self.rdata["laid_hexes"].append(action.hex)
        paid = f" for {game.definition.format_money(cost)}" if cost else ""
        self.log(f"{op} lays #{action.tile} rotation {action.rotation} on {action.hex}{paid}")
        game.rules.after_lay_tile(game, self.state, op, action.hex, board.tile_name(action.tile))
        if index + 1 >= len(_tile_lays(self, op)):
            self.pass_()

    def _metre_allowed(self) -> bool:
        """tiles.yaml ``upgrades.metre_gauge_from_phase``: metre-gauge tiles from that phase."""
        first = self.game.definition.upgrade_rules.metre_gauge_from_phase
        if first is None:
            return True
        order = [p.name for p in self.game.definition.phases]
        return order.index(self.state.phase) >= order.index(first)

    def _check_tile(
        self,
        action: LayTile,
        old: board.PlacedTile,
        new_tile: Any,
        new_color: str,
        *,
        connect: bool = True,
    ) -> None:
        """The tile is a legal upgrade of what is there, turned so that all old track is kept,
        no track runs off the map or into a closed side, and some new exit is on the
        operator's broad- or metre-gauge network (18xx.games ``legal_tile_rotation?``)."""
        state, coord = self.state, action.hex
        name = board.tile_name(action.tile)
        allowed, rotations, stubs, by_gauge = self._fit(action.entity, coord, name, old)
        if not allowed:
            raise self.illegal(
                action, "upgrades", f"{state.hexes[coord].tile} cannot become {name}"
            )
        if action.rotation not in rotations:
            raise self.illegal(
                action,
                "upgrades",
                f"{name} cannot be laid on {coord} at rotation {action.rotation}",
            )
        if not stubs <= set(tiles.exits(new_tile, action.rotation)):
            raise self.illegal(
                action,
                "home hexes",
                f"a tile on {coord} must connect toward the private's other home hexes "
                f"(edges {', '.join(str(e) for e in sorted(stubs))})",
            )
        if connect:
            self._check_extends(action, old, new_tile, name, by_gauge)

    def _fit(
        self, op: str, coord: str, name: str, old: board.PlacedTile
    ) -> tuple[bool, list[int], set[int], Mapping[str, set[int]]]:
        """:meth:`_tile_fit`, worked out once per hex and tile while lays are listed."""
        memo = routing.listing_memo(self.state)
        key = ("tile", op, coord, name)
        hit = memo.get(key) if memo is not None else None
        if hit is None:
            new_tile, new_color = board.tile_def(self.game, name)
            hit = self._tile_fit(op, coord, name, old, new_tile, new_color)
            if memo is not None:
                memo[key] = hit
        return hit

    def _tile_fit(
        self, op: str, coord: str, name: str, old: board.PlacedTile, new_tile: Any, new_color: str
    ) -> tuple[bool, list[int], set[int], Mapping[str, set[int]]]:
        """What of a lay's legality depends on the hex and the tile, not the rotation: whether
        the tile may replace what is there, its legal rotations, the edges it must use, and the
        operator's reached edges of the hex per gauge family."""
        game, state = self.game, self.state
        rules = game.definition.upgrade_rules
        fixed = rules.hexes.get(coord)
        old_def = (
            None
            if old.preprinted
            else game.definition.tiles[board.tile_name(state.hexes[coord].tile)]
        )
        if fixed is not None and old.color != "white":
            allowed = name in fixed
        elif old_def is not None and old_def.upgrades_to is not None:
            allowed = name in old_def.upgrades_to
        else:
            allowed = upgrading.is_candidate(
                rules,
                old.tile,
                old.color,
                new_tile,
                new_color,
                old_rotation=old.rotation,
                future_label=self._future_label(coord, old),
            )
        if not allowed and not game.rules.extra_upgrade(game, state, op, coord, name):
            return False, [], set(), {}
        graph = routing.track_graph(game, state)
        sides = graph.neighbours.get(coord, {})
        rotations = game.rules.upgrade_rotations(game, state, coord, old, name, sides.__contains__)
        by_gauge = routing.reached_edges_by_gauge(game, state, op, coord)
        return True, rotations, self._stubs(coord, old), by_gauge

    def _check_extends(
        self,
        action: LayTile,
        old: board.PlacedTile,
        new_tile: Any,
        name: str,
        by_gauge: Mapping[str, set[int]],
    ) -> None:
        """Some new exit is on the operator's network, and the lay adds track to a route of it
        (or, as the rules say, changes a city's value)."""
        game, coord = self.game, action.hex
        rules = game.definition.upgrade_rules
        fits = upgrading.gauge_fits(rules.gauges_kept_by)
        # As in 18xx.games, the lay is checked once on the broad network with the tile's broad
        # and dual track and once on the metre network with its metre and dual track: metre
        # track that only touches a broad line does not extend a route (nor broad a metre one).
        extends = upgrades = False
        # a lay where any new track will do (none there before) asks only whether one of
        # the new exits is reached: the walk stops at the first it finds
        enough = rules.must_use == "any" or not old.tile.paths
        # (worked out when first asked: most lays never ask)
        made: list[Callable[[int], bool]] = []

        def passable(ref: int) -> bool:
            if not made:
                made.append(self._passable(action.entity, coord, old, new_tile, action.rotation))
            return made[0](ref)

        for family in by_gauge:
            skip = gauge_skip(family)

            def usable(path: Any, skip: str | None = skip) -> bool:
                return str(path.track) != skip

            exits = {
                (e + action.rotation) % 6 for p in new_tile.paths if usable(p) for e in p.edges
            }
            if enough:
                # only whether a new exit is reached counts: the walk stops at the first
                if routing.reached_within(by_gauge, family, exits, first=True):
                    extends = upgrades = True
                    break
                continue
            # The upgrade rule holds for the reached exits exactly when one of them is an
            # exit it holds for alone (upgrading_edges), so a walk that stops at the first
            # of those found answers it; only when none is reached are the other exits
            # asked about (whether the lay extends a route at all: which error it is).
            # One walk that needed every reached exit cost ~3x a walk that stops at one.
            good = upgrading_edges(
                old.tile,
                old.rotation,
                new_tile,
                action.rotation,
                exits,
                usable=usable,
                passable=passable,
                revenue=rules.must_use == "new_track_or_revenue",
                gauge_fits=fits,
            )
            if good and routing.reached_within(by_gauge, family, good, first=True):
                extends = upgrades = True
                break
            rest = exits - good
            if rest and routing.reached_within(by_gauge, family, rest, first=True):
                extends = True
        if not extends:
            raise self.illegal(
                action,
                "track extends a route",
                f"{name} on {coord} does not extend a route of {action.entity}"
                " (on broad or on metre gauge track)",
            )
        if not upgrades:
            raise self.illegal(
                action,
                "upgrades",
                f"{name} on {coord} must add track to a route of {action.entity} or change "
                "the value of a city on it",
            )

    def _passable(
        self, op: str, coord: str, old: board.PlacedTile, new_tile: Any, rotation: int
    ) -> Callable[[int], bool]:
        """Whether the operator's network goes on through a node of the tile laid on
        ``coord``: not through a city whose every space holds another company's station (the
        stations move to the new tile's cities as :func:`board.lay` moves them)."""
        held = self.state.hexes[coord].tokens
        stations: dict[int, list[str]] = {}
        for i, j in board.city_map(old.tile, old.rotation, new_tile, rotation).items():
            if j is not None and i < len(held):
                stations.setdefault(j, []).extend(t for t in held[i] if t)

        def passable(ref: int) -> bool:
            node = new_tile.nodes[ref]
            number = next((i for i, c in enumerate(new_tile.cities) if c is node), None)
            if number is None:
                return True
            there = stations.get(number, [])
            return op in there or len(there) < node.slots

        return passable

    def _stubs(self, coord: str, old: board.PlacedTile) -> set[int]:
        """Edges a first tile on a private's home hex must use: toward each of its other home
        hexes next door, while the private railway runs (18xx.games stubs)."""
        if not old.preprinted or old.color != "white":
            return set()
        out: set[int] = set()
        layout = str(self.game.definition.layout)
        for p in self.game.definition.privates:
            ps = self.state.privates.get(p.symbol)
            if ps is None or ps.closed or not p.minor or coord not in p.home_hexes:
                continue
            if not self.state.is_player(ps.owner) and ps.owner != BANK:
                continue  # taken over by a company: its line is no longer planned
            for edge, other in hexmap.neighbours(coord, layout).items():
                if other in p.home_hexes:
                    out.add(edge)
        return out

    def _future_label(self, coord: str, old: board.PlacedTile) -> Any:
        """The hex's future label (Porto's P) while no tile of its colour has been laid."""
        printed = self.game.definition.hexes[coord].tile.future_label
        order = ["white", *self.game.definition.upgrade_rules.colors]
        if printed is not None and order.index(old.color) < order.index(printed.color):
            return printed
        return old.tile.future_label

    def _check_blocked(self, action: LayTile, old_color: str) -> None:
        """A private's home hex takes no other company's first tile while it is open; a hex
        blocked by two privates is open to either of them."""
        memo = routing.listing_memo(self.state)
        blocked = memo.get("blocked") if memo is not None else None
        if blocked is None and action.hex in _blockable(self.game):
            # (the same for every lay while lays are listed)
            blocked = abilities.blocked_hexes(self.game, self.state)
            if memo is not None:
                memo["blocked"] = blocked
        if blocked is not None and action.hex in blocked:
            raise self.illegal(action, "blocked hexes", f"a private blocks {action.hex}")
        if old_color != "white":
            return
        op = action.entity
        blockers = []
        for p in self.game.definition.privates:
            if action.hex not in p.blocks_hexes:
                continue
            ps = self.state.privates.get(p.symbol)
            if ps is not None and not ps.closed:
                blockers.append((p.symbol, ps.owner))
        if blockers and not any(op in b for b in blockers):
            raise self.illegal(
                action,
                "home hexes",
                f"{action.hex} is reserved for {', '.join(b[0] for b in blockers)}",
            )

    def _check_payable(self, action: Action, op: str, cost: int) -> None:
        """A private's owner pays; a company pays, its director covering any shortfall."""
        if cost <= 0:
            return
        state = self.state
        if common.is_minor(state, op):
            payer = common.director_of(state, op)
            if payer is None or state.cash_of(payer) < cost:
                raise self.illegal(action, "costs", f"{payer} cannot pay {cost} for {op}")
            return
        corp = state.corporations[op]
        director = corp.director if self.game.rules.DIRECTOR_COVERS_TRACK_COSTS else None
        if corp.cash < cost and (director is None or state.cash_of(director) < cost - corp.cash):
            raise self.illegal(
                action,
                "costs",
                f"the lay costs {cost}: {op} has {corp.cash} and its director "
                f"{state.cash_of(director) if director else 0}",
            )

    def _pay(self, action: Action, op: str, cost: int) -> None:
        if cost <= 0:
            return
        state = self.state
        why = f"track on {getattr(action, 'hex', '?')}"
        if common.is_minor(state, op):
            payer = common.director_of(state, op)
            assert payer is not None
            transfer(state, payer, BANK, cost, why)
            return
        corp = state.corporations[op]
        if corp.cash < cost and corp.director is not None:
            transfer(state, corp.director, op, cost - corp.cash, f"director helps pay for {why}")
        transfer(state, op, BANK, cost, why)

    def legal_actions(self, entity: str) -> list[Action]:
        """``pass`` and up to ``MAX_LAYS_OFFERED`` legal lays (see :meth:`lay_options`)."""
        kind = common.entity_type(self.state, entity)
        lays = [lay for lay, _ in self.lay_options(entity, limit=MAX_LAYS_OFFERED)]
        return [Pass(entity=entity, entity_type=kind), *lays]

    def lay_options(
        self, entity: str, hexes: Iterable[str] | None = None, limit: int | None = None
    ) -> list[tuple[LayTile, int]]:
        """Legal lays with their costs: on hexes the operator reaches (of ``hexes`` only, when
        given), each tile of the next colour (first free copy) in every legal rotation; all
        of them, or the first ``limit``.  A bot that weighs lays asks for all on the hexes it
        cares about; random play needs only some."""
        if int(self.rdata["num_laid_track"]) >= len(_tile_lays(self, entity)):
            return []
        with routing.listing(self.state):
            kind = common.entity_type(self.state, entity)
            return self._list_lays(entity, kind, hexes, limit)

    def _list_lays(
        self, entity: str, kind: str, hexes: Iterable[str] | None, limit: int | None
    ) -> list[tuple[LayTile, int]]:
        """The lays :meth:`check_lay` accepts, in the order hex, tile, rotation; what does not
        depend on the rotation (may the tile replace what is there, its rotations, the cost,
        the private's blocks) is checked once per hex and tile, not once per rotation
        (``tests/test_track_listing.py`` checks this against asking :meth:`check_lay` of every
        rotation)."""
        game, state = self.game, self.state
        colors = ["white", *game.definition.upgrade_rules.colors]
        phase_tiles = set(common.current_phase(game, state).tiles)
        lay = _tile_lays(self, entity)[int(self.rdata["num_laid_track"])]
        graph = routing.track_graph(game, state)
        out: list[tuple[LayTile, int]] = []
        reached = routing.reached_hexes(game, state, entity)
        for coord in sorted(reached if hexes is None else reached & set(hexes)):
            if coord not in state.hexes or coord in self.rdata["laid_hexes"]:
                continue
            old = board.placed(game, state, coord)
            if old.color not in colors:
                continue
            if old.color != "white" and not lay.upgrade:
                continue
            probe = LayTile(entity=entity, entity_type=kind, hex=coord, tile="", rotation=0)
            try:
                self._check_blocked(probe, old.color)
            except IllegalAction:
                continue
            last = colors.index(old.color) == len(colors) - 1
            nxt = None if last else colors[colors.index(old.color) + 1]
            sides = graph.neighbours.get(coord, {})
            shaped = _shaped_tiles(game, state, coord, old, nxt, sides)
            # with the core's rule no tile of another colour is ever an upgrade: only the
            # shaped ones need looking at
            core_only = type(game.rules).extra_upgrade is Rules18xx.extra_upgrade
            names = shaped if core_only and nxt in phase_tiles else game.definition.tiles
            for name in names:
                td = game.definition.tiles[name]
                free = state.tiles.get(name)
                if not free:
                    continue
                if td.color != nxt or nxt not in phase_tiles:
                    if not game.rules.extra_upgrade(game, state, entity, coord, name):
                        continue
                    if not game.rules.upgrade_rotations(
                        game, state, coord, old, name, sides.__contains__
                    ):
                        continue
                elif name not in shaped:  # no rotation of it fits the hex
                    continue
                probe = LayTile(entity=entity, entity_type=kind, hex=coord, tile=free[0])
                fit = self._tile_fits(probe, old, phase_tiles)
                if fit is None:
                    continue
                rotations, stubs, by_gauge, new_tile, cost = fit
                for r in rotations:
                    if not stubs <= set(tiles.exits(new_tile, r)):
                        continue
                    candidate = LayTile(
                        entity=entity, entity_type=kind, hex=coord, tile=free[0], rotation=r
                    )
                    try:
                        self._check_extends(candidate, old, new_tile, name, by_gauge)
                    except IllegalAction:
                        continue
                    out.append((candidate, cost))
                    if limit is not None and len(out) >= limit:
                        return out
        return out

    def _tile_fits(
        self, probe: LayTile, old: board.PlacedTile, phase_tiles: Set[str]
    ) -> tuple[list[int], set[int], Mapping[str, set[int]], Any, int] | None:
        """For listing: the checks of :meth:`check_lay` that do not depend on the rotation, for
        a free tile on a hex whose blocks and upgrade right were checked (None: one fails);
        else the tile's legal rotations, the edges it must use, the reached edges per gauge
        family, the parsed tile and the lay's cost."""
        game, state = self.game, self.state
        name = board.tile_name(probe.tile)
        new_tile, new_color = board.tile_def(game, probe.tile)
        if new_color not in phase_tiles:
            return None
        if "narrow" in board.track_gauges(new_tile) and not self._metre_allowed():
            return None
        memo = routing.listing_memo(state)
        key = ("tile", probe.entity, probe.hex, name)
        hit = memo.get(key) if memo is not None else None
        if hit is None:
            hit = self._tile_fit(probe.entity, probe.hex, name, old, new_tile, new_color)
            if memo is not None:
                memo[key] = hit
        allowed, rotations, stubs, by_gauge = hit
        if not allowed:
            return None
        try:
            cost, _ = self._lay_cost(probe, old, new_tile)
        except IllegalAction:
            return None
        return rotations, stubs, by_gauge, new_tile, cost
