"""``ferrovia simulate``: seeded bot games in parallel, their statistics, the HTML report (in
headless Chromium), a variant compared on the same seeds, and the Dask cluster path.

Games are cut short (``--max-actions``) to keep the suite cheap; full-length figures are
measured by tools/bench/bench_bots.py.
"""

from __future__ import annotations

import doctest
import json
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ferrovia.cli import main
from ferrovia.play import simulate as sim

MIXED = "greedy,greedy,random,greedy"
SHORT = ["--players", "4", "--bots", MIXED, "--max-actions", "260", "--no-progress"]


def _numbers(doc: dict[str, Any]) -> dict[str, Any]:
    """A summary without what depends on the machine (wall-clock times, file paths)."""
    doc = json.loads(json.dumps(doc))
    doc["length"].pop("seconds", None)
    for r in doc["records"]:
        r.pop("seconds", None)
        r.pop("cpu_seconds", None)
        r.pop("log_file", None)
    return doc


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sim")
    argv = ["simulate", "1858", "--games", "3", "--seed", "5", "--workers", "2", *SHORT]
    argv += ["--json", str(out / "a.json"), "--report", str(out / "report")]
    argv += ["--logs", str(out / "logs")]
    assert main(argv) == 0
    return out


def test_doctests() -> None:
    failures, _ = doctest.testmod(sim)
    assert failures == 0


def test_json_has_every_statistic(simulated: Path) -> None:
    doc = json.loads((simulated / "a.json").read_text())
    assert doc["games"] == 3 and doc["players"] == 4 and doc["seed"] == 5
    assert doc["bots"] == MIXED.split(",")
    assert doc["end_reasons"] == {"action cap": 3} and doc["errors"] == []
    assert doc["bank_broken"]["count"] == 0 and doc["bank_broken"]["of"] == 3
    assert doc["length"]["actions"]["mean"] == 260
    assert set(doc["length"]["ors"]) == {"n", "mean", "median", "min", "max", "stdev"}
    assert set(doc["winners"]) == {"by_seat", "by_bot", "head_to_head", "by_start_private", "ties"}
    assert list(doc["winners"]["by_seat"]) == ["1", "2", "3", "4"]
    assert sum(v["count"] for v in doc["winners"]["by_seat"].values()) == 3
    assert set(doc["winners"]["head_to_head"]) == {"greedy>random", "random>greedy"}
    assert doc["winners"]["by_start_private"]  # SR1 auctions every private of batch 1
    assert set(doc["scores"]) == {"winner", "spread", "by_seat"}
    assert set(doc["companies"]) == {
        "floats",
        "closures",
        "floats_per_game",
        "closures_per_game",
        "bankruptcies",
    }
    assert doc["companies"]["floats_per_game"] > 0
    assert "2H" in doc["phase_timing"] and doc["phase_timing"]["2H"]["games"] == 3
    assert doc["revenue"]["by_company"] and doc["revenue"]["by_home_hex"]
    bank = doc["bank_over_time"]
    assert len(bank["mean"]) == len(bank["p10"]) == len(bank["p90"]) >= 2
    assert [r["seed"] for r in doc["records"]] == [5, 6, 7]
    r = doc["records"][0]
    assert r["ors"] >= 1 and r["bank_by_or"][0] > r["bank_by_or"][-1] - 10**6
    assert sorted(r["scores"]) == ["1", "2", "3", "4"] and r["winner"] in r["scores"]
    # the report directory has the same numbers next to the page
    assert _numbers(json.loads((simulated / "report" / "simulation.json").read_text())) == (
        _numbers(doc)
    )


def test_every_game_log_is_kept_and_opens_in_the_viewer(simulated: Path) -> None:
    doc = json.loads((simulated / "a.json").read_text())
    logs = sorted((simulated / "logs").glob("*.json"))
    assert [p.name for p in logs] == ["game-5.json", "game-6.json", "game-7.json"]
    assert doc["records"][1]["log_file"] == str(simulated / "logs" / "game-6.json")
    page = simulated / "game-6.html"
    assert main(["view", str(logs[1]), "-o", str(page)]) == 0
    assert page.stat().st_size > 10_000


def test_same_seeds_give_the_same_numbers(simulated: Path, tmp_path: Path) -> None:
    argv = ["simulate", "1858", "--games", "3", "--seed", "5", "--workers", "1", *SHORT]
    assert main([*argv, "--json", str(tmp_path / "b.json")]) == 0
    a = json.loads((simulated / "a.json").read_text())
    b = json.loads((tmp_path / "b.json").read_text())
    assert _numbers(a) == _numbers(b)


def test_a_variant_is_compared_on_the_same_seeds(tmp_path: Path) -> None:
    variant = tmp_path / "cheap"
    variant.mkdir()
    (variant / "game.yaml").write_text(
        "extends: '1858'\nname: 1858_cheap\ntitle: '1858: cheap trains'\n"
    )
    argv = ["simulate", "1858", str(variant), "--games", "2", "--workers", "1", *SHORT]
    argv += ["--json", str(tmp_path / "c.json"), "--report", str(tmp_path / "report")]
    assert main(argv) == 0
    doc = json.loads((tmp_path / "c.json").read_text())
    page = (tmp_path / "report" / "index.html").read_text()
    assert "<h2>Differences (variant - base, same seeds)</h2>" in page
    assert page.count('<img class="plot"') == 8 and "1858: cheap trains" in page
    assert set(doc) == {"base", "variant", "differences"}
    rows = {d["measure"]: d for d in doc["differences"]}
    # the variant changes nothing: every difference is zero and said to be within the noise
    assert rows["bank broken"]["difference"] == 0.0
    assert rows["seat 1 wins"]["verdict"] == "within the noise"
    assert rows["actions per game"]["paired_games"] == 2
    assert all(d["verdict"] == "within the noise" for d in doc["differences"])
    assert _numbers(doc["base"])["records"] == _numbers(doc["variant"])["records"]


