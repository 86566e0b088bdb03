"""Balance statistics over many seeded bot games: what a designer asks of a variant.

One game is one :class:`GameSpec` (game, players, seed, bots) -> one record (a plain dict, so it
crosses process and cluster boundaries as it is) made by watching every action as it is
applied (:class:`Watcher`).  :func:`summarise` turns records into the report's numbers and
:func:`compare` puts two summaries side by side with their uncertainty.  Games run in local
processes (:func:`run_games`) or on a Dask distributed cluster; the records are sorted by seed,
so the same seeds give the same numbers whatever ran them.
"""

from __future__ import annotations

import json
import math
import os
import random
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ferrovia.errors import FerroviaError, GameError
from ferrovia.kernel.actions import Action
from ferrovia.lib18xx.actions import Bankrupt
from ferrovia.lib18xx.game import Game18xx, as_18xx
from ferrovia.lib18xx.state import State18xx

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


@dataclass(frozen=True)
class GameSpec:
    game: str  # a bundled game's name or a game directory
    players: int
    seed: int
    bots: tuple[str, ...]
    options: tuple[str, ...] = ()
    max_actions: int = 20000
    keep_log: bool = False


@dataclass
class Watcher:
    """Follows one game action by action and keeps what the report needs."""

    ors: int = 0  # operating rounds begun so far
    _or_key: tuple[int, int] | None = None
    bank_by_or: list[int] = field(default_factory=list)  # bank cash at the end of OR i (0: start)
    start_privates: dict[str, list[str]] | None = None
    train_first_or: dict[str, int] = field(default_factory=dict)
    revenue_by_company: Counter[str] = field(default_factory=Counter)
    revenue_by_home: Counter[str] = field(default_factory=Counter)
    floats: Counter[str] = field(default_factory=Counter)
    closures: Counter[str] = field(default_factory=Counter)
    _operating: dict[str, bool] = field(default_factory=dict)

    def __call__(self, game: Game18xx, state: State18xx, action: Action) -> None:
        from ferrovia.lib18xx.operating.common import operating_company, train_type

        if not self.bank_by_or:
            self.bank_by_or.append(state.bank_cash)
        if action.type == "run_routes":
            earned = sum(r.revenue for r in getattr(action, "routes", ()))
            if earned:
                self.revenue_by_company[action.entity] += earned
                corp = state.corporations.get(action.entity)
                home = next((t.hex for t in corp.tokens if t.hex), None) if corp else None
                self.revenue_by_home[home or "-"] += earned
        if action.type == "buy_train":
            kind = train_type(getattr(action, "train", ""))
            self.train_first_or.setdefault(kind, self.ors)
        if state.round.kind == "operating":
            key = (state.turn, state.round.num)
            if key != self._or_key:
                self._or_key = key
                self.ors += 1
                self.bank_by_or.append(state.bank_cash)
                if self.start_privates is None:
                    self.start_privates = {p.id: list(p.companies) for p in state.players}
        self.bank_by_or[-1] = state.bank_cash
        for sym in state.corporations:
            now = operating_company(state, sym)
            was = self._operating.get(sym, False)
            if now and not was:
                self.floats[sym] += 1
            elif was and not now:
                self.closures[sym] += 1
            self._operating[sym] = now


