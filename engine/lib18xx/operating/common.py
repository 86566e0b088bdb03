"""Small shared questions the operating-round steps ask of the definition and the state.

Kept in one place so each step module reads like the rule it implements.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ferrovia.lib18xx.state import POOL, Corporation, State18xx

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx


# -- entities -----------------------------------------------------------------------------------


def operating_company(state: State18xx, ref: str) -> bool:
    """A started public company (one that closed is replaced by an unstarted one)."""
    c = state.corporations.get(ref)
    return c is not None and c.floated and not c.closed and c.market is not None


def is_minor(state: State18xx, ref: str) -> bool:
    return ref in state.privates


def director_of(state: State18xx, ref: str) -> str | None:
    """The player acting for an operator (a company's director, a private's owner)."""
    if ref in state.corporations:
        return state.corporations[ref].director
    if ref in state.privates:
        owner = state.privates[ref].owner
        return owner if state.is_player(owner) else None
    return None


def entity_type(state: State18xx, ref: str) -> str:
    """18xx.games' ``entity_type`` of a ref (what an action of that entity carries)."""
    if ref in state.corporations:
        return "corporation"
    if ref in state.privates:
        return "minor"
    return "player"


def current_operator(state: State18xx) -> str | None:
    op = state.round.data.get("current_operator")
    return op if isinstance(op, str) else None


# -- shares -------------------------------------------------------------------------------------


def total_shares(game: Game18xx, corp: Corporation) -> int:
    from ferrovia.lib18xx.stock.shares import share_percent

    return 100 // share_percent(corp)


def holdings(game: Game18xx, corp: Corporation) -> dict[str, int]:
    """Shares held by each holder (players, the company's treasury, the pool), in the order
    dividends are paid: players in seating order, then companies, then the pool."""
    from ferrovia.lib18xx.stock.shares import share_percent

    out: dict[str, int] = {}
    unit = share_percent(corp)
    for sh in corp.shares:
        out[sh.owner] = out.get(sh.owner, 0) + sh.percent // unit
    return out


def treasury_shares(corp: Corporation) -> list[Any]:
    return [sh for sh in corp.shares if sh.owner == corp.sym]


def pool_shares(corp: Corporation) -> list[Any]:
    return [sh for sh in corp.shares if sh.owner == POOL]


# -- phases and privates ------------------------------------------------------------------------


def phase_names(game: Game18xx) -> list[str]:
    return [p.name for p in game.definition.phases]


def phases_reached(game: Game18xx, state: State18xx) -> frozenset[str]:
    """The phases up to and including the current one (none when it is not a listed one)."""
    reached = game.memo.get(("phases_reached", state.phase))
    if reached is None:
        order = phase_names(game)
        reached = frozenset(order[: order.index(state.phase) + 1] if state.phase in order else ())
        game.memo[("phases_reached", state.phase)] = reached
    return reached


def current_phase(game: Game18xx, state: State18xx) -> Any:
    return game.definition.phase(state.phase)


# -- trains -------------------------------------------------------------------------------------


def train_type(train_id: str) -> str:
    """The card's type from its 18xx.games id: ``'4H-3'`` -> ``'4H'``."""
    return train_id.rsplit("-", 1)[0]


def train_type_def(game: Game18xx, train_id: str) -> Any:
    # asked ~45 times an action (limits, offers): a card's type never changes, so once a card
    try:
        return game.train_types[train_id]
    except KeyError:
        typ, _variant = game.definition.train(train_type(train_id))
        game.train_types[train_id] = typ
        return typ


def face_def(game: Game18xx, face: str) -> tuple[Any, Any]:
    """(type, variant or None) of a face name ('2M' -> (4H type, 2M variant))."""
    return game.definition.train(face)


def face_price(game: Game18xx, face: str) -> int:
    typ, variant = face_def(game, face)
    return int((variant or typ).price)


def faces_of(game: Game18xx, train_id: str) -> list[str]:
    typ = train_type_def(game, train_id)
    return [typ.name, *(v.name for v in typ.variants)]


def trains_of(state: State18xx, ref: str) -> list[str]:
    if ref in state.corporations:
        return state.corporations[ref].trains
    if ref in state.privates:
        return state.privates[ref].trains
    return []


def pool_trains(state: State18xx) -> list[str]:
    """Trains in the bank pool, first discarded first: of two alike, 18xx.games sells the one
    that came first."""
    found = [t.id for t in state.trains.values() if t.owner == POOL and not t.rusted]
    if len(found) < 2:  # (asked at every train offer: most often the pool is empty)
        return found
    order = {tid: i for i, tid in enumerate(state.data.get("pool_order", ()))}
    return sorted(found, key=lambda tid: order.get(tid, len(order)))


def is_car(game: Game18xx, train_id: str) -> bool:
    """A car (trains.yaml ``car``: 1858 India's Pullman) runs attached to a train, not alone."""
    return train_type_def(game, train_id).car is not None


def engines(game: Game18xx, state: State18xx, ref: str) -> list[str]:
    """The trains that run on their own (every train but cars): a company without one is
    trainless."""
    return [t for t in trains_of(state, ref) if not is_car(game, t)]


def cars(game: Game18xx, state: State18xx, ref: str) -> list[str]:
    return [t for t in trains_of(state, ref) if is_car(game, t)]


def trains_against_limit(game: Game18xx, state: State18xx, ref: str) -> int:
    """How many of the company's trains use up room under its train limit (a wounded one only
    if trains.yaml ``wounded.counts_for_train_limit``)."""
    wounded_count = game.definition.wounded.counts_for_train_limit
    return sum(
        1
        for t in trains_of(state, ref)
        if train_type_def(game, t).counts_for_train_limit
        and (wounded_count or not state.trains[t].obsolete)
    )


def has_cars(game: Game18xx) -> bool:
    """Whether the game has any car (the buy-trains step then stays open to a company without
    one even at its train limit, as 18xx.games has it)."""
    return any(t.car is not None for t in game.definition.trains)


# -- trains changing hands ---------------------------------------------------------------------


def remove_from_play(state: State18xx, tid: str) -> None:
    """A train leaves the game (rusted, or a wounded train discarded)."""
    t = state.trains[tid]
    for holder in [c.trains for c in state.corporations.values()] + [
        p.trains for p in state.privates.values()
    ]:
        if tid in holder:
            holder.remove(tid)
    if tid in state.depot:
        state.depot.remove(tid)
    t.rusted = True
    t.owner = ""


def to_pool(state: State18xx, tid: str) -> None:
    for holder in [c.trains for c in state.corporations.values()] + [
        p.trains for p in state.privates.values()
    ]:
        if tid in holder:
            holder.remove(tid)
    state.trains[tid].owner = POOL
    state.trains[tid].operated = False
    # the pool offers its cards in the order they arrived (18xx.games' discarded list)
    order = state.data.setdefault("pool_order", [])
    if tid in order:
        order.remove(tid)
    order.append(tid)
