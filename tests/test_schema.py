"""JSON Schemas: committed copies match the models; every data file points at its schema."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.cli import main
from engine.commands.schema import schema_files
from schemas import FILE_KINDS

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
    assert sorted(p.name for p in out.iterdir()) == sorted(schema_files())
    schema = json.loads((out / "map.schema.json").read_text(encoding="utf-8"))
    assert schema["additionalProperties"] is False  # unknown keys are errors for editors too
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert len(capsys.readouterr().out.splitlines()) == len(FILE_KINDS)


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
    assert target == (COMMITTED / f"{_kind(path)}.schema.json").resolve()
    assert target.exists()
