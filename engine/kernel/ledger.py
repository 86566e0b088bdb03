"""Every movement of money goes through :func:`transfer`.

So the total (``state.total_cash()``: players, and whatever else the state holds money for)
never changes, and each movement can be logged in words.  Who holds money and who may go below
zero is the state's to say (``cash_of``, ``add_cash``, ``may_overdraw``).

>>> from ferrovia.kernel.state import GameState, Player
>>> s = GameState(players=[Player("1", "Ana", cash=100), Player("2", "Ben")])
>>> transfer(s, "1", "2", 30, "pays rent")
>>> (s.player("1").cash, s.player("2").cash, s.total_cash())
(70, 30, 100)
"""

from __future__ import annotations

from ferrovia.errors import IllegalAction
from ferrovia.kernel.state import GameState


def transfer(
    state: GameState, src: str, dst: str, amount: int, why: str, *, allow_debt: bool = False
) -> None:
    """Move ``amount`` from ``src`` to ``dst`` (refs).  Only a holder the state lets overdraw
    (an 18xx bank, which then breaks) may go below zero, unless ``allow_debt``."""
    if amount < 0:
        raise IllegalAction(f"negative transfer of {amount} ({why})", rule="ledger")
    if amount == 0:
        return
    have = state.cash_of(src)
    if have < amount and not allow_debt and not state.may_overdraw(src):
        raise IllegalAction(
            f"{src} has {have}, needs {amount} ({why})", rule="cannot spend more than cash"
        )
    state.add_cash(src, -amount)
    state.add_cash(dst, amount)
