"""Undo/redo are resolved before replaying, exactly as 18xx.games filters them."""

from __future__ import annotations

from typing import Any

from ferrovia.play.replay import filter_actions


def a(i: int, kind: str = "pass", **kw: Any) -> dict[str, Any]:
    return {"id": i, "type": kind, **kw}


def ids(actions: list[dict[str, Any]]) -> list[int]:
    return [x["id"] for x in filter_actions(actions)]


def test_undo_without_target_removes_the_last_kept_action() -> None:
    assert ids([a(1), a(2), a(3, "undo"), a(4)]) == [1, 4]


def test_two_undos_remove_two_actions() -> None:
    assert ids([a(1), a(2), a(3, "undo"), a(4, "undo"), a(5)]) == [5]


def test_undo_to_an_action_keeps_it_and_removes_what_followed() -> None:
    assert ids([a(1), a(2), a(3), a(4, "undo", action_id=1), a(5)]) == [1, 5]


def test_undo_to_an_id_used_twice_goes_back_to_its_first_action() -> None:
    # (filter_actions looks targets up in an id -> first index table, made once)
    assert ids([a(1), a(2), a(1), a(3), a(4, "undo", action_id=1), a(5)]) == [1, 5]
    assert ids([a(1), a(2), a(3, "undo", action_id=2), a(4, "undo", action_id=1)]) == [1]


def test_undo_to_an_id_no_table_can_hold_still_finds_it() -> None:
    odd = {"id": [7], "type": "pass"}
    assert ids([odd, a(2), a(3, "undo", action_id=[7]), a(4)]) == [[7], 4]  # type: ignore[list-item]


def test_undo_to_zero_goes_back_to_the_start() -> None:
    assert ids([a(1), a(2), a(3, "undo", action_id=0), a(4)]) == [4]


def test_redo_restores_the_latest_undo() -> None:
    assert ids([a(1), a(2), a(3, "undo"), a(4, "redo"), a(5)]) == [1, 2, 5]


def test_a_new_action_clears_the_redo_stack() -> None:
    assert ids([a(1), a(2), a(3, "undo"), a(4), a(5, "redo")]) == [1, 4]


def test_messages_are_never_undone_nor_count_as_the_last_action() -> None:
    assert ids([a(1), a(2, "message"), a(3, "undo"), a(4)]) == [2, 4]


def test_program_actions_count_as_actions_for_undo() -> None:
    assert ids([a(1), a(2, "program_share_pass"), a(3, "undo")]) == [1]


def test_a_replay_leaves_the_callers_frozen_objects_frozen() -> None:
    """The replay's eased collector unfreezes only what it froze: with nothing frozen before,
    nothing is frozen after; a caller's frozen objects (``play`` freezes its game) stay so."""
    import gc

    from ferrovia.play.replay import _collector_eased

    gc.unfreeze()
    with _collector_eased():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
    held = [object() for _ in range(100)]
    gc.freeze()
    try:
        before, threshold = gc.get_freeze_count(), gc.get_threshold()
        with _collector_eased():
            pass
        assert gc.get_freeze_count() >= before
        assert gc.get_threshold() == threshold
    finally:
        gc.unfreeze()
    del held
