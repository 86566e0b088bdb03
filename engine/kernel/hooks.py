"""The rules interface: what the interpreter asks of a game's rules, and nothing more.

A title's rules are one object of a :class:`Rules` subclass, usually by way of a rules library
(the 18xx library's ``ferrovia.lib18xx.rules.Rules18xx`` adds the hooks its stock and operating
rounds ask, with 18xx.games' usual behaviour).  The interpreter (:mod:`ferrovia.kernel.game`)
calls only the hooks below; it never asks which game it is playing.  The kernel's defaults are
neutral: no round kind, no step, a player worth their cash, no end but the turn limit.

What a title declares:

- ``NAME``; ``ROUNDS``, the round kinds it plays (:class:`~ferrovia.kernel.rounds.Round`
  subclasses, each by its ``KIND``); ``ROUND_STEPS``, the step names of each round kind;
  :meth:`Rules.steps`, the step classes those names are; :meth:`Rules.actions`, its action types
  beyond the kernel's (``pass``, ``message``, ``undo``, ``redo``, ``program_*``);
- ``STATE``, its state class (:class:`~ferrovia.kernel.state.GameState` or a subclass with its
  own typed fields) and ``GAME``, its :class:`~ferrovia.kernel.game.Game` class;
- the hooks: :meth:`Rules.initial_state` and :meth:`Rules.setup_state` (a new game),
  :meth:`Rules.init_round` and :meth:`Rules.next_round` (the round sequence),
  :meth:`Rules.action_processed` and :meth:`Rules.changes_nothing_after` (after each action),
  :meth:`Rules.game_end_check` and :meth:`Rules.end_now` (the end), :meth:`Rules.player_value`
  (the result).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from ferrovia.errors import IllegalAction
from ferrovia.kernel import rng
from ferrovia.kernel.game import Game
from ferrovia.kernel.state import GameState, Player

if TYPE_CHECKING:
    from ferrovia.kernel.actions import Action
    from ferrovia.kernel.rounds import Round
    from ferrovia.kernel.step import Step

G = TypeVar("G", bound=Game[Any])
S = TypeVar("S", bound=GameState)


class Rules(Generic[G, S]):
    """The interpreter's interface, with neutral defaults.  Parameterised by the game and
    state classes its hooks are given (``Rules18xx`` is ``Rules[Game18xx, State18xx]``)."""

    NAME: ClassVar[str] = "base"
    ROUND_STEPS: ClassVar[dict[str, tuple[str, ...]]] = {}
    ROUNDS: ClassVar[tuple[type[Round], ...]] = ()  # the round kinds this game plays
    MAX_TURNS: ClassVar[int] = 100
    """At this ``state.turn`` (counted by :meth:`next_round`) a game that has not ended stops,
    unfinished (``'dnf'``)."""
    GAME: ClassVar[type[Game[Any]]] = Game
    STATE: ClassVar[type[GameState]] = GameState

    def new_game(
        self, definition: Any, num_players: int, optional_rules: Iterable[str] = ()
    ) -> Game[Any]:
        """A game of these rules (of their ``GAME`` class) on ``definition``."""
        return self.GAME(definition, self, num_players, optional_rules)

    # -- registration ----------------------------------------------------------------------
    def steps(self) -> tuple[type[Step], ...]:
        """The step classes this game's rounds are made of (each by its ``NAME``)."""
        return ()

    def actions(self) -> tuple[type[Action], ...]:
        """Action types this game adds to the kernel's (``ferrovia.kernel.actions``)."""
        return ()

    def round_steps(self, kind: str) -> tuple[str, ...]:
        """The step names of a round of ``kind``, in the order they are asked."""
        return self.ROUND_STEPS[kind]

    # -- a new game ------------------------------------------------------------------------
    def initial_state(self, game: G, players: Sequence[tuple[str, str]], seed: int) -> S:
        """The state before the first round: players as (id, name) in seating order, the
        random stream seeded.  A rules library builds its own part of the state here."""
        ids = [pid for pid, _ in players]
        if len(set(ids)) != len(ids):
            raise IllegalAction(f"duplicate player ids: {ids}", rule="setup")
        state = self.STATE(
            players=[Player(id=str(pid), name=name) for pid, name in players],
            rng=rng.seed_value(seed),
        )
        return state  # type: ignore[return-value]  # (STATE is the S of a subclass)

    def setup_state(self, game: G, state: S) -> None:
        """A title's own setup after :meth:`initial_state` (before the first round)."""

    # -- the round sequence ----------------------------------------------------------------
    def init_round(self, game: G, state: S) -> Round:
        """The first round, made current (``RoundKind.create``)."""
        raise NotImplementedError(f"rules {self.NAME} name no first round (init_round)")

    def next_round(self, game: G, state: S) -> Round:
        """The round after the current one, made current (18xx.games ``next_round!``).  A
        title that counts turns increments ``state.turn`` here."""
        raise NotImplementedError(f"rules {self.NAME} name no next round (next_round)")

    # -- after each action -----------------------------------------------------------------
    def action_processed(self, game: G, state: S, action: Any) -> None:
        """After a step has processed ``action`` and the round has moved on."""

    def changes_nothing_after(self, game: G, state: S, action: Any) -> bool:
        """Whether :meth:`action_processed` and :meth:`game_end_check` will leave the state as
        it is after this action, so the interpreter may keep the active step the round just
        found instead of asking every step again (and need not call ``action_processed``).
        True only when that is certain: here when neither hook is overridden (a title that
        overrides one answers for it)."""
        cls = type(self)
        return (
            cls.action_processed is Rules.action_processed
            and cls.game_end_check is Rules.game_end_check
        )

    # -- the end ---------------------------------------------------------------------------
    def game_end_check(self, game: G, state: S) -> tuple[str, str] | None:
        """(reason, timing) once the game is to end (default: never).  Timing
        ``'immediate'`` ends it at once; any other is asked of :meth:`end_now` at the end of
        each round from then on."""
        return None

    def end_now(self, game: G, state: S, timing: str) -> bool:
        """Whether a game whose end was triggered with ``timing`` ends as the current round
        finishes (default: yes)."""
        return True

    # -- the result ------------------------------------------------------------------------
    def player_value(self, game: G, state: S, player: str) -> int:
        """What a player is worth at the end (default: their cash)."""
        return state.player(player).cash
