"""Overlay JSON Schemas: a variant's files validate in editors, as written.

Checked with the jsonschema package (draft 2020-12, as ``ferrovia schema`` declares): every
bundled variant file against its overlay schema, every full file against its full schema,
and the README authoring guide's example files against theirs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import GAMEDATA, ROOT
from ferrovia.authoring.overlay_schema import OVERLAY_KINDS
from ferrovia.commands.schema import overlay_schema_files
from ruamel.yaml import YAML

COMMITTED = ROOT / "schemas" / "json"
HEADER = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")
GUIDE = re.compile(r"`cheap/(\w+)\.yaml`[^\n]*\n```yaml\n(.*?)```", re.S)


def _data(text: str) -> Any:
    # JSON's view of the YAML: mapping keys are strings (``bank: {3: 9000}``)
    return json.loads(json.dumps(YAML(typ="safe", pure=True).load(text), default=str))


def _errors(data: Any, schema_file: Path) -> list[str]:
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)

    def leaves(error: Any) -> list[Any]:
        # a value or null (`key: ~`): report why the value failed, as editors do
        inner = [e for e in error.context or [] if e.validator != "type" or e.instance is None]
        if not inner:
            return [error]
        return [leaf for e in inner for leaf in leaves(e)]

    return sorted(
        f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
        for top in validator.iter_errors(data)
        for e in leaves(top)
    )


def _is_variant(directory: Path) -> bool:
    game = directory / "game.yaml"
    return game.is_file() and "extends" in (YAML(typ="safe").load(game.read_text("utf-8")) or {})


def _kind(path: Path) -> str:
    return "tileset" if path.parent.name == "tilesets" else path.stem


FILES = sorted(GAMEDATA.rglob("*.yaml"))
OVERLAYS = [p for p in FILES if _is_variant(p.parent)]
FULL = [p for p in FILES if not _is_variant(p.parent)]


@pytest.mark.parametrize("name", sorted(overlay_schema_files()))
def test_committed_overlay_schema_is_up_to_date(name: str) -> None:
    committed = COMMITTED / name
    assert committed.exists(), f"run `ferrovia schema` and commit schemas/json/{name}"
    assert committed.read_text(encoding="utf-8") == overlay_schema_files()[name], (
        f"schemas/json/{name} is stale: run `ferrovia schema` and commit it"
    )


def test_there_are_overlays_and_full_files() -> None:
    assert {p.parent.name for p in OVERLAYS} == {"1858_india", "1858_switzerland"}
    assert len(OVERLAYS) == 2 * len(OVERLAY_KINDS)


@pytest.mark.parametrize("path", OVERLAYS, ids=lambda p: str(p.relative_to(GAMEDATA)))
def test_bundled_overlay_file_validates_against_its_overlay_schema(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = HEADER.match(text.splitlines()[0])
    assert found, f"{path.name}: first line must name its schema"
    schema = (path.parent / found.group(1)).resolve()
    assert schema == (COMMITTED / f"{_kind(path)}.overlay.schema.json").resolve()
    assert _errors(_data(text), schema) == []


@pytest.mark.parametrize("path", FULL, ids=lambda p: str(p.relative_to(GAMEDATA)))
def test_full_file_validates_against_its_full_schema(path: Path) -> None:
    schema = COMMITTED / f"{_kind(path)}.schema.json"
    assert _errors(_data(path.read_text(encoding="utf-8")), schema) == []


def test_a_partial_file_needs_the_overlay_schema() -> None:
    # what the full schema said of every variant file before: required fields missing
    text = (GAMEDATA / "1858_switzerland" / "trains.yaml").read_text(encoding="utf-8")
    assert _errors(_data(text), COMMITTED / "trains.schema.json") != []
    assert _errors(_data(text), COMMITTED / "trains.overlay.schema.json") == []


def test_the_guide_example_validates_against_the_overlay_schemas() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    examples = GUIDE.findall(readme)
    assert [kind for kind, _ in examples] == ["game", "map", "privates", "market"]
    for kind, text in examples:
        found = HEADER.match(text.splitlines()[0])
        assert found, f"the guide's cheap/{kind}.yaml must start with its schema line"
        schema = (ROOT / "cheap" / found.group(1)).resolve()  # cheap/ in the checkout
        assert schema == (COMMITTED / f"{kind}.overlay.schema.json").resolve()
        assert _errors(_data(text), schema) == []


def test_the_overlay_schema_still_flags_mistakes_and_allows_overlay_forms() -> None:
    schema = COMMITTED / "map.overlay.schema.json"
    ok = {"hexes": {"B3": None, "C2": {"name": "Coruña"}}, "replace": ["hexes"]}
    assert _errors(ok, schema) == []
    # set: one value by its address (keys are dotted, values anything the merge then checks)
    assert _errors({"set": {"hexes.B3.color": "gray"}}, schema) == []
    assert _errors({"set": {"hexes..B3": 1}}, schema) == [
        "set: 'hexes..B3' does not match '^[^.]+(\\\\.[^.]+)*$'"
    ]
    bad = {"hexes": {"B3": {"colr": "white", "color": "purple"}}, "replace": ["maps"]}
    assert _errors(bad, schema) == [
        "hexes.B3.color: 'purple' is not one of ['white', 'yellow', 'green', 'brown', 'gray', "
        "'red', 'blue']",
        "hexes.B3: Additional properties are not allowed ('colr' was unexpected)",
        "replace.0: 'maps' is not one of ['hexes', 'route_bonuses', 'group_revenues']",
    ]
    privates = COMMITTED / "privates.overlay.schema.json"
    assert _errors({"privates": [{"symbol": "B&M", "face_value": 100}]}, privates) == []
    assert _errors({"privates": [{"face_value": 100}]}, privates) == [
        "privates.0: 'symbol' is a required property"
    ]
    assert _errors({"remove": {"privates": ["B&M"], "stock_market.spaces": [50]}}, privates) == []
