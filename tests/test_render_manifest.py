"""`ferrovia render --tiles`: every tile of the manifest with its number, colour and count."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from conftest import GAMEDATA
from ferrovia.cli import main
from ferrovia.render.source import load_board

NS = "{http://www.w3.org/2000/svg}"


def test_manifest_shows_each_tile_once_with_its_count(tmp_path: Path) -> None:
    out = tmp_path / "tiles.svg"
    assert main(["render", "--tiles", str(GAMEDATA / "1858"), "-o", str(out)]) == 0
    root = ET.parse(out).getroot()
    board = load_board(GAMEDATA / "1858")
    cells = {e.get("id"): e for e in root.iter(f"{NS}g") if e.get("class") == "manifest-tile"}
    assert len(cells) == len(board.tiles) > 100
    for entry in board.tiles:
        cell = cells[f"tile-{entry.name}"]
        (caption,) = [t.text for t in cell.iter(f"{NS}text") if t.get("class") == "caption"]
        assert caption == f"{entry.name}  ×{'∞' if entry.count is None else entry.count}"
        (hex_,) = [p for p in cell.iter(f"{NS}polygon") if p.get("class") == "hex"]
        assert (
            hex_.get("fill")
            == {"yellow": "#fde900", "green": "#71bf44", "brown": "#cb7745", "gray": "#bcbdc0"}[
                entry.color
            ]
        )
    # colour rows in lay order: yellow first, then green, brown, gray
    headings = [t.text or "" for t in root.iter(f"{NS}text") if t.get("class") == "group-heading"]
    assert [h.split(":")[0] for h in headings] == ["Yellow", "Green", "Brown", "Gray"]
