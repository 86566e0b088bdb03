"""Issue #13, "bad input never hurts": each reported case, and the rules behind them.

No command overwrites one of its inputs (tests/test_errors_cli.py has the unreadable-file and
syntax cases); a wrong input is never a success; a message names where the problem is.
Exit codes: 2 the command line asks for something impossible (an option, a path that is not
there or cannot be read or written as asked), 1 an input's content is wrong.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

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
    from ferrovia.games import available

    assert err == (
        f"{game}/game.yaml:{line}:{col + 7}: error: no rule set 'nosuch'"
        f" (known rule sets: {', '.join(available())})"
    )
    assert "1858_switzerland" in err


@pytest.mark.parametrize(
    ("count", "message"),
    [
        ("-2", "expected a count of 0 or more, got -2"),
        # a typo that would make a billion trains or tiles when a game starts
        ("999999999", "expected at most 1000 pieces (or 'unlimited'), got 999999999"),
    ],
)
def test_a_count_out_of_range_is_an_error(
    game: Path, capsys: pytest.CaptureFixture[str], count: str, message: str
) -> None:
    line, col = edit(game / "tiles.yaml", "count: 2", f"count: {count}")
    (err,) = errors_of(game, capsys)
    assert err.startswith(f"{game}/tiles.yaml:{line}:{col + 7}: error: tiles.")
    assert err.endswith(f"count: {message}")


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


# ------------------------------------------------------------------ data loss
def test_view_refuses_to_write_over_its_game_file(
    export: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = export.read_bytes()
    code, _, err = run(["view", str(export), "-o", str(export)], capsys)
    assert code == 2 and export.read_bytes() == before
    assert err == (
        f"ferrovia view: refusing to write {export}: it is an input of this command ({export})\n"
    )


@pytest.mark.parametrize("name", ["map.yaml", "tiles.yaml", "game.yaml"])
def test_render_refuses_to_write_over_a_data_file(
    game: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    before = snapshot(game)
    code, out, err = run(["render", str(game), "-o", str(game / name)], capsys)
    assert code == 2 and out == "" and snapshot(game) == before
    assert err.startswith(f"ferrovia render: refusing to write {game / name}: it is an input")


def test_render_refuses_a_data_file_of_the_base_a_variant_extends(
    tmp_path: Path, game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = tmp_path / "variant"
    variant.mkdir()
    (variant / "game.yaml").write_text("extends: '../1858'\nname: variant\n", encoding="utf-8")
    before = snapshot(game)
    code, _, err = run(["render", str(variant), "-o", str(game / "market.yaml")], capsys)
    assert code == 2 and snapshot(game) == before
    assert "it is an input of this command" in err


def test_render_state_refuses_to_write_over_its_game_file_through_a_link(
    tmp_path: Path, export: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = tmp_path / "link.svg"
    link.symlink_to(export)
    before = export.read_bytes()
    code, _, err = run(["render", "--game", str(export), "-o", str(link)], capsys)
    assert code == 2 and export.read_bytes() == before
    assert "it is an input of this command" in err


def test_resolve_refuses_to_write_into_the_game_it_reads(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(game)
    for extra in ([], ["--force"]):
        code, out, err = run(["resolve", str(game), "-o", str(game), *extra], capsys)
        assert code == 2 and out == "" and snapshot(game) == before
        assert err == (
            f"ferrovia resolve: refusing to write into {game}:"
            f" it is the game directory being read ({game})\n"
        )


def test_resolve_into_a_directory_that_holds_files_needs_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "flat"
    assert run(["resolve", str(GAMEDATA / "1858"), "-o", str(out)], capsys)[0] == 0
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    (out / "map.yaml").write_text("old", encoding="utf-8")
    code, _, err = run(["resolve", str(GAMEDATA / "1858"), "-o", str(out)], capsys)
    assert code == 2 and (out / "map.yaml").read_text(encoding="utf-8") == "old"
    assert err.startswith(f"ferrovia resolve: {out} already exists and is not empty; give --force")
    code, _, _ = run(["resolve", str(GAMEDATA / "1858"), "-o", str(out), "--force"], capsys)
    assert code == 0 and (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert "hexes:" in (out / "map.yaml").read_text(encoding="utf-8")
    assert not [p for p in tmp_path.rglob("*.part")]  # no temporary file left behind


def test_resolve_of_a_broken_variant_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = tmp_path / "variant"
    variant.mkdir()
    (variant / "game.yaml").write_text(
        f"extends: '{GAMEDATA / '1858'}'\nname: variant\n", encoding="utf-8"
    )
    (variant / "privates.yaml").write_text(
        "privates:\n  - {symbol: B&M, face_value: lots}\n", encoding="utf-8"
    )
    out = tmp_path / "flat"
    run(["resolve", str(GAMEDATA / "1858"), "-o", str(out)], capsys)
    before = snapshot(out)
    code, stdout, err = run(["resolve", str(variant), "-o", str(out), "--force"], capsys)
    assert code == 1 and stdout == "" and snapshot(out) == before
    assert "privates.yaml:2:" in err and "face_value" in err
    code, stdout, _ = run(["resolve", str(variant), "-o", str(tmp_path / "new")], capsys)
    assert code == 1 and not (tmp_path / "new").exists()


def test_an_output_is_replaced_whole_or_not_at_all(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure while writing (here: the disk fills up) leaves the old file as it was."""
    from ferrovia import outputs

    page = tmp_path / "map.svg"
    page.write_text("old drawing", encoding="utf-8")

    def full(*args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(outputs.os, "replace", full)
    code, _, err = run(["render", str(GAMEDATA / "1858"), "-o", str(page)], capsys)
    assert code == 2 and page.read_text(encoding="utf-8") == "old drawing"
    assert err == f"ferrovia render: cannot write {page}: No space left on device\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["map.svg"]


def test_play_checks_its_log_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import ferrovia.play.selfplay

    def never(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the game was played although its log cannot be written")

    monkeypatch.setattr(ferrovia.play.selfplay, "play", never)
    log = tmp_path / "missing" / "game.json"
    code, out, err = run(["play", "--log", str(log)], capsys)
    assert code == 2 and out == ""
    assert err == (
        f"ferrovia play: cannot write {log}: the directory {log.parent} does not exist\n"
    )


def test_play_refuses_a_log_over_a_data_file_of_its_game(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(game)
    code, _, err = run(["play", "--game", str(game), "--log", str(game / "trains.yaml")], capsys)
    assert code == 2 and snapshot(game) == before
    assert "it is an input of this command" in err


# ------------------------------------------------------------------ tracebacks
def test_routes_of_a_company_without_trains(
    export: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["routes", "--game", str(export), "--at", "100", "--company", "A"], capsys)
    assert code == 0 and out == "A: no trains, so no run (best run 0)\n" and err == ""
    code, out, _ = run(
        ["routes", "--game", str(export), "--at", "100", "--company", "A", "--json"], capsys
    )
    assert code == 0 and json.loads(out)["routes"] == [] and json.loads(out)["total"] == 0


def test_routes_of_an_export_of_a_game_that_is_not_there(
    tmp_path: Path, export: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(export.read_text(encoding="utf-8"))
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**data, "title": "1899"}), encoding="utf-8")
    code, out, err = run(["routes", "--game", str(other), "--at", "100", "--company", "A"], capsys)
    assert code == 1 and out == ""
    assert err.startswith("ferrovia: unknown game '1899'") and "give --game-dir" in err


@pytest.mark.parametrize("command", ["validate", "resolve", "diff"])
@pytest.mark.parametrize(("char", "label"), [("\x00", "U+0000 (NUL)"), ("\x1b", "U+001B (ESC)")])
def test_a_control_character_in_yaml_is_positioned(
    game: Path, capsys: pytest.CaptureFixture[str], command: str, char: str, label: str
) -> None:
    line, col = edit(game / "map.yaml", "name: Lisboa", f"name: Lis{char}boa")
    args = {"validate": [str(game)], "resolve": [str(game)]}.get(
        command, [str(GAMEDATA / "1858"), str(game)]
    )
    code, out, err = run([command, *args], capsys)
    assert code == 1
    message = (
        f"{game}/map.yaml:{line}:{col + 9}: error: YAML: control character {label}"
        " is not allowed; remove it"
    )
    assert message in (out if command == "validate" else err).splitlines()


# ------------------------------------------------------------------ hang
def test_a_huge_map_is_refused_before_parsing(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """600 000 hexes (about 30 MB): refused at once, with the limit, not parsed for minutes."""
    with (game / "map.yaml").open("a", encoding="utf-8") as handle:
        for i in range(600_000):
            handle.write(f"  Z{i}: {{color: white, name: Hex number {i}}}\n")
    size = (game / "map.yaml").stat().st_size / 1e6
    for command in (["validate", str(game)], ["render", str(game)], ["resolve", str(game)]):
        code, out, err = run(command, capsys)
        assert code == 1
        assert (
            f"{game}/map.yaml:1:1: error: the file is too large ({size:.1f} MB; data files may"
            " be at most 1 MB)"
        ) in out + err


# ------------------------------------------------------------------ wrong successes: commands
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--option", "quick_start_a", "--option", "quick_start_b"],
            "--option: optional rule 'quick_start_a' (Quick start, set A) cannot be used with"
            " 'quick_start_b'",
        ),
        (
            ["--players", "2", "--option", "quick_start_a"],
            "--option: optional rule 'quick_start_a' (Quick start, set A) is for 3, 4, 5, 6"
            " players, not 2",
        ),
        (
            ["--option", "quick_start_a", "--option", "quick_start_a"],
            "--option: optional rule 'quick_start_a' is given twice",
        ),
        (["--game", "nosuch"], "--game nosuch: unknown game 'nosuch'"),
        (["--max-actions", "-1"], "--max-actions -1: expected 0 or more"),
    ],
    ids=["exclusive", "players", "twice", "game", "max-actions"],
)
def test_play_refuses_options_the_game_does_not_allow(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(["play", "--max-actions", "3", *args], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"ferrovia play: {message}")


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            {"seed": 1, "optional_rules": ["quick_start_a", "quick_start_b"]},
            "optional rule 'quick_start_a' (Quick start, set A) cannot be used with"
            " 'quick_start_b'",
        ),
        (
            {"seed": 1, "optional_rules": ["quick_start_a"]},
            "optional rule 'quick_start_a' (Quick start, set A) is for 3, 4, 5, 6 players, not 2",
        ),
    ],
)
def test_replay_refuses_options_the_game_does_not_allow(
    tmp_path: Path, export: Path, capsys: pytest.CaptureFixture[str], settings: Any, message: str
) -> None:
    data = json.loads(export.read_text(encoding="utf-8"))
    data["settings"] = settings
    if "players" in message:
        data["players"] = data["players"][:2]
    export.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(["replay", str(export)], capsys)
    assert code == 1 and out == "" and err == f"ferrovia: {message}\n"


