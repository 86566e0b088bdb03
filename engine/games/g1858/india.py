"""1858 India: the rules its data cannot say, as hooks on top of 1858's.

Facts from 18xx.games (g_1858_india).  Data: gamedata/1858_india (an overlay on 1858), where
Pullman cars (trains.yaml ``car``) and the locomotive works (privates.yaml ``kind: works``)
are declared and the generic core plays them.  Here: the mine, oil and port tokens (game.yaml
``hex_tokens``: collected in the operating turn after track, each adding its bonus hex's value
to every run) and gauge conversions (tiles.yaml ``upgrades.gauge_conversions``: a tile relaid
in its own colour with some sections' gauge changed).  The 1M's no-local rule needs nothing:
Ferrovia has no local trains.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from ferrovia.board import tiles
from ferrovia.games.g1858 import Rules1858
from ferrovia.kernel.actions import Action, Pass
from ferrovia.kernel.ledger import transfer
from ferrovia.kernel.step import Step
from ferrovia.lib18xx import board
from ferrovia.lib18xx.operating import common, routing
from ferrovia.lib18xx.state import BANK, State18xx
from ferrovia.lib18xx.step import Step18xx
from ferrovia.notation.models import Gauge

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx


@dataclass(frozen=True)
class RemoveHexToken(Action):
    """Take a token printed on a hex (1858 India's mine, oil and port tokens)."""

    TYPE: ClassVar[str] = "remove_hex_token"
    hex: str = ""


class Rules1858India(Rules1858):
    NAME = "1858_india"
    ROUND_STEPS: ClassVar[dict[str, tuple[str, ...]]] = {
        **Rules1858.ROUND_STEPS,
        "operating": (
            "track",
            "g1858_india_collect_tokens",
            "token",
            "route",
            "dividend",
            "discard_train",
            "buy_train",
            "issue_shares",
        ),
    }

    # -- gauge conversions ------------------------------------------------------------------
    def extra_upgrade(
        self, game: Game18xx, state: State18xx, op: str, coord: str, tile: str
    ) -> bool:
        """A gauge conversion: a tile of the same colour, label, cities, towns and number of
        track sections, laid the same way, may replace the one on the hex (which sections
        change gauge is checked per rotation, :meth:`upgrade_rotations`)."""
        # Asked for every tile and every hex reached while lays are listed: first what needs
        # no parsing (a printed hex is never converted, a conversion keeps its colour).
        conversions = game.definition.upgrade_rules.gauge_conversions
        if conversions is None:
            return False
        h = state.hexes[coord]
        here = game.definition.tiles.get(board.tile_name(h.tile))
        td = game.definition.tiles[tile]
        if here is None or here.color != td.color:
            return False
        colour = str(td.color)
        if not _conversion_candidate(here.tile, td.tile, colour):
            return False
        return self.stations_fit(game, state, coord, td.tile)

    @staticmethod
    def stations_fit(game: Game18xx, state: State18xx, coord: str, new: Any) -> bool:
        """Whether every station on a one-city hex finds a space on the converted tile, put
        back one by one as 18xx.games does: into the space its own private holds, else the
        first space holding neither a station nor another private's reservation (a converted
        yellow city whose only space holds a company's station and another private's
        reservation has no room: 18xx.games fails on that lay)."""
        h = state.hexes[coord]
        if len(h.tokens) != 1 or len(new.cities) != 1:
            return True
        reserved = h.reservations[0] if h.reservations else []
        spaces: list[str | None] = [None] * new.cities[0].slots
        for corp in (t for t in h.tokens[0] if t is not None):
            own = next(
                (
                    i
                    for i, r in enumerate(reserved)
                    if r is not None
                    and (r == corp or (r in state.privates and state.privates[r].owner == corp))
                ),
                None,
            )
            free = next(
                (
                    i
                    for i, t in enumerate(spaces)
                    if t is None and (i >= len(reserved) or reserved[i] is None)
                ),
                None,
            )
            slot = own if own is not None else free
            if slot is None:
                return False
            if slot < len(spaces):
                spaces[slot] = corp
        return True

    def upgrade_rotations(
        self,
        game: Game18xx,
        state: State18xx,
        coord: str,
        old: Any,
        tile: str,
        exit_allowed: Callable[[int], bool],
    ) -> list[int]:
        """A gauge conversion (a tile of the hex's own colour) keeps every section of track
        where it was and changes the gauge of one section (broad to metre or metre to broad)
        on a plain track tile, or of one or two sections, all the same way, on a tile with a
        city or town."""
        td = game.definition.tiles[tile]
        conversions = game.definition.upgrade_rules.gauge_conversions
        if conversions is None or old.preprinted or str(td.color) != old.color:
            return super().upgrade_rotations(game, state, coord, old, tile, exit_allowed)
        counts = (conversions.plain_track, conversions.with_stops)
        # worked out for the old tile unturned, then turned with it (the geometry is the same)
        turn = old.rotation % 6
        rotations = sorted((r + turn) % 6 for r in _conversion_rotations(old.tile, td.tile, counts))
        return [r for r in rotations if all(exit_allowed(e) for e in tiles.exits(td.tile, r))]

    @staticmethod
    def converts_gauge(
        old: Any,
        old_rotation: int,
        new: Any,
        rotation: int,
        counts: tuple[tuple[int, ...], tuple[int, ...]],
    ) -> bool:
        """Whether ``new`` at ``rotation`` changes the gauge of the right sections of ``old``:
        each old section is matched by the first new one with its ends; ``counts``: how many
        sections may change on plain track and on a tile with a stop (tiles.yaml
        ``upgrades.gauge_conversions``)."""
        changes: Counter[tuple[Gauge, Gauge]] = Counter()
        for op in old.paths:
            np = next(
                (
                    p
                    for p in new.paths
                    if tiles.path_kept(
                        old, op, old_rotation, new, p, rotation, gauge_fits=tiles.any_gauge_fits
                    )
                ),
                None,
            )
            if np is None:
                return False
            changes[(op.track, np.track)] += 1
        allowed = counts[1] if new.cities or new.towns else counts[0]
        to_metre = changes[(Gauge.BROAD, Gauge.NARROW)]
        to_broad = changes[(Gauge.NARROW, Gauge.BROAD)]
        return (to_metre == 0 and to_broad in allowed) or (to_broad == 0 and to_metre in allowed)

    def steps(self) -> tuple[type[Step], ...]:
        return (*super().steps(), CollectTokens)

    def actions(self) -> tuple[type[Action], ...]:
        return (*super().actions(), RemoveHexToken)

    def setup_state(self, game: Game18xx, state: State18xx) -> None:
        super().setup_state(game, state)
        state.data["hex_tokens"] = {
            h: kind
            for kind, tokens in game.definition.game.hex_tokens.items()
            for h in tokens.hexes
        }

    def collectable(self, game: Game18xx, state: State18xx, corp: str) -> dict[str, str]:
        """Hex -> kind of the tokens the company could afford now (track laid on the hex and
        the phase allowing that kind), whether or not it reaches them."""
        status = game.definition.phase(state.phase).status
        cash = state.corporations[corp].cash
        out: dict[str, str] = {}
        kinds = game.definition.game.hex_tokens
        for coord, kind in state.data.get("hex_tokens", {}).items():
            need = kinds[kind].from_status
            if need is not None and need not in status:
                continue
            if cash < kinds[kind].cost or board.placed(game, state, coord).color == "white":
                continue
            out[coord] = kind
        return out

    def extra_revenue(
        self, game: Game18xx, state: State18xx, corp: str, routes: list[dict[str, Any]]
    ) -> int:
        """Each collected token adds its bonus hex's value for the phase to a run with a route
        (not doubled by a 5D)."""
        if not routes:
            return 0
        colours = list(common.current_phase(game, state).tiles)
        total = 0
        for kind in state.corporations[corp].data.get("hex_tokens", []):
            bonus = game.definition.hexes[game.definition.game.hex_tokens[kind].bonus_hex].tile
            total += sum(o.revenue.for_phase(colours) for o in bonus.offboards[:1])
        return total


class CollectTokens(Step18xx):
    """After laying track a company may collect mine, oil and port tokens it reaches."""

    NAME = "g1858_india_collect_tokens"
    DESCRIPTION = "Collect mine, oil and port tokens"

    def _rules(self) -> Rules1858India:
        rules = self.game.rules
        assert isinstance(rules, Rules1858India)
        return rules

    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity() or entity not in self.state.corporations:
            return []
        # As 18xx.games: offered when some token is collectable at all; a recorded auto pass
        # follows when none is reached.
        if not self._rules().collectable(self.game, self.state, entity):
            return []
        return ["remove_hex_token", "pass"]

    def _reached(self, corp: str) -> set[str]:
        hexes = routing.reached_hexes(self.game, self.state, corp)
        for r in routing._reaches(self.game, self.state, corp):
            hexes |= set(r.run_hexes)
        return hexes

    def process_remove_hex_token(self, action: Action) -> None:
        assert isinstance(action, RemoveHexToken)
        corp, coord = action.entity, action.hex
        kinds = self._rules().collectable(self.game, self.state, corp)
        if coord not in kinds:
            raise self.illegal(action, "India tokens", f"no token {corp} can take on {coord}")
        if coord not in self._reached(corp):
            raise self.illegal(action, "India tokens", f"{corp} does not reach {coord}")
        kind = kinds[coord]
        cost = self.game.definition.game.hex_tokens[kind].cost
        transfer(self.state, corp, BANK, cost, f"{kind} token")
        del self.state.data["hex_tokens"][coord]
        self.state.corporations[corp].data.setdefault("hex_tokens", []).append(kind)
        self.log(f"{corp} spends {cost} and collects a {kind} token from hex {coord}")

    def process_pass(self, action: Action) -> None:
        self.pass_()

    def legal_actions(self, entity: str) -> list[Action]:
        kind = "corporation"
        out: list[Action] = [Pass(entity=entity, entity_type=kind)]
        reached = self._reached(entity)
        for coord in sorted(self._rules().collectable(self.game, self.state, entity)):
            if coord in reached:
                out.append(RemoveHexToken(entity=entity, entity_type=kind, hex=coord))
        return out


RULES = Rules1858India()


# Pure tile geometry, asked for every hex and tile whenever lays are listed: cached.
@lru_cache(maxsize=16384)
def _conversion_candidate(old: Any, new: Any, colour: str) -> bool:
    """Whether ``new`` could convert ``old`` in some rotation (whatever way ``old`` is turned:
    turning both alike changes nothing)."""
    if not tiles.upgrades_to_correct_label(old, new, colour):
        return False
    if (len(old.cities), len(old.towns), len(old.paths)) != (
        len(new.cities),
        len(new.towns),
        len(new.paths),
    ):
        return False
    return any(
        tiles.paths_maintained(old, 0, new, r, gauge_fits=tiles.any_gauge_fits) for r in range(6)
    )


@lru_cache(maxsize=16384)
def _conversion_rotations(
    old: Any, new: Any, counts: tuple[tuple[int, ...], tuple[int, ...]]
) -> tuple[int, ...]:
    """Rotations of ``new`` converting ``old`` laid unturned."""
    return tuple(
        r
        for r in range(6)
        if tiles.rotation_is_legal(old, 0, new, r, gauge_fits=tiles.any_gauge_fits)
        and Rules1858India.converts_gauge(old, 0, new, r, counts)
    )
