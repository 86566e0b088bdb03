"""``ferrovia serve`` without a browser: which hex an error is pinned to, where a hex is
written (a variant's own file or its base's), and usage errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import GAMEDATA
from ferrovia.authoring.serve import HexSource, Preview, hex_sources, pin
from ferrovia.cli import main
from ferrovia.data.overlay import load_part
from ferrovia.errors import DataError
from ferrovia.schemas import MapFile


def _sources(game: Path) -> dict[str, HexSource]:
    doc, _, _ = load_part(game, str(game), "map.yaml", "map", MapFile)
    return hex_sources(doc)


def test_a_variant_hex_is_written_in_its_own_file_or_its_base(tmp_path: Path) -> None:
    shutil.copytree(GAMEDATA / "1858", tmp_path / "1858")
    variant = tmp_path / "cheap"
    variant.mkdir()
    (variant / "game.yaml").write_text("extends: '1858'\nname: cheap\ntitle: Cheap\n")
    (variant / "map.yaml").write_text("hexes:\n  B3: {color: white, name: Ribadeo}\n")
    sources = hex_sources(load_part(variant, str(variant), "map.yaml", "map", MapFile)[0])
    own = sources["B3"]
    assert (own.file, own.line, own.last) == (str(variant / "map.yaml"), 2, 2)
    assert own.yaml == "  B3: {color: white, name: Ribadeo}"
    inherited = sources["A14"]
    assert Path(inherited.file).resolve() == (tmp_path / "1858" / "map.yaml").resolve()
    assert inherited.yaml.splitlines()[1:3] == ["  A14:", "    color: green"]
    assert inherited.yaml.startswith("  # A14: ")  # with the comment just above it


def test_errors_are_pinned_to_their_hexes() -> None:
    game = GAMEDATA / "1858"
    sources = _sources(game)
    a14 = sources["A14"]
    inside = DataError(str(game / "map.yaml"), a14.line + 3, 12, "tile code: bad")
    assert pin(inside, sources) == "A14"
    privates = (game / "privates.yaml").read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(privates, 1) if "home_hexes: [H11, H13]" in t)
    col = privates[line - 1].index("H13") + 1
    assert pin(DataError(str(game / "privates.yaml"), line, col, "x"), sources) == "H13"
    assert pin(DataError("elsewhere.yaml", 1, 1, "hex C2 has no city"), sources) == "C2"
    assert pin(DataError(str(game / "trains.yaml"), 1, 1, "no phase '9'"), sources) is None


def test_a_preview_of_a_broken_game_still_draws_its_map(tmp_path: Path) -> None:
    game = tmp_path / "1858"
    shutil.copytree(GAMEDATA / "1858", game)
    shutil.copytree(GAMEDATA / "tilesets", tmp_path / "tilesets")
    text = (game / "map.yaml").read_text(encoding="utf-8")
    (game / "map.yaml").write_text(text.replace("  B3: {color: white}", "  B3: {color: w}"))
    preview = Preview(game)
    preview.rebuild()
    state = preview.state
    assert state["version"] == 1 and state["ok"] is False
    assert [e["hex"] for e in state["errors"]] == ["B3"]
    assert 'id="hex-B3"' in state["map"] and state["render_error"] is None


def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", str(tmp_path)]) == 2
    assert "is not a game directory: it has no game.yaml" in capsys.readouterr().err
    assert main(["serve", str(GAMEDATA / "1858"), "--port", "70000"]) == 2
    assert "--port 70000: expected 0-65535" in capsys.readouterr().err