def run_game(spec: GameSpec) -> dict[str, Any]:
    """Play one game and return its record (``"log"`` too when ``spec.keep_log``).  A game
    that breaks (a bot error, an engine error) is a record with ``"error"``, not an
    exception, so one bad game does not lose the others."""
    from ferrovia.play.selfplay import play

    watcher = Watcher()
    record: dict[str, Any] = {"seed": spec.seed, "bots": list(spec.bots)}
    cpu = time.process_time()
    try:
        res = play(
            spec.players,
            spec.seed,
            spec.options,
            spec.max_actions,
            spec.game,
            bots=spec.bots,
            observer=watcher,
        )
    except (FerroviaError, GameError) as exc:
        record["error"] = str(exc)
        return record
    state = res.state
    scores = res.game.result(state)
    seats = [p["id"] for p in res.log["players"]]
    seat_ids = [str(s) for s in seats]
    best = max(scores.values())
    winners = [pid for pid in seat_ids if scores[pid] == best]
    record.update(
        {
            "finished": state.finished,
            "end_reason": state.game_end_reason if state.finished else "action cap",
            "ors": watcher.ors,
            "actions": len(res.actions),
            "seconds": round(res.seconds, 3),
            "cpu_seconds": round(time.process_time() - cpu, 3),
            "scores": {pid: scores[pid] for pid in seat_ids},
            "winner": winners[0],
            "tied": len(winners) > 1,
            "start_privates": watcher.start_privates or {pid: list[str]() for pid in seat_ids},
            "floats": dict(sorted(watcher.floats.items())),
            "closures": dict(sorted(watcher.closures.items())),
            # the declarations themselves: no game names its end "bankruptcy" (1830: "bankrupt")
            "bankruptcies": sum(1 for a in res.actions if a.get("type") == Bankrupt.TYPE),
            "train_first_or": watcher.train_first_or,
            "revenue_by_company": dict(sorted(watcher.revenue_by_company.items())),
            "revenue_by_home": dict(sorted(watcher.revenue_by_home.items())),
            "bank_by_or": watcher.bank_by_or,
        }
    )
    if spec.keep_log:
        record["log"] = res.log
    return record


def replay_record(path: Path) -> dict[str, Any]:
    """The same record for a recorded game (an 18xx.games export): length, end, winner..."""
    from ferrovia.kernel.actions import action_from_json
    from ferrovia.play.replay import filter_actions, game_for, load_export

    data = load_export(path)
    game, state = as_18xx(*game_for(data))
    game.check = False
    watcher = Watcher()
    n = 0
    for raw in filter_actions(list(data.get("actions") or [])):
        action = action_from_json(raw, game.action_types)
        game.apply(state, action)
        watcher(game, state, action)
        n += 1
    return {
        "file": path.name,
        "end_reason": state.game_end_reason if state.finished else "unfinished",
        "ors": watcher.ors,
        "actions": n,
        "train_first_or": watcher.train_first_or,
    }


# -- running many --------------------------------------------------------------------------------


def specs_for(
    game: str,
    games: int,
    players: int,
    bots: Sequence[str],
    seed: int = 1,
    options: Sequence[str] = (),
    max_actions: int = 20000,
    keep_log: bool = False,
) -> list[GameSpec]:
    """Games ``seed``, ``seed + 1``, ... with the bots in seat order."""
    return [
        GameSpec(game, players, seed + i, tuple(bots), tuple(options), max_actions, keep_log)
        for i in range(games)
    ]


def run_games(
    specs: Sequence[GameSpec],
    *,
    workers: int | None = None,
    cluster: str | Any | None = None,
    progress: bool | None = None,
    on_record: Callable[[dict[str, Any]], None] | None = None,
    desc: str = "games",
) -> list[dict[str, Any]]:
    """Every game's record, sorted by seed.  ``cluster``: a Dask scheduler address (or a
    ``distributed.Client``); else ``workers`` local processes (1: in this process).
    ``progress``: the tqdm bar (None: only on a terminal)."""
    from tqdm import tqdm

    records: list[dict[str, Any]] = []
    bar = tqdm(total=len(specs), desc=desc, unit="game", disable=_no_bar(progress))

    def done(rec: dict[str, Any]) -> None:
        records.append(rec)
        if on_record is not None:
            on_record(rec)
        bar.update(1)

    try:
        if cluster is not None:
            _run_on_dask(specs, cluster, done)
        else:
            n = workers or os.cpu_count() or 1
            if n <= 1 or len(specs) <= 1:
                for spec in specs:
                    done(run_game(spec))
            else:
                from concurrent.futures import ProcessPoolExecutor, as_completed

                with ProcessPoolExecutor(max_workers=min(n, len(specs))) as pool:
                    futures = [pool.submit(run_game, s) for s in specs]
                    for fut in as_completed(futures):
                        done(fut.result())
    finally:
        bar.close()
    return sorted(records, key=lambda r: int(r["seed"]))


def _no_bar(progress: bool | None) -> bool | None:
    return None if progress is None else not progress


