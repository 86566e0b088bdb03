"""Company closure [1858 rules 5] and the private closure round [10].

- A public company whose price marker reaches the leftmost (closing) space closes: its station
  markers leave the map, its treasury goes to the bank, its trains leave play, its privates
  close without compensation, its shares are worth nothing.  It can be started again later (as
  a 10-share company once brown tiles are available).  Checked after every action, as
  18xx.games does.
- The private closure round follows the operating round in which the first 5E/4M was bought:
  each player's private railway, in number order, is exchanged for a share of a public company
  connected to one of its home hexes (a treasury share needs the director's consent; the
  company then also receives the private's face value and may claim its reserved city) or is
  sold to the bank at face value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ferrovia.kernel.actions import Action, Pass
from ferrovia.kernel.ledger import transfer
from ferrovia.lib18xx import market
from ferrovia.lib18xx.actions import Choose
from ferrovia.lib18xx.operating import common, phases, routing
from ferrovia.lib18xx.state import BANK, POOL, State18xx
from ferrovia.lib18xx.step import Step18xx

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx


# -- company closure ------------------------------------------------------------------------------


def closing_price(game: Game18xx) -> int | None:
    closes_at = game.definition.market.stock_market.closes_at
    return None if closes_at is None else int(closes_at)


def companies_to_close(game: Game18xx, state: State18xx) -> list[str]:
    """The open companies whose price marker is on a closing space (asked after every
    action).  A company's marker is always listed on its space in ``state.market`` too
    (tests/test_market_stacks.py holds every fixture to it), so while no closing space holds
    a marker there is none to close: a dict lookup per closing space, not a walk of the
    companies."""
    spaces = _closing_spaces(game)
    if not spaces:
        return []
    keys: tuple[str, ...] | None = game.memo.get("closure.keys")
    if keys is None:
        keys = game.memo["closure.keys"] = tuple(market.cell_key(list(p)) for p in spaces)
    stacks = state.market
    if not any(k in stacks for k in keys):
        return []
    return [
        c.sym
        for c in state.corporations.values()
        if c.market is not None and not c.closed and tuple(c.market) in spaces
    ]


def _closing_spaces(game: Game18xx) -> frozenset[tuple[int, int]]:
    """The market positions whose price is the closing price (none without one)."""
    found: frozenset[tuple[int, int]] | None = game.memo.get("closure.spaces")
    if found is None:
        at = closing_price(game)
        # as market.price_at reads the grid: a position with no space prices at 0
        found = frozenset(
            (r, c)
            for r, row in enumerate(market.price_table(game))
            for c, price in enumerate(row)
            if at is not None and price == at
        )
        game.memo["closure.spaces"] = found
    return found


def close_corporation(game: Game18xx, state: State18xx, sym: str) -> None:
    """Close a public company and put a fresh, unstarted one in its place."""
    from ferrovia.lib18xx.setup import new_corporation

    corp = state.corporations[sym]
    state.log.append(f"{sym} closes")
    for h in state.hexes.values():
        for slots in h.tokens:
            for i, s in enumerate(slots):
                if s == sym:
                    slots[i] = None
        for res in h.reservations:
            for i, r in enumerate(res):
                if r == sym:
                    res[i] = None
    # The restarted company is a new one: what players sold or bought of the closed one
    # this round no longer counts (18xx.games keys these records by the company object).
    for record in ("players_sold", "players_bought"):
        per_player = state.round.data.get(record)
        if isinstance(per_player, dict):
            for corps in per_player.values():
                if isinstance(corps, dict):
                    corps.pop(sym, None)
    if corp.cash:
        transfer(state, sym, BANK, corp.cash, f"{sym} closes")
    for tid in list(corp.trains):
        common.remove_from_play(state, tid)
    for priv in list(corp.companies):
        state.privates[priv].owner = BANK  # closes without compensation
        corp.companies.remove(priv)
        if game.definition.private(priv).kind == "works":
            # a works closes only with its company (18xx.games closes all its companies)
            state.privates[priv].closed = True
            state.log.append(f"{priv} closes")
        else:
            game.rules.close_private(game, state, priv)
    if corp.market is not None:
        key = f"{corp.market[0]},{corp.market[1]}"
        stack = state.market.get(key, [])
        if sym in stack:
            stack.remove(sym)
        if not stack:
            state.market.pop(key, None)
    rnd = state.round
    was_operating = (
        rnd.kind in ("operating", "closure")
        and rnd.entities
        and rnd.entities[rnd.entity_index] == sym
    )
    fresh = new_corporation(game, sym)
    state.corporations[sym] = fresh
    corp.closed = True
    if "brown" in common.current_phase(game, state).tiles:
        phases.convert_share_structure(game, state, sym)
    if was_operating:
        # The round moves on to the next operator (18xx.games force_next_entity!); the new
        # company has not floated, so it is skipped if it comes up again this round.
        current = game.round(state)
        for step in current.steps():
            step.st.passed = True
        next_entity = getattr(current, "next_entity", None)
        if next_entity is not None:
            next_entity()


def close_companies_in_close_cell(game: Game18xx, state: State18xx) -> bool:
    """Close every company on the closing space; True if any closed (call after each action)."""
    closed = False
    while True:
        todo = companies_to_close(game, state)
        if not todo:
            return closed
        close_corporation(game, state, todo[0])
        closed = True


# -- the private closure round ------------------------------------------------------------------


def _choice(action: Choose) -> dict[str, Any]:
    choice: Any = action.choice
    if isinstance(choice, dict):
        return dict(choice)
    raise ValueError(f"expected {{corporation, from}}, got {choice!r}")


class PrivateClosureStep(Step18xx):
    """Each private railway in turn: exchange for a share (choose) or sell to the bank (pass)."""

    NAME = "private_closure"
    DESCRIPTION = "Exchange Private Companies"

    @classmethod
    def round_data(cls) -> dict[str, Any]:
        return {"minor": None, "approvals": {}, "pending_approval": None, "pending_tokens": []}

    def setup(self) -> None:
        minor = self.current_entity()
        self.rdata["minor"] = minor
        owner = self.state.privates[minor].owner if minor in self.state.privates else None
        self.rdata["approvals"] = {
            c.sym: ("approved" if c.director == owner else "pending")
            for c in self.state.corporations.values()
            if c.floated and not c.closed
        }

    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity() or entity not in self.state.privates:
            return []
        priv = self.state.privates[entity]
        if priv.closed or not self.state.is_player(priv.owner):
            return []  # (a private a company took over is no longer a railway of its own)
        return ["choose", "pass"]

    def process_pass(self, action: Action) -> None:
        self.game.rules.close_private(self.game, self.state, action.entity)
        self.pass_()

    def process_choose(self, action: Action) -> None:
        assert isinstance(action, Choose)
        from ferrovia.lib18xx.stock.shares import holder_shares

        state, minor = self.state, action.entity
        try:
            choice = _choice(action)
            corp = state.corporations[choice["corporation"]]
            where = choice["from"]
        except (KeyError, ValueError) as exc:
            raise self.illegal(action, "private closure", f"bad choice: {exc}") from None
        home = self.game.definition.private(minor).home_hexes
        if (
            corp.closed
            or not corp.floated
            or not routing.reaches_any_hex(self.game, state, corp.sym, home)
        ):
            raise self.illegal(
                action, "private closure", f"{corp.sym} is not connected to {minor}'s home"
            )
        treasury = [s for s in holder_shares(corp, corp.sym) if not s.president]
        pool = holder_shares(corp, POOL)
        approval = self.rdata["approvals"].get(corp.sym, "pending")
        if where not in ("treasury", "market"):
            raise self.illegal(action, "private closure", f"no share source {where!r}")
        if where == "market":
            if not pool:
                raise self.illegal(action, "private closure", f"{corp.sym} has no market share")
            if treasury and approval == "pending":
                raise self.illegal(
                    action,
                    "private closure",
                    "a market share only after a treasury-share request was denied",
                )
        elif not treasury:
            raise self.illegal(action, "private closure", f"{corp.sym} has no treasury share")
        if where == "treasury" and approval != "approved":
            self.rdata["pending_approval"] = corp.sym
            self.log(f"{minor} asks {corp.director} to exchange for a {corp.sym} treasury share")
            return
        from ferrovia.games.g1858.stock_round import exchange_for_share
        from ferrovia.lib18xx.stock import shares as sh

        player = state.privates[minor].owner
        share = (treasury if where == "treasury" else pool)[0]
        bundle = sh.Bundle(corp.sym, [share], share.percent)
        if where == "treasury":
            # the company takes the private (so it receives the face value as it closes) and
            # may claim a station in the private's reserved city
            exchange_for_share(self, bundle, corp, minor, player)
        else:
            sh.buy_shares(self.game, state, player, bundle, exchange=True)
            state.player(player).companies.remove(minor)
            state.privates[minor].owner = BANK
        self.log(f"{player} exchanges {minor} for a {corp.sym} {where} share")
        self.game.rules.close_private(self.game, state, minor)
        self.pass_()

    def legal_actions(self, entity: str) -> list[Action]:
        return [Pass(entity=entity, entity_type="minor")]
