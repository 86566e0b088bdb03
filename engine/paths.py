"""Where the bundled data lives, from a source checkout or an installed package alike."""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path


def package_dir(name: str) -> Path:
    """The folder of package ``name``, found without importing it (importlib.resources costs
    ~3 ms of imports per process, ferrovia.schemas all of pydantic) and the same folder
    ``importlib.resources.files`` names for a package installed as files."""
    spec = find_spec(name)
    if spec is None or not spec.submodule_search_locations:  # pragma: no cover - broken install
        raise ModuleNotFoundError(f"no package {name}")
    return Path(next(iter(spec.submodule_search_locations)))


def gamedata_root() -> Path:
    """The directory holding every bundled game (``gamedata/``)."""
    return package_dir("ferrovia.gamedata")


def schemas_json_dir() -> Path:
    """The directory of generated JSON Schema files (``schemas/json/``)."""
    return package_dir("ferrovia.schemas") / "json"


def shared_root() -> Path | None:
    """``../shared`` next to the project checkout, when present (tests and tools only)."""
    here = Path(__file__).resolve().parent.parent
    candidate = here.parent / "shared"
    return candidate if candidate.is_dir() else None
