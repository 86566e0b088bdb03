"""`ferrovia render --game FILE --at ID`: a game after an action, board and panels."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import GAMEDATA, shared_path
from ferrovia.cli import main
from ferrovia.lib18xx.state import Corporation, Hex, Player18xx, Share, State18xx, Token, Train
from ferrovia.render.source import load_board
from ferrovia.render.state_svg import render_state, views_from_gamestate
from ferrovia.render.timeline import build_timeline, filter_undos

NS = "{http://www.w3.org/2000/svg}"
G1858 = GAMEDATA / "1858"


def _ids(actions: list[dict[str, object]]) -> list[object]:
    return [a["id"] for a in filter_undos(actions)]


def test_undo_and_redo_resolve_like_18xx_games() -> None:
    acts: list[dict[str, object]] = [
        {"type": "bid", "id": 1},
        {"type": "pass", "id": 2},
        {"type": "undo", "id": 3},  # takes back 2
        {"type": "pass", "id": 4},
        {"type": "lay_tile", "id": 5},
        {"type": "undo", "id": 6, "action_id": 1},  # back to just after 1
        {"type": "redo", "id": 7},  # restores 4 and 5
        {"type": "message", "id": 8},
        {"type": "undo", "id": 9},  # messages are not undone: takes back 5
        {"type": "pass", "id": 10},
        {"type": "redo", "id": 11},  # nothing to redo after a new action
    ]
    assert _ids(acts) == [1, 4, 8, 10]


@pytest.fixture(scope="module")
def timeline():  # type: ignore[no-untyped-def]
    game = shared_path("fixtures", "18xx.games", "1858", "219682.json")
    return build_timeline(load_board(G1858), game, game_dir=G1858)


def test_timeline_follows_tile_lays_after_undos(timeline) -> None:  # type: ignore[no-untyped-def]
    by_id = {f.action_id: f for f in timeline.frames}
    # 76/77 (tile 621 on B9) were undone; 79 lays 201 on B9 in rotation 5
    assert 76 not in by_id and 77 not in by_id
    frame = by_id[79]
    assert frame.text == "P&L lays tile 201 on B9 (Porto), rotation 5, paying P0"
    laid = frame.map_state.tiles["B9"]
    assert (laid.name, laid.rotation, laid.color) == ("201", 5, "yellow")
    assert frame.map_state.highlight == frozenset({"B9"})
    assert "B9" not in by_id[75].map_state.tiles


def test_station_markers_go_in_the_city_and_stay(timeline) -> None:  # type: ignore[no-untyped-def]
    by_id = {f.action_id: f for f in timeline.frames}
    frame = by_id[134]  # A places a station in the city of tile 202-1
    (coord,) = frame.map_state.highlight
    assert frame.text.startswith(f"A places a station marker in {coord}")
    (token,) = [t for t in frame.map_state.tokens[coord][0] if t is not None]
    assert (token.symbol, token.fill, token.text) == ("A", "#3751dc", "white")
    assert timeline.frame_at(10_000).map_state.tokens[coord][0][0] == token


def test_render_state_cli_writes_board_and_panel(tmp_path: Path) -> None:
    game = shared_path("fixtures", "18xx.games", "1858", "219682.json")
    out = tmp_path / "state.svg"
    rc = main(["render", str(G1858), "--game", str(game), "--at", "200", "-o", str(out)])
    assert rc == 0
    root = ET.parse(out).getroot()
    cells = [e for e in root.iter(f"{NS}g") if e.get("class") == "hex-cell"]
    assert len(cells) == 127
    (panel,) = [e for e in root.iter(f"{NS}g") if e.get("class") == "panel"]
    heading = next(t.text for t in panel.iter(f"{NS}text") if t.get("class") == "heading")
    assert heading is not None and heading.endswith("after action 200")


def test_bad_game_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": []}', encoding="utf-8")
    assert main(["render", str(G1858), "--game", str(bad)]) == 1
    assert "not a game file" in capsys.readouterr().err


def test_panels_from_a_rules_engine_state() -> None:
    board = load_board(G1858)
    state = State18xx(bank_cash=9000, phase="3")
    state.players = [
        Player18xx("1", "Ana", cash=412, companies=["B&M"]),
        Player18xx("2", "Bo", cash=90),
    ]
    corp = Corporation(sym="MZA", cash=380, par_price=100, market=[0, 7], director="1")
    corp.ipoed = corp.floated = True
    corp.shares = [
        Share("MZA", 0, 40, True, "1"),
        Share("MZA", 1, 20, False, "2"),
        Share("MZA", 2, 20, False, "MZA"),
        Share("MZA", 3, 20, False, "pool"),
    ]
    corp.tokens = [Token(0, "O8", 0), Token(40)]
    state.corporations = {"MZA": corp}
    state.market = {"0,7": ["MZA"]}
    state.hexes = {"O8": Hex("O8", "X3-0", 0, tokens=[["MZA"]])}
    state.trains = {t: Train(t, t.rsplit("-", 1)[0]) for t in ("2H-3", "2H-4", "4H-0")}
    state.depot = ["2H-3", "2H-4", "4H-0"]
    spaces = [0, 50, 60, 65, 70, 80, 90, 100, 110]
    map_state, view = views_from_gamestate(board, state, market_spaces=spaces, heading="t")
    assert map_state.tiles["O8"].name == "X3"
    assert map_state.tokens["O8"][0][0] is not None
    (row,) = view.companies
    assert (row.treasury, row.price, row.par, row.director, row.tokens_left) == (
        380,
        100,
        100,
        "Ana",
        1,
    )
    assert dict(row.shares) == {"Ana": 40, "Bo": 20, "treasury": 20, "pool": 20}
    assert [(c.price, c.companies) for c in view.market] == [(100, ("MZA",))]
    assert view.depot == (("2H", 2), ("4H", 1))
    ana = view.players[0]
    assert (ana.cash, ana.certificates, ana.priority) == (412, ("MZA 40% (director)", "B&M"), True)
    root = ET.fromstring(render_state(board, map_state, view))
    texts = [t.text or "" for t in root.iter(f"{NS}text")]
    assert "Ana (priority): P412" in texts
    assert "Trains for sale: 2H ×2, 4H ×1" in texts
    assert any(t.startswith("treasury P380   P100 (par P100)") for t in texts)


def test_log_words_carry_the_amounts_and_the_round(timeline) -> None:  # type: ignore[no-untyped-def]
    by_id = {f.action_id: f for f in timeline.frames}
    assert by_id[73].text == "B&M lays tile 58 on P7 (Gerona), rotation 1, paying P60"
    assert by_id[170].text == "Player 3 buys W_1 (20%) for P120"
    assert by_id[160].text == "A runs 2 train(s) (2H, 2H) for P130"
    assert by_id[161].text == "A pays out P130"
    assert by_id[234].text == "MZA issues MZA_2, MZA_3 to the bank pool"
    assert by_id[72].view.round.startswith("Operating round 1.1")
    assert by_id[170].view.round.startswith("Stock round ")