def test_a_clear_difference_is_not_noise() -> None:
    base = {"count": 5, "of": 40, "rate": 0.125}
    variant = {"count": 38, "of": 40, "rate": 0.95}
    d, lo, _ = sim.rate_difference(5, 40, 38, 40)
    assert lo > 0 and round(d, 3) == 0.825
    assert sim.rate_difference(20, 40, 21, 40)[1] < 0 < sim.rate_difference(20, 40, 21, 40)[2]
    assert base["rate"] < variant["rate"]


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "1858", "--games", "0"]) == 2
    assert capsys.readouterr().err == "ferrovia simulate: --games must be at least 1\n"
    assert main(["simulate", "1858", "--players", "9"]) == 2
    assert "is for 2 to 6 players" in capsys.readouterr().err
    assert main(["simulate", "1858", "--bots", "greedy,nope,random,greedy"]) == 2
    assert "unknown bot 'nope'" in capsys.readouterr().err


def test_games_run_on_a_dask_cluster_with_the_same_numbers() -> None:
    distributed = pytest.importorskip("distributed")
    specs = sim.specs_for("1858", 2, 4, MIXED.split(","), seed=3, max_actions=120)
    local = sim.run_games(specs, workers=1, progress=False)
    with distributed.LocalCluster(
        processes=False, n_workers=1, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        remote = sim.run_games(specs, cluster=cluster.scheduler_address, progress=False)
        # and through the command line
        assert (
            main(
                ["simulate", "1858", "--games", "1", "--cluster", cluster.scheduler_address, *SHORT]
            )
            == 0
        )
    timing = {"seconds", "cpu_seconds"}
    strip = [{k: v for k, v in r.items() if k not in timing} for r in local]
    assert [{k: v for k, v in r.items() if k not in timing} for r in remote] == strip


# -- the report page in a real browser -----------------------------------------------------------


@pytest.fixture(scope="module")
def report_browser(simulated: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from test_view_browser import CHROMIUM_FLAGS, DevTools, _chromium

    exe = _chromium()
    profile = tmp_path_factory.mktemp("chromium-report")
    page = simulated / "report" / "index.html"
    proc = subprocess.Popen(
        [
            exe,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            "--remote-debugging-port=0",
            page.as_uri(),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.time() + 30
        while not (port_file.exists() and port_file.read_text().strip()):
            if time.time() > deadline or proc.poll() is not None:
                pytest.fail("Chromium did not open its DevTools port")
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        target = None
        while target is None:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
                pages = [t for t in json.load(r) if t.get("type") == "page"]
            target = next((t for t in pages if t.get("url", "").startswith("file:")), None)
            if target is None:
                if time.time() > deadline:
                    pytest.fail("Chromium did not open the report")
                time.sleep(0.1)
        tools = DevTools(target["webSocketDebuggerUrl"])
        while not tools.js("document.readyState === 'complete' && document.images.length > 0"):
            if time.time() > deadline:
                pytest.fail("the report did not finish loading")
            time.sleep(0.1)
        yield tools
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_report_loads_in_chromium_with_its_plots(report_browser: Any) -> None:
    b = report_browser
    assert b.js("document.title") == "Ferrovia simulation: 1858: The Railways of Iberia"
    plots = b.js(
        "Array.from(document.querySelectorAll('img.plot')).map(function (i) {"
        " return [i.alt, i.complete, i.naturalWidth, i.naturalHeight]; })"
    )
    assert [p[0] for p in plots] == [
        "Game length",
        "Wins by seat",
        "Money in the bank over time",
        "Phase timing: when each train type is first bought",
        "Revenue by company",
        "Revenue by home hex",
        "Wins by starting private",
        "Final score spread",
    ]
    assert all(p[1] and p[2] > 300 and p[3] > 200 for p in plots), plots
    # no request leaves the page: every image is a data URI
    assert b.js(
        "Array.from(document.images).every(function (i) { return i.src.startsWith('data:'); })"
    )
    rows = b.js("document.querySelectorAll('table')[1].querySelectorAll('tbody tr').length")
    assert rows == 3  # one row per game, each with the command that opens its log
    assert "ferrovia view" in b.js("document.querySelectorAll('table')[1].textContent")


def test_a_bankruptcy_is_counted_whatever_the_game_calls_its_end() -> None:
    # 1830's random seed-1 game ends when a director declares bankruptcy; the count once
    # looked for an end reason "bankruptcy", which no game uses, and said 0
    from ferrovia.play.simulate import GameSpec, run_game

    record = run_game(GameSpec("1830", 4, 1, ("random",) * 4))
    assert (record["end_reason"], record["bankruptcies"], record["ors"]) == ("bankrupt", 1, 3)
