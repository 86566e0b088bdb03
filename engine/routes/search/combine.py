"""The combination of trains (:func:`_combine`): branch and bound over the candidate lists,
one candidate (or none) per train, track-disjoint, the best total.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence

from ferrovia.board.graph import bit_positions
from ferrovia.routes.search.budget import Work, _OutOfWork
from ferrovia.routes.search.clashes import _clash_sets, _clashing, _Index, _Meet
from ferrovia.routes.search.csp import _core_union_both, _solve
from ferrovia.routes.search.nogoods import _Nogoods
from ferrovia.routes.search.records import _Candidate, _Option, _realise

#: candidates beyond which a list is not indexed for the combination (:func:`_clash_sets`):
#: the sets are ints of a bit per candidate, and building one per track key and stop grows
#: with the list's length times its routes' keys (1858_india p6 seed 2 #2770, 84,485 plain
#: routes: 2.3 s -> 20 s); #979's 1,124 sequences gain, the random 1858 dumps' 4,096 too
_INDEX_AT_MOST = 5000
#: ... and a list is indexed only once this many times its length of candidates were looked
#: at one by one: building the sets costs about as much as looking at each candidate a few
#: dozen times (#979: 45,125 looked at for 1,124, the index paid; random 1858 p6 seed 6
#: #1304: 17,697 for 4,096, it cost three times the combination)
_INDEX_AFTER = 8
#: ... or, for a list of at most this many candidates, as soon as a scan of it says the mark
#: will be passed (:func:`_combine`: its looks times the candidates the train before can
#: still lead a run with; #940, 5E+7E: indexed after 1 scan of 22, 628M -> 607M).  The
#: forecast assumes later scans look at as many as this one, which holds when the run to
#: beat is near the optimum (#979, 1,124 sequences, 690 of 710: indexed after 1 lead
#: sequence instead of 45, 35M instructions less) but not when it rises far (random 1858 p6
#: seed 6 #1304, 4,096 sequences, 580 to 760: the scans shrank from 776 looks to 15, and
#: indexing early cost 150M, 768M -> 918M; #1167, 7E+6E, 953: +37M, 3,910M -> 3,947M)
_INDEX_EARLY_AT_MOST = 2000
_FEW_LEFT = 16  # candidates left above the bar that are tested one by one, not by the index


def _combine(
    lists: list[tuple[str, list[_Candidate]]],
    lower: int,
    incumbent: dict[str, _Candidate],
    meet: _Meet | None = None,
    bound: Callable[[Sequence[str]], int | None] | None = None,
    work: Work | None = None,
) -> dict[str, _Candidate]:
    """Branch and bound: one candidate (or none) per train, track-disjoint, best total.

    ``lists``: each train's candidates, best first (identical trains share one list object);
    ``incumbent``: a known run worth ``lower``.  A sequence candidate (``links`` set) fits the
    run when some way of running it does: the run keeps one realisation of everything taken,
    tries the new sequence against it, and only when that fails solves all the taken
    sequences' links together (:func:`_solve`), so earlier routes may switch ways.  What is
    returned is plain routes.  ``work``: a budget (one unit per candidate tried, and the
    ways of each joint question); when it runs out, the best run found so far.
    """

    def top(lst: list[_Candidate]) -> int:
        return lst[0].revenue if lst else 0

    # best list first; trains sharing a list stay together (twins), in the order given: never
    # by id(), a memory address, which made ties between equal trains differ from run to run
    first: dict[int, int] = {}
    for i, (_, lst) in enumerate(lists):
        first.setdefault(id(lst), i)
    lists = sorted(lists, key=lambda t: (-top(t[1]), first[id(t[1])]))
    n = len(lists)
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + top(lists[i][1])
    if bound is not None:
        # what the trains still to choose can earn together (when known exactly) is a
        # tighter bound than the sum of their best routes
        for i in range(n - 2, 0, -1):
            exact_rest = bound([tid for tid, _ in lists[i:]])
            if exact_rest is not None:
                suffix[i] = min(suffix[i], exact_rest)
    # per train, how many trains right after it share its list (identical trains)
    twins = [0] * (n + 1)
    for i in range(n - 2, -1, -1):
        if lists[i + 1][1] is lists[i][1]:
            twins[i] = twins[i + 1] + 1
    indexes: dict[int, _Index] = {}
    for _, lst in lists:
        if id(lst) not in indexes:
            indexes[id(lst)] = _Index(lst)
    best_total = lower
    best_run: list[_Candidate | None] | None = None
    taken: list[_Candidate | None] = [None] * n  # as listed
    #: as run now: plain routes, or a sequence run by its witness (realised when returned)
    real: list[_Candidate | None] = [None] * n
    joint: dict[tuple[int, ...], list[_Option] | None] = {}
    own: dict[int, list[Sequence[_Option]]] = {}  # a sequence's ways, propagated on their own
    own_known: dict[int, list[tuple[int, int, int, int]]] = {}  # ... their cores and unions
    #: a link's ways (by id, kept alive) -> :func:`_core_union_both`
    link_cu: dict[int, tuple[Sequence[_Option], tuple[int, int, int, int, int, int]]] = {}

    def link_known(opts: Sequence[_Option]) -> tuple[int, int, int, int, int, int]:
        found = link_cu.get(id(opts))
        if found is None:
            found = link_cu[id(opts)] = (opts, _core_union_both(opts))
        return found[1]

    nogoods = _Nogoods()
    blocked: dict[int, dict[int, bool]] = {}  # taken core -> link -> all its ways run over it

    def fit(i: int, c: _Candidate, track: int, core: int) -> list[_Candidate | None] | None:
        """The run's routes (plain) with ``c`` as train i's, or None if ``c`` cannot fit."""
        if c.links is None:
            if not c.mask & track:
                return [*real[:i], c, *real[i + 1 :]]
        elif not c.mask & track:
            # (the sequence stands for its witness's route, whose track is ``c.mask``: made
            # a plain route only if it is in the run returned -- #940: 383 lead sequences)
            return [*real[:i], c, *real[i + 1 :]]
        seqs = [j for j in range(i) if taken[j] is not None and taken[j].links is not None]  # type: ignore[union-attr]
        if not seqs:
            if c.links is None:
                return None  # everything runs one way only: no other realisation to try
            way = _solve([(0, opts) for opts in c.links], track)
            return None if way is None else [*real[:i], _realise(c, way), *real[i + 1 :]]
        others = [j for j in range(i) if taken[j] is not None]
        # cheap proof first: a link of c whose every way runs over the core of what is taken
        # (links recur in many sequences: remembered per taken core)
        if c.links is not None and core:
            memo = blocked.setdefault(core, {})
            for opts in c.links:
                hit = memo.get(id(opts))
                if hit is None:
                    # (a loop, not ``all`` of a generator: resuming it per way costs more)
                    for o in opts:
                        if not o.track & core:
                            hit = memo[id(opts)] = False
                            break
                    else:
                        hit = memo[id(opts)] = True
                if hit:
                    return None
        # ... and, the other way round, a link of a sequence taken whose every way (as
        # propagated on its own) runs over what ``c`` must use (exact searches: a question
        # saved is work a budget would have been charged)
        if work is None:
            c_core = c.core if c.links is not None else c.mask
            for j in seqs:
                t = taken[j]
                assert t is not None
                for d, (ct, _, ut, _) in zip(own_ways(t), own_known[id(t)], strict=True):
                    if ut & c_core:
                        if ct & c_core:
                            return None
                        for o in d:
                            if not o.track & c_core:
                                break
                        else:
                            return None
        # every pair must fit on its own (remembered: the same pairs come back all the time)
        if len(others) > 1 or c.links is None:
            for j in others:
                t = taken[j]
                assert t is not None
                if (t.links is not None or c.links is not None) and together([t, c]) is None:
                    return None
        members = [t for j in others if (t := taken[j]) is not None]
        way = together([*members, c])
        if way is None:
            return None
        out = list(real)
        pos = 0
        for j, t in [*zip(others, members, strict=True), (i, c)]:
            if t.links is not None:
                k = len(t.links)
                out[j] = _realise(t, way[pos : pos + k])
                pos += k
            else:
                out[j] = t
        return out

    #: (a link as listed, the others' cores that cut it) -> its ways left and their cores
    #: and unions: links recur in many sequences beside the same neighbours (#979: 1,143
    #: cuts in 150 sequences, 346 distinct)
    cuts: dict[tuple[int, int], tuple[list[_Option], int, tuple[int, int, int, int]]] = {}

    def own_ways(t: _Candidate) -> list[Sequence[_Option]]:
        """Sequence ``t``'s ways propagated on their own (once per sequence; a settled one
        already is), with their cores and unions in ``own_known``.

        The propagation of :func:`_propagate_one` (track and towns one mask), each cut
        remembered: a link's ways left depend only on the link and what cuts it, and the
        fixpoint is the same whatever order the links are cut in."""
        mine = own.get(id(t))
        if mine is None:
            links = t.links
            assert links is not None
            if t.settled:
                mine = list(links)
                own_known[id(t)] = [nogoods.core_union(d) for d in mine]
            else:
                n = len(links)
                cu = [link_known(x) for x in links]
                doms: list[Sequence[_Option]] = list(links)
                core = [k[4] for k in cu]
                union = [k[5] for k in cu]
                known = [k[:4] for k in cu]
                cut = [0] * n  # what each link was cut by (within its union)
                suffix = [0] * (n + 1)
                changed = True
                while changed:
                    changed = False
                    for i in range(n - 1, -1, -1):
                        suffix[i] = suffix[i + 1] | core[i]
                    prefix = 0
                    for i in range(n):
                        # (cores only grow: what cuts a link now holds what cut it before)
                        m = (prefix | suffix[i + 1]) & union[i]
                        prefix |= core[i]
                        if m == cut[i]:
                            continue
                        cut[i] = m
                        key = (id(links[i]), m)
                        found = cuts.get(key)
                        if found is None:
                            kept = [o for o in doms[i] if not o.both & m]
                            c = -1
                            for o in kept:
                                c &= o.both
                            found = cuts[key] = (
                                kept,
                                c,
                                nogoods.core_union(kept) if kept else (0, 0, 0, 0),
                            )
                        if len(found[0]) < len(doms[i]):
                            if not found[0]:
                                break  # (cannot be run at all: left as listed)
                            doms[i], core[i], known[i] = found
                            changed = True
                    else:
                        continue
                    doms = list(links)
                    known = [k[:4] for k in cu]
                    break
                mine = doms
                own_known[id(t)] = known
            own[id(t)] = mine
        return mine

    #: a sequence taken -> the track every way of running it uses (exact searches)
    grown: dict[int, int] = {}

    def taken_core(t: _Candidate) -> int:
        """The track route ``t`` uses however it runs: for a sequence not settled when
        listed, its core as propagated on its own, which can only be larger than the core
        of its links as listed (exact searches only: the clashes it adds would otherwise be
        charged to a budget as candidates and questions)."""
        if t.links is None:
            return t.mask
        if work is not None or t.settled:
            return t.core
        found = grown.get(id(t))
        if found is None:
            found = t.core
            own_ways(t)
            for k in own_known[id(t)]:
                found |= k[0]
            grown[id(t)] = found
        return found

    def together(group: list[_Candidate]) -> list[_Option] | None:
        """Ways for every link of the sequences in ``group`` so that all of it fits together
        (the plain routes as fixed track), or None."""
        key = tuple(map(id, group))
        if key not in joint:
            if work is not None:  # a joint question: the ways it looks at
                work.charge(sum(len(x) for t in group if t.links is not None for x in t.links))
            fixed = 0
            for t in group:
                if t.links is None:
                    fixed |= t.mask
            if len(group) == 2 and not fixed:
                # two sequences: first what failed questions taught (links that cannot run
                # beside each other), and a new failure teaches its small reason
                ta, tb = group
                a = nogoods.links(id(ta), own_ways(ta))
                b = nogoods.links(id(tb), own_ways(tb))
                # ... and, before the CSP, a small reason looked for (the CSP fails on
                # most pair questions that reach it, and a reason is cheaper to find than
                # the CSP to refute: #979, 18 of 32 failures)
                if (
                    nogoods.refutes(a, b)
                    or nogoods.quick(a, b)
                    or nogoods.learn(
                        a, b, [o.track for o in ta.witness], [o.track for o in tb.witness]
                    )
                ):
                    joint[key] = None
                    return None
            # (the CSP's links set out only now: most pair questions end above)
            links: list[tuple[int, Sequence[_Option]]] = []
            known: list[tuple[int, int, int, int]] = []
            for slot, t in enumerate(group):
                if t.links is not None:
                    links.extend((slot, opts) for opts in own_ways(t))
                    known.extend(own_known[id(t)])
            joint[key] = _solve(links, fixed, known)
        return joint[key]

    meets: dict[int, tuple[int, int, int]] = {}
    three = meet.three if meet is not None else 0
    few = meet.one | meet.two if meet is not None else 0
    uses: dict[int, tuple[tuple[int, int, int], ...]] = {}
    load: dict[int, int] = {}  # chains the routes taken use at each stop with few exits

    partners: dict[tuple[int, int], int] = {}

    def partner(j: int, t: _Candidate) -> int:
        """The revenue of train j's best candidate that can run beside ``t`` (0: none)."""
        key = (j, id(t))
        if key not in partners:
            t_core = t.core if t.links is not None else t.mask
            t_touch, t_through, t_hit = mask_of(t)
            best = 0
            for c in lists[j][1]:
                if c is t and c.links is None:
                    continue  # a plain route cannot run twice
                c_core = c.core if c.links is not None else c.mask
                if c_core & t_core:
                    continue
                c_touch, c_through, c_hit = mask_of(c)
                if c_hit & t_touch or c_touch & t_hit or c_through & t_through & three:
                    continue
                if c.links is None and t.links is None:
                    if c.mask & t.mask:
                        continue
                elif together([t, c]) is None:
                    continue
                best = c.revenue
                break
            partners[key] = best
        return partners[key]

    def mask_of(c: _Candidate) -> tuple[int, int, int]:
        found = meets.get(id(c))
        if found is None:
            found = meets[id(c)] = meet.masks(c) if meet is not None else (0, 0, 0)
        return found

    # the candidates of a list that clash with a route taken by another train, by the two
    # cheap tests (:func:`_clash_sets`)
    users: dict[int, tuple[dict[int, int], ...]] = {}
    looked = {id(lst): 0 for _, lst in lists}  # list -> candidates looked at one by one
    # lists short enough to index -> after how many candidates looked at one by one
    index_after = {
        id(lst): _INDEX_AFTER * len(lst) for _, lst in lists if len(lst) <= _INDEX_AT_MOST
    }
    clashes: dict[tuple[int, int], int] = {}
    #: per list, its revenues negated (ascending, for bisect)
    negated = {id(lst): [-c.revenue for c in lst] for _, lst in lists}
    at = [0] * n  # per train, the position of the candidate it takes now
    # per list, its index's groups (key, members, members as a set of positions: 0 until
    # the list is indexed)
    in_sets: dict[int, list[tuple[int, list[int], int]]] = {}
    out_sets = {
        id(lst): [(key, members, 0) for key, members in indexes[id(lst)].groups] for _, lst in lists
    }

    def clash(lst: list[_Candidate], t: _Candidate) -> int:
        """The positions in ``lst`` of the candidates that cannot run beside ``t`` by the
        core AND or the pigeonhole at stops (remembered per list and route)."""
        key = (id(lst), id(t))
        found = clashes.get(key)
        if found is None:
            found = clashes[key] = _clashing(
                index(lst), t.core if t.links is not None else t.mask, mask_of(t), three
            )
        return found

    grown_clashes: dict[tuple[int, int], int] = {}

    def grown_clash(lst: list[_Candidate], t: _Candidate, extra: int) -> int:
        """The positions in ``lst`` of the candidates whose core meets ``extra``, the track
        sequence ``t`` uses as propagated beyond its core as listed (remembered)."""
        key = (id(lst), id(t))
        found = grown_clashes.get(key)
        if found is None:
            found = grown_clashes[key] = _clashing(index(lst), extra, (0, 0, 0), 0)
        return found

    def index(lst: list[_Candidate]) -> tuple[dict[int, int], ...]:
        """The sets of :func:`_clash_sets` of a list, and its groups as sets of positions."""
        sets = users.get(id(lst))
        if sets is None:
            sets = users[id(lst)] = _clash_sets(lst, mask_of, few, three)
            in_sets[id(lst)] = [
                (key, members, sum(1 << k for k in members))
                for key, members in indexes[id(lst)].groups
            ]
        return sets

    def search(
        i: int, track: int, core: int, total: int, floor: int, touch: int, through: int, hit: int
    ) -> None:
        nonlocal best_total, best_run, real
        if total > best_total:
            best_total = total
            best_run = list(real)
        if i == n or total + suffix[i] <= best_total:
            return
        cands = lists[i][1]
        # identical trains take routes in list order, so each run is tried once (a sequence
        # may be taken by two of them: two routes with the same stops by different ways)
        low = floor if i > 0 and cands is lists[i - 1][1] else 0
        rest = suffix[i + 1]
        if n > 2 and 0 < i < n - 1 and any(t is not None for t in taken[:i]):
            # three or more trains: each train after this one earns at most its best
            # candidate that fits beside each route taken so far (remembered per route)
            most = 0
            for j in range(i + 1, n):
                most += min(partner(j, t) for t in taken[:i] if t is not None)
            rest = min(rest, most)
        # identical trains after this one take candidates from here on: each earns at most
        # what this one does
        after = twins[i]
        beyond = suffix[i + 1 + after]
        # a list indexed (:func:`_clash_sets`) once many of its candidates were looked at
        # one by one: then only the positions that neither come before ``low`` nor clash
        # with a route taken are looked at
        cid = id(cands)
        indexed = cid in users
        counted = not indexed and cid in index_after
        if counted and looked[cid] >= index_after[cid]:
            indexed, counted = True, False
        seen = 0
        open_ = 0
        # the taken sequences' cores as propagated (exact searches): worked out once a
        # candidate passes the bound here (#979: 81 of 160 sequences taken first had none)
        grow = work is None and i > 0
        more = 0  # ... and the positions of the candidates that clash with those
        few_left = False
        if indexed and work is None and i == n - 1:
            # the last train: only the candidates above ``best_total - total`` can improve
            # the run, and when they are few the two cheap tests are made on those alone
            # rather than on the whole list through its index (#940: 106 of 383 leads had
            # 2 left; the same candidates are looked at, in the same order)
            end = bisect.bisect_left(negated[cid], total - best_total)
            if end - low <= _FEW_LEFT:
                few_left = True
                index(cands)
                for k in range(low, end):
                    c = cands[k]
                    if (c.core if c.links is not None else c.mask) & core:
                        continue
                    c_touch, c_through, c_hit = mask_of(c)
                    if c_hit & touch or c_touch & hit or c_through & through & three:
                        continue
                    open_ |= 1 << k
        if indexed and not few_left:
            index(cands)
            open_ = ~((1 << low) - 1)
            for t in taken[:i]:
                if t is not None:
                    open_ &= ~clash(cands, t)
        for key, members, group in in_sets[cid] if indexed else out_sets[cid]:
            if key & core:
                continue
            for k in bit_positions(group & open_) if indexed else members:
                if k < low:
                    continue
                c = cands[k]
                v = c.revenue
                if total + v + min(rest, v * after + beyond) <= best_total:
                    break
                if work is not None:
                    work.charge()  # a candidate tried
                if grow:
                    grow = False
                    for t in taken[:i]:
                        if t is not None and t.links is not None and not t.settled:
                            extra = taken_core(t) & ~t.core
                            core |= extra
                            if few_left and extra:
                                for j in bit_positions(open_):
                                    d = cands[j]
                                    if (d.core if d.links is not None else d.mask) & extra:
                                        more |= 1 << j
                            elif indexed and extra:
                                more |= grown_clash(cands, t, extra)
                if more >> k & 1:
                    continue
                c_core = c.core if c.links is not None else c.mask
                if not indexed:
                    seen += 1
                    if c_core & core:
                        continue  # (this test and the next are what the index answers)
                found = meets.get(id(c))
                if found is None:
                    found = meets[id(c)] = meet.masks(c) if meet is not None else (0, 0, 0)
                c_touch, c_through, c_hit = found
                if not indexed and (c_hit & touch or c_touch & hit or c_through & through & three):
                    continue
                if i >= 2 and meet is not None:
                    # three or more routes: count the chains at each stop with few exits
                    c_uses = uses.get(id(c))
                    if c_uses is None:
                        c_uses = uses[id(c)] = meet.uses(c)
                    if any(load.get(st, 0) + u > cap for st, u, cap in c_uses):
                        continue
                run = fit(i, c, track, core)
                if run is None:
                    continue
                if n > 2 and meet is not None:
                    c_uses = uses.get(id(c))
                    if c_uses is None:
                        c_uses = uses[id(c)] = meet.uses(c)
                    for st, u, _ in c_uses:
                        load[st] = load.get(st, 0) + u
                saved = real
                real = run
                taken[i] = c
                at[i] = k
                new_track = 0
                for r in run:
                    if r is not None:
                        new_track |= r.mask
                search(
                    i + 1,
                    new_track,
                    core | c_core,
                    total + c.revenue,
                    # the next identical train may run this sequence again by other ways
                    k if c.links is not None else k + 1,
                    touch | c_touch,
                    through | c_through,
                    hit | c_hit,
                )
                taken[i] = None
                real = saved
                if n > 2 and meet is not None:
                    for st, u, _ in uses[id(c)]:
                        load[st] -= u
        if counted:
            looked[cid] += seen
            if work is None and seen and i > 0 and len(cands) <= _INDEX_EARLY_AT_MOST:
                # the train before this one will take about as many more candidates as can
                # still lead a run, each followed by a scan like this one, so index now if
                # that many looks will pass the mark anyway (exact searches only: what is
                # looked at one by one is charged to a budget)
                lead = 1 + twins[i - 1]
                need = best_total - suffix[i - 1 + lead]  # what the one before must beat
                ahead = lists[i - 1][1]
                left = bisect.bisect_left(negated[id(ahead)], -(need // lead)) - at[i - 1] - 1
                if looked[cid] + seen * left >= index_after[cid]:
                    looked[cid] = index_after[cid]
        search(i + 1, track, core, total, len(cands), touch, through, hit)  # train stays home

    try:
        search(0, 0, 0, 0, 0, 0, 0, 0)
    except _OutOfWork:
        pass  # the budget ran out: the best run found so far
    search = None  # type: ignore[assignment]  # (a reference cycle: freed now)
    if best_run is None:
        return incumbent
    return {
        lists[i][0]: r if r.links is None else _realise(r, r.witness)
        for i, r in enumerate(best_run)
        if r is not None
    }
