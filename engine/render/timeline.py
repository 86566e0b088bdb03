"""A game file as a sequence of drawable frames, one per action, with the log in words.

A game file is an 18xx.games export (or a Ferrovia log in the same shape: ``players``,
``settings``, ``actions``). Undo and redo are resolved first, exactly as 18xx.games does (an
undo takes back the last action, or everything after ``action_id``; a redo restores the last
undo; any other action forgets pending redos).

The rules engine replays the actions where it can, giving full frames (board and panels with
money). Where it cannot (a rule not implemented yet, or the game's rules not available) the
timeline carries on with the board alone, following each ``lay_tile`` and ``place_token``, and
says so in the frame's note: the viewer keeps working while the rules engine grows.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ferrovia.render.map_svg import MapState
from ferrovia.render.source import BoardSource
from ferrovia.render.state_svg import StateView, map_state_from_hexes, views_from_gamestate


@dataclass
class HexNow:
    """The board-only tracker's record of a hex (the same fields as the rules engine's Hex)."""

    coord: str
    tile: str
    rotation: int = 0
    tokens: list[list[str | None]] = field(default_factory=list)


@dataclass(frozen=True)
class Frame:
    index: int
    action_id: int | None
    text: str
    map_state: MapState
    view: StateView
    hexes: Mapping[str, tuple[str, int, tuple[tuple[str | None, ...], ...]]]  # for diffs


@dataclass
class Timeline:
    title: str
    frames: list[Frame]
    note: str = ""

    def frame_at(self, action_id: int | None) -> Frame:
        """The frame after action ``action_id`` (the last one at or before it); None: the end."""
        if action_id is None:
            return self.frames[-1]
        best = self.frames[0]
        for frame in self.frames:
            if frame.action_id is not None and frame.action_id <= action_id:
                best = frame
        return best


def load_game_file(path: Path) -> dict[str, Any]:
    """The game file, shape-checked (errors at FILE:LINE:COL); ``players`` may be absent."""
    from ferrovia.play.gamefile import read_game_file

    return read_game_file(path, require_players=False)


def filter_undos(actions: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The actions that count once undo/redo are applied (the replay harness's rule)."""
    from ferrovia.play.replay import filter_actions

    return list(filter_actions([dict(a) for a in actions]))


# ----------------------------------------------------------------------------- words
class Words:
    """The log in words: '<who> lays tile 57 on O8 (Barcelona), rotation 2, paying P0'."""

    def __init__(self, board: BoardSource, names: Mapping[str, str]) -> None:
        self.names = dict(names)
        self.currency = board.currency
        self.places = {h.coord: h.name for h in board.hexes if h.name}
        self.last_run: dict[str, int] = {}  # entity -> revenue of its latest run

    def who(self, ref: object) -> str:
        return self.names.get(str(ref), str(ref))

    def money(self, amount: object) -> str:
        return self.currency.replace("%d", str(amount))

    def where(self, coord: str) -> str:
        name = self.places.get(coord)
        return f"{coord} ({name})" if name else coord

    def describe(self, a: Mapping[str, Any], paid: int | None, touched: Sequence[str] = ()) -> str:
        kind = str(a.get("type"))
        who = self.who(a.get("entity"))
        m = self.money
        cost = f", paying {m(paid)}" if paid is not None else ""
        if kind == "lay_tile":
            tile = str(a.get("tile", "?")).rsplit("-", 1)[0]
            return (
                f"{who} lays tile {tile} on {self.where(str(a.get('hex')))}, "
                f"rotation {a.get('rotation', 0)}{cost}"
            )
        if kind == "place_token":
            place = self.where(touched[0]) if touched else str(a.get("city", ""))
            return f"{who} places a station marker in {place}{cost}"
        if kind == "bid":
            return f"{who} bids {m(a.get('price'))} for {a.get('company')}"
        if kind == "par":
            price = str(a.get("share_price", "")).split(",")[0]
            spent = f", paying {m(paid)}" if paid else ""
            return f"{who} starts {a.get('corporation')} at par {m(price)}{spent}"
        if kind == "buy_shares":
            shares = ", ".join(a.get("shares") or [])
            pct = f" ({a.get('percent')}%)" if a.get("percent") else ""
            price = f" for {m(paid)}" if paid is not None and paid > 0 else ""
            return f"{who} buys {shares}{pct}{price}"
        if kind == "sell_shares":
            shares = ", ".join(a.get("shares") or [])
            owner = str(a.get("entity"))
            if all(str(x).rsplit("_", 1)[0] == owner for x in a.get("shares") or []):
                return f"{who} issues {shares} to the bank pool"
            gain = f" for {m(-paid)}" if paid is not None and paid < 0 else ""
            return f"{who} sells {shares}{gain}"
        if kind == "run_routes":
            routes = a.get("routes") or []
            total = sum(int(r.get("revenue", 0)) for r in routes)
            trains = ", ".join(str(r.get("train", "?")).rsplit("-", 1)[0] for r in routes)
            self.last_run[str(a.get("entity"))] = total
            return f"{who} runs {len(routes)} train(s) ({trains}) for {m(total)}"
        if kind == "dividend":
            what = {"payout": "pays out", "withhold": "withholds", "half": "pays half of"}.get(
                str(a.get("kind")), str(a.get("kind"))
            )
            run = self.last_run.pop(str(a.get("entity")), None)
            return f"{who} {what} {m(run)}" if run is not None else f"{who} {what}"
        if kind == "buy_train":
            train = str(a.get("train", "?")).rsplit("-", 1)[0]
            variant = f" as {a['variant']}" if a.get("variant") not in (None, train) else ""
            return f"{who} buys a {train} train{variant} for {m(a.get('price', 0))}"
        if kind in ("discard_train", "scrap_train"):
            verb = "discards" if kind == "discard_train" else "scraps"
            return f"{who} {verb} train {a.get('train')}"
        if kind == "buy_company":
            return f"{who} buys {a.get('company')} for {m(a.get('price'))}"
        if kind == "pass":
            return f"{who} passes"
        if kind == "convert":
            return f"{who} converts to a 10-share company"
        if kind == "choose":
            choice = a.get("choice")
            if isinstance(choice, Mapping):
                choice = ", ".join(f"{k} {v}" for k, v in choice.items())
            return f"{who} chooses {choice}"
        if kind == "message":
            return f"{who} says: {a.get('message', '')}"
        if kind.startswith("program_"):
            return f"{who} sets {kind.removeprefix('program_').replace('_', ' ')}"
        return f"{who}: {kind.replace('_', ' ')}"


