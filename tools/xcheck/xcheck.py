"""Cross-check game files between the 18xx.games Ruby engine and Ferrovia's replay.

    python tools/xcheck/xcheck.py GAME.json...    (one JSON line per file)

Status: AGREE (same final result), RUBY-REJECTS (18xx.games refuses an action: Ferrovia
allowed something it does not, or 18xx.games got stuck), RUBY-CRASH (18xx.games' engine raised
a Ruby error of its own, not a rule), RESULT-DIFF, UNFINISHED.  Set-up
and the other tools: tools/xcheck/README.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def ruby(path: str) -> dict[str, Any]:
    out = subprocess.run(
        ["ruby", str(HERE / "replay.rb"), path], capture_output=True, text=True, check=False
    )
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else {"ok": False, "error": out.stderr[-2000:]}


def ferrovia(path: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "ferrovia", "replay", path, "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    try:
        data: dict[str, Any] = json.loads(out.stdout)
        return data
    except json.JSONDecodeError:
        return {"error": (out.stdout + out.stderr)[-2000:]}


def norm(result: dict[str, Any] | None) -> dict[str, Any]:
    return {str(k): v for k, v in (result or {}).items()}


def check(path: str) -> dict[str, Any]:
    r, f = ruby(path), ferrovia(path)
    notes: list[Any] = []
    if not r.get("ok") and not str(r.get("error", "")).startswith("Engine::GameError"):
        # 18xx.games' engine itself broke (a Ruby exception, not a rule it enforces)
        status = "RUBY-CRASH"
        notes.append({k: r.get(k) for k in ("index", "id", "type", "entity", "error", "turn")})
    elif not r.get("ok"):
        status = "RUBY-REJECTS"
        notes.append({k: r.get(k) for k in ("index", "id", "type", "entity", "error", "turn")})
    elif norm(r["result"]) != norm(f.get("result")):
        status = "RESULT-DIFF"
        notes.append({"ruby": r["result"], "ferrovia": f.get("result") or f})
    elif not r.get("finished") or not f.get("finished"):
        status = "UNFINISHED"
        notes.append({"ruby": r.get("finished"), "ferrovia": f.get("finished")})
    else:
        status = "AGREE"
    return {"file": path, "status": status, "notes": notes}


if __name__ == "__main__":
    for game_file in sys.argv[1:]:
        print(json.dumps(check(game_file)), flush=True)
