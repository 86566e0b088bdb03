"""``ferrovia play``: a seeded random game reaches its end with legal actions only, is
deterministic, and its log replays to the same result."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ferrovia.play.replay import replay
from ferrovia.play.selfplay import play


def test_random_game_plays_to_the_end_and_its_log_replays_identically(tmp_path: Path) -> None:
    res = play(4, 3)
    assert res.state.finished and res.state.game_end_reason in ("bank", "dnf")
    assert res.state.total_cash() == res.game.bank_cash
    again = replay(json.loads(json.dumps(res.log)))
    assert again.error is None, str(again.error)
    assert again.state.finished
    assert again.game.result(again.state) == res.game.result(res.state)
    assert again.state.dumps() == res.state.dumps()  # the very same game, state for state


def test_play_command_is_deterministic_and_writes_a_replayable_log(tmp_path: Path) -> None:
    logs = []
    for name in ("a.json", "b.json"):
        log = tmp_path / name
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "ferrovia",
                "play",
                "--players",
                "3",
                "--seed",
                "2",
                "--max-actions",
                "150",
                "--json",
                "--log",
                str(log),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        doc = json.loads(out.stdout)
        assert doc["actions"] == 150 and doc["finished"] is False
        logs.append(log.read_text())
    assert logs[0] == logs[1]
    out = subprocess.run(
        [sys.executable, "-m", "ferrovia", "replay", "--json", str(tmp_path / "a.json")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout)["result"] == doc["result"]
