"""The 18xx library's game: the kernel's :class:`~ferrovia.kernel.game.Game` with the questions
the library's rules ask of the definition at this table's player count (certificate limit,
bank, starting cash, quick-start packets, share and private values) and of the state's
companies (which are closed, which act for a player, which trains they hold).

``Rules18xx.GAME`` names it, so ``rules.new_game(definition, players)`` makes one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ferrovia.errors import FerroviaError
from ferrovia.kernel.game import Game
from ferrovia.kernel.state import GameState
from ferrovia.lib18xx.state import State18xx

if TYPE_CHECKING:
    from ferrovia.lib18xx.rules import Rules18xx


class Game18xx(Game[State18xx]):
    """A game of the 18xx library."""

    rules: Rules18xx

    def __init__(
        self,
        definition: Any,
        rules: Rules18xx,
        num_players: int,
        optional_rules: Iterable[str] = (),
    ) -> None:
        from ferrovia.lib18xx.market import build_grid

        super().__init__(definition, rules, num_players, optional_rules)
        # The stock market as rows of cells: the one thing the rules derive from the
        # definition once (everything else they read from it, through the helpers below).
        self.market_grid = build_grid(definition)
        self.privates = tuple(sorted(definition.privates, key=lambda p: p.number))
        """The privates in P-number order (auction listing and operating order)."""
        self.train_types: dict[str, Any] = {}  # train card id -> its trains.yaml type

    # -- the state's entities --------------------------------------------------------------
    def controlled_entities(self, state: State18xx, ref: str) -> list[str]:
        """Entities acting on behalf of ``ref`` (a player's privates and companies)."""
        if ref in state.corporations:  # its privates, and its director's (MH's exchange)
            corp = state.corporations[ref]
            mine = [*corp.companies]
            return mine + (state.player(corp.director).companies if corp.director else [])
        if not state.is_player(ref):
            return []
        p = state.player(ref)
        corps = [c.sym for c in state.corporations.values() if c.director == ref and not c.closed]
        return list(p.companies) + corps

    def is_closed(self, state: State18xx, ref: str) -> bool:
        if ref in state.corporations:
            return state.corporations[ref].closed
        if ref in state.privates:
            return state.privates[ref].closed
        return False

    def trains_of(self, state: State18xx, ref: str) -> list[str]:
        if ref in state.corporations:
            return state.corporations[ref].trains
        if ref in state.privates:
            return state.privates[ref].trains
        return []

    # -- the definition at this table's player count ------------------------------------
    @property
    def cert_limit(self) -> int:
        return int(self.definition.cert_limit(self.num_players))

    @property
    def bank_cash(self) -> int:
        return int(self.definition.bank_cash(self.num_players))

    @property
    def starting_cash(self) -> int:
        return int(self.definition.starting_cash(self.num_players))

    @property
    def holding_limit(self) -> int | None:
        """Most percent of one company a player may buy (None: no limit)."""
        limit = self.definition.holding_limit(self.num_players)
        return None if limit is None else int(limit)

    def packets(self, option: str) -> tuple[tuple[tuple[str, ...], int], ...]:
        """A quick-start option's packets at this player count: (privates, cost) each."""
        known = {o.id: o for o in self.definition.options}
        found = known[option].packets.get(self.num_players) if option in known else None
        return tuple((tuple(x.privates), int(x.cost)) for x in found or ())

    def phase_operating_rounds(self, state: State18xx) -> int:
        return int(self.definition.phase(state.phase).operating_rounds)

    def share_value(self, state: State18xx, corp: str, percent: int) -> int:
        from ferrovia.lib18xx.stock.shares import share_value

        return share_value(self, state, corp, percent)

    def private_value(self, sym: str) -> int:
        return int(self.definition.private(sym).face_value)

    def sorted_by_price(self, state: State18xx, corps: list[Any]) -> list[Any]:
        from ferrovia.lib18xx import market

        return market.sorted_by_price(self, state, corps)


def as_18xx(game: Game[Any], state: GameState) -> tuple[Game18xx, State18xx]:
    """``game`` and ``state`` as the 18xx library's (for what only an 18xx game has: routes,
    companies, a stock market), or a clear error for a game of another family."""
    if isinstance(game, Game18xx) and isinstance(state, State18xx):
        return game, state
    raise FerroviaError(f"{game.rules.NAME} is not a game of the 18xx library")
