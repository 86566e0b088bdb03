"""What a command reads and where it writes: checked before any work is done.

Every command goes through here for the paths given on its command line, so the rules hold
for all of them alike:

* an input path that is not a readable file (or game directory) is a usage error (exit 2)
  that says why: missing, a directory, a symbolic link loop, a dangling link, no permission;
* no output is one of the command's inputs (compared as resolved files: the game file, every
  data file of the game and of the bases it extends, its tile set), even with ``--force``;
* an output is written to a temporary file in the target directory and renamed into place,
  so a failure leaves the old file (or nothing), never a partial one;
* writing into an existing, non-empty directory needs ``--force`` (files of the same name
  are replaced, others are left alone); a new directory appears whole or not at all.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from ferrovia.errors import UsageError

__all__ = [
    "Inputs",
    "check_dir",
    "check_file",
    "game_directory",
    "readable_file",
    "write_dir",
    "write_file",
]


# ---------------------------------------------------------------------- inputs
def _why_unreadable(path: Path) -> str | None:
    """Why ``path`` cannot be read as a file (None: it can)."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link loop (too many levels of symbolic links)"
        if exc.errno == errno.ENOENT:
            if path.is_symlink():
                return f"a symbolic link to {os.readlink(path)}, which does not exist"
            return "no such file"
        if exc.errno == errno.ENOTDIR:
            return "no such file (a part of the path is not a directory)"
        return exc.strerror or str(exc)
    except ValueError:  # a NUL in the name
        return "not a valid file name"
    if path.is_dir():
        return "a directory, not a file"
    if not os.access(path, os.R_OK):
        return "permission denied"
    return None


def readable_file(path: Path | str, what: str = "") -> Path:
    """``path`` if it is a file that can be read; else a :class:`UsageError` saying why."""
    path = Path(path)
    problem = _why_unreadable(path)
    if problem is not None:
        raise UsageError(f"cannot read {what + ' ' if what else ''}{path}: {problem}")
    return path


def game_directory(path: Path | str) -> Path:
    """``path`` if it is a game directory (holding a readable ``game.yaml``); else why not."""
    path = Path(path)
    try:
        os.stat(path)
    except OSError:
        problem = _why_unreadable(path) or "cannot be read"
        problem = problem.replace("no such file", "no such directory", 1)
        raise UsageError(f"cannot read game directory {path}: {problem}") from None
    except ValueError:
        raise UsageError(f"cannot read game directory {path}: not a valid name") from None
    if not path.is_dir():
        raise UsageError(f"{path} is a file, not a game directory (one holding game.yaml)")
    game = path / "game.yaml"
    if not (game.exists() or game.is_symlink()):
        raise UsageError(f"{path} is not a game directory: it has no game.yaml")
    return path


class Inputs:
    """The files a command reads, to refuse an output that would overwrite one of them."""

    def __init__(self, *paths: Path | str) -> None:
        self.files: list[Path] = []
        self.dirs: list[Path] = []
        for p in paths:
            self.add(p)

    def add(self, path: Path | str) -> None:
        self.files.append(Path(path))

    def add_game(self, game_dir: Path | str) -> None:
        """Every data file of a game and of each base it extends, and its tile sets."""
        from ferrovia.data.overlay import game_chain
        from ferrovia.paths import gamedata_root

        try:
            chain = [d for d, _ in game_chain(Path(game_dir))]
        except (OSError, ValueError):
            chain = [Path(game_dir)]
        for directory in chain:
            self.dirs.append(directory)
            for pattern in ("*.yaml", "*.yml", "*/*.yaml", "*/*.yml"):
                self.files.extend(_glob(directory, pattern))
            self.files.extend(_glob(directory.parent / "tilesets", "*.yaml"))
        self.files.extend(_glob(gamedata_root() / "tilesets", "*.yaml"))

    def clash(self, target: Path) -> Path | None:
        """The input that writing ``target`` would overwrite, if any."""
        return next((p for p in self.files if _same(p, target)), None)

    def game_dir_clash(self, target: Path) -> Path | None:
        return next((d for d in self.dirs if _same(d, target)), None)


