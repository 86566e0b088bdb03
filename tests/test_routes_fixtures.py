"""Every ``run_routes`` of the 18xx.games 1858 exports: our revenue is the recorded one.

Uses :mod:`ferrovia.routes.exportstate` (map, tokens, trains and phase read from the export); once
the
rules engine's replay is complete it is the better source of the state, and this check should
move onto it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SHARED
from ferrovia.routes.exportstate import ExportReader, RouteData
from ferrovia.routes.value import RouteSpec, run_revenue

GAMES = [
    "18xx.games/1858/1858-quick-start-a",
    "18xx.games/1858/1858-quick-start-b",
    "18xx.games/1858/1858_game_end_bank",
    "18xx.games/1858/219682",
    *(f"reference-random/random-s{n}" for n in ("101-p3", "102-p4", "103-p5", "104-p6")),
    "reference-random/random-s105-p3-quick_start_b",
    "reference-random/random-s106-p4-quick_start_a",
    "reference-random/random-s107-p5",
    "reference-random/random-s108-p6",
]


@pytest.fixture(scope="module")
def data() -> RouteData:
    return RouteData.load()


def _export(name: str) -> Path:
    path = SHARED / "fixtures" / f"{name}.json"
    if not path.exists():
        pytest.skip(f"needs ../shared/fixtures/{name}.json")
    return path


@pytest.mark.parametrize("game", GAMES)
def test_every_recorded_route_revenue_is_reproduced(game: str, data: RouteData) -> None:
    reader = ExportReader.open(_export(game), data)
    checked = 0
    mismatches = []
    for snap in reader.snapshots():
        action = snap.action
        specs = [RouteSpec.from_action(r) for r in action["routes"]]
        result = run_revenue(
            snap.graph,
            specs,
            snap.trains,
            phase=snap.phase_colours,
            company=action["entity"],
            tokens=snap.tokens,
        )
        got = [r.revenue for r in result.routes]
        want = [s.revenue for s in specs]
        checked += 1
        if got != want:
            mismatches.append((action["id"], got, want))
    assert checked > 60
    assert mismatches == []


def test_routes_command_prints_the_best_run(capsys: pytest.CaptureFixture[str]) -> None:
    from ferrovia.cli import main

    game = _export("18xx.games/1858/219682")
    assert main(["routes", "--game", str(game), "--before", "160", "--company", "A"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("A: best run 130 (2 trains")
    assert sorted(line.split()[1:] for line in out[1:]) == [
        ["60", "D19-E20-E18"],
        ["70", "G18-G20-H19"],
    ]
    assert main(["routes", "--game", str(game), "--at", "159", "--company", "NOPE"]) == 1
