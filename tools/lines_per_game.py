"""Lines of Python each game has of its own under ``engine/games/``: run it with
``python tools/lines_per_game.py``.

Prints the README's table (markdown).  A game is a rules name registered in
``ferrovia.games``; its code is its module's file, or its package's files less those that are
another game's module (1858 Switzerland's ``g1858/switzerland.py`` is not 1858's).  Everything
else is the generic core.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "engine" / "games"
TITLES = {
    "1830": "1830",
    "1858": "1858",
    "1858_india": "1858 India",
    "1858_switzerland": "1858 Switzerland",
}


def module_path(module: str) -> Path:
    """``ferrovia.games.g1858.switzerland`` -> engine/games/g1858/switzerland.py (or a
    package's folder)."""
    path = ROOT / "engine" / Path(*module.split(".")[1:])
    return path if path.is_dir() else path.with_suffix(".py")


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def per_game(modules: dict[str, str]) -> dict[str, tuple[Path, int]]:
    """Rules name -> (its code's path, its lines)."""
    paths = {name: module_path(m) for name, m in modules.items()}
    others = {p for p in paths.values() if p.is_file()}
    out: dict[str, tuple[Path, int]] = {}
    for name, path in paths.items():
        if path.is_dir():
            files = [f for f in sorted(path.rglob("*.py")) if f not in others]
            out[name] = (path, sum(lines(f) for f in files))
        else:
            out[name] = (path, lines(path))
    return out


def table(modules: dict[str, str]) -> str:
    rows = ["| game | code | lines |", "|---|---|---|"]
    for name, (path, n) in sorted(per_game(modules).items()):
        rel = path.relative_to(GAMES).as_posix() + ("/" if path.is_dir() else "")
        rows.append(f"| {TITLES.get(name, name)} | `{rel}` | {n} |")
    return "\n".join(rows)


def main() -> int:
    from ferrovia.games import _MODULES

    print(table(_MODULES))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
