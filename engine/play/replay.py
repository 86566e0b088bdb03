"""Replay an 18xx.games export (or a Ferrovia action log) through the rules core.

Undo/redo are resolved *before* replaying, exactly as 18xx.games does
(``Game::Base.filtered_actions``): ``undo`` without ``action_id`` removes the last kept
non-message action, ``undo`` with ``action_id`` rolls back to just after that action (0 = the
start), ``redo`` restores what the latest undo removed, and any other action clears the redo
stack.  Messages are never undone.  Recorded ``auto_actions`` are applied right after their
action; ``program_*`` actions change nothing.  The file's own ``result``/``status`` are never
read.

>>> [a["id"] for a in filter_actions([{"id": 1, "type": "pass"}, {"id": 2, "type": "bid"},
...     {"id": 3, "type": "undo"}, {"id": 4, "type": "pass"}])]
[1, 4]
>>> [a["id"] for a in filter_actions([{"id": 1, "type": "pass"}, {"id": 2, "type": "bid"},
...     {"id": 3, "type": "undo"}, {"id": 4, "type": "redo"}])]
[1, 2]
"""

from __future__ import annotations

import gc
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ferrovia.errors import FerroviaError, GameError, UnknownEntity
from ferrovia.kernel.actions import action_from_json
from ferrovia.kernel.game import Game
from ferrovia.kernel.state import GameState
from ferrovia.lib18xx.actions import RunRoutes
from ferrovia.lib18xx.game import Game18xx
from ferrovia.lib18xx.state import State18xx


def _first_index(actions: list[dict[str, Any]]) -> dict[Any, int]:
    """Each action id -> the index of the first action with it (ids that cannot be dict keys
    are left out)."""
    out: dict[Any, int] = {}
    for i, a in enumerate(actions):
        try:
            out.setdefault(a.get("id"), i)
        except TypeError:  # unhashable: equal to no hashable target; others are scanned
            pass
    return out


def filter_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions that count, in order, after undo/redo (see module docstring)."""
    kept: list[dict[str, Any] | None] = [None] * len(actions)
    undos: list[list[tuple[dict[str, Any], int]]] = []
    first_index: dict[Any, int] | None = None  # id -> its first index, made at the first need
    for index, action in enumerate(actions):
        kind = action.get("type")
        if kind == "undo":
            target = action.get("action_id")
            if target is not None:
                if target == 0:
                    undo_to = 0
                else:
                    # (a scan of the whole file per undo was ~1 % of a warm replay)
                    if first_index is None:
                        first_index = _first_index(actions)
                    try:
                        idx = first_index.get(target)
                    except TypeError:  # an id no dict holds (a list...): compared one by one
                        found = (i for i, a in enumerate(actions) if a.get("id") == target)
                        idx = next(found, None)
                    if idx is None:
                        raise UnknownEntity(
                            f"undo to unknown action {target}",
                            index=action.get("id"),
                            rule="undo",
                        )
                    undo_to = idx + 1
            else:
                undo_to = next(
                    (
                        i
                        for i in range(index - 1, -1, -1)
                        if kept[i] is not None and kept[i]["type"] != "message"  # type: ignore[index]
                    ),
                    0,
                )
            removed: list[tuple[dict[str, Any], int]] = []
            for i in range(undo_to, index):
                a = kept[i]
                if a is None or a["type"] == "message":
                    continue
                kept[i] = None
                removed.append((a, i))
            undos.append(removed)
        elif kind == "redo":
            if undos:
                for a, i in undos.pop():
                    kept[i] = a
        elif kind == "message":
            kept[index] = action
        else:
            undos.clear()
            kept[index] = action
    return [a for a in kept if a is not None]


@dataclass
class ReplayResult:
    game: Game[Any]
    state: GameState
    actions: int
    load_seconds: float
    replay_seconds: float
    error: GameError | None = None
    failed_action: dict[str, Any] | None = None
    revenue_mismatches: list[str] = field(default_factory=list)
    route_check: RouteCheck | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "finished": self.state.finished,
            "result": self.game.result(self.state),
            "actions": self.actions,
            "game_end_reason": self.state.game_end_reason,
            "seconds": {
                "load": round(self.load_seconds, 4),
                "replay": round(self.replay_seconds, 4),
            },
        }
        if self.route_check is not None:
            out["route_check"] = self.route_check.to_json()
        return out


@dataclass(frozen=True)
class RouteCase:
    """One ``run_routes`` whose recorded revenue differs from the optimum."""

    action: int | None
    company: str
    recorded: int
    optimum: int
    exact: bool = True

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "action": self.action,
            "company": self.company,
            "recorded": self.recorded,
            "optimum": self.optimum,
        }
        if not self.exact:
            out["exact"] = False  # a lower bound only: the candidate limit stopped the proof
        return out


@dataclass
class RouteCheck:
    """``--check-routes``: each ``run_routes`` against the best run the company had just
    before it (exact :func:`ferrovia.routes.search.best_routes` on the replay's own state)."""

    checked: int = 0
    above: list[RouteCase] = field(default_factory=list)  # a better run existed
    below: list[RouteCase] = field(default_factory=list)  # a bug: a legal run beats "best"
    inexact: list[RouteCase] = field(default_factory=list)  # every case not proven optimal
    seconds: float = 0.0

    def add(self, case: RouteCase) -> None:
        self.checked += 1
        if not case.exact:
            self.inexact.append(case)
        if case.optimum > case.recorded:
            self.above.append(case)
        elif case.optimum < case.recorded and case.exact:
            self.below.append(case)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "checked": self.checked,
            "optimum_above_recorded": len(self.above),
            "optimum_below_recorded": len(self.below),
            "cases": [c.to_json() for c in sorted(self.above + self.below, key=_case_order)],
        }
        if self.inexact:
            out["inexact"] = [c.to_json() for c in self.inexact]
        return out


