"""Fuzzing the action JSON reader and the interpreter with mutations of real actions.

Each example takes a recorded action of an 18xx.games export (../shared), changes a field or
two (another value of the same kind, a value of another type, a missing field, a neighbour
number, a typo), reads it with ``action_from_json`` and applies it at the point of the game
where it was recorded.  Allowed outcomes: it applies, or a FerroviaError.  A GameError must
name a rule -- and not ``'engine'``, the interpreter's catch-all for a Python error inside a
step, which is a traceback in disguise -- and leave the state exactly as it was.
The file reader gets the same treatment on a whole export's text.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ferrovia.errors import DataError, FerroviaError, GameError
from ferrovia.lib18xx.actions import action_from_json
from ferrovia.lib18xx.game import Game18xx
from ferrovia.lib18xx.state import State18xx
from ferrovia.play.gamefile import parse_game_text
from ferrovia.play.replay import filter_actions, load_export, replay
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import shared_path

FIXTURE = ("fixtures", "18xx.games", "1858", "219682.json")


@lru_cache(maxsize=1)
def points() -> tuple[Game18xx, tuple[tuple[bytes, dict[str, Any]], ...]]:
    """The game and, for each recorded action but passes and messages (the whole game:
    auctions, stock and operating rounds, phases 2-7, the private closure round, the bank
    breaking), (snapshot before it, the action)."""
    data = load_export(shared_path(*FIXTURE))
    res = replay(data, until=0, check=True)
    game, state = res.game, res.state
    out = []
    for raw in filter_actions(data["actions"]):
        if raw["type"] not in ("message", "pass") and not raw["type"].startswith("program_"):
            out.append((state.snapshot(), raw))
        game.apply(state, action_from_json(raw))
    return game, tuple(out)


@lru_cache(maxsize=1)
def by_kind() -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for i, (_, raw) in enumerate(points()[1]):
        out.setdefault(raw["type"], []).append(i)
    return out


JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.sampled_from(["", "Z99", "2H-0", "9Z-0", "MZA", "MZA_0", "H11-0-2", "57-0", "B&M", "7978"]),
)
JSON = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)
FIELDS = [
    "type", "entity", "entity_type", "price", "company", "hex", "tile", "rotation", "city",
    "slot", "cost", "train", "variant", "shares", "percent", "share_price", "corporation",
    "kind", "routes", "choice", "auto_actions", "action_id",
]  # fmt: skip


def nudge(draw: st.DrawFn, value: Any) -> Any:
    """A value close to ``value``: a neighbour number, a typo, a list one longer or shorter."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        step = draw(st.sampled_from([-100, -10, -1, 1, 5, 10, 1000, 0]))
        return value + step if step else -value - 1  # 0: the sign flipped
    if isinstance(value, str) and value:
        i = draw(st.integers(0, len(value) - 1))
        return value[:i] + draw(st.sampled_from(list("0179XZ_-"))) + value[i + 1 :]
    if isinstance(value, list) and value:
        return value[1:] if draw(st.booleans()) else [*value, value[0]]
    return draw(JSON)


@st.composite
def mutated(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    # every kind of action equally often (a buy_train is as likely as a lay_tile), mostly
    # changing the fields it has
    kind = draw(st.sampled_from(sorted(by_kind())))
    index = draw(st.sampled_from(by_kind()[kind]))
    action = json.loads(json.dumps(points()[1][index][1]))
    own = sorted(k for k in action if k not in ("id", "created_at", "user"))
    for _ in range(draw(st.integers(1, 2))):
        key = draw(st.sampled_from(own if draw(st.integers(0, 4)) else FIELDS))
        how = draw(st.sampled_from(["nudge", "nudge", "other", "drop"]))
        if how == "drop":
            action.pop(key, None)
        elif how == "nudge" and key in action:
            action[key] = nudge(draw, action[key])
        else:
            action[key] = draw(JSON)
        if key == "routes" and isinstance(action.get("routes"), list) and draw(st.booleans()):
            for route in action["routes"]:  # inside a route too
                if isinstance(route, dict) and route:
                    k = draw(st.sampled_from(sorted(route)))
                    route[k] = nudge(draw, route[k])
    return index, action


@settings(
    max_examples=500,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated())
def test_mutated_actions_apply_or_raise_a_named_error_and_change_nothing(
    case: tuple[int, dict[str, Any]],
) -> None:
    game, pts = points()
    index, wire = case
    state = State18xx()
    state.restore(pts[index][0])
    before = json.dumps(state.to_json(), sort_keys=True)
    try:
        action = action_from_json(wire)
    except FerroviaError as err:
        assert str(err)
        return
    try:
        game.apply(state, action)
    except GameError as err:
        assert err.rule and err.rule != "engine", f"{err} <- {err.__cause__!r} for {wire}"
        assert err.index == action.id
        assert json.dumps(state.to_json(), sort_keys=True) == before


@lru_cache(maxsize=1)
def export_text() -> str:
    data = load_export(shared_path(*FIXTURE))
    return json.dumps({**data, "actions": data["actions"][:40]}, indent=1)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_mutated_game_files_read_or_raise_positioned_data_errors(data: st.DataObject) -> None:
    text = export_text()
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(text)))
        op = data.draw(st.sampled_from(["insert", "delete", "cut"]))
        if op == "insert":
            text = text[:i] + data.draw(st.sampled_from([*'{}[],:"0 \nxé', "null"])) + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i]
    try:
        parsed = parse_game_text(text, "g.json")
    except DataError as err:
        lines = text.split("\n")
        assert err.file == "g.json" and 1 <= err.line <= len(lines)
        assert 1 <= err.col <= len(lines[err.line - 1]) + 1, str(err)
    else:
        assert isinstance(parsed["actions"], list)
