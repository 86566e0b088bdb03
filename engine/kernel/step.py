"""The step interface, and the interpreter's protocol: how a game's rules, rounds and steps are
driven (this docstring is the one description of it).

A game is a :class:`~ferrovia.kernel.game.Game` (immutable: definition, options and a
:class:`~ferrovia.kernel.hooks.Rules` object) applying actions to a plain-data
:class:`~ferrovia.kernel.state.GameState`.  Rounds (:class:`~ferrovia.kernel.rounds.Round`
kinds named by ``Rules.ROUNDS``) are sequences of steps (``Rules.ROUND_STEPS``, the classes by
``Rules.steps()``) over a list of entities.  Rounds and steps are *code only*: their state is
``state.round`` and a :class:`~ferrovia.kernel.state.StepState` per step (so the whole game
stays plain data).  The interpreter binds a step to ``(game, state, step_state)`` each time it
needs it; binding is cheap.  The order of asking mirrors 18xx.games, whose order decides who
acts next, and so whether recorded games replay:

- A new game (``Game.new_state``): ``Rules.initial_state`` (players, seeded random stream, a
  rules library's part), ``Rules.setup_state`` (the title's own), ``Rules.init_round`` (the
  first round made current: its entities selected, its steps' ``round_data`` and ``setup()``),
  then that round's ``setup()``.
- ``Game.apply(state, action)``: the state is snapshotted, the action's entity must be known
  (``state.knows``), then the action and each of its recorded auto-actions is processed; any
  error restores the snapshot, so an action applies whole or not at all.
- Processing one action: the round walks its steps in order, skipping passed ones; the first
  step that is *blocking* (``blocks()`` and it has actions for its current entity) or that
  lists the action's type in ``actions(entity)`` takes it (``process_<type>``).  A blocking
  step that does not accept the type rejects the action (out of turn, or not allowed now).
- After processing, the round ``skip_steps``: every active step before the first blocking one
  that ``blocks()`` but has no actions is ``skip()``-ed (passed); then the round kind's
  ``after_process`` moves play on.
- Then ``Rules.action_processed`` (not called when ``Rules.changes_nothing_after`` is sure it
  would change nothing) and ``Rules.game_end_check``: a trigger ``(reason, timing)`` is kept in
  ``state.data``; timing ``immediate`` ends the game at once.
- While the current round is finished (no step blocking): with a trigger and
  ``Rules.end_now(timing)`` the game ends; at ``Rules.MAX_TURNS`` (``state.turn``) it stops
  unfinished (``'dnf'``); otherwise ``Rules.next_round`` makes the next round current and its
  ``setup()`` runs.
- The result: ``Rules.player_value`` of each player.

The step methods:

- ``actions(entity)``: the action types ``entity`` may take here now (empty for an entity that
  is not acting: the step must say so itself).
- ``blocks()``: whether the round waits on this step while it has actions.
- ``setup()`` runs when the round starts and, as a round kind decides (an 18xx stock or
  operating round: at every new entity), again.
- ``legal_actions(entity)`` enumerates concrete actions for a bot; it must always offer
  something (at least ``pass``) when ``actions(entity)`` is not empty.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ferrovia.errors import IllegalAction
from ferrovia.kernel.actions import Action
from ferrovia.kernel.state import GameState, RoundState, StepState

if TYPE_CHECKING:
    from ferrovia.kernel.game import Game


class Step:
    """Base class.  Subclasses set ``NAME`` and implement ``actions`` and ``process_<type>``."""

    NAME: ClassVar[str] = ""
    DESCRIPTION: ClassVar[str] = ""

    def __init__(self, game: Game, state: GameState, st: StepState) -> None:
        self.game = game
        self.state = state
        self.st = st

    # -- conveniences ----------------------------------------------------------------------
    @property
    def round(self) -> RoundState:
        return self.state.round

    @property
    def data(self) -> dict[str, Any]:
        """This step's own persistent data (``StepState.data``)."""
        return self.st.data

    @property
    def rdata(self) -> dict[str, Any]:
        """Round-level data shared by the round's steps (18xx.games ``round_state``)."""
        return self.state.round.data

    def log(self, msg: str) -> None:
        self.state.log.append(msg)

    def illegal(self, action: Action, rule: str, message: str) -> IllegalAction:
        return IllegalAction(message, action=action, index=action.id, rule=rule)

    # -- the interface ---------------------------------------------------------------------
    @classmethod
    def round_data(cls) -> dict[str, Any]:
        """Initial round-level keys this step needs (created when the round starts)."""
        return {}

    def setup(self) -> None:
        """Reset per-turn data; called at round start and at each new entity."""

    def actions(self, entity: str) -> list[str]:
        """Action types ``entity`` may take at this step now."""
        return []

    def blocks(self) -> bool:
        """Whether the round waits on this step while it has actions (False: optional step)."""
        return True

    def active_entities(self) -> list[str]:
        rnd = self.state.round
        if not rnd.entities:
            return []
        return [rnd.entities[rnd.entity_index]]

    def current_entity(self) -> str | None:
        if self._PLAIN_ACTIVE:  # the round's entity (asked ~10 times an action)
            rnd = self.state.round
            return rnd.entities[rnd.entity_index] if rnd.entities else None
        ents = self.active_entities()
        return ents[0] if ents else None

    #: whether the class keeps :meth:`active_entities` as written here (set per subclass)
    _PLAIN_ACTIVE: ClassVar[bool] = True
    #: whether :meth:`blocking` is, as written here, ``blocks()`` and ``has_actions`` of the
    #: round's entity when that is open (set per subclass; see Round.skip_steps)
    _PLAIN_BLOCKING: ClassVar[bool] = True

    #: whether :meth:`current_entity` is, as written here, the round's entity (set per
    #: subclass; see Round.process)
    _PLAIN_CURRENT: ClassVar[bool] = True
    #: whether the class keeps :attr:`active` as written here (``not st.passed``; set per
    #: subclass: the round's loops read ``st.passed`` then, not the property)
    _PLAIN_PASSED: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._PLAIN_PASSED = cls.active is Step.__dict__["active"]
        cls._PLAIN_ACTIVE = cls.active_entities is Step.active_entities
        cls._PLAIN_CURRENT = cls._PLAIN_ACTIVE and cls.current_entity is Step.current_entity
        cls._PLAIN_BLOCKING = (
            cls._PLAIN_ACTIVE
            and cls.blocking is Step.blocking
            and cls.current_entity is Step.current_entity
        )

    def current_actions(self) -> list[str]:
        ent = self.current_entity()
        if ent is None or self.game.is_closed(self.state, ent):
            return []
        return self.actions(ent)

    def has_actions(self, entity: str) -> bool:
        """``bool(self.actions(entity))``; steps may answer faster."""
        return bool(self.actions(entity))

    def takes(self, entity: str, kind: str) -> tuple[bool, bool]:
        """``(kind in actions(entity), bool(actions(entity)))``: what processing an action
        asks of each step in turn; steps may answer faster than listing every action."""
        acts = self.actions(entity)
        return kind in acts, bool(acts)

    def blocking(self) -> bool:
        if not self.blocks():
            return False
        ent = self.current_entity()
        if ent is None or self.game.is_closed(self.state, ent):
            return False
        return self.has_actions(ent)

    @property
    def active(self) -> bool:
        return not self.st.passed

    def pass_(self) -> None:
        self.st.passed = True

    def skip(self) -> None:
        """Called when the step blocks but its entity has nothing to do here."""
        self.pass_()

    def process(self, action: Action) -> None:
        handler = getattr(self, f"process_{action.type}", None)
        if handler is None:
            raise self.illegal(action, "step", f"{self.NAME} cannot process {action.type}")
        handler(action)

    def process_pass(self, action: Action) -> None:
        self.pass_()

    def legal_actions(self, entity: str) -> list[Action]:
        """Concrete legal actions (for random play and ``legal_actions``)."""
        return []
