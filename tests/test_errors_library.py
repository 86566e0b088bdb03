"""Illegal actions through the Python API: the typed error, the action's id, the rule, and a
game state exactly as it was (its JSON before and after is identical; the recorded action
still applies afterwards).

Points are taken in real 18xx.games exports (../shared) just before an action of each kind;
the illegal variations are that recorded action with one field changed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from ferrovia.errors import GameError, IllegalAction, OutOfTurn, UnknownEntity
from ferrovia.lib18xx.actions import action_from_json
from ferrovia.lib18xx.game import Game18xx
from ferrovia.lib18xx.state import State18xx
from ferrovia.play.replay import filter_actions, load_export, replay

from tests.conftest import shared_path

FIXTURE = ("fixtures", "18xx.games", "1858", "219682.json")


def _more_revenue(a: dict[str, Any]) -> dict[str, Any]:
    routes = json.loads(json.dumps(a["routes"]))
    routes[0]["revenue"] += 10
    return {"routes": routes}


def _unknown_train_route(a: dict[str, Any]) -> dict[str, Any]:
    routes = json.loads(json.dumps(a["routes"]))
    routes[0]["train"] = "9Z-0"
    return {"routes": routes}


def _someone_else(game: Game18xx, state: State18xx, a: dict[str, Any]) -> dict[str, Any]:
    """A player who is neither acting nor named by the action."""
    busy = {str(game.current_entity(state)), str(a["entity"])}
    return {"entity": int(next(p.id for p in state.players if p.id not in busy))}


def _wrong_type(a: dict[str, Any]) -> dict[str, Any]:
    return {"type": "lay_tile" if a["type"] == "bid" else "bid", "price": 70, "company": "L&C"}


# (action id in 219682.json, variation name, change, expected error class(es), expected rule or
# its leading section number; the track checks are being refined, so only their section)
CASES: list[tuple[int, str, Any, type[GameError] | tuple[type[GameError], ...], str]] = [
    (2, "price 5", {"price": 5}, IllegalAction, "8.1 minimum bid"),
    (2, "price -70", {"price": -70}, IllegalAction, "8.1 minimum bid"),
    (2, "unknown company", {"company": "XX"}, IllegalAction, "8.1 auction"),
    (72, "hex Z99", {"hex": "Z99"}, IllegalAction, "map"),
    (72, "rotation 7", {"rotation": 7}, IllegalAction, "9.3 "),
    (72, "rotation -1", {"rotation": -1}, IllegalAction, "9.3 "),
    (72, "unknown tile", {"tile": "9999-0"}, (IllegalAction, UnknownEntity), "9.3 "),
    (150, "unknown train", {"train": "9Z-0"}, IllegalAction, "9.8 trains"),
    (150, "price 1", {"price": 1}, IllegalAction, "9.8 face value"),
    (160, "revenue +10", _more_revenue, IllegalAction, "9.5 route value"),
    (160, "unknown train", _unknown_train_route, IllegalAction, "9.5 running trains"),
    (170, "unknown share", {"shares": ["MZA_99"]}, UnknownEntity, "shares"),
    (170, "percent -10", {"percent": -10}, IllegalAction, "bundle"),
    (234, "issue unknown share", {"shares": ["MZA_99"]}, IllegalAction, "9.9 issue"),
    (234, "issue percent -10", {"percent": -10}, IllegalAction, "bundle"),
    (234, "issue percent 999", {"percent": 999}, IllegalAction, "bundle"),
]
# every point also gets: an entity that does not exist, another player, a type the step refuses
POINTS = sorted({c[0] for c in CASES} | {134, 149, 311, 407, 532, 634, 696})


@pytest.fixture(scope="module")
def export() -> dict[str, Any]:
    return load_export(shared_path(*FIXTURE))


@pytest.fixture(scope="module")
def games(export: dict[str, Any]) -> dict[int, tuple[Game18xx, State18xx, dict[str, Any]]]:
    """For each point: the game just before that action, and the action as recorded.
    One replay, states copied on the way (replaying from the start per point is slower)."""
    actions = filter_actions(export["actions"])
    res = replay(export, until=0, check=True)
    game, state = res.game, res.state
    out: dict[int, tuple[Game18xx, State18xx, dict[str, Any]]] = {}
    for raw in actions:
        if raw.get("id") in POINTS:
            out[raw["id"]] = (game, State18xx.from_json(state.to_json()), raw)
        if len(out) == len(POINTS):
            break
        game.apply(state, action_from_json(raw))
    assert sorted(out) == POINTS
    return out


def dump(state: State18xx) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def check_refused(
    game: Game18xx,
    state: State18xx,
    raw: dict[str, Any],
    change: dict[str, Any],
    cls: type[GameError] | tuple[type[GameError], ...],
    rule: str | None,
) -> GameError:
    before = dump(state)
    bad = action_from_json({**raw, **change})
    with pytest.raises(GameError) as info:
        game.apply(state, bad)
    err = info.value
    assert type(err) in (cls if isinstance(cls, tuple) else (cls,)), str(err)
    assert err.index == raw["id"]
    assert err.action is bad
    if rule is not None:
        assert err.rule == rule or (rule.endswith(" ") and str(err.rule).startswith(rule)), err
    assert err.rule, f"no rule named: {err}"
    assert str(err).startswith(f"action {raw['id']} {bad.type}: ")
    assert dump(state) == before
    return err


@pytest.mark.parametrize(
    ("ident", "name", "change", "cls", "rule"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES]
)
def test_illegal_variation_is_typed_and_changes_nothing(
    games: dict[int, tuple[Game18xx, State18xx, dict[str, Any]]],
    ident: int,
    name: str,
    change: Any,
    cls: type[GameError] | tuple[type[GameError], ...],
    rule: str,
) -> None:
    game, template, raw = games[ident]
    state = State18xx.from_json(template.to_json())
    check_refused(game, state, raw, change(raw) if callable(change) else change, cls, rule)
    game.apply(state, action_from_json(raw))  # the recorded action still applies afterwards
    assert state.last_action_id == ident


@pytest.mark.parametrize("ident", POINTS)
def test_wrong_entity_or_type_at_every_point(
    games: dict[int, tuple[Game18xx, State18xx, dict[str, Any]]], ident: int
) -> None:
    game, template, raw = games[ident]
    state = State18xx.from_json(template.to_json())
    check_refused(game, state, raw, {"entity": "nobody"}, UnknownEntity, "entity")
    check_refused(game, state, raw, _someone_else(game, state, raw), OutOfTurn, "turn order")
    err = check_refused(
        game, state, raw, _wrong_type(raw), type(_expected_wrong_type(game, state, raw)), None
    )
    assert err.rule
    # several refusals in a row leave no trace either: the recorded action applies
    game.apply(state, action_from_json(raw))
    assert state.last_action_id == ident


def _expected_wrong_type(game: Game18xx, state: State18xx, raw: dict[str, Any]) -> GameError:
    """What a refused type raises: OutOfTurn when another entity is being waited for (the
    exchange of a private acting as a company), else IllegalAction naming the step."""
    acting = game.current_entity(state)
    if str(acting) != str(raw["entity"]):
        return OutOfTurn("")
    return IllegalAction("")


def test_legal_actions_are_accepted_and_the_refused_are_not_listed(
    games: dict[int, tuple[Game18xx, State18xx, dict[str, Any]]],
) -> None:
    """``legal_actions`` offers the recorded action's kind, never one of the variations."""
    game, template, raw = games[72]
    state = State18xx.from_json(template.to_json())
    legal = game.legal_actions(state)
    assert legal and all(a.entity == str(raw["entity"]) for a in legal)
    assert not any(getattr(a, "hex", None) == "Z99" for a in legal)
    for a in legal[:5]:
        trial = State18xx.from_json(template.to_json())
        game.apply(trial, a)  # legal means it applies


