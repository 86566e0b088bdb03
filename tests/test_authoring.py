"""README.md's authoring guide, step by step.

A variant written in a temporary directory is validated, resolved, compared, drawn and played
by random players, with the same commands the guide shows.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ferrovia.paths import gamedata_root

GAME_YAML = """\
extends: '1858'
name: 1858_cheap
title: '1858: cheap Barcelona'
"""
MAP_YAML = """\
hexes:
  B3: {color: white, name: Ribadeo, code: 'town=revenue:10'}
"""
PRIVATES_YAML = """\
privates:
  - {symbol: B&M, face_value: 100, minimum_bid: 80}
"""


def ferrovia(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ferrovia", *map(str, args)], capture_output=True, text=True, cwd=cwd
    )


def test_a_variant_in_five_minutes(tmp_path: Path) -> None:
    game = tmp_path / "cheap"
    game.mkdir()
    (game / "game.yaml").write_text(GAME_YAML, encoding="utf-8")
    (game / "map.yaml").write_text(MAP_YAML, encoding="utf-8")
    (game / "privates.yaml").write_text(PRIVATES_YAML, encoding="utf-8")

    # 1. validate
    run = ferrovia("validate", "cheap", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith("cheap: ok — 127 hexes")

    # 2. a mistake is reported in the variant's own file, at the line and column
    (game / "privates.yaml").write_text(PRIVATES_YAML.replace("face_value: 100", "face_valu: 100"))
    bad = ferrovia("validate", "cheap", cwd=tmp_path)
    assert bad.returncode == 1
    assert (
        "cheap/privates.yaml:2:19: error: unknown key 'face_valu' (did you mean 'face_value'?)"
        in (bad.stdout)
    )
    (game / "privates.yaml").write_text(PRIVATES_YAML, encoding="utf-8")

    # 3. resolve and diff
    resolved = ferrovia("resolve", "cheap", cwd=tmp_path)
    assert resolved.returncode == 0, resolved.stderr
    assert "  B3: {color: white, name: Ribadeo, code: town=revenue:10}" in resolved.stdout
    diff = ferrovia("diff", gamedata_root() / "1858", "cheap", "--json", cwd=tmp_path)
    report = json.loads(diff.stdout)
    assert report["map.yaml"] == {
        "hexes": {"added": [], "removed": [], "changed": {"B3": ["code", "name"]}}
    }
    assert report["privates.yaml"]["privates"]["changed"] == {"B&M": ["face_value", "minimum_bid"]}

    # 4. render
    drawn = ferrovia("render", "cheap", "-o", "map.svg", cwd=tmp_path)
    assert drawn.returncode == 0, drawn.stderr
    svg = (tmp_path / "map.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg") or "<svg" in svg[:200]
    assert "Ribadeo" in svg

    # 5. play with random players (capped: a whole game takes minutes), log replays exactly
    played = ferrovia(
        "play", "--game", "cheap", "--players", "3", "--seed", "5", "--max-actions", "150",
        "--json", "--log", "game.json", cwd=tmp_path,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    summary = json.loads(played.stdout)
    assert summary["actions"] == 150
    log = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    # B&M's new minimum bid is what the variant says: any bid on it is at least 80.
    bids = [a["price"] for a in log["actions"] if a["type"] == "bid" and a.get("company") == "B&M"]
    assert all(p >= 80 for p in bids)
    replayed = ferrovia("replay", "game.json", "--json", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert json.loads(replayed.stdout)["result"] == summary["result"]


MARKET_YAML = """\
movement: {withheld: -2}
sell_after: any_time
"""


def test_a_rule_change_in_yaml_alone(tmp_path: Path) -> None:
    from ferrovia.data.definition import load_game
    from ferrovia.games import get_rules
    from ferrovia.lib18xx.game import Game18xx

    from tests.test_data_mutations import _zero_earnings

    game = tmp_path / "cheap"
    game.mkdir()
    (game / "game.yaml").write_text(GAME_YAML, encoding="utf-8")
    (game / "market.yaml").write_text(MARKET_YAML, encoding="utf-8")
    assert ferrovia("validate", "cheap", cwd=tmp_path).returncode == 0
    diff = ferrovia("diff", gamedata_root() / "1858", "cheap", cwd=tmp_path)
    assert "market.yaml\n  settings: 2 changes\n    ~ movement (withheld)\n    ~ sell_after" in (
        diff.stdout
    )
    played = {}
    for name, where in (("1858", gamedata_root() / "1858"), ("cheap", game)):
        defn = load_game(where)
        played[name] = _zero_earnings(Game18xx(defn, get_rules(defn.rules), 4))
    assert played == {"1858": 80, "cheap": 70}