def _case_order(c: RouteCase) -> tuple[int, str]:
    return (c.action if c.action is not None else -1, c.company)


def optimum_before(
    game: Game18xx, state: State18xx, action: Any, *, limit: int | None = None
) -> RouteCase:
    """The best run the acting company could make with the trains it has not yet run, on the
    state just before ``action`` (a ``run_routes``), next to what it recorded.  Graph, train
    specs, tokens and phase come from the operating round's own routing bridge."""
    from ferrovia.lib18xx.operating import common, routing

    corp = action.entity
    train_ids = [t for t in common.engines(game, state, corp) if not state.trains[t].operated]
    graph = routing.track_graph(game, state)
    trains = [(t, routing.train_spec(game, state, t)) for t in train_ids]
    best = routing.route_search(game, state, corp, trains, budget=None, limit=limit)
    optimum = sum(
        r.revenue
        + game.rules.route_bonus(
            game, state, corp, r.train, [graph.stops[s].hex for s in r.route.stops]
        )
        + routing.car_bonus(
            game, state, corp, r.train, [graph.stops[s].kind for s in r.route.stops]
        )
        for r in best.routes
    )
    recorded = sum(int(r.revenue) for r in action.routes)
    return RouteCase(action.id, corp, recorded, optimum, best.exact)


def load_export(path: Path) -> dict[str, Any]:
    """The game file's JSON; unreadable, non-JSON or wrongly shaped files raise a DataError at
    FILE:LINE:COL (engine/play/gamefile.py)."""
    from ferrovia.play.gamefile import read_game_file

    return read_game_file(path)


def game_dir_for(title: str) -> Path:
    """The bundled game a title names: ``gamedata/<title>``, else the bundled game whose
    directory name, ``name:`` or ``title:`` matches ignoring case and punctuation (18xx.games
    titles such as ``1858Switzerland`` -> ``1858_switzerland``).  A title is a name, never a
    path (engine/play/gamefile.py ``title_problem``)."""
    from ferrovia.paths import gamedata_root
    from ferrovia.play.gamefile import title_problem

    problem = title_problem(title)
    if problem is not None:
        raise FerroviaError(f"title: {problem}")
    root = gamedata_root()
    direct = root / title
    if (direct / "game.yaml").is_file():
        return direct

    def norm(text: str) -> str:
        return "".join(ch for ch in text.lower() if ch.isalnum())

    games = sorted(p.parent for p in root.glob("*/game.yaml"))
    for game in games:
        if norm(game.name) == norm(title):
            return game
    for game in games:
        if norm(title) in {norm(n) for n in _names(game)}:
            return game
    raise FerroviaError(
        f"unknown game {title!r}: no {direct / 'game.yaml'}"
        f" (bundled games: {', '.join(g.name for g in games)})"
    )


