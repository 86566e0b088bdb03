"""Private companies' special abilities as declared in privates.yaml (``abilities``), with
18xx.games' ability names.  The core reads them here; a game's hook set need not."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ferrovia.lib18xx.state import State18xx

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx


def of(game: Game18xx, sym: str, kind: str) -> list[Any]:
    """The abilities of type ``kind`` of private ``sym`` (none for an unknown symbol)."""
    try:
        priv = game.definition.private(sym)
    except (KeyError, ValueError):
        return []
    return [a for a in getattr(priv, "abilities", ()) if a.type == kind]


def has(game: Game18xx, sym: str, kind: str) -> bool:
    return bool(of(game, sym, kind))


def usable(game: Game18xx, state: State18xx, sym: str, ability: Any) -> bool:
    """Whether an open private's ability works for its current owner (``owner_type``)."""
    priv = state.privates.get(sym)
    if priv is None or priv.closed:
        return False
    if ability.owner_type == "player":
        return state.is_player(priv.owner)
    if ability.owner_type == "corporation":
        return priv.owner in state.corporations
    return True


def blocked_hexes(game: Game18xx, state: State18xx) -> set[str]:
    """Hexes no tile may be laid on now: those of open privates' ``blocks_hexes``."""
    out: set[str] = set()
    for sym in state.privates:
        for ab in of(game, sym, "blocks_hexes"):
            if usable(game, state, sym, ab):
                out.update(ab.hexes)
    return out


def grant_shares(game: Game18xx, state: State18xx, player: str, sym: str) -> list[tuple[str, str]]:
    """The certificates a private's ``shares`` ability gives its first buyer: ordinary ones
    move at once; a president's certificate is returned as (private, company) to be parred."""
    from ferrovia.lib18xx.stock.shares import Bundle, buy_shares, find_share

    pending: list[tuple[str, str]] = []
    if state.data.setdefault("shares_granted", {}).get(sym):
        return pending
    for ab in of(game, sym, "shares"):
        for share_id in ab.shares:
            share = find_share(state, share_id)
            if share.president:
                pending.append((sym, share.corp))
            else:
                buy_shares(
                    game, state, player, Bundle(share.corp, [share], share.percent), exchange=True
                )
    state.data["shares_granted"][sym] = True
    return pending


def shares_held_by_players(game: Game18xx, state: State18xx, sym: str) -> list[str]:
    """The ordinary certificates of a private's ``shares`` ability now held by a player."""
    from ferrovia.lib18xx.stock.shares import find_share

    return [
        share_id
        for ab in of(game, sym, "shares")
        for share_id in ab.shares
        if not find_share(state, share_id).president
        and state.is_player(find_share(state, share_id).owner)
    ]


def regrant_shares(game: Game18xx, state: State18xx, player: str, sym: str) -> None:
    """A player buys the private from another player: 18xx.games hands its ``shares``
    ability's ordinary certificates to the buyer again, free, from the bank or the pool
    (``after_buy_company`` on every purchase; it refuses the purchase while one is with a
    player, see :func:`shares_held_by_players`)."""
    from ferrovia.lib18xx.stock.shares import Bundle, buy_shares, find_share

    for ab in of(game, sym, "shares"):
        for share_id in ab.shares:
            share = find_share(state, share_id)
            if not share.president:
                bundle = Bundle(share.corp, [share], share.percent)
                buy_shares(game, state, player, bundle, exchange=True)
