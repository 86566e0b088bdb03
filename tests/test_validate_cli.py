"""``ferrovia validate``: exit codes and the text, github and json output formats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ferrovia.cli import main

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "gamedata" / "1858"
FILES = ("game", "map", "tiles", "privates", "companies", "trains", "phases", "market", "options")
SUMMARY = "127 hexes, 108 tiles, 22 privates, 8 corporations, 7 trains, 6 phases"


@pytest.fixture
def game(gamedata_copy: Path) -> Path:
    return gamedata_copy


def break_two_things(game: Path) -> None:
    """A typo'd key in map.yaml and a par value off the market, in that order of files."""
    text = (game / "map.yaml").read_text(encoding="utf-8")
    (game / "map.yaml").write_text(
        text.replace("  B3: {color: white}", "  B3: {color: white, nme: x}", 1)
    )
    text = (game / "market.yaml").read_text(encoding="utf-8")
    (game / "market.yaml").write_text(text.replace("par_values: [70,", "par_values: [75, 70,", 1))


def positions(game: Path) -> tuple[tuple[int, int], tuple[int, int]]:
    lines = (game / "map.yaml").read_text(encoding="utf-8").splitlines()
    map_line = next(i for i, t in enumerate(lines, 1) if "nme: x" in t)
    map_col = lines[map_line - 1].index("nme") + 1
    lines = (game / "market.yaml").read_text(encoding="utf-8").splitlines()
    market_line = next(i for i, t in enumerate(lines, 1) if t.startswith("  par_values: [75"))
    return (map_line, map_col), (market_line, lines[market_line - 1].index("75") + 1)


def test_valid_game_text_output_and_exit_0(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(game)]) == 0
    out = capsys.readouterr().out
    assert out == f"gamedata/1858: ok — {SUMMARY}\n"


def test_default_is_every_bundled_game(capsys: pytest.CaptureFixture[str]) -> None:
    missing = [f for f in FILES if not (GAME / f"{f}.yaml").exists()]
    if missing:
        pytest.skip(f"gamedata/1858 not complete yet: {', '.join(missing)}")
    assert main(["validate"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # One summary line per bundled game (1858 and its variants), all ok.
    games = sorted(p.parent.name for p in GAME.parent.glob("*/game.yaml"))
    assert [line.split(":")[0].rsplit("/", 1)[-1] for line in lines] == games
    assert next(line for line in lines if "/1858:" in line).endswith(f"1858: ok — {SUMMARY}")
    assert all(": ok — " in line for line in lines)


def test_invalid_game_text_output_and_exit_1(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    break_two_things(game)
    (ml, mc), (kl, kc) = positions(game)
    assert main(["validate", str(game)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"gamedata/1858/map.yaml:{ml}:{mc}: error: unknown key 'nme' (did you mean 'name'?)",
        f"gamedata/1858/market.yaml:{kl}:{kc}: error: par value 75 is not a space of the stock "
        "market",
        f"gamedata/1858: 2 errors — {SUMMARY}",
    ]


def test_github_format(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    break_two_things(game)
    (ml, mc), (kl, kc) = positions(game)
    assert main(["validate", "--format", "github", str(game)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"::error file=gamedata/1858/map.yaml,line={ml},col={mc}::unknown key 'nme' "
        "(did you mean 'name'?)",
        f"::error file=gamedata/1858/market.yaml,line={kl},col={kc}::par value 75 is not a "
        "space of the stock market",
    ]


def test_json_format(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    break_two_things(game)
    (ml, mc), (kl, kc) = positions(game)
    assert main(["validate", "--format", "json", str(game)]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document == {
        "games": [
            {
                "path": "gamedata/1858",
                "title": "1858: The Railways of Iberia",
                "counts": {
                    "hexes": 127,
                    "tiles": 108,
                    "privates": 22,
                    "corporations": 8,
                    "trains": 7,
                    "phases": 6,
                },
                "errors": [
                    {
                        "file": "gamedata/1858/map.yaml",
                        "line": ml,
                        "col": mc,
                        "message": "unknown key 'nme' (did you mean 'name'?)",
                    },
                    {
                        "file": "gamedata/1858/market.yaml",
                        "line": kl,
                        "col": kc,
                        "message": "par value 75 is not a space of the stock market",
                    },
                ],
            }
        ]
    }


def test_json_format_when_valid(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--format", "json", str(game)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["games"][0]["errors"] == []
    assert document["games"][0]["counts"]["tiles"] == 108


def test_directory_above_games_finds_them(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "gamedata"]) == 0
    assert capsys.readouterr().out == f"gamedata/1858: ok — {SUMMARY}\n"


def test_missing_path_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(tmp_path / "nowhere")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"cannot read {tmp_path / 'nowhere'}: no such file" in captured.err


def test_directory_without_a_game_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(tmp_path)]) == 2
    assert "no game.yaml found" in capsys.readouterr().err


def test_unknown_format_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--format", "xml"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_a_data_file_checks_its_game_once(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["validate", str(game / "map.yaml"), str(game / "phases.yaml")]
    assert main(args) == 0
    assert capsys.readouterr().out == f"gamedata/1858: ok — {SUMMARY}\n"


def test_a_file_outside_any_game_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stray = tmp_path / "x.yaml"
    stray.write_text("a: 1\n")
    assert main(["validate", str(stray)]) == 2
    assert "not a game directory" in capsys.readouterr().err