def _names(game: Path) -> list[str]:
    """The ``name:`` and ``title:`` a bundled game.yaml declares (read plainly, no checks)."""
    try:
        text = (game / "game.yaml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    out = []
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key in ("name", "title"):
            out.append(value.strip().strip("'\""))
    return out


def locate_game(
    data: dict[str, Any], *, file: Path | None = None, game_dir: Path | str | None = None
) -> Path:
    """The data directory of the game a game file records, for every command alike:
    ``game_dir`` when given (--game-dir); else the log's own ``game_dir`` (a directory
    inside the one holding ``file``); else the bundled game its ``title`` names."""
    if game_dir is not None:
        return Path(game_dir)
    from ferrovia.play.gamefile import game_dir_problem

    local = data.get("game_dir")
    if local is not None and file is not None and game_dir_problem(local) is None:
        candidate = Path(file).parent / str(local)
        if (candidate / "game.yaml").is_file():
            return candidate
        raise FerroviaError(
            f"{file}: game_dir {local!r}: no {candidate / 'game.yaml'}"
            " (the game directory moved? give --game-dir)"
        )
    title = data.get("title")
    if title is None:
        title = data.get("game")
    if title is None:
        raise FerroviaError("the game file has no 'title': cannot tell which game it is")
    try:
        return game_dir_for(str(title) if not isinstance(title, str) else title)
    except FerroviaError as exc:
        raise FerroviaError(f"{exc}; give --game-dir DIR for a game of your own") from None


def setup_problem(defn: Any, players: int, options: list[str] | tuple[str, ...]) -> str | None:
    """What is wrong with playing ``defn`` with ``players`` players and ``options``
    (options.yaml: ``players`` an option is for, ``excludes`` those it cannot go with)."""
    low, high = defn.players.min, defn.players.max
    if not low <= players <= high:
        return f"{defn.name} is for {low} to {high} players, not {players}"
    known = {o.id: o for o in defn.options}
    for i, rule in enumerate(options):
        option = known.get(rule)
        if option is None:
            return (
                f"unknown optional rule {rule!r} for {defn.name}"
                f" (it has: {', '.join(sorted(known)) or 'none'})"
            )
        if rule in options[:i]:
            return f"optional rule {rule!r} is given twice"
        if option.players and players not in option.players:
            counts = ", ".join(str(n) for n in option.players)
            return f"optional rule {rule!r} ({option.name}) is for {counts} players, not {players}"
        for other in option.excludes:
            if other in options:
                return f"optional rule {rule!r} ({option.name}) cannot be used with {other!r}"
    return None


def game_for(
    data: dict[str, Any], game_dir: Path | str | None = None
) -> tuple[Game[Any], GameState]:
    """The Game and its initial state for an export (``game_dir``, else its title's game)."""
    from ferrovia.data.definition import load_game
    from ferrovia.games import get_rules

    defn = load_game(locate_game(data, game_dir=game_dir))
    players = [(str(p["id"]), str(p.get("name", p["id"]))) for p in data["players"]]
    settings = data.get("settings") or {}
    optional = list(settings.get("optional_rules") or [])
    # what the data cannot check itself: the player count and options of *this* game
    problem = setup_problem(defn, len(players), optional)
    if problem is not None:
        raise FerroviaError(problem)
    seed = settings.get("seed")
    if seed in (None, ""):
        seed = int("".join(ch for ch in str(data.get("id", 0)) if ch.isdigit()) or 0)
    try:
        seed = int(seed)
    except (TypeError, ValueError):
        raise FerroviaError(f"settings.seed must be a whole number, not {seed!r}") from None
    game = get_rules(defn.rules).new_game(defn, len(players), optional)
    state = game.new_state(players, seed)
    return game, state


def replay(
    data: dict[str, Any],
    *,
    until: int | None = None,
    check: bool = False,
    check_routes: bool = False,
    route_limit: int | None = None,
    game_dir: Path | str | None = None,
) -> ReplayResult:
    """Apply the export's actions.  Every action is checked against the rules either way;
    ``check=True`` also snapshots before each one.  ``check_routes``: before each
    ``run_routes``, the company's optimum is computed (:func:`optimum_before`) and compared
    with the recorded revenue in ``route_check`` (``route_limit``: a candidate limit per
    turn; a turn it stops is listed as inexact, never silently).  Without ``check`` a failing
    action may leave the state half-changed, so on failure the game is replayed again up to
    the action before it (same result, deterministic) and the report shows the state exactly
    as it was."""
    res = _replay(
        data,
        until=until,
        check=check,
        check_routes=check_routes,
        route_limit=route_limit,
        game_dir=game_dir,
    )
    if res.error is not None and not check and res.failed_action is not None:
        before = _replay(
            data, until=None, check=True, stop_before=res.failed_action, game_dir=game_dir
        )
        before.error, before.failed_action = res.error, res.failed_action
        before.load_seconds, before.replay_seconds = res.load_seconds, res.replay_seconds
        before.route_check = res.route_check
        return before
    return res


def _replay(
    data: dict[str, Any],
    *,
    until: int | None,
    check: bool,
    stop_before: dict[str, Any] | None = None,
    check_routes: bool = False,
    route_limit: int | None = None,
    game_dir: Path | str | None = None,
) -> ReplayResult:
    with _collector_eased():
        t0 = time.perf_counter()
        game, state = game_for(data, game_dir)
        gc.freeze()  # the definition just loaded lives as long as the replay: set aside too
        game.check = check
        actions = filter_actions(list(data.get("actions") or []))
        parsed = [action_from_json(a, game.action_types) for a in actions]
        t1 = time.perf_counter()
        n = 0
        err: GameError | None = None
        failed: dict[str, Any] | None = None
        rc = RouteCheck() if check_routes else None
        for raw, action in zip(actions, parsed, strict=True):
            if until is not None and action.id is not None and action.id > until:
                break
            if stop_before is not None and raw is stop_before:
                break
            if rc is not None and isinstance(action, RunRoutes):
                assert isinstance(game, Game18xx) and isinstance(state, State18xx)
                tc = time.perf_counter()
                rc.add(optimum_before(game, state, action, limit=route_limit))
                rc.seconds += time.perf_counter() - tc
            try:
                game.apply(state, action)
            except GameError as exc:
                err, failed = exc, raw
                break
            n += 1
    t2 = time.perf_counter()
    return ReplayResult(game, state, n, t1 - t0, t2 - t1, err, failed, route_check=rc)


#: young objects between two passes of the cyclic collector while a replay runs (Python's 700)
_REPLAY_GC_THRESHOLD = 10_000


@contextmanager
def _collector_eased() -> Iterator[None]:
    """Fewer, shorter cyclic-collector passes while a game is loaded and its actions applied:
    what exists before (imports, caches) is set aside (gc.freeze, and the caller sets the
    loaded definition aside too) so no pass walks it, and passes come every 10,000 new
    objects, not 700.  A replay makes ~120 passes otherwise, a tenth of its time
    (1858-quick-start-a: 0.10 s of 0.9 s; 0.01-0.04 s eased).  Memory is still freed by
    reference counting; both settings are put back after.  A caller that had frozen objects
    itself (``play`` does) keeps them frozen: unfreezing is all-or-nothing, so then the
    replay's objects stay set aside with the caller's until the caller unfreezes."""
    old = gc.get_threshold()
    callers_frozen = gc.get_freeze_count() > 0
    gc.freeze()
    gc.set_threshold(max(old[0], _REPLAY_GC_THRESHOLD), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)
        if not callers_frozen:
            gc.unfreeze()


def describe_failure(res: ReplayResult) -> str:
    """The failing action, the rule and the state around it, for a person to act on."""
    assert res.error is not None and res.failed_action is not None
    a = res.failed_action
    s = res.state
    g = res.game
    lines = [
        f"action {a.get('id')} ({a.get('type')} by {a.get('entity')}) cannot be applied: "
        f"{res.error.message}" + (f" [rule: {res.error.rule}]" if res.error.rule else ""),
        f"  action: {json.dumps(a)[:400]}",
        f"  round: {s.round.kind} {s.turn}.{s.round.num}"
        + (f", phase {s.phase}" if isinstance(s, State18xx) else "")
        + ", "
        f"acting: {g.current_entity(s)}",
        "  players: " + ", ".join(f"{p.name}({p.id}) {p.cash}" for p in s.players),
        "  recent log: " + " | ".join(s.log[-6:]),
    ]
    from ferrovia.errors import visible

    return visible("\n".join(lines))
