"""A game after an action: the board as play has left it, and side panels with the money.

Two plain snapshots feed the drawing, so any source of game states plugs in with a thin adapter:

* :class:`~ferrovia.render.map_svg.MapState` for the board (laid tiles and rotations, station
  markers per city slot);
* :class:`StateView` for the panels: the stock market in stack order, each company's treasury,
  trains and shares, each player's cash and certificates.

:func:`views_from_gamestate` is the adapter for the rules engine's
:class:`~ferrovia.lib18xx.state.State18xx`; :mod:`ferrovia.render.timeline` builds them action by
action from a game file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ferrovia.render.map_svg import LaidTile, MapState, render_map_body
from ferrovia.render.source import BoardSource
from ferrovia.render.svg import document, el
from ferrovia.render.tile_svg import FONT, Token, colour

if TYPE_CHECKING:
    from ferrovia.lib18xx.state import State18xx

PANEL_WIDTH = 900.0


@dataclass(frozen=True)
class CompanyRow:
    sym: str
    fill: str
    text: str
    treasury: int
    price: int | None
    par: int | None
    director: str | None
    trains: tuple[str, ...]
    shares: tuple[tuple[str, int], ...]  # (holder name, percent), treasury and pool included
    tokens_left: int
    status: str = ""  # "", "closed", "not started"
    name: str = ""  # companies.yaml name: the marker's tooltip


@dataclass(frozen=True)
class PlayerRow:
    id: str
    name: str
    cash: int
    certificates: tuple[str, ...]  # "MZA 40% (director)", "B&M"
    priority: bool = False


@dataclass(frozen=True)
class MarketCell:
    price: int
    companies: tuple[str, ...]  # stack order: first arrived first


@dataclass(frozen=True)
class StateView:
    """Everything the side panels show (plain data; serialises to JSON for the viewer)."""

    heading: str
    bank: int | None
    phase: str
    market: tuple[MarketCell, ...]
    companies: tuple[CompanyRow, ...]
    players: tuple[PlayerRow, ...]
    privates: tuple[tuple[str, str], ...] = ()  # (symbol, owner name or "closed")
    note: str = ""
    round: str = ""  # "Operating round 3.1: MZA to act"
    depot: tuple[tuple[str, int], ...] = ()  # trains for sale in order: (name, how many)
    colors: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    currency: str = "P%d"

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (hand-built: ``dataclasses.asdict`` is slow for a frame per action)."""
        return {
            "heading": self.heading,
            "bank": self.bank,
            "phase": self.phase,
            "market": [{"price": c.price, "companies": list(c.companies)} for c in self.market],
            "companies": [
                {
                    "sym": c.sym,
                    "fill": c.fill,
                    "text": c.text,
                    "treasury": c.treasury,
                    "price": c.price,
                    "par": c.par,
                    "director": c.director,
                    "trains": list(c.trains),
                    "shares": [list(s) for s in c.shares],
                    "tokens_left": c.tokens_left,
                    "status": c.status,
                }
                for c in self.companies
            ],
            "players": [
                {
                    "id": p.id,
                    "name": p.name,
                    "cash": p.cash,
                    "certificates": list(p.certificates),
                    "priority": p.priority,
                }
                for p in self.players
            ],
            "privates": [list(p) for p in self.privates],
            "note": self.note,
            "round": self.round,
            "depot": [list(d) for d in self.depot],
            "colors": {k: list(v) for k, v in self.colors.items()},
        }


def money(amount: int | None, currency: str = "P%d") -> str:
    """``amount`` in the game's currency format (``'$%d'`` for 1830, ``'P%d'`` for 1858)."""
    return "" if amount is None else currency.replace("%d", str(amount))


# ----------------------------------------------------------------------------- adapters
def company_token(board: BoardSource, sym: str) -> Token:
    fill, text = board.company_colors.get(sym, ("#666666", "white"))
    return Token(sym, fill, text)


