"""firstdiff.py GAME.json: the first action after which some holder's cash differs between
the 18xx.games engine (dump.rb) and Ferrovia (dump.py), or one of them stops."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def lines(cmd: list[str]) -> list[dict[str, object]]:
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def main(path: str) -> int:
    game = str(Path(path).resolve())
    ruby = lines(["ruby", str(HERE / "dump.rb"), game])
    ferr = lines([sys.executable, str(HERE / "dump.py"), game])
    for a, b in zip(ruby, ferr, strict=False):
        ca, cb = a.get("cash"), b.get("cash")
        # holders one engine lists and the other not (a private out of the game) are skipped
        same = (
            isinstance(ca, dict)
            and isinstance(cb, dict)
            and all(ca[k] == cb[k] for k in ca.keys() & cb.keys())
        )
        if "error" in a or "error" in b or not same:
            print("first difference after action", a.get("id"))
            print(" 18xx.games:", a)
            print(" ferrovia:  ", b)
            return 1
    print("no difference")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