def write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def position(path: Path, needle: str, nth: int = 1) -> tuple[int, int]:
    text = path.read_text(encoding="utf-8")
    at = -1
    for _ in range(nth):
        at = text.index(needle, at + 1)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def test_duplicate_action_ids_are_an_error_at_the_second(
    export: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(export.read_text(encoding="utf-8"))
    data["actions"][5]["id"] = data["actions"][3]["id"]
    write_json(export, data)
    ident = data["actions"][3]["id"]
    line, col = position(export, f'"id": {ident},', 2)
    for command in (["replay", str(export)], ["view", str(export), "-o", str(export) + ".html"]):
        code, out, err = run(command, capsys)
        assert code == 1 and out == ""
        assert err == (
            f"ferrovia: {export}:{line}:{col + 6}: error: actions[5].id: action id {ident} is"
            " used twice (first by actions[3])\n"
        )


@pytest.mark.parametrize(
    ("title", "message"),
    [
        (None, "title: expected the game's title (text such as '1858'), got nothing"),
        ("../../..", "title: expected a game's name such as '1858', got a path '../../..'"),
        ("/etc", "title: expected a game's name such as '1858', got a path '/etc'"),
        ("", "title: expected the game's title (text such as '1858'), got empty text"),
    ],
    ids=["null", "relative", "absolute", "empty"],
)
@pytest.mark.parametrize("command", ["replay", "view", "render", "routes"])
def test_a_title_must_name_a_game(
    export: Path, capsys: pytest.CaptureFixture[str], title: Any, message: str, command: str
) -> None:
    data = json.loads(export.read_text(encoding="utf-8"))
    data["title"] = title
    write_json(export, data)
    line, col = position(export, '"title": ')
    args = {
        "replay": ["replay", str(export)],
        "view": ["view", str(export), "-o", str(export.with_suffix(".html"))],
        "render": ["render", "--game", str(export)],
        "routes": ["routes", "--game", str(export), "--at", "100", "--company", "A"],
    }[command]
    code, out, err = run(args, capsys)
    assert code == 1 and out == ""
    assert err == f"ferrovia: {export}:{line}:{col + 9}: error: {message}\n"


def test_a_file_without_a_title_is_not_taken_for_1858(
    export: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(export.read_text(encoding="utf-8"))
    del data["title"]
    write_json(export, data)
    code, _, err = run(["replay", str(export)], capsys)
    assert code == 1
    assert err.startswith(f"ferrovia: {export}:1:1: error: no 'title': cannot tell which game")


@pytest.mark.parametrize("flag", ["--game", "GAME_DIR"])
def test_render_state_exits_1_when_the_replay_stopped(
    export: Path, capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    """A Switzerland map with a 1858 game: drawn as far as it goes, but not a success."""
    args = ["render", "--game", str(export)]
    if flag == "GAME_DIR":
        args.insert(1, str(GAMEDATA / "1858_switzerland"))
    else:
        data = json.loads(export.read_text(encoding="utf-8"))
        data["actions"][0]["entity"] = "nobody"
        write_json(export, data)
    out_file = export.with_suffix(".svg")
    code, _, err = run([*args, "-o", str(out_file)], capsys)
    assert code == 1 and out_file.is_file()
    assert err.startswith("ferrovia: warning: ") and "action 2" in err


@pytest.mark.parametrize("scale", ["inf", "-inf", "1e9", "101"])
def test_render_scale_must_be_finite_and_sane(
    capsys: pytest.CaptureFixture[str], scale: str
) -> None:
    code, out, err = run(["render", str(GAMEDATA / "1858"), f"--scale={scale}"], capsys)
    assert code == 2 and out == ""
    assert err.startswith("ferrovia render: --scale must be above 0 and at most 100, not ")


def test_a_broken_pipe_is_not_a_success(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tiles check --strict FILE | head -1``: the reader went away, the run did not finish."""
    import sys

    codes = tmp_path / "codes.txt"
    codes.write_text("path=a:7,b:0\n" * 50, encoding="utf-8")

    class Closed:
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self) -> None:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", Closed())
    code, _, err = run(["tiles", "check", "--strict", str(codes)], capsys)
    assert code == 1
    assert err == "ferrovia: output closed before all of it was written (broken pipe)\n"


def test_a_broken_pipe_in_a_real_pipeline(tmp_path: Path) -> None:
    import subprocess
    import sys

    codes = tmp_path / "codes.txt"
    codes.write_text("path=a:7,b:0\n" * 20000, encoding="utf-8")
    proc = subprocess.run(
        f"set -o pipefail; '{sys.executable}' -m ferrovia tiles check --strict '{codes}' | head -1",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1 and proc.stdout.count("\n") == 1
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr


def test_diff_reports_a_variant_that_does_not_validate(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line, col = edit(game / "privates.yaml", "face_value: 30", "face_value: lots")
    code, out, err = run(["diff", str(GAMEDATA / "1858"), str(game)], capsys)
    assert code == 1 and "~ H&G (face_value)" in out
    assert err.startswith(f"{game}/privates.yaml:{line}:{col + 12}: error: privates[0].face_value")


# ------------------------------------------------------------------ unclear messages
def test_an_unclosed_quote_is_reported_where_it_opens(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line, col = edit(game / "map.yaml", "name: Lisboa", 'name: "Lisboa')
    (err,) = errors_of(game, capsys)
    assert err == (
        f'{game}/map.yaml:{line}:{col + 6}: error: YAML: the " opened here is never closed'
        " (the file ends first)"
    )


def test_an_unclosed_bracket_says_where_it_opens(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line, col = edit(game / "game.yaml", "rules: '1858'", "rules: ['1858'")
    (err,) = errors_of(game, capsys)
    assert f"(while parsing a flow sequence started at line {line}, column {col + 7})" in err


def test_a_zero_width_space_in_a_symbol_is_shown(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line, col = edit(game / "companies.yaml", "symbol: MZA", "symbol: M\u200bZA")
    (err,) = errors_of(game, capsys)
    assert err == (
        f"{game}/companies.yaml:{line}:{col + 9}: error: invisible character U+200B"
        " (ZERO WIDTH SPACE) in 'M<U+200B>ZA'; remove it"
    )


def test_an_invisible_character_in_a_game_file_is_shown(
    export: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(export.read_text(encoding="utf-8"))
    data["actions"][0]["entity"] = "1\u200b"
    write_json(export, data)
    code, _, err = run(["replay", str(export)], capsys)
    assert code == 1 and "<U+200B>" in err and "\u200b" not in err


@pytest.mark.parametrize(
    "command",
    [
        ["replay", "{p}"],
        ["view", "{p}", "-o", "{d}/v.html"],
        ["render", "--game", "{p}"],
        ["routes", "--game", "{p}", "--at", "5", "--company", "A"],
        ["tiles", "check", "{p}"],
        ["validate", "{p}"],
    ],
    ids=lambda c: c[0],
)
@pytest.mark.parametrize("what", ["missing", "loop", "dangling", "directory"])
def test_an_input_that_cannot_be_read_is_exit_2_and_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str], what: str
) -> None:
    path = tmp_path / "input.json"
    why = {
        "missing": "no such file",
        "loop": "a symbolic link loop (too many levels of symbolic links)",
        "dangling": f"a symbolic link to {tmp_path / 'gone'}, which does not exist",
        "directory": "a directory, not a file",
    }[what]
    if what == "loop":
        path.symlink_to(path)
    elif what == "dangling":
        path.symlink_to(tmp_path / "gone")
    elif what == "directory":
        path.mkdir()
    args = [a.format(p=path, d=tmp_path) for a in command]
    code, out, err = run(args, capsys)
    if what == "directory" and command[0] == "validate":  # a directory is what it checks
        assert code == 2 and err == f"ferrovia validate: {path}: no game.yaml found\n"
        return
    assert code == 2 and out == ""
    assert err.startswith(f"ferrovia {command[0]}: cannot read ") and err.endswith(
        f"{path}: {why}\n"
    )


@pytest.mark.parametrize("command", ["render", "resolve", "diff"])
def test_a_game_directory_that_is_a_link_loop_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    args = (
        [command, str(loop)] if command != "diff" else [command, str(GAMEDATA / "1858"), str(loop)]
    )
    code, _, err = run(args, capsys)
    assert code == 2
    assert err == (
        f"ferrovia {command}: cannot read game directory {loop}: a symbolic link loop"
        " (too many levels of symbolic links)\n"
    )


def test_a_chain_of_more_than_8_bases_names_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(GAMEDATA / "1858", tmp_path / "g0")
    for i in range(1, 11):
        (tmp_path / f"g{i}").mkdir()
        (tmp_path / f"g{i}" / "game.yaml").write_text(
            f"extends: '../g{i - 1}'\nname: g{i}\n", encoding="utf-8"
        )
    assert run(["validate", str(tmp_path / "g8")], capsys)[0] == 0  # 8 bases: fine
    (err,) = errors_of(tmp_path / "g9", capsys)
    assert err.startswith(
        f"{tmp_path}/g9/game.yaml:1:10: error: extends: a chain of more than 8 bases, the limit ("
    )
    code, _, err = run(["resolve", str(tmp_path / "g10")], capsys)
    assert code == 1 and "a chain of more than 8 bases, the limit" in err


def test_an_empty_players_list_says_so(export: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(export.read_text(encoding="utf-8"))
    data["players"] = []
    write_json(export, data)
    code, _, err = run(["replay", str(export)], capsys)
    assert code == 1
    assert err.endswith("error: players: expected 'players', a non-empty list, got an empty list\n")


@pytest.mark.parametrize("command", ["view", "render"])
def test_view_and_render_find_a_variant_by_its_title_as_replay_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    path = shared_path(
        "fixtures", "18xx.games", "1858Switzerland", "1858Switzerland_game_end_bank.json"
    )
    out = tmp_path / "out"
    args = (
        ["view", str(path), "-o", str(out)]
        if command == "view"
        else ["render", "--game", str(path), "-o", str(out)]
    )
    code, _, err = run(args, capsys)
    assert code == 0, err
    assert out.stat().st_size > 1000


def test_a_variants_log_survives_moving_with_its_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The log names the game, and the game directory relative to itself (no absolute path)."""
    here = tmp_path / "here"
    here.mkdir()
    shutil.copytree(GAMEDATA / "1858", here / "mine")
    log = here / "game.json"
    args = ["play", "--game", str(here / "mine"), "--max-actions", "20", "--log", str(log)]
    assert run(args, capsys)[0] == 0
    data = json.loads(log.read_text(encoding="utf-8"))
    assert data["title"] == "mine" and data["game_dir"] == "mine"
    assert str(tmp_path) not in log.read_text(encoding="utf-8")
    moved = tmp_path / "elsewhere"
    here.rename(moved)
    code, out, err = run(["replay", str(moved / "game.json")], capsys)
    assert code == 0, err
    assert out.startswith("game.json: 20 actions, in progress")
    # apart from its game, the log asks for --game-dir, and gets it
    (moved / "mine").rename(tmp_path / "mine")
    code, _, err = run(["replay", str(moved / "game.json")], capsys)
    assert code == 1 and "give --game-dir" in err
    args = ["replay", str(moved / "game.json"), "--game-dir", str(tmp_path / "mine")]
    assert run(args, capsys)[0] == 0


@pytest.mark.parametrize("value", ["../mine", "/tmp", "a/../../b"])
def test_a_log_game_dir_must_stay_beside_the_log(
    export: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    data = json.loads(export.read_text(encoding="utf-8"))
    data["game_dir"] = value
    write_json(export, data)
    line, col = position(export, '"game_dir": ')
    code, _, err = run(["replay", str(export)], capsys)
    assert code == 1
    assert err.startswith(
        f"ferrovia: {export}:{line}:{col + 12}: error: game_dir: expected a directory inside"
    )


def test_play_json_keeps_seconds_and_adds_timings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "--max-actions", "5", "--json"], capsys)
    doc = json.loads(out)
    assert code == 0 and isinstance(doc["seconds"], float)
    assert set(doc["timings"]) == {"load", "play"}
    assert abs(doc["timings"]["load"] + doc["timings"]["play"] - doc["seconds"]) < 0.01


# ------------------------------------------------------------------ the last resort
def test_a_bug_is_one_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import ferrovia.commands.validate

    def broken(args: Any) -> int:
        return {}["oops"]  # type: ignore[no-any-return]

    monkeypatch.setattr(ferrovia.commands.validate, "run", broken)
    monkeypatch.delenv("FERROVIA_TRACEBACK", raising=False)
    code, out, err = run(["validate"], capsys)
    assert code == 1 and out == ""
    assert err.startswith(
        "ferrovia validate: internal error: KeyError: 'oops' at test_bad_input.py:"
    )
    assert err.endswith("(this is a bug in Ferrovia; FERROVIA_TRACEBACK=1 shows the traceback)\n")


def test_schema_into_a_directory_that_holds_files_needs_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    code, _, err = run(["schema", "--out", str(tmp_path)], capsys)
    assert code == 2 and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    assert err.startswith(f"ferrovia schema: {tmp_path} already exists and is not empty")
    assert run(["schema", "--out", str(tmp_path), "--force"], capsys)[0] == 0
    assert (tmp_path / "map.schema.json").is_file() and (tmp_path / "notes.txt").is_file()


def test_routes_where_the_replay_stops_first_is_not_a_guess(
    export: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An 1858 game on the Swiss map stops at action 2: no position to value at action 300."""
    args = ["routes", "--game", str(export), "--at", "300", "--company", "AB"]
    code, out, err = run([*args, "--game-dir", str(GAMEDATA / "1858_switzerland")], capsys)
    assert code == 1 and out == ""
    assert err.startswith("ferrovia: the replay stopped before action 300: action 2 bid: ")