def _run_on_dask(
    specs: Sequence[GameSpec], cluster: str | Any, done: Callable[[dict[str, Any]], None]
) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise FerroviaError(
            "--cluster needs Dask distributed: pip install 'ferrovia[cluster]'"
        ) from None
    own = isinstance(cluster, str)
    try:
        client: Any = Client(cluster, timeout="20s") if own else cluster
    except (OSError, TimeoutError, ValueError) as exc:
        raise FerroviaError(f"cannot reach the Dask scheduler at {cluster}: {exc}") from None
    try:
        futures = client.map(run_game, list(specs), pure=False)
        for fut in as_completed(futures):
            done(fut.result())
    finally:
        if own:
            client.close()


# -- statistics ----------------------------------------------------------------------------------


def wilson(k: int, n: int) -> tuple[float, float]:
    """95 % Wilson score interval of a rate k/n.

    >>> [round(x, 3) for x in wilson(19, 20)]
    [0.764, 0.991]
    """
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate_difference(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float]:
    """Difference of two rates (second minus first) with Newcombe's 95 % interval (from the
    two Wilson intervals).

    >>> [round(x, 3) for x in rate_difference(10, 20, 10, 20)]
    [0.0, -0.284, 0.284]
    """
    p1, p2 = (k1 / n1 if n1 else 0.0), (k2 / n2 if n2 else 0.0)
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return (d, lo, hi)


def bootstrap_mean_ci(
    values: Sequence[float], seed: int = 0, rounds: int = 2000
) -> tuple[float, float, float]:
    """Mean and a 95 % percentile-bootstrap interval (seeded: the same values give the same
    interval)."""
    if not values:
        return (0.0, 0.0, 0.0)
    mean = statistics.fmean(values)
    if len(values) == 1:
        return (mean, mean, mean)
    rnd = random.Random(seed)
    n = len(values)
    means = sorted(statistics.fmean(rnd.choices(values, k=n)) for _ in range(rounds))
    return (mean, means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1])


