"""Joint questions: can one way be chosen per link so that no track and no town is used
twice?  Propagation of link cores, a greedy pass, then backtracking (:func:`_solve`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ferrovia.routes.search.records import _Option

#: a link's ways in a CSP: a list, or the tuple of the link as listed (never changed in place)
_Dom = TypeVar("_Dom", bound=Sequence[_Option])


def _propagate_one(
    doms: list[_Dom],
    cores: Sequence[int] | None = None,
    unions: Sequence[int] | None = None,
    out_cores: list[int] | None = None,
    cut: Sequence[int] | None = None,
) -> list[_Dom] | None:
    """:func:`_propagate` for the links of one route, where track and towns are one mask
    (``cores``: those of ``doms`` as given, when known; ``unions``: masks holding everything
    each domain uses, so a domain none of whose ways can meet the others' cores is not
    scanned -- a sequence's links propagated before meet a new link's core in a few places
    only; ``out_cores``: filled with the cores at the fixpoint).  The fixpoint is the same
    whatever order domains are cut in, so skipping a scan that would remove nothing changes
    no answer.  ``doms`` is cut in place (a domain cut is replaced, never changed: the
    caller's domains may be shared).  ``cut``: what each domain as given was already cut by
    (no way of it meets that mask; a fixpoint's domains were cut by the others' cores).

    Cores only grow, so a domain is only ever scanned for the bits added since its last
    cut, and not at all when those miss its union (session 11: a new link propagated
    against a fixpoint scans only the links its own core reaches)."""
    n = len(doms)
    core = list(cores) if cores is not None else [0] * n
    seen = list(cut) if cut is not None else [0] * n  # what each domain was last cut by
    dirty = [] if cores is not None else list(range(n))
    union = list(unions) if unions is not None else [-1] * n
    while True:
        for i in dirty:
            if not doms[i]:
                return None
            c = -1
            if union[i] < 0:
                u = 0
                for o in doms[i]:
                    b = o.both
                    c &= b
                    u |= b
                union[i] = u
            else:
                # (a domain cut keeps its union as it was: it still holds every way left,
                # and skipping a scan by it is all it is for)
                for o in doms[i]:
                    c &= o.both
            core[i] = c
        suffix = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            suffix[i] = suffix[i + 1] | core[i]
        prefix = 0
        changed = []
        for i in range(n):
            other = prefix | suffix[i + 1]
            prefix |= core[i]
            # (what cut it before was a part of ``other``: only the new bits can remove ways)
            new = other & ~seen[i]
            if not new:
                continue
            seen[i] = other
            if not new & union[i]:
                continue
            d = doms[i]
            kept = [o for o in d if not o.both & new]
            if len(kept) < len(d):
                if not kept:
                    return None
                changed.append(i)
                doms[i] = kept  # type: ignore[assignment]  # (a list: a ``_Dom`` either way)
        if not changed:
            if out_cores is not None:
                out_cores[:] = core
            return doms
        dirty = changed


def _propagate(
    groups: Sequence[tuple[int, Sequence[_Option]]],
    used: int,
    known: Sequence[tuple[int, int, int, int]] | None = None,
) -> list[list[_Option]] | None:
    """Each link's options that can still be taken, or None when a link has none.

    What every remaining option of a link uses (its *core*) is taken whatever it runs by, so
    no other link may run over it (nor, in the same route, through its towns); removing the
    options that do grows the cores, until nothing changes.  At #979 this alone refutes 701
    of the 715 pairs of routes the combination asks about, in 60 us each.

    ``known``: per link as given, (core track, core stops, union track, union stops) -- the
    unions let a link none of whose ways meets what cuts it go unscanned (the fixpoint is
    the same whatever order links are cut in); ignored with ``used``."""
    slots = [slot for slot, _ in groups]
    if used:
        known = None
    if known is None and not used and len(set(slots)) == 1:
        return _propagate_one([list(opts) for _, opts in groups])
    doms = [[o for o in opts if not o.track & used] if used else list(opts) for _, opts in groups]
    n = len(doms)
    core_t = [0] * n
    core_s = [0] * n
    seen: list[tuple[int, int] | None] = [None] * n  # what each domain was last cut by
    # the track and stops each domain's ways use at all (-1: not known): a domain none of
    # whose ways meets what cuts it is not scanned
    union_t = [-1] * n
    union_s = [-1] * n
    dirty = list(range(n))
    if known is not None:
        # the cores of the domains as given are known: start from them
        for i, (t, st, ut, us) in enumerate(known):
            core_t[i] = t
            core_s[i] = st
            union_t[i] = ut
            union_s[i] = us
        dirty = []
    while True:
        for i in dirty:
            d = doms[i]
            if not d:
                return None
            t = st = -1
            ut = us = 0
            for o in d:
                ot, os_ = o.track, o.stops
                t &= ot
                st &= os_
                ut |= ot
                us |= os_
            core_t[i] = t
            core_s[i] = st
            union_t[i] = ut
            union_s[i] = us
        # the OR of the other links' cores, by prefix and suffix
        suffix = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            suffix[i] = suffix[i + 1] | core_t[i]
        # per route, the stops in one link's core and those in two or more
        once: dict[int, int] = {}
        twice: dict[int, int] = {}
        for i in range(n):
            slot, mine = slots[i], core_s[i]
            had = once.get(slot, 0)
            twice[slot] = twice.get(slot, 0) | (had & mine)
            once[slot] = had | mine
        prefix = 0
        changed = []
        for i in range(n):
            other_t = prefix | suffix[i + 1]
            prefix |= core_t[i]
            slot = slots[i]
            other_s = (once[slot] & ~core_s[i]) | twice[slot]
            if seen[i] == (other_t, other_s):
                continue
            seen[i] = (other_t, other_s)
            if not (other_t & union_t[i] or other_s & union_s[i]):
                continue
            d = doms[i]
            kept = [o for o in d if not (o.track & other_t or o.stops & other_s)]
            if len(kept) < len(d):
                if not kept:
                    return None
                changed.append(i)
                doms[i] = kept
        if not changed:
            return doms
        dirty = changed


def _core_union(ways: Sequence[_Option]) -> tuple[int, int, int, int]:
    """(core track, core stops, union track, union stops) of a link's ways."""
    t = st = -1
    ut = us = 0
    for o in ways:
        t &= o.track
        st &= o.stops
        ut |= o.track
        us |= o.stops
    return t, st, ut, us


def _core_union_both(ways: Sequence[_Option]) -> tuple[int, int, int, int, int, int]:
    """:func:`_core_union`, and the core and union of track and stops in one mask
    (``_Option.both``)."""
    t = st = b = -1
    ut = us = ub = 0
    for o in ways:
        t &= o.track
        st &= o.stops
        b &= o.both
        ut |= o.track
        us |= o.stops
        ub |= o.both
    return t, st, ut, us, b, ub


def _solve(
    groups: Sequence[tuple[int, Sequence[_Option]]],
    used: int = 0,
    known: Sequence[tuple[int, int, int, int]] | None = None,
) -> list[_Option] | None:
    """One option per link, all track-disjoint (and from ``used``), no free stop twice within
    one route (``groups``: (route slot, options) per link); None when there is no such choice.

    Backtracking with forward checking: taking an option removes what it conflicts with from
    the other links, a link left with none fails the branch at once, and the next link is
    always the one with the fewest options left.  A failed branch is remembered by what can
    still matter to its links -- which links are left, and the taken track and stops they
    could touch -- so a choice earlier on that differs only elsewhere (another way through a
    town mesh the rest never reaches) is not tried again.  ``known``: each link's (core
    track, core stops, union track, union stops) as given, when known (see :func:`_propagate`)."""
    doms = _propagate(groups, used, known)
    if doms is None:
        return None
    return _choose([slot for slot, _ in groups], doms, used)


def _choose(slots: Sequence[int], doms: Sequence[list[_Option]], used: int) -> list[_Option] | None:
    """The backtracking of :func:`_solve` on domains already propagated."""
    n = len(doms)
    # most questions that pass propagation have an answer a greedy pass finds (fewest
    # options first, each link its first option that fits)
    picked: list[_Option | None] = [None] * n
    track = used
    taken_s: dict[int, int] = {}
    for i in sorted(range(n), key=lambda x: len(doms[x])):
        ss = taken_s.get(slots[i], 0)
        o = next((x for x in doms[i] if not (x.track & track or x.stops & ss)), None)
        if o is None:
            break
        picked[i] = o
        track |= o.track
        taken_s[slots[i]] = ss | o.stops
    else:
        return [o for o in picked if o is not None]
    live: list[tuple[int, list[_Option]]] = []
    union_t = [0] * n
    union_s = [0] * n
    union_b = [0] * n
    for i, dom in enumerate(doms):
        t = st = b = 0
        for o in dom:
            t |= o.track
            st |= o.stops
            b |= o.both
        union_t[i], union_s[i], union_b[i] = t, st, b
        live.append((i, dom))
    choice: list[_Option | None] = [None] * n
    failed: set[tuple[object, ...]] = set()

    def search(live: list[tuple[int, list[_Option]]], track: int, taken_s: int) -> bool:
        if not live:
            return True
        # what the links left could ever touch: the unions of their domains as given, not as
        # cut down now -- the cut-down domains depend on taken track outside them, and a key
        # on those let a branch whose links had lost ways refute a later one where they had
        # not (links {1,1,2}, {1,1,2}, {1,4}: taking 1 for the third failed, and then 4 was
        # refuted by the same key)
        rel_t = rel_s = 0
        for i, _ in live:
            rel_t |= union_t[i]
            rel_s |= union_s[i]
        # stops only clash within a route: key them by slot
        key: tuple[object, ...] = (
            tuple(i for i, _ in live),
            track & rel_t,
            tuple(sorted(s for s in slot_taken.items() if s[1] & rel_s)),
        )
        if key in failed:
            return False
        k = min(range(len(live)), key=lambda x: len(live[x][1]))
        pick, dom = live[k]
        rest = live[:k] + live[k + 1 :]
        slot = slots[pick]
        before = slot_taken.get(slot, 0)
        for o in dom:
            nxt = []
            ob, ot = o.both, o.track
            for j, dj in rest:
                # (a link the option cannot touch keeps its ways: no scan; #979: most of
                # the search's filtering)
                if slots[j] == slot:
                    f = [x for x in dj if not x.both & ob] if ob & union_b[j] else dj
                else:
                    f = [x for x in dj if not x.track & ot] if ot & union_t[j] else dj
                if not f:
                    break
                nxt.append((j, f))
            else:
                choice[pick] = o
                slot_taken[slot] = before | o.stops
                ok = search(nxt, track | o.track, taken_s)
                slot_taken[slot] = before
                if ok:
                    return True
        failed.add(key)
        return False

    slot_taken: dict[int, int] = {}
    found = search(live, used, 0)
    search = None  # type: ignore[assignment]  # a recursive closure is a reference cycle
    if not found:
        return None
    return [o for o in choice if o is not None]


def _choose_route(doms: Sequence[Sequence[_Option]]) -> list[_Option] | None:
    """:func:`_choose` for the links of one route (every slot 0, nothing used): track and
    towns are one mask (``_Option.both``), so a failed branch is keyed by one int.  The same
    greedy pass, the same branches in the same order, the same answer."""
    found = _greedy_route(doms)
    return found if found is not None else _search_route(doms)


def _greedy_route(doms: Sequence[Sequence[_Option]]) -> list[_Option] | None:
    """The greedy pass of :func:`_choose_route` (None: it found no choice)."""
    n = len(doms)
    picked: list[_Option | None] = [None] * n
    taken = 0
    # (fewest ways first; a stable sort, keyed without a Python call per link)
    for i in sorted(range(n), key=[len(d) for d in doms].__getitem__):
        for x in doms[i]:
            if not x.both & taken:
                picked[i] = x
                taken |= x.both
                break
        else:
            return None
    return [o for o in picked if o is not None]


def _search_route(doms: Sequence[Sequence[_Option]]) -> list[_Option] | None:
    """The backtracking of :func:`_choose_route`."""
    n = len(doms)
    union = []
    for dom in doms:
        b = 0
        for o in dom:
            b |= o.both
        union.append(b)
    choice: list[_Option | None] = [None] * n
    failed: set[tuple[int, int]] = set()

    def search(live: list[tuple[int, Sequence[_Option]]], taken: int) -> bool:
        if not live:
            return True
        # (the key of :func:`_choose`: which links are left, and what is taken that the
        # unions of their domains as given could touch)
        # (and the first link with the fewest ways left, as ``min`` would find it, in the
        # same loop)
        rel = 0
        ids = 0
        k = x = 0
        least = -1
        for i, d in live:
            rel |= union[i]
            ids |= 1 << i
            if least < 0 or len(d) < least:
                k = x
                least = len(d)
            x += 1
        key = (ids, taken & rel)
        if key in failed:
            return False
        pick, dom = live[k]
        rest = live[:k] + live[k + 1 :]
        for o in dom:
            nxt = []
            ob = o.both
            for j, dj in rest:
                f = [x for x in dj if not x.both & ob] if ob & union[j] else dj
                if not f:
                    break
                nxt.append((j, f))
            else:
                choice[pick] = o
                if search(nxt, taken | ob):
                    return True
        failed.add(key)
        return False

    found = search(list(enumerate(doms)), 0)
    search = None  # type: ignore[assignment]  # a recursive closure is a reference cycle
    if not found:
        return None
    return [o for o in choice if o is not None]


def _fit_three(xs: Sequence[_Option], ys: Sequence[_Option], zs: Sequence[_Option]) -> bool:
    """Some way of each of three links, all disjoint (track and towns): what
    :func:`_choose_route` answers of them, without its search's set-up (a trio's question:
    #979 asks 283)."""
    if len(ys) < len(xs):
        xs, ys = ys, xs
    if len(zs) < len(xs):
        xs, zs = zs, xs
    y_all = [o.both for o in ys]
    z_all = [o.both for o in zs]
    uy = uz = 0
    for y in y_all:
        uy |= y
    for z in z_all:
        uz |= z
    for x in xs:
        xb = x.both
        # (the ways of the other two clear of x; all of them when x misses their union)
        y_left = [y for y in y_all if not y & xb] if xb & uy else y_all
        if not y_left:
            continue
        z_left = [z for z in z_all if not z & xb] if xb & uz else z_all
        if len(z_left) > len(y_left):
            y_left, z_left = z_left, y_left  # (the fewer ways outside)
        # (a way of z clear of every y left fits any of them; one that meets the track
        # every y left uses fits none)
        u = 0
        c = -1
        for y in y_left:
            u |= y
            c &= y
        for z in z_left:
            if not z & u:
                return True
            if z & c:
                continue
            for y in y_left:
                if not y & z:
                    return True
    return False


_BESIDE_PAIRS = 4096  # pairs of ways a question of three links scans before a CSP


def _fit_beside(xs: Sequence[_Option], ys: Sequence[_Option], zs: Sequence[_Option]) -> bool | None:
    """Whether some way of one route's link (``xs``) runs beside some ways of two links of
    another route (``ys``, ``zs``, which must also fit each other, towns included), scanned
    way by way of ``xs`` with the ways of the two it leaves; None when that scan would pass
    :data:`_BESIDE_PAIRS` pairs (then a CSP answers).  Most such questions fit, and the first
    way or two of ``xs`` show it: cheaper than setting up the CSP (#979: 482 of 814 questions
    of three links went to it)."""
    left = _BESIDE_PAIRS
    for o in xs:
        ot = o.track
        theirs: list[int] | None = None
        for p in ys:
            if p.track & ot:
                continue
            if theirs is None:
                # (built for the first way of ``ys`` beside ``o`` only: the first pair
                # usually fits)
                theirs = [q.both for q in zs if not q.track & ot]
                if not theirs:
                    break
            left -= len(theirs)
            if left < 0:
                return None
            pb = p.both
            for qb in theirs:
                if not pb & qb:
                    return True
    return False
