"""The 18xx round kinds: the stock round, the operating round and the opening auction.

Their order of questions mirrors 18xx.games (``round/stock.rb``, ``round/operating.rb``,
``round/auction.rb``), because that order decides whose turn it is and so whether recorded
games replay.  ``Rules18xx.ROUNDS`` names them; a title adds its own kinds beside them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ferrovia.kernel.actions import Action
from ferrovia.kernel.rounds import Round

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx
    from ferrovia.lib18xx.state import State18xx


class Round18xx(Round):
    """A round of the 18xx library: its game and state are the library's."""

    game: Game18xx
    state: State18xx


class StockRound(Round18xx):
    KIND = "stock"
    NAME = "Stock Round"

    def select_entities(self) -> list[str]:
        return [p.id for p in self.state.players]

    def setup(self) -> None:
        settled = self.skip_steps()
        if (settled[0] if settled is not None else self.active_step()) is None:
            self.next_entity()

    def after_process(self, action: Action) -> None:
        if self.active_step() is not None:
            return
        self.next_entity()

    def finished(self) -> bool:
        return self.state.finished or all(e in self.rs.passed for e in self.rs.entities)

    def next_entity(self) -> None:
        if self.finished():
            self.next_entity_index()  # back round to the priority holder
            self.game.rules.finish_stock_round(self.game, self.state)
            return
        self.next_entity_index()
        self.start_entity()

    def start_entity(self, *, chain: bool = True) -> None:
        """Begin the current player's turn; one with nothing to do passes and (``chain``)
        play moves on again."""
        for step in self.steps():
            step.st.passed = False
            step.st.acted = False
        for step in self.steps():
            step.setup()
        settled = self.skip_steps()
        if chain and (settled[0] if settled is not None else self.active_step()) is None:
            self.next_entity()


class OperatingRound(Round18xx):
    KIND = "operating"
    NAME = "Operating Round"

    def select_entities(self) -> list[str]:
        return self.game.rules.operating_order(self.game, self.state)

    @property
    def current_operator(self) -> str | None:
        op = self.rs.data.get("current_operator")
        return op if isinstance(op, str) else None

    def setup(self) -> None:
        self.rs.data["current_operator"] = None
        self.game.rules.payout_companies(self.game, self.state)
        for ref in self.rs.entities:
            for tid in self.game.trains_of(self.state, ref):
                self.state.trains[tid].operated = False
        self.after_setup()

    def after_setup(self) -> None:
        if self.any_to_act():
            self.start_operating()

    def skip_entity(self, ref: str) -> bool:
        return self.game.is_closed(self.state, ref)

    def any_to_act(self) -> bool:
        return any(not self.skip_entity(e) for e in self.rs.entities)

    def finished(self) -> bool:
        done = self.active_step() is None or not self.any_to_act()
        if done:
            self.rs.data["current_operator"] = None
        return done

    def after_process(self, action: Action) -> None:
        if action.type == "message":
            return
        step = self.active_step()
        if step is not None:
            if type(self).after_process is OperatingRound.after_process:
                self.kept = (step,)  # returned at once: the answer stands (not so in a subclass)
            return
        self.game.rules.after_end_of_operating_turn(self.game, self.state, self.current_operator)
        if not self.state.finished:
            self.next_entity()

    def next_entity(self) -> None:
        rs = self.rs
        if rs.entity_index == len(rs.entities) - 1:
            return
        self.next_entity_index()
        if self.skip_entity(rs.entities[rs.entity_index]):
            self.next_entity()
            return
        for step in self.steps():
            step.st.passed = False
            step.st.acted = False
        for step in self.steps():
            step.setup()
        self.start_operating()

    def start_operating(self) -> None:
        rs = self.rs
        ent = rs.entities[rs.entity_index]
        if self.skip_entity(ent):
            self.next_entity()
            return
        rs.data["current_operator"] = ent
        rs.data["current_operator_acted"] = False
        self.game.rules.before_operating(self.game, self.state, ent)
        self.skip_steps()
        if not self.finished():
            return
        self.game.rules.after_end_of_operating_turn(self.game, self.state, ent)
        self.next_entity()

    def recalculate_order(self) -> None:
        """Re-sort the entities still to operate (after a share price changed)."""
        rs = self.rs
        done = rs.entities[: rs.entity_index + 1]
        rest = set(rs.entities[rs.entity_index + 1 :])
        order = self.game.rules.operating_order(self.game, self.state)
        rs.entities = done + [e for e in order if e in rest]


class AuctionRound(Round18xx):
    """The opening auction of privates (18xx.games ``Round::Auction``): players in priority
    order; its steps move the turn on themselves."""

    KIND = "auction"
    NAME = "Auction Round"

    def select_entities(self) -> list[str]:
        return [p.id for p in self.state.players]

    def finished(self) -> bool:
        return self.state.finished or self.active_step() is None
