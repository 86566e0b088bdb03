"""One explicit way to register steps and actions: each game's hook set lists them."""

from __future__ import annotations

import subprocess
import sys
from typing import ClassVar

import pytest
from conftest import ROOT
from ferrovia.errors import UnknownEntity
from ferrovia.games import available, get_rules
from ferrovia.kernel.actions import Action, action_from_json
from ferrovia.kernel.step import Step
from ferrovia.lib18xx.game import Game18xx
from ferrovia.lib18xx.rules import Rules18xx
from rules_helpers import definition


class _Spin(Action):
    TYPE: ClassVar[str] = "spin"


class _StepA(Step):
    NAME = "a"


class _OtherA(Step):
    NAME = "a"


def test_every_registered_game_builds_its_rounds_from_its_own_step_list() -> None:
    for name in available():
        rules = get_rules(name)
        steps = {s.NAME for s in rules.steps()}
        for kind, names in rules.ROUND_STEPS.items():
            assert set(names) <= steps, (name, kind)


def test_a_round_naming_a_step_the_game_does_not_list_is_refused() -> None:
    class Broken(Rules18xx):
        NAME = "broken"
        ROUND_STEPS: ClassVar[dict[str, tuple[str, ...]]] = {"stock": ("a", "b")}

        def steps(self) -> tuple[type[Step], ...]:
            return (_StepA,)

    with pytest.raises(UnknownEntity, match="stock round names unknown steps b"):
        Game18xx(definition(), Broken(), 4)


def test_two_steps_of_one_name_in_a_game_are_refused() -> None:
    class Twice(Rules18xx):
        NAME = "twice"

        def steps(self) -> tuple[type[Step], ...]:
            return (_StepA, _OtherA)

    with pytest.raises(ValueError, match="two steps named 'a'"):
        Game18xx(definition(), Twice(), 4)


def test_a_game_adds_its_own_action_types_without_touching_the_core() -> None:
    class Spinning(Rules18xx):
        NAME = "spinning"

        def actions(self) -> tuple[type[Action], ...]:
            return (_Spin,)

    game = Game18xx(definition(), Spinning(), 4)
    wire = {"type": "spin", "entity": 1, "id": 3}
    assert isinstance(action_from_json(wire, game.action_types), _Spin)
    with pytest.raises(UnknownEntity, match="unknown action type 'spin'"):
        action_from_json(wire)  # the core alone does not know it


def test_the_engine_doctests_run_when_modules_are_imported_by_their_folder_name() -> None:
    # pytest imports engine/x.py as 'engine.x' besides 'ferrovia.x': with a global step
    # registry the second import failed with "two steps named 'home_token'"
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--doctest-modules",
            "engine",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout[-2000:]
