"""tools/bench/bench_tail.py watches what play really calls: its counts of route searches and
of searches stopped at the work budget are the issue-#12 figures, so a spy on a function play
no longer calls would print zeros that look like good news."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools" / "bench"))

import bench_tail


def test_the_tail_bench_counts_the_searches_play_stops_at_the_budget(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from ferrovia.routes import search as routesearch

    # a budget so small that most searches of two trains or more stop
    monkeypatch.setattr(routesearch, "PLAY_BUDGET", 300)
    fig = bench_tail.play_one("1858", 2, 1, dump_stopped=tmp_path)
    assert fig.finished
    assert fig.routes > 50  # every run_routes listing asks routing.best_run
    assert fig.stopped > 0
    dumped = list(tmp_path.glob("*.pickle"))
    # each stopped search is pickled to be rerun exact (one file per action: a listing and the
    # bot may stop at the same one)
    assert 0 < len(dumped) <= fig.stopped
