"""Replay games the 18xx.games engine played (refgen.rb) blind in Ferrovia; one JSON line each.

    python tools/xcheck/refcheck.py GAME.json...

Blind: Ferrovia gets a copy without ``result``, ``status`` and ``game_end_reason``; AGREE when
its final result and end equal the ones 18xx.games recorded.  Otherwise the first action it
refuses (the place to run firstdiff.py on), or the two results.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HIDDEN = ("result", "status", "game_end_reason", "turn", "round")


def check(path: str) -> dict[str, Any]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    blind = {k: v for k, v in data.items() if k not in HIDDEN}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(blind, fh)
    out = subprocess.run(
        [sys.executable, "-m", "ferrovia", "replay", fh.name, "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    Path(fh.name).unlink()
    players = len(data["players"])
    line: dict[str, Any] = {"file": path, "players": players, "actions": len(data["actions"])}
    try:
        got = json.loads(out.stdout)
    except json.JSONDecodeError:
        first = (out.stdout + out.stderr).strip().splitlines()
        return {**line, "status": "REFUSED", "error": first[0] if first else "no output"}
    want = {str(k): int(v) for k, v in data["result"].items()}
    same = got.get("result") == want and got.get("game_end_reason") == data["game_end_reason"]
    status = "AGREE" if same and got.get("finished") else "RESULT-DIFF"
    if status != "AGREE":
        line["ruby"] = {"result": want, "end": data["game_end_reason"]}
        line["ferrovia"] = {"result": got.get("result"), "end": got.get("game_end_reason")}
    return {**line, "end": data["game_end_reason"], "status": status}


if __name__ == "__main__":
    for game_file in sys.argv[1:]:
        print(json.dumps(check(game_file)), flush=True)