# ----------------------------------------------------------------------------- building
def _freeze_hexes(
    hexes: Mapping[str, Any],
) -> dict[str, tuple[str, int, tuple[tuple[str | None, ...], ...]]]:
    return {
        c: (str(h.tile), int(h.rotation), tuple(tuple(s) for s in (h.tokens or [])))
        for c, h in hexes.items()
    }


class _BoardOnly:
    """Follows tile lays and station markers when the rules engine cannot replay a game."""

    def __init__(self, board: BoardSource, hexes: Mapping[str, Any] | None = None) -> None:
        self.board = board
        self.tiles = {t.name: t.tile for t in board.tiles}
        self.printed = {h.coord: h.tile for h in board.hexes}
        if hexes is not None:
            self.hexes = {
                c: HexNow(c, str(h.tile), int(h.rotation), [list(s) for s in (h.tokens or [])])
                for c, h in hexes.items()
            }
        else:
            self.hexes = {
                h.coord: HexNow(
                    h.coord, f"{h.coord}-0", 0, [[None] * c.slots for c in h.tile.cities]
                )
                for h in board.hexes
            }

    def apply(self, a: Mapping[str, Any]) -> set[str]:
        kind = a.get("type")
        touched: set[str] = set()
        if kind == "lay_tile":
            coord = str(a.get("hex"))
            h = self.hexes.get(coord)
            tile = self.tiles.get(str(a.get("tile")).rsplit("-", 1)[0])
            if h is not None and tile is not None:
                h.tile = str(a.get("tile"))
                h.rotation = int(a.get("rotation") or 0)
                old = [s for city in h.tokens for s in city if s]
                h.tokens = [[None] * c.slots for c in tile.cities]
                # upgrades keep station markers; put them back in order
                slots = [(i, j) for i, c in enumerate(h.tokens) for j in range(len(c))]
                for sym, (i, j) in zip(old, slots, strict=False):
                    h.tokens[i][j] = sym
                touched.add(coord)
        elif kind == "place_token":
            ref = str(a.get("city", ""))
            tile_id, _, idx = ref.rpartition("-")
            for h in self.hexes.values():
                name = tile_id.rsplit("-", 1)[0]
                if h.tile == tile_id or (name == h.coord and h.tile == f"{h.coord}-0"):
                    ci = int(idx) if idx.isdigit() else 0
                    if ci < len(h.tokens):
                        row = h.tokens[ci]
                        slot = int(a.get("slot") or 0)
                        if slot >= len(row) or row[slot] is not None:
                            slot = next((k for k, s in enumerate(row) if s is None), -1)
                        if slot >= 0:
                            row[slot] = str(a.get("entity"))
                            touched.add(h.coord)
                    break
        return touched


