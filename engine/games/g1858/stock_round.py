"""1858's stock round [§8]: exchanging a private railway for a share, the director's approval,
and the buy/sell/par turn with its private auctions.  Choices another 1858-family game makes
differently are rule hooks (``game.rules``), e.g. which privates may be auctioned."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from ferrovia.kernel.actions import Action, Pass
from ferrovia.lib18xx import board, market
from ferrovia.lib18xx.actions import Bid, BuyShares, Choose, Convert, Par, SellShares
from ferrovia.lib18xx.state import POOL, Corporation
from ferrovia.lib18xx.step import Step18xx
from ferrovia.lib18xx.stock import shares as sh
from ferrovia.lib18xx.stock.home_token import queue_home_token

PURCHASES = ("bid", "buy_shares", "par")


# ---------------------------------------------------------------------------------------------
class Exchange(Step18xx):
    """[§8.3, §8.5] A player's private railway: exchanged (with the par price) for a director's
    certificate of an unstarted company, or for a treasury share of a started one (with the
    director's consent when another player directs it)."""

    NAME = "exchange"

    def blocks(self) -> bool:
        return False

    def actions(self, entity: str) -> list[str]:
        return ["buy_shares"] if entity in self.state.privates else []

    def process_buy_shares(self, action: BuyShares) -> None:
        g, s = self.game, self.state
        sym = action.entity
        priv = s.privates[sym]
        player = priv.owner
        if priv.closed or not s.is_player(player):
            raise self.illegal(action, "exchange", f"{sym} is not owned by a player")
        bundle = sh.check_bundle(s, action.shares, action.percent)
        corp = s.corporations[bundle.corp]
        if bundle.owner != corp.sym:
            raise self.illegal(action, "exchange", "exchanges take a treasury certificate")
        if bundle.presidents_share is not None:
            self._start(action, sym, player, corp, bundle)
            self.rdata.setdefault("current_actions", []).append("buy_shares")
            return
        if not corp.floated:
            raise self.illegal(
                action,
                "exchange",
                "a private cannot be exchanged for a single share of an unstarted company",
            )
        if not g.definition.private(sym).exchange_for_share:
            raise self.illegal(action, "exchange", f"{sym} cannot be exchanged for a share")
        if corp.director == player:
            if not g.rules.private_connected(g, s, corp.sym, sym):
                raise self.illegal(
                    action, "exchange", f"{sym} is not connected to {corp.sym}'s network"
                )
            exchange_for_share(self, bundle, corp, sym, player)
            self.rdata.setdefault("current_actions", []).append("exchange")
        else:
            # as in 18xx.games the request itself is not checked: the director may only
            # approve it if the private is connected (process_choose), and may always deny
            self.rdata["pending_approval"] = corp.sym
            self.rdata["minor"] = sym

    def _start(
        self, action: Action, sym: str, player: str, corp: Corporation, bundle: sh.Bundle
    ) -> None:
        g, s = self.game, self.state
        if corp.ipoed or corp.closed:
            raise self.illegal(action, "start company", f"{corp.sym} has already started")
        if not g.rules.can_start_with_private(g, s, sym):
            raise self.illegal(action, "start company", f"{sym} cannot start a company now")
        col = g.rules.private_par_column(g, s, sym)
        price = market.spaces(g)[col]
        if s.player(player).cash < price:
            raise self.illegal(action, "start company", f"par {price} is more than the cash")
        if not sh.can_gain(g, s, player, bundle, exchange=True):
            raise self.illegal(action, "holding limit", "cannot hold that many shares")
        acquire_private(self, corp.sym, sym)
        sh.set_par(g, s, corp, col)
        rd = self.rdata.setdefault("players_bought", {})
        rd.setdefault(player, {})
        rd[player][corp.sym] = rd[player].get(corp.sym, 0) + bundle.percent
        sh.buy_shares(g, s, player, bundle, price=price, exchange=True)
        s.log.append(
            f"{s.player(player).name} exchanges {sym} and {price} for the director's "
            f"certificate of {corp.sym}"
        )
        maybe_home_token(self, corp)

    def legal_actions(self, entity: str) -> list[Action]:
        g, s = self.game, self.state
        priv = s.privates.get(entity)
        if priv is None or priv.closed or not s.is_player(priv.owner):
            return []
        cur = g.round(s).current_entity()
        if cur != priv.owner or "pass" not in g.round(s).actions_for(cur):
            return []
        stock = g.round(s).step("stock")
        if stock.rdata.get("current_actions") and any(
            a in PURCHASES for a in stock.rdata["current_actions"]
        ):
            return []
        out: list[Action] = []
        player = priv.owner
        if g.rules.can_start_with_private(g, s, entity):
            col = g.rules.private_par_column(g, s, entity)
            if s.player(player).cash >= market.spaces(g)[col]:
                for corp in s.corporations.values():
                    if corp.ipoed or corp.closed:
                        continue
                    pres = next(x for x in corp.shares if x.president)
                    out.append(
                        BuyShares(
                            entity=entity,
                            entity_type="company",
                            shares=(pres.id,),
                            percent=pres.percent,
                        )
                    )
        if g.definition.private(entity).exchange_for_share:
            for corp in s.corporations.values():
                if not corp.floated or corp.closed:
                    continue
                tre = sh.holder_shares(corp, corp.sym)
                if not tre or not g.rules.private_connected(g, s, corp.sym, entity):
                    continue
                b = sh.Bundle(corp.sym, [tre[0]], tre[0].percent)
                if sh.can_gain(g, s, player, b, exchange=True):
                    out.append(
                        BuyShares(
                            entity=entity,
                            entity_type="minor",
                            shares=(tre[0].id,),
                            percent=tre[0].percent,
                        )
                    )
        return out


def acquire_private(step: Step18xx, corp: str, sym: str) -> None:
    """The company takes over the private: the minor stops operating, the private is owned by
    the company (it keeps paying nothing to players; it closes later with face value)."""
    s = step.state
    priv = s.privates[sym]
    player = priv.owner
    if s.is_player(player) and sym in s.player(player).companies:
        s.player(player).companies.remove(sym)
    priv.owner = corp
    priv.floated = False
    priv.data["acquired"] = True
    s.corporations[corp].companies.append(sym)
    s.log.append(f"{corp} acquires {sym}")


def exchange_for_share(
    step: Step18xx, bundle: sh.Bundle, corp: Corporation, sym: str, player: str
) -> None:
    g, s = step.game, step.state
    sh.buy_shares(g, s, player, bundle, exchange=True)
    acquire_private(step, corp.sym, sym)
    claim_token(step, corp, sym)


def claim_token(step: Step18xx, corp: Corporation, sym: str) -> None:
    """The company may put a free station in the private's reserved city, if it has space."""
    if all(t.hex is not None for t in corp.tokens):
        return
    cities = reserved_cities(step, corp.sym, sym)
    if not any(board.city_has_room(step.game, step.state, hx, i) for hx, i in cities):
        return
    queue_home_token(step, corp.sym, sorted({c[0] for c in cities}), [list(c) for c in cities])
    if step.state.data.get("private_closure_round") == "in_progress":
        # the private closes before the station is placed: its reservation passes to the company
        for h in step.state.hexes.values():
            for res in h.reservations:
                for i, r in enumerate(res):
                    if r == sym:
                        res[i] = corp.sym


def reserved_cities(step: Step18xx, corp: str, sym: str) -> list[tuple[str, int]]:
    """The private's start cities (privates.yaml) still reserved for it, where ``corp`` may
    put its home station."""
    from ferrovia.games.g1858.stations import start_cities

    starts = start_cities(step.game, sym)
    out = []
    for h in step.state.hexes.values():
        for i, res in enumerate(h.reservations):
            if sym in res and h.coord in starts and board.tokenable(step.state, h.coord, i, corp):
                out.append((h.coord, i))
    return out


def maybe_home_token(step: Step18xx, corp: Corporation) -> None:
    """Home token timing 'float': a company places its home station when it floats."""
    if not corp.floated or any(t.hex for t in corp.tokens):
        return
    g, s = step.game, step.state
    hexes = g.rules.home_token_hexes(g, s, corp.sym)
    cities: list[list[Any]] | None = None
    if corp.companies:
        cities = [list(c) for c in reserved_cities(step, corp.sym, corp.companies[0])]
    queue_home_token(step, corp.sym, hexes, cities)


# ---------------------------------------------------------------------------------------------
class ExchangeApproval(Step18xx):
    """[§8.5] The director of the company asked for a treasury share decides."""

    NAME = "exchange_approval"

    @classmethod
    def round_data(cls) -> dict[str, Any]:
        return {"minor": None, "approvals": {}, "pending_approval": None}

    @property
    def active(self) -> bool:
        return bool(self.rdata.get("pending_approval"))

    def in_pcr(self) -> bool:
        return self.state.data.get("private_closure_round") == "in_progress"

    def current_entity(self) -> str | None:
        return self.rdata.get("pending_approval")

    def active_entities(self) -> list[str]:
        corp = self.rdata.get("pending_approval")
        if not corp:
            return []
        if self.in_pcr():
            return [corp]
        d = self.state.corporations[corp].director
        return [d] if d else [corp]

    def actions(self, entity: str) -> list[str]:
        return ["choose"] if entity == self.rdata.get("pending_approval") else []

    def process_choose(self, action: Choose) -> None:
        if action.choice not in ("approve", "deny"):
            raise self.illegal(action, "exchange approval", "choose approve or deny")
        s = self.state
        corp = s.corporations[self.rdata["pending_approval"]]
        sym = self.rdata["minor"]
        if action.choice == "approve":
            tre = sh.holder_shares(corp, corp.sym)
            if not tre:
                raise self.illegal(action, "exchange approval", "no treasury share left")
            if not self.game.rules.private_connected(self.game, s, corp.sym, sym):
                raise self.illegal(
                    action, "exchange", f"{sym} is not connected to {corp.sym}'s network"
                )
            player = s.privates[sym].owner
            exchange_for_share(
                self, sh.Bundle(corp.sym, [tre[0]], tre[0].percent), corp, sym, player
            )
            if self.in_pcr():
                self.game.rules.close_private(self.game, s, sym)
            else:
                self.rdata.setdefault("current_actions", []).append("exchange")
        elif self.in_pcr():
            self.rdata.setdefault("approvals", {})[corp.sym] = "denied"
        self.rdata["pending_approval"] = None

    def legal_actions(self, entity: str) -> list[Action]:
        if entity != self.rdata.get("pending_approval"):
            return []
        g, sym = self.game, self.rdata.get("minor")
        choices = ["deny"]
        if sym is not None and g.rules.private_connected(g, self.state, entity, str(sym)):
            choices.insert(0, "approve")
        return [Choose(entity=entity, entity_type="corporation", choice=c) for c in choices]


# ---------------------------------------------------------------------------------------------
class StockTurn(Step18xx):
    """[§8] A stock-round turn: sell, then one purchase (a certificate, starting a company, or
    bidding on a private, which starts an auction among all players)."""

    NAME = "stock"

    @classmethod
    def round_data(cls) -> dict[str, Any]:
        return {"players_sold": {}, "players_bought": {}, "current_actions": []}

    # -- per-turn state --------------------------------------------------------------------
    def setup(self) -> None:
        for corps in self.rdata["players_sold"].values():
            for c in corps:
                corps[c] = "prev"
        self.rdata["current_actions"] = []
        self.data["auctioning"] = None
        self.data["bids"] = []  # [player, price] in the order placed
        self.data["bidders"] = []
        self.data["triggerer"] = None

    def player_of_turn(self) -> str | None:
        rnd = self.round
        return rnd.entities[rnd.entity_index] if rnd.entities else None

    def active_entities(self) -> list[str]:
        auc = self.data.get("auctioning")
        if not auc:
            p = self.player_of_turn()
            return [p] if p else []
        bidders: list[str] = self.data["bidders"]
        top = self.highest_bid()
        assert top is not None
        return [bidders[(bidders.index(top[0]) + 1) % len(bidders)]]

    def bought(self) -> bool:
        return any(a in PURCHASES for a in self.rdata["current_actions"])

    def sold_now(self, player: str, corp: str) -> bool:
        return self.rdata["players_sold"].get(player, {}).get(corp) == "now"

    def sold_any(self, player: str, corp: str) -> bool:
        return corp in self.rdata["players_sold"].get(player, {})

    # -- what may be done ------------------------------------------------------------------
    def actions(self, entity: str) -> list[str]:
        s = self.state
        if entity in s.corporations:
            return self.corporation_actions(entity)
        if entity != self.current_entity():
            return []
        if self.data.get("auctioning"):
            return ["bid", "pass"]
        if self.must_sell(entity):
            return ["sell_shares"]
        if self.bought():
            return ["sell_shares", "pass"] if self.can_sell_any(entity) else []
        out = []
        if self.can_sell_any(entity):
            out.append("sell_shares")
        if self._can_convert_any(entity):
            out.append("convert")
        if self.can_buy_any(entity) or self.can_exchange_any(entity):
            out.append("buy_shares")
        if self.can_par_any(entity):
            out.append("par")
        if self.can_bid_any(entity):
            out.append("bid")
        if out:
            out.append("pass")
        return out

    def has_actions(self, entity: str) -> bool:
        """Same answer as ``bool(actions(entity))``, cheapest questions first."""
        s = self.state
        if entity in s.corporations:
            return bool(self.corporation_actions(entity))
        if entity != self.current_entity():
            return False
        if self.data.get("auctioning"):
            return True
        if self.bought():
            return self.must_sell(entity) or self.can_sell_any(entity)
        # (the same questions as actions(), none changing anything: the cheapest, most
        # often true first -- an exchange is a lookup, a purchase prices every company)
        return (
            self.can_exchange_any(entity)
            or self._can_convert_any(entity)
            or self.can_sell_any(entity)
            or self.can_bid_any(entity)
            or self.can_buy_any(entity)
            or self.can_par_any(entity)
        )

    def takes(self, entity: str, kind: str) -> tuple[bool, bool]:
        """:meth:`actions`' answer for one action kind, asking only what decides it (the
        whole listing prices every purchase and sale; processing an action needs one)."""
        s = self.state
        if (
            type(self).actions is not StockTurn.actions  # a variant lists its own
            or type(self).has_actions is not StockTurn.has_actions
            or entity in s.corporations
            or entity != self.current_entity()
            or self.data.get("auctioning")
            or self.bought()
        ):
            return super().takes(entity, kind)
        if self.must_sell(entity):
            return kind == "sell_shares", True  # (must_sell: some sale is possible)
        if kind == "pass":
            has = self.has_actions(entity)
            return has, has
        found: bool
        if kind == "sell_shares":
            found = self.can_sell_any(entity)
        elif kind == "convert":
            found = self._can_convert_any(entity)
        elif kind == "buy_shares":
            found = self.can_buy_any(entity) or self.can_exchange_any(entity)
        elif kind == "par":
            found = self.can_par_any(entity)
        elif kind == "bid":
            found = self.can_bid_any(entity)
        else:
            found = False
        if found:
            return True, True
        return False, self.has_actions(entity)

    def _can_convert_any(self, entity: str) -> bool:
        """``any(can_convert(c))`` for the turn's player ``entity``: as written here
        :meth:`can_convert` asks first that ``entity`` directs the company, so only the
        companies it directs are asked (the rule hook was asked of every company)."""
        corps = self.state.corporations.values()
        if type(self).can_convert is StockTurn.can_convert:
            return any(self.can_convert(c) for c in corps if c.director == entity)
        return any(self.can_convert(c) for c in corps)

    def corporation_actions(self, corp: str) -> list[str]:
        c = self.state.corporations[corp]
        if c.director != self.current_entity() or self.bought() or not self.can_convert(c):
            return []
        return ["convert", "pass"]

    def can_convert(self, c: Corporation) -> bool:
        return (
            c.director == self.current_entity()
            and self.game.rules.can_convert(self.game, self.state, c.sym)
            and not self.bought()
        )

    def must_sell(self, player: str) -> bool:
        g, s = self.game, self.state
        if sh.num_certs(g, s, player) <= g.cert_limit:
            return False
        return self.can_sell_any(player)

    def may_sell_company(self, corp: Corporation) -> bool:
        """market.yaml ``sell_after``: whether shares of ``corp`` may be sold yet."""
        when = self.game.definition.market.sell_after
        if when == "operate":
            return corp.operated
        if when == "first_stock_round":
            return self.state.turn > 1
        return True

    def can_sell(self, player: str, bundle: sh.Bundle) -> bool:
        g, s = self.game, self.state
        return (
            bundle.owner == player
            and self._may_sell_of(player, s.corporations[bundle.corp])
            and sh.fits_in_pool(g, s, bundle)
            and sh.can_dump(s, player, bundle)
        )

    def _may_sell_of(self, player: str, corp: Corporation) -> bool:
        """:meth:`can_sell`'s tests that do not depend on the bundle."""
        rules = self.game.definition.market
        return (
            self.may_sell_company(corp)
            and not (rules.must_sell_in_blocks and self.sold_now(player, corp.sym))
            and not (rules.sell_buy_order == "sell_buy" and self.bought())
        )

    def sellable_bundles(self, player: str) -> list[sh.Bundle]:
        return list(self._sellable(player))

    def can_sell_any(self, player: str) -> bool:
        """``bool(sellable_bundles(player))``, stopping at the first."""
        return next(self._sellable(player), None) is not None

    def _sellable(self, player: str) -> Iterator[sh.Bundle]:
        # can_sell's tests that do not depend on the bundle, asked once per company before
        # its bundles are made (the bundles are most of what a stock-round test costs)
        plain = type(self).can_sell is StockTurn.can_sell
        for corp in self.state.corporations.values():
            if corp.closed or (plain and not self._may_sell_of(player, corp)):
                continue
            for b in sh.bundles_for(self.state, corp, player):
                if self.can_sell(player, b):
                    yield b

    def buyable(self, player: str) -> list[sh.Bundle]:
        """Single certificates the player may buy now (treasury of started companies, pool)."""
        return list(self._buyable(player))

    def can_buy_any(self, player: str) -> bool:
        """``bool(buyable(player))``, stopping at the first."""
        return next(self._buyable(player), None) is not None

    def _buyable(self, player: str) -> Iterator[sh.Bundle]:
        g, s = self.game, self.state
        if self.bought():
            return
        cash = s.player(player).cash
        # the player's certificate count is the same for every bundle: counted once, if asked
        held = functools.cache(lambda: sh.num_certs(g, s, player))
        for corp in s.corporations.values():
            if corp.closed or self.sold_any(player, corp.sym):
                continue
            for holder in (POOL, corp.sym):
                if holder == corp.sym and not corp.ipoed:
                    continue
                first = sh.first_ordinary_share(corp, holder)
                if first is None:
                    continue
                b = sh.Bundle(corp.sym, [first], first.percent)
                if cash >= sh.bundle_price(g, s, b) and sh.can_gain(g, s, player, b, certs=held):
                    yield b

    def can_exchange_any(self, player: str) -> bool:
        g, s = self.game, self.state
        for sym in s.player(player).companies:
            pd = g.definition.private(sym)
            if pd.exchange_for_share and any(
                sh.percent_of(c, c.sym) > 0 for c in s.corporations.values() if not c.closed
            ):
                return True
            if (
                g.rules.can_start_with_private(g, s, sym)
                and market.spaces(g)[g.rules.private_par_column(g, s, sym)] <= s.player(player).cash
                and not all(c.ipoed for c in s.corporations.values())
            ):
                return True
        return False

    def par_columns(self, player: str) -> list[int]:
        g, s = self.game, self.state
        cash = s.player(player).cash
        cols = [i for i, p in enumerate(market.spaces(g)) if p in market.par_values(g)]
        return [i for i in cols if market.spaces(g)[i] * 2 <= cash]

    def can_par_any(self, player: str) -> bool:
        g, s = self.game, self.state
        if self.bought() or not g.rules.can_par_directly(g, s):
            return False
        if not self.par_columns(player):
            return False
        return any(not c.ipoed and not c.closed for c in s.corporations.values()) and (
            sh.num_certs(g, s, player) < g.cert_limit
        )

    def auctionable(self) -> list[str]:
        return self.game.rules.buyable_privates(self.game, self.state)

    def min_bid(self, sym: str) -> int:
        top = self.highest_bid()
        if self.data.get("auctioning") and top is not None:
            return int(top[1]) + self.game.definition.market.minimum_bid_increment
        opening = self.game.definition.private(sym).minimum_bid
        market = self.game.definition.market
        if market.bids_in_multiples and opening % market.minimum_bid_increment:
            # bids go in multiples: the lowest legal opening bid is the next one up
            step = market.minimum_bid_increment
            return opening + step - opening % step
        return opening

    def max_bid(self, player: str) -> int:
        g, s = self.game, self.state
        if sh.num_certs(g, s, player) >= g.cert_limit:
            return 0
        return s.player(player).cash

    def can_bid_any(self, player: str) -> bool:
        auc = self.data.get("auctioning")
        cash = self.state.player(player).cash
        return any(
            (not auc or auc == sym) and self.min_bid(sym) <= cash for sym in self.auctionable()
        )

    def highest_bid(self) -> list[Any] | None:
        bids = self.data.get("bids") or []
        return max(bids, key=lambda b: b[1]) if bids else None

    # -- processing ------------------------------------------------------------------------
    def track(self, action: Action) -> None:
        self.rdata["current_actions"].append(action.type)

    def process_sell_shares(self, action: SellShares) -> None:
        g, s = self.game, self.state
        player = action.entity
        bundle = sh.check_bundle(s, action.shares, action.percent)
        if not self.can_sell(player, bundle):
            raise self.illegal(action, "selling", f"cannot sell {bundle.percent}% of {bundle.corp}")
        corp = s.corporations[bundle.corp]
        current = market.share_price(g, s.corporations[corp.sym])
        if action.share_price is not None and action.share_price != current:
            raise self.illegal(
                action,
                "selling price",
                f"{corp.sym} shares sell at {current}, not {action.share_price}",
            )
        was_director = corp.director == player
        self.rdata["players_sold"].setdefault(player, {})[corp.sym] = "now"
        sh.sell_shares(g, s, bundle)
        movement = g.definition.market.movement
        market.move_price(
            g, s, corp, movement.director_sells if was_director else movement.others_sell
        )
        self.track(action)

    def process_buy_shares(self, action: BuyShares) -> None:
        g, s = self.game, self.state
        player = action.entity
        bundle = sh.check_bundle(s, action.shares, action.percent)
        corp = s.corporations[bundle.corp]
        if self.bought():
            raise self.illegal(action, "one purchase", "already bought this turn")
        if bundle.owner not in (POOL, corp.sym) or bundle.presidents_share is not None:
            raise self.illegal(action, "buying", "buy from a treasury or the bank pool")
        if bundle.owner == corp.sym and not corp.ipoed:
            raise self.illegal(action, "buying", f"{corp.sym} has not started")
        if self.sold_any(player, corp.sym):
            raise self.illegal(action, "sold this round", f"sold {corp.sym} this round")
        current = market.share_price(g, s.corporations[corp.sym])
        if action.share_price is not None and action.share_price != current:
            raise self.illegal(
                action,
                "buying price",
                f"{corp.sym} shares cost {current}, not {action.share_price}",
            )
        price = sh.bundle_price(g, s, bundle)
        if s.player(player).cash < price:
            raise self.illegal(action, "cash", f"costs {price}")
        if not sh.can_gain(g, s, player, bundle):
            raise self.illegal(action, "certificate limit", "over a holding or certificate limit")
        rd = self.rdata["players_bought"].setdefault(player, {})
        rd[corp.sym] = rd.get(corp.sym, 0) + bundle.percent
        sh.buy_shares(g, s, player, bundle, price=price)
        maybe_home_token(self, corp)
        self.track(action)

    def process_par(self, action: Par) -> None:
        g, s = self.game, self.state
        player = action.entity
        corp = s.corporations.get(action.corporation)
        if corp is None or corp.ipoed or corp.closed:
            raise self.illegal(action, "starting", f"{action.corporation} cannot be started")
        if self.bought() or not g.rules.can_par_directly(g, s):
            raise self.illegal(action, "starting", "cannot start a company now")
        try:
            price_s, row_s, col_s = action.share_price.split(",")
            par, col, row = int(price_s), int(col_s), int(row_s)
        except ValueError:
            raise self.illegal(action, "par", f"bad par cell {action.share_price!r}") from None
        if (
            row != 0
            or not 0 <= col < len(market.spaces(g))
            or market.spaces(g)[col] != par
            or par not in market.par_values(g)
        ):
            raise self.illegal(action, "par", f"{action.share_price} is not a par price")
        pres = next(x for x in corp.shares if x.president)
        bundle = sh.Bundle(corp.sym, [pres], pres.percent)
        sh.set_par(g, s, corp, col, row)
        price = sh.bundle_price(g, s, bundle)
        if s.player(player).cash < price or not sh.can_gain(g, s, player, bundle):
            raise self.illegal(action, "starting", f"cannot pay {price} / over a limit")
        rd = self.rdata["players_bought"].setdefault(player, {})
        rd[corp.sym] = rd.get(corp.sym, 0) + pres.percent
        sh.buy_shares(g, s, player, bundle, price=price)
        maybe_home_token(self, corp)
        self.track(action)
        self.pass_()

    def process_convert(self, action: Convert) -> None:
        c = self.state.corporations.get(action.entity)
        if c is None:  # a player may be offered 'convert', but the company is what converts
            raise self.illegal(action, "convert", f"{action.entity} is not a company")
        if not self.can_convert(c):
            raise self.illegal(action, "convert", f"{c.sym} cannot convert now")
        self.game.rules.convert(self.game, self.state, c.sym)

    def process_bid(self, action: Bid) -> None:
        g = self.game
        player = action.entity
        sym = action.company
        if sym not in self.auctionable():
            raise self.illegal(action, "auction", f"{sym} cannot be bought now")
        auc = self.data.get("auctioning")
        if auc and auc != sym:
            raise self.illegal(action, "auction", f"{auc} is being auctioned")
        lo = self.min_bid(sym)
        if action.price < lo:
            raise self.illegal(action, "minimum bid", f"minimum bid is {lo}")
        inc = g.definition.market.minimum_bid_increment
        if g.definition.market.bids_in_multiples and action.price % inc:
            raise self.illegal(action, "bid increments", f"bids are multiples of {inc}")
        if sh.num_certs(g, self.state, player) >= g.cert_limit:
            raise self.illegal(
                action,
                "bid certificate limit",
                f"{player} is at the certificate limit ({g.cert_limit}) and cannot bid",
            )
        if action.price > self.max_bid(player):
            raise self.illegal(action, "bid", f"cannot afford {action.price}")
        if player in self.round.passed:
            self.round.passed.remove(player)
        bids = [b for b in self.data["bids"] if b[0] != player]
        bids.append([player, action.price])
        self.data["bids"] = bids
        if auc:
            lo = self.min_bid(sym)
            for other in list(self.data["bidders"]):
                if other != player and self.max_bid(other) < lo:
                    self.remove_bidder(other)
            self.resolve()
        else:
            self.data["triggerer"] = player
            self.data["auctioning"] = sym
            lo = self.min_bid(sym)
            self.data["bidders"] = [
                p for p in self.round.entities if p == player or self.max_bid(p) >= lo
            ]
            self.resolve()

    def remove_bidder(self, player: str) -> None:
        if player in self.data["bidders"]:
            self.data["bidders"].remove(player)
        self.data["bids"] = [b for b in self.data["bids"] if b[0] != player]

    def resolve(self) -> None:
        sym = self.data.get("auctioning")
        if not sym:
            return
        bidders = self.data["bidders"]
        if len(bidders) != 1 or not self.data["bids"]:
            return
        winner, price = self.data["bids"][0]
        from ferrovia.lib18xx.stock import purchase_private

        purchase_private(self.game, self.state, winner, sym, int(price))
        self.log(f"{self.state.player(winner).name} wins {sym} for {price}")
        self.data["auctioning"] = None
        self.data["bids"] = []
        self.data["bidders"] = []
        self.st.acted = False
        # the player after the one who started the auction goes next
        self.game.round(self.state).next_entity_index()
        self.rdata["current_actions"] = []

    def pass_(self) -> None:
        if self.data.get("auctioning"):
            cur = self.current_entity()
            assert cur is not None
            self.remove_bidder(cur)
            self.resolve()
            return
        self.st.passed = True
        cur = self.current_entity()
        if cur is None:
            return
        if self.rdata["current_actions"]:
            if cur in self.round.passed:
                self.round.passed.remove(cur)
        elif cur not in self.round.passed:
            self.round.passed.append(cur)

    # -- random play -----------------------------------------------------------------------
    def legal_actions(self, entity: str) -> list[Action]:
        g, s = self.game, self.state
        acts = self.actions(entity)
        out: list[Action] = []
        et = "corporation" if entity in s.corporations else "player"
        if "bid" in acts:
            auc = self.data.get("auctioning")
            for sym in [auc] if auc else self.auctionable():
                lo = self.min_bid(sym)
                if lo <= self.max_bid(entity):
                    out.append(Bid(entity=entity, company=sym, price=lo))
        if "sell_shares" in acts and et == "player":
            for b in self.sellable_bundles(entity):
                out.append(
                    SellShares(
                        entity=entity,
                        shares=tuple(x.id for x in b.shares),
                        percent=b.percent,
                    )
                )
        if "buy_shares" in acts and et == "player":
            for b in self.buyable(entity):
                out.append(BuyShares(entity=entity, shares=(b.shares[0].id,), percent=b.percent))
        if "par" in acts:
            cols = self.par_columns(entity)
            for corp in s.corporations.values():
                if not corp.ipoed and not corp.closed and cols:
                    col = cols[len(cols) // 2]
                    out.append(
                        Par(
                            entity=entity,
                            corporation=corp.sym,
                            share_price=f"{market.spaces(g)[col]},0,{col}",
                        )
                    )
        if "convert" in acts:
            if et == "corporation":
                out.append(Convert(entity=entity, entity_type="corporation"))
        if "pass" in acts:
            out.append(Pass(entity=entity, entity_type=et))
        return out


__all__ = ["Exchange", "ExchangeApproval", "StockTurn"]
