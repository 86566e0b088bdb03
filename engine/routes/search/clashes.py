"""Cheap tests of two routes before any joint question: the pigeonhole at stops with few
exits (:class:`_Meet`) and the index of a candidate list by track keys and stops.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from ferrovia.routes.search.records import _Candidate, _Option


class _Index:
    """A candidate list split by the track its candidates use on a few busy keys, so a search
    for a partner skips whole groups that conflict there."""

    def __init__(self, cands: list[_Candidate]) -> None:
        cores = [c.core if c.links is not None else c.mask for c in cands]
        # the ten keys most used in a sample of cores (ties: the key met first, scanning
        # the sample in order, each core's keys lowest first); counted by columns of the
        # transposed sample (:func:`_columns`: bit k of a column is row k) rather than
        # key by key (#979: 3 % of the combination's line events)
        columns = _columns(cores[:: max(1, len(cands) // 256)])
        ranked = sorted(
            columns.items(),
            key=lambda kv: (-kv[1].bit_count(), (kv[1] & -kv[1]).bit_length(), kv[0]),
        )
        hot = 0
        for b, _ in ranked[:10]:
            hot |= b
        groups: dict[int, list[int]] = {}
        for i, m in enumerate(cores):
            groups.setdefault(m & hot, []).append(i)
        # groups best first (lists keep the candidates' best-first order)
        self.groups = sorted(groups.items(), key=lambda kv: kv[1][0])


class _Meet:
    """Where routes meet at stops with few exits (a pigeonhole test, one AND per pair).

    A route through a stop uses two of its chains there, a route ending there one, and the
    company's routes never share track, so routes fit only while the chains they use at a
    stop do not outnumber its :func:`_exits`.  Two routes, by a stop's number of exits: 1 --
    they cannot both touch it; 2 -- not one passing through while the other touches it; 3 --
    not both passing through.  ``hit`` has the stops where this route conflicts with any
    other touching it; the test of two routes is ``hit1 & touch2 or touch1 & hit2 or
    through1 & through2 & three``."""

    def __init__(self, exits: Mapping[int, int]) -> None:
        self.exits = exits
        self.one = self.two = self.three = 0
        for s, n in exits.items():
            if n == 1:
                self.one |= 1 << s
            elif n == 2:
                self.two |= 1 << s
            elif n == 3:
                self.three |= 1 << s
        #: a link's ways (by id, kept alive) -> the towns every one of them passes: links
        #: recur in hundreds of sequences (#979: the scans were 40 % of indexing 1,124)
        self.towns: dict[int, tuple[Sequence[_Option], int]] = {}
        #: ... and those towns with the link's two stops (a link joins the same two stops
        #: in every sequence it is in)
        self.ends: dict[int, tuple[Sequence[_Option], int]] = {}

    def uses(self, c: _Candidate) -> tuple[tuple[int, int, int], ...]:
        """(stop, chains route ``c`` uses there, the stop's exits) at stops with few exits
        (at most 6: three routes through one stop), for runs of three or more routes."""
        out: dict[int, int] = {}
        last = len(c.stops) - 1
        for i, st in enumerate(c.stops):
            out[st] = 1 if i in (0, last) else 2
        for opts in c.links or ():
            towns = -1
            for o in opts:
                towns &= o.stops
            while towns > 0:
                low = towns & -towns
                out[low.bit_length() - 1] = 2
                towns ^= low
        exits = self.exits
        return tuple((st, u, exits[st]) for st, u in out.items() if exits.get(st, 99) <= 6)

    def masks(self, c: _Candidate) -> tuple[int, int, int]:
        """(touch, through, hit) of route ``c``: for a sequence, its stops and the towns every
        way of one of its links passes."""
        stops = c.stops
        links = c.links
        if links is not None and len(stops) == len(links) + 1:
            # a link's two stops and its towns, one mask remembered per link (#979: a
            # sequence's 17 stops were a loop of shifts); a stub sequence (one stop, one
            # link: a budget stopped its listing) takes the way below
            ends = self.ends
            touch = 0
            for k, opts in enumerate(links):
                found = ends.get(id(opts))
                if found is None:
                    towns = -1
                    for o in opts:
                        towns &= o.stops
                    found = ends[id(opts)] = (opts, towns | 1 << stops[k] | 1 << stops[k + 1])
                touch |= found[1]
            through = touch & ~(1 << stops[0] | 1 << stops[-1])
            return touch, through, (touch & self.one) | (through & self.two)
        through = 0
        for s in stops[1:-1]:
            through |= 1 << s
        touch = through | 1 << stops[0] | 1 << stops[-1] if stops else 0
        known = self.towns
        passed = 0
        for opts in c.links or ():
            found = known.get(id(opts))
            if found is None:
                towns = -1
                for o in opts:
                    towns &= o.stops
                found = known[id(opts)] = (opts, towns)
            passed |= found[1]
        through |= passed
        touch |= passed
        return touch, through, (touch & self.one) | (through & self.two)


def _clash_sets(
    cands: Sequence[_Candidate],
    masks: Callable[[_Candidate], tuple[int, int, int]],
    few: int = -1,
    three: int = -1,
) -> tuple[dict[int, int], ...]:
    """For :func:`_combine`: which candidates of a list use each track key in their core (a
    plain route: in its track), and which touch, pass through, or conflict at each stop of
    few exits (``masks``: :meth:`_Meet.masks`), as sets of list positions (bits of an int),
    each dict keyed by the key's or stop's bit.

    Both cheap tests of two routes -- cores crossing, and the pigeonhole at stops -- are then
    an OR of a few dozen sets for one route against a whole list (:func:`_clashing`), and only
    the candidates outside it are looked at one by one: at #979 about 72,000 pairs above the
    optimum, all but a few hundred settled by those two tests.

    Only stops where the tests can bite are indexed: a touch only clashes with a hit, which
    is at a stop of one or two exits (``few``), and a route passing through only with
    another at a stop of three (``three``)."""
    met = [masks(c) for c in cands]
    return (
        _columns([c.core if c.links is not None else c.mask for c in cands]),
        _columns([m[0] & few for m in met], few),
        _columns([m[1] & three for m in met], three),
        _columns([m[2] for m in met], few),
        {},  # :func:`_clashing`'s answers by core
    )


def _columns(rows: Sequence[int], keys: int = -1) -> dict[int, int]:
    """The bit matrix ``rows`` (non-negative ints) transposed: each bit set in some row ->
    the set of rows (bit k: row k) that have it.

    Transposed as text: every row written in binary at one width, last row first, one string;
    column j is then every width-th character from j, and reads back as an int in one call.
    (Bit by bit in Python, #979's index of 1,124 sequences took 15 ms; so, 3 ms.)  A row is
    written by ``bin`` with a bit above the width set, so every row has the same length
    (``format`` to a width parses its spec per row: #979 12M instructions of 22M)."""
    width = max(rows, default=0).bit_length()
    out: dict[int, int] = {}
    if not width:
        return out
    top = 1 << width
    text = "".join([bin(m | top) for m in reversed(rows)])
    step = width + 3  # ("0b1" before each row's width digits)
    # (``keys``: the only bits any row can have, when known -- the stops of few exits, #979
    # 12 of 61 -- so no other column is sliced)
    where: Iterable[int] = range(width)
    if keys >= 0:
        where = []
        keys &= top - 1
        while keys:
            where.append(width - keys.bit_length())
            keys &= ~(1 << (keys.bit_length() - 1))
    for j in where:
        column = text[3 + j :: step]
        if "1" in column:
            out[1 << (width - 1 - j)] = int(column, 2)
    return out


def _clashing(
    sets: tuple[dict[int, int], ...], core: int, meet: tuple[int, int, int], three: int
) -> int:
    """The positions of the candidates of :func:`_clash_sets` that cannot run beside a route
    with this core (track) and these :meth:`_Meet.masks` (touch, through, hit): those whose
    core meets it, or that conflict at a stop of one, two or three exits (``three``: the
    stops of three).  Each test is of two routes, so a set of taken routes clashes with the
    OR of their sets."""
    by_key, by_touch, by_through, by_hit, by_core = sets
    touch, through, hit = meet
    # (routes taken share cores: #979 asks 262 times of 112 cores)
    found = by_core.get(core)
    if found is None:
        found = 0
        m = core
        while m:
            low = m & -m
            found |= by_key.get(low, 0)
            m ^= low
        by_core[core] = found
    for m, where in (
        (hit, by_touch),
        # (only the stops where some candidate hits: a few, and most of a route's stops
        # are not -- #979: 313 of 2,102 bits)
        (touch & sum(by_hit), by_hit),
        (through & three, by_through),
    ):
        while m:
            low = m & -m
            found |= where.get(low, 0)
            m ^= low
    return found
