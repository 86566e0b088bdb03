"""JSON Schemas for a variant's files (overlays), so editors check them without false alarms.

A variant's file says only what differs from its base (:mod:`ferrovia.data.overlay`), so the full
schema of its kind would flag every field it leaves out.  The overlay schema of a kind is the
full one with:

* no field required, except the natural key of an entry of a keyed list (a private's
  ``symbol``, a train's ``name``...), which says which base entry it changes;
* ``~`` (null) allowed for every mapping value, since ``key: ~`` removes the key;
* the top-level ``remove:`` (collection or dotted path -> keys to delete), ``replace:``
  (top-level keys given whole) and ``set:`` (dotted address -> one new value, list entries by
  index: ``stock_market.spaces.3``).

``ferrovia schema`` writes them next to the full ones as ``KIND.overlay.schema.json``.

>>> schema = overlay_schema("privates")
>>> "required" in schema, schema["$defs"]["Private"]["required"]
(False, ['symbol'])
>>> [key in schema["properties"] for key in ("privates", "remove", "replace", "set")]
[True, True, True, True]
"""

from __future__ import annotations

import copy
import json
from typing import Any

from ferrovia.data.overlay import KEYED_LISTS, REMOVE, REPLACE, SET
from ferrovia.schemas import FILE_KINDS, json_schema

__all__ = ["OVERLAY_KINDS", "overlay_schema", "overlay_schema_text"]

OVERLAY_KINDS = tuple(k for k in FILE_KINDS if k != "tileset")
"""File kinds a variant can overlay (a tile set is used whole, never merged)."""

_NULL = {"type": "null"}


def _nullable(schema: Any) -> Any:
    """``schema`` or null (a value that removes the key it is written under)."""
    if not isinstance(schema, dict):
        return schema
    options = schema.get("anyOf")
    if isinstance(options, list):
        if _NULL not in options:
            return {**schema, "anyOf": [*options, _NULL]}
        return schema
    keep = {k: schema[k] for k in ("title", "description", "default") if k in schema}
    inner = {k: v for k, v in schema.items() if k not in keep}
    return {**keep, "anyOf": [inner, _NULL]}


def _loosen(node: Any) -> None:
    """Drop ``required`` and allow null mapping values, everywhere below ``node``."""
    if isinstance(node, dict):
        node.pop("required", None)
        props = node.get("properties")
        if isinstance(props, dict):
            for name in props:
                _loosen(props[name])
                props[name] = _nullable(props[name])
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            _loosen(extra)
            node["additionalProperties"] = _nullable(extra)
        for key, value in node.items():
            if key not in ("properties", "additionalProperties"):
                _loosen(value)
    elif isinstance(node, list):
        for item in node:
            _loosen(item)


def _keyed_defs(schema: dict[str, Any]) -> dict[str, str]:
    """Definition name -> natural key, for the entries of every keyed list in the schema."""
    found: dict[str, str] = {}

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            for name, prop in (node.get("properties") or {}).items():
                natural = KEYED_LISTS.get(name)
                ref = (prop.get("items") or {}).get("$ref", "") if isinstance(prop, dict) else ""
                if natural and ref.startswith("#/$defs/"):
                    found[ref.split("/")[-1]] = natural
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for item in node:
                visit(item)

    visit(schema)
    return found


def overlay_schema(kind: str) -> dict[str, Any]:
    """The overlay JSON Schema of one file kind (see the module docstring)."""
    full = json_schema(kind)
    schema = copy.deepcopy(full)
    keyed = _keyed_defs(full)
    _loosen(schema)
    for name, natural in keyed.items():
        definition = schema.get("$defs", {}).get(name)
        if isinstance(definition, dict) and natural in definition.get("properties", {}):
            definition["required"] = [natural]
    top = list(full.get("properties", {}))
    schema["properties"][REMOVE] = {
        "title": "Remove",
        "description": (
            "Entries to delete from the base, by key: collection (or dotted path, e.g. "
            "'stock_market.spaces') -> keys (hex coordinates, private symbols, train names...)."
        ),
        "type": "object",
        "additionalProperties": {
            "anyOf": [
                {"type": "array", "items": {"type": ["string", "integer", "number"]}},
                {"type": ["string", "integer", "number"]},
            ]
        },
    }
    schema["properties"][REPLACE] = {
        "title": "Replace",
        "description": "Top-level keys this file gives whole instead of merging (a new map).",
        "type": "array",
        "items": {"enum": top},
    }
    schema["properties"][SET] = {
        "title": "Set",
        "description": (
            "One value changed anywhere in the merged file, also inside lists without a natural "
            "key: dotted address -> new value; a list entry by its 0-based index (or its key "
            "in a keyed list), e.g. 'stock_market.spaces.3': 66, 'lays.corporation.1.cost': 30."
        ),
        "type": "object",
        "propertyNames": {"pattern": "^[^.]+(\\.[^.]+)*$"},
    }
    title = full.get("title", kind)
    schema["title"] = f"{title} (overlay)"
    schema["description"] = (
        f"A variant's {kind} file, merged over its base's: every field optional, 'key: ~' "
        "removes a key, 'remove:' deletes entries, 'replace:' takes values whole, 'set:' "
        "changes one value by its address. " + str(full.get("description", ""))
    ).strip()
    return schema


def overlay_schema_text(kind: str) -> str:
    """The overlay schema as committed in ``schemas/json/KIND.overlay.schema.json``."""
    return json.dumps(overlay_schema(kind), indent=2, ensure_ascii=False) + "\n"
