"""``ferrovia replay --check-routes`` on the four real 1858 games (18xx.games exports).

At every ``run_routes`` the exact optimum (computed on the replay's own state just before it)
is never below the recorded, legal run, and the runs that left money on the table are exactly
these (every turn exact, no limit; the whole file takes ~10 s, the slowest turn,
1858_game_end_bank #979, under 0.2 s).
"""

from __future__ import annotations

import json

import pytest
from ferrovia.play.replay import load_export, replay

from tests.conftest import shared_path

# (action id, company, recorded, optimum) of every run below the optimum
ABOVE = {
    "1858-quick-start-a.json": {
        (264, "A", 50, 80),
        (854, "ZPB", 340, 360),
        (942, "ZPB", 690, 750),
        (946, "A", 320, 350),
        (1000, "RP", 590, 680),
        (1004, "N", 440, 450),
        (1009, "ZPB", 710, 770),
        (1017, "A", 510, 530),
        (1020, "W", 730, 750),
        (1042, "N", 440, 450),
        (1052, "ZPB", 740, 760),
        (1061, "A", 510, 530),
        (1067, "W", 700, 740),
        (1070, "MZA", 250, 370),
        (1095, "N", 440, 450),
        (1099, "ZPB", 740, 760),
        (1109, "A", 570, 580),
        (1112, "W", 700, 740),
        (1115, "MZA", 250, 370),
    },
    "1858-quick-start-b.json": {
        (422, "N", 120, 130),
        (529, "N", 410, 420),
        (664, "MZA", 425, 490),
        (717, "MZA", 340, 420),
        (733, "N", 890, 910),
        (777, "MZA", 390, 420),
        (789, "RP", 710, 760),
        (792, "N", 910, 950),
        (802, "AVT", 330, 340),
        (816, "TBF", 760, 900),
    },
    "219682.json": {
        (648, "W", 270, 280),
        (729, "AVT", 440, 450),
        (771, "A", 380, 390),
        (780, "AVT", 415, 435),
        (830, "TBF", 350, 370),
        (841, "N", 770, 780),
        (865, "TBF", 350, 410),
        (878, "N", 790, 800),
        (934, "TBF", 350, 410),
        (948, "N", 790, 800),
        (966, "A", 740, 750),
        (973, "AVT", 540, 750),
        (978, "N", 800, 810),
        (982, "TBF", 350, 410),
    },
    "1858_game_end_bank.json": {
        (813, "A", 330, 450),
        (819, "ZPB", 610, 650),
        (841, "W", 470, 580),
        (854, "N", 230, 240),
        (868, "ZPB", 650, 700),
        (878, "RP", 570, 720),
        (891, "W", 570, 580),
        (940, "ZPB", 690, 700),
        (949, "RP", 670, 720),
        (959, "W", 620, 630),
        (963, "TBF", 790, 860),
        (974, "N", 270, 280),
        (979, "A", 590, 710),
        (996, "RP", 760, 810),
        (1004, "TBF", 790, 860),
    },
}
CHECKED = {
    "1858-quick-start-a.json": 74,
    "1858-quick-start-b.json": 67,
    "219682.json": 82,
    "1858_game_end_bank.json": 76,
}


@pytest.mark.parametrize("name", sorted(ABOVE))
def test_optimum_never_below_a_recorded_run(name: str) -> None:
    path = shared_path("fixtures", "18xx.games", "1858", name)
    res = replay(load_export(path), check_routes=True)
    assert res.error is None
    rc = res.route_check
    assert rc is not None
    assert rc.checked == CHECKED[name]
    assert rc.below == []
    assert rc.inexact == []  # no limit: every optimum is proven
    assert {(c.action, c.company, c.recorded, c.optimum) for c in rc.above} == ABOVE[name]


def test_check_routes_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    from ferrovia.cli import main

    path = shared_path("fixtures", "18xx.games", "1858", "1858-quick-start-b.json")
    assert main(["replay", "--json", "--check-routes", str(path)]) == 0
    rc = json.loads(capsys.readouterr().out)["route_check"]
    assert rc["checked"] == 67
    assert rc["optimum_above_recorded"] == 10
    assert rc["optimum_below_recorded"] == 0
    assert rc["cases"][0] == {"action": 422, "company": "N", "recorded": 120, "optimum": 130}
    assert "inexact" not in rc
