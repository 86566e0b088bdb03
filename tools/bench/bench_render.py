"""Benchmark: how long drawing the 1858 map (and its tile manifest) takes.

Run: ``.venv/bin/python tools/bench/bench_render.py [--repeat N]``; prints figures.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from ferrovia.paths import gamedata_root, shared_root
from ferrovia.render.manifest_svg import render_manifest
from ferrovia.render.map_svg import render_map
from ferrovia.render.source import load_board


def _time(fn: Callable[[], object], repeat: int) -> list[float]:
    """CPU seconds per run (process time: steadier than wall time on a busy machine)."""
    out = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        out.append(time.process_time() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("game_dir", nargs="?", default=str(gamedata_root() / "1858"))
    args = parser.parse_args()
    game = Path(args.game_dir)
    load = _time(lambda: load_board(game), 1)
    board = load_board(game)
    svg = render_map(board)
    map_times = _time(lambda: render_map(board), args.repeat)
    tiles_times = _time(lambda: render_manifest(board), args.repeat)

    def line(name: str, times: list[float]) -> str:
        return (
            f"{name:<22} median {statistics.median(times) * 1000:7.1f} ms   "
            f"min {min(times) * 1000:7.1f} ms   max {max(times) * 1000:7.1f} ms"
        )

    print(f"game: {game}  hexes: {len(board.hexes)}  tiles: {len(board.tiles)}")
    print(f"map SVG size: {len(svg) / 1024:.0f} KiB")
    print("times are CPU time (time.process_time)")
    print(f"load board (validated definition): {load[0] * 1000:.1f} ms")
    print(line("render map", map_times))
    print(line("render tile manifest", tiles_times))
    per_hex = statistics.median(map_times) / max(len(board.hexes), 1) * 1e6
    print(f"per hex: {per_hex:.0f} µs")
    game_file = (
        shared_root() / "fixtures" / "18xx.games" / "1858" / "219682.json"
        if (shared_root())
        else None
    )
    if game_file is not None and game_file.is_file():
        from ferrovia.render.timeline import build_timeline
        from ferrovia.render.viewer import render_viewer

        start = time.process_time()
        timeline = build_timeline(board, game_file, game_dir=game)
        replayed = time.process_time() - start
        start = time.process_time()
        html = render_viewer(board, timeline)
        page = time.process_time() - start
        print(
            f"viewer for {game_file.name}: {len(timeline.frames) - 1} actions, "
            f"replay + frames {replayed * 1000:.0f} ms, page {page * 1000:.0f} ms, "
            f"{len(html) / 1024:.0f} KiB"
        )


if __name__ == "__main__":
    main()
