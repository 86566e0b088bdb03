"""Buying trains: limits, emergency issue, what a trainless company may do.

Pure rules; :mod:`ferrovia.lib18xx.operating.steps` applies them to a game.

- A company may buy while it has fewer trains than its limit (wounded trains count).
- Trains come from the bank (the next new one, or any type the phase makes available, or any in
  the bank pool) at face value, or from another company at any price from P1 to its treasury.
- A trainless company may raise emergency money: first issue treasury shares (never more than it
  needs for the train it buys), then the director contributes cash; only for a bank train.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ferrovia.kernel.actions import Action, Pass
from ferrovia.kernel.ledger import transfer
from ferrovia.lib18xx import market
from ferrovia.lib18xx.actions import BuyCompany, BuyTrain, DiscardTrain, ScrapTrain, SellShares
from ferrovia.lib18xx.operating import common, phases
from ferrovia.lib18xx.state import BANK, POOL, State18xx
from ferrovia.lib18xx.step import Step18xx
from ferrovia.lib18xx.stock.shares import move_share, share_percent

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx


def train_limit(limits: Mapping[str, int], company_kind: str) -> int:
    """The limit for a company kind ('5-share', '10-share') in the current phase; a kind the
    phase does not list (5-share after phase 5 does not exist) may own none.

    >>> train_limit({"5-share": 3, "10-share": 4}, "10-share")
    4
    """
    return limits.get(company_kind, 0)


def has_room(num_trains: int, limit: int) -> bool:
    return num_trains < limit


def emergency_issue_sizes(
    bundle_prices: Sequence[tuple[int, int]], cash: int, most_expensive_bank_train: int
) -> list[int]:
    """Which bundle sizes a trainless company may issue to raise money for a train.

    ``bundle_prices``: (number of shares, price) of each issuable bundle, smallest first.
    All bundles that still leave it short of the dearest bank train are allowed, plus the
    first one that reaches it (18xx.games ``emergency_issuable_bundles``).

    >>> emergency_issue_sizes([(1, 60), (2, 120), (3, 180)], 100, 200)
    [1, 2]
    >>> emergency_issue_sizes([(1, 60)], 400, 300)
    []
    """
    if cash >= most_expensive_bank_train:
        return []
    short = [n for n, price in bundle_prices if price + cash < most_expensive_bank_train]
    reaching = [n for n, price in bundle_prices if price + cash >= most_expensive_bank_train]
    return short + reaching[:1]


def other_company_price_ok(price: int, cash: int, least: int) -> bool:
    """Between companies the price is free: at least ``least`` (trains.yaml
    ``between_companies.min_price``), at most the buyer's treasury.

    >>> other_company_price_ok(1, 50, 1), other_company_price_ok(0, 50, 1)
    (True, False)
    >>> other_company_price_ok(51, 50, 1), other_company_price_ok(5, 50, 10)
    (False, False)
    """
    return least <= price <= cash


# -- applying it to a game ----------------------------------------------------------------------


def limit_of(game: Game18xx, state: State18xx, corp: str) -> int:
    phase = common.current_phase(game, state)
    return train_limit(phase.train_limit, state.corporations[corp].kind)


def buyable_train(game: Game18xx, state: State18xx, tid: str) -> bool:
    """A used train (bank pool, another company) may be bought unless it is wounded and
    trains.yaml ``wounded.may_be_bought`` is false."""
    return game.definition.wounded.may_be_bought or not state.trains[tid].obsolete


def crowded_companies(game: Game18xx, state: State18xx) -> list[str]:
    """Companies over their train limit in the order they discard: operating order, or the
    charter order (``Rules.CROWDED_IN_OPERATING_ORDER``)."""
    limits = common.current_phase(game, state).train_limit
    over = [
        c
        for c in state.corporations.values()
        if c.floated
        and not c.closed
        # no more cards than the limit: never over it (asked at every step test, so cheap first)
        and len(c.trains) > (limit := train_limit(limits, c.kind))
        and common.trains_against_limit(game, state, c.sym) > limit
    ]
    if not over or not game.rules.CROWDED_IN_OPERATING_ORDER:
        return [c.sym for c in over]
    return [c.sym for c in game.sorted_by_price(state, over)]


def depot_offer(game: Game18xx, state: State18xx) -> list[str]:
    """Bank trains for sale: the next new train, any later type the phase already makes
    available (5D in phase 7), and one of each name in the bank pool (the first discarded;
    a pool card is offered even when a new train of its name is, as in 18xx.games)."""
    reached = common.phases_reached(game, state)
    out: list[str] = []
    names: set[str] = set()
    trains = state.trains
    for i, tid in enumerate(state.depot):
        name = trains[tid].name
        if name in names:
            continue  # (asked first: most cards are a name already offered)
        if i:  # (the type looked up only for the cards after the first)
            available_on = common.train_type_def(game, tid).available_on
            if available_on is None or available_on not in reached:
                continue
        names.add(name)
        out.append(tid)
    pool_names: set[str] = set()
    for tid in common.pool_trains(state):
        if not buyable_train(game, state, tid):
            continue
        if state.trains[tid].name not in pool_names:
            pool_names.add(state.trains[tid].name)
            out.append(tid)
    return out


def discounted_price(
    game: Game18xx, state: State18xx, buyer: str | None, face: str, price: int
) -> int:
    """What ``buyer`` pays for a bank train of face ``face`` listed at ``price``: the best
    train discount of the privates it owns (privates.yaml ``train_discount``) rounded down.

    A 10 % discount makes a 500 train 450 and a 650 one 585."""
    if buyer is None or buyer not in state.corporations:
        return price
    best = price
    for sym in state.corporations[buyer].companies:
        discount = game.definition.private(sym).train_discount
        if discount is None or (discount.trains and face not in discount.trains):
            continue
        best = min(best, price - price * discount.percent // 100)
    return best


def bank_train_prices(
    game: Game18xx, state: State18xx, tid: str, buyer: str | None = None
) -> dict[str, int]:
    """Face -> price of a bank train (to ``buyer``, after its train discount).  Like
    18xx.games (and unlike 1858's rulebook, which fixes the face once chosen) a card from the bank
    pool may be bought with either face up."""
    return {
        f: discounted_price(game, state, buyer, f, common.face_price(game, f))
        for f in common.faces_of(game, tid)
    }


def other_companies_trains(game: Game18xx, state: State18xx, corp: str) -> list[str]:
    return [
        tid
        for c in state.corporations.values()
        if c.sym != corp and not c.closed
        for tid in c.trains
        if buyable_train(game, state, tid)
    ]


def works_for_sale(game: Game18xx, state: State18xx, corp: str) -> list[str]:
    """The works (privates.yaml ``kind: works``) ``corp`` may buy from the bank now: none if
    it owns one already, else the bank's open ones whose ``works_status`` the phase has."""
    return [sym for sym in works_shown(game, state, corp) if not state.privates[sym].closed]


def works_shown(game: Game18xx, state: State18xx, corp: str) -> list[str]:
    """:func:`works_for_sale` and the works closed with their companies: 18xx.games keeps
    showing a closed works for sale (none can buy it), so ``corp``'s buy-trains step waits
    for its pass while one is within its means."""
    c = state.corporations[corp]
    if any(game.definition.private(sym).kind == "works" for sym in c.companies):
        return []
    status = common.current_phase(game, state).status
    return [
        p.symbol
        for p in game.definition.privates
        if p.kind == "works" and p.works_status in status and state.privates[p.symbol].owner == BANK
    ]


def min_depot_price(game: Game18xx, state: State18xx) -> int:
    offer = depot_offer(game, state)
    if not offer:
        return 0
    cheapest = min(offer, key=lambda t: common.face_price(game, state.trains[t].name))
    return min(bank_train_prices(game, state, cheapest).values())


def max_depot_price(game: Game18xx, state: State18xx) -> int:
    offer = depot_offer(game, state)
    if not offer:
        return 0
    dearest = max(offer, key=lambda t: common.face_price(game, state.trains[t].name))
    return max(bank_train_prices(game, state, dearest).values())


def restock_unlimited(game: Game18xx, state: State18xx, bought: str, at: int) -> None:
    """A type of ``count: unlimited`` never runs out: when its last card leaves the depot a
    new one takes its place (ids go on from the highest, ``D-1``, ``D-2``, ...)."""
    from ferrovia.lib18xx.state import Train

    name = state.trains[bought].name
    if game.definition.train_count(name, game.num_players) is not None:
        return
    if any(state.trains[t].name == name for t in state.depot):
        return
    n = sum(1 for t in state.trains.values() if t.name == name)
    tid = f"{name}-{n}"
    state.trains[tid] = Train(id=tid, name=name)
    state.depot.insert(at, tid)


class DiscardTrainStep(Step18xx):
    """Companies over their (new, lower) train limit discard to the bank pool, in order."""

    NAME = "discard_train"
    DESCRIPTION = "Discard Trains"

    def crowded(self) -> list[str]:
        return crowded_companies(self.game, self.state)

    @property
    def active(self) -> bool:
        return bool(self.crowded())

    def active_entities(self) -> list[str]:
        return self.crowded()[:1]

    def actions(self, entity: str) -> list[str]:
        return ["discard_train"] if entity in self.crowded()[:1] else []

    def discardable(self, corp: str) -> list[str]:
        """A car is never discarded."""
        return common.engines(self.game, self.state, corp)

    def process_discard_train(self, action: Action) -> None:
        assert isinstance(action, DiscardTrain)
        corp = self.state.corporations[action.entity]
        if action.train not in self.discardable(corp.sym):
            raise self.illegal(
                action, "train limit", f"{action.train} is not a train {corp.sym} may discard"
            )
        t = self.state.trains[action.train]
        if t.obsolete:
            common.remove_from_play(self.state, action.train)  # wounded trains leave the game
        else:
            common.to_pool(self.state, action.train)
        self.log(f"{corp.sym} discards {t.name}")

    def legal_actions(self, entity: str) -> list[Action]:
        return [
            DiscardTrain(entity=entity, entity_type="corporation", train=t)
            for t in self.discardable(entity)
        ]


def emergency_bundles(game: Game18xx, state: State18xx, corp_sym: str) -> list[list[str]]:
    """Treasury-share bundles a trainless company may issue in the buy-trains step."""
    corp = state.corporations[corp_sym]
    if common.engines(game, state, corp_sym):
        return []
    bundles = issuable_bundles(game, state, corp_sym)
    price = market.share_price(game, corp)
    sizes = emergency_issue_sizes(
        [(len(b), len(b) * price) for b in bundles], corp.cash, max_depot_price(game, state)
    )
    return [b for b in bundles if len(b) in sizes]


def issuable_bundles(game: Game18xx, state: State18xx, corp_sym: str) -> list[list[str]]:
    """Treasury shares a company could put in the bank pool (smallest bundle first), as long
    as the pool stays within its limit."""
    corp = state.corporations[corp_sym]
    treasury = sorted(common.treasury_shares(corp), key=lambda s: (s.president, s.percent))
    in_pool = sum(s.percent for s in common.pool_shares(corp))
    limit = game.definition.market.bank_pool_limit
    out: list[list[str]] = []
    bundle: list[str] = []
    pct = 0
    for sh in treasury:
        if sh.president:
            break
        bundle = [*bundle, sh.id]
        pct += sh.percent
        if in_pool + pct <= limit:
            out.append(bundle)
    return out


def bundle_percent(corp: Any, share_ids: Sequence[str]) -> int:
    """The percent a bundle of ``corp``'s shares stands for, as an 18xx.games action records
    it (its engine prices an issue or redemption from this figure, so a log needs it)."""
    ids = set(share_ids)
    return sum(s.percent for s in corp.shares if s.id in ids)


def is_bundle_of(
    corp: Any, share_ids: Sequence[str], holder: str, bundles: list[list[str]]
) -> bool:
    """Whether ``share_ids`` are distinct shares ``holder`` has of ``corp``, as many as one of
    the allowed ``bundles`` (which certificates exactly does not matter: they are alike)."""
    held = {s.id for s in corp.shares if s.owner == holder and not s.president}
    ids = list(share_ids)
    return (
        len(set(ids)) == len(ids) and set(ids) <= held and any(len(b) == len(ids) for b in bundles)
    )


def issue_shares(game: Game18xx, state: State18xx, corp_sym: str, share_ids: list[str]) -> int:
    """Treasury shares to the bank pool at the current price; the price moves one left."""
    corp = state.corporations[corp_sym]
    price = market.share_price(game, corp)
    unit = share_percent(corp)
    by_id = {s.id: s for s in corp.shares}
    amount = sum(by_id[i].percent // unit for i in share_ids) * price
    for i in share_ids:
        move_share(state, by_id[i], POOL)
    transfer(state, BANK, corp_sym, amount, f"{corp_sym} issues {len(share_ids)} shares")
    state.log.append(f"{corp_sym} issues {', '.join(share_ids)} for {amount}")
    market.move_price(game, state, corp, game.definition.market.movement.issue)
    return price


class BuyTrainStep(Step18xx):
    """Buy trains (bank, bank pool, other companies), discard wounded trains, the trainless
    company's emergency issue and director's contribution, and buying a works."""

    NAME = "buy_train"
    DESCRIPTION = "Buy Trains"

    def setup(self) -> None:
        self.data["last_issued_price"] = None

    def _full(self, corp: str) -> bool:
        """At the train limit (cars do not count against it when the data says so)."""
        return not has_room(
            common.trains_against_limit(self.game, self.state, corp),
            limit_of(self.game, self.state, corp),
        )

    def _room(self, corp: str) -> bool:
        """Room for a train, or (in a game with cars) for the car it lacks: as in 18xx.games
        the step then stays open even when no car is for sale."""
        if not self._full(corp):
            return True
        return common.has_cars(self.game) and not common.cars(self.game, self.state, corp)

    def _trainless(self, corp: str) -> bool:
        return not common.engines(self.game, self.state, corp)

    def _trade_in_open(self, corp: str) -> bool:
        """At its limit, a company may still buy while it can afford a new train by trading in
        one it owns (trains.yaml ``trade_in``; 1830: a D for 800 with a 4, 5 or 6), and, as in
        18xx.games, the step then takes any train it may buy: one beyond the limit is
        discarded after (18xx.games seed 12106, 1830, two players: B&O at its limit of two,
        a 5 and a 6, bought another company's 4 and discarded it)."""
        g, s = self.game, self.state
        company = s.corporations[corp]
        owned = {s.trains[t].name for t in company.trains}
        for tid in depot_offer(g, s):
            if tid not in s.depot:
                continue  # (new trains only, as 18xx.games offers the trade-in: not the pool's)
            trade_in = common.train_type_def(g, tid).trade_in
            tradable = owned.intersection(trade_in)
            if not tradable:
                continue
            least = min(bank_train_prices(g, s, tid, corp).values())
            off = max(int(trade_in[name]) for name in tradable)
            if 0 < off and least - off <= company.cash:
                return True
        return False

    def _shut(self, corp: str) -> bool:
        """No room for a train (but a car): at the limit, and no trade-in open."""
        return self._full(corp) and not self._trade_in_open(corp)

    def _offer(self, corp: str) -> list[str]:
        """The bank trains ``corp`` may buy: no second car, and only a car at its limit."""
        owns_car = bool(common.cars(self.game, self.state, corp))
        full = self._shut(corp)
        out = []
        for tid in depot_offer(self.game, self.state):
            car = common.is_car(self.game, tid)
            if (car and not owns_car) or (not car and not full):
                out.append(tid)
        return out

    def _from_others(self, corp: str) -> list[str]:
        """Other companies' trains ``corp`` may buy (cars are not sold between companies)."""
        if self._shut(corp):
            return []
        return [
            t
            for t in other_companies_trains(self.game, self.state, corp)
            if not common.is_car(self.game, t)
        ]

    def _min_price(self, corp: str) -> int | None:
        prices = [
            min(bank_train_prices(self.game, self.state, t, corp).values())
            for t in depot_offer(self.game, self.state)
        ]
        if other_companies_trains(self.game, self.state, corp):
            prices.append(self.game.definition.between_companies.min_price)
        return min(prices) if prices else None

    def can_buy(self, corp: str) -> bool:
        if not self._room(corp):  # the cheap test first: most companies asked are full or poor
            return self._trade_in_open(corp)
        # ``cash >= _min_price(corp)``, stopping at the first train within its means
        cash = self.state.corporations[corp].cash
        g, s = self.game, self.state
        for t in depot_offer(g, s):
            if min(bank_train_prices(g, s, t, corp).values()) <= cash:
                return True
        return g.definition.between_companies.min_price <= cash and bool(
            other_companies_trains(g, s, corp)
        )

    def _scrappable(self, corp: str) -> list[str]:
        """Wounded trains the company may discard at will (trains.yaml
        ``wounded.may_be_discarded``)."""
        if not self.game.definition.wounded.may_be_discarded:
            return []
        return [t for t in self.state.corporations[corp].trains if self.state.trains[t].obsolete]

    def _works(self, corp: str) -> list[str]:
        """Works ``corp`` can buy and afford now."""
        cash = self.state.corporations[corp].cash
        return [
            sym
            for sym in works_for_sale(self.game, self.state, corp)
            if self.game.definition.private(sym).face_value <= cash
        ]

    def can_emergency_issue(self, corp: str) -> bool:
        if not self.game.rules.EMERGENCY_ISSUE or not self.can_buy(corp):
            return False
        bundles = emergency_bundles(self.game, self.state, corp)
        if not bundles:
            return False
        c = self.state.corporations[corp]
        director_cash = self.state.cash_of(c.director) if c.director else 0
        best = max(len(b) for b in bundles) * market.share_price(self.game, c)
        return min_depot_price(self.game, self.state) <= c.cash + director_cash + best

    def has_actions(self, entity: str) -> bool:
        """``bool(self.actions(entity))`` without pricing the emergency issue: it needs
        ``can_buy``, which alone makes the list non-empty (asked at every blocking test)."""
        if type(self).actions is not BuyTrainStep.actions:  # a variant lists its own
            return bool(self.actions(entity))
        if entity != self.current_entity() or not common.operating_company(self.state, entity):
            return False
        if self._scrappable(entity) or self._works(entity) or self.can_buy(entity):
            return True
        cash = self.state.corporations[entity].cash
        shown = works_shown(self.game, self.state, entity)
        return any(self.game.definition.private(sym).face_value <= cash for sym in shown)

    def takes(self, entity: str, kind: str) -> tuple[bool, bool]:
        """A purchase is taken when the company can buy (no need to price an emergency
        issue); a pass when :meth:`has_actions` (``pass`` is listed exactly then)."""
        if (
            type(self).actions is BuyTrainStep.actions
            and type(self).has_actions is BuyTrainStep.has_actions
            and entity == self.current_entity()
            and common.operating_company(self.state, entity)
        ):
            if kind == "buy_train" and self.can_buy(entity):
                return True, True
            if kind == "pass":
                has = self.has_actions(entity)
                return has, has
        return super().takes(entity, kind)

    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity() or not common.operating_company(self.state, entity):
            return []
        out = []
        if self.can_emergency_issue(entity):
            out.append("sell_shares")
        if self.can_buy(entity):
            out.append("buy_train")
        if self._scrappable(entity):
            out.append("scrap_train")
        if self._works(entity):
            out.append("buy_company")
        cash = self.state.corporations[entity].cash
        shown = works_shown(self.game, self.state, entity)
        if out or any(self.game.definition.private(sym).face_value <= cash for sym in shown):
            out.append("pass")
        return out

    # -- actions ----------------------------------------------------------------------------
    def process_sell_shares(self, action: Action) -> None:
        assert isinstance(action, SellShares)
        op = action.entity
        corp = self.state.corporations[op]
        if not is_bundle_of(corp, action.shares, op, emergency_bundles(self.game, self.state, op)):
            raise self.illegal(
                action, "emergency money", f"{op} may not issue {', '.join(action.shares)} now"
            )
        self.data["last_issued_price"] = issue_shares(
            self.game, self.state, op, list(action.shares)
        )

    def process_scrap_train(self, action: Action) -> None:
        assert isinstance(action, ScrapTrain)
        if action.train not in self._scrappable(action.entity):
            raise self.illegal(
                action,
                "wounded trains",
                f"{action.train} is not a wounded train of {action.entity}",
            )
        common.remove_from_play(self.state, action.train)
        self.log(f"{action.entity} discards wounded {action.train}")

    def process_buy_company(self, action: Action) -> None:
        assert isinstance(action, BuyCompany)
        op, sym = action.entity, action.company
        if sym not in works_for_sale(self.game, self.state, op):
            raise self.illegal(action, "works", f"{op} cannot buy {sym} now")
        face = self.game.definition.private(sym).face_value
        if action.price != face:
            raise self.illegal(action, "works", f"{sym} costs {face}")
        corp = self.state.corporations[op]
        if corp.cash < face:
            raise self.illegal(action, "works", f"{op} has {corp.cash}, needs {face}")
        transfer(self.state, op, BANK, face, f"{op} buys {sym}")
        self.state.privates[sym].owner = op
        corp.companies.append(sym)
        self.log(f"{op} buys {sym} for {face}")

    def process_buy_train(self, action: Action) -> None:
        assert isinstance(action, BuyTrain)
        game, state, op = self.game, self.state, action.entity
        corp = state.corporations[op]
        if action.train not in state.trains:
            raise self.illegal(action, "trains", f"no train {action.train}")
        t = state.trains[action.train]
        car = common.is_car(game, action.train)
        if car and common.cars(game, state, op):
            raise self.illegal(action, "train limit", f"{op} already has a {t.name}")
        discount = 0
        if action.exchange is not None:
            # trading a train in (1830's diesel: trains.yaml trade_in), which goes to the pool
            trade_in = common.train_type_def(game, action.train).trade_in
            old = state.trains.get(action.exchange)
            if old is None or action.exchange not in corp.trains or old.name not in trade_in:
                raise self.illegal(
                    action, "trade-in", f"{op} cannot trade {action.exchange} in for {t.name}"
                )
            discount = int(trade_in[old.name])
        elif not car and self._shut(op):
            raise self.illegal(action, "train limit", f"{op} has no room for another train")
        # of alike cards in the bank pool only the first discarded is for sale
        from_bank = action.train in depot_offer(game, state)
        seller = t.owner
        if not from_bank and action.train not in self._from_others(op):
            raise self.illegal(action, "trains", f"{action.train} is not for sale")
        face = action.variant or t.name
        if face not in common.faces_of(game, action.train):
            raise self.illegal(action, "trains", f"{action.train} has no face {face}")
        trainless = self._trainless(op)
        issued = self.data.get("last_issued_price")
        if issued is not None and trainless:
            if not from_bank:
                raise self.illegal(
                    action,
                    "emergency money",
                    "after issuing shares the train must come from the bank",
                )
            if corp.cash - int(issued) > action.price:
                raise self.illegal(
                    action, "emergency money", f"more shares issued than needed for a {face}"
                )
        price = action.price
        if from_bank:
            face_price = bank_train_prices(game, state, action.train, op)[face] - discount
            if price != face_price:
                raise self.illegal(
                    action, "face value", f"a {face} from the bank costs {op} {face_price}"
                )
            if action.exchange is not None:
                if price > corp.cash:
                    raise self.illegal(action, "trade-in", f"{op} has {corp.cash}, needs {price}")
                common.to_pool(state, action.exchange)
                self.log(f"{op} trades in {action.exchange}")
            if price > corp.cash:
                if not trainless:
                    raise self.illegal(action, "trains", f"{op} has {corp.cash}, needs {price}")
                need = price - corp.cash
                director = corp.director
                if director is None or state.cash_of(director) < need:
                    raise self.illegal(
                        action, "emergency money", f"{op}'s director cannot contribute {need}"
                    )
                transfer(state, director, op, need, f"director contributes to {op}'s {face}")
            transfer(state, op, BANK, price, f"{op} buys a {face}")
            if action.train in state.depot:
                at = state.depot.index(action.train)
                state.depot.remove(action.train)
                restock_unlimited(game, state, action.train, at)
        else:
            least = game.definition.between_companies.min_price
            if not other_company_price_ok(price, corp.cash, least):
                raise self.illegal(
                    action,
                    "trains",
                    f"{op} may pay between {least} and {corp.cash} for {action.train}",
                )
            transfer(state, op, seller, price, f"{op} buys {action.train} from {seller}")
            state.corporations[seller].trains.remove(action.train)
        t.owner = op
        t.name = face
        t.variant = face
        corp.trains.append(action.train)
        self.log(f"{op} buys a {face} train ({action.train}) for {price} from {seller}")
        game.rules.after_buy_train(game, state, op, action.train)
        phases.after_purchase(game, state, action.train, face, from_bank)
        if not self.can_buy(op) and not self._scrappable(op):
            # 18xx.games ends the step twice after such a purchase (the purchase and the step
            # each do): a company still without an engine (it bought only a car) is marked
            # down for it twice, and may not have issued shares for a train
            if self._trainless(op) and self.data.get("last_issued_price") is not None:
                if not self._closing(op):
                    raise self.illegal(
                        action, "emergency money", "after issuing shares a train must be bought"
                    )
            self._end(None)
            self._mark_down_trainless(op)

    def process_pass(self, action: Action) -> None:
        self._end(action)

    def skip(self) -> None:
        self._end(None)

    def _end(self, action: Action | None) -> None:
        op = self.current_entity()
        if op is None or not common.operating_company(self.state, op):
            self.pass_()
            return
        if self.data.get("last_issued_price") is not None and self._trainless(op):
            if action is not None and not self._closing(op):
                raise self.illegal(
                    action, "emergency money", "after issuing shares a train must be bought"
                )
        self.data["last_issued_price"] = None
        self.pass_()
        self._mark_down_trainless(op)

    def _closing(self, op: str) -> bool:
        """At the bottom of the market: emergency money has closed the company."""
        corp = self.state.corporations[op]
        return corp.market is not None and market.share_price(self.game, corp) == 0

    def _mark_down_trainless(self, op: str) -> None:
        """A company ending its train buying without a train moves its price (market.yaml
        ``movement.no_train``)."""
        movement = self.game.definition.market.movement  # None on a grid market
        if self._trainless(op) and not self._closing(op) and movement is not None:
            self.log(f"{op} does not own a train")
            corp = self.state.corporations[op]
            market.move_price(self.game, self.state, corp, movement.no_train)

    def legal_actions(self, entity: str) -> list[Action]:
        state, game = self.state, self.game
        corp = state.corporations[entity]
        kind = "corporation"
        issued = self.data.get("last_issued_price")
        trainless = self._trainless(entity)
        must_buy = issued is not None and trainless
        out: list[Action] = [] if must_buy else [Pass(entity=entity, entity_type=kind)]
        director = state.cash_of(corp.director) if corp.director else 0
        if self.can_buy(entity):
            for tid in self._offer(entity):
                for face, price in bank_train_prices(game, state, tid, entity).items():
                    affordable = price <= corp.cash or (trainless and price - corp.cash <= director)
                    if must_buy and corp.cash - int(issued or 0) > price:
                        affordable = False
                    if must_buy and common.is_car(game, tid):
                        # a car alone must leave enough to buy a train after it
                        affordable &= max(corp.cash - price, 0) >= (self._min_price(entity) or 0)
                    if affordable:
                        out.append(
                            BuyTrain(
                                entity=entity,
                                entity_type=kind,
                                train=tid,
                                price=price,
                                variant=face,
                            )
                        )
            least = game.definition.between_companies.min_price
            if not must_buy and corp.cash >= least:
                seen: set[str] = set()
                for tid in self._from_others(entity):
                    if state.trains[tid].name not in seen:
                        seen.add(state.trains[tid].name)
                        out.append(
                            BuyTrain(entity=entity, entity_type=kind, train=tid, price=least)
                        )
        if self.can_emergency_issue(entity):
            # only bundles after which some bank train can still be bought (otherwise the
            # company would be stuck: it must buy, and cannot)
            share = market.share_price(game, corp)
            faces = [
                p
                for t in depot_offer(game, state)
                for p in bank_train_prices(game, state, t, entity).values()
            ]
            for b in emergency_bundles(game, state, entity):
                after = corp.cash + len(b) * share
                if any(after - share <= p <= after + director for p in faces):
                    out.append(
                        SellShares(
                            entity=entity,
                            entity_type=kind,
                            shares=tuple(b),
                            percent=bundle_percent(corp, b),
                        )
                    )
        for tid in self._scrappable(entity):
            out.append(ScrapTrain(entity=entity, entity_type=kind, train=tid))
        if not must_buy:
            for sym in self._works(entity):
                price = int(game.definition.private(sym).face_value)
                out.append(BuyCompany(entity=entity, entity_type=kind, company=sym, price=price))
        return out
