"""Follow-ups to the QA findings (docs/RULES.md, "QA findings"): a broken ``extends`` chain is
one positioned error in validate, resolve and diff alike; a file resolve cannot read is
reported as validate reports it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from ferrovia.cli import main
from ferrovia.data.validate import validate_game
from ferrovia.paths import gamedata_root

GAME = gamedata_root() / "1858"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    except BaseException as exc:  # a traceback is exactly what must not happen
        pytest.fail(f"ferrovia {' '.join(argv)} raised {type(exc).__name__}: {exc}")
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def shown(path: Path) -> str:
    """A path as messages show it: below the working directory relative, else absolute."""
    path = path.resolve()
    return str(path.relative_to(Path.cwd())) if path.is_relative_to(Path.cwd()) else str(path)


def copy_with_extends(tmp_path: Path, name: str, extends: str) -> Path:
    """A full copy of 1858 whose game.yaml says ``extends: EXTENDS`` on line 2 (after name:);
    with every file present, nothing but the ``extends`` can be wrong."""
    game = tmp_path / name
    game.mkdir()
    for f in GAME.glob("*.yaml"):
        shutil.copy(f, game / f.name)
    text = (GAME / "game.yaml").read_text(encoding="utf-8")
    body = "\n".join(line for line in text.splitlines() if not line.startswith("name:"))
    (game / "game.yaml").write_text(f"name: {name}\nextends: {extends}\n{body}\n", "utf-8")
    return game


def cycle(tmp_path: Path) -> tuple[Path, Path]:
    return (
        copy_with_extends(tmp_path, "a", "'../b'"),
        copy_with_extends(tmp_path, "b", "'../a'"),
    )


def test_an_extends_cycle_is_one_error_naming_the_chain(tmp_path: Path) -> None:
    a, b = cycle(tmp_path)
    errors = [str(e) for e in validate_game(a).errors]
    assert errors == [f"{a}/game.yaml:2:10: error: extends: a cycle of bases: {a} -> {b} -> {a}"]


def test_a_cycle_further_down_the_chain_is_named_from_the_game_asked_about(
    tmp_path: Path,
) -> None:
    top = copy_with_extends(tmp_path, "top", "'../a'")
    a, b = cycle(tmp_path)
    errors = [str(e) for e in validate_game(top).errors]
    assert errors == [
        f"{top}/game.yaml:2:10: error: extends: a cycle of bases: {top} -> {a} -> {b} -> {a}"
    ]


@pytest.mark.parametrize(
    ("extends", "message"),
    [
        ("'../b'", "extends: a cycle of bases: {a} -> {b} -> {a}"),
        ("'.'", "extends: the game extends itself"),
        ("[1, 2]", "'extends' must name a base game directory, got a list"),
        ("nothere", "extends: no game 'nothere' ({gamedata}/nothere/game.yaml)"),  # as shown
    ],
    ids=["cycle", "itself", "list", "missing"],
)
@pytest.mark.parametrize("command", ["validate", "resolve", "diff"])
def test_resolve_and_diff_of_a_broken_extends_fail_with_validates_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, extends: str, message: str
) -> None:
    game = copy_with_extends(tmp_path, "a", extends)
    b = copy_with_extends(tmp_path, "b", "'../a'")
    expected = f"{game}/game.yaml:2:10: error: " + message.format(
        a=game, b=b, gamedata=shown(gamedata_root())
    )
    argv = {"validate": [str(game)], "resolve": [str(game)], "diff": [str(GAME), str(game)]}
    code, out, err = run([command, *argv[command]], capsys)
    assert code == 1
    if command == "validate":
        assert out.splitlines()[0] == expected  # then the summary line
    else:
        assert out == "" and err == expected + "\n"  # not the unmerged files


def test_resolve_of_an_unreadable_map_says_what_validate_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "g"
    game.mkdir()
    for f in GAME.glob("*.yaml"):
        if f.name != "map.yaml":
            shutil.copy(f, game / f.name)
    (game / "map.yaml").symlink_to("map.yaml")  # a link to itself: a loop
    [reported] = [str(e) for e in validate_game(game).errors]
    assert reported.startswith(f"{game}/map.yaml:1:1: error: cannot read file: [Errno 40] ")
    code, out, err = run(["resolve", str(game)], capsys)
    assert code == 1 and out == "" and err == reported + "\n"


def test_a_variant_of_a_base_with_an_unreadable_map_names_the_base_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = tmp_path / "base"
    base.mkdir()
    for f in GAME.glob("*.yaml"):
        if f.name != "map.yaml":
            shutil.copy(f, base / f.name)
    (base / "map.yaml").symlink_to("map.yaml")
    variant = tmp_path / "v"
    variant.mkdir()
    (variant / "game.yaml").write_text("extends: '../base'\nname: v\n", encoding="utf-8")
    code, out, err = run(["resolve", str(variant)], capsys)
    assert code == 1 and out == ""
    assert err.startswith(f"{base}/map.yaml:1:1: error: cannot read file: [Errno 40] ")


def test_a_bundle_naming_one_certificate_twice_is_a_format_error() -> None:
    # Found by the action fuzz test: ['TBF_5', 'TBF_5'] reached the share transfer and
    # failed there with an IndexError (rule 'engine').
    from ferrovia.errors import IllegalAction
    from ferrovia.lib18xx.actions import action_from_json

    wire = {"type": "buy_shares", "entity": 7, "id": 898, "shares": ["TBF_5", "TBF_5"]}
    with pytest.raises(IllegalAction) as info:
        action_from_json(wire)
    assert info.value.rule == "action format"
    assert info.value.index == 898
    assert "names a certificate twice" in str(info.value)
