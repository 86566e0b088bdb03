"""Stock-round rules: a private's purchase and closure here; shares (buy, sell, par, director
changes) in :mod:`.shares`; the usual stock-round steps in the modules beside it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ferrovia.kernel.ledger import transfer
from ferrovia.lib18xx.state import BANK, State18xx

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx


def purchase_private(game: Game18xx, state: State18xx, player: str, sym: str, price: int) -> None:
    """A player buys a private from the bank; its minor (if any) floats."""
    transfer(state, player, BANK, price, f"buys {sym}")
    state.player(player).companies.append(sym)
    priv = state.privates[sym]
    priv.owner = player
    if priv.data.get("minor"):
        priv.floated = True


def remove_reservations(state: State18xx, sym: str) -> None:
    for h in state.hexes.values():
        for city, res in enumerate(h.reservations):
            if sym not in res:
                continue
            res[res.index(sym)] = None
            slots = len(h.tokens[city]) if city < len(h.tokens) else 1
            if len(res) > slots:
                res[:] = [r for r in res if r is not None]
                while len(res) < slots:
                    res.append(None)


def close_private(game: Game18xx, state: State18xx, sym: str, *, pay: bool = False) -> None:
    """A private closes; its reservations go.  With ``pay`` (a game's own rule; the usual close
    pays nothing) its owner, unless the bank, receives its face value from the bank."""
    priv = state.privates[sym]
    if priv.closed or game.definition.private(sym).kind == "works":
        return  # a works never closes
    owner = priv.owner
    if owner != BANK:
        if pay:
            transfer(state, BANK, owner, game.definition.private(sym).face_value, f"{sym} closes")
        if owner in state.corporations:
            state.corporations[owner].companies.remove(sym)
        else:
            state.player(owner).companies.remove(sym)
    priv.closed = True
    priv.floated = False
    priv.owner = BANK
    remove_reservations(state, sym)
    state.log.append(f"{sym} closes")
    game.rules.private_closed(game, state, sym)
