"""The 18xx library's rules: the hooks its stock, operating and auction rounds ask, with
18xx.games' usual behaviour.

A title of the 18xx family (``ferrovia.games.g1830``, ``g1858``...) subclasses
:class:`Rules18xx`, overriding only what its rulebook changes, with methods named after the
rule (``station_cost``, ``private_closed``...), and setting the library's switches (class
attributes, each documented) its rulebook turns.  The library's steps call these hooks; they
never ask which game they are playing.  The interpreter's own hooks (the round sequence, game
end, player value...) are :class:`ferrovia.kernel.hooks.Rules`'s; here they get their 18xx
behaviour: an opening auction, then stock rounds and sets of operating rounds, the bank
breaking, players worth their cash, shares and privates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ferrovia.kernel.hooks import Rules
from ferrovia.lib18xx import market
from ferrovia.lib18xx.actions import ACTIONS
from ferrovia.lib18xx.game import Game18xx
from ferrovia.lib18xx.rounds import AuctionRound, OperatingRound, StockRound
from ferrovia.lib18xx.state import State18xx

if TYPE_CHECKING:
    from ferrovia.kernel.actions import Action
    from ferrovia.kernel.game import Game
    from ferrovia.kernel.rounds import Round


class Rules18xx(Rules[Game18xx, State18xx]):
    """The 18xx library's hooks and switches.  ``ROUND_STEPS`` names the step sequence of
    each round kind; ``steps()`` is the one place a title says which step classes those names
    are (explicitly: importing a module registers nothing), and ``actions()`` which action
    types beyond the library's it reads."""

    NAME: ClassVar[str] = "18xx"
    ROUNDS: ClassVar[tuple[type[Round], ...]] = (StockRound, OperatingRound, AuctionRound)
    """The round kinds (a title adds its own: ``(*Rules18xx.ROUNDS, TheirRound)``)."""
    MAX_TURNS: ClassVar[int] = 100  # stock rounds; then the game ends unfinished ('dnf')
    GAME: ClassVar[type[Game[Any]]] = Game18xx
    STATE: ClassVar[type[State18xx]] = State18xx

    def actions(self) -> tuple[type[Action], ...]:
        """The library's action types (``ferrovia.lib18xx.actions``); a title adds its own
        with ``(*super().actions(), TheirAction)``."""
        return ACTIONS

    # -- a new game and the round sequence ---------------------------------------------------
    def initial_state(
        self, game: Game18xx, players: Sequence[tuple[str, str]], seed: int
    ) -> State18xx:
        """Companies, privates, trains, tiles and the map from the definition, the bank, the
        first phase, each player's starting cash (:mod:`ferrovia.lib18xx.setup`)."""
        from ferrovia.lib18xx.setup import initial_state

        return initial_state(game, players, seed)

    def init_round(self, game: Game18xx, state: State18xx) -> Round:
        """An opening auction of the privates (18xx.games' usual ``init_round``)."""
        return AuctionRound.create(game, state)

    def next_round(self, game: Game18xx, state: State18xx) -> Round:
        """After the opening auction a stock round; after a stock round the phase's set of
        operating rounds, then a stock round again, counting the turn (18xx.games
        ``next_round!``).  Players are reordered by priority after the auction and after each
        stock round."""
        rs = state.round
        if rs.kind == "auction":
            self.reorder_players(game, state)
            return StockRound.create(game, state)
        if rs.kind == "stock":
            state.operating_rounds = game.phase_operating_rounds(state)
            self.reorder_players(game, state)
            return OperatingRound.create(game, state, 1)
        if rs.num < state.operating_rounds:
            return OperatingRound.create(game, state, rs.num + 1)
        state.turn += 1
        return StockRound.create(game, state)

    def reorder_players(self, game: Game18xx, state: State18xx) -> None:
        """After a stock round the player after the last to act gets priority."""
        rs = state.round
        if not rs.entities:
            return
        first = rs.entities[rs.entity_index]
        ids = [p.id for p in state.players]
        i = ids.index(first)
        state.players = state.players[i:] + state.players[:i]

    def finish_stock_round(self, game: Game18xx, state: State18xx) -> None:
        """End-of-stock-round price moves: a started company whose shares are all held by
        players moves market.yaml ``movement.sold_out`` spaces."""

        move = game.definition.market.movement.sold_out
        if not move:
            return
        for corp in game.sorted_by_price(state, list(state.corporations.values())):
            if corp.closed or corp.market is None:
                continue
            if all(state.is_player(sh.owner) for sh in corp.shares):
                market.move_price(game, state, corp, move)

    def operating_order(self, game: Game18xx, state: State18xx) -> list[str]:
        """Floated minors in charter order, then floated corporations by share price."""
        minors = [m.sym for m in state.privates.values() if m.floated and not m.closed]
        corps = [c for c in state.corporations.values() if c.floated and not c.closed]
        return minors + [c.sym for c in game.sorted_by_price(state, corps)]

    def payout_companies(self, game: Game18xx, state: State18xx) -> None:
        """Private income at the start of each operating round: every open private pays its
        owner (a player or a company), players' first in seating order (18xx.games
        ``payout_companies``)."""
        from ferrovia.kernel.ledger import transfer

        order = {p.id: i for i, p in enumerate(state.players)}
        owned = []
        for m in state.privates.values():
            if m.closed or m.owner == "bank":
                continue
            income = game.definition.private_income(m.sym, state.phase)
            first = (0, order[m.owner], "") if m.owner in order else (1, 0, m.owner)
            owned.append((first, income, game.definition.private(m.sym).name, m.sym))
        for _, income, _, sym in sorted(owned):
            if income > 0:
                owner = state.privates[sym].owner
                transfer(state, "bank", owner, income, f"{sym} income")
                state.log.append(f"{owner} collects {income} from {sym}")

    def after_end_of_operating_turn(self, game: Game18xx, state: State18xx, op: str | None) -> None:
        pass

    def before_operating(self, game: Game18xx, state: State18xx, op: str) -> None:
        """An operator's turn begins: a company with a ``home`` in companies.yaml and no
        station yet places its home station there (18xx.games home token timing
        ``operate``); on a hex of several cities without a given one its director chooses
        (the round's ``pending_tokens``)."""
        import ferrovia.lib18xx.board as board  # (not ``from ferrovia.kernel import``: a
        # package's fromlist runs importlib's Python code on every call, this is C)

        corp = state.corporations.get(op)
        if corp is None or any(t.hex for t in corp.tokens):
            return
        home = getattr(game.definition.corporation(op), "home", None)
        if home is None or home.hex not in state.hexes:
            return
        h = state.hexes[home.hex]
        cities = range(len(h.tokens))
        # several cities and no choice made: the director chooses, unless the tile has no
        # track yet, when the first city takes it (an upgrade settles where it is)
        if home.city is None and len(h.tokens) > 1 and board.tile_has_paths(game, state, home.hex):
            pend = state.round.data.setdefault("pending_tokens", [])
            if not any(p["entity"] == op for p in pend):
                pend.append({"entity": op, "hexes": [home.hex], "cities": None})
            return
        # the city holding its reservation: an upgrade before the company first operates may
        # have moved it from the printed index (1830's NYNH, tile 54 on G19)
        reserved = [i for i, res in enumerate(h.reservations) if op in res]
        city = next(
            iter(reserved), home.city if home.city is not None else next(iter(cities), None)
        )
        if city is not None and board.tokenable(state, home.hex, city, op):
            board.place_token(state, op, home.hex, city, 0, "home station")

    def changes_nothing_after(self, game: Game18xx, state: State18xx, action: Any) -> bool:
        """The kernel's answer, with the library's :meth:`game_end_check` (which only reads
        the state) counted as not overridden: true when a title overrides neither hook."""
        cls = type(self)
        return (
            cls.action_processed is Rules.action_processed
            and cls.game_end_check is Rules18xx.game_end_check
        )

    def route_bonus(
        self, game: Game18xx, state: State18xx, corp: str, train: str, stops: list[str]
    ) -> int:
        """Extra revenue of ``train``'s route visiting stops in these hexes (default 0)."""
        return 0

    DIVIDEND_KINDS: ClassVar[tuple[str, ...]] = ("payout", "withhold")
    CROWDED_IN_OPERATING_ORDER: ClassVar[bool] = False
    """Whether companies over their train limit discard in operating order (1858's step), or,
    as usual, in charter order, companies.yaml's (18xx.games ``crowded_corps``)."""
    DIRECTOR_COVERS_TRACK_COSTS: ClassVar[bool] = False
    """Whether a director pays what the company lacks for a tile lay (1858), or the company
    pays alone (18xx.games' usual rule)."""

    EMERGENCY_ISSUE: ClassVar[bool] = False
    """Whether a company that must buy a train may issue treasury shares for it (before its
    director pays), or, as usual, only its director helps."""
    TOKEN_PASS_WITHOUT_ROOM: ClassVar[bool] = False
    """Whether a company with a marker left always gets the token step (to pass), or, as
    usual, only when a reached city has a space it can pay for."""

    def station_cost(self, game: Game18xx, state: State18xx, corp: str, coord: str) -> int:
        """What a new station of ``corp`` on ``coord`` costs: its next marker's printed price
        (companies.yaml ``station_costs``; 1830: 40, then 100)."""
        token = next((t for t in state.corporations[corp].tokens if not t.used), None)
        return token.price if token is not None else 0

    def route_available(self, game: Game18xx, state: State18xx, corp: str) -> bool:
        """Whether the company has a route to run at all (its network reaches two stops);
        without one the route step is skipped (18xx.games ``can_run_route?``)."""
        from ferrovia.lib18xx.operating import routing

        if corp not in state.corporations:
            return any(len(r.stops) > 1 for r in routing._reaches(game, state, corp))
        return routing.has_route(game, state, corp)

    def company_private_revenue(self, game: Game18xx, state: State18xx, corp: str) -> int:
        """Income of the privates a company owns counted in its earnings (default none:
        18xx.games pays it to the treasury at the start of the operating round)."""
        return 0

    def after_dividend(self, game: Game18xx, state: State18xx, corp: str) -> None:
        """After a company's earnings are distributed (or withheld)."""

    def extra_revenue(
        self, game: Game18xx, state: State18xx, corp: str, routes: list[dict[str, Any]]
    ) -> int:
        """Revenue a company's run earns besides its routes and privates (default 0)."""
        return 0

    def extra_upgrade(
        self, game: Game18xx, state: State18xx, op: str, coord: str, tile: str
    ) -> bool:
        """Whether laying ``tile`` on ``coord`` is allowed beyond the usual upgrade rules."""
        return False

    def upgrade_rotations(
        self,
        game: Game18xx,
        state: State18xx,
        coord: str,
        old: Any,
        tile: str,
        exit_allowed: Callable[[int], bool],
    ) -> list[int]:
        """Rotations in which the tile named ``tile`` may replace ``old`` (the placed tile) on
        ``coord``: all old track kept, no old city or town swallowed, no exit off the map."""
        # (imported so, not ``from ferrovia import``: a package's fromlist runs importlib's
        # Python code on every call; asked for every lay)
        import ferrovia.board.tiles as tiles
        import ferrovia.lib18xx.operating.upgrading as upgrading

        new = game.definition.tiles[tile].tile
        fits = upgrading.gauge_fits(game.definition.upgrade_rules.gauges_kept_by)
        return tiles.upgrade_rotations(
            old.tile, old.rotation, new, gauge_fits=fits, exit_allowed=exit_allowed
        )

    def tile_lay_cost(
        self, game: Game18xx, state: State18xx, op: str, coord: str, tile: str, cost: int
    ) -> int:
        """The cost of a lay, given the usual one (terrain and second-lay fee)."""
        return cost

    def after_lay_tile(
        self, game: Game18xx, state: State18xx, op: str, coord: str, tile: str
    ) -> None:
        """Called after a tile is laid."""

    def train_event(self, game: Game18xx, state: State18xx, event: str) -> None:
        """A train card's event (trains.yaml ``events``): ``close_companies`` closes every
        private (18xx.games ``event_close_companies!``)."""
        if event == "close_companies":
            for sym, priv in state.privates.items():
                if not priv.closed:
                    self.close_private(game, state, sym)

    def after_buy_train(self, game: Game18xx, state: State18xx, corp: str, train: str) -> None:
        """A company bought a train: privates whose ``close`` ability names it with
        ``when: bought_train`` close (1830's Baltimore & Ohio)."""
        import ferrovia.lib18xx.abilities as abilities  # (see before_operating)

        for sym, priv in state.privates.items():
            if priv.closed:
                continue
            for ab in abilities.of(game, sym, "close"):
                if ab.when == "bought_train" and ab.corporation == corp:
                    self.close_private(game, state, sym)
                    break

    # -- stock round -------------------------------------------------------------------------
    def buyable_privates(self, game: Game18xx, state: State18xx) -> list[str]:
        """Bank-owned privates that may be bought (auctioned) now."""
        return [m.sym for m in state.privates.values() if not m.closed and m.owner == "bank"]

    def after_buy_company(
        self, game: Game18xx, state: State18xx, player: str, sym: str, price: int
    ) -> None:
        """A player bought a private from the bank: its ``shares`` ability gives its
        certificates; a president's certificate waits in the round for a par price."""
        from ferrovia.lib18xx import abilities

        for pending in abilities.grant_shares(game, state, player, sym):
            state.round.data.setdefault("companies_pending_par", []).append(list(pending))

    def players_may_trade_privates(self, game: Game18xx, state: State18xx) -> bool:
        """Whether players may buy privates from each other now (given the phase allows it)."""
        return True

    def can_par_directly(self, game: Game18xx, state: State18xx) -> bool:
        """Whether a company may be started by buying its director's certificate."""
        return True

    def can_start_with_private(self, game: Game18xx, state: State18xx, sym: str) -> bool:
        return False

    def private_par_column(self, game: Game18xx, state: State18xx, sym: str) -> int:
        """Market column a company started with this private is parred at: the highest space
        not above the private's face value."""
        face = game.definition.private(sym).face_value
        best = 0
        for i, price in enumerate(market.spaces(game)):
            if price <= face and price >= market.spaces(game)[best]:
                best = i
        return best

    def private_connected(self, game: Game18xx, state: State18xx, corp: str, sym: str) -> bool:
        return False

    def can_convert(self, game: Game18xx, state: State18xx, corp: str) -> bool:
        return False

    def convert(self, game: Game18xx, state: State18xx, corp: str) -> None:
        """A company changes share structure (companies.yaml ``conversion``)."""
        from ferrovia.lib18xx.operating.phases import convert_share_structure

        convert_share_structure(game, state, corp)

    def home_token_hexes(self, game: Game18xx, state: State18xx, corp: str) -> list[str]:
        """Hexes where a starting company may put its home station."""
        return []

    def home_token_cost(
        self, game: Game18xx, state: State18xx, corp: str, coord: str, city: int
    ) -> int:
        return 0

    def after_home_token(
        self, game: Game18xx, state: State18xx, corp: str, coord: str, city: int
    ) -> None:
        pass

    def close_private(self, game: Game18xx, state: State18xx, sym: str) -> None:
        """A private closes (18xx.games' usual close: nothing is paid for it)."""
        from ferrovia.lib18xx.stock import close_private

        close_private(game, state, sym)

    def private_closed(self, game: Game18xx, state: State18xx, sym: str) -> None:
        """Called once a private has closed (paid out, its reservations gone), whatever
        closed it."""

    # -- game end --------------------------------------------------------------------------
    def game_end_check(self, game: Game18xx, state: State18xx) -> tuple[str, str] | None:
        """(reason, when) once the game is to end: the bank has broken (game.yaml
        ``end.bank_broken`` says when)."""
        if state.data.get("bankrupt_players"):
            return "bankrupt", "immediate"  # 18xx.games: a bankruptcy ends the game at once
        if state.bank_broken:
            return "bank", game.definition.game.end.bank_broken
        return None

    def end_now(self, game: Game18xx, state: State18xx, timing: str) -> bool:
        """A triggered end's timing (game.yaml ``end``): ``current_round`` at the end of this
        round, ``current_or`` at the end of this operating round, otherwise at the end of the
        set of operating rounds (``full_or``)."""
        if timing in ("immediate", "current_round"):
            return True
        if state.round.kind == "stock":
            return False
        if timing == "current_or":
            return True
        return state.round.num == state.operating_rounds

    # -- values ----------------------------------------------------------------------------
    def player_value(self, game: Game18xx, state: State18xx, player: str) -> int:
        """Cash + shares at market value + privates at face value."""
        p = state.player(player)
        value = p.cash
        for corp in state.corporations.values():
            if corp.closed or corp.market is None:
                continue
            pct = sum(sh.percent for sh in corp.shares if sh.owner == player)
            if pct:
                value += game.share_value(state, corp.sym, pct)
        for sym in p.companies:
            value += game.private_value(sym)
        return value
