"""Where the bundled data lives, from a source checkout or an installed package alike."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def gamedata_root() -> Path:
    """The directory holding every bundled game (``gamedata/``)."""
    return Path(str(resources.files("ferrovia.gamedata")))


def schemas_json_dir() -> Path:
    """The directory of generated JSON Schema files (``schemas/json/``)."""
    return Path(str(resources.files("ferrovia.schemas"))) / "json"


def shared_root() -> Path | None:
    """``../shared`` next to the project checkout, when present (tests and tools only)."""
    here = Path(__file__).resolve().parent.parent
    candidate = here.parent / "shared"
    return candidate if candidate.is_dir() else None
