"""The ``greedy`` bot: plays like a sensible beginner, one short-sighted choice at a time.

- Stock round: bids on privates it can use (ones that can start a company), each up to its
  own taste for it (between the minimum bid and face value, drawn once per private from the
  bot's stream: players differ, so no seat wins auctions by the order of bidding), starts
  companies with them (or, once allowed, by buying a director's certificate, at the dearest
  par at which it can float the company alone, one unfloated company at a time), buys shares
  of the companies that earn most per peseta (its own first, funding them), sells only when
  it must.  In a waterfall auction (1830's family) it buys privates up to their price.
- Operating round: lays the tile that adds most to its company's network (the track step's
  own listing of legal lays with their costs, on the few hexes that matter: its stations, its
  best run, valuable cities, hexes near cities not yet reached; cheap scores, the best few
  then checked with the exact route search), places the station that adds most to its best
  run, runs the best routes, pays out unless it must save for a train (it has none, or all
  its trains rust with the next type and the treasury cannot replace them, saving for a
  two-faced card at its dearer face), buys a train only when it adds to its run (unless it
  has none that runs: then it must), buys a train from its director's other company rather
  than have the director pay for one, never buys privates from players, and issues shares
  only to get a train.

No lookahead and no opponent model: cheap enough to play hundreds of games.  Ties are broken
by the bot's own seeded stream, so a seed gives the same game every time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ferrovia.board import hexmap
from ferrovia.errors import GameError, UnknownEntity
from ferrovia.kernel.actions import Action, Pass
from ferrovia.lib18xx import board, market
from ferrovia.lib18xx.actions import (
    Bid,
    BuyShares,
    BuyTrain,
    Choose,
    Convert,
    DiscardTrain,
    Dividend,
    LayTile,
    Par,
    PlaceToken,
    RunRoutes,
    ScrapTrain,
    SellShares,
)
from ferrovia.lib18xx.operating import common
from ferrovia.lib18xx.state import DEPOT, POOL, State18xx
from ferrovia.lib18xx.stock import shares as sh
from ferrovia.play.bots.base import Bot, Turn

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx

MAX_PRIVATES = 4  # a player bids on privates until it holds this many
TASTE_LOW = 0.3  # the least a bot likes a starting private (0: its minimum bid, 1: face value)
WANTED_TRAINS = 2  # short of this many lasting trains, a company may open a rusting type
ROUTE_CHECKED_LAYS = 4  # how many of the best-scored lays get an exact route search
CHEAP_LAY = 20  # a lay costing no more is paid even from money kept for a train
ROUTE_CHECKED_TOKENS = 3  # how many of the most valuable cities get an exact route search
LAY_HEXES = 8  # how many of the reached hexes the bot lists lays on
WATERFALL_PREMIUM = 0.25  # the most above its price a bot bids for an income private


def tile_revenue(tile: Any) -> int:
    """Best value of every city, town and off-board area on a tile."""
    total = 0
    for node in (*tile.cities, *tile.towns, *tile.offboards):
        revenue = getattr(node, "revenue", None)
        if revenue is not None:
            total += int(revenue.max)
    return total


def train_distance(game: Game18xx, face: str) -> int:
    """A rough length of a train face (hexes or cities; for sorting only)."""
    typ, variant = common.face_def(game, face)
    d = (variant or typ).distance
    if isinstance(d.hexes, int):
        return d.hexes
    return d.large_stops.visit if d.large_stops is not None else 0


class GreedyBot(Bot):
    NAME = "greedy"

    def __init__(self, seat: str, seed: int) -> None:
        super().__init__(seat, seed)
        self.tastes: dict[str, float] = {}

    def choose(self, turn: Turn) -> Action:
        name = turn.step_name
        handler = {
            "stock": self.stock_turn,
            # the usual 18xx stock round and opening auction (1830 and its family)
            "buy_sell_par_shares": self.stock_turn,
            "waterfall_auction": self.waterfall,
            "company_pending_par": self.pending_par,
            "buy_company": self.keep_privates,
            "buy_company_end": self.keep_privates,
            "home_token": self.home_token,
            "exchange_approval": self.approval,
            "track": self.track,
            "token": self.token,
            "route": self.route,
            "dividend": self.dividend,
            "discard_train": self.discard,
            "buy_train": self.buy_train,
            "issue_shares": self.issue_shares,
        }.get(name)
        if handler is None:
            return self.unknown_step(turn)
        choice = handler(turn)
        return choice if choice is not None else self.fallback(turn)

    def unknown_step(self, turn: Turn) -> Action:
        """A step this bot has no policy for (another game's): a weighted draw, as the
        random bot makes, so that play goes on."""
        from ferrovia.play.bots.random_bot import weight

        legal = turn.legal
        if not legal:
            raise GameError(f"no legal action for {turn.entity}")
        if len(legal) == 1:
            return legal[0]
        weights = [weight(a) for a in legal]
        r = self.randint(sum(weights))
        for action, w in zip(legal, weights, strict=True):
            if r < w:
                return action
            r -= w
        return legal[-1]

    # -- helpers ------------------------------------------------------------------------------
    def fallback(self, turn: Turn) -> Action:
        """A pass if it is legal, else the first legal action."""
        legal = turn.legal
        for a in legal:
            if isinstance(a, Pass):
                return a
        if not legal:
            raise GameError(f"no legal action for {turn.entity}")
        return legal[0]

    def pick(self, scored: Sequence[tuple[float, Action]]) -> Action | None:
        """The best-scored action; among equals one drawn from the bot's stream."""
        if not scored:
            return None
        top = max(s for s, _ in scored)
        best = [a for s, a in scored if s == top]
        return best[self.randint(len(best))] if len(best) > 1 else best[0]

    @staticmethod
    def depot_prices(game: Game18xx, state: State18xx) -> list[int]:
        """The price of each train on sale, a two-faced card at its dearer face: the broad
        face, which a broad network runs (saving for the cheap metre face, 1858 companies paid
        out at 200 and then could not buy the 6H they wanted for ORs on end)."""
        from ferrovia.lib18xx.operating.trains import depot_offer

        return sorted(card_price(game, state, t) for t in depot_offer(game, state))

    def lasting(self, game: Game18xx, state: State18xx, corp: str) -> list[str]:
        """A company's trains that are neither wounded nor about to rust."""
        trains = state.corporations[corp].trains
        return [t for t in trains if not self.endangered(game, state, t)]

    def train_reserve(self, game: Game18xx, state: State18xx, corp: str) -> int:
        """Cash a company keeps back for a train it needs: none while it runs two lasting
        trains; with one, the cheapest train now; with none (all are about to rust), the
        cheapest train on sale that is not about to rust itself: the one that replaces them
        (a two-faced card at its dearer face, see ``depot_prices``)."""
        from ferrovia.lib18xx.operating.trains import depot_offer

        lasting = self.lasting(game, state, corp)
        if len(lasting) >= 2:
            return 0
        prices = self.depot_prices(game, state)
        if not prices:
            return 0
        if lasting or not state.corporations[corp].trains:
            return prices[0]
        safe = [
            card_price(game, state, t)
            for t in depot_offer(game, state)
            if not self.endangered(game, state, t)
        ]
        return min(safe, default=prices[0])

    # -- stock round --------------------------------------------------------------------------
    def stock_turn(self, turn: Turn) -> Action | None:
        game, state, me = turn.game, turn.state, turn.seat
        step: Any = turn.step
        legal = turn.legal
        cash = state.player(me).cash
        if step.data.get("auctioning"):
            sym = step.data["auctioning"]
            for a in legal:
                if isinstance(a, Bid) and a.price <= self.private_worth(game, state, sym, me):
                    return a
            return None
        sells = [a for a in legal if isinstance(a, SellShares) and a.entity == me]
        if sells and step.must_sell(me):
            return self.least_loss_sale(game, state, me, sells)  # over the certificate limit
        # a private exchanged for a director's certificate starts a company (an exchange for
        # an ordinary share gives up the private's income for one share: not taken)
        starts = [
            a
            for a in legal
            if isinstance(a, BuyShares)
            and a.entity_type == "company"
            and a.entity != me
            and self.director_cert(state, a.shares[0])
        ]
        if starts:
            return min(starts, key=lambda a: (a.shares[0], a.entity))
        converts = [a for a in legal if isinstance(a, Convert)]
        for a in converts:
            c = state.corporations[a.entity]
            if not common.treasury_shares(c) and c.cash < max(
                self.depot_prices(game, state) or [0]
            ):
                return a
        scored: list[tuple[float, Action]] = []
        for a in legal:
            if isinstance(a, BuyShares) and a.entity == me:
                score = self.share_score(game, state, me, a)
                if score is not None:
                    scored.append((score, a))
            elif isinstance(a, Par):
                price = int(a.share_price.split(",")[0])
                mine = [c for c in state.corporations.values() if c.director == me and not c.closed]
                # one company at a time: a started company that has not floated gets the
                # director's money first; and a company is started only when its director
                # can pay a good part of what floats it (else it waits, trainless, for others)
                if (
                    cash >= max(3 * price, self.float_cost(game, state, a.corporation, price))
                    and len(mine) < 3
                    and all(c.floated for c in mine)
                ):
                    # the dearest par it can fund: more capital, trains sooner
                    scored.append((50.0 - len(mine) * 10 + price / 1000, a))
            elif isinstance(a, Bid):
                worth = self.private_worth(game, state, a.company, me)
                if a.price <= worth and a.price <= cash:
                    scored.append((20.0 + (worth - a.price) / 10, a))
        pick = self.pick(scored)
        if pick is not None:
            return pick
        return None

    @staticmethod
    def director_cert(state: State18xx, share_id: str) -> bool:
        try:
            return sh.find_share(state, share_id).president
        except UnknownEntity:
            return False

    @staticmethod
    def float_cost(game: Game18xx, state: State18xx, corp: str, price: int) -> int:
        """What a director pays for its company to float alone, at a share price: a
        beginner starts only a company it can float itself (others' purchases then leave it
        money for more shares), not one that waits, trainless, on other players."""
        c = state.corporations[corp]
        if not c.shares:
            return 0
        return price * max(c.float_percent, 1) // sh.share_percent(c)

    def waterfall(self, turn: Turn) -> Action | None:
        """The opening auction of privates, cheapest first: buys or bids on the private whose
        worth to this bot most exceeds its price, raises in an auction while within it, else
        passes."""
        game, state, me = turn.game, turn.state, turn.seat
        cash = state.player(me).cash
        owned = len(state.player(me).companies)
        scored: list[tuple[float, Action]] = []
        for a in turn.legal:
            if not isinstance(a, Bid) or a.price > cash:
                continue
            worth = self.private_worth(game, state, a.company, me)
            income_only = game.definition.private(a.company).can_start == "none"
            if income_only:
                worth = 0
            if income_only and owned < 2 and a.price <= cash // 2:
                # a private that only pays income is worth its price and up to a quarter more
                # by this bot's taste (a second one too, while half its money stays for
                # shares); with all worth exactly the price, each seat bought the same private
                # every game and the one with the B&O won 55 % of 1830 games
                low = game.definition.private(a.company).minimum_bid
                worth = low + 5 * round(self.taste(a.company) * low * WATERFALL_PREMIUM / 5)
            if a.price <= worth:
                scored.append((float(worth - a.price), a))
        return self.pick(scored)

    def pending_par(self, turn: Turn) -> Action | None:
        """The par price of the company whose director's certificate came with a private:
        the dearest at which the director can float it alone."""
        game, state, me = turn.game, turn.state, turn.seat
        cash = state.player(me).cash
        pars = [a for a in turn.legal if isinstance(a, Par)]
        if not pars:
            return None

        def price(a: Par) -> int:
            return int(a.share_price.split(",")[0])

        def beyond(a: Par) -> int:
            # the director's certificate is already held: only the rest is to pay
            c = state.corporations[a.corporation]
            if not c.shares:
                return 0
            pres = next((s.percent for s in c.shares if s.president), 0)
            cost = self.float_cost(game, state, a.corporation, price(a))
            return cost - price(a) * (pres // sh.share_percent(c))

        ok = [a for a in pars if beyond(a) <= cash]
        return max(ok, key=price) if ok else min(pars, key=price)

    def keep_privates(self, turn: Turn) -> Action | None:
        """A company does not buy privates from players (the price is the two directors'
        bargain; a beginner keeps the company's money for trains)."""
        for a in turn.legal:
            if isinstance(a, Pass):
                return a
        return None

    def private_worth(self, game: Game18xx, state: State18xx, sym: str, me: str) -> int:
        """The most the bot pays for a private.  One that can start a company (while some
        company is unstarted) is worth, to this bot, between its minimum bid and its face value
        plus the gap between the two: each bot has its own taste for each private (drawn once
        from its seeded stream), as players differ, so the highest taste wins an auction, not
        the seat that happens to reach a shared top bid first.  Others: the minimum bid for a
        first private, nothing after."""
        p = game.definition.private(sym)
        owned = len(state.player(me).companies)
        if owned >= MAX_PRIVATES:
            return 0
        unstarted = any(not c.ipoed and not c.closed for c in state.corporations.values())
        if p.can_start != "none" and unstarted:
            # up to face value and as far again above it: bids go in fives, and over the
            # face-value span alone (70-85 for C&M) equal valuations were common, so the seat
            # that reached the shared top first won (seat 2 held C&M in 16 of 40 games)
            spread = 2 * (p.face_value - p.minimum_bid)
            return p.minimum_bid + 5 * round(self.taste(sym) * spread / 5)
        return p.minimum_bid if owned == 0 else 0

    def taste(self, sym: str) -> float:
        """This bot's liking of a private, in [TASTE_LOW, 1], the same all game."""
        if sym not in self.tastes:
            self.tastes[sym] = TASTE_LOW + (1 - TASTE_LOW) * self.randint(1001) / 1000
        return self.tastes[sym]

    def share_score(self, game: Game18xx, state: State18xx, me: str, a: BuyShares) -> float | None:
        bundle = sh.check_bundle(state, a.shares, a.percent)
        c = state.corporations[bundle.corp]
        if c.closed or c.market is None:
            return None
        price = sh.bundle_price(game, state, bundle)
        if price > state.player(me).cash:
            return None
        working = [t for t in c.trains if not state.trains[t].obsolete]
        # a company that runs trains and whose price has risen is earning
        score = 10.0 + 6 * min(len(working), 3) + market.share_price(game, c) / 25
        if c.director == me:
            score += 15  # funds my own company (a treasury share pays its treasury)
            if bundle.owner == c.sym:
                score += 5
        elif c.director is not None:
            mine = sh.percent_of(c, me)
            theirs = sh.percent_of(c, c.director)
            if mine + bundle.percent > theirs:
                score += 8  # takes the directorship
        if not c.trains and c.operated:
            score -= 15  # a trainless company loses value
        return score

    def least_loss_sale(
        self, game: Game18xx, state: State18xx, me: str, sells: list[SellShares]
    ) -> Action:
        def key(a: SellShares) -> tuple[int, int, str]:
            corp = state.corporations[a.shares[0].rsplit("_", 1)[0]]
            mine = 1 if corp.director == me else 0
            return (mine, a.percent, a.shares[0])

        return min(sells, key=key)

    def home_token(self, turn: Turn) -> Action | None:
        places = [a for a in turn.legal if isinstance(a, PlaceToken)]
        if not places:
            return None
        return max(places, key=lambda a: (self.home_value(turn, a), a.city))

    def home_value(self, turn: Turn, place: PlaceToken) -> float:
        """Worth of a home city: its value, the track already there and around it; a hex
        reserved for another owner's private railway is one the company cannot build on."""
        game, state, op = turn.game, turn.state, turn.entity
        coord, _ = board.city_from_id(game, state, place.city)
        here = board.placed(game, state, coord)
        score = tile_revenue(here.tile) + 10.0 * len(_exits(here.tile, here.rotation))
        if self.blocked(game, state, op, coord):
            score -= 200
        layout = str(game.definition.layout)
        for edge in range(6):
            other = hexmap.neighbour(coord, edge, layout)
            if other in state.hexes:
                score += tile_revenue(board.placed(game, state, other).tile) / 4
        return score - (place.cost or 0) / 10

    @staticmethod
    def blocked(game: Game18xx, state: State18xx, op: str, coord: str) -> bool:
        """Whether an open private railway not owned by ``op`` keeps tiles off ``coord``."""
        if board.placed(game, state, coord).color != "white":
            return False
        for p in game.definition.privates:
            ps = state.privates.get(p.symbol)
            if coord in p.blocks_hexes and ps is not None and not ps.closed and ps.owner != op:
                return True
        return False

    def city_value(self, turn: Turn, city_ref: str) -> int:
        coord, _ = board.city_from_id(turn.game, turn.state, city_ref)
        return tile_revenue(board.placed(turn.game, turn.state, coord).tile)

    def approval(self, turn: Turn) -> Action | None:
        for a in turn.legal:
            if isinstance(a, Choose) and a.choice == "approve":
                return a
        return None

    # -- operating round ----------------------------------------------------------------------
    def track(self, turn: Turn) -> Action | None:
        game, state, op = turn.game, turn.state, turn.entity
        if op in state.corporations:
            cash = state.corporations[op].cash
            # money kept for a train goes on costly terrain only; a cheap lay is always paid
            budget = max(min(cash, CHEAP_LAY), cash - self.train_reserve(game, state, op))
        else:  # a private railway: its owner pays, and keeps money for shares
            owner = common.director_of(state, op)
            budget = (state.player(owner).cash // 4) if owner else 0
        reached = self.reached(game, state, op)
        targets = self.targets(game, state, reached)
        trains = self.running_trains(state, op)
        run = self.best_run(game, state, op, trains)
        scored: list[tuple[float, LayTile]] = []
        for lay, cost in self.lay_options(turn, self.lay_hexes(turn, reached, targets, run)):
            if cost > budget:
                continue
            score = self.lay_score(game, state, op, lay, reached, targets) - cost / 20
            if score > 0:
                scored.append((score, lay))
        if not scored:
            return Pass(entity=op, entity_type=common.entity_type(state, op))
        scored.sort(key=lambda s: -s[0])
        if trains:
            before = sum(r.revenue for r in run)
            checked = [
                (self.route_gain(turn, lay, trains, before) * 2 + s, lay)
                for s, lay in scored[:ROUTE_CHECKED_LAYS]
            ]
            return self.pick(checked)
        return self.pick([x for x in scored if x[0] == scored[0][0]])

    def lay_hexes(
        self, turn: Turn, reached: set[str], targets: list[tuple[str, int]], run: list[Any]
    ) -> list[str]:
        """The few reached hexes worth a lay, best first: ones a tile of the next colour can
        go on now, ranked by the company's stations there, being on its best run, their
        value and how near they are to cities the network does not reach yet."""
        game, state, op = turn.game, turn.state, turn.entity
        step: Any = turn.step
        colors = ["white", *game.definition.upgrade_rules.colors]
        phase_tiles = set(common.current_phase(game, state).tiles)
        free = {
            str(td.color) for name, td in game.definition.tiles.items() if state.tiles.get(name)
        }
        laid = set(step.rdata.get("laid_hexes") or ()) if hasattr(step, "rdata") else set()
        on_run = {h for r in run for h in r.hexes}
        for r in run:
            for conn in r.connections:
                on_run.update(h for h in conn if isinstance(h, str))

        def upgradable(coord: str) -> bool:
            old = board.placed(game, state, coord).color
            if old not in colors[:-1]:
                return False
            nxt = colors[colors.index(old) + 1]
            return nxt in phase_tiles and nxt in free

        def rank(coord: str) -> tuple[float, str]:
            station = any(op in slots for slots in state.hexes[coord].tokens)
            value = tile_revenue(board.placed(game, state, coord).tile)
            near = min((hex_distance(coord, c) for c, _ in targets), default=9)
            return (-(30 * station + 15 * (coord in on_run) + value / 5 - 3 * near), coord)

        hexes = [c for c in reached if c in state.hexes and c not in laid and upgradable(c)]
        return sorted(hexes, key=rank)[:LAY_HEXES]

    @staticmethod
    def lay_options(turn: Turn, hexes: list[str]) -> list[tuple[LayTile, int]]:
        """The legal lays on ``hexes`` with their costs: the track step's own listing (the
        turn's ``legal`` holds only the first few lays, enough for random play)."""
        listing = getattr(turn.step, "lay_options", None)
        if listing is not None:
            return list(listing(turn.entity, hexes))
        step: Any = turn.step
        out = []
        for a in turn.legal:
            if isinstance(a, LayTile) and a.hex in hexes:
                out.append((a, int(step.check_lay(a)[0])))
        return out

    @staticmethod
    def running_trains(state: State18xx, op: str) -> list[str]:
        if op not in state.corporations:
            return []
        return [t for t in common.trains_of(state, op) if not state.trains[t].rusted]

    @staticmethod
    def best_run(game: Game18xx, state: State18xx, op: str, trains: list[str]) -> list[Any]:
        from ferrovia.lib18xx.operating import routing

        if not trains:
            return []
        try:
            return routing.best_run(game, state, op, trains)
        except GameError:
            return []

    @staticmethod
    def reached(game: Game18xx, state: State18xx, op: str) -> set[str]:
        from ferrovia.lib18xx.operating import routing

        return routing.reached_hexes(game, state, op)

    def lay_score(
        self,
        game: Game18xx,
        state: State18xx,
        op: str,
        lay: LayTile,
        reached: set[str],
        targets: list[tuple[str, int]],
    ) -> float:
        """Cheap worth of a lay: the city value it adds on the network, and how much closer
        its new exits bring the network to valuable cities it does not reach yet."""
        old = board.placed(game, state, lay.hex)
        new_tile, _ = board.tile_def(game, lay.tile)
        gain = tile_revenue(new_tile) - tile_revenue(old.tile)
        score = 2.0 * max(0, gain) + (5 if tile_revenue(new_tile) and lay.hex not in reached else 0)
        if any(op in slots for slots in state.hexes[lay.hex].tokens):
            score += 10 + max(0, gain)
        old_exits = set(_exits(old.tile, old.rotation))
        layout = str(game.definition.layout)
        for edge in _exits(new_tile, lay.rotation):
            if edge in old_exits:
                continue
            other = hexmap.neighbour(lay.hex, edge, layout)
            if other is None or other not in state.hexes:
                continue
            score += 1 if other not in reached else 0.2
            pull = max(
                (value / (1 + hex_distance(other, coord)) for coord, value in targets),
                default=0.0,
            )
            score += pull / 2
        return score

    def targets(self, game: Game18xx, state: State18xx, reached: set[str]) -> list[tuple[str, int]]:
        """Cities, towns and off-board areas the network does not reach, with their value."""
        out = []
        for coord in sorted(state.hexes):
            if coord in reached:
                continue
            value = tile_revenue(board.placed(game, state, coord).tile)
            if value:
                out.append((coord, value))
        return out

    def route_gain(
        self, turn: Turn, lay: LayTile | PlaceToken, trains: list[str], before: int
    ) -> int:
        """How much the company's best run gains from the lay or station (exact search, on a
        trial copy of the state that is then put back)."""
        game, state, op = turn.game, turn.state, turn.entity
        snap = state.snapshot()
        try:
            game.apply(state, lay)
            after = sum(r.revenue for r in self.best_run(game, state, op, trains))
        except GameError:
            after = before
        finally:
            state.restore(snap)
        return after - before

    def token(self, turn: Turn) -> Action | None:
        """The station that adds most to the company's best run (exact search on the few
        most valuable cities it can pay for); the city's value breaks ties."""
        game, state, op = turn.game, turn.state, turn.entity
        places = [a for a in turn.legal if isinstance(a, PlaceToken)]
        if not places:
            return None
        cash = state.corporations[op].cash - self.train_reserve(game, state, op)
        ok = [a for a in places if (a.cost or 0) <= cash]
        if not ok:
            return None
        ok.sort(key=lambda a: (-self.city_value(turn, a.city), a.cost or 0, a.city))
        trains = self.running_trains(state, op)
        if not trains:
            return ok[0]
        before = sum(r.revenue for r in self.best_run(game, state, op, trains))
        scored = [
            (self.route_gain(turn, a, trains, before) + self.city_value(turn, a.city) / 10, a)
            for a in ok[:ROUTE_CHECKED_TOKENS]
        ]
        return self.pick(scored)

    def route(self, turn: Turn) -> Action | None:
        runs = [a for a in turn.legal if isinstance(a, RunRoutes)]
        return max(runs, key=lambda a: sum(r.revenue for r in a.routes), default=None)

    def dividend(self, turn: Turn) -> Action | None:
        """Pays out, unless the company must save for a train: it has none that runs, or all
        its trains go with the next train type and its treasury cannot replace them (then
        half, where the game has it, else it withholds)."""
        game, state, op = turn.game, turn.state, turn.entity
        kinds = {a.kind_: a for a in turn.legal if isinstance(a, Dividend)}
        c = state.corporations[op]
        working = [t for t in c.trains if not state.trains[t].obsolete]
        need = self.train_reserve(game, state, op)
        if c.cash < need and (not working or not self.lasting(game, state, op)):
            save = kinds.get("withhold") if not working else None
            save = save or kinds.get("half") or kinds.get("withhold")
            if save is not None:
                return save
        return kinds.get("payout") or kinds.get("half") or next(iter(kinds.values()), None)

    @staticmethod
    def endangered(game: Game18xx, state: State18xx, tid: str, horizon: int = 2) -> bool:
        """Whether a train is wounded, or rusts or is wounded when one of the next
        ``horizon`` train types in the depot is bought."""
        if state.trains[tid].obsolete:
            return True
        soon: list[str] = []
        for t in state.depot:
            kind = common.train_type(t)
            if kind not in soon:
                soon.append(kind)
            if len(soon) == horizon:
                break
        return not threats(game, tid).isdisjoint(soon)

    def discard(self, turn: Turn) -> Action | None:
        game, state = turn.game, turn.state
        drops = [a for a in turn.legal if isinstance(a, DiscardTrain)]

        def key(a: DiscardTrain) -> tuple[int, int, str]:
            t = state.trains[a.train]
            return (0 if t.obsolete else 1, train_distance(game, t.name), a.train)

        return min(drops, key=key, default=None)

    def buy_train(self, turn: Turn) -> Action | None:
        game, state, op = turn.game, turn.state, turn.entity
        c = state.corporations[op]
        from ferrovia.lib18xx.operating.trains import limit_of

        working = [t for t in c.trains if not state.trains[t].obsolete]
        wounded = [t for t in c.trains if state.trains[t].obsolete]
        room = limit_of(game, state, op) - len(c.trains)
        prices = self.depot_prices(game, state)
        if room <= 0 and wounded and prices and c.cash >= prices[0]:
            # make room for a better train: scrap the weakest wounded one
            scraps = [a for a in turn.legal if isinstance(a, ScrapTrain)]
            if scraps:
                return min(
                    scraps,
                    key=lambda a: (train_distance(game, state.trains[a.train].name), a.train),
                )
        bank = [
            a
            for a in turn.legal
            if isinstance(a, BuyTrain) and state.trains[a.train].owner in (DEPOT, POOL)
        ]
        if not working and c.cash < min((a.price for a in bank), default=c.cash + 1):
            # rather than its director paying (or going bankrupt), a train from another
            # company of the same director that has one to spare
            sibling = self.sibling_trains(turn)
            if sibling:
                return self.best_train(turn, sibling, forced=True)
        if not bank:
            issues = [a for a in turn.legal if isinstance(a, SellShares)]
            return min(issues, key=lambda a: len(a.shares), default=None)
        if working and room <= 0:
            return None
        if not working:
            # it must have a train: the one that earns most, its director helping to pay
            return self.best_train(turn, bank, forced=True)
        own = [a for a in bank if a.price <= c.cash]
        if not own:
            return None
        # trains lasting past the next type bought (not the two ahead that saving looks at:
        # with the 5s next, every company counted its 4s as gone, bought at once, and the 5s,
        # 6s and a diesel all went in one or two ORs)
        lasting = [t for t in working if not self.endangered(game, state, t, horizon=1)]
        if len(lasting) >= WANTED_TRAINS:
            # a train it does not need is not the one that opens a type rusting others'
            # trains: a late company with a full treasury buying through the types rusted
            # early companies that had paid out, and they went bankrupt on the replacement
            own = [a for a in own if not self.rusts_trains(game, state, a.train)]
            if not own:
                return None
        # short of two lasting trains a company buys one that runs on its network, even if it
        # adds nothing today; never one that cannot run: buying the metre face it could afford
        # when the broad one was out of reach, 1858's W ran nothing on its 4M and then its 6M
        # for 12 ORs (seed 1), where a 7E one OR later would have earned 370
        return self.best_train(turn, own, forced=False, wanted=len(lasting) < WANTED_TRAINS)

    @staticmethod
    def rusts_trains(game: Game18xx, state: State18xx, tid: str) -> bool:
        """Whether buying this train, the first of its type, rusts or wounds trains that
        companies run."""
        kind = common.train_type(tid)
        if any(common.train_type(t) == kind for t, ts in state.trains.items() if ts.owner != DEPOT):
            return False
        for t, ts in state.trains.items():
            if ts.owner == DEPOT or ts.owner not in state.corporations or ts.rusted:
                continue
            if kind in threats(game, t):
                return True
        return False

    def sibling_trains(self, turn: Turn) -> list[BuyTrain]:
        """Trains the acting company may buy from the director's other companies, each of
        which keeps a running train, at their face price or all the buyer has (never from
        another director's company: that price would be a bargain between two players)."""
        from ferrovia.lib18xx.operating.trains import other_companies_trains

        game, state, op = turn.game, turn.state, turn.entity
        c = state.corporations[op]
        least = game.definition.between_companies.min_price
        if c.cash < least or not any(
            isinstance(a, BuyTrain) and state.trains[a.train].owner not in (DEPOT, POOL)
            for a in turn.legal
        ):
            return []  # the phase or the step allows no purchase from other companies now
        out: list[BuyTrain] = []
        for tid in other_companies_trains(game, state, op):
            seller = state.corporations.get(state.trains[tid].owner)
            if seller is None or seller.director != c.director or seller.director is None:
                continue
            running = [t for t in seller.trains if not state.trains[t].obsolete]
            if len(running) < 2 or state.trains[tid].obsolete:
                continue
            face = state.trains[tid].name
            price = min(c.cash, common.face_price(game, face))
            out.append(
                BuyTrain(entity=op, entity_type="corporation", train=tid, price=price, variant=face)
            )
        return out

    def best_train(
        self, turn: Turn, offers: list[BuyTrain], *, forced: bool, wanted: bool = False
    ) -> BuyTrain | None:
        """Of the trains on offer, the one that adds most to the company's best run (budgeted
        search with the train added; the longer and dearer face breaks ties); None when none
        adds anything, unless the company must have a train (``forced``) or wants one
        (``wanted``: then one that would run on the network by itself, though it adds
        nothing to today's run)."""
        from ferrovia.lib18xx.operating import routing

        game, state, op = turn.game, turn.state, turn.entity
        have = [(t, routing.train_spec(game, state, t)) for t in common.trains_of(state, op)]

        def revenue(trains: list[Any]) -> int:
            if not trains:
                return 0
            try:
                # the search legal_actions offers its run from (rules, budget and all)
                run = routing.play_search(game, state, op, trains)
            except GameError:
                return 0
            return sum(r.revenue for r in run.routes)

        now = revenue(have)
        scored: list[tuple[tuple[int, int, int, str], BuyTrain]] = []
        # the offers of a card's other face (1858's metre faces), by id(): their trains
        other_face: dict[int, Any] = {}
        for a in offers:
            face = a.variant or state.trains[a.train].name
            spec = routing.face_spec(game, face)
            gain = revenue([*have, ("new", spec)]) - now
            if face != common.train_type(a.train):
                other_face[id(a)] = spec
            scored.append(((gain, train_distance(game, face), a.price, a.train), a))
        if wanted and not forced:
            if max(s[0][0] for s in scored) <= 0:
                # a second train that adds nothing to today's run (1830: one route, run by
                # the 2) is still bought, but a card's other face only if it runs on the
                # network at all: the metre face of a card, all a company could afford, ran
                # nothing on 1858's broad networks.  (Asked of every offer, the test also
                # refused 1830 trains a company needed, and its games ran an OR longer.)
                scored = [
                    s
                    for s in scored
                    if id(s[1]) not in other_face or revenue([("new", other_face[id(s[1])])]) > 0
                ]
                if not scored:
                    return None
            forced = True  # then chosen as a train it must have
        if forced:
            # a train it must have: the one that earns most; with nothing to earn yet, a
            # broad one (metre track is rarer), the cheaper the better
            def must(s: tuple[tuple[int, int, int, str], BuyTrain]) -> tuple[int, int, int]:
                a = s[1]
                return (s[0][0], int(id(a) not in other_face), -a.price)

            return max(scored, key=must)[1]
        best = max(scored, key=lambda s: s[0])
        return best[1] if best[0][0] > 0 else None

    def issue_shares(self, turn: Turn) -> Action | None:
        game, state, op = turn.game, turn.state, turn.entity
        c = state.corporations[op]
        prices = self.depot_prices(game, state)
        if c.trains or not prices or c.cash >= prices[0]:
            return None
        issues = [a for a in turn.legal if isinstance(a, SellShares)]
        return min(issues, key=lambda a: len(a.shares), default=None)


def card_price(game: Game18xx, state: State18xx, tid: str) -> int:
    """A bank train's price at its dearer face (one face: its price)."""
    from ferrovia.lib18xx.operating.trains import bank_train_prices

    return max(bank_train_prices(game, state, tid).values())


def threats(game: Game18xx, tid: str) -> set[str]:
    """The train names (types and faces) whose purchase rusts or wounds this card, as its
    ``rusts_on`` and ``obsolete_on`` name them (one name, or the faces a count is of)."""
    typ = common.train_type_def(game, tid)
    out: set[str] = set()
    for trigger in (typ.rusts_on, typ.obsolete_on):
        names = [trigger] if isinstance(trigger, str) else list(getattr(trigger, "of", ()))
        for n in names:
            out.update((n, common.train_type(n)))
    return out


def hex_distance(a: str, b: str) -> int:
    """Steps between two hexes of a flat map (doubled coordinates).

    >>> hex_distance("G18", "G20"), hex_distance("G18", "H17"), hex_distance("A1", "C5")
    (1, 1, 3)
    """
    ax, ay = hexmap.xy(a)
    bx, by = hexmap.xy(b)
    dx, dy = abs(ax - bx), abs(ay - by)
    return dx + max(0, (dy - dx) // 2)


def _exits(tile: Any, rotation: int) -> list[int]:
    from ferrovia.board import tiles

    return list(tiles.exits(tile, rotation))
