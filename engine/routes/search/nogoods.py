"""Small reasons why two sequences cannot run together, learnt from failed joint questions
(:class:`_Nogoods`) and reused by a few ANDs of link masks.
"""

from __future__ import annotations

from collections.abc import Sequence

from ferrovia.routes.search.csp import _core_union, _fit_beside, _solve
from ferrovia.routes.search.records import _Option


class _Nogoods:
    """Links of two routes that cannot all be run, learnt from the joint questions that failed.

    Two sequences fail to fit together mostly for a small reason: a link of one whose every way
    crosses every way of a link of the other (a *pair*), or a link of one that cannot run beside
    two links of the other (a *triple*: every way of it crosses every pair of ways the two can
    take together).  The same few links recur in hundreds of candidate pairs (6E+7E at
    random-s108-p6 #1249: 5,062 failed pairs, 329 reasons), so once a failure's reason is known
    the next pair with those links is refuted by a few ANDs of link masks instead of a CSP.

    A link is its list of ways as the joint question sees them (content, not identity: equal
    lists are one link), numbered here; a route is the mask of its links' numbers.  A reason
    only ever says "no choice of ways exists for these links", so it holds for every pair of
    routes that have them -- the refutation is exact."""

    def __init__(self) -> None:
        self.number: dict[tuple[int, ...], int] = {}
        self.ways: list[Sequence[_Option]] = []
        self.by_route: dict[int, tuple[int, tuple[int, ...]]] = {}
        self.pair: dict[int, int] = {}  # link -> the links it cannot run beside
        self.triple: dict[int, list[int]] = {}  # link -> masks of two links it cannot run beside
        self.fits: dict[tuple[int, ...], bool] = {}
        #: per link, the track any of its ways uses (union) and every way uses (core)
        self.union: list[int] = []
        self.core: list[int] = []
        #: per link, (core track, core stops, union track, union stops) for :func:`_solve`
        self.known: list[tuple[int, int, int, int]] = []
        #: :func:`_core_union` of a list of ways by content (the ways' ids: they live as long
        #: as the candidates)
        self.cu: dict[tuple[int, ...], tuple[int, int, int, int]] = {}
        #: a list of ways (by id, kept alive) -> its link's number
        self.by_list: dict[int, tuple[Sequence[_Option], int]] = {}

    def core_union(self, ways: Sequence[_Option]) -> tuple[int, int, int, int]:
        """:func:`_core_union` of ``ways``, remembered by content: the links of the sequences
        taken recur, as new lists (#979: 546 asked, 87 distinct; 4,604 ways scanned -> 1,174)."""
        return self._known(tuple(map(id, ways)), ways)

    def _known(self, key: tuple[int, ...], ways: Sequence[_Option]) -> tuple[int, int, int, int]:
        """:meth:`core_union` with its key (the ways' ids) already made."""
        found = self.cu.get(key)
        if found is None:
            found = self.cu[key] = _core_union(ways)
        return found

    def links(self, key: int, doms: Sequence[Sequence[_Option]]) -> tuple[int, tuple[int, ...]]:
        """(mask, numbers) of a route's links (``key``: the route's id, remembered)."""
        found = self.by_route.get(key)
        if found is None:
            nums = []
            by_list = self.by_list
            for d in doms:
                # (the lists of ways recur as objects: a link's ways as listed, or as
                # :func:`_combine` remembers them cut)
                seen = by_list.get(id(d))
                if seen is not None:
                    nums.append(seen[1])
                    continue
                k = tuple(map(id, d))
                n = self.number.get(k)
                if n is None:
                    n = self.number[k] = len(self.ways)
                    self.ways.append(d)
                    cu = self._known(k, d)
                    self.union.append(cu[2])
                    self.core.append(cu[0])
                    self.known.append(cu)
                by_list[id(d)] = (d, n)
                nums.append(n)
            mask = 0
            for n in nums:
                mask |= 1 << n
            found = self.by_route[key] = (mask, tuple(nums))
        return found

    def refutes(self, a: tuple[int, tuple[int, ...]], b: tuple[int, tuple[int, ...]]) -> bool:
        """Whether a known reason stops routes ``a`` and ``b`` (masks and numbers) fitting."""
        pair, triple = self.pair, self.triple
        for (_, nums), (other, _) in ((a, b), (b, a)):
            for n in nums:
                if pair.get(n, 0) & other:
                    return True
                for m in triple.get(n, ()):
                    if other & m == m:
                        return True
        return False

    def _fit(self, one: int, *others: int) -> bool:
        """Whether link ``one`` of a route and links ``others`` of another can all be run."""
        key = (one, *others)
        found = self.fits.get(key)
        if found is None and len(others) == 1:
            # two links of different routes (only track can clash): they fit when no track
            # of one is any of the other's, and cannot when both cores share track (#979:
            # the learning was 40 % of the combination's instructions, mostly such CSPs)
            (other,) = others
            if not self.union[one] & self.union[other]:
                found = True
            elif self.core[one] & self.core[other]:
                found = False
            else:
                # some way of one beside some way of the other (a CSP of two links is
                # just this, dearer)
                theirs = [p.track for p in self.ways[other]]
                found = False
                for o in self.ways[one]:
                    ot = o.track
                    for t in theirs:
                        if not ot & t:
                            found = True
                            break
                    if found:
                        break
            self.fits[key] = found
        elif found is None and len(others) == 2:
            # link ``one`` of a route beside two links of the other: when some way of it
            # avoids all the track the two could use, it fits exactly when they fit together
            y, z = others
            near = self.union[y] | self.union[z]
            ways = self.ways
            for o in ways[one]:
                if not o.track & near:
                    found = self.fits[key] = True
                    break
            else:
                found = _fit_beside(ways[one], ways[y], ways[z])
                if found is not None:
                    self.fits[key] = found
        if found is None:
            ways, known = self.ways, self.known
            groups = [(0, ways[one]), *((1, ways[o]) for o in others)]
            found = self.fits[key] = (
                _solve(groups, 0, [known[one], *(known[o] for o in others)]) is not None
            )
        return found

    def quick(self, a: tuple[int, tuple[int, ...]], b: tuple[int, tuple[int, ...]]) -> bool:
        """Whether a reason of routes ``a`` and ``b`` not fitting shows in their links' cores
        alone -- a link of one every way of which runs over the core of one link of the
        other (a pair), or over the cores of two (a triple) -- and if so keep it.  Bit tests,
        so asked before the CSP (#979: 34 of 67 CSPs saved)."""
        core, ways = self.core, self.ways
        for (_, mine), (_, theirs) in ((a, b), (b, a)):
            if not theirs:
                continue
            cores = [core[y] for y in theirs]
            every = 0
            for m in cores:
                every |= m
            for x in mine:
                # per way of x, the links of the other route whose core it runs over
                sets = []
                for o in ways[x]:
                    t = o.track
                    if not t & every:
                        break
                    hit = 0
                    for j, m in enumerate(cores):
                        if t & m:
                            hit |= 1 << j
                    sets.append(hit)
                else:
                    common = -1
                    for hit in sets:
                        common &= hit
                    if common:
                        y = theirs[(common & -common).bit_length() - 1]
                        self.pair[x] = self.pair.get(x, 0) | 1 << y
                        self.pair[y] = self.pair.get(y, 0) | 1 << x
                        return True
                    # two links: one of those the first way runs over, and one every way
                    # that misses it runs over
                    first = sets[0]
                    while first:
                        low = first & -first
                        first ^= low
                        rest = -1
                        for hit in sets:
                            if not hit & low:
                                rest &= hit
                        if rest:
                            y = theirs[low.bit_length() - 1]
                            z = theirs[(rest & -rest).bit_length() - 1]
                            if y != z:  # (one link listed twice would make it a pair)
                                self.triple.setdefault(x, []).append(1 << y | 1 << z)
                                return True
        return False

    def learn(
        self,
        a: tuple[int, tuple[int, ...]],
        b: tuple[int, tuple[int, ...]],
        seen_a: Sequence[int],
        seen_b: Sequence[int],
    ) -> bool:
        """Find and keep a small reason why routes ``a`` and ``b`` cannot fit (if there is one:
        a pair or a triple of their links).  ``seen_a``, ``seen_b``: per link, the track of one
        way of running the route (its witness), which answers most questions that fit: a way
        of a link clear of the other route's witness ways runs beside them, so only the
        questions those ways cannot answer are asked, in the same order (the same reason is
        found; #979: 532 questions of three links asked for 15 reasons)."""
        union = self.union
        for x, sx in zip(a[1], seen_a, strict=True):
            for y, sy in zip(b[1], seen_b, strict=True):
                if sx & sy and not self._fit(x, y):
                    self.pair[x] = self.pair.get(x, 0) | 1 << y
                    self.pair[y] = self.pair.get(y, 0) | 1 << x
                    return True
        ways = self.ways
        for (_, mine), (_, theirs), seen in ((a, b, seen_b), (b, a, seen_a)):
            for x in mine:
                # only links some way of which crosses some way of x can take part (some
                # pair of ways shares track exactly when the unions of their track do)
                near = [(y, s) for y, s in zip(theirs, seen, strict=True) if union[x] & union[y]]
                if len(near) < 2:
                    continue
                # per way of x, the links of ``near`` whose witness way it crosses (a way
                # crossing none runs beside all of them: x is no part of a triple)
                sets = set()
                for o in ways[x]:
                    t = o.track
                    hit = 0
                    for j, (_, s) in enumerate(near):
                        if t & s:
                            hit |= 1 << j
                    if not hit:
                        break
                    sets.add(hit)
                else:
                    for i, (y, _) in enumerate(near):
                        for j in range(i + 1, len(near)):
                            two = 1 << i | 1 << j
                            for h in sets:
                                if not h & two:
                                    break
                            else:
                                if not self._fit(x, y, near[j][0]):
                                    self.triple.setdefault(x, []).append(1 << y | 1 << near[j][0])
                                    return True
        return False
