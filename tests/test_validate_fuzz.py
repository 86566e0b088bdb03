"""Broken data never crashes validation: any edit gives DataErrors (or none), not a traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from ferrovia.data.validate import validate_game
from ferrovia.errors import DataError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "gamedata" / "1858"
FILES = ("game", "map", "tiles", "privates", "companies", "trains", "phases", "market", "options")
NOISE = [" ", ":", "-", "{", "}", "[", "]", "'", '"', "x", "9", "\n", "#", ",", "&", "*", "|"]


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    missing = [f for f in FILES if not (GAME / f"{f}.yaml").exists()]
    if missing:
        pytest.skip(f"gamedata/1858 not complete yet: {', '.join(missing)}")
    root = tmp_path_factory.mktemp("fuzz") / "gamedata"
    shutil.copytree(GAME, root / "1858")
    shutil.copytree(ROOT / "gamedata" / "tilesets", root / "tilesets")
    return root / "1858"


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    name=st.sampled_from([*FILES, "../tilesets/standard"]),
    where=st.floats(min_value=0, max_value=1, exclude_max=True),
    cut=st.integers(min_value=0, max_value=40),
    noise=st.sampled_from(["", *NOISE]),
)
def test_any_edit_gives_data_errors_not_a_crash(
    copy: Path, name: str, where: float, cut: int, noise: str
) -> None:
    path = copy / f"{name}.yaml"
    original = path.read_text(encoding="utf-8")
    at = int(where * len(original))
    path.write_text(original[:at] + noise + original[at + cut :], encoding="utf-8")
    try:
        result = validate_game(copy)
    finally:
        path.write_text(original, encoding="utf-8")
    assert all(isinstance(e, DataError) and e.line >= 1 and e.col >= 1 for e in result.errors)
    assert (result.definition is None) == bool(result.errors)
