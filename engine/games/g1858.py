"""1858: The Railways of Iberia — the rules its data cannot say, as named hooks.

Rulebook sections are cited as [§n].  Facts (numbers, order of application) agree with
18xx.games so recorded games replay exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.rules.hooks import Rules
from engine.rules.rounds import OperatingRound, Round
from engine.rules.state import BANK, GameState

if TYPE_CHECKING:
    from engine.rules.game import Game


class PrivateClosureRound(OperatingRound):
    """[§9.9] When phase 7 begins, after the OR: each open private railway, in number order,
    is exchanged for a share or sold to the bank at face value."""

    KIND = "closure"
    NAME = "Private Closure Round"

    def select_entities(self) -> list[str]:
        return [m.sym for m in self.state.privates.values() if not m.closed and m.data.get("minor")]

    def setup(self) -> None:
        self.state.data["private_closure_round"] = "in_progress"
        g1858 = self.game.rules
        assert isinstance(g1858, Rules1858)
        for m in list(self.state.privates.values()):
            if m.closed:
                continue
            if not m.data.get("minor") or m.owner == BANK:
                g1858.close_private(self.game, self.state, m.sym)
        super().setup()

    def pending_tokens(self) -> bool:
        return bool(self.rs.data.get("pending_tokens"))

    def next_entity(self) -> None:
        if self.pending_tokens():
            return
        super().next_entity()

    def any_to_act(self) -> bool:
        return super().any_to_act() or self.pending_tokens()


class Rules1858(Rules):
    NAME = "1858"
    ROUND_STEPS: ClassVar[dict[str, tuple[str, ...]]] = {
        "stock": ("g1858_exchange", "g1858_exchange_approval", "home_token", "g1858_stock"),
        "operating": (
            "track",
            "token",
            "route",
            "dividend",
            "discard_train",
            "buy_train",
            "issue_shares",
        ),
        "closure": ("g1858_exchange_approval", "home_token", "private_closure"),
    }
    STEP_MODULES: ClassVar[tuple[str, ...]] = (
        "engine.rules.stock",
        "engine.rules.operating",
    )
    ROUNDS: ClassVar[tuple[type[Round], ...]] = (PrivateClosureRound,)
    GAME_END_CHECK: ClassVar[dict[str, str]] = {"bank": "current_or"}

    # -- round sequence [§7] ---------------------------------------------------------------
    def init_round(self, game: Game, state: GameState) -> Round:
        """Without a quick start the game begins with a stock round in which privates can only
        be auctioned; with one, privates are dealt in packets and an OR comes first."""
        from engine.rules.rounds import StockRound

        if self.quick_start_packets(game) is not None:
            self.quick_start(game, state)
            return OperatingRound.create(game, state, 1)
        return StockRound.create(game, state)

    def next_round(self, game: Game, state: GameState) -> Round:
        if state.data.get("private_closure_round") == "in_progress":
            state.data["private_closure_round"] = "done"
        if state.data.get("private_closure_round") == "next":
            state.log.append("-- Private Closure Round --")
            return PrivateClosureRound.create(game, state, state.round.num)
        if state.round.kind == "closure":
            from engine.rules.rounds import StockRound

            if state.round.num < state.operating_rounds:
                return OperatingRound.create(game, state, state.round.num + 1)
            state.turn += 1
            return StockRound.create(game, state)
        return super().next_round(game, state)

    # -- quick start [options] ---------------------------------------------------------------
    def quick_start_packets(self, game: Game) -> str | None:
        """The quick-start option in use, if any."""
        from engine.rules import stock

        return stock.quick_start_option(game)

    def quick_start(self, game: Game, state: GameState) -> None:
        from engine.rules import stock

        stock.deal_quick_start(game, state)

    # -- privates ---------------------------------------------------------------------------
    def close_private(self, game: Game, state: GameState, sym: str) -> None:
        from engine.rules import stock

        stock.close_private(game, state, sym)


RULES = Rules1858()
