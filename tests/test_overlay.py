"""Variants as overlays (engine/data/overlay.py): merge rules, positions, resolve and diff."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from ferrovia.data.validate import validate_game
from ferrovia.paths import gamedata_root

BASE = gamedata_root() / "1858"


def _variant(tmp_path: Path, files: dict[str, str]) -> Path:
    game = tmp_path / "mini"
    game.mkdir()
    files = {"game.yaml": "extends: '1858'\nname: mini\ntitle: Mini 1858\n", **files}
    for name, text in files.items():
        (game / name).write_text(text, encoding="utf-8")
    return game


def _cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ferrovia", *map(str, args)], capture_output=True, text=True
    )


def test_a_variant_with_only_game_yaml_is_the_base_game(tmp_path: Path) -> None:
    base, variant = validate_game(BASE), validate_game(_variant(tmp_path, {}))
    assert variant.errors == [] and base.definition and variant.definition
    assert variant.definition.game.name == "mini"
    assert variant.definition.hexes == base.definition.hexes
    assert variant.definition.privates == base.definition.privates


def test_merge_changes_removes_and_adds_by_key(tmp_path: Path) -> None:
    game = _variant(
        tmp_path,
        {
            "privates.yaml": "privates:\n  - {symbol: B&M, face_value: 120}\n",
            "map.yaml": "hexes:\n  B3: ~\n",
            "trains.yaml": "trains:\n  - {name: 2H, price: 90}\n",
        },
    )
    res = validate_game(game)
    assert res.errors == []
    d = res.definition
    assert d is not None
    bm = next(p for p in d.privates if p.symbol == "B&M")
    assert bm.face_value == 120 and bm.minimum_bid == 90  # changed field, others inherited
    assert "B3" not in d.hexes and "A14" in d.hexes
    assert [t.price for t in d.trains if t.name == "2H"] == [90]
    assert len(d.privates) == 22


def test_remove_list_and_errors_point_at_the_variant(tmp_path: Path) -> None:
    game = _variant(
        tmp_path,
        {
            "map.yaml": "remove: {hexes: [C2, ZZ1]}\n",
            "privates.yaml": "privates:\n  - {symbol: B&M, home_hexes: [O8, Q9]}\n",
        },
    )
    errors = [str(e) for e in validate_game(game, "mini").errors]
    # A value the variant wrote: its own file and column.
    assert "mini/privates.yaml:2:36: error: no hex 'Q9' on the map" in errors
    # Removing a key that is not there is an error at it.
    assert any(e.startswith("mini/map.yaml:1:22:") and "ZZ1" in e for e in errors)
    # An inherited value broken by the variant (S&C's home C2 was removed): reported in the
    # variant's file, saying where the value came from.
    inherited = [e for e in errors if "'C2'" in e and "privates.yaml" in e]
    assert inherited and all(e.startswith("mini/privates.yaml:1:1:") for e in inherited)
    assert all("(inherited from gamedata/1858/privates.yaml:" in e for e in inherited)
    # The market's province list is inherited and the variant has no market.yaml: the error
    # goes to its extends: line.
    assert any(
        e.startswith("mini/game.yaml:1:10:") and "inherited from gamedata/1858/market.yaml" in e
        for e in errors
    )


def test_resolve_writes_a_standalone_game_equal_to_the_variant(tmp_path: Path) -> None:
    game = _variant(tmp_path, {"privates.yaml": "privates:\n  - {symbol: B&M, face_value: 120}\n"})
    out = tmp_path / "flat"
    run = _cli("resolve", game, "-o", out)
    assert run.returncode == 0, run.stderr
    flat = validate_game(out)
    merged = validate_game(game)
    assert flat.errors == [] and flat.definition is not None and merged.definition is not None
    assert flat.definition.privates == merged.definition.privates
    assert flat.definition.hexes.keys() == merged.definition.hexes.keys()
    text = _cli("resolve", game).stdout
    assert "--- # privates.yaml" in text and "face_value: 120" in text


def test_diff_lists_added_removed_changed(tmp_path: Path) -> None:
    game = _variant(
        tmp_path,
        {
            "privates.yaml": "privates:\n  - {symbol: B&M, face_value: 120}\n",
            "map.yaml": "hexes:\n  B3: ~\n  A12: {color: white}\n",
            "trains.yaml": "remove: {trains: [5D]}\n",
        },
    )
    run = _cli("diff", BASE, game, "--json")
    # removing 5D leaves phases naming it: listed all the same, and said (exit 1, #13)
    assert run.returncode == 1 and "error: no train '5D'" in run.stderr
    report = json.loads(run.stdout)
    assert report["privates.yaml"]["privates"]["changed"] == {"B&M": ["face_value"]}
    assert report["map.yaml"]["hexes"]["removed"] == ["B3"]
    assert report["map.yaml"]["hexes"]["changed"] == {}  # A12 is white already: no change
    assert report["trains.yaml"]["trains"]["removed"] == ["5D"]
    assert report["game.yaml"]["settings"]["changed"] == {"name": [], "title": []}


def test_extends_a_missing_game_is_an_error_at_extends(tmp_path: Path) -> None:
    game = tmp_path / "bad"
    game.mkdir()
    (game / "game.yaml").write_text("name: bad\ntitle: Bad\nextends: nowhere\n")
    errors = [str(e) for e in validate_game(game, "bad").errors]
    assert errors and errors[0].startswith("bad/game.yaml:3:10: error: extends: no game 'nowhere'")


@pytest.mark.parametrize("game", ["1858", "1858_switzerland"])
def test_bundled_games_resolve_to_a_standalone_game_with_the_same_definition(
    game: str, tmp_path: Path
) -> None:
    run = _cli("resolve", gamedata_root() / game, "-o", tmp_path / game)
    assert run.returncode == 0, run.stderr
    flat, merged = validate_game(tmp_path / game), validate_game(gamedata_root() / game)
    assert flat.errors == [] and flat.definition and merged.definition
    parts = ("hexes", "tiles", "upgrade_rules", "tile_lays", "privates", "companies")
    for part in (*parts, "trains_file", "phases", "market", "options", "two_player_unavailable"):
        assert getattr(flat.definition, part) == getattr(merged.definition, part), part


def test_resolve_origins_names_the_file_of_each_entry(tmp_path: Path) -> None:
    game = _variant(tmp_path, {"privates.yaml": "privates:\n  - {symbol: B&M, face_value: 120}\n"})
    run = _cli("resolve", game, "--origins")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert f"privates.yaml privates.B&M  {game}/privates.yaml:2:5" in lines
    assert any(
        line.startswith("privates.yaml privates.M&A  ") and "gamedata/1858/privates.yaml:" in line
        for line in lines
    )


def test_quick_start_packets_are_read_from_the_variant_data(tmp_path: Path) -> None:
    """Changing a quick start is YAML only: the dealt packets and their prices follow it."""
    from ferrovia.play.selfplay import new_game

    options = """\
