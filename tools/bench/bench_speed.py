"""All the speed figures of issue #12 in one command (CPU seconds: user + sys of this process).

    .venv/bin/python tools/bench/bench_speed.py [--seeds 20] [--players 2 3 4 5 6] [--skip-play]
        [--only startup reach replay routes play] [--runs 3]

1. reach: fast reach against the plain 18xx.games walk (tests/reach_oracle.py) on the boards
   of 1858_game_end_bank every 10 actions, every company and private, both gauges;
2. play: seeded random games per player count, the heavy tail (tools/bench/bench_tail.py);
3. replay: each fixture warm in-process and first in a fresh process, side by side with the
   18xx.games engine's in-process non-strict replay (tools/bench/ref_replay.rb) when Ruby and a
   reference lib (XCHECK_18XX_LIB, default /tmp/xcheck/18xx/lib) are there, skipped with a note
   otherwise; and what one command-line call pays, as whole processes: ``ferrovia replay FILE``
   against a Ruby process that loads the 18xx.games engine and replays the file
   (tools/bench/ref_fresh.rb); then the first replay of 1858_game_end_bank in a fresh process
   split into phases (imports, definition, game, first and second replay).  Each process
   figure, on both sides, is the least of ``--runs`` fresh processes (default 3);
4. start-up: ``ferrovia --version`` as a whole process;
5. routes: the exact route search, cold, at every company turn of the four 18xx.games 1858
   games (tools/bench/bench_routes.py: median, worst, turns over 200 ms).
Needs ../shared/fixtures for 1, 3 and 5 (skipped with a note when absent).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools" / "bench"))
FIXTURES = ROOT.parent / "shared" / "fixtures"
REF_LIB = Path(os.environ.get("XCHECK_18XX_LIB", "/tmp/xcheck/18xx/lib"))


def fixture_files() -> list[Path]:
    return sorted(FIXTURES.glob("18xx.games/1858/*.json")) + sorted(
        FIXTURES.glob("reference-random/*.json")
    )


def bench_reach() -> None:
    from ferrovia.board.graph import WALK_STATS, reachable
    from ferrovia.lib18xx.actions import action_from_json
    from ferrovia.lib18xx.operating import routing
    from ferrovia.play.replay import filter_actions, game_for, load_export
    from reach_oracle import walk_reachable

    path = FIXTURES / "18xx.games" / "1858" / "1858_game_end_bank.json"
    if not path.exists():
        print("reach: skipped (no ../shared/fixtures)")
        return
    data = load_export(path)
    game, state = game_for(data)
    actions = [action_from_json(a) for a in filter_actions(list(data["actions"]))]
    fast = slow = worst_fast = worst_slow = 0.0
    n = 0
    before = dict(WALK_STATS)
    for i, action in enumerate(actions):
        game.apply(state, action)
        if i % 10 and i != len(actions) - 1:
            continue
        g = routing.track_graph(game, state)
        tokens = {c: h.tokens for c, h in state.hexes.items()}
        for company in sorted({t for h in state.hexes.values() for c in h.tokens for t in c if t}):
            for gauge in ("broad", "metre"):
                t0 = time.process_time()
                a = reachable(g, company, tokens=tokens, gauge=gauge)
                t1 = time.process_time()
                b = walk_reachable(g, company, tokens=tokens, gauge=gauge)
                t2 = time.process_time()
                assert a == b, (i, company, gauge)
                fast += t1 - t0
                slow += t2 - t1
                worst_fast, worst_slow = max(worst_fast, t1 - t0), max(worst_slow, t2 - t1)
                n += 1
    print(
        f"reach: {n} reaches along {path.name}, all equal to the walk; fast {fast:.2f} s "
        f"(worst {1000 * worst_fast:.1f} ms), walk {slow:.2f} s (worst {1000 * worst_slow:.1f} ms)"
    )
    replayed = WALK_STATS["reaches"] - before["reaches"]
    exhaustive = WALK_STATS["exhaustive"] - before["exhaustive"]
    matching = WALK_STATS["matching"] - before["matching"]
    print(
        f"reach: {replayed} reaches in all (replay's own included), {matching} needed pass 3 "
        f"(matchings), {exhaustive} a part outside its class walked in full (the rest settled "
        "by the probes and bounds)"
    )


def bench_replay(runs: int = 3) -> None:
    """``runs``: each process figure (first replay, whole command; Ferrovia's and the
    reference's alike) is the least of this many fresh processes, and each warm figure the
    best of ``3 * runs`` replays on both sides: on this virtual machine even a plain Python
    loop's CPU time moves by +-25 % from one run to the next, and a single draw per side made
    the median ratio swing by +-0.1."""
    from ferrovia.play.replay import load_export, replay

    files = fixture_files()
    if not files:
        print("replay: skipped (no ../shared/fixtures)")
        return
    with_ref = bool(shutil.which("ruby")) and REF_LIB.is_dir()
    if not with_ref:
        print(f"replay: reference side skipped (needs ruby and {REF_LIB}; tools/xcheck/README.md)")
    cold = _prime_definitions(files)
    print(
        f"replay: definition cache and bytecode primed first ({cold:.3f} s in a fresh process; "
        "a first replay after the engine or data changed pays that once, engine/data/defcache.py)"
    )
    ratios, first_ratios, cli_ratios = [], [], []
    print(
        f"{'replay':<36} {'warm s':>7} {'first s':>8} {'ref s':>7} {'warm/ref':>8} "
        f"{'first/ref':>9} {'cli s':>6} {'ref cli s':>9} {'cli/ref':>7}"
    )
    for f in files:
        first = min(_fresh_replay(f) for _ in range(runs))
        cli = min(
            _whole_process([sys.executable, "-m", "ferrovia", "replay", str(f)], _fresh_env())
            for _ in range(runs)
        )
        data = load_export(f)
        replay(data)
        warms = []
        for _ in range(3 * runs):  # as many as the reference side's warm repeats (3 a run)
            t0 = time.process_time()
            replay(data)
            warms.append(time.process_time() - t0)
        warm = min(warms)
        # the reference side of this file right after ours, so both meet the same machine load
        r = _ref_replay(f, runs) if with_ref else None
        if r:
            ref_cli = min(
                _whole_process(
                    ["ruby", str(ROOT / "tools" / "bench" / "ref_fresh.rb"), str(f)], _fresh_env()
                )
                for _ in range(runs)
            )
            ratios.append(warm / r["warm"])
            first_ratios.append(first / r["first"])
            cli_ratios.append(cli / ref_cli)
            print(
                f"{f.name:<36} {warm:7.3f} {first:8.3f} {r['warm']:7.3f} "
                f"{warm / r['warm']:8.2f} {first / r['first']:9.2f} {cli:6.3f} {ref_cli:9.3f} "
                f"{cli / ref_cli:7.2f}"
            )
        else:
            print(f"{f.name:<36} {warm:7.3f} {first:8.3f} {'':>7} {'':>8} {'':>9} {cli:6.3f}")
    _print_first_phases(next((f for f in files if f.name == "1858_game_end_bank.json"), files[0]))
    if ratios:
        print(
            f"replay: median warm/ref {statistics.median(ratios):.2f} (goal <= 0.5), "
            f"median first/ref {statistics.median(first_ratios):.2f} (the reference's first load "
            "in a process that has loaded its engine already), median cli/ref "
            f"{statistics.median(cli_ratios):.2f} (a whole `ferrovia replay FILE` against a whole "
            "Ruby process loading the engine and replaying; goal <= 1); "
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )


def _ref_replay(path: Path, runs: int = 1) -> dict[str, float] | None:
    """The 18xx.games engine's first and best warm in-process replay of one file (CPU s): the
    least first over ``runs`` Ruby processes, and the best warm of all their repeats (the best
    of ``3 * runs``, as many as Ferrovia's warm figure is the best of)."""
    docs: list[dict[str, float]] = []
    for _ in range(runs):
        out = subprocess.run(
            ["ruby", str(ROOT / "tools" / "bench" / "ref_replay.rb"), str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        docs += [json.loads(line) for line in out.stdout.splitlines()[:1]]
    if not docs:
        return None
    return {"first": min(d["first"] for d in docs), "warm": min(d["warm"] for d in docs)}


def _prime_definitions(files: list[Path]) -> float:
    """Load each fixture's game (and replay the first) once in a fresh process, untimed by the
    table: the on-disk definition cache and the bytecode are then warm for every "first"
    below, as after any earlier run (else the first file alone would pay the full load and
    check whenever the engine changed since)."""
    code = (
        "import sys, time; t=time.process_time(); "
        "from ferrovia.data.definition import load_game; "
        "from ferrovia.play.replay import load_export, locate_game, replay; "
        "from pathlib import Path; "
        "[load_game(locate_game(load_export(Path(f)))) for f in sys.argv[1:]]; "
        "replay(load_export(Path(sys.argv[1]))); "
        "print(time.process_time()-t)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *map(str, files)],
        capture_output=True,
        text=True,
        check=True,
        env=_fresh_env(),
    )
    return float(out.stdout.strip().splitlines()[-1])


def _fresh_env() -> dict[str, str]:
    """A fresh process as an installed package runs: with compiled bytecode.  A checkout
    run under PYTHONDONTWRITEBYTECODE=1 compiles every engine module from source at each start
    (~0.07 s more); the bytecode goes to a cache folder under the temp directory, never into
    the repository."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.setdefault("PYTHONPYCACHEPREFIX", str(Path(tempfile.gettempdir()) / "ferrovia-pycache"))
    return env


def _fresh_replay(path: Path) -> float:
    """CPU seconds of a first replay in a fresh process: imports, definition load, replay."""
    code = (
        "import time; t=time.process_time(); from ferrovia.play.replay import load_export, replay; "
        f"replay(load_export(__import__('pathlib').Path({str(path)!r}))); "
        "print(time.process_time()-t)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=_fresh_env()
    )
    return float(out.stdout.strip().splitlines()[-1])


#: what a first replay in a fresh process pays, phase by phase (CPU s, printed as JSON)
_PHASES = """
import json, sys, time
from pathlib import Path
clock = time.process_time
t0 = clock()
from ferrovia.play.replay import game_for, load_export, locate_game, replay
t1 = clock()
data = load_export(Path(sys.argv[1]))
from ferrovia.data.definition import load_game
load_game(locate_game(data))
t2 = clock()
game_for(data)
t3 = clock()
replay(data)
t4 = clock()
replay(data)
t5 = clock()
print(json.dumps({"imports": t1 - t0, "definition": t2 - t1, "game": t3 - t2,
                  "replay 1": t4 - t3, "replay 2": t5 - t4}))
"""


def _print_first_phases(path: Path, runs: int = 5) -> None:
    """The fresh-process first replay of one fixture split into phases, the least of ``runs``
    processes per phase: importing ferrovia.play.replay, reading the file and loading the
    definition (its imports and the on-disk cache), a Game and its initial state, the first
    replay (which builds a Game again), and a second replay in the same process: the first
    minus the second is what a process pays once (caches of tile geometry, graphs...)."""
    best: dict[str, float] = {}
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", _PHASES, str(path)],
            capture_output=True,
            text=True,
            check=True,
            env=_fresh_env(),
        )
        for phase, seconds in json.loads(out.stdout.strip().splitlines()[-1]).items():
            best[phase] = min(seconds, best.get(phase, seconds))
    parts = ", ".join(f"{phase} {seconds:.3f}" for phase, seconds in best.items())
    print(f"first replay of {path.name} by phase (CPU s, least of {runs} processes): {parts}")


def _whole_process(
    cmd: list[str], env: dict[str, str] | None = None, *, check: bool = False
) -> float:
    """CPU seconds (user + sys) of one command run as a whole process, start-up included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, capture_output=True, check=check, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def bench_startup(runs: int = 5) -> None:
    cmd = [sys.executable, "-m", "ferrovia", "--version"]
    cpu = [_whole_process(cmd, check=True) for _ in range(runs)]
    print(f"start-up: ferrovia --version {statistics.median(cpu):.3f} s CPU (median of {runs})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5, 6])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--skip-play", action="store_true")
    ap.add_argument("--only", choices=["startup", "reach", "replay", "routes", "play"], nargs="*")
    ap.add_argument(
        "--runs",
        type=int,
        default=3,
        help="replay: fresh processes per first/whole-command figure, the least taken (both sides)",
    )
    args = ap.parse_args(argv)
    want = set(args.only or ["startup", "reach", "replay", "routes", "play"])
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (CPU seconds below)")
    if "startup" in want:
        bench_startup()
    if "reach" in want:
        bench_reach()
    if "replay" in want:
        bench_replay(max(1, args.runs))
    if "routes" in want:
        import bench_routes  # the exact route search at every company turn of the real games

        if FIXTURES.is_dir():
            bench_routes.main([])
        else:
            print("routes: skipped (no ../shared/fixtures)")
    if "play" in want and not args.skip_play:
        import bench_tail  # the heavy-tail figures (per game, per player count, worst calls)

        players = [str(n) for n in args.players]
        bench_tail.main(["--game", "1858", "--players", *players, "--seeds", str(args.seeds)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
