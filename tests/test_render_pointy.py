"""The pointy-topped 1858 India map: its margin labels stand level with their hexes and never
overlap (letters name rows on the left and right, numbers columns on the top and bottom)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from conftest import GAMEDATA
from ferrovia.render import geometry as g
from ferrovia.render.map_svg import LABEL_SIZE, render_map
from ferrovia.render.source import load_board

NS = "{http://www.w3.org/2000/svg}"
INDIA = GAMEDATA / "1858_india"


@pytest.fixture(scope="module")
def labels() -> list[tuple[str, float, float]]:
    root = ET.fromstring(render_map(load_board(INDIA)))
    (axis,) = [e for e in root.iter() if e.get("class") == "axis"]
    return [
        (t.text or "", float(t.get("x", 0)), float(t.get("y", 0))) for t in axis.iter(f"{NS}text")
    ]


def _box(label: str, x: float, y: float) -> tuple[float, float, float, float]:
    """A generous box around a centred label (a digit or capital is at most 0.7 em wide)."""
    half_w = 0.35 * LABEL_SIZE * len(label)
    half_h = 0.5 * LABEL_SIZE
    return x - half_w, y - half_h, x + half_w, y + half_h


def test_no_two_margin_labels_overlap(labels: list[tuple[str, float, float]]) -> None:
    boxes = [_box(*lab) for lab in labels]
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            b = boxes[j]
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, f"{labels[i]} overlaps {labels[j]}"


def test_letters_stand_level_with_their_row_and_numbers_with_their_column(
    labels: list[tuple[str, float, float]],
) -> None:
    board = load_board(INDIA)
    rows: dict[str, set[float]] = {}
    cols: dict[str, set[float]] = {}
    for h in board.hexes:
        col, row = g.parse_coordinate(h.coord)
        x, y = g.hex_position(h.coord, "pointy")
        rows.setdefault(g.column_letter(col), set()).add(y)
        cols.setdefault(str(row + 1), set()).add(x)
    assert all(len(ys) == 1 for ys in rows.values())
    assert all(len(xs) == 1 for xs in cols.values())
    seen: dict[str, list[tuple[float, float]]] = {}
    for text, x, y in labels:
        seen.setdefault(text, []).append((x, y))
    for letter, (y,) in rows.items():
        assert [p[1] for p in seen[letter]] == [y, y]  # left and right margins
        assert seen[letter][0][0] < min(min(xs) for xs in cols.values())
    for number, (x,) in cols.items():
        assert [p[0] for p in seen[number]] == [x, x]  # top and bottom margins
        assert seen[number][0][1] < min(min(ys) for ys in rows.values())
    # the first letter is at the top, not halfway down
    assert seen["A"][0][1] == min(y for (y,) in rows.values())
