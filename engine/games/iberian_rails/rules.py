"""Iberian Rails' rules as small pure functions and value types.

Nothing here knows the state container or the file models: each function takes plain values
(seats in clockwise order, counts, a schedule as a mapping) and returns plain values, so each
rule of the rulebook can be read and tested on its own. The steps
(:mod:`ferrovia.games.iberian_rails.steps`) call them with what the state holds.

Seats are player ids listed clockwise; "clockwise from X" starts at X.

>>> clockwise(("a", "b", "c", "d"), "c")
('c', 'd', 'a', 'b')
>>> track_price({1: 10, 2: 20, 3: 40, 4: 60, 5: 90}, laid=2)  # the Hotelier's third track
20
>>> closed_auction_winner({"a": 5, "b": 7, "c": 7}, ("a", "b", "c"), ceo="c")
'c'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ferrovia.kernel import rng

BANK = "bank"

# -- seats ------------------------------------------------------------------------------------


def clockwise(seats: Sequence[str], start: str) -> tuple[str, ...]:
    """The seats clockwise, beginning with ``start``."""
    i = list(seats).index(start)
    return tuple(seats[i:]) + tuple(seats[:i])


def distance(seats: Sequence[str], start: str, seat: str) -> int:
    """How many places clockwise ``seat`` sits from ``start`` (0: itself).

    >>> distance(("a", "b", "c"), "b", "a")
    2
    """
    return clockwise(seats, start).index(seat)


# -- setup ------------------------------------------------------------------------------------


def starting_cash(table: Mapping[int, int], players: int) -> int:
    """Each player's pesetas at ``players`` players (setup.yaml ``starting_cash``).

    >>> [starting_cash({2: 120, 3: 80, 4: 60, 5: 50}, n) for n in (2, 3, 4, 5)]
    [120, 80, 60, 50]
    """
    if players not in table:
        known = ", ".join(str(n) for n in sorted(table))
        raise ValueError(f"Iberian Rails is for {known} players, not {players}")
    return table[players]


def select_characters(
    x: int,
    groups: Sequence[Sequence[str]],
    counts: Sequence[int],
    replace_by: Mapping[str, str],
) -> tuple[int, tuple[str, ...]]:
    """Draw ``counts[i]`` characters from group ``i`` (after the replacements), then lay the
    drawn characters out in a random row, the front first. ``x`` is the seeded generator
    (:mod:`ferrovia.kernel.rng`); returns (its new state, the row).

    >>> x, row = select_characters(7, [["a", "b", "c"], ["d", "e"]], [2, 1], {"b": "z"})
    >>> len(row), len(set(row) & {"a", "z", "c"}), len(set(row) & {"d", "e"}), "b" in row
    (3, 2, 1, False)
    """
    chosen: list[str] = []
    for group, n in zip(groups, counts, strict=True):
        pool = [replace_by.get(c, c) for c in group]
        x, mixed = rng.shuffled(x, pool)
        chosen.extend(mixed[:n])
    x, row = rng.shuffled(x, chosen)
    return x, tuple(row)


def share_value(rows: Sequence[Sequence[int]], column: int, cities: int) -> int:
    """What one share pays: the payout table's row for ``cities`` connected cities (the last
    row beyond the table), in the railroad's ``column`` (both from 1).

    >>> rows = [[2, 3, 4, 5], [3, 4, 5, 6], [5, 6, 7, 8]]
    >>> share_value(rows, 1, 1), share_value(rows, 4, 2), share_value(rows, 2, 9)
    (2, 6, 6)
    """
    row = rows[min(max(cities, 1), len(rows)) - 1]
    return row[column - 1]


# -- the character draft ----------------------------------------------------------------------


def first_round_order(seats: Sequence[str], first: str) -> tuple[str, ...]:
    """In the first round the first chooser (the brown railroad's CEO) picks first, then the
    others clockwise.

    >>> first_round_order(("a", "b", "c"), "b")
    ('b', 'c', 'a')
    """
    return clockwise(seats, first)


def draft_order(row: Sequence[str], held: Mapping[str, str]) -> tuple[str, ...]:
    """From the second round: the players in the order of their markers along the character
    row, front first (``held``: player -> the character whose board holds their marker).

    >>> draft_order(("w", "x", "y", "z"), {"p1": "z", "p2": "x", "p3": "y"})
    ('p2', 'p3', 'p1')
    """
    place = {c: i for i, c in enumerate(row)}
    return tuple(sorted(held, key=lambda p: place[held[p]]))


def draft_choices(
    row: Sequence[str], taken: Iterable[str], returned: str | None = None
) -> tuple[str, ...]:
    """The characters a player may take: those whose card is on its board (``taken``: the
    cards in players' hands now), never the one they have just put back.

    >>> draft_choices(("w", "x", "y", "z"), taken={"y"}, returned="x")
    ('w', 'z')
    """
    out = set(taken)
    return tuple(c for c in row if c not in out and c != returned)


# -- building track ---------------------------------------------------------------------------


def track_price(schedule: Mapping[int, int], laid: int) -> int | None:
    """What the next track costs a railroad that has laid ``laid`` this action: the schedule
    prices a number of tracks as a whole, so the next one costs the difference (None: the
    schedule allows no more).

    >>> hotelier = {1: 10, 2: 20, 3: 40, 4: 60, 5: 90}
    >>> [track_price(hotelier, n) for n in range(6)]
    [10, 10, 20, 20, 30, None]
    >>> track_price({}, 0) is None  # the Nephew cannot build
    True
    """
    if laid + 1 not in schedule:
        return None
    return schedule[laid + 1] - schedule.get(laid, 0)


LayProblem = Literal[
    "off the board",
    "already there",
    "hex full",
    "not connected",
    "no track left",
    "schedule done",
    "cannot pay",
]


@dataclass(frozen=True)
class Lay:
    """What one track costs and pays where it is laid: its price (to the bank), the occupation
    fee (to ``occupant``) and the hotel bonus (from the bank to ``hotel_owner``)."""

    hex: str
    price: int
    fee: int = 0
    occupant: str | None = None
    hotel_owner: str | None = None
    bonus: int = 0

    @property
    def cost(self) -> int:
        """What the railroad pays in all."""
        return self.price + self.fee


def lay_problem(
    *,
    hex_id: str,
    board: Mapping[str, Sequence[str]],
    on_hex: Sequence[str],
    network: Iterable[str],
    company: str,
    tracks_left: int,
    price: int | None,
    fee: int,
    cash: int,
    tracks_per_hex: int,
) -> LayProblem | None:
    """Why ``company`` cannot lay its next track on ``hex_id`` (None: it can). ``board`` maps
    each hex to its neighbours, ``on_hex`` the railroads already there, ``network`` the hexes
    holding its tracks, ``price`` the schedule's price of this track (None: no more), ``fee``
    the occupation fee it would owe there.

    >>> board = {"A": ("B",), "B": ("A", "C"), "C": ("B",)}
    >>> args = dict(board=board, network=["A"], company="y", tracks_left=5, price=10, cash=15,
    ...             tracks_per_hex=2)
    >>> lay_problem(hex_id="B", on_hex=[], fee=0, **args) is None
    True
    >>> lay_problem(hex_id="C", on_hex=[], fee=0, **args)
    'not connected'
    >>> lay_problem(hex_id="B", on_hex=["r"], fee=10, **args)  # 10 + a fee of 10: over 15
    'cannot pay'
    """
    if hex_id not in board:
        return "off the board"
    if company in on_hex:
        return "already there"
    if len(on_hex) >= tracks_per_hex:
        return "hex full"
    if tracks_left <= 0:
        return "no track left"
    if price is None:
        return "schedule done"
    mine = set(network)
    if not any(n in mine for n in board[hex_id]):
        return "not connected"
    if cash < price + fee:
        return "cannot pay"
    return None


def occupation_fee(on_hex: Sequence[str], fee: int, exempt: bool = False) -> tuple[str, int]:
    """(to whom, how much) a railroad pays for laying on a hex: ``fee`` to the railroad
    already there (none on an empty hex, or with a character's exemption).

    >>> occupation_fee(["red"], 10), occupation_fee([], 10), occupation_fee(["red"], 10, True)
    (('red', 10), ('', 0), ('', 0))
    """
    if not on_hex or exempt:
        return "", 0
    return on_hex[0], fee


def hotel_bonus(tourism_connected: int, per_city: int) -> int:
    """What a hotel's owner gets from the bank when a railroad lays track on its hex: ``per_city``
    for each tourism city the railroad is connected to.

    >>> hotel_bonus(2, 10)  # the rulebook's example: the blue company connects two
    20
    """
    return tourism_connected * per_city


def connected(network: Iterable[str], kinds: Mapping[str, str], *wanted: str) -> int:
    """How many of the railroad's hexes are of the ``wanted`` kinds (``city``, ``tourism``).

    >>> kinds = {"A": "city", "B": "plain", "C": "tourism"}
    >>> connected("ABC", kinds, "city", "tourism"), connected("ABC", kinds, "tourism")
    (2, 1)
    """
    return sum(1 for h in network if kinds.get(h) in wanted)


# -- auctions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenAuction:
    """An open auction: the opener bids first (0 or more); then, clockwise, each player still
    in raises or passes; a player who passed is out; the last one in wins at their bid.

    >>> a = OpenAuction.start(("a", "b", "c"), opener="b")
    >>> a = a.bid("b", 0).bid("c", 5).pass_("a").bid("b", 6)
    >>> a.turn, a.done
    ('c', False)
    >>> a = a.pass_("c"); a.done, a.winner, a.high
    (True, 'b', 6)
    """

    order: tuple[str, ...]
    """The bidders clockwise from the opener."""
    turn: str
    high: int | None = None
    leader: str | None = None
    out: frozenset[str] = frozenset()

    @classmethod
    def start(cls, seats: Sequence[str], opener: str) -> OpenAuction:
        order = clockwise(seats, opener)
        return cls(order=order, turn=order[0])

    @property
    def done(self) -> bool:
        return self.leader is not None and len(self.order) - len(self.out) == 1

    @property
    def winner(self) -> str | None:
        return self.leader if self.done else None

    def minimum(self) -> int:
        """The lowest bid allowed now: 0 for the opening bid, else one more than the high."""
        return 0 if self.high is None else self.high + 1

    def may_pass(self, who: str) -> bool:
        """Everyone but the opener, before the opening bid, may pass."""
        return self.high is not None and who == self.turn

    def _next(self, out: frozenset[str]) -> str:
        i = self.order.index(self.turn)
        for step in range(1, len(self.order) + 1):
            seat = self.order[(i + step) % len(self.order)]
            if seat not in out:
                return seat
        return self.turn

    def bid(self, who: str, price: int) -> OpenAuction:
        if who != self.turn:
            raise ValueError(f"it is {self.turn}'s turn to bid, not {who}'s")
        if price < self.minimum():
            raise ValueError(f"a bid must be at least {self.minimum()}")
        moved = replace(self, high=price, leader=who)
        return replace(moved, turn=moved._next(self.out))

    def pass_(self, who: str) -> OpenAuction:
        if not self.may_pass(who):
            raise ValueError(f"{who} may not pass now")
        out = self.out | {who}
        return replace(self, out=out, turn=self._next(out))


def closed_auction_winner(bids: Mapping[str, int], seats: Sequence[str], ceo: str) -> str:
    """The highest secret bid; a tie goes to the player nearest the CEO clockwise, the CEO
    winning every tie.

    >>> seats = ("a", "b", "c", "d")
    >>> closed_auction_winner({"a": 3, "b": 9, "c": 9, "d": 9}, seats, ceo="c")
    'c'
    >>> closed_auction_winner({"a": 9, "b": 9, "c": 1, "d": 0}, seats, ceo="c")
    'a'
    """
    high = max(bids.values())
    return min((p for p, b in bids.items() if b == high), key=lambda p: distance(seats, ceo, p))


def closed_auction_payee(rule: str, ceo: str, company: str, winner: str) -> str:
    """Who receives a closed auction's price (``rule``: the CEO's character's
    ``closed_auction_payee``); a winner who would pay themself pays the bank.

    >>> closed_auction_payee("ceo", "a", "blue", "b"), closed_auction_payee("ceo", "a", "x", "a")
    ('a', 'bank')
    >>> closed_auction_payee("company", "a", "blue", "a"), closed_auction_payee("bank", "a", "", "")
    ('blue', 'bank')
    """
    payee = {"ceo": ceo, "company": company, "bank": BANK}[rule]
    return BANK if payee == winner else payee


# -- shares, payouts, CEOs --------------------------------------------------------------------


def payout(
    value: int, holdings: Mapping[str, int], reserve: int, company: str
) -> tuple[tuple[str, int], ...]:
    """What the bank pays after an auction: each player ``value`` per share they hold, and the
    railroad ``value`` per share still in its reserve (players in ``holdings`` order, then the
    railroad; nobody paid nothing).

    >>> payout(4, {"a": 2, "b": 0, "c": 1}, 3, "blue")
    (('a', 8), ('c', 4), ('blue', 12))
    """
    out = [(p, value * n) for p, n in holdings.items() if n]
    if reserve:
        out.append((company, value * reserve))
    return tuple(out)


def ceo_after(ceo: str | None, holdings: Mapping[str, int], acquirer: str) -> str:
    """The CEO once ``acquirer`` has taken a share: they become CEO when they now hold more
    shares than any other player; otherwise the CEO stays (the incumbent keeps a tie).

    >>> ceo_after("a", {"a": 2, "b": 2}, "b"), ceo_after("a", {"a": 2, "b": 3}, "b")
    ('a', 'b')
    >>> ceo_after(None, {"a": 1}, "a")
    'a'
    """
    if ceo is None or acquirer == ceo:
        return acquirer
    mine = holdings.get(acquirer, 0)
    if all(mine > n for p, n in holdings.items() if p != acquirer):
        return acquirer
    return ceo


Choice = Literal["build", "open_auction", "closed_auction"]


def company_choices(
    *, can_build: bool, reserve: int, auctions: Iterable[str]
) -> tuple[Choice, ...]:
    """What a railroad may do on its turn; it passes only when this is empty. ``can_build``:
    some track can be laid now (a schedule, money, a legal hex); an auction needs a share in
    the reserve and the CEO's character allowing it.

    >>> company_choices(can_build=False, reserve=2, auctions=("closed",))
    ('closed_auction',)
    >>> company_choices(can_build=False, reserve=0, auctions=("open", "closed"))
    ()
    """
    out: list[Choice] = ["build"] if can_build else []
    if reserve > 0:
        if "open" in auctions:
            out.append("open_auction")
        if "closed" in auctions:
            out.append("closed_auction")
    return tuple(out)


# -- the end ----------------------------------------------------------------------------------


def end_reason(
    reserves: Mapping[str, int],
    cities: Mapping[str, int],
    *,
    sold_out: int,
    most_cities: int,
) -> str | None:
    """Why the game ends after this round: ``sold_out`` railroads with an empty reserve
    (``shares``), or a railroad connected to ``most_cities`` cities (``cities``); None yet.

    >>> end_reason({"a": 0, "b": 0, "c": 0, "d": 1}, {"a": 5}, sold_out=4, most_cities=12)
    >>> end_reason({"a": 0, "b": 0, "c": 0, "d": 0}, {"a": 5}, sold_out=4, most_cities=12)
    'shares'
    >>> end_reason({"a": 1}, {"a": 12}, sold_out=4, most_cities=12)
    'cities'
    """
    if sum(1 for n in reserves.values() if n == 0) >= sold_out:
        return "shares"
    if any(n >= most_cities for n in cities.values()):
        return "cities"
    return None


def final_payout(
    values: Mapping[str, int], holdings: Mapping[str, Mapping[str, int]], multiplier: int
) -> dict[str, int]:
    """Each player's final payout: every share they hold pays ``multiplier`` times its value
    (``values``: railroad -> share value; ``holdings``: railroad -> player -> shares).

    >>> final_payout({"y": 5, "b": 7}, {"y": {"p": 2, "q": 1}, "b": {"q": 1}}, 2)
    {'p': 20, 'q': 24}
    """
    out: dict[str, int] = {}
    for company, held in holdings.items():
        for player, n in held.items():
            if n:
                out[player] = out.get(player, 0) + multiplier * values[company] * n
    return out


def ranking(
    cash: Mapping[str, int],
    shares: Mapping[str, int],
    card: Mapping[str, str],
    row: Sequence[str],
) -> tuple[str, ...]:
    """The players from winner down: most pesetas, then fewest shares, then the character card
    nearer the rear of the row.

    >>> ranking({"a": 90, "b": 90, "c": 90}, {"a": 3, "b": 2, "c": 2}, {"a": "x", "b": "y",
    ...         "c": "z"}, ("z", "y", "x"))
    ('b', 'c', 'a')
    """
    place = {c: i for i, c in enumerate(row)}
    return tuple(
        sorted(cash, key=lambda p: (-cash[p], shares.get(p, 0), -place.get(card.get(p, ""), -1)))
    )
