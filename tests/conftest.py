"""Shared test helpers: where ``../shared`` is, and a skip when it is absent."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings

# Property and fuzz tests draw the same examples on every run unless asked to explore, so a
# landing never fails on an example nobody has seen; `HYPOTHESIS_PROFILE=explore` searches
# afresh each run (and hypothesis prints the seed of anything it finds).
settings.register_profile("default", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
GAMEDATA = ROOT / "gamedata"


def shared_path(*parts: str) -> Path:
    """A path under ``../shared``; skips the calling test when it is not there."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs ../shared/{'/'.join(parts)} (the project's shared data), absent here")
    return path


@pytest.fixture
def gamedata_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of gamedata/1858 and the tile sets in tmp_path, which becomes the working
    directory, so reported paths are relative (``gamedata/1858/map.yaml:...``)."""
    shutil.copytree(GAMEDATA / "1858", tmp_path / "gamedata" / "1858")
    shutil.copytree(GAMEDATA / "tilesets", tmp_path / "gamedata" / "tilesets")
    monkeypatch.chdir(tmp_path)
    return Path("gamedata/1858")


@pytest.fixture
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip("needs ../shared (the project's shared data), absent here")
    return SHARED
