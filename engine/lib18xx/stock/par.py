"""Starting a company at a par price, and floating a fully capitalised one.

>>> # a 10-share company parred at 100 and 60 % sold receives 10 x 100 from the bank
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ferrovia.kernel.ledger import transfer
from ferrovia.kernel.state import BANK, GameState
from ferrovia.lib18xx import market
from ferrovia.lib18xx.stock.shares import Bundle, buy_shares, percent_of

if TYPE_CHECKING:
    from ferrovia.kernel.game import Game


def full_capitalization(game: Game) -> bool:
    """Whether IPO sales pay the bank and a floating company receives its whole capital
    (companies.yaml ``capitalization: full``)."""
    return str(game.definition.companies.capitalization) == "full"


def start_company(
    game: Game, state: GameState, player: str, corp: str, pos: list[int], *, pay: bool
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


def float_if_ready(game: Game, state: GameState, corp: str) -> bool:
    """A fully capitalised company floats once its float percentage has left the IPO; it then
    receives par x its number of shares from the bank (18xx.games ``float_corporation``)."""
    c = state.corporations[corp]
    if c.floated or c.par_price is None:
        return False
    if percent_of(c, corp) > 100 - c.float_percent:
        return False
    c.floated = True
    state.log.append(f"{corp} floats")
    if full_capitalization(game):
        total = 100 // min(s.percent for s in c.shares)
        transfer(state, BANK, corp, c.par_price * total, f"{corp} capital")
    return True
