"""1858's quick start (an option): the privates are dealt in packets (companies.yaml
``packets``, one list per option), at random by the game's seeded RNG, each player paying
its packet's price; an operating round comes first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ferrovia.kernel import rng
from ferrovia.kernel.ledger import transfer
from ferrovia.lib18xx.state import BANK, State18xx
from ferrovia.lib18xx.stock import purchase_private

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx


def quick_start_option(game: Game18xx) -> str | None:
    """The quick-start option in use (one that names a set of packets), if any."""
    for opt in sorted(game.optional_rules):
        if game.packets(opt):
            return opt
    return None


def deal_quick_start(game: Game18xx, state: State18xx, option: str) -> None:
    """Each player, in seat order, gets a packet drawn at random and pays its price; the
    packet's privates float their minors."""
    state.rng, packets = rng.shuffled(state.rng, list(game.packets(option)))
    for player, (privs, cost) in zip(state.players, packets, strict=False):
        transfer(state, player.id, BANK, cost, "quick-start packet")
        for sym in privs:
            purchase_private(game, state, player.id, sym, 0)
        state.log.append(f"{player.name} buys {', '.join(privs)} for {cost}")
