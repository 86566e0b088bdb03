"""Benchmark: load and fully validate gamedata/1858 (YAML with positions, schemas, tile codes,
cross-references, GameDefinition).  One command, prints figures; target < 0.3 s per load.

    .venv/bin/python tools/bench/bench_load.py [--repeat N] [GAME_DIR]

"cold" is the first load in the process (every tile code parsed by lark); "warm" loads reuse the
parser's cache of tiles by code but re-read, re-parse and re-validate every file; "cached" also
reuses the loader's cache of unchanged files (a long-running process, a test session).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

TARGET = 0.3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", type=Path, default=ROOT / "gamedata" / "1858")
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()

    t0 = time.perf_counter()
    from ferrovia.data.loader import clear_cache, load_yaml
    from ferrovia.data.validate import validate_game

    t_import = time.perf_counter() - t0

    t0 = time.perf_counter()
    result = validate_game(args.game)
    t_cold = time.perf_counter() - t0
    if result.errors:
        for error in result.errors:
            print(error)
        print(f"{result.shown}: {len(result.errors)} errors; figures would be meaningless")
        return 1

    warm = []
    warm_cpu = []
    for _ in range(args.repeat):
        clear_cache()
        t0, c0 = time.perf_counter(), time.process_time()
        validate_game(args.game)
        warm.append(time.perf_counter() - t0)
        warm_cpu.append(time.process_time() - c0)

    cached = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        validate_game(args.game)
        cached.append(time.perf_counter() - t0)

    yaml_only = 0.0
    for path in sorted(args.game.glob("*.yaml")):
        t0 = time.perf_counter()
        load_yaml(path)
        yaml_only += time.perf_counter() - t0

    median = statistics.median(warm)
    counts = ", ".join(f"{v} {k}" for k, v in result.counts.items())
    print(f"game            {result.shown} ({counts})")
    print(f"import          {t_import * 1000:7.1f} ms")
    print(f"load+validate   {t_cold * 1000:7.1f} ms  cold (first in process)")
    print(
        f"load+validate   {median * 1000:7.1f} ms  warm median of {args.repeat} "
        f"(min {min(warm) * 1000:.1f}, max {max(warm) * 1000:.1f})"
    )
    print(
        f"load+validate   {statistics.median(warm_cpu) * 1000:7.1f} ms  warm, CPU time of this "
        "process (less sensitive to other load on the machine)"
    )
    print(f"load+validate   {statistics.median(cached) * 1000:7.1f} ms  cached files, median")
    print(f"  of which YAML {yaml_only * 1000:7.1f} ms  (ruamel round-trip parse, game dir only)")
    verdict = "ok" if max(t_cold, median) < TARGET else "SLOW"
    if verdict == "SLOW" and statistics.median(warm_cpu) < TARGET:
        verdict = "SLOW on the wall clock, ok in CPU time: the machine is busy"
    print(f"target          {TARGET * 1000:7.1f} ms  {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