def _rules_engine(game_dir: Path, data: Mapping[str, Any]) -> tuple[Any, Any] | str:
    """(game, initial state) from the rules engine, or the reason it is not available."""
    from ferrovia.errors import FerroviaError
    from ferrovia.play.replay import game_for

    try:
        # the replay's own setup (seed, options, seating, player count) for every game alike
        return game_for(dict(data), game_dir)
    except FerroviaError as exc:  # bad data or setup: fall back to the board alone
        return f"rules engine could not set the game up: {exc}"
    except Exception as exc:  # e.g. no players in a board-only file: the board alone still draws
        return f"rules engine could not set the game up: {type(exc).__name__}: {exc}"


def build_timeline(
    board: BoardSource,
    path: Path,
    *,
    game_dir: Path | None = None,
    upto: int | None = None,
    use_rules: bool = True,
) -> Timeline:
    """Frames for every counted action of the game file at ``path`` (up to action ``upto``)."""
    data = load_game_file(path)
    actions = filter_undos(data["actions"])
    names = {str(p.get("id")): str(p.get("name", p.get("id"))) for p in data.get("players", [])}
    words = Words(board, names)
    spaces = list(board.market_spaces)
    title = f"{data.get('title', board.title)} game {data.get('id', path.stem)}"
    engine: tuple[Any, Any] | str = "rules replay not requested"
    if use_rules and game_dir is not None:
        engine = _rules_engine(game_dir, data)
    note = ""
    game = state = None
    tracker: _BoardOnly | None = None
    if isinstance(engine, tuple):
        game, state = engine
    else:
        note = f"board only: {engine}"
        tracker = _BoardOnly(board)

    last_view: list[StateView | None] = [None]

    def snapshot(index: int, action_id: int | None, text: str, touched: set[str]) -> Frame:
        heading = f"{title}: after action {action_id}" if action_id is not None else title
        if state is not None and tracker is None:
            try:
                acting = game.current_entity(state) if game is not None else None
            except Exception:  # a question the rules cannot answer yet must not stop drawing
                acting = None
            map_state, view = views_from_gamestate(
                board,
                state,
                market_spaces=spaces,
                heading=heading,
                highlight=frozenset(touched),
                acting=acting,
            )
            hexes = _freeze_hexes(state.hexes)
            last_view[0] = view
        else:
            assert tracker is not None
            map_state = map_state_from_hexes(board, tracker.hexes, highlight=frozenset(touched))
            view = StateView(
                heading=heading,
                bank=None,
                phase="",
                market=(),
                companies=(),
                players=(),
                note=note,
                currency=board.currency,
            )
            hexes = _freeze_hexes(tracker.hexes)
        if note and view.note != note:
            view = dataclasses.replace(view, note=note)
        return Frame(index, action_id, text, map_state, view, hexes)

    frames = [snapshot(0, None, "Start of the game", set())]
    for a in actions:
        action_id = a.get("id")
        if upto is not None and isinstance(action_id, int) and action_id > upto:
            break
        paid: int | None = None
        touched: set[str] = set()
        if tracker is None and game is not None and state is not None:
            from ferrovia.kernel.actions import action_from_json

            before = state.bank_cash
            before_hexes = _freeze_hexes(state.hexes)
            who = str(a.get("entity"))
            try:
                own_before: int | None = state.cash_of(who)
            except (KeyError, AttributeError):
                own_before = None
            try:
                game.apply(state, action_from_json(dict(a), game.action_types))
            except Exception as exc:
                note = (
                    f"panels frozen at the action before {action_id}; the board follows tile "
                    f"lays and stations only: the rules engine stopped "
                    f"({type(exc).__name__}: {str(exc).splitlines()[0][:140]})"
                )
                tracker = _BoardOnly(board, copy.deepcopy(state.hexes))
                touched = tracker.apply(a)
            else:
                if a.get("type") in ("lay_tile", "place_token"):
                    paid = state.bank_cash - before  # what the bank received
                elif a.get("type") in ("buy_shares", "par") and own_before is not None:
                    paid = own_before - state.cash_of(who)  # what the buyer spent
                after = _freeze_hexes(state.hexes)
                touched = {c for c, v in after.items() if before_hexes.get(c) != v}
        else:
            assert tracker is not None
            touched = tracker.apply(a)
        text = words.describe(a, paid, sorted(touched))
        frames.append(
            snapshot(len(frames), action_id if isinstance(action_id, int) else None, text, touched)
        )
    return Timeline(title=title, frames=frames, note=note)
