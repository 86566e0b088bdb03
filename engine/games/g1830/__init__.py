"""1830: Railways & Robber Barons — the 18xx library with very little of its own.

Almost everything is data (gamedata/1830) read by the library's steps and its usual round
sequence: the opening waterfall auction, the usual stock round, the 2-D market, N-stop trains.
What is 1830's own: that players trade privates only from the second stock round, and the
step lists.  Facts from 18xx.games (``lib/engine/game/g_1830``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ferrovia.lib18xx.rules import Rules18xx
from ferrovia.lib18xx.state import State18xx

if TYPE_CHECKING:
    from ferrovia.kernel.step import Step
    from ferrovia.lib18xx.game import Game18xx


class Rules1830(Rules18xx):
    NAME = "1830"
    ROUND_STEPS: ClassVar[dict[str, tuple[str, ...]]] = {
        "auction": ("company_pending_par", "waterfall_auction"),
        "stock": ("private_exchange", "buy_sell_par_shares"),
        "operating": (
            "bankrupt",
            "private_exchange",
            "special_track",
            "special_token",
            "buy_company",
            "home_token",
            "track",
            "token",
            "route",
            "dividend",
            "discard_train",
            "buy_train",
            "buy_company_end",
        ),
    }

    def steps(self) -> tuple[type[Step], ...]:
        from ferrovia.lib18xx.operating.buy_company import BuyCompanyEndStep, BuyCompanyStep
        from ferrovia.lib18xx.operating.dividend import DividendStep
        from ferrovia.lib18xx.operating.emergency import BankruptStep, EmergencyBuyTrainStep
        from ferrovia.lib18xx.operating.route_step import RouteStep
        from ferrovia.lib18xx.operating.special_token import SpecialTokenStep
        from ferrovia.lib18xx.operating.special_track import SpecialTrackStep
        from ferrovia.lib18xx.operating.token import TokenStep
        from ferrovia.lib18xx.operating.track import TrackStep
        from ferrovia.lib18xx.operating.trains import DiscardTrainStep
        from ferrovia.lib18xx.stock.buy_sell_par import BuySellParShares
        from ferrovia.lib18xx.stock.home_token import HomeToken
        from ferrovia.lib18xx.stock.private_exchange import PrivateExchange
        from ferrovia.lib18xx.stock.waterfall import CompanyPendingPar, WaterfallAuction

        return (
            CompanyPendingPar,
            WaterfallAuction,
            BuySellParShares,
            HomeToken,
            TrackStep,
            TokenStep,
            RouteStep,
            DividendStep,
            DiscardTrainStep,
            EmergencyBuyTrainStep,
            BankruptStep,
            BuyCompanyStep,
            BuyCompanyEndStep,
            PrivateExchange,
            SpecialTrackStep,
            SpecialTokenStep,
        )

    def finish_stock_round(self, game: Game18xx, state: State18xx) -> None:
        from ferrovia.lib18xx.stock.buy_sell_par import sold_out_moves

        sold_out_moves(game, state)

    def players_may_trade_privates(self, game: Game18xx, state: State18xx) -> bool:
        """Not in the first stock round (18xx.games g_1830 BuySellParShares)."""
        return state.turn > 1


RULES = Rules1830()
