"""The state of an 18xx game at its start, from the definition (a title's ``setup_state``
adds the rest)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ferrovia.errors import IllegalAction
from ferrovia.kernel import rng
from ferrovia.kernel.ledger import transfer
from ferrovia.lib18xx.state import (
    BANK,
    Corporation,
    Player18xx,
    Private,
    Share,
    State18xx,
    Token,
    Train,
)

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx


def new_corporation(game: Game18xx, sym: str) -> Corporation:
    """A fresh, unstarted public company with all its certificates in its treasury."""
    cd = game.definition.corporation(sym)
    structure = game.definition.share_structures[cd.structure].shares
    shares = [
        Share(corp=sym, index=i, percent=pct, president=(i == 0), owner=sym)
        for i, pct in enumerate(structure)
    ]
    costs = tuple(game.definition.corporation(sym).station_costs) or (0,) * cd.station_markers
    tokens = [Token(price=price) for price in costs]
    return Corporation(
        sym=sym,
        kind=cd.structure,
        shares=shares,
        tokens=tokens,
        float_percent=cd.float_percent,
    )


def initial_state(game: Game18xx, players: Sequence[tuple[str, str]], seed: int) -> State18xx:
    d = game.definition
    ids = [pid for pid, _ in players]
    if len(set(ids)) != len(ids):
        raise IllegalAction(f"duplicate player ids: {ids}", rule="setup")
    state = game.rules.STATE(bank_cash=game.bank_cash, rng=rng.seed_value(seed))
    state.players = [Player18xx(id=str(pid), name=name) for pid, name in players]
    for c in d.corporations:
        state.corporations[c.symbol] = new_corporation(game, c.symbol)
    for p in game.privates:
        state.privates[p.symbol] = Private(sym=p.symbol, owner=BANK, data={"minor": p.minor})
    for t in d.trains:
        # an unlimited type starts with one card; buying the last grows another (trains.py)
        count = d.train_count(t.name, game.num_players)
        for i in range(1 if count is None else count):
            tid = f"{t.name}-{i}"
            state.trains[tid] = Train(id=tid, name=t.name)
            state.depot.append(tid)
    for name, tile in d.tiles.items():
        # an unlimited kind starts with one copy and grows one each time it is laid (board.py)
        n = 1 if tile.count is None else tile.count
        state.tiles[name] = [f"{name}-{i}" for i in range(n)]
    from ferrovia.lib18xx import board

    state.hexes = board.initial_hexes(game)
    # companies whose home city is held for them from the start (companies.yaml ``home``)
    homes = [c.symbol for c in game.definition.corporations if c.home is not None]
    if homes:
        state.data["home_reservations"] = homes
    state.phase = d.phases[0].name
    state.operating_rounds = d.phases[0].operating_rounds
    clash = set(state.corporations) & set(state.privates) | set(ids) & (
        set(state.corporations) | set(state.privates)
    )
    if clash:
        raise IllegalAction(f"entity ids used twice: {sorted(clash)}", rule="setup")
    for pl in state.players:
        transfer(state, BANK, pl.id, game.starting_cash, "starting cash")
    return state
