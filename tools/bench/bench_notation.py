"""Benchmark the tile notation on the 18xx.games corpus: parse, format, cached parse.

Run: ``.venv/bin/python tools/bench/bench_notation.py [--repeat N]``.  Needs ``../shared``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=5, help="runs per figure (best and median)")
    args = ap.parse_args()

    started = time.perf_counter()
    from ferrovia.notation import format_tile, parse
    from ferrovia.notation.parser import _lark, _parse_cached

    _lark()  # built at the first parse since: still counted with the import, as before
    import_s = time.perf_counter() - started

    corpus = ROOT.parent / "shared" / "corpus" / "tile-codes.txt"
    if not corpus.exists():
        print(f"needs {corpus}", file=sys.stderr)
        return 2
    text = corpus.read_text(encoding="utf-8")
    codes = text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")
    n = len(codes)

    def timed(fn: Callable[[], None]) -> tuple[float, float]:
        runs = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            fn()
            runs.append(time.perf_counter() - t0)
        return min(runs), statistics.median(runs)

    def cold_parse() -> None:
        _parse_cached.cache_clear()
        for code in codes:
            parse(code)

    def lark_only() -> None:
        for code in codes:
            _lark().parse(code, start="start")

    tiles = [parse(c) for c in codes]

    def fmt() -> None:
        for tile in tiles:
            format_tile(tile)

    def warm_parse() -> None:
        for code in codes:
            parse(code)

    cold = timed(cold_parse)
    lark = timed(lark_only)
    form = timed(fmt)
    warm_parse()
    warm = timed(warm_parse)
    chars = sum(len(c) for c in codes)

    print(f"corpus: {n} codes, {chars} characters ({corpus})")
    print(f"import + grammar build:        {import_s * 1e3:8.1f} ms")
    print("                                   best   median")
    for label, (best, med) in (
        ("parse corpus (cold cache)", cold),
        ("  of which lark LALR + shape", lark),
        ("format corpus", form),
        ("parse corpus (cached)", warm),
    ):
        print(f"{label:30} {best * 1e3:8.1f} {med * 1e3:8.1f} ms   {best / n * 1e6:7.2f} µs/code")
    ok = cold[0] < 1.0
    print(f"target: whole-corpus cold parse < 1 s: {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
