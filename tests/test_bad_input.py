"""Issue #13, "bad input never hurts": each reported case, and the rules behind them.

No command overwrites one of its inputs (tests/test_errors_cli.py has the unreadable-file and
syntax cases); a wrong input is never a success; a message names where the problem is.
Exit codes: 2 the command line asks for something impossible (an option, a path that is not
there or cannot be read or written as asked), 1 an input's content is wrong.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import GAMEDATA, shared_path
from tests.test_errors_cli import FIXTURE, edit, run


@pytest.fixture
def game(tmp_path: Path) -> Path:
    shutil.copytree(GAMEDATA / "1858", tmp_path / "1858")
    return tmp_path / "1858"


@pytest.fixture
def export(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    shutil.copy(shared_path(*FIXTURE), path)
    return path


def snapshot(*dirs: Path) -> dict[Path, bytes]:
    """Every file below ``dirs`` with its bytes (to show nothing was changed)."""
    out: dict[Path, bytes] = {}
    for d in dirs:
        for p in sorted(d.rglob("*")) if d.is_dir() else [d]:
            if p.is_file():
                out[p] = p.read_bytes()
    return out


def errors_of(game: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    code, out, _ = run(["validate", str(game)], capsys)
    assert code == 1, out
    return [line for line in out.splitlines() if ": error: " in line]


# ------------------------------------------------------------------ wrong successes: data
def test_an_unknown_rule_set_is_an_error_at_its_line(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line, col = edit(game / "game.yaml", "rules: '1858'", "rules: nosuch")
    (err,) = errors_of(game, capsys)
    assert err == (
        f"{game}/game.yaml:{line}:{col + 7}: error: no rule set 'nosuch'"
        " (known rule sets: 1830, 1858, 1858_india, 1858_switzerland)"
    )


def test_a_negative_count_is_an_error(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line, col = edit(game / "tiles.yaml", "count: 2", "count: -2")
    (err,) = errors_of(game, capsys)
    assert err.startswith(f"{game}/tiles.yaml:{line}:{col + 7}: error: tiles.")
    assert err.endswith("count: expected a count of 0 or more, got -2")


@pytest.mark.parametrize("name", ["../../../etc/passwd", "/etc/passwd", "sub/../../map.yaml"])
def test_a_data_file_outside_the_game_directory_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    text = (game / "game.yaml").read_text(encoding="utf-8")
    line = text.count("\n") + 2
    (game / "game.yaml").write_text(text + f"files:\n  map: '{name}'\n", encoding="utf-8")
    (err,) = errors_of(game, capsys)
    assert err.startswith(f"{game}/game.yaml:{line}:8: error: files.map: '{name}' ")
    for command in (["resolve", str(game)], ["diff", str(GAMEDATA / "1858"), str(game)]):
        code, out, err = run(command, capsys)
        assert code == 1 and out == ""
        assert err.startswith(f"{game}/game.yaml:{line}:8: error: '{name}' ")