def describe(values: Sequence[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    vals = sorted(values)
    return {
        "n": len(vals),
        "mean": round(statistics.fmean(vals), 2),
        "median": statistics.median(vals),
        "min": vals[0],
        "max": vals[-1],
        "stdev": round(statistics.stdev(vals), 2) if len(vals) > 1 else 0.0,
    }


def _rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"count": k, "of": n, "rate": round(k / n, 4) if n else 0.0, "ci95": [lo, hi]}


def summarise(
    records: Sequence[dict[str, Any]], meta: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The report's numbers over a set of game records (see README "simulate")."""
    ok = [r for r in records if "error" not in r]
    n = len(ok)
    reasons = Counter(str(r["end_reason"]) for r in ok)
    seats = list(ok[0]["scores"]) if ok else []
    by_seat = Counter(r["winner"] for r in ok)
    # bots: the share of games each bot name wins, and head to head in mixed tables
    bot_games: Counter[str] = Counter()
    bot_wins: Counter[str] = Counter()
    pair_games: Counter[str] = Counter()
    pair_wins: Counter[str] = Counter()
    for r in ok:
        names = dict(zip(seats, r["bots"], strict=False))
        for name in set(names.values()):
            bot_games[name] += 1
        bot_wins[names.get(r["winner"], "?")] += 1
        best: dict[str, int] = {}
        for pid, score in r["scores"].items():
            best[names[pid]] = max(best.get(names[pid], score), score)
        for a in sorted(best):
            for b in sorted(best):
                if a != b:
                    pair_games[f"{a}>{b}"] += 1
                    pair_wins[f"{a}>{b}"] += best[a] > best[b]
    # privates: how often the player who held a private at the start wins
    priv_games: Counter[str] = Counter()
    priv_wins: Counter[str] = Counter()
    for r in ok:
        for pid, privs in r["start_privates"].items():
            for sym in privs:
                priv_games[sym] += 1
                priv_wins[sym] += r["winner"] == pid
    spreads = [max(r["scores"].values()) - min(r["scores"].values()) for r in ok]
    train_or: dict[str, list[int]] = defaultdict(list)
    for r in ok:
        for kind, orn in r["train_first_or"].items():
            train_or[kind].append(orn)
    rev_company: Counter[str] = Counter()
    rev_home: Counter[str] = Counter()
    floats: Counter[str] = Counter()
    closures: Counter[str] = Counter()
    for r in ok:
        rev_company.update(r["revenue_by_company"])
        rev_home.update(r["revenue_by_home"])
        floats.update(r["floats"])
        closures.update(r["closures"])
    longest = max((len(r["bank_by_or"]) for r in ok), default=0)
    bank_mean, bank_lo, bank_hi = [], [], []
    for i in range(longest):
        # a finished game's bank stays where it ended
        vals = sorted(r["bank_by_or"][min(i, len(r["bank_by_or"]) - 1)] for r in ok)
        bank_mean.append(round(statistics.fmean(vals), 1))
        bank_lo.append(vals[int(0.1 * (len(vals) - 1))])
        bank_hi.append(vals[int(0.9 * (len(vals) - 1))])
    return {
        **(meta or {}),
        "games": len(records),
        "errors": [{"seed": r["seed"], "error": r["error"]} for r in records if "error" in r],
        "end_reasons": dict(sorted(reasons.items())),
        "bank_broken": _rate(reasons.get("bank", 0), n),
        "length": {
            "ors": describe([r["ors"] for r in ok]),
            "actions": describe([r["actions"] for r in ok]),
            "seconds": describe([r["seconds"] for r in ok]),
        },
        "winners": {
            "by_seat": {s: _rate(by_seat.get(s, 0), n) for s in seats},
            "by_bot": {b: _rate(bot_wins.get(b, 0), n) for b in sorted(bot_games)},
            "head_to_head": {k: _rate(pair_wins[k], pair_games[k]) for k in sorted(pair_games)},
            "by_start_private": {s: _rate(priv_wins[s], priv_games[s]) for s in sorted(priv_games)},
            "ties": sum(1 for r in ok if r["tied"]),
        },
        "scores": {
            "winner": describe([max(r["scores"].values()) for r in ok]),
            "spread": describe(spreads),
            "by_seat": {s: describe([r["scores"][s] for r in ok]) for s in seats},
        },
        "companies": {
            "floats": dict(sorted(floats.items())),
            "closures": dict(sorted(closures.items())),
            "floats_per_game": round(sum(floats.values()) / n, 2) if n else 0.0,
            "closures_per_game": round(sum(closures.values()) / n, 2) if n else 0.0,
            "bankruptcies": sum(r["bankruptcies"] for r in ok),
        },
        "phase_timing": {
            k: {**describe(v), "games": len(v)}
            for k, v in sorted(train_or.items(), key=lambda kv: statistics.fmean(kv[1]))
        },
        "revenue": {
            "by_company": {k: round(v / n, 1) for k, v in sorted(rev_company.items())},
            "by_home_hex": {k: round(v / n, 1) for k, v in sorted(rev_home.items())},
        },
        "bank_over_time": {"mean": bank_mean, "p10": bank_lo, "p90": bank_hi},
        "records": [{k: v for k, v in r.items() if k != "log"} for r in records],
    }


def compare(base: dict[str, Any], variant: dict[str, Any]) -> list[dict[str, Any]]:
    """Each difference (variant minus base) with its 95 % interval and a verdict: ``within
    the noise`` when the interval holds zero."""
    out: list[dict[str, Any]] = []

    def verdict(lo: float, hi: float) -> str:
        return "within the noise" if lo <= 0 <= hi else ("higher" if lo > 0 else "lower")

    def rate_row(name: str, a: dict[str, Any], b: dict[str, Any]) -> None:
        d, lo, hi = rate_difference(a["count"], a["of"], b["count"], b["of"])
        out.append(
            {
                "measure": name,
                "base": a["rate"],
                "variant": b["rate"],
                "difference": round(d, 4),
                "ci95": [round(lo, 4), round(hi, 4)],
                "verdict": verdict(lo, hi),
            }
        )

    rate_row("bank broken", base["bank_broken"], variant["bank_broken"])
    for seat in base["winners"]["by_seat"]:
        if seat in variant["winners"]["by_seat"]:
            rate_row(
                f"seat {seat} wins",
                base["winners"]["by_seat"][seat],
                variant["winners"]["by_seat"][seat],
            )
    # lengths: paired by seed (the same seeds were played on both)
    b_recs = {r["seed"]: r for r in base["records"] if "error" not in r}
    v_recs = {r["seed"]: r for r in variant["records"] if "error" not in r}
    common = sorted(set(b_recs) & set(v_recs))
    for key in ("ors", "actions"):
        diffs = [float(v_recs[s][key] - b_recs[s][key]) for s in common]
        d, lo, hi = bootstrap_mean_ci(diffs)
        out.append(
            {
                "measure": f"{key} per game",
                "base": base["length"][key].get("mean"),
                "variant": variant["length"][key].get("mean"),
                "difference": round(d, 3),
                "ci95": [round(lo, 3), round(hi, 3)],
                "verdict": verdict(lo, hi),
                "paired_games": len(common),
            }
        )
    for kind in base["phase_timing"]:
        diffs = [
            float(v_recs[s]["train_first_or"][kind] - b_recs[s]["train_first_or"][kind])
            for s in common
            if kind in v_recs[s]["train_first_or"] and kind in b_recs[s]["train_first_or"]
        ]
        if not diffs:
            continue
        d, lo, hi = bootstrap_mean_ci(diffs)
        out.append(
            {
                "measure": f"first {kind} bought (OR)",
                "base": base["phase_timing"][kind].get("mean"),
                "variant": variant["phase_timing"].get(kind, {}).get("mean"),
                "difference": round(d, 3),
                "ci95": [round(lo, 3), round(hi, 3)],
                "verdict": verdict(lo, hi),
                "paired_games": len(diffs),
            }
        )
    return out


# -- output --------------------------------------------------------------------------------------


def write_atomic(path: Path, text: str) -> None:
    """Write via a temp file in the same folder, then rename (never a half-written file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes it private; a report is to share
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def log_name(record: dict[str, Any], prefix: str = "") -> str:
    return f"{prefix}game-{record['seed']}.json"


def dump(doc: Any) -> str:
    return json.dumps(doc, indent=1, sort_keys=False) + "\n"


def text_summary(s: dict[str, Any]) -> str:
    """The summary a person reads in the terminal."""
    lines = [
        f"{s.get('title', s.get('game', ''))}: {s['games']} games, {s.get('players')} players, "
        f"bots {','.join(s.get('bots', []))}, seeds {s.get('seed')}..",
    ]
    bb = s["bank_broken"]
    lines.append(
        f"  bank broken   {bb['count']}/{bb['of']} = {bb['rate']:.0%} "
        f"(95% {bb['ci95'][0]:.0%}-{bb['ci95'][1]:.0%}); ends: "
        + ", ".join(f"{k} {v}" for k, v in s["end_reasons"].items())
    )
    o, a = s["length"]["ors"], s["length"]["actions"]
    if o.get("n"):
        lines.append(
            f"  length        ORs mean {o['mean']} (min {o['min']}, max {o['max']}); "
            f"actions mean {a['mean']} (min {a['min']}, max {a['max']})"
        )
    for ref in s.get("reference", []):
        lines.append(f"    recorded    {ref['file']}: {ref['ors']} ORs, {ref['actions']} actions")
    lines.append(
        "  wins by seat  "
        + ", ".join(f"{k}: {v['rate']:.0%}" for k, v in s["winners"]["by_seat"].items())
    )
    if len(s["winners"]["by_bot"]) > 1:
        lines.append(
            "  head to head  "
            + ", ".join(
                f"{k.replace('>', ' beats ')} {v['rate']:.0%} ({v['count']}/{v['of']})"
                for k, v in s["winners"]["head_to_head"].items()
            )
        )
    sp = s["scores"]["spread"]
    if sp.get("n"):
        lines.append(
            f"  score spread  mean {sp['mean']} (max-min of a game), winner mean "
            f"{s['scores']['winner']['mean']}"
        )
    c = s["companies"]
    lines.append(
        f"  companies     {c['floats_per_game']} floats, {c['closures_per_game']} closures per "
        f"game, {c['bankruptcies']} bankruptcies"
    )
    lines.append(
        "  first bought  " + ", ".join(f"{k} OR {v['mean']}" for k, v in s["phase_timing"].items())
    )
    if s["errors"]:
        lines.append(f"  errors        {len(s['errors'])} games failed (see the JSON)")
    return "\n".join(lines)


def text_comparison(rows: Iterable[dict[str, Any]]) -> str:
    lines = ["  difference (variant - base), 95% interval:"]
    for r in rows:
        lines.append(
            f"    {r['measure']:<24} {r['base']!s:>8} -> {r['variant']!s:<8} "
            f"{r['difference']:+.3g} [{r['ci95'][0]:+.3g}, {r['ci95'][1]:+.3g}]  {r['verdict']}"
        )
    return "\n".join(lines)
