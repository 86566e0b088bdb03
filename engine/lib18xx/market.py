"""Share prices and values: the stock market as the rules see it.

18xx.games names a market cell ``"price,row,col"``; a linear market (1858's) is one row, so a
cell is ``[0, col]``; a grid (1830's) has rows from the top.  Price markers move in directions
as 18xx.games moves them on a 2-D market: ``right`` at a row's end goes ``up``, ``left`` at a
row's start goes ``down``; ``up`` and ``down`` stop at the top and bottom rows, and a move onto
a missing space does not happen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ferrovia.lib18xx.state import Corporation, State18xx

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx


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
        flags = self.flags  # asked for every company at every certificate count: no generator
        return not ("y" in flags or "o" in flags or "b" in flags)

    @property
    def above_holding_limit(self) -> bool:
        """A player may hold more than the holding limit of a company priced here."""
        return "o" in self.flags or "b" in self.flags

    @property
    def buy_multiple(self) -> bool:
        return "b" in self.flags


Grid = tuple[tuple[Cell | None, ...], ...]


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


def build_grid(definition: Any) -> Grid:
    """market.yaml's stock market as rows of cells (a linear market is one row)."""
    sm = definition.market.stock_market
    if sm.shape == "grid":
        return tuple(tuple(parse_cell(c) for c in row) for row in sm.rows)
    pars = set(sm.par_values)
    return (tuple(Cell(p, "p" if p in pars else "") for p in sm.spaces),)


def cell(game: Game18xx, pos: list[int] | tuple[int, int]) -> Cell | None:
    row, col = pos
    grid = game.market_grid
    if 0 <= row < len(grid) and 0 <= col < len(grid[row]):
        return grid[row][col]
    return None


def spaces(game: Game18xx) -> tuple[int, ...]:
    """The prices of the first row, left to right (all of a linear market)."""
    found = game.memo.get("market.spaces")  # the grid never changes: worked out once
    if found is None:
        found = game.memo["market.spaces"] = tuple(
            c.price if c is not None else 0 for c in game.market_grid[0]
        )
    return found


def par_values(game: Game18xx) -> tuple[int, ...]:
    """The prices a company may start at (market.yaml ``par_values``, or a grid's ``p``
    cells, highest first)."""
    sm = game.definition.market.stock_market
    if sm.shape == "linear":
        return tuple(sm.par_values)
    found = {c.price for row in game.market_grid for c in row if c is not None and c.par}
    return tuple(sorted(found, reverse=True))


def price_at(game: Game18xx, pos: list[int]) -> int:
    row, col = pos
    prices = price_table(game)
    if 0 <= row < len(prices) and 0 <= col < len(prices[row]):
        return prices[row][col]
    return 0


def price_table(game: Game18xx) -> tuple[tuple[int, ...], ...]:
    """The grid's prices, 0 where there is no space (asked for every company many times an
    action: worked out once, the grid never changes)."""
    found: tuple[tuple[int, ...], ...] | None = game.memo.get("market.prices")
    if found is None:
        found = game.memo["market.prices"] = tuple(
            tuple(c.price if c is not None else 0 for c in row) for row in game.market_grid
        )
    return found


def step(game: Game18xx, pos: list[int], direction: str) -> list[int]:
    """Where a marker on ``pos`` would go one step in ``direction`` (2-D market)."""
    grid = game.market_grid
    row, col = pos
    if direction == "right":
        if col + 1 >= len(grid[row]):
            return step(game, pos, "up")
        return [row, col + 1]
    if direction == "left":
        if col > 0 and grid[row][col - 1] is not None:
            return [row, col - 1]
        return step(game, pos, "down")
    if direction == "down":
        return [row + 1, col] if row + 1 < len(grid) else [row, col]
    if direction == "up":
        return [row - 1, col] if row > 0 else [row, col]
    raise ValueError(f"unknown direction {direction!r}")


def move(game: Game18xx, state: State18xx, corp: str, direction: str) -> None:
    """Move ``corp``'s marker one step; onto a missing space it stays.  A marker that moves
    goes to the end of the stack on its new space."""
    c = state.corporations[corp]
    if c.market is None:
        return
    new = step(game, c.market, direction)
    if new == c.market or cell(game, new) is None:
        return
    old = cell_key(c.market)
    stack = state.market.get(old, [])
    if corp in stack:
        stack.remove(corp)
    if not stack:
        state.market.pop(old, None)
    c.market = new
    state.market.setdefault(cell_key(new), []).append(corp)


def move_price(game: Game18xx, state: State18xx, corp: Corporation, steps: int) -> None:
    """Move a company's marker ``steps`` spaces right (negative: left) along the market,
    stopping at the ends (a row's end on a grid goes up or down as :func:`move` does)."""
    if corp.market is None or steps == 0:
        return
    start = list(corp.market)
    for _ in range(abs(steps)):
        move(game, state, corp.sym, "right" if steps > 0 else "left")
    if corp.market != start:
        state.log.append(f"{corp.sym}'s share price moves to {price_at(game, corp.market)}")


def current_cell(game: Game18xx, state: State18xx, corp: str) -> Cell | None:
    """The cell a company's marker is on (None before par)."""
    c = state.corporations[corp]
    return None if c.market is None else cell(game, c.market)


def share_price(game: Game18xx, corp: Corporation) -> int:
    """A company's share price (0 before it has one)."""
    pos = corp.market
    return 0 if pos is None else price_at(game, pos)


def cell_key(cell: list[int]) -> str:
    return f"{cell[0]},{cell[1]}"


def sorted_by_price(game: Game18xx, state: State18xx, corps: list[Any]) -> list[Any]:
    """Highest price first, then farthest right, then first to arrive on the cell, then name."""

    def key(c: Any) -> tuple[int, int, int, int, int, str]:
        if c.market is None:
            return (0, 0, 0, 0, 0, c.sym)
        order = state.market.get(cell_key(c.market), [])
        pos = order.index(c.sym) if c.sym in order else 0
        row, col = c.market
        return (1, -price_at(game, c.market), -col, row, pos, c.sym)

    return sorted(corps, key=key)
