"""Instructions of a warm replay, counted by valgrind (callgrind): a figure the machine's
load does not move, for changes too small to see in CPU time on a shared machine (the
warm replay's CPU time, and the reference's, move by 10-50 % between runs).

    .venv/bin/python tools/bench/bench_instructions.py [--first] [FIXTURE ...]

Each file (default: 1858_game_end_bank, random-s104-p6, 1858-quick-start-b; paths under
../shared/fixtures) is replayed once to warm the process, then once more inside
``operator.call``, the only function callgrind counts (``--toggle-collect``); hash seeds are
fixed (``PYTHONHASHSEED=0``) so the walks go the same way each run.  Prints the instructions
of those warm replays.  About 40 s a file under valgrind; needs ``valgrind`` on PATH.
Compare two versions by running it on each (same files): a difference of 0.2 % is real.

``--first``: instead, the instructions of a whole fresh process that replays the first file
(interpreter start, imports, the definition from the on-disk cache, the first replay), what one
``ferrovia replay FILE`` pays; the definition cache and bytecode are primed by an untimed run
first.  About a minute under valgrind.

``--search DUMP``: instead, the instructions of one cold route search (``best_routes``, exact:
any budget or limit of the dump dropped, every cache of earlier searches cleared) of a dump
pickled by ``tools/bench/bench_tail.py --dump`` -- a search whose CPU time moves by 25 % on a
shared machine repeats to the instruction.  The search runs once untimed first (imports,
lazy tables of the code itself).  About a minute for a 0.3 s search.
"""

from __future__ import annotations

import operator
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT.parent / "shared" / "fixtures"
DEFAULT = (
    "18xx.games/1858/1858_game_end_bank.json",
    "reference-random/random-s104-p6.json",
    "18xx.games/1858/1858-quick-start-b.json",
)


def _child(names: list[str]) -> None:
    """Inside valgrind: warm up, then the counted replays."""
    from ferrovia.play.replay import load_export, replay

    datas = [load_export(FIXTURES / n) for n in names]
    for d in datas:
        replay(d)
    for d in datas:
        operator.call(replay, d)  # counted (--toggle-collect=_operator_call)


def _search_child(path: str) -> None:
    """Inside valgrind: one cold search of a dump, then the counted one."""
    import pickle

    from ferrovia.routes import search as routesearch
    from ferrovia.routes.search import cache

    with open(path, "rb") as fh:
        args, kw, *_ = pickle.load(fh)
    kw = {k: v for k, v in kw.items() if k not in ("budget", "limit")}

    def cold() -> routesearch.BestRoutes:
        cache._RECENT.clear()
        cache._MAPS.clear()
        cache._LINK_SETS.clear()
        return routesearch.best_routes(*args, **kw)

    cold()
    out = operator.call(cold)  # counted (--toggle-collect=_operator_call)
    print(f"total {out.total}, exact {out.exact}, candidates {out.candidates}")


#: the fresh process counted by --first: what ``ferrovia replay FILE`` does before printing
_FIRST = (
    "import sys; from pathlib import Path; from ferrovia.play.replay import load_export, replay; "
    "replay(load_export(Path(sys.argv[1])))"
)


def _first(path: Path) -> int:
    """Instructions of a whole fresh process replaying ``path`` (primed caches)."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed package runs: with bytecode
    env.setdefault("PYTHONPYCACHEPREFIX", str(Path(tempfile.gettempdir()) / "ferrovia-pycache"))
    subprocess.run([sys.executable, "-c", _FIRST, str(path)], check=True, env=env)  # primes
    count = _callgrind([], [sys.executable, "-c", _FIRST, str(path)], env)
    if count is None:
        return 1
    print(f"instructions of a fresh process's first replay of {path.name}:")
    print(f"  {count:,}")
    return 0


def _callgrind(options: list[str], command: list[str], env: dict[str, str]) -> int | None:
    """The instructions callgrind collects running ``command`` (None, with its error shown,
    when it fails)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                *options,
                f"--callgrind-out-file={Path(tmp) / 'callgrind.out'}",
                *command,
            ],
            capture_output=True,
            text=True,
            check=False,
            env=env,
        )
    found = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode != 0 or found is None:
        print(out.stderr[-2000:])
        return None
    return int(found.group(1))


def main() -> int:
    args = sys.argv[1:]
    if args[:1] == ["--child"]:
        _child(args[1:])
        return 0
    if args[:1] == ["--search-child"]:
        _search_child(args[1])
        return 0
    first = args[:1] == ["--first"]
    args = args[1:] if first else args
    if shutil.which("valgrind") is None:
        print("instructions: skipped (needs valgrind on PATH)")
        return 0
    if args[:1] == ["--search"]:
        if len(args) != 2:
            print("usage: bench_instructions.py --search DUMP")
            return 2
        count = _callgrind(
            ["--collect-atstart=no", "--toggle-collect=_operator_call"],
            [sys.executable, __file__, "--search-child", args[1]],
            {**os.environ, "PYTHONHASHSEED": "0"},
        )
        if count is None:
            return 1
        print(f"instructions of one cold route search of {Path(args[1]).name}:")
        print(f"  {count:,}")
        return 0
    names = args or list(DEFAULT)
    missing = [n for n in names if not (FIXTURES / n).is_file()]
    if missing:
        print(f"instructions: no {', '.join(missing)} under {FIXTURES}")
        return 1
    if first:
        return _first(FIXTURES / names[0])
    count = _callgrind(
        ["--collect-atstart=no", "--toggle-collect=_operator_call"],
        [sys.executable, __file__, "--child", *names],
        {**os.environ, "PYTHONHASHSEED": "0"},
    )
    if count is None:
        return 1
    print(f"instructions of one warm replay of {', '.join(Path(n).name for n in names)}:")
    print(f"  {count:,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
