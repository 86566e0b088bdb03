"""The rules' view of a game definition: the numbers and lists the rules core reads, resolved
once per Game (immutable).  Built from :mod:`ferrovia.definition` (``GameDefinition``); nothing
here is a game constant — every value comes from ``gamedata/<game>/*.yaml``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class CorpDef:
    sym: str
    name: str
    structure: str  # key of share_structures
    float_percent: int
    station_markers: int


@dataclass(frozen=True)
class PrivateDef:
    number: int
    sym: str
    name: str
    batch: int | None
    face_value: int
    minimum_bid: int
    income: tuple[tuple[str, int], ...]  # (phase from which, income), in phase order
    home_hexes: tuple[str, ...]
    reservations: tuple[tuple[str, int, int], ...]  # (hex, city, slot)
    start_cities: tuple[tuple[str, int], ...]  # (hex, city) where a started company's home goes
    can_start: bool
    exchange_for_share: bool
    minor: bool
    kind: str = "railway"  # 'railway' or 'works' (privates.yaml kind)


@dataclass(frozen=True)
class TrainDef:
    id: str  # 18xx.games train id, e.g. '2H-0'
    name: str  # type name (broad face)
    price: int
    variants: tuple[tuple[str, int], ...]  # (face name, price) including the type's own face


@dataclass(frozen=True)
class PhaseDef:
    name: str
    on: tuple[str, ...]
    tiles: tuple[str, ...]
    operating_rounds: int
    train_limit: tuple[tuple[str, int], ...]
    status: tuple[str, ...]


@dataclass(frozen=True)
class Cell:
    """One stock-market space: its price and zone letters (``p`` par, ``y``/``o``/``b`` the
    yellow, orange and brown zones, ``c`` closes)."""

    price: int
    flags: str = ""

    @property
    def par(self) -> bool:
        return "p" in self.flags

    @property
    def counts_for_limit(self) -> bool:
        """Certificates of a company priced here count toward the certificate limit."""
        return not any(f in self.flags for f in "yob")

    @property
    def above_holding_limit(self) -> bool:
        """A player may hold more than the holding limit of a company priced here."""
        return any(f in self.flags for f in "ob")

    @property
    def buy_multiple(self) -> bool:
        return "b" in self.flags


def parse_cell(code: str | int) -> Cell | None:
    """``'100p'`` -> Cell(100, 'p'); ``''`` -> None (no space).

    >>> parse_cell("60y"), parse_cell(67), parse_cell("")
    (Cell(price=60, flags='y'), Cell(price=67, flags=''), None)
    """
    text = str(code)
    if not text:
        return None
    digits = "".join(ch for ch in text if ch.isdigit())
    return Cell(int(digits), text[len(digits) :])


@dataclass(frozen=True)
class RulesData:
    """Everything the rules core reads from the definition, for one player count."""

    num_players: int
    starting_cash: int
    bank_cash: int
    cert_limit: int
    pool_limit: int
    holding_limit: int | None
    market: tuple[int, ...]  # linear stock market, prices left to right
    par_values: tuple[int, ...]
    share_structures: dict[str, tuple[int, ...]]
    corporations: tuple[CorpDef, ...]
    privates: tuple[PrivateDef, ...]
    trains: tuple[TrainDef, ...]
    phases: tuple[PhaseDef, ...]
    tiles: dict[str, int | None]  # tile name -> count (None: unlimited)
    hexes: dict[str, Any] = field(default_factory=dict)  # coord -> map hex definition
    min_bid_increment: int = 5
    packets: dict[str, tuple[tuple[tuple[str, ...], int], ...]] = field(default_factory=dict)
    grid: tuple[tuple[Cell | None, ...], ...] = ()
    """The market as rows of cells (a linear market is one row)."""
    grid_market: bool = False
    """Whether the market is 2-D (prices move up and down as well as left and right)."""

    def cell(self, pos: list[int] | tuple[int, int]) -> Cell | None:
        row, col = pos
        if 0 <= row < len(self.grid) and 0 <= col < len(self.grid[row]):
            return self.grid[row][col]
        return None

    def private(self, sym: str) -> PrivateDef:
        for p in self.privates:
            if p.sym == sym:
                return p
        raise KeyError(sym)

    def corporation(self, sym: str) -> CorpDef:
        for c in self.corporations:
            if c.sym == sym:
                return c
        raise KeyError(sym)

    def phase(self, name: str) -> PhaseDef:
        for p in self.phases:
            if p.name == name:
                return p
        raise KeyError(name)


def _income(p: Any, phase_names: list[str]) -> tuple[tuple[str, int], ...]:
    items = [(str(k), int(v)) for k, v in p.income.items()]
    order = {n: i for i, n in enumerate(phase_names)}
    items.sort(key=lambda kv: order.get(kv[0], 99))
    return tuple(items)


def rules_data(defn: Any, num_players: int) -> RulesData:
    """Resolve a :class:`ferrovia.definition.GameDefinition` for ``num_players`` players."""
    m = defn.market
    phase_names = [p.name for p in defn.phases]
    corps = tuple(
        CorpDef(
            sym=c.symbol,
            name=c.name,
            structure=c.structure,
            float_percent=c.float_percent,
            station_markers=c.station_markers,
        )
        for c in defn.corporations
    )
    privs = tuple(
        PrivateDef(
            number=p.number,
            sym=p.symbol,
            name=p.name,
            batch=p.batch,
            face_value=p.face_value,
            minimum_bid=p.minimum_bid,
            income=_income(p, phase_names),
            home_hexes=tuple(p.home_hexes),
            reservations=tuple((r.hex, r.city, r.slot) for r in p.reservations),
            start_cities=tuple((c.hex, c.city) for c in p.start_cities),
            can_start=p.can_start != "none",
            exchange_for_share=p.exchange_for_share,
            minor=p.minor,
            kind=p.kind,
        )
        for p in sorted(defn.privates, key=lambda p: p.number)
    )
    trains: list[TrainDef] = []
    for t in defn.trains:
        count = defn.train_count(t.name, num_players)
        n = 20 if count is None else count
        faces = ((t.name, t.price), *((v.name, v.price) for v in t.variants))
        for i in range(n):
            trains.append(TrainDef(id=f"{t.name}-{i}", name=t.name, price=t.price, variants=faces))
    phases = tuple(
        PhaseDef(
            name=p.name,
            on=tuple(p.on),
            tiles=tuple(str(c) for c in p.tiles),
            operating_rounds=p.operating_rounds,
            train_limit=tuple((k, v) for k, v in p.train_limit.items()),
            status=tuple(p.status),
        )
        for p in defn.phases
    )
    packets: dict[str, tuple[tuple[tuple[str, ...], int], ...]] = {}
    for opt in defn.options:
        pk = opt.packets.get(num_players) if opt.packets else None
        if pk:
            packets[opt.id] = tuple((tuple(x.privates), x.cost) for x in pk)
    holding = m.holding_limit.get(num_players) if m.holding_limit else None
    sm = m.stock_market
    if sm.shape == "grid":
        grid = tuple(tuple(parse_cell(c) for c in row) for row in sm.rows)
    else:
        pars = set(sm.par_values)
        grid = (tuple(Cell(p, "p" if p in pars else "") for p in sm.spaces),)
    return RulesData(
        num_players=num_players,
        starting_cash=defn.starting_cash(num_players),
        bank_cash=defn.bank_cash(num_players),
        cert_limit=defn.cert_limit(num_players),
        pool_limit=m.bank_pool_limit,
        holding_limit=holding,
        market=tuple(sm.spaces)
        if sm.shape == "linear"
        else tuple(c.price if c else 0 for c in grid[0]),
        par_values=tuple(sm.par_values)
        if sm.shape == "linear"
        else tuple(sorted({c.price for row in grid for c in row if c and c.par}, reverse=True)),
        share_structures={k: tuple(v.shares) for k, v in defn.share_structures.items()},
        corporations=corps,
        privates=privs,
        trains=tuple(trains),
        phases=phases,
        tiles={k: v.count for k, v in defn.tiles.items()},
        hexes=dict(defn.hexes),
        min_bid_increment=m.minimum_bid_increment or 5,
        packets=packets,
        grid=grid,
        grid_market=sm.shape == "grid",
    )