def test_an_action_after_the_end_is_refused_and_changes_nothing(export: dict[str, Any]) -> None:
    res = replay(export)
    assert res.error is None and res.state.finished
    before = dump(res.state)
    assert res.game.legal_actions(res.state) == []
    with pytest.raises(IllegalAction) as info:
        res.game.apply(res.state, action_from_json({"type": "pass", "entity": 7978, "id": 994}))
    assert (info.value.index, info.value.rule) == (994, "game end")
    assert str(info.value) == "action 994 pass: the game is over [game end]"
    assert dump(res.state) == before


QUICK_START = ("fixtures", "18xx.games", "1858", "1858-quick-start-a.json")


def test_quick_start_game_refuses_the_same_way() -> None:
    """A second game, set up by the quick-start option (privates dealt, companies started):
    its first lay, station, train purchase and run, each with a broken field."""
    data = load_export(shared_path(*QUICK_START))
    cases = {
        1: ({"hex": "Z99"}, IllegalAction, "map"),
        103: ({"entity": "nobody"}, UnknownEntity, "entity"),
        153: ({"train": "9Z-0"}, IllegalAction, "9.8 trains"),
        176: (_more_revenue, IllegalAction, "9.5 route value"),
    }
    res = replay(data, until=0, check=True)
    game, state = res.game, res.state
    for raw in filter_actions(data["actions"]):
        if raw.get("id") in cases:
            change, cls, rule = cases.pop(raw["id"])
            check_refused(game, state, raw, change(raw) if callable(change) else change, cls, rule)
        if not cases:
            break
        game.apply(state, action_from_json(raw))
    assert not cases
