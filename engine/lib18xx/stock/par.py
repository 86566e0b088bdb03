"""Starting a company at a par price, and floating a fully capitalised one.

>>> # a 10-share company parred at 100 and 60 % sold receives 10 x 100 from the bank
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ferrovia.lib18xx import market
from ferrovia.lib18xx.state import State18xx
from ferrovia.lib18xx.stock.shares import Bundle, buy_shares

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx


def start_company(
    game: Game18xx, state: State18xx, player: str, corp: str, pos: list[int], *, pay: bool
) -> None:
    """``player`` starts ``corp`` at market position ``pos``, taking its president's
    certificate (paying for it unless it came with a private)."""
    c = state.corporations[corp]
    c.market = list(pos)
    c.par_price = market.price_at(game, c.market)
    state.market.setdefault(market.cell_key(c.market), []).append(corp)
    pres = next(s for s in c.shares if s.president)
    bundle = Bundle(corp, [pres], pres.percent)
    state.log.append(f"{player} pars {corp} at {c.par_price}")
    if pay:
        buy_shares(game, state, player, bundle)
    else:
        buy_shares(game, state, player, bundle, exchange=True)