def map_state_from_hexes(
    board: BoardSource,
    hexes: Mapping[str, Any],
    tiles_by_name: Mapping[str, Any] | None = None,
    *,
    removed: frozenset[str] = frozenset(),
    highlight: frozenset[str] = frozenset(),
) -> MapState:
    """``hexes``: coord -> object with ``tile`` (instance id), ``rotation``, ``tokens``.

    Works on :class:`ferrovia.kernel.state.Hex` and on the timeline's own hex records alike.
    """
    by_name = tiles_by_name if tiles_by_name is not None else {t.name: t for t in board.tiles}
    printed = {h.coord for h in board.hexes}
    laid: dict[str, LaidTile] = {}
    tokens: dict[str, dict[int, list[Token | None]]] = {}
    reserved: dict[str, dict[int, list[str | None]]] | None = None
    for coord, h in hexes.items():
        held = getattr(h, "reservations", None)
        if held is not None:
            reserved = reserved if reserved is not None else {}
            # two privates may share a space until it gets a second one: "A/B" in one slot
            rows: dict[int, list[str | None]] = {}
            for ci, slots in enumerate(held):
                if not any(slots):
                    continue
                cap = len(h.tokens[ci]) if ci < len(h.tokens or []) else len(slots)
                row: list[str | None] = list(slots[:cap]) + [None] * max(0, cap - len(slots))
                for extra in slots[cap:]:
                    if extra:
                        last = max(cap - 1, 0)
                        row[last] = f"{row[last]}/{extra}" if row[last] else extra
                rows[ci] = row
            if rows:
                reserved[coord] = rows
        name = str(h.tile).rsplit("-", 1)[0]
        if name not in printed and name in by_name:
            entry = by_name[name]
            laid[coord] = LaidTile(entry.tile, entry.color, int(h.rotation), name)
        per_city: dict[int, list[Token | None]] = {}
        for ci, slots in enumerate(h.tokens or []):
            markers = [company_token(board, s) if s else None for s in slots]
            if any(markers):
                per_city[ci] = markers
        if per_city:
            tokens[coord] = per_city
    return MapState(
        tiles=laid, tokens=tokens, removed_markers=removed, highlight=highlight, reserved=reserved
    )


def _market_price(board_market: Sequence[int], key: str) -> int | None:
    try:
        row, col = (int(v) for v in key.split(","))
    except ValueError:
        return None
    del row  # 1858's market is one row; a 2D market would need the grid here
    return board_market[col] if 0 <= col < len(board_market) else None


def _depot(state: State18xx) -> tuple[tuple[str, int], ...]:
    """Trains still for sale, in the order the bank sells them, counted by name."""
    out: list[tuple[str, int]] = []
    for tid in state.depot:
        train = state.trains.get(tid)
        name = train.name if train is not None else tid.rsplit("-", 1)[0]
        if out and out[-1][0] == name:
            out[-1] = (name, out[-1][1] + 1)
        else:
            out.append((name, 1))
    return tuple(out)


def round_text(state: State18xx, acting: str | None = None) -> str:
    """'Stock round 2', 'Operating round 3.1', with who acts next when known."""
    kind = state.round.kind
    if state.finished:
        return f"Game over: {state.game_end_reason}" if state.game_end_reason else "Game over"
    if kind == "stock":
        text = f"Stock round {state.turn}"
    elif kind == "operating":
        text = f"Operating round {state.turn}.{state.round.num}"
    elif kind in ("none", ""):
        text = ""
    else:
        text = f"{kind.replace('_', ' ').capitalize()} round"
    if acting:
        text = f"{text}: {acting} to act" if text else f"{acting} to act"
    return text


