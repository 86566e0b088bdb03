"""The README's lines-per-game table names every game's own code (tools/lines_per_game.py
prints it), and 1830 stays a small hook set on the generic core."""

from __future__ import annotations

import importlib.util
import re
from types import ModuleType

from conftest import ROOT
from ferrovia.games import _MODULES


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "lines_per_game", ROOT / "tools" / "lines_per_game.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rows(text: str) -> dict[str, str]:
    """Game -> its code's path, from a markdown table ``| game | `code` | lines |``."""
    return dict(re.findall(r"^\| ([^|]+?) \| `([^`]+)` \| [0-9]+ \|$", text, flags=re.M))


def test_the_readme_table_names_the_code_of_every_game() -> None:
    tool = _tool()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert _rows(readme) == _rows(tool.table(_MODULES))
    assert set(_rows(readme)) == {tool.TITLES[name] for name in _MODULES}


def test_a_variant_inside_a_package_is_counted_for_the_variant_only() -> None:
    counts = _tool().per_game(_MODULES)
    package, total = counts["1858"]
    files = sorted(package.rglob("*.py"))
    variants = ("1858_switzerland", "1858_india")
    for name in variants:
        own = ROOT / "engine" / "games" / "g1858" / f"{name.split('_')[1]}.py"
        assert own in files and counts[name][0] == own
    every = sum(len(f.read_text(encoding="utf-8").splitlines()) for f in files)
    assert total == every - sum(counts[name][1] for name in variants)


def test_1830_s_own_python_is_under_300_lines() -> None:
    assert _tool().per_game(_MODULES)["1830"][1] < 300
