"""Does the data drive the game?  Change one number or switch of gamedata/1858 at a time and see
whether seeded random games play differently.

    python tools/data/sample_check.py [--samples 60] [--seed 1] [--seeds 2] [--game gamedata/1858]
        [--players 4,3,5] [--bots random,greedy] [--only LABEL] [--json OUT]

Every number and switch in the game's YAML files (tile-code numbers such as ``revenue:20`` and
``cost:40`` included; the tile set's own tiles are not the game's) is a candidate.  A sample of
them is changed one at a time in a copy of the game (a number by +1, -1, x2 or /2, a switch
flipped, a choice to another value the schema allows); a copy that does not validate is not
counted.  On each copy seeded games are played in lockstep with the same games on the
original, stopping at the first action or state that differs: for each seed, each bot
(``--bots``) and each player count (``--players``; a per-player-count value plays only its own
count, an optional rule's values only with that rule on), until one differs.  The figure is
the share of validating changes for which some game differed; the ones for which none did are
listed (a value rarely reached by such games, or one the rules ignore: tell which).

Not a test (it takes minutes): a development tool for issue #10.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import pickle
import random
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

SWITCHES: dict[str, tuple[str, ...]] = {
    "sell_after": ("operate", "first_stock_round", "any_time"),
    "sell_buy_order": ("sell_buy", "sell_buy_sell"),
    "bank_broken": ("immediate", "current_round", "current_or", "full_or"),
    "metre_only": ("full", "half"),
    "private_home_hexes": ("paid", "free"),
    "must_use": ("any", "new_track", "new_track_or_revenue", "new_track_or_city"),
    "capitalization": ("full", "incremental"),
}
CODE_NUMBER = re.compile(r"\b(revenue|cost|slots):(\d+)")
SKIP_KEYS = {"name", "symbol", "number", "title", "subtitle", "id", "color", "text_color"}
PLAYER_TABLES = {"bank", "certificate_limit", "starting_cash", "holding_limit", "count"}


@dataclass(frozen=True)
class Leaf:
    file: str
    path: tuple[Any, ...]
    value: Any
    code_match: tuple[int, int] | None = None  # span of a number inside a tile code

    def label(self) -> str:
        where = ".".join(str(p) for p in self.path)
        return f"{self.file}:{where}" + (f"[{self.code_match}]" if self.code_match else "")


def _yaml() -> YAML:
    y = YAML()
    y.preserve_quotes = True
    y.width = 4096
    return y


def leaves(game: Path) -> Iterator[Leaf]:
    for f in sorted(game.glob("*.yaml")):
        if f.name == "game.yaml":
            names = {"end"}
        else:
            names = None
        doc = _yaml().load(f.read_text(encoding="utf-8"))
        yield from _walk(f.name, doc, (), names)


def _walk(file: str, node: Any, path: tuple[Any, ...], only: set[str] | None) -> Iterator[Leaf]:
    items: list[tuple[Any, Any]]
    if isinstance(node, CommentedMap):
        items = list(node.items())
    elif isinstance(node, CommentedSeq):
        items = list(enumerate(node))
    else:
        return
    for key, value in items:
        if only is not None and not path and key not in only:
            continue
        here = (*path, key)
        if isinstance(value, CommentedMap | CommentedSeq):
            yield from _walk(file, value, here, None)
        elif isinstance(value, bool):
            yield Leaf(file, here, value)
        elif isinstance(value, int):
            if key not in SKIP_KEYS:
                yield Leaf(file, here, value)
        elif isinstance(value, str):
            if key == "code":
                for m in CODE_NUMBER.finditer(value):
                    yield Leaf(file, here, value, m.span(2))
            elif key in SWITCHES and value in SWITCHES[key]:
                yield Leaf(file, here, value)


def variants(leaf: Leaf, rnd: random.Random) -> list[Any]:
    v = leaf.value
    if leaf.code_match is not None:
        a, b = leaf.code_match
        n = int(v[a:b])
        options = [n + 10, n * 2, max(0, n - 10), n + 1]
        return [v[:a] + str(o) + v[b:] for o in options if o != n]
    if isinstance(v, bool):
        return [not v]
    if isinstance(v, int):
        options = [v + 1, v - 1, v * 2, v // 2, 0]
        rnd.shuffle(options)
        return [o for o in dict.fromkeys(options) if o != v]
    key = leaf.path[-1]
    return [o for o in SWITCHES[key] if o != v]


def players_for(leaf: Leaf) -> int | None:
    """The player count a per-player-count value belongs to (None: any count)."""
    if len(leaf.path) >= 2 and leaf.path[-2] in PLAYER_TABLES | {"nth_purchase"}:
        try:
            return int(leaf.path[-1])
        except ValueError:
            return None
    if leaf.file == "options.yaml" and "packets" in leaf.path:
        return int(leaf.path[leaf.path.index("packets") + 1])
    return None


def options_for(leaf: Leaf, game: Path) -> tuple[str, ...]:
    """An optional rule's own values only play with that rule on."""
    if leaf.file != "options.yaml":
        return ()
    doc = _yaml().load((game / "options.yaml").read_text(encoding="utf-8"))
    return (str(doc["options"][leaf.path[1]]["id"]),)


def games_for(
    leaf: Leaf, players: list[int], bots: list[str], seeds: int
) -> list[tuple[int, str, int]]:
    """The (players, bots, seed) games tried on a change, cheapest-to-differ first: the first
    seed at every player count and bot, then the next seed, ..."""
    own = players_for(leaf)
    counts = [own] if own is not None else players
    return [(n, b, s) for s in range(1, seeds + 1) for b in bots for n in counts]


