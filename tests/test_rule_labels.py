"""An illegal action names its rule: the core names rules in words, each game's data says
where they stand in its rulebook (game.yaml ``rule_sections``)."""

from __future__ import annotations

import ast
import re

import pytest
from conftest import ROOT
from ferrovia.data.definition import load_game
from ferrovia.errors import IllegalAction
from ferrovia.games import get_rules
from ferrovia.lib18xx.game import Game18xx
from ferrovia.paths import gamedata_root
from rules_helpers import Table


def _game(name: str) -> Game18xx:
    return Game18xx(load_game(gamedata_root() / name), get_rules(name), 4)


def test_a_rule_gets_its_section_of_the_game_s_rulebook_and_only_once() -> None:
    g1858, g1830 = _game("1858"), _game("1830")
    assert g1858.rule_label("train limit") == "9.8 train limit"
    assert g1858.rule_label("private closure") == "10 private closure"
    assert g1858.rule_label("9.8 train limit") == "9.8 train limit"
    assert g1858.rule_label("bundle") == "bundle"  # no section for it: the name alone
    assert g1858.rule_label(None) is None
    assert g1830.rule_label("train limit") == "train limit"


def test_an_illegal_action_in_1858_names_the_rulebook_section() -> None:
    t = Table(4)
    with pytest.raises(IllegalAction) as err:
        t.act("1", "bid", company="B&M", price=5)
    assert err.value.rule == "8.1 minimum bid"


def test_the_core_names_no_rulebook_section() -> None:
    # a number in front of a rule's name is one game's rulebook, which is that game's data
    numbered = re.compile(r'"(?:\[?1858 )?[0-9]+(?:\.[0-9]+)? [A-Za-z][^"]*"')
    core = [
        path
        for layer in ("kernel", "lib18xx", "routes", "board")
        for path in (ROOT / "engine" / layer).rglob("*.py")
    ]
    found = [
        f"{path.relative_to(ROOT)}:{i}: {line.strip()}"
        for path in core
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if numbered.search(line)
    ]
    assert found == []


def test_every_rule_a_game_places_in_its_rulebook_is_one_the_engine_names() -> None:
    # a key of rule_sections that no code names (a renamed rule) would silently lose its section
    named: set[str] = set()
    for path in (ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                named.add(node.value)
    for game in ("1858", "1830"):
        sections = load_game(gamedata_root() / game).game.rule_sections
        assert sorted(set(sections) - named) == [], game
