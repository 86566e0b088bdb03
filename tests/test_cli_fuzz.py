"""Every command, fed random bad input, fails cleanly (issue #13, "bad input never hurts").

Three kinds of input: random bytes (as a game file, a tile list, a data file), random edits
of a copy of gamedata/1858 (cut, glue in noise: brackets, quotes, control and invisible
characters, negative and huge numbers, nulls) and random changes to a game file (a Ferrovia
log of a short random game: a field of an action or of the header replaced, removed, or of
another type).  The law, for every command: the exit code is 0, 1 or 2; a failure says
something; nothing escapes ``main`` (no traceback, no "internal error"); no input changes;
and no example runs away (an alarm stops a hang).  In-process through ``main`` and a few
examples each, so the whole file takes about a minute.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from ferrovia.cli import main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import GAMEDATA

FILES = ("game", "map", "tiles", "privates", "companies", "trains", "phases", "market", "options")
NOISE = [
    *" :-{}[]'\"x9\n#,&*|!%@`",
    "\x00",
    "\x1b",
    "\u200b",
    "\ufeff",
    "-2",
    "99999999999999999999",
    "null",
    "~",
    "[]",
    "{}",
    "&a",
    "*a",
    "!!binary",
    "\t",
    "é",
]
HANG = 120  # seconds: far beyond any command on these small inputs; only a hang gets here
# FERROVIA_FUZZ=N explores N random examples per test instead of the fixed dozen
EXPLORE = int(os.environ.get("FERROVIA_FUZZ", "0"))
SETTINGS = settings(
    max_examples=EXPLORE or 12,
    deadline=None,
    derandomize=not EXPLORE,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@contextlib.contextmanager
def alarm(seconds: int) -> Iterator[None]:
    def stop(signum: int, frame: Any) -> None:
        raise TimeoutError(f"no answer within {seconds} s: a hang")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def files_below(*paths: Path) -> dict[Path, bytes]:
    out: dict[Path, bytes] = {}
    for path in paths:
        for p in sorted(path.rglob("*")) if path.is_dir() else [path]:
            if p.is_file() and not p.is_symlink():
                out[p] = p.read_bytes()
    return out


def check(argv: list[str], *inputs: Path) -> int:
    """Run ``ferrovia ARGV`` and assert the law; the exit code."""
    before = files_below(*inputs)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), alarm(HANG):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse inside a subcommand
            code = int(exc.code or 0)
    said = err.getvalue()
    assert "internal error" not in said and "Traceback" not in said, said
    assert code in (0, 1, 2), (code, said)
    if code:
        assert (said + out.getvalue()).strip(), f"exit {code} without a message"
    assert files_below(*inputs) == before, "an input changed"
    return code


# ---------------------------------------------------------------------- inputs
@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("clifuzz")
    shutil.copytree(GAMEDATA / "1858", root / "gamedata" / "1858")
    shutil.copytree(GAMEDATA / "tilesets", root / "gamedata" / "tilesets")
    (root / "out").mkdir()
    return root


@lru_cache(maxsize=1)
def short_log() -> str:
    """A Ferrovia log of a short random 1858 game (auction and first stock round)."""
    from ferrovia.play.selfplay import play

    return json.dumps(play(4, 3, (), 40).log, indent=1)


def game_file_commands(path: Path, out: Path) -> list[list[str]]:
    return [
        ["replay", str(path)],
        ["replay", str(path), "--json", "--until", "10"],
        ["view", str(path), "-o", str(out / "v.html")],
        ["render", "--game", str(path), "-o", str(out / "s.svg")],
        ["routes", "--game", str(path), "--at", "20", "--company", "MZA"],
    ]


def data_commands(game: Path, out: Path) -> list[list[str]]:
    return [
        ["validate", str(game)],
        ["resolve", str(game)],
        ["resolve", str(game), "-o", str(out / "flat"), "--force"],
        ["diff", str(GAMEDATA / "1858"), str(game)],
        ["render", str(game), "-o", str(out / "m.svg")],
        ["render", str(game), "--tiles", "-o", str(out / "t.svg")],
        ["play", "--game", str(game), "--max-actions", "5", "--players", "3"],
    ]


# ---------------------------------------------------------------------- random bytes
@SETTINGS
@given(raw=st.binary(max_size=300), which=st.integers(min_value=0, max_value=4))
def test_random_bytes_as_a_game_file(work: Path, raw: bytes, which: int) -> None:
    path = work / "bytes.json"
    path.write_bytes(raw)
    code = check(game_file_commands(path, work / "out")[which], path)
    assert code != 0 or raw.strip().startswith(b"{")


@SETTINGS
@given(
    raw=st.binary(max_size=200) | st.text(max_size=120).map(str.encode),
    action=st.sampled_from(["check", "format"]),
    strict=st.booleans(),
)
def test_random_bytes_as_tile_codes(work: Path, raw: bytes, action: str, strict: bool) -> None:
    path = work / "codes.txt"
    path.write_bytes(raw)
    check(["tiles", action, str(path), *(["--strict"] if strict else [])], path)


@SETTINGS
@given(
    raw=st.binary(max_size=200),
    name=st.sampled_from(FILES),
    which=st.integers(min_value=0, max_value=6),
)
def test_random_bytes_as_a_data_file(work: Path, raw: bytes, name: str, which: int) -> None:
    game = work / "gamedata" / "1858"
    path = game / f"{name}.yaml"
    original = path.read_bytes()
    path.write_bytes(raw)
    argv = data_commands(game, work / "out")[which]
    try:
        code = check(argv, game)
    finally:
        path.write_bytes(original)
    # an options file may hold nothing; every other file must hold its part (render too: it
    # draws only data that validates)
    assert code != 0 or name == "options"


# ---------------------------------------------------------------------- YAML mutations
@SETTINGS
@given(
    name=st.sampled_from(FILES),
    where=st.floats(min_value=0, max_value=1, exclude_max=True),
    cut=st.integers(min_value=0, max_value=30),
    noise=st.lists(st.sampled_from(NOISE), max_size=3).map("".join),
    which=st.integers(min_value=0, max_value=6),
)
def test_random_edits_of_game_data(
    work: Path, name: str, where: float, cut: int, noise: str, which: int
) -> None:
    game = work / "gamedata" / "1858"
    path = game / f"{name}.yaml"
    original = path.read_text(encoding="utf-8")
    at = int(where * len(original))
    path.write_text(original[:at] + noise + original[at + cut :], encoding="utf-8")
    try:
        check(data_commands(game, work / "out")[which], game)
    finally:
        path.write_text(original, encoding="utf-8")


# ---------------------------------------------------------------------- game-file mutations
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from(["1", "MZA", "A", "pass", "bid", "lay_tile", "../..", "\u200b", "\x00"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


@SETTINGS
@given(
    index=st.integers(min_value=-1, max_value=39),
    key=st.sampled_from(
        [
            "type",
            "entity",
            "entity_type",
            "id",
            "price",
            "company",
            "shares",
            "hex",
            "tile",
            "rotation",
            "city",
            "title",
            "players",
            "settings",
            "actions",
            "game_dir",
            "format",
        ]
    ),
    value=JSON_VALUES,
    remove=st.booleans(),
    which=st.integers(min_value=0, max_value=4),
)
def test_random_changes_to_a_game_file(
    work: Path, index: int, key: str, value: Any, remove: bool, which: int
) -> None:
    data = json.loads(short_log())
    target = data if index < 0 else data["actions"][index % len(data["actions"])]
    if remove:
        target.pop(key, None)
    else:
        target[key] = value
    path = work / "changed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    check(game_file_commands(path, work / "out")[which], path, work / "gamedata")
