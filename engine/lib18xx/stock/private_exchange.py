"""A private's ``exchange`` ability: its owner swaps it for a share of a named company (1830's
Mohawk & Hudson for a NYC share), at any time, from the IPO or the bank pool as the ability
says; the private closes (18xx.games ``step/exchange.rb``).  The step never blocks; the action
is a ``buy_shares`` whose entity is the private."""

from __future__ import annotations

from ferrovia.kernel.actions import Action
from ferrovia.lib18xx import abilities
from ferrovia.lib18xx.actions import BuyShares
from ferrovia.lib18xx.state import POOL
from ferrovia.lib18xx.step import Step18xx
from ferrovia.lib18xx.stock import shares as sh


class PrivateExchange(Step18xx):
    NAME = "private_exchange"
    DESCRIPTION = "Exchange a private for a share"

    def blocks(self) -> bool:
        return False

    def offers(self, sym: str) -> list[sh.Bundle]:
        """The single certificates the private could be exchanged for now."""
        s, g = self.state, self.game
        priv = s.privates.get(sym)
        if priv is None or priv.closed or not s.is_player(priv.owner):
            return []
        out: list[sh.Bundle] = []
        for ab in abilities.of(g, sym, "exchange"):
            if not abilities.usable(g, s, sym, ab):
                continue
            for corp_sym in ab.corporations:
                corp = s.corporations[corp_sym]
                for source in ab.from_:
                    holder = corp_sym if source == "ipo" else POOL
                    certs = [x for x in corp.shares if x.owner == holder and not x.president]
                    if not certs:
                        continue
                    bundle = sh.Bundle(corp_sym, [certs[0]], certs[0].percent)
                    if sh.can_gain(g, s, priv.owner, bundle, exchange=True):
                        out.append(bundle)
        return out

    def actions(self, entity: str) -> list[str]:
        return ["buy_shares"] if entity in self.state.privates and self.offers(entity) else []

    def process_buy_shares(self, action: Action) -> None:
        assert isinstance(action, BuyShares)
        sym, s = action.entity, self.state
        try:
            bundle = sh.check_bundle(s, action.shares, action.percent)
        except Exception as exc:
            raise self.illegal(action, "exchange", str(exc)) from None
        allowed = {(b.corp, b.owner) for b in self.offers(sym)}
        if (bundle.corp, bundle.owner) not in allowed or len(bundle.shares) != 1:
            raise self.illegal(action, "exchange", f"{sym} cannot be exchanged for {action.shares}")
        owner = s.privates[sym].owner
        sh.buy_shares(self.game, s, owner, bundle, exchange=True)
        self.log(f"{owner} exchanges {sym} for a {bundle.percent} % share of {bundle.corp}")
        self.game.rules.close_private(self.game, s, sym)

    def legal_actions(self, entity: str) -> list[Action]:
        return [
            BuyShares(
                entity=entity, entity_type="company", shares=(b.shares[0].id,), percent=b.percent
            )
            for b in self.offers(entity)
        ]
