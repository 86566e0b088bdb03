"""`ferrovia view FILE -o game.html`: one self-contained page stepping through a replay."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import GAMEDATA, shared_path
from ferrovia.cli import main
from ferrovia.render.source import load_board
from ferrovia.render.timeline import build_timeline, filter_undos
from ferrovia.render.viewer import _script_json, build_viewer_data


@pytest.fixture(scope="module")
def html(tmp_path_factory: pytest.TempPathFactory) -> str:
    game = shared_path("fixtures", "18xx.games", "1858", "219682.json")
    out = tmp_path_factory.mktemp("view") / "game.html"
    assert main(["view", str(game), "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def _data(html: str) -> dict[str, object]:
    match = re.search(
        r'<script type="application/json" id="frames-data">(.*?)</script>', html, re.S
    )
    assert match
    data: dict[str, object] = json.loads(match.group(1))
    return data


def test_page_is_self_contained(html: str) -> None:
    # nothing is fetched: no src/href attributes, no URLs but the SVG namespace
    assert not re.search(r"\b(src|href)=", html)
    urls = set(re.findall(r"https?://[^\s\"'<>]+", html))
    assert urls == {"http://www.w3.org/2000/svg"}
    assert html.count('class="hex-cell"') == 127


def test_one_frame_per_counted_action_with_the_log_in_words(html: str) -> None:
    data = _data(html)
    frames = data["frames"]
    assert isinstance(frames, list)
    raw = json.loads(
        shared_path("fixtures", "18xx.games", "1858", "219682.json").read_text(encoding="utf-8")
    )
    assert len(frames) == len(filter_undos(raw["actions"])) + 1
    by_id = {f["id"]: f for f in frames}
    assert by_id[79]["text"] == "P&L lays tile 201 on B9 (Porto), rotation 5, paying P0"
    assert by_id[79]["hl"] == ["B9"]
    svg_index, tile = by_id[79]["hexes"]["B9"]
    assert tile == "201"
    svgs = data["svgs"]
    assert isinstance(svgs, list) and 'class="track broad"' in svgs[svg_index]
    # hexes that did not change are not repeated
    assert list(by_id[79]["hexes"]) == ["B9"]


def test_embedded_json_cannot_close_the_script() -> None:
    text = _script_json({"text": "</script><!-- x"})
    assert "</" not in text and "<!--" not in text
    assert json.loads(text) == {"text": "</script><!-- x"}


def test_board_only_mode_still_steps_through_the_game() -> None:
    board = load_board(GAMEDATA / "1858")
    game = shared_path("fixtures", "18xx.games", "1858", "219682.json")
    timeline = build_timeline(board, game, game_dir=GAMEDATA / "1858", use_rules=False)
    data = build_viewer_data(board, timeline)
    frames = data["frames"]
    assert isinstance(frames, list)
    assert frames[0]["text"] == "Start of the game"
    assert any(f["text"] == "P&L lays tile 201 on B9 (Porto), rotation 5" for f in frames)
    assert timeline.note.startswith("board only")


def test_view_names_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["view", str(tmp_path / "none.json")]) == 2  # a path that is not there (#13)
    assert "no such file" in capsys.readouterr().err


def test_a_closing_private_leaves_the_board_in_the_viewer() -> None:
    board = load_board(GAMEDATA / "1858")
    game = shared_path("fixtures", "18xx.games", "1858", "219682.json")
    timeline = build_timeline(board, game, game_dir=GAMEDATA / "1858")
    data = build_viewer_data(board, timeline)
    frames, svgs = data["frames"], data["svgs"]
    assert isinstance(frames, list) and isinstance(svgs, list)
    pairs = zip(timeline.frames, timeline.frames[1:], strict=False)
    before, after = next(
        (a, b) for a, b in pairs if b.map_state.removed_markers - a.map_state.removed_markers
    )
    symbol = sorted(after.map_state.removed_markers - before.map_state.removed_markers)[0]
    (private,) = [p for p in board.privates if p.symbol == symbol]
    changed = frames[after.index]["hexes"]
    for coord in private.home_hexes:
        assert coord in changed, (symbol, coord)
        svg = svgs[changed[coord][0]]
        escaped = symbol.replace("&", "&amp;")
        assert f">{escaped}<" not in svg and f"/{escaped}<" not in svg
