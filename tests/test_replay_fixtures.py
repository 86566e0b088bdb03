"""Real 18xx.games exports replay to exactly their recorded final scores.

Every ``run_routes`` is re-valued by Ferrovia's route engine during the replay and must equal
the recorded revenue (the route step raises otherwise), so a finished replay also proves that.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SHARED, shared_path
from ferrovia.play.replay import load_export, replay

FIXTURES = sorted(
    [
        p.relative_to(SHARED / "fixtures").as_posix()
        for p in (SHARED / "fixtures").glob("18xx.games/1858/*.json")
    ]
    + [
        p.relative_to(SHARED / "fixtures").as_posix()
        for p in (SHARED / "fixtures").glob("reference-random/*.json")
    ]
    + [
        p.relative_to(SHARED / "fixtures").as_posix()
        for p in (SHARED / "fixtures").glob("18xx.games/1858India/*.json")
    ]
) or ["18xx.games/1858/219682.json"]


@pytest.mark.parametrize("name", FIXTURES)
def test_fixture_replays_to_its_exact_final_scores(name: str) -> None:
    path = shared_path("fixtures", *name.split("/"))
    data = load_export(path)
    res = replay(data)
    assert res.error is None, str(res.error)
    assert res.state.finished
    assert res.state.game_end_reason == data["game_end_reason"]
    expected = {str(k): int(v) for k, v in data["result"].items()}
    assert res.game.result(res.state) == expected
    assert res.state.total_cash() == res.game.bank_cash  # no money made or lost


def test_until_reports_current_standings_of_an_unfinished_game() -> None:
    path = shared_path("fixtures", "18xx.games", "1858", "219682.json")
    res = replay(load_export(path), until=61)
    assert res.error is None
    assert not res.state.finished
    # first stock round: each player's cash plus privates at face value
    result = res.game.result(res.state)
    assert set(result) == {"6246", "7978", "17876", "18369"}
    assert all(v > 0 for v in result.values())


def test_replay_command_json_contract(tmp_path: Path) -> None:
    path = shared_path("fixtures", "reference-random", "random-s105-p3-quick_start_b.json")
    out = subprocess.run(
        [sys.executable, "-m", "ferrovia", "replay", "--json", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    doc = json.loads(out.stdout)
    assert set(doc) == {"finished", "result", "actions", "game_end_reason", "seconds"}
    assert set(doc["seconds"]) == {"load", "replay"}
    assert doc["finished"] is True and doc["game_end_reason"] == "bank"
    assert doc["result"] == {"3": 10482, "1": 7060, "2": 3835}


def test_replay_command_names_the_failing_action(tmp_path: Path) -> None:
    path = shared_path("fixtures", "reference-random", "random-s101-p3.json")
    data = json.loads(path.read_text())
    bad = next(a for a in data["actions"] if a["type"] == "bid")
    bad["price"] = 7  # below the minimum bid
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    out = subprocess.run(
        [sys.executable, "-m", "ferrovia", "replay", str(broken)], capture_output=True, text=True
    )
    assert out.returncode == 1
    assert f"action {bad['id']} (bid" in out.stderr
    assert "minimum bid" in out.stderr
