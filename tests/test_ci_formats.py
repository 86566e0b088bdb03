"""Drop-in CI: ``--format sarif`` against the SARIF 2.1.0 schema, the pre-commit hook, and the
composite GitHub Action's script, each on a scratch repository holding a game with a planted
error."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import GAMEDATA, ROOT
from ferrovia.authoring.sarif import rule_of
from ferrovia.errors import DataError
from ruamel.yaml import YAML

SARIF_SCHEMA = ROOT / "tests" / "data" / "sarif-schema-2.1.0.json"
BIN = Path(sys.executable).parent  # the environment's `ferrovia` script


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["PRE_COMMIT_HOME"] = str(home / "pre-commit-cache")
    env["GIT_CONFIG_GLOBAL"] = str(home / "gitconfig")  # no user settings leak in
    env.pop("GIT_DIR", None)
    return env


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository with a copy of 1858 whose privates.yaml names a hex not on the map and
    whose map.yaml has a bad tile code."""
    root = tmp_path / "repo"
    game = root / "games" / "1858"
    shutil.copytree(GAMEDATA / "1858", game)
    shutil.copytree(GAMEDATA / "tilesets", root / "games" / "tilesets")
    privates = game / "privates.yaml"
    privates.write_text(
        privates.read_text(encoding="utf-8").replace(
            "home_hexes: [H11, H13]", "home_hexes: [H11, Z9]", 1
        ),
        encoding="utf-8",
    )
    gmap = game / "map.yaml"
    gmap.write_text(
        gmap.read_text(encoding="utf-8").replace(
            "path=a:2,b:3;path=a:3,b:4", "path=a:2,b:9;path=a:3,b:4", 1
        ),
        encoding="utf-8",
    )
    env = _env(tmp_path)
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)
    subprocess.run(["git", "-C", str(root), "add", "."], check=True, env=env)
    return root


def _planted(root: Path) -> list[str]:
    """The two errors as ``ferrovia validate`` prints them (text format)."""
    run = subprocess.run(
        [BIN / "ferrovia", "validate", "games"],
        cwd=root,
        capture_output=True,
        text=True,
        env=_env(root.parent),
    )
    assert run.returncode == 1, run.stdout + run.stderr
    return [line for line in run.stdout.splitlines() if ": error: " in line]


def test_sarif_output_is_valid_sarif_2_1_0_with_each_error(repo: Path) -> None:
    run = subprocess.run(
        [BIN / "ferrovia", "validate", "--format", "sarif", "games"],
        cwd=repo,
        capture_output=True,
        text=True,
        env=_env(repo.parent),
    )
    assert run.returncode == 1, run.stderr
    log = json.loads(run.stdout)
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    jsonschema.Draft4Validator(schema).validate(log)  # raises on any deviation
    [sarif_run] = log["runs"]
    assert sarif_run["tool"]["driver"]["name"] == "ferrovia"
    found = [
        (
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["locations"][0]["physicalLocation"]["region"]["startColumn"],
            r["ruleId"],
            r["message"]["text"],
        )
        for r in sarif_run["results"]
    ]
    text = _planted(repo)
    assert [f"{u}:{line}:{col}: error: {m}" for u, line, col, _, m in found] == text
    rules = {rule: m for _, _, _, rule, m in found}
    assert rules["tile-code"].startswith("tile code: ")
    assert rules["reference"] == "no hex 'Z9' on the map"
    ids = [r["id"] for r in sarif_run["tool"]["driver"]["rules"]]
    assert all(ids[r["ruleIndex"]] == r["ruleId"] for r in sarif_run["results"])


def test_sarif_of_clean_data_has_no_results(tmp_path: Path) -> None:
    run = subprocess.run(
        [BIN / "ferrovia", "validate", "--format", "sarif", str(GAMEDATA / "1858")],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    log = json.loads(run.stdout)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
    assert log["runs"][0]["results"] == []


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("YAML: mapping values are not allowed here", "yaml"),
        ("unknown key 'colr' (did you mean 'color'?)", "schema"),
        ("missing required key 'color' in hexes.A1", "schema"),
        ("trains[0].price: expected an integer, got 'x'", "schema"),
        ("tile code: path a: expected an edge 0-5", "tile-code"),
        ("no hex 'Z9' on the map", "reference"),
    ],
)
def test_each_error_names_its_rule(message: str, rule: str) -> None:
    assert rule_of(DataError("f.yaml", 1, 1, message)) == rule


def _hook() -> dict[str, Any]:
    [hook] = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return dict(hook)


def test_pre_commit_hook_fails_on_the_planted_error_and_passes_when_fixed(repo: Path) -> None:
    hook = _hook()
    assert hook["id"] == "ferrovia-validate" and hook["language"] == "python"
    # The published hook, as a local one: `language: system` runs the `ferrovia` of this
    # environment instead of building a fresh one from the network.
    local = {**hook, "language": "system"}
    config = {"repos": [{"repo": "local", "hooks": [local]}]}
    (repo / ".pre-commit-config.yaml").write_text(json.dumps(config), encoding="utf-8")
    env = _env(repo.parent)
    subprocess.run(["git", "-C", str(repo), "add", "."], check=True, env=env)
    run = subprocess.run(
        [BIN / "pre-commit", "run", "--all-files", "--color", "never"],
        cwd=repo,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    for line in _planted(repo):
        assert line in run.stdout
    assert "ferrovia validate" in run.stdout and "Failed" in run.stdout

    # fixed: the hook passes (and files that are not game files are not its business)
    shutil.copy(GAMEDATA / "1858" / "privates.yaml", repo / "games" / "1858" / "privates.yaml")
    shutil.copy(GAMEDATA / "1858" / "map.yaml", repo / "games" / "1858" / "map.yaml")
    (repo / "notes.yaml").write_text("not: [a game\n", encoding="utf-8")
    subprocess.run(["git", "-C", str(repo), "add", "."], check=True, env=env)
    run = subprocess.run(
        [BIN / "pre-commit", "run", "--all-files", "--color", "never"],
        cwd=repo,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Passed" in run.stdout


def _action_step(name: str) -> dict[str, Any]:
    action = YAML(typ="safe").load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    return next(s for s in action["runs"]["steps"] if s.get("name") == name)


def test_github_action_annotates_the_planted_errors_and_writes_sarif(repo: Path) -> None:
    step = _action_step("Validate")
    assert step["shell"] == "bash"
    env = {**_env(repo.parent), "PATHS": "games", "SARIF": str(repo.parent / "out.sarif")}
    run = subprocess.run(
        ["bash", "-e", "-c", step["run"]], cwd=repo, capture_output=True, text=True, env=env
    )
    assert run.returncode == 1, run.stdout + run.stderr
    annotations = [line for line in run.stdout.splitlines() if line.startswith("::error ")]
    assert len(annotations) == len(_planted(repo)) == 2
    assert annotations[1].startswith("::error file=games/1858/privates.yaml,line=")
    assert annotations[1].endswith("::no hex 'Z9' on the map")
    log = json.loads((repo.parent / "out.sarif").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
    assert len(log["runs"][0]["results"]) == 2
    # the install step installs this checkout (the action's own directory) into a venv
    install = _action_step("Install Ferrovia")
    assert "github.action_path" in install["env"]["FERROVIA_SOURCE"]
    assert "$GITHUB_PATH" in install["run"]
