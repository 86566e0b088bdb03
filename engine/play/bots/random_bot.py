"""The ``random`` bot: a weighted draw among the legal actions, from its own seeded stream.

Actions are weighted (:func:`weight`) so that games progress: the player prefers playing on,
running its trains and buying, and rarely dumps shares.  It is no player: about half of its
4-player 1858 games end with every company closed (``dnf``), not by the bank breaking.
"""

from __future__ import annotations

from ferrovia.kernel.actions import Action
from ferrovia.play.bots.base import Bot, Turn


def weight(action: Action) -> int:
    """How much more likely than a pass an action is (tenths)."""
    if action.type == "pass":
        return 10
    if action.type == "run_routes":
        return 40 if getattr(action, "routes", ()) else 2
    if action.type == "sell_shares":
        return 4
    if action.type == "bid":
        return 5
    if action.type == "dividend":
        return {"payout": 40, "half": 10}.get(getattr(action, "kind_", ""), 2)
    return 30


class RandomBot(Bot):
    NAME = "random"

    def choose(self, turn: Turn) -> Action:
        actions = turn.legal
        weights = [weight(a) for a in actions]
        r = self.randint(sum(weights))
        for action, w in zip(actions, weights, strict=True):
            if r < w:
                return action
            r -= w
        return actions[-1]
