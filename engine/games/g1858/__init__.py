"""1858: The Railways of Iberia — the rules its data cannot say, as named hooks.

Rulebook sections are cited as [§n].  Facts (numbers, order of application) agree with
18xx.games so recorded games replay exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ferrovia.games.g1858.stations import start_cities
from ferrovia.kernel.rounds import Round
from ferrovia.lib18xx.rounds import OperatingRound, StockRound
from ferrovia.lib18xx.rules import Rules18xx
from ferrovia.lib18xx.state import BANK, State18xx

if TYPE_CHECKING:
    from ferrovia.kernel.step import Step
    from ferrovia.lib18xx.game import Game18xx


class PrivateClosureRound(OperatingRound):
    """[§9.9] When phase 7 begins, after the OR: each open private railway, in number order,
    is exchanged for a share or sold to the bank at face value."""

    KIND = "closure"
    NAME = "Private Closure Round"

    def select_entities(self) -> list[str]:
        g1858 = self.game.rules
        assert isinstance(g1858, Rules1858)
        closing = set(g1858.privates_closing(self.game, self.state))
        return [
            m.sym
            for m in self.state.privates.values()
            if m.sym in closing and not m.closed and m.data.get("minor")
        ]

    def setup(self) -> None:
        self.state.data["private_closure_round"] = "in_progress"
        g1858 = self.game.rules
        assert isinstance(g1858, Rules1858)
        closing = set(g1858.privates_closing(self.game, self.state))
        for m in list(self.state.privates.values()):
            if m.closed or m.sym not in closing:
                continue
            if not m.data.get("minor") or m.owner == BANK:
                g1858.close_private(self.game, self.state, m.sym)
        super().setup()

    def pending_tokens(self) -> bool:
        return bool(self.rs.data.get("pending_tokens"))

    def next_entity(self) -> None:
        if self.pending_tokens():
            return
        super().next_entity()

    def any_to_act(self) -> bool:
        return super().any_to_act() or self.pending_tokens()


class Rules1858(Rules18xx):
    NAME = "1858"
    ROUND_STEPS: ClassVar[dict[str, tuple[str, ...]]] = {
        "stock": ("exchange", "exchange_approval", "home_token", "stock"),
        "operating": (
            "track",
            "token",
            "route",
            "dividend",
            "discard_train",
            "buy_train",
            "issue_shares",
        ),
        "closure": ("exchange_approval", "home_token", "private_closure"),
    }
    ROUNDS: ClassVar[tuple[type[Round], ...]] = (*Rules18xx.ROUNDS, PrivateClosureRound)
    CROWDED_IN_OPERATING_ORDER = True  # companies over their limit discard in operating order

    def steps(self) -> tuple[type[Step], ...]:
        from ferrovia.games.g1858.closure import PrivateClosureStep
        from ferrovia.games.g1858.stock_round import Exchange, ExchangeApproval, StockTurn
        from ferrovia.lib18xx.operating.dividend import DividendStep
        from ferrovia.lib18xx.operating.issue import IssueSharesStep
        from ferrovia.lib18xx.operating.route_step import RouteStep
        from ferrovia.lib18xx.operating.token import TokenStep
        from ferrovia.lib18xx.operating.track import TrackStep
        from ferrovia.lib18xx.operating.trains import BuyTrainStep, DiscardTrainStep
        from ferrovia.lib18xx.stock.home_token import HomeToken

        return (
            Exchange,
            ExchangeApproval,
            HomeToken,
            StockTurn,
            TrackStep,
            TokenStep,
            RouteStep,
            DividendStep,
            DiscardTrainStep,
            BuyTrainStep,
            IssueSharesStep,
            PrivateClosureStep,
        )

    # -- round sequence [§7] ---------------------------------------------------------------
    def init_round(self, game: Game18xx, state: State18xx) -> Round:
        """Without a quick start the game begins with a stock round in which privates can only
        be auctioned; with one, privates are dealt in packets and an OR comes first."""
        from ferrovia.games.g1858.quick_start import deal_quick_start, quick_start_option

        option = quick_start_option(game)
        if option is not None:
            deal_quick_start(game, state, option)
            return OperatingRound.create(game, state, 1)
        return StockRound.create(game, state)

    def next_round(self, game: Game18xx, state: State18xx) -> Round:
        if state.data.get("private_closure_round") == "in_progress":
            state.data["private_closure_round"] = "done"
        if state.data.get("private_closure_round") == "next":
            state.log.append("-- Private Closure Round --")
            return PrivateClosureRound.create(game, state, state.round.num)
        if state.round.kind == "closure":
            from ferrovia.lib18xx.rounds import StockRound

            if state.round.num < state.operating_rounds:
                return OperatingRound.create(game, state, state.round.num + 1)
            state.turn += 1
            return StockRound.create(game, state)
        return super().next_round(game, state)

    def setup_state(self, game: Game18xx, state: State18xx) -> None:
        """2 players: some privates are drawn (the game's seeded RNG, batch 1 then batch 2,
        each in P-number order shuffled as 18xx.games' ``sort_by { rand }``) to be unbuyable."""
        from ferrovia.kernel import rng

        draw = game.definition.two_player_unavailable
        if game.num_players != 2 or draw is None:
            return
        minors = [p for p in game.privates if p.minor]
        picked: list[str] = []
        for batch, n in ((1, draw.batch_1), (2, draw.batch_2)):
            pool = [p.symbol for p in minors if p.batch == batch]
            state.rng, order = rng.shuffled(state.rng, pool)
            picked.extend(order[:n])
        state.data["unbuyable_privates"] = picked
        state.log.append(f"These privates cannot be bought in this game: {', '.join(picked)}")

    # -- stock round [§8] ---------------------------------------------------------------------
    def buyable_privates(self, game: Game18xx, state: State18xx) -> list[str]:
        """[§8.1] Bank-owned privates of the batches the phase auctions (phases.yaml
        ``private_batches``), except those drawn as unbuyable in a 2-player game."""
        batches = set(game.definition.phase(state.phase).private_batches)
        unbuyable = set(state.data.get("unbuyable_privates", []))
        return [
            p.symbol
            for p in game.privates
            if p.batch in batches
            and p.symbol not in unbuyable
            and not state.privates[p.symbol].closed
            and state.privates[p.symbol].owner == BANK
        ]

    def can_par_directly(self, game: Game18xx, state: State18xx) -> bool:
        """[§8.3] From phase 5 a company may be started by buying its director's certificate."""
        return "public_companies" in game.definition.phase(state.phase).status

    def can_start_with_private(self, game: Game18xx, state: State18xx, sym: str) -> bool:
        """[§8.3] Not in the first stock round; the private must have a home city with a
        reserved space still free."""
        if state.turn == 1 or state.privates[sym].closed:
            return False
        if game.definition.private(sym).can_start == "none":
            return False
        return self.reservation_available(game, state, sym)

    def reservation_available(self, game: Game18xx, state: State18xx, sym: str) -> bool:
        from ferrovia.lib18xx import board

        starts = start_cities(game, sym)
        for h in state.hexes.values():
            for i, res in enumerate(h.reservations):
                if (
                    sym in res
                    and h.coord in starts
                    and board.city_has_room(game, state, h.coord, i)
                ):
                    return True
        return False

    def private_connected(self, game: Game18xx, state: State18xx, corp: str, sym: str) -> bool:
        """[§8.5] A company can take a private for a share if it reaches one of its home hexes
        (or has a station there)."""
        c = state.corporations[corp]
        if c.closed or not c.floated:
            return False
        homes = set(game.definition.private(sym).home_hexes)
        if any(t.hex in homes for t in c.tokens):
            return True
        from ferrovia.lib18xx.operating.routing import reaches_any_hex

        return reaches_any_hex(game, state, corp, homes)

    def can_convert(self, game: Game18xx, state: State18xx, corp: str) -> bool:
        """[§8.6] A director may convert a started 5-share company into a 10-share one."""
        c, conv = state.corporations[corp], game.definition.companies.conversion
        return conv is not None and c.kind == conv.from_structure and c.floated and not c.closed

    def home_token_hexes(self, game: Game18xx, state: State18xx, corp: str) -> list[str]:
        """A company started from a private puts its home in that private's reserved city; one
        started by buying its director's certificate in any free city space."""
        c = state.corporations[corp]
        from ferrovia.lib18xx import board

        if not c.companies:
            return sorted(
                h.coord
                for h in state.hexes.values()
                if any(board.tokenable(state, h.coord, i, corp) for i in range(len(h.tokens)))
            )
        sym = c.companies[0]
        starts = start_cities(game, sym)
        return sorted(
            {
                h.coord
                for h in state.hexes.values()
                for i, res in enumerate(h.reservations)
                if sym in res and h.coord in starts and board.tokenable(state, h.coord, i, corp)
            }
        )

    def home_token_cost(
        self, game: Game18xx, state: State18xx, corp: str, coord: str, city: int
    ) -> int:
        """[§8.3] A company started by buying its director's certificate pays market.yaml
        ``stations.home_revenue_times`` (1858: twice) the city's revenue for its home station;
        one started from a private pays nothing."""
        c = state.corporations[corp]
        if c.companies or any(t.hex for t in c.tokens):
            return 0
        from ferrovia.lib18xx import board

        tile = board.tile_of(game, state.hexes[coord].tile, coord)
        color = board.tile_color(game, state.hexes[coord].tile)
        if color == "white":
            return 0
        rev = tile.cities[city].revenue
        stations = game.definition.market.stations
        times = stations.home_revenue_times if stations is not None else 0
        return times * int(rev.for_phase([color]) if rev.flat is None else rev.flat)

    def after_home_token(
        self, game: Game18xx, state: State18xx, corp: str, coord: str, city: int
    ) -> None:
        """The private's reservation for the space just taken goes (else an upgrade could make
        room for both)."""
        c = state.corporations[corp]
        if state.data.get("private_closure_round") == "in_progress":
            return
        res = state.hexes[coord].reservations[city]
        for sym in c.companies:
            if sym in res:
                res[res.index(sym)] = None

    DIVIDEND_KINDS: ClassVar[tuple[str, ...]] = ("payout", "half", "withhold")
    DIRECTOR_COVERS_TRACK_COSTS: ClassVar[bool] = True  # the director helps pay for a lay

    EMERGENCY_ISSUE: ClassVar[bool] = True  # [§9.8] a company issues shares for a train
    TOKEN_PASS_WITHOUT_ROOM: ClassVar[bool] = True

    def station_cost(self, game: Game18xx, state: State18xx, corp: str, coord: str) -> int:
        """[§9.4] By the provinces between the new station and the company's nearest one."""
        from ferrovia.games.g1858.stations import province_station_cost

        cost = province_station_cost(game, state, corp, coord)
        return super().station_cost(game, state, corp, coord) if cost is None else cost

    def route_available(self, game: Game18xx, state: State18xx, corp: str) -> bool:
        """A company with a train always takes its run step (an empty run if nothing can be
        reached), as the 1858 exports record."""
        return True

    # -- privates ---------------------------------------------------------------------------
    def company_private_revenue(self, game: Game18xx, state: State18xx, corp: str) -> int:
        """[4.1] The income of the private railways a company owns is part of its earnings (a
        works pays its owner at the start of the operating round instead)."""

        return sum(
            game.definition.private_income(sym, state.phase)
            for sym in state.corporations[corp].companies
            if not state.privates[sym].closed and game.definition.private(sym).kind == "railway"
        )

    def after_dividend(self, game: Game18xx, state: State18xx, corp: str) -> None:
        """[9.7] The company's privates close once it has run (it gets their face value, and
        their reserved city spaces are freed)."""
        for sym in list(state.corporations[corp].companies):
            if not state.privates[sym].closed:
                self.close_private(game, state, sym)

    def payout_companies(self, game: Game18xx, state: State18xx) -> None:
        """[§9.1] Player-owned privates pay their income at the start of each operating round
        (none in the private closure round; a company's add to its earnings), then each works
        a company owns pays it."""
        from ferrovia.kernel.ledger import transfer

        if state.data.get("private_closure_round") == "in_progress":
            return
        order = {p.id: i for i, p in enumerate(state.players)}
        open_ = [p for p in state.privates.values() if not p.closed]
        owned = sorted((order[p.owner], p.sym) for p in open_ if p.owner in order)
        works = [
            p.sym
            for p in open_
            if p.owner in state.corporations and game.definition.private(p.sym).kind == "works"
        ]
        for sym in [sym for _, sym in owned] + works:
            income = game.definition.private_income(sym, state.phase)
            if income > 0:
                owner = state.privates[sym].owner
                transfer(state, BANK, owner, income, f"{sym} income")
                state.log.append(f"{owner} collects {income} from {sym}")

    def train_event(self, game: Game18xx, state: State18xx, event: str) -> None:
        """``privates_close`` (the first 5E/4M): a private closure round follows this
        operating round [§10]."""
        if event == "privates_close":
            state.data["private_closure_round"] = "next"
        else:
            super().train_event(game, state, event)

    def changes_nothing_after(self, game: Game18xx, state: State18xx, action: Any) -> bool:
        """:meth:`action_processed` changes nothing while no company is on the closing space
        (it returns at once then); the end check is the generic one."""
        from ferrovia.games.g1858.closure import companies_to_close

        return type(self).game_end_check is Rules18xx.game_end_check and not companies_to_close(
            game, state
        )

    def action_processed(self, game: Game18xx, state: State18xx, action: Any) -> None:
        """A company whose price reaches the closing space closes at once; if that leaves the
        acting entity with nothing to do, play moves on (18xx.games ``action_processed``)."""
        from ferrovia.games.g1858.closure import (
            close_companies_in_close_cell,
            companies_to_close,
        )

        if not companies_to_close(game, state):
            return
        # 18xx.games asks the step that was active before the closure (its cached
        # active_step) whether its entity can still act, unless the closure itself moved play
        # on to the next operator (which clears that cache)
        rnd = game.round(state)
        step = rnd.active_step()
        where = (state.round, state.round.entity_index)
        if not close_companies_in_close_cell(game, state):
            return
        rnd = game.round(state)
        if (state.round, state.round.entity_index) != where:
            step = rnd.active_step()
        ent = step.current_entity() if step is not None else None
        if step is not None and ent is not None and not step.actions(ent):
            rnd.skip_steps()
            if isinstance(rnd, StockRound) and not rnd.finished():
                # Here 18xx.games moves on by one player only: its cached active step stops
                # the usual passing on, so that player has a turn (passing at once if it has
                # nothing to do).  If everyone has passed by then, the round ends where it
                # stands: the priority deal goes to that player and the end-of-round price
                # moves are not made.
                rnd.next_entity_index()
                rnd.start_entity(chain=False)
                if not rnd.finished() and rnd.active_step() is None:
                    # 18xx.games would be stuck waiting for a player with nothing to do;
                    # play on as after any other turn
                    rnd.next_entity()
            else:
                rnd.next_entity()

    def privates_closing(self, game: Game18xx, state: State18xx) -> list[str]:
        """The privates this private closure round deals with: every open one but those of a
        batch the phase still auctions (phases.yaml ``private_batches``)."""
        spared = set(game.definition.phase(state.phase).private_batches)
        return [
            m.sym
            for m in state.privates.values()
            if not m.closed and game.definition.private(m.sym).batch not in spared
        ]

    def close_private(self, game: Game18xx, state: State18xx, sym: str) -> None:
        """[§4.1] A closing private pays its owner its face value."""
        from ferrovia.lib18xx import stock

        stock.close_private(game, state, sym, pay=True)

    def private_closed(self, game: Game18xx, state: State18xx, sym: str) -> None:
        """A one-slot city two privates shared (Zaragoza, Sevilla, Córdoba) that still lists
        a hold for each keeps only the real ones once either private closes, so the other
        private's hold moves onto the slot, even when the closing private's own hold had
        already gone with its company's home station (18xx.games tidies every city of the
        closing private's home hexes this way)."""
        for coord in game.definition.private(sym).home_hexes:
            h = state.hexes.get(coord)
            if h is None:
                continue
            for city, res in enumerate(h.reservations):
                slots = len(h.tokens[city]) if city < len(h.tokens) else 1
                if len(res) > slots:
                    kept = [r for r in res if r is not None]
                    res[:] = kept + [None] * max(0, slots - len(kept))


RULES = Rules1858()
