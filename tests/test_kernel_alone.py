"""A game that is not an 18xx runs on the kernel alone: its own state, round, step, action and
end, with no company, train, market or map anywhere (the kernel/18xx split of issue #28).

The toy game: players in turn add 1 or 2 to a shared count; whoever brings it to the target
wins, and every other player pays the winner 5.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest
from ferrovia.errors import IllegalAction, OutOfTurn
from ferrovia.kernel.actions import Action, action_from_json, action_to_json
from ferrovia.kernel.game import Game
from ferrovia.kernel.hooks import Rules
from ferrovia.kernel.ledger import transfer
from ferrovia.kernel.rounds import Round
from ferrovia.kernel.state import GameState, Player
from ferrovia.kernel.step import Step


@dataclass
class CountState(GameState):
    count: int = 0
    target: int = 7


@dataclass(frozen=True)
class Add(Action):
    TYPE: ClassVar[str] = "add"
    amount: int = 0


class AddStep(Step):
    NAME = "add"

    def actions(self, entity: str) -> list[str]:
        return ["add"] if entity == self.current_entity() else []

    def process_add(self, action: Action) -> None:
        assert isinstance(action, Add) and isinstance(self.state, CountState)
        if action.amount not in (1, 2):
            raise self.illegal(action, "add one or two", f"cannot add {action.amount}")
        self.state.count += action.amount
        self.log(f"{action.entity} adds {action.amount}: {self.state.count}")
        self.data["last"] = action.entity

    def legal_actions(self, entity: str) -> list[Action]:
        return [Add(entity=entity, amount=n) for n in (1, 2)]


class Turns(Round):
    KIND = "turns"

    def select_entities(self) -> list[str]:
        return [p.id for p in self.state.players]

    def after_process(self, action: Action) -> None:
        self.next_entity_index()

    def finished(self) -> bool:
        return self.state.finished


class CountRules(Rules[Game[CountState], CountState]):
    NAME = "count"
    ROUNDS = (Turns,)
    ROUND_STEPS: ClassVar[dict[str, tuple[str, ...]]] = {"turns": ("add",)}
    STATE = CountState

    def steps(self) -> tuple[type[Step], ...]:
        return (AddStep,)

    def actions(self) -> tuple[type[Action], ...]:
        return (Add,)

    def init_round(self, game: Game[CountState], state: CountState) -> Round:
        return Turns.create(game, state)

    def next_round(self, game: Game[CountState], state: CountState) -> Round:
        return Turns.create(game, state)

    def game_end_check(self, game: Game[CountState], state: CountState) -> tuple[str, str] | None:
        return ("target", "immediate") if state.count >= state.target else None

    def action_processed(self, game: Game[CountState], state: CountState, action: Any) -> None:
        if state.count >= state.target and not state.data.get("paid"):
            state.data["paid"] = True
            for p in state.players:
                if p.id != action.entity:
                    transfer(state, p.id, action.entity, 5, "loses")


def _game() -> tuple[Game[CountState], CountState]:
    definition = SimpleNamespace(game=SimpleNamespace(rule_sections={}))
    game: Game[CountState] = CountRules().new_game(definition, 2)
    state = game.new_state([("a", "Ana"), ("b", "Ben")], seed=3)
    for p in state.players:
        p.cash = 20
    return game, state


def test_a_non_18xx_game_plays_to_its_end_on_the_kernel_alone() -> None:
    game, state = _game()
    assert type(state) is CountState and not hasattr(state, "corporations")
    assert game.current_entity(state) == "a"
    assert [action_to_json(a) for a in game.legal_actions(state)] == [
        {"type": "add", "entity": "a", "entity_type": "player", "amount": 1},
        {"type": "add", "entity": "a", "entity_type": "player", "amount": 2},
    ]
    for i, (who, n) in enumerate([("a", 2), ("b", 2), ("a", 1), ("b", 2)], start=1):
        wire = {"type": "add", "entity": who, "id": i, "amount": n}
        game.apply(state, action_from_json(wire, game.action_types))
    assert state.finished and state.game_end_reason == "target"
    assert game.result(state) == {"a": 15, "b": 25}
    assert state.total_cash() == 40


def test_its_errors_leave_the_state_as_it_was() -> None:
    game, state = _game()
    before = state.dumps()
    with pytest.raises(OutOfTurn):
        game.apply(state, Add(entity="b", amount=1, id=1))
    with pytest.raises(IllegalAction, match="cannot add 3"):
        game.apply(state, Add(entity="a", amount=3, id=1))
    assert state.dumps() == before


def test_its_state_round_trips_through_json_with_its_own_fields() -> None:
    game, state = _game()
    game.apply(state, Add(entity="a", amount=2, id=1))
    back = CountState.loads(state.dumps())
    assert back == state and back.count == 2 and isinstance(back.players[0], Player)
    game.apply(back, Add(entity="b", amount=1, id=2))
    assert back.count == 3 and game.current_entity(back) == "a"


def test_the_kernel_defaults_are_neutral() -> None:
    class Bare(Rules[Game[GameState], GameState]):
        NAME = "bare"

    definition = SimpleNamespace(game=SimpleNamespace(rule_sections={}))
    game = Bare().new_game(definition, 2)
    state = game.rules.initial_state(game, [("1", "A"), ("2", "B")], 0)
    assert type(state) is GameState
    assert game.rules.game_end_check(game, state) is None
    assert game.rules.player_value(game, state, "1") == 0
    with pytest.raises(NotImplementedError, match="no first round"):
        game.rules.init_round(game, state)


def test_the_kernel_imports_no_rules_library_title_or_play() -> None:
    code = (
        "import sys, ferrovia.kernel.game, ferrovia.kernel.hooks, ferrovia.kernel.ledger, "
        "ferrovia.kernel.rounds, ferrovia.kernel.step, ferrovia.kernel.actions, "
        "ferrovia.kernel.rng\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('ferrovia.lib18xx', "
        "'ferrovia.games', 'ferrovia.play', 'ferrovia.routes', 'ferrovia.board')))\n"
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
