"""Benchmark: how soon ``ferrovia serve`` has a saved change ready for the page (target < 1 s).

    .venv/bin/python tools/bench/bench_serve.py [--repeat N] [GAME_DIR]

Copies the game (and the tile sets beside it) to a scratch directory, starts the server there,
then N times saves a map.yaml with a bad tile code and saves it back, timing each save until
``/state.json`` (polled every 10 ms) carries the new version: file watching, validation and
drawing the map and the manifest.  The page itself is told over server-sent events at once.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGET = 1.0


def _version(url: str) -> tuple[int, bool]:
    with urllib.request.urlopen(url + "state.json", timeout=10) as reply:
        state = json.load(reply)
    return int(state["version"]), bool(state["ok"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", type=Path, default=ROOT / "gamedata" / "1858")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        game = Path(scratch) / args.game.name
        shutil.copytree(args.game, game)
        if (args.game.parent / "tilesets").is_dir():
            shutil.copytree(args.game.parent / "tilesets", Path(scratch) / "tilesets")
        proc = subprocess.Popen(
            [sys.executable, "-m", "ferrovia", "serve", str(game), "--port", "0"],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert proc.stdout is not None
            url = proc.stdout.readline().split(" at ", 1)[1].split()[0]
            good = (game / "map.yaml").read_text(encoding="utf-8")
            bad = good.replace("path=a:0,b:_0", "path=a:7,b:_0", 1)
            times = []
            for _ in range(args.repeat):
                for text, ok in ((bad, False), (good, True)):
                    before, _ = _version(url)
                    start = time.perf_counter()
                    (game / "map.yaml").write_text(text, encoding="utf-8")
                    while True:
                        version, now_ok = _version(url)
                        if version > before and now_ok == ok:
                            break
                        if time.perf_counter() - start > 30:
                            raise SystemExit("no update within 30 s")
                        time.sleep(0.01)
                    times.append(time.perf_counter() - start)
                    time.sleep(0.3)  # let the watcher settle before the next save
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    worst = max(times)
    print(
        f"{args.game}: save to new preview median {statistics.median(times):.3f} s, "
        f"worst {worst:.3f} s over {len(times)} saves (target < {TARGET} s)"
    )
    return 0 if worst < TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
