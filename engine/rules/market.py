"""Share prices and values: the stock market as the rules see it.

18xx.games names a market cell ``"price,row,col"``; a linear market (1858's) is one row, so a
cell is ``[0, col]``; a grid (1830's) has rows from the top.  Price markers move in directions
as 18xx.games moves them on a 2-D market: ``right`` at a row's end goes ``up``, ``left`` at a
row's start goes ``down``; ``up`` and ``down`` stop at the top and bottom rows, and a move onto
a missing space does not happen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ferrovia.rules.state import GameState

if TYPE_CHECKING:
    from ferrovia.rules.game import Game


def price_at(game: Game, cell: list[int]) -> int:
    if not game.data.grid_market:
        return game.data.market[cell[1]]
    c = game.data.cell(cell)
    return c.price if c is not None else 0


def step(game: Game, pos: list[int], direction: str) -> list[int]:
    """Where a marker on ``pos`` would go one step in ``direction`` (2-D market)."""
    grid = game.data.grid
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


def move(game: Game, state: GameState, corp: str, direction: str) -> None:
    """Move ``corp``'s marker one step; onto a missing space it stays.  A marker that moves
    goes to the end of the stack on its new space."""
    c = state.corporations[corp]
    if c.market is None:
        return
    new = step(game, c.market, direction)
    if new == c.market or game.data.cell(new) is None:
        return
    old = cell_key(c.market)
    stack = state.market.get(old, [])
    if corp in stack:
        stack.remove(corp)
    if not stack:
        state.market.pop(old, None)
    c.market = new
    state.market.setdefault(cell_key(new), []).append(corp)


def current_cell(game: Game, state: GameState, corp: str) -> Any:
    """The :class:`~ferrovia.rules.data.Cell` a company's marker is on (None before par)."""
    c = state.corporations[corp]
    return None if c.market is None else game.data.cell(c.market)


def price(game: Game, state: GameState, corp: str) -> int:
    c = state.corporations[corp]
    if c.market is None:
        return 0
    return price_at(game, c.market)


def share_percent(game: Game, state: GameState, corp: str) -> int:
    """Percent of one ordinary share (20 for a 5-share company, 10 for a 10-share one)."""
    c = state.corporations[corp]
    pres = next((s.percent for s in c.shares if s.president), 20)
    return pres // 2


def share_value(game: Game, state: GameState, corp: str, percent: int) -> int:
    """Market value of ``percent`` of ``corp`` (18xx.games rounds up per certificate)."""
    p = price(game, state, corp)
    sp = share_percent(game, state, corp)
    return -(-(p * percent) // sp)


def private_face_value(game: Game, sym: str) -> int:
    return game.data.private(sym).face_value


def phase_operating_rounds(game: Game, state: GameState) -> int:
    return game.data.phase(state.phase).operating_rounds


def cell_key(cell: list[int]) -> str:
    return f"{cell[0]},{cell[1]}"


def sorted_by_price(game: Game, state: GameState, corps: list[Any]) -> list[Any]:
    """Highest price first, then farthest right, then first to arrive on the cell, then name."""

    def key(c: Any) -> tuple[int, int, int, int, int, str]:
        if c.market is None:
            return (0, 0, 0, 0, 0, c.sym)
        order = state.market.get(cell_key(c.market), [])
        pos = order.index(c.sym) if c.sym in order else 0
        row, col = c.market
        return (1, -price_at(game, c.market), -col, row, pos, c.sym)

    return sorted(corps, key=key)