def views_from_gamestate(
    board: BoardSource,
    state: State18xx,
    *,
    market_spaces: Sequence[int] = (),
    heading: str = "",
    highlight: frozenset[str] = frozenset(),
    acting: str | None = None,
) -> tuple[MapState, StateView]:
    """The board and panel snapshots of a rules-engine state (``acting``: its entity ref)."""
    names = {p.id: p.name for p in state.players}
    closed = frozenset(sym for sym, p in state.privates.items() if p.closed)
    map_state = map_state_from_hexes(board, state.hexes, removed=closed, highlight=highlight)
    market: list[MarketCell] = []
    for key, corps in state.market.items():
        if not corps:
            continue
        price = _market_price(market_spaces, key)
        market.append(MarketCell(price if price is not None else 0, tuple(corps)))
    market.sort(key=lambda c: -c.price)
    companies: list[CompanyRow] = []
    for sym, corp in state.corporations.items():
        token = company_token(board, sym)
        holders: dict[str, int] = {}
        for share in corp.shares:
            who = (
                "treasury"
                if share.owner == sym
                else "pool"
                if share.owner == "pool"
                else names.get(share.owner, share.owner)
            )
            holders[who] = holders.get(who, 0) + share.percent
        price = _market_price(market_spaces, ",".join(str(v) for v in corp.market or []))
        status = "closed" if corp.closed else "" if corp.ipoed else "not started"
        companies.append(
            CompanyRow(
                sym=sym,
                fill=token.fill,
                text=token.text,
                treasury=corp.cash,
                price=price if corp.market else None,
                par=corp.par_price,
                director=names.get(corp.director or "", corp.director),
                trains=tuple(state.trains[t].name if t in state.trains else t for t in corp.trains),
                shares=tuple(sorted(holders.items(), key=lambda kv: -kv[1])),
                tokens_left=sum(1 for t in corp.tokens if not t.used),
                status=status,
                name=board.company_names.get(sym, ""),
            )
        )
    players: list[PlayerRow] = []
    for i, p in enumerate(state.players):
        certs: list[str] = []
        for sym, corp in state.corporations.items():
            pct = sum(s.percent for s in corp.shares if s.owner == p.id)
            if pct:
                director = " (director)" if corp.director == p.id else ""
                certs.append(f"{sym} {pct}%{director}")
        certs.extend(p.companies)
        players.append(PlayerRow(p.id, p.name, p.cash, tuple(certs), priority=i == 0))
    privates = tuple(
        (sym, "closed" if pr.closed else names.get(pr.owner, pr.owner))
        for sym, pr in state.privates.items()
    )
    view = StateView(
        heading=heading,
        bank=state.bank_cash,
        phase=state.phase,
        market=tuple(market),
        companies=tuple(companies),
        players=tuple(players),
        privates=privates,
        colors={k: v for k, v in board.company_colors.items()},
        round=round_text(state, names.get(acting or "", acting)),
        depot=_depot(state),
        currency=board.currency,
    )
    return map_state, view


# ----------------------------------------------------------------------------- drawing
def _t(x: float, y: float, text: str, size: float = 22, **extra: str | float | None) -> str:
    attrs: dict[str, str | float | None] = {"x": x, "y": y, "font_size": size}
    attrs.update(extra)
    return el("text", attrs, text=text)


def panel_svg(view: StateView, x0: float, y0: float, width: float = PANEL_WIDTH) -> str:
    """The side panel: heading, bank and phase, market, companies, players, privates; each
    section drawn below the one before (each returns its parts and the height it reached)."""
    parts: list[str] = []
    y = y0
    for section in (_heading, _market, _companies, _players, _privates):
        drawn, y = section(view, x0, y, width)
        parts.extend(drawn)
    return el("g", {"class": "panel", "font_family": FONT}, parts)


def _heading(view: StateView, x0: float, y: float, width: float) -> tuple[list[str], float]:
    """Heading, bank and phase, round, trains for sale, a note."""
    y += 34
    parts = [_t(x0, y, view.heading or "Game state", 30, font_weight="bold", class_="heading")]
    y += 38
    bank = (
        f"Bank {money(view.bank, view.currency)}" if view.bank is not None else "Bank: not tracked"
    )
    parts.append(_t(x0, y, f"{bank}    Phase {view.phase or '–'}", 22, class_="bank"))
    if view.round:
        y += 30
        parts.append(_t(x0, y, view.round, 22, class_="round"))
    if view.depot:
        y += 30
        depot = ", ".join(f"{name} ×{n}" for name, n in view.depot)
        parts.append(_t(x0, y, f"Trains for sale: {depot}", 18, class_="depot"))
    if view.note:
        y += 30
        parts.append(_t(x0, y, view.note, 18, fill="#a00", class_="note"))
    return parts, y


def _market(view: StateView, x0: float, y: float, width: float) -> tuple[list[str], float]:
    """One box per occupied price, companies stacked in arrival order."""
    y += 44
    title = _t(x0, y, "Stock market (stack order: first arrived on top)", 22, font_weight="bold")
    y += 14
    cell_w = 96.0
    x = x0
    tallest = 0
    boxes: list[str] = []
    for cell in view.market:
        if x + cell_w > x0 + width:
            x = x0
            y += 30 + 30 * tallest
            tallest = 0
        box: dict[str, str | float] = {
            "x": x,
            "y": y,
            "width": cell_w - 6,
            "height": 28,
            "fill": "#eee",
            "stroke": "#999",
        }
        boxes.append(el("rect", box))
        boxes.append(_t(x + 8, y + 21, money(cell.price, view.currency), 18))
        for k, sym in enumerate(cell.companies):
            fill, text = view.colors.get(sym, ("#666666", "white"))
            cy = y + 30 + 30 * k
            marker: dict[str, str | float] = {
                "x": x,
                "y": cy,
                "width": cell_w - 6,
                "height": 28,
                "rx": 12,
                "fill": colour(fill),
                "stroke": "black",
            }
            boxes.append(el("rect", marker))
            boxes.append(
                _t(
                    x + (cell_w - 6) / 2,
                    cy + 20,
                    sym,
                    17,
                    fill=text,
                    text_anchor="middle",
                    font_weight="bold",
                )
            )
        tallest = max(tallest, len(cell.companies))
        x += cell_w
    y += 30 + 30 * tallest + 30
    return [title, el("g", {"class": "market"}, boxes)], y


