"""``Step.takes(entity, kind)`` is ``(kind in actions(entity), bool(actions(entity)))``.

Processing an action asks each step only that (engine/kernel/rounds.py); the 1858 stock turn
and the buy-trains step answer it without listing every action.  The law is checked on every
state of real and random 1858 games, for each step of the round, for the acting entity and
every kind those steps list, before each action is applied.
"""

from __future__ import annotations

import pytest
from conftest import shared_path
from ferrovia.kernel.actions import Message, Program, action_from_json
from ferrovia.lib18xx.game import Game18xx
from ferrovia.lib18xx.state import State18xx
from ferrovia.play.replay import filter_actions, game_for, load_export

KINDS = (
    "pass",
    "buy_shares",
    "sell_shares",
    "par",
    "bid",
    "convert",
    "buy_train",
    "scrap_train",
    "buy_company",
    "lay_tile",
    "run_routes",
    "choose",
)


def _check_state(game: Game18xx, state: State18xx, entity: str, kind: str) -> int:
    """Checks the law for every step of the current round; returns how many were asked."""
    asked = 0
    for step in game.round(state).steps():
        for k in {kind, *KINDS}:
            acts = step.actions(entity)
            assert step.takes(entity, k) == (k in acts, bool(acts)), (
                f"{step.NAME} {entity} {k}: actions {acts}"
            )
            asked += 1
    return asked


@pytest.mark.parametrize(
    "parts",
    [
        ("18xx.games", "1858", "219682.json"),
        ("reference-random", "random-s101-p3.json"),
    ],
)
def test_takes_agrees_with_the_listing_on_every_state(parts: tuple[str, ...]) -> None:
    data = load_export(shared_path("fixtures", *parts))
    game, state = game_for(data, None)
    asked = 0
    for raw in filter_actions(list(data["actions"])):
        action = action_from_json(raw, game.action_types)
        if not isinstance(action, Program | Message) and not state.finished:
            asked += _check_state(game, state, action.entity, action.type)
        game.apply(state, action)
    assert state.finished
    assert asked > 10_000


@pytest.mark.parametrize(
    "parts",
    [
        ("18xx.games", "1858", "1858_game_end_bank.json"),
        ("reference-random", "random-s104-p6.json"),
    ],
)
def test_changes_nothing_after_is_only_said_when_the_hooks_change_nothing(
    parts: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where ``Rules.changes_nothing_after`` says so, the interpreter keeps the round's active
    step across ``action_processed`` and ``game_end_check`` and does not call
    ``action_processed``: on every action of two games it is asked about, both leave the
    state exactly as it was whenever it is said (and it is said often)."""
    data = load_export(shared_path("fixtures", *parts))
    game, state = game_for(data, None)
    rules = game.rules
    said = [0, 0]
    answer = rules.changes_nothing_after

    def checked(g: Game18xx, s: State18xx, action: object) -> bool:
        quiet = answer(g, s, action)
        said[quiet] += 1
        if quiet:  # what the interpreter then leaves out changes nothing
            before = s.snapshot()
            rules.action_processed(g, s, action)
            rules.game_end_check(g, s)
            assert s.snapshot() == before, f"action {getattr(action, 'id', None)}"
        return quiet

    monkeypatch.setattr(rules, "changes_nothing_after", checked)
    for raw in filter_actions(list(data["actions"])):
        game.apply(state, action_from_json(raw, game.action_types))
    assert state.finished
    assert said[1] > 400  # (asked only where the round kept a step: 473 in game_end_bank)


def test_the_rounds_plain_paths_are_only_for_steps_that_keep_the_base_methods() -> None:
    """Round.process, skip_steps and active_step read ``st.passed`` and the round's entity
    directly for a step that keeps :attr:`Step.active` and :meth:`Step.current_entity`; a
    step overriding either is asked through its own method."""
    from ferrovia.kernel.step import Step
    from ferrovia.lib18xx.operating.trains import DiscardTrainStep

    class OwnEntity(Step):
        def current_entity(self) -> str | None:
            return "director"

    class OwnActive(Step):
        @property
        def active(self) -> bool:
            return True

    assert OwnEntity._PLAIN_PASSED and not OwnEntity._PLAIN_CURRENT
    assert OwnActive._PLAIN_CURRENT and not OwnActive._PLAIN_PASSED
    assert not DiscardTrainStep._PLAIN_PASSED and not DiscardTrainStep._PLAIN_CURRENT
    assert Step._PLAIN_PASSED and Step._PLAIN_CURRENT
