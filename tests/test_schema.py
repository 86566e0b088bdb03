"""JSON Schemas: committed copies match the models; every data file points at its schema."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ferrovia.authoring.overlay_schema import OVERLAY_KINDS
from ferrovia.cli import main
from ferrovia.commands.schema import overlay_schema_files, schema_files
from ferrovia.schemas import FILE_KINDS

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "schemas" / "json"
GAMEDATA = ROOT / "gamedata"
HEADER = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def test_every_file_kind_has_a_schema() -> None:
    assert sorted(schema_files()) == sorted(
        f"{kind}.schema.json"
        for kind in (
            "game",
            "map",
            "tiles",
            "tileset",
            "privates",
            "companies",
            "trains",
            "phases",
            "market",
            "options",
        )
    )


@pytest.mark.parametrize("name", sorted(schema_files()))
def test_committed_schema_is_up_to_date(name: str) -> None:
    committed = COMMITTED / name
    assert committed.exists(), f"run `ferrovia schema` and commit schemas/json/{name}"
    assert committed.read_text(encoding="utf-8") == schema_files()[name], (
        f"schemas/json/{name} is stale: run `ferrovia schema` and commit it"
    )


def test_schema_command_writes_every_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "json"
    assert main(["schema", "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(schema_files() | overlay_schema_files())
    schema = json.loads((out / "map.schema.json").read_text(encoding="utf-8"))
    assert schema["additionalProperties"] is False  # unknown keys are errors for editors too
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert len(capsys.readouterr().out.splitlines()) == len(FILE_KINDS) + len(OVERLAY_KINDS)


def test_schema_command_refuses_a_file_as_directory(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    assert main(["schema", "--out", str(target)]) == 2


def _kind(path: Path) -> str:
    return "tileset" if path.parent.name == "tilesets" else path.stem


@pytest.mark.parametrize(
    "path", sorted(GAMEDATA.rglob("*.yaml")), ids=lambda p: str(p.relative_to(GAMEDATA))
)
def test_data_file_starts_with_its_schema_line(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    found = HEADER.match(first)
    assert found, f"{path.name}: first line must be '# yaml-language-server: $schema=...'"
    target = (path.parent / found.group(1)).resolve()
    game = path.parent / "game.yaml"
    overlay = game.is_file() and "\nextends:" in game.read_text(encoding="utf-8")
    # a variant's files say only what differs: they point at the overlay schemas
    name = f"{_kind(path)}.overlay.schema.json" if overlay else f"{_kind(path)}.schema.json"
    assert target == (COMMITTED / name).resolve()
    assert target.exists()


# A small JSON Schema checker (the subset pydantic emits), so the test needs no new dependency:
# what an editor's yaml-language-server would flag, the data must not contain.
def _schema_errors(
    value: object, schema: dict[str, Any], defs: dict[str, Any], where: str
) -> list[str]:
    if "$ref" in schema:
        return _schema_errors(value, defs[schema["$ref"].split("/")[-1]], defs, where)
    if "anyOf" in schema:
        options = [_schema_errors(value, s, defs, where) for s in schema["anyOf"]]
        return [] if any(not o for o in options) else min(options, key=len)
    errors: list[str] = []
    if "const" in schema and value != schema["const"]:
        errors.append(f"{where}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{where}: {value!r} not in {schema['enum']}")
    kind = schema.get("type")
    python = {
        "string": str,
        "integer": int,
        "boolean": bool,
        "object": dict,
        "array": list,
        "null": type(None),
    }
    if kind is not None:
        expected = python[kind]
        if not isinstance(value, expected) or (kind == "integer" and isinstance(value, bool)):
            return [*errors, f"{where}: {value!r} is not of type {kind}"]
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                errors.append(f"{where}: missing {key}")
        for key, item in value.items():
            if not isinstance(key, str):
                errors.append(f"{where}: key {key!r} is not a string")
            if key in props:
                errors += _schema_errors(item, props[key], defs, f"{where}.{key}")
            elif schema.get("additionalProperties") is False:
                errors.append(f"{where}: unknown key {key!r}")
            elif isinstance(schema.get("additionalProperties"), dict):
                errors += _schema_errors(
                    item, schema["additionalProperties"], defs, f"{where}.{key}"
                )
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            errors += _schema_errors(item, schema["items"], defs, f"{where}[{i}]")
    return errors


@pytest.mark.parametrize(
    "path", sorted(GAMEDATA.rglob("*.yaml")), ids=lambda p: str(p.relative_to(GAMEDATA))
)
def test_data_file_satisfies_its_committed_json_schema(path: Path) -> None:
    from ruamel.yaml import YAML

    data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    game_yaml = path.parent / "game.yaml"
    game = (
        YAML(typ="safe", pure=True).load(game_yaml.read_text("utf-8"))
        if game_yaml.is_file()
        else None
    )
    if isinstance(game, dict) and game.get("extends"):
        # A variant's file only says what differs (engine/data/overlay.py): check it merged.
        from ferrovia.data.overlay import plain, resolved_files

        data = plain(resolved_files(path.parent)[_kind(path)].data)
    schema = json.loads((COMMITTED / f"{_kind(path)}.schema.json").read_text(encoding="utf-8"))
    assert _schema_errors(data, schema, schema.get("$defs", {}), path.name) == []


def test_the_schema_checker_can_fail() -> None:
    schema = json.loads((COMMITTED / "map.schema.json").read_text(encoding="utf-8"))
    bad = {"hexes": {"A1": {"color": "purple", "name": 3}}, "extra": 1}
    assert _schema_errors(bad, schema, schema["$defs"], "map") == [
        "map.hexes.A1.color: 'purple' not in ['white', 'yellow', 'green', 'brown', 'gray', 'red', "
        "'blue']",
        "map.hexes.A1.name: 3 is not of type string",
        "map: unknown key 'extra'",
    ]


def test_committed_schemas_carry_the_field_docstrings_when_models_were_built_first() -> None:
    # the docstrings are read only when a schema is made (not at import: engine start-up);
    # models validated before that (a game loaded, every model built) must be rebuilt with them
    code = (
        "from pathlib import Path\n"
        "from ferrovia.data.definition import load_game\n"
        "from ferrovia.schemas import json_schema_text, FILE_KINDS\n"
        "from ferrovia.schemas.base import Model, _models\n"
        "import sys\n"
        "load_game(Path(sys.argv[1]))\n"
        "for m in _models(Model): m.model_rebuild(force=True)\n"
        "print('\\0'.join(json_schema_text(k) for k in FILE_KINDS), end='')\n"
    )
    env = {**os.environ, "FERROVIA_NO_CACHE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code, str(GAMEDATA / "1858")],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    texts = out.stdout.split("\0")
    assert texts == [(COMMITTED / f"{k}.schema.json").read_text("utf-8") for k in FILE_KINDS]
    assert '"description": "Short identifier' in texts[list(FILE_KINDS).index("game")]
