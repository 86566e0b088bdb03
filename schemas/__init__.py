"""Pydantic models of every YAML file kind under ``gamedata/``.

``FILE_KINDS`` maps each kind (the ``KIND`` in ``schemas/json/KIND.schema.json`` and the file
``gamedata/<game>/KIND.yaml``; the tile set is ``gamedata/tilesets/<name>.yaml``) to its model.
The JSON Schema files generated from them live in ``schemas/json/`` (``ferrovia schema``).
"""

from __future__ import annotations

import json
from typing import Any

from ferrovia.schemas.base import field_descriptions
from ferrovia.schemas.companies import CompaniesFile
from ferrovia.schemas.game import GameFile
from ferrovia.schemas.map import MapFile
from ferrovia.schemas.market import MarketFile
from ferrovia.schemas.options import OptionsFile
from ferrovia.schemas.phases import PhasesFile
from ferrovia.schemas.privates import PrivatesFile
from ferrovia.schemas.tiles import TilesFile
from ferrovia.schemas.tileset import TilesetFile
from ferrovia.schemas.trains import TrainsFile
from pydantic import BaseModel

FILE_KINDS: dict[str, type[BaseModel]] = {
    "game": GameFile,
    "map": MapFile,
    "tiles": TilesFile,
    "tileset": TilesetFile,
    "privates": PrivatesFile,
    "companies": CompaniesFile,
    "trains": TrainsFile,
    "phases": PhasesFile,
    "market": MarketFile,
    "options": OptionsFile,
}


def json_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one file kind, as a dict."""
    field_descriptions()  # the fields' docstrings, read only when a schema is made
    schema = FILE_KINDS[kind].model_json_schema(by_alias=True)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


def json_schema_text(kind: str) -> str:
    """The JSON Schema of one file kind, formatted exactly as committed in ``schemas/json/``."""
    return json.dumps(json_schema(kind), indent=2, ensure_ascii=False, sort_keys=False) + "\n"


__all__ = [
    "FILE_KINDS",
    "CompaniesFile",
    "GameFile",
    "MapFile",
    "MarketFile",
    "OptionsFile",
    "PhasesFile",
    "PrivatesFile",
    "TilesFile",
    "TilesetFile",
    "TrainsFile",
    "json_schema",
    "json_schema_text",
]