def write_variant(src: Path, dst: Path, leaf: Leaf, new: Any) -> None:
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    f = dst / leaf.file
    y = _yaml()
    doc = y.load(f.read_text(encoding="utf-8"))
    node = doc
    for p in leaf.path[:-1]:
        node = node[p]
    node[leaf.path[-1]] = new
    out = io.StringIO()
    y.dump(doc, out)
    f.write_text(out.getvalue(), encoding="utf-8")


def fingerprint(state: Any) -> str:
    """A digest of what players see: cash, prices, shares, trains, tiles, phase."""
    view = (
        state.phase,
        tuple((p.id, p.cash) for p in state.players),
        tuple(
            sorted(
                (c.sym, c.cash, tuple(c.market or ()), tuple(c.trains))
                for c in state.corporations.values()
            )
        ),
        tuple(sorted((c, h.tile, h.rotation) for c, h in state.hexes.items())),
        tuple(sorted((s.id, s.owner) for c in state.corporations.values() for s in c.shares)),
    )
    return hashlib.sha1(pickle.dumps(view)).hexdigest()


class Diverged(Exception):
    pass


def run(
    game_dir: Path,
    players: int,
    seed: int,
    baseline: list[tuple[str, str]] | None,
    bots: str = "random",
    options: tuple[str, ...] = (),
) -> list[tuple[str, str]]:
    """Play one seeded game; with ``baseline``, stop (raise Diverged) at the first difference."""
    from ferrovia.kernel.actions import action_to_json
    from ferrovia.play.selfplay import play

    trace: list[tuple[str, str]] = []

    def observe(game: Any, state: Any, action: Any) -> None:
        step = (json.dumps(action_to_json(action), sort_keys=True), fingerprint(state))
        if baseline is not None:
            i = len(trace)
            if i >= len(baseline) or baseline[i] != step:
                raise Diverged(i)
        trace.append(step)

    result = play(
        players,
        seed,
        optional_rules=options,
        game_name=str(game_dir),
        bots=[bots] * players,
        observer=observe,
    )
    if baseline is not None and len(trace) != len(baseline):
        raise Diverged(len(trace))
    if baseline is None and not result.state.finished:
        print(f"  (baseline {players}p {bots} seed {seed} did not finish)", file=sys.stderr)
    return trace


def main(argv: list[str] | None = None) -> int:
    from ferrovia.data.validate import validate_game
    from ferrovia.errors import FerroviaError

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--game", default=str(Path(__file__).resolve().parents[2] / "gamedata" / "1858")
    )
    ap.add_argument("--samples", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1, help="which leaves are sampled")
    ap.add_argument("--seeds", type=int, default=2, help="seeds per player count and bot")
    ap.add_argument("--players", default="4", help="player counts, e.g. 4,2,6")
    ap.add_argument("--bots", default="random", help="bots, e.g. random,greedy")
    ap.add_argument("--only", default="", help="only leaves whose label contains this")
    ap.add_argument("--json", dest="json_out", default="", help="write the results here")
    args = ap.parse_args(argv)
    src = Path(args.game).resolve()
    counts = [int(n) for n in args.players.split(",")]
    bot_names = args.bots.split(",")
    rnd = random.Random(args.seed)
    pool = [leaf for leaf in leaves(src) if args.only in leaf.label()]
    sample = rnd.sample(pool, min(args.samples, len(pool)))
    print(f"{len(pool)} numbers and switches in {src.name}; {len(sample)} sampled")
    baselines: dict[tuple[int, str, int, tuple[str, ...]], list[tuple[str, str]]] = {}
    changed = validated = 0
    silent: list[str] = []
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(src.parent / "tilesets", root / "tilesets")
        base = root / "original"
        shutil.copytree(src, base)
        for leaf in sample:
            ok = None
            for new in variants(leaf, rnd)[:3]:
                dst = root / "variant"
                write_variant(src, dst, leaf, new)
                if not validate_game(dst).errors:
                    ok = new
                    break
            if ok is None:
                print(f"  invalid   {leaf.label()}", flush=True)
                results.append({"leaf": leaf.label(), "result": "invalid"})
                continue
            validated += 1
            options = options_for(leaf, src)
            how = ""
            tried = 0
            for n, bot, seed in games_for(leaf, counts, bot_names, args.seeds):
                key = (n, bot, seed, options)
                tried += 1
                if key not in baselines:
                    baselines[key] = run(base, n, seed, None, bot, options)
                try:
                    run(dst, n, seed, baselines[key], bot, options)
                except Diverged as exc:
                    how = f"{n}p {bot} seed {seed}, action {exc}"
                    break
                except FerroviaError as exc:
                    how = f"{n}p {bot} seed {seed}, play stopped: {str(exc)[:80]}"
                    break
            value = f"{ok!r:.40}"
            if how:
                changed += 1
                print(f"  changed   {leaf.label()} = {value} ({how})", flush=True)
            else:
                silent.append(f"{leaf.label()} = {value}")
                print(f"  SAME      {leaf.label()} = {value} ({tried} games)", flush=True)
            results.append(
                {
                    "leaf": leaf.label(),
                    "value": str(ok),
                    "result": "changed" if how else "same",
                    "how": how,
                    "games": tried,
                }
            )
    share = 100 * changed / validated if validated else 0.0
    print(f"\n{changed} of {validated} validating changes changed play: {share:.1f} %")
    if silent:
        print("unchanged:", *silent, sep="\n  ")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
