"""Every movement of money goes through :func:`transfer`.

So the total (bank + players + companies) never changes — ``state.total_cash()`` is the one-line
invariant — and each movement can be logged in words.

>>> from ferrovia.kernel.state import GameState, Player
>>> s = GameState(players=[Player("1", "Ana", cash=100)], bank_cash=1000)
>>> transfer(s, "1", "bank", 30, "buys B&M")
>>> (s.player("1").cash, s.bank_cash, s.total_cash())
(70, 1030, 1100)
"""

from __future__ import annotations

from ferrovia.errors import IllegalAction
from ferrovia.kernel.state import BANK, GameState


def _add(state: GameState, ref: str, amount: int) -> None:
    if ref == BANK:
        state.bank_cash += amount
    elif ref in state.corporations:
        state.corporations[ref].cash += amount
    elif ref in state.privates:
        state.privates[ref].cash += amount
    else:
        state.player(ref).cash += amount


def transfer(
    state: GameState, src: str, dst: str, amount: int, why: str, *, allow_debt: bool = False
) -> None:
    """Move ``amount`` from ``src`` to ``dst`` (refs).  Only the bank may go below zero; when
    it would, the bank breaks (the game-end trigger of most 18xx games)."""
    if amount < 0:
        raise IllegalAction(f"negative transfer of {amount} ({why})", rule="ledger")
    if amount == 0:
        return
    have = state.cash_of(src)
    if src == BANK:
        if have - amount < 0:
            state.bank_broken = True
    elif have < amount and not allow_debt:
        raise IllegalAction(
            f"{src} has {have}, needs {amount} ({why})", rule="cannot spend more than cash"
        )
    _add(state, src, -amount)
    _add(state, dst, amount)