options:
  - id: quick_start_a
    packets:
      '3':
        - {privates: ['M&A', 'V&J'], cost: 100}
        - {privates: ['B&M', 'R&T'], cost: 110}
        - {privates: ['C&S', 'C&M'], cost: 120}
"""
    game_dir = _variant(tmp_path, {"options.yaml": options})
    _, state = new_game(3, 7, ("quick_start_a",), str(game_dir))
    held = {
        p.id: sorted(s for s, m in state.privates.items() if m.owner == p.id) for p in state.players
    }
    assert sorted(map(tuple, held.values())) == [("B&M", "R&T"), ("C&M", "C&S"), ("M&A", "V&J")]
    cost = {("M&A", "V&J"): 100, ("B&M", "R&T"): 110, ("C&M", "C&S"): 120}
    for p in state.players:  # each pays the variant's price for the packet dealt
        privs = tuple(held[p.id])
        bought = next(line for line in state.log if line.startswith(f"{p.name} buys"))
        assert bought.endswith(f"for {cost[privs]}") and all(s in bought for s in privs)
    assert state.round.kind == "operating"


def test_set_changes_one_entry_of_a_list_without_keys(tmp_path: Path) -> None:
    """``set:`` addresses one value inside keyless lists (market spaces, tile lays) and keyed
    ones; the rest of the list is the base's, and the new value is reported where it is set."""
    market = "set:\n  stock_market.spaces.3: 66\n  movement.withheld: -2\n"
    tiles = "set:\n  lays.corporation.1.cost: 30\n  lays.private.1.metre_cost: 15\n"
    trains = "set:\n  trains.2H.price: 90\n"
    game = _variant(tmp_path, {"market.yaml": market, "tiles.yaml": tiles, "trains.yaml": trains})
    res = validate_game(game)
    assert res.errors == []
    d = res.definition
    assert d is not None
    assert d.market.stock_market.spaces[2:5] == (60, 66, 70)
    assert len(d.market.stock_market.spaces) == 19 and d.market.movement.withheld == -2
    assert [lay.cost for lay in d.tile_lays["corporation"]] == [0, 30]
    assert [lay.metre_cost for lay in d.tile_lays["private"]] == [None, 15]
    assert d.tile_lays["corporation"][1].metre_cost == 10  # the rest of the entry is the base's
    assert [t.price for t in d.trains if t.name == "2H"] == [90]


def test_set_errors_are_positioned_in_the_variant(tmp_path: Path) -> None:
    tiles = "set:\n  lays.corporation.1.cost: 30\n  lays.corporation.5.cost: 30\n"
    market = "set:\n  movement.withheld: lots\n  stock_market.nosuch: 1\n"
    game = _variant(tmp_path, {"tiles.yaml": tiles, "market.yaml": market})
    shown = sorted(
        (Path(e.file).name, e.line, e.col, e.message) for e in validate_game(game).errors
    )
    assert shown == [
        (
            "market.yaml",
            2,
            22,
            "movement.withheld: input should be a valid integer, unable to "
            "parse string as an integer, got 'lots'",
        ),
        ("market.yaml", 3, 3, "set: no 'nosuch' in 'stock_market'"),
        ("tiles.yaml", 3, 3, "set: no entry 5 in 'lays.corporation' (it has 2, from 0)"),
    ]
