"""The round: who acts, in which order, and when a round is over.

A round is a declared sequence of steps (named per game by the rules' ``ROUND_STEPS``) over a
list of entities.  :class:`Round` is the base every round kind subclasses (a rules library's
stock and operating rounds, a title's own); round classes are code only, their state is
``state.round`` (:class:`~ferrovia.kernel.state.RoundState`).  The order of questions asked
mirrors 18xx.games (``round/base.rb``), because that order decides whose turn it is and so
whether recorded games replay.  The interpreter's protocol is described in
:mod:`ferrovia.kernel.step`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ferrovia.errors import IllegalAction, OutOfTurn
from ferrovia.kernel.actions import Action
from ferrovia.kernel.state import GameState, RoundState, StepState
from ferrovia.kernel.step import Step

if TYPE_CHECKING:
    from ferrovia.kernel.game import Game


class Round:
    KIND: ClassVar[str] = ""
    NAME: ClassVar[str] = ""

    def __init__(self, game: Game, state: GameState) -> None:
        self.game = game
        self.state = state
        #: (the active step,) as :meth:`skip_steps` found it, for the first
        #: :meth:`active_step` of :meth:`after_process` only (see :meth:`process`)
        self._settled: tuple[Step | None] | None = None
        #: (the active step,) on the state exactly as :meth:`process` left it, when
        #: after_process found it and changed nothing after (see Game._process_single)
        self.kept: tuple[Step | None] | None = None

    @property
    def rs(self) -> RoundState:
        return self.state.round

    # -- construction ----------------------------------------------------------------------
    @classmethod
    def create(cls, game: Game, state: GameState, num: int = 1) -> Round:
        """Make this the current round (entities selected, steps set up), not yet ``setup``."""
        names = game.rules.round_steps(cls.KIND)
        state.round = RoundState(kind=cls.KIND, num=num)
        rnd = cls(game, state)
        state.round.entities = rnd.select_entities()
        state.round.steps = [StepState(name=n) for n in names]
        for n in names:
            for k, v in game.step_class(n).round_data().items():
                state.round.data.setdefault(k, v)
        for step in rnd.steps():
            step.setup()
        return rnd

    def select_entities(self) -> list[str]:
        raise NotImplementedError

    def setup(self) -> None:
        """Called once the round is current (18xx.games ``round.setup``)."""

    # -- steps -----------------------------------------------------------------------------
    def steps(self) -> list[Step]:
        return self.game.bound_steps(self.state)

    def step(self, name: str) -> Step:
        for step in self.steps():
            if step.NAME == name:
                return step
        raise KeyError(name)

    def active_step(self) -> Step | None:
        settled = self._settled
        if settled is not None:  # one use: anything after may change the answer
            self._settled = None
            return settled[0]
        for step in self.steps():
            if (not step.st.passed if step._PLAIN_PASSED else step.active) and step.blocking():
                return step
        return None

    def active_entities(self) -> list[str]:
        step = self.active_step()
        return step.active_entities() if step else []

    def current_entity(self) -> str | None:
        ents = self.active_entities()
        return ents[0] if ents else None

    def finished(self) -> bool:
        return self.active_step() is None

    def skip_steps(self) -> tuple[Step | None] | None:
        """Skip the blocking steps whose entity has nothing to do, up to the first that
        waits.  Returns (what :meth:`active_step` answers now,) when the pass skipped nothing
        and passed over no step for a closed entity: it then asked each active step
        ``blocking()`` in order on the state as it stands, as ``active_step`` does (skips
        change the state, and a step passed over for a closed entity was never asked); None
        otherwise.  This spares a second pass of ``blocking()`` (stock-round listings, route
        checks) right after each action."""
        rs = self.rs
        ent = rs.entities[rs.entity_index] if rs.entities else None
        game, state = self.game, self.state
        # (asked again only after a skip: nothing else here changes the state)
        closed = ent is not None and game.is_closed(state, ent)
        settled = True
        for step in self.steps():
            if (step.st.passed if step._PLAIN_PASSED else not step.active) or not step.blocks():
                continue  # (``blocking()`` is False when ``blocks()`` is)
            if closed:
                settled = False
                continue
            if step._PLAIN_BLOCKING:
                # Step.blocking() with what is known here: blocks() is true, the step's
                # entity is the round's, and that is open (this runs ~1.5 times an action)
                blocking = ent is not None and step.has_actions(ent)
            else:
                blocking = step.blocking()
            if blocking:
                return (step,) if settled else None
            step.skip()
            settled = False
            closed = ent is not None and game.is_closed(state, ent)
        return (None,) if settled else None

    def actions_for(self, entity: str) -> list[str]:
        out: list[str] = []
        for step in self.steps():
            if not step.active:
                continue
            for a in step.actions(entity):
                if a not in out:
                    out.append(a)
            if step.blocking():
                break
        return out

    # -- processing ------------------------------------------------------------------------
    def process(self, action: Action) -> None:
        chosen: Step | None = None
        # asked of every step in turn, and nothing asked changes the state: the round's
        # entity, the action's entity and kind, and whether that entity is open, read once
        rs = self.rs
        now = rs.entities[rs.entity_index] if rs.entities else None
        who, kind = action.entity, action.type
        who_open: bool | None = None
        for step in self.steps():
            if step.st.passed if step._PLAIN_PASSED else not step.active:
                continue
            accepts, has = step.takes(who, kind)
            if (now if step._PLAIN_CURRENT else step.current_entity()) == who:
                if who_open is None:
                    who_open = not self.game.is_closed(self.state, who)
                blocking = step.blocks() and has if who_open else step.blocking()
            else:
                blocking = step.blocking()
            if blocking and not accepts:
                expected = step.active_entities()
                if action.entity not in expected:
                    raise OutOfTurn(
                        f"{action.entity} cannot act now; waiting for {', '.join(expected)} "
                        f"({step.NAME})",
                        action=action,
                        index=action.id,
                        rule="turn order",
                    )
                raise IllegalAction(
                    f"{action.entity} cannot {action.type} now; step {step.NAME} allows "
                    f"{', '.join(step.current_actions())}",
                    action=action,
                    index=action.id,
                    rule=f"step {step.NAME}",
                )
            if blocking or accepts:
                chosen = step
                break
        if chosen is None:
            raise IllegalAction(
                f"no step can take {action.type} from {action.entity}",
                action=action,
                index=action.id,
                rule="round",
            )
        chosen.st.acted = True
        chosen.process(action)
        self.rs.data["at_start"] = False
        self.after_process_before_skip(action)
        # nothing changes between the skip pass and the start of after_process, whose
        # first active_step() takes the pass's answer; it is dropped after in any case
        self._settled = self.skip_steps()
        self.kept = None
        try:
            self.after_process(action)
        finally:
            self._settled = None

    def after_process_before_skip(self, action: Action) -> None:
        pass

    def after_process(self, action: Action) -> None:
        pass

    # -- entity order ----------------------------------------------------------------------
    def next_entity(self) -> None:
        """Move play on to the next entity (round kinds define how)."""

    def next_entity_index(self) -> None:
        rs = self.rs
        rs.entity_index = (rs.entity_index + 1) % len(rs.entities)

    def passed(self, ref: str) -> bool:
        return ref in self.rs.passed
