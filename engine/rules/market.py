"""Share prices and values: the stock market as the rules see it.

18xx.games names a market cell ``"price,row,col"``; the 1858 market is one row, so a cell is
``[0, col]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ferrovia.rules.state import GameState

if TYPE_CHECKING:
    from ferrovia.rules.game import Game


def price_at(game: Game, cell: list[int]) -> int:
    return game.data.market[cell[1]]


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
