"""firstdiff.py GAME.json: the first action after which the state differs between the
18xx.games engine (dump.rb) and Ferrovia (dump.py), or one of them stops.

Actions are matched by id (an action undone later appears in 18xx.games' dump only).  Compared:
every holder's cash, each company's trains and share price, each player's shares, the phase.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FIELDS = ("cash", "trains", "prices", "shares", "phase")


def lines(cmd: list[str]) -> list[dict[str, Any]]:
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def differences(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Field -> (18xx.games, Ferrovia) values that differ; keys only one side lists (a private
    out of the game, a company without a price) are skipped."""
    out: dict[str, Any] = {}
    for name in FIELDS:
        va, vb = a.get(name), b.get(name)
        if isinstance(va, dict) and isinstance(vb, dict):
            diff = {k: (va[k], vb[k]) for k in va.keys() & vb.keys() if va[k] != vb[k]}
            if diff:
                out[name] = diff
        elif va != vb and va is not None and vb is not None:
            out[name] = (va, vb)
    return out


def main(path: str) -> int:
    game = str(Path(path).resolve())
    ruby = lines(["ruby", str(HERE / "dump.rb"), game])
    ferr = {line["id"]: line for line in lines([sys.executable, str(HERE / "dump.py"), game])}
    last = 0
    for a in ruby:
        b = ferr.get(a["id"])
        if b is None:
            continue
        diff = differences(a, b)
        if "error" in a or "error" in b or diff:
            print("first difference after action", a.get("id"), "(last agreeing:", last, ")")
            if "error" in a or "error" in b:
                print(" 18xx.games:", a.get("error", "ok"), "| acting", a.get("acting"))
                print(" ferrovia:  ", b.get("error", "ok"))
            for name, d in diff.items():
                print(f" {name}: (18xx.games, ferrovia)", json.dumps(d))
            return 1
        last = a["id"]
    print("no difference")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