def _companies(view: StateView, x0: float, y: float, width: float) -> tuple[list[str], float]:
    """A row per started company: treasury, price, trains, stations left, holders."""
    title = _t(x0, y, "Companies", 22, font_weight="bold")
    y += 10
    rows: list[str] = []
    for c in view.companies:
        if c.status == "not started":
            continue
        y += 34
        rows.append(
            el(
                "rect",
                {
                    "x": x0,
                    "y": y - 24,
                    "width": 70,
                    "height": 30,
                    "rx": 14,
                    "fill": colour(c.fill),
                    "stroke": "black",
                },
                [el("title", text=c.name)] if c.name else (),
            )
        )
        rows.append(
            _t(x0 + 35, y - 2, c.sym, 18, fill=c.text, text_anchor="middle", font_weight="bold")
        )
        price = (
            f"{money(c.price, view.currency)} (par {money(c.par, view.currency)})"
            if c.price is not None
            else "–"
        )
        trains = " ".join(c.trains) or "no trains"
        status = f" [{c.status}]" if c.status else ""
        rows.append(
            _t(
                x0 + 80,
                y - 2,
                f"treasury {money(c.treasury, view.currency)}   {price}   "
                f"trains: {trains}   stations left {c.tokens_left}{status}",
                18,
            )
        )
        y += 24
        holders = ", ".join(f"{who} {pct}%" for who, pct in c.shares)
        rows.append(
            _t(x0 + 80, y - 2, f"director {c.director or '–'}; shares: {holders}", 16, fill="#333")
        )
    return [title, el("g", {"class": "companies"}, rows)], y


def _players(view: StateView, x0: float, y: float, width: float) -> tuple[list[str], float]:
    """Each player's cash (and priority) with their certificates."""
    y += 46
    title = _t(x0, y, "Players", 22, font_weight="bold")
    rows: list[str] = []
    for p in view.players:
        y += 32
        mark = " (priority)" if p.priority else ""
        rows.append(
            _t(x0, y, f"{p.name}{mark}: {money(p.cash, view.currency)}", 20, font_weight="bold")
        )
        certs = ", ".join(p.certificates) or "no certificates"
        y += 24
        rows.append(_t(x0 + 20, y, certs, 16, fill="#333"))
    return [title, el("g", {"class": "players"}, rows)], y


def _privates(view: StateView, x0: float, y: float, width: float) -> tuple[list[str], float]:
    """Who owns each private railway, wrapped to the panel's width."""
    if not view.privates:
        return [], y
    y += 44
    parts = [_t(x0, y, "Private railways", 22, font_weight="bold")]
    text = ", ".join(f"{sym}: {owner}" for sym, owner in view.privates)
    line = ""
    for word in text.split(" "):
        if len(line) + len(word) > 90:
            y += 24
            parts.append(_t(x0, y, line, 16))
            line = ""
        line = f"{line} {word}".strip()
    if line:
        y += 24
        parts.append(_t(x0, y, line, 16))
    return parts, y


def render_state(
    board: BoardSource, map_state: MapState, view: StateView, *, scale: float = 0.5
) -> str:
    """Board on the left, panel on the right, as one SVG document."""
    frame, body = render_map_body(board, map_state)
    panel_x = frame.min_x + frame.width + 40
    width = frame.width + PANEL_WIDTH + 80
    height = max(frame.height, 1400.0)
    return document(
        width * scale,
        height * scale,
        (frame.min_x, frame.min_y, width, height),
        [
            el(
                "rect",
                {
                    "x": frame.min_x,
                    "y": frame.min_y,
                    "width": width,
                    "height": height,
                    "fill": "white",
                },
            ),
            body,
            panel_svg(view, panel_x, frame.min_y + 10),
        ],
        title=view.heading or f"{board.title} game state",
    )
