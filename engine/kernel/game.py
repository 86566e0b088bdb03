"""The interpreter: a :class:`Game` (immutable: definition + options + rules) applies actions
to a :class:`~ferrovia.kernel.state.GameState`.

A Game is made for its rules: ``rules.GAME`` is the class (a rules library's subclass adds the
questions its rules ask of the definition, e.g. ``Game18xx.cert_limit``), and
``rules.new_game(definition, num_players)`` makes one.  How the interpreter drives rounds and
steps is described in :mod:`ferrovia.kernel.step`.

``game.apply(state, action)`` checks the action against the rules and either applies it whole
or raises a typed error (:class:`~ferrovia.errors.IllegalAction`, ``OutOfTurn``,
``UnknownEntity``) leaving the state exactly as it was: the state is snapshotted (pickle, a
few tens of microseconds) before the action and restored on any error.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ferrovia.errors import GameError, IllegalAction, UnknownEntity
from ferrovia.kernel.actions import ACTION_TYPES, Action, Message, Program
from ferrovia.kernel.rounds import Round
from ferrovia.kernel.state import GameState, RoundState, StepState
from ferrovia.kernel.step import Step

if TYPE_CHECKING:
    from ferrovia.kernel.hooks import Rules

T = TypeVar("T")
S = TypeVar("S", bound=GameState)


def _by_name(
    what: str, rules: str, base: dict[str, T], items: Iterable[tuple[str, T]]
) -> dict[str, T]:
    """``base`` plus ``items`` by name; one name twice is a mistake in the hook set."""
    out = dict(base)
    for name, item in items:
        if not name:
            raise ValueError(f"rules {rules}: a {what} without a name: {item!r}")
        if name in out and out[name] is not item:
            raise ValueError(f"rules {rules}: two {what}s named {name!r}")
        out[name] = item
    return out


class Game(Generic[S]):
    """One game's immutable rules: its definition, optional rules and rules object.
    Parameterised by the state class its rules play on (``Game18xx`` is ``Game[State18xx]``)."""

    def __init__(
        self,
        definition: Any,
        rules: Rules[Any, S],
        num_players: int,
        optional_rules: Iterable[str] = (),
    ) -> None:
        if not isinstance(self, rules.GAME):
            raise TypeError(
                f"rules {rules.NAME} are played by a {rules.GAME.__name__}, not a "
                f"{type(self).__name__} (rules.new_game makes the right one)"
            )
        self.definition = definition
        self.num_players = num_players
        self.rules = rules
        self.optional_rules = frozenset(optional_rules)
        self._steps = _by_name("step", rules.NAME, {}, ((s.NAME, s) for s in rules.steps()))
        for kind, names in rules.ROUND_STEPS.items():
            missing = [n for n in names if n not in self._steps]
            if missing:
                raise UnknownEntity(
                    f"rules {rules.NAME}: {kind} round names unknown steps {', '.join(missing)}"
                )
        self.action_types = _by_name(
            "action type", rules.NAME, ACTION_TYPES, ((a.TYPE, a) for a in rules.actions())
        )
        self._rounds = _by_name("round kind", rules.NAME, {}, ((r.KIND, r) for r in rules.ROUNDS))
        self.check = True  # snapshot and roll back on error (off: trusted replays only)
        # answers that follow from the definition alone, worked out once (the Game is immutable)
        self.memo: dict[Any, Any] = {}
        self._bound: tuple[S, RoundState, list[Step], list[StepState]] | None = None

    # -- registry --------------------------------------------------------------------------
    def step_class(self, name: str) -> type[Step]:
        try:
            return self._steps[name]
        except KeyError:
            raise UnknownEntity(f"no step named {name!r} in rules {self.rules.NAME}") from None

    def round_class(self, kind: str) -> type[Round]:
        try:
            return self._rounds[kind]
        except KeyError:
            raise UnknownEntity(f"no round kind {kind!r} in rules {self.rules.NAME}") from None

    def round(self, state: S) -> Round:
        return self.round_class(state.round.kind)(self, state)

    def bound_steps(self, state: S) -> list[Step]:
        """The current round's steps bound to ``state`` (cached while the round is the same
        object with the same step states)."""
        rs = state.round
        cached = self._bound
        if (
            cached is not None
            and cached[0] is state
            and cached[1] is rs
            and len(cached[2]) == len(rs.steps)
            # the same step states, compared at C speed (asked ~5 times an action)
            and all(map(operator.is_, cached[3], rs.steps))
        ):
            return cached[2]
        bound = [self.step_class(st.name)(self, state, st) for st in rs.steps]
        self._bound = (state, rs, bound, [b.st for b in bound])
        return bound

    # -- setup -----------------------------------------------------------------------------
    def new_state(self, players: Sequence[tuple[str, str]], seed: int = 0) -> S:
        """A fresh game: players as (id, name) in seating order (the first has priority)."""
        state = self.rules.initial_state(self, players, seed)
        self.rules.setup_state(self, state)
        rnd = self.rules.init_round(self, state)
        state.round.data["at_start"] = True
        rnd.setup()
        return state

    # -- applying actions ------------------------------------------------------------------
    def apply(self, state: S, action: Action) -> None:
        """Apply one action (and its recorded auto-actions) whole, or raise and change nothing."""
        snap = state.snapshot() if self.check else None
        try:
            # program_* and messages change nothing themselves; their recorded auto-actions do
            if not isinstance(action, Program | Message):
                self._process_single(state, action)
            for auto in action.auto_actions:
                if not isinstance(auto, Program | Message):
                    self._process_single(state, auto)
        except GameError as exc:
            if snap is not None:
                state.restore(snap)
            exc.rule = self.rule_label(exc.rule)
            if exc.index is None:
                exc.index = action.id
            if exc.action is None:
                exc.action = action
            raise
        except Exception as exc:  # a bug inside a step: still leave the state as it was
            if snap is not None:
                state.restore(snap)
            raise IllegalAction(
                f"cannot apply: {type(exc).__name__}: {exc}",
                action=action,
                index=action.id,
                rule="engine",
            ) from exc
        state.actions += 1
        if action.id is not None:
            state.last_action_id = action.id

    def rule_label(self, rule: str | None) -> str | None:
        """A rule the engine names, with its section in this game's rulebook (game.yaml
        ``rule_sections``) in front: ``train limit`` -> ``9.8 train limit`` in 1858."""
        section = self.definition.game.rule_sections.get(rule) if rule else None
        return f"{section} {rule}" if section else rule

    def _process_single(self, state: S, action: Action) -> None:
        if state.finished:
            raise IllegalAction("the game is over", action=action, rule="game end")
        self._check_entity(state, action)
        rnd = self.round(state)
        rnd.process(action)
        # the active step the round found as it finished processing, while certainly still
        # the answer: the first finished() below then need not ask every step again
        kept = rnd.kept
        if kept is None or not self.rules.changes_nothing_after(self, state, action):
            kept = None
            # (not asked when the rules have just said it leaves the state as it is)
            self.rules.action_processed(self, state, action)
        trigger = self.rules.game_end_check(self, state)
        if trigger is not None:
            kept = None
            state.data.setdefault("game_end_trigger", list(trigger))
            trigger = (state.data["game_end_trigger"][0], state.data["game_end_trigger"][1])
            if trigger[1] == "immediate":
                self.end_game(state, trigger[0])
        while not state.finished:
            rnd = self.round(state)
            if kept is not None:
                rnd._settled, kept = kept, None  # one use, as in Round.process
            if not rnd.finished():
                break
            state.round.passed = []
            if trigger is not None and self.rules.end_now(self, state, trigger[1]):
                self.end_game(state, trigger[0])
            elif state.turn >= self.rules.MAX_TURNS:
                self.end_game(state, "dnf")  # 18xx.games: a game that cannot end stops here
            else:
                self.transition(state)

    def transition(self, state: S) -> None:
        rnd = self.rules.next_round(self, state)
        if state.finished:
            return
        state.round.data["at_start"] = True
        rnd.setup()

    def end_game(self, state: S, reason: str) -> None:
        state.finished = True
        state.game_end_reason = reason
        state.log.append(f"-- Game over: {reason} --")

    def _check_entity(self, state: S, action: Action) -> None:
        ref = action.entity
        if state.knows(ref):
            return
        raise UnknownEntity(f"no entity {ref!r}", action=action, index=action.id, rule="entity")

    # -- questions -------------------------------------------------------------------------
    def current_entity(self, state: S) -> str | None:
        return None if state.finished else self.round(state).current_entity()

    def active_step(self, state: S) -> Step | None:
        return None if state.finished else self.round(state).active_step()

    def legal_actions(self, state: S) -> list[Action]:
        """Concrete legal actions of the acting entity (and of companies it controls)."""
        if state.finished:
            return []
        out: list[Action] = []
        rnd = self.round(state)
        ent = rnd.current_entity()
        if ent is None:
            return out
        for step in rnd.steps():
            if not step.active:
                continue
            if step.actions(ent):
                out.extend(step.legal_actions(ent))
            for other in self.controlled_entities(state, ent):
                if step.actions(other):
                    out.extend(step.legal_actions(other))
            if step.blocking():
                break
        return out

    def controlled_entities(self, state: S, ref: str) -> list[str]:
        """Entities acting on behalf of ``ref`` (default none; an 18xx player's companies)."""
        return []

    def result(self, state: S) -> dict[str, int]:
        """Each player's value (the rules' ``player_value``)."""
        return {p.id: self.rules.player_value(self, state, p.id) for p in state.players}

    def is_closed(self, state: S, ref: str) -> bool:
        """Whether ``ref`` is an entity that has left the game (default: none ever does); a
        step whose entity is closed has nothing to do."""
        return False
