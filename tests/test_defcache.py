"""The on-disk definition cache (engine/data/defcache.py): a hit is the same definition, any change
to a data file is seen, and a cache that cannot be written or read never gets in the way."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import shared_path
from ferrovia.data import defcache
from ferrovia.data.definition import load_game
from ferrovia.errors import DataErrors
from ferrovia.paths import gamedata_root


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FERROVIA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("FERROVIA_NO_CACHE", raising=False)
    dst = tmp_path / "games" / "1858"
    shutil.copytree(gamedata_root() / "1858", dst)
    return dst


def _set_title(game: Path, title: str) -> None:
    path = game / "game.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("title: '1858: The Railways of Iberia'", f"title: '{title}'"), "utf-8"
    )


def test_second_load_is_served_from_the_cache_and_equal(game: Path, tmp_path: Path) -> None:
    first = load_game(game)
    assert len(list((tmp_path / "cache").glob("definition-*.pickle"))) == 1
    calls: list[Path] = []
    second = defcache.cached_definition(game, lambda p: calls.append(p) or load_game(p))
    assert calls == []  # not loaded again
    assert second == first
    assert second.game.title == "1858: The Railways of Iberia"


def test_an_edited_file_is_loaded_afresh(game: Path) -> None:
    load_game(game)
    _set_title(game, "Iberia edited")
    assert load_game(game).game.title == "Iberia edited"


def test_a_new_file_in_the_game_directory_is_seen(game: Path) -> None:
    load_game(game)
    (game / "notes.yaml").write_text("a: 1\n", "utf-8")
    calls: list[Path] = []
    defcache.cached_definition(game, lambda p: calls.append(p) or load_game(p))
    assert calls == [game]


def test_bad_data_is_never_cached(game: Path) -> None:
    load_game(game)
    (game / "market.yaml").write_text("nonsense: [\n", "utf-8")
    with pytest.raises(DataErrors) as err:
        load_game(game)
    assert "market.yaml" in str(err.value)
    with pytest.raises(DataErrors):  # and again: the error is not remembered as a result
        load_game(game)


def test_unwritable_or_corrupt_cache_falls_back(
    game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x", "utf-8")
    monkeypatch.setenv("FERROVIA_CACHE_DIR", str(blocker / "cache"))
    assert load_game(game).game.name == "1858"
    monkeypatch.setenv("FERROVIA_CACHE_DIR", str(tmp_path / "cache2"))
    load_game(game)
    for entry in (tmp_path / "cache2").glob("definition-*.pickle"):
        entry.write_bytes(b"not a pickle")
    assert load_game(game).game.name == "1858"


def test_no_cache_switch(game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FERROVIA_NO_CACHE", "1")
    load_game(game)
    assert not (tmp_path / "cache").exists()


def test_the_cache_keeps_only_the_most_recently_used_entries(
    game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write prunes the directory to the KEEP most recently used entries; a hit renews its
    entry, so a game in use outlives games loaded once after it."""
    monkeypatch.setattr(defcache, "KEEP", 2)
    cache = tmp_path / "cache"
    others = []
    for n in range(3):
        other = tmp_path / "games" / f"v{n}"
        shutil.copytree(game, other)
        others.append(other)

    def entry(g: Path) -> Path:
        return defcache._entry_path(cache, g, str(g))

    def stored() -> set[Path]:
        return set(cache.glob("definition-*.pickle"))

    load_game(game)
    load_game(others[0])
    assert stored() == {entry(game), entry(others[0])}
    defcache._IN_PROCESS.clear()  # the next load is a hit on disk, which renews the entry
    load_game(game)
    load_game(others[1])  # the third entry: the least recently used one goes
    assert stored() == {entry(game), entry(others[1])}
    load_game(others[2])
    assert stored() == {entry(others[1]), entry(others[2])}


_HIT_REPLAY = """
import sys
from pathlib import Path
from ferrovia.play.replay import load_export, replay
res = replay(load_export(Path(sys.argv[1])))
heavy = ("lark", "ruamel.yaml", "ferrovia.data.loader", "ferrovia.data.overlay",
"ferrovia.data.validate",
         "ferrovia.notation.parser", "importlib.metadata", "pydantic", "pydantic_core",
         "ferrovia.schemas", "importlib.resources", "tempfile", "hashlib")
loaded = [m for m in heavy if m in sys.modules]
from ferrovia.schemas.base import Model, _models
built = sorted(m.__name__ for m in _models(Model) if m.__pydantic_complete__)
print(res.state.finished, built, loaded)
"""


def test_a_replay_served_from_the_cache_needs_no_parser_loader_or_validator(
    tmp_path: Path,
) -> None:
    # what a command pays on a cache hit: the definition is read whole from the pickle, so the
    # YAML loader, the tile grammar and pydantic's validators (and its plugin scan) stay
    # unloaded; the definition holds records (ferrovia.data.records), so pydantic and the schema
    # models are not imported at all (~0.08 s, a quarter of a first replay)
    fixture = shared_path("fixtures", "18xx.games", "1858", "1858-quick-start-a.json")
    env = {**os.environ, "FERROVIA_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("FERROVIA_NO_CACHE", None)
    run = [sys.executable, "-c", _HIT_REPLAY, str(fixture)]
    subprocess.run(run, env=env, check=True, capture_output=True)  # a miss: loads and stores
    out = subprocess.run(run, env=env, check=True, capture_output=True, text=True)
    assert out.stdout.split() == ["True", "[]", "[]"]
