"""1830: Railways & Robber Barons — the generic 18xx core with very little of its own.

Almost everything is data (gamedata/1830) read by the core's steps: the waterfall auction,
the usual stock round, the 2-D market, N-stop trains.  What is 1830's own: the round
sequence (an opening auction), that players trade privates only from the second stock round,
and the step lists.  Facts from 18xx.games (``lib/engine/game/g_1830``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ferrovia.kernel.hooks import Rules
from ferrovia.kernel.rounds import AuctionRound, OperatingRound, Round, StockRound
from ferrovia.kernel.state import GameState

if TYPE_CHECKING:
    from ferrovia.kernel.game import Game
    from ferrovia.kernel.step import Step


class Rules1830(Rules):
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
    CROWDED_IN_OPERATING_ORDER = False

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

    # -- round sequence ------------------------------------------------------------------------
    def init_round(self, game: Game, state: GameState) -> Round:
        return AuctionRound.create(game, state)

    def next_round(self, game: Game, state: GameState) -> Round:
        if state.round.kind == "auction":
            self.reorder_players(game, state)
            return StockRound.create(game, state)
        if state.round.kind == "stock":
            state.operating_rounds = game.phase_operating_rounds(state)
            self.reorder_players(game, state)
            return OperatingRound.create(game, state, 1)
        return super().next_round(game, state)

    def finish_stock_round(self, game: Game, state: GameState) -> None:
        from ferrovia.lib18xx.stock.buy_sell_par import sold_out_moves

        sold_out_moves(game, state)

    def players_may_trade_privates(self, game: Game, state: GameState) -> bool:
        """Not in the first stock round (18xx.games g_1830 BuySellParShares)."""
        return state.turn > 1


RULES = Rules1830()
