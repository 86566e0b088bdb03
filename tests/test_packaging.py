"""The import package is ``ferrovia`` alone: no top-level ``engine``/``schemas``/``gamedata``.

The repository keeps its folders (engine/, schemas/, gamedata/); pyproject.toml maps them into
one package.  These tests guard the mapping: every folder that is a Python package is listed, and
running Ferrovia from a directory that has its own ``engine/`` or ``schemas/`` folder still
imports Ferrovia's modules (it failed with "cannot import name 'FILE_KINDS' from 'schemas'").
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _listed() -> tuple[list[str], dict[str, str]]:
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    st = conf["tool"]["setuptools"]
    return st["packages"], st["package-dir"]


def test_every_package_folder_is_listed() -> None:
    packages, dirs = _listed()
    found = {
        ".".join((name, *init.parent.relative_to(ROOT / folder).parts))
        for name, folder in dirs.items()
        for init in (ROOT / folder).rglob("__init__.py")
        if ".venv" not in init.parts
    }
    assert sorted(found) == sorted(packages)


def test_no_top_level_engine_or_schemas_is_installed() -> None:
    packages, dirs = _listed()
    assert all(p == "ferrovia" or p.startswith("ferrovia.") for p in packages)
    assert set(dirs) <= {p for p in packages}


def test_runs_from_a_directory_with_engine_and_schemas_folders(tmp_path: Path) -> None:
    for name in ("engine", "schemas", "gamedata"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text("raise ImportError('not ferrovia')\n")
    out = subprocess.run(
        [sys.executable, "-m", "ferrovia", "validate"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert "gamedata/1858: ok" in out.stdout or "1858: ok" in out.stdout
