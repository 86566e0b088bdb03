"""On-disk cache of validated game definitions, so a command does not re-parse and re-check
unchanged YAML (the round-trip parse with positions is most of a load).

An entry is a pickle under ``$FERROVIA_CACHE_DIR``, else ``$XDG_CACHE_HOME/ferrovia``, else
``~/.cache/ferrovia``, named by a hash of the game directory, the Python version and the engine's
own source files (path, size, modification time).  It records the directories the definition was
read from (the game, the bases it extends, the tile-set directories) with the name and SHA-256 of
every ``*.yaml`` file in them; it is used only while all of them are unchanged, so editing,
adding or removing a data file, or changing the engine, means a full load and check again.  Only
definitions that validated without error are stored.  Any problem with the cache (unwritable
directory, corrupt or foreign entry) is silent: the game is then loaded the ordinary way.
``FERROVIA_NO_CACHE=1`` turns it off.  Each write keeps the directory to the newest
:data:`KEEP` entries, so editing the engine or loading many scratch variants does not pile up
files (a session of tests and edits left 600 entries, 61 MB, before this bound).
"""

from __future__ import annotations

import copyreg
import os
import pickle
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ferrovia.paths import package_dir

if TYPE_CHECKING:
    from ferrovia.data.definition import GameDefinition

# SHA-256 from CPython's own module where it has one, as the standard library's random does
# for SHA-512: hashlib loads OpenSSL first (~3 ms of every cache-hit process); same digests
try:
    from _sha2 import sha256  # type: ignore[import-not-found,unused-ignore]  # Python >= 3.12
except ImportError:
    try:
        from _sha256 import sha256  # type: ignore[import-not-found,no-redef,unused-ignore]
    except ImportError:  # a Python built without them
        from hashlib import sha256  # type: ignore[assignment,no-redef,unused-ignore]

_FORMAT = 1

#: entries kept in the cache directory; older ones (by modification time, which a hit renews)
#: are removed when a new entry is written.  Enough for every bundled game and a designer's
#: working set of variants, each under two engine versions.
KEEP = 32


def _mappingproxy(d: dict[Any, Any]) -> types.MappingProxyType[Any, Any]:
    return types.MappingProxyType(d)


# read-only views inside the definition pickle as the dict they show
copyreg.pickle(types.MappingProxyType, lambda m: (_mappingproxy, (dict(m),)))


def cache_dir() -> Path | None:
    """Where entries go; None when caching is off."""
    if os.environ.get("FERROVIA_NO_CACHE"):
        return None
    explicit = os.environ.get("FERROVIA_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "ferrovia"


_ENGINE: str | None = None


def engine_fingerprint() -> str:
    """Hash of the engine and schema sources (path, size, mtime) and the Python version."""
    global _ENGINE
    if _ENGINE is None:
        h = sha256(f"{_FORMAT} {sys.version}".encode())

        # the package's own folders, wherever it is installed (engine/ and schemas/ in a checkout)
        for root in (Path(__file__).resolve().parent, package_dir("ferrovia.schemas")):
            files: list[tuple[str, int, int]] = []
            _python_files(str(root), root.name, files)
            for name, size, mtime in sorted(files):
                h.update(f"{name} {size} {mtime}\n".encode())
        _ENGINE = h.hexdigest()
    return _ENGINE


def _python_files(folder: str, shown: str, out: list[tuple[str, int, int]]) -> None:
    """(path under the root, size, mtime) of every ``*.py`` file below ``folder``: with
    os.scandir, whose entries carry their stat on Linux (Path.rglob and a stat per file took
    ~3 ms per process, a first replay pays it)."""
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir():
                if entry.name != "__pycache__":
                    _python_files(entry.path, f"{shown}/{entry.name}", out)
            elif entry.name.endswith(".py"):
                st = entry.stat()
                out.append((f"{shown}/{entry.name}", st.st_size, st.st_mtime_ns))


def _dir_state(directory: Path) -> tuple[tuple[str, str], ...]:
    """(name, SHA-256) of every ``*.yaml`` file in ``directory`` (empty if it is absent)."""
    if not directory.is_dir():
        return ()
    return tuple(
        (f.name, sha256(f.read_bytes()).hexdigest()) for f in sorted(directory.glob("*.yaml"))
    )


def _source_dirs(game_dir: Path) -> list[Path]:
    from ferrovia.data.overlay import game_chain
    from ferrovia.paths import gamedata_root

    dirs = [d.resolve() for d, _ in game_chain(game_dir)]
    dirs += [d.parent / "tilesets" for d in list(dirs)]
    dirs.append((gamedata_root() / "tilesets").resolve())
    return list(dict.fromkeys(dirs))


def _entry_path(root: Path, game_dir: Path, shown: str) -> Path:
    key = sha256(f"{game_dir.resolve()}\0{shown}\0{engine_fingerprint()}".encode())
    return root / f"definition-{key.hexdigest()[:32]}.pickle"


#: str(game dir) -> (the entry's source folders and their states, definition): the definition
#: read in this process, kept while its files are unchanged (a definition is immutable), so a
#: second replay of the same game does not unpickle it again (~6.5 ms, ~3% of a warm replay)
_IN_PROCESS: dict[str, tuple[Any, GameDefinition]] = {}


def cached_definition(path: Path, load: Callable[[Path], GameDefinition]) -> GameDefinition:
    """``load(path)``, or the stored result of it while nothing it was read from changed."""
    root = cache_dir()
    if root is None:
        return load(path)
    held = _IN_PROCESS.get(str(path))
    if held is not None and all(_dir_state(Path(d)) == tuple(state) for d, state in held[0]):
        return held[1]
    try:
        entry_file = _entry_path(root, path, str(path))
        with entry_file.open("rb") as fh:
            entry = pickle.load(fh)
        if all(_dir_state(Path(d)) == tuple(state) for d, state in entry["dirs"]):
            definition: GameDefinition = entry["definition"]
            _IN_PROCESS[str(path)] = (entry["dirs"], definition)
            _touch(entry_file)
            return definition
    except Exception:  # no entry, unreadable or stale format: load normally
        pass
    definition = load(path)  # raises DataErrors for bad data: never stored
    try:
        dirs = [(str(d), _dir_state(d)) for d in _source_dirs(path)]
        _IN_PROCESS[str(path)] = (dirs, definition)
        blob = pickle.dumps(
            {"dirs": dirs, "definition": definition}, protocol=pickle.HIGHEST_PROTOCOL
        )
        import tempfile  # only on a write: a cache hit does not pay for importing it

        root.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=root, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(blob)
            os.replace(tmp, entry_file)  # atomic: a concurrent reader sees old or new, whole
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        _prune(root, KEEP)
    except Exception:  # unwritable cache, unpicklable definition: the result is still good
        pass
    return definition


def _touch(entry_file: Path) -> None:
    """Mark an entry as used now, so pruning keeps the entries in use, not just the newest."""
    try:
        os.utime(entry_file)
    except OSError:  # a read-only cache still serves its entries
        pass


def _prune(root: Path, keep: int) -> None:
    """Remove all but the ``keep`` most recently used entries of ``root`` (best effort: an
    entry another process removes or replaces meanwhile is simply skipped)."""
    entries: list[tuple[int, Path]] = []
    for f in root.glob("definition-*.pickle"):
        try:
            entries.append((f.stat().st_mtime_ns, f))
        except OSError:
            continue
    entries.sort(reverse=True)
    for _, f in entries[keep:]:
        try:
            f.unlink()
        except OSError:
            pass