def _glob(directory: Path, pattern: str) -> Iterable[Path]:
    try:
        return list(directory.glob(pattern))
    except OSError:
        return []


def _same(a: Path, b: Path) -> bool:
    """Whether two paths name the same file (hard links and symbolic links included)."""
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
        return a.resolve() == b.resolve()
    except (OSError, RuntimeError, ValueError):
        return os.path.abspath(a) == os.path.abspath(b)


# ---------------------------------------------------------------------- outputs
def check_file(target: Path | str, inputs: Inputs | None = None) -> Path:
    """Whether ``target`` can be written as an output file: refused (UsageError) when it is
    an input, a directory, or in a directory that does not exist or cannot be written."""
    target = Path(target)
    clash = inputs.clash(target) if inputs is not None else None
    if clash is not None:
        raise UsageError(f"refusing to write {target}: it is an input of this command ({clash})")
    if target.is_dir():
        raise UsageError(f"cannot write {target}: it is a directory; give a file name")
    parent = target.parent
    if not parent.is_dir():
        what = "does not exist" if not parent.exists() else "is not a directory"
        raise UsageError(f"cannot write {target}: the directory {parent} {what}")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"cannot write {target}: the directory {parent} is not writable")
    return target


def check_dir(
    target: Path | str,
    names: Iterable[str],
    inputs: Inputs | None = None,
    *,
    force: bool = False,
) -> Path:
    """Whether files ``names`` can be written into directory ``target`` (created if new)."""
    target = Path(target)
    if inputs is not None:
        game = inputs.game_dir_clash(target)
        if game is not None:
            raise UsageError(
                f"refusing to write into {target}: it is the game directory being read ({game})"
            )
        for name in names:
            clash = inputs.clash(target / name)
            if clash is not None:
                raise UsageError(
                    f"refusing to write {target / name}: it is an input of this command ({clash})"
                )
    if target.exists() or target.is_symlink():
        if not target.is_dir():
            raise UsageError(f"cannot write into {target}: it is not a directory")
        if any(target.iterdir()) and not force:
            raise UsageError(
                f"{target} already exists and is not empty; give --force to write into it"
                " (files of the same name are replaced, others left alone)"
            )
        if not os.access(target, os.W_OK | os.X_OK):
            raise UsageError(f"cannot write into {target}: it is not writable")
        return target
    parent = target.parent
    if not parent.is_dir():
        what = "does not exist" if not parent.exists() else "is not a directory"
        raise UsageError(f"cannot create {target}: the directory {parent} {what}")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"cannot create {target}: the directory {parent} is not writable")
    return target


def _umask_mode(mode: int) -> int:
    current = os.umask(0)
    os.umask(current)
    return mode & ~current


def write_file(target: Path | str, text: str, inputs: Inputs | None = None) -> None:
    """Write ``text`` to ``target`` through a temporary file renamed into place."""
    target = check_file(target, inputs)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        try:
            mode = target.stat().st_mode & 0o7777 if target.exists() else _umask_mode(0o666)
            os.chmod(tmp, mode)
        except OSError:
            pass  # the mode is a nicety; the content is what matters
        os.replace(tmp, target)
    except OSError as exc:
        _discard(tmp)
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    except BaseException:
        _discard(tmp)
        raise


def write_dir(
    target: Path | str,
    files: Mapping[str, str],
    inputs: Inputs | None = None,
    *,
    force: bool = False,
) -> None:
    """Write ``files`` (name -> text) into directory ``target``.  A new directory is built
    beside it and renamed into place; an existing one (``force``) gets each file replaced
    through a temporary file."""
    target = check_dir(target, files, inputs, force=force)
    if target.is_dir():
        for name, text in files.items():
            write_file(target / name, text, inputs)
        return
    tmp = tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        for name, text in files.items():
            with open(os.path.join(tmp, name), "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
            os.chmod(os.path.join(tmp, name), _umask_mode(0o666))
        os.chmod(tmp, _umask_mode(0o777))
        os.rename(tmp, target)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _discard(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
