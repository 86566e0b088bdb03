"""The best routes of a company: an exact search for the highest-earning run.

It reads what :mod:`ferrovia.routes.value` reads (track graph, station tokens, train specs, the
phase's colours) and values routes by its rules (:func:`ferrovia.routes.value.route_revenue` is the
reference every shortcut here is tested against).

Algorithm (issue #6)
--------------------
:func:`best_routes` is exact: it returns a combination of routes, at most one per train, whose
total revenue no legal combination beats.  The algorithm:

1. *Chains.*  For each gauge family the trains need, every chain leaving every stop the
   company reaches (:func:`ferrovia.board.graph.reachable`) is enumerated once; each carries a
   bitmask
   of its track keys (numbered across both families, so masks of broad and metre routes
   compare) -- track-disjointness is one AND.
2. *Routes of one train* (:class:`_Enumerator`): depth-first from every stop, extending at the
   tail by a chain on unused track to a new stop, passing only through stops that do not block
   the company.  A route is kept in one direction only (first stop id below the last).  Cuts,
   each of which can only remove routes that are illegal or can never be needed:
   the distance limit (hex sides, or visits of the one row with a real limit); France once; a
   partial route without the company's token that cannot reach one within the distance left
   (precomputed fewest-units distances); the *bound* -- value so far plus the best values of
   unvisited paying stops still reachable within the distance left, at most one of them a stop
   a route can only end at (blocking, or one way out) -- below the threshold; and an end stop
   that scores nothing for this train (a town for an E train) unless the route has two stops:
   dropping that end gives a legal route with the same revenue on less track, which is at
   least as good in every combination.  For an M train the free part of the bound (towns in
   reach) is summed once per tail by distance (:meth:`_Enumerator.free_sums`).
3. *Sequences* (:class:`_LinkEnumerator`, E and D trains: towns pay nothing, count nothing and
   hold no station, so they are passed *for free*).  A town mesh gives dozens of ways between
   two cities, and every combination of ways was its own route: 71,906 routes for 221 stop
   sequences at 1858_game_end_bank #979.  Instead the walk goes from paying stop to paying stop
   by *links*, each the set of its ways (:class:`_Option`: track, towns passed), and keeps a
   sequence while one way per link can be chosen with no track and no town twice
   (:func:`_solve`).  It carries one such choice, extends it when the next link has a way that
   fits, and otherwise first tries cheap proofs (every way of the new link runs over the
   sequence's core -- the track all ways of a link use; a link that cannot run beside one of
   the earlier ones, remembered) and then the CSP.  The CSP (:func:`_solve`): *propagation*
   removes from each link the ways that run over the other links' cores, until nothing
   changes (:func:`_propagate`; it alone refutes 701 of the 715 joint questions at #979, in
   ~60 us each); a greedy pass; then backtracking with forward checking on the link with the
   fewest ways, failed branches remembered by what their links can still touch.  Answers are
   remembered by the *set* of links, so a sequence asks once whatever order its links came in
   (a budgeted search walks it from both ends), and between the runs of one search (best
   route, greedy, candidate list).  An exact search walks each sequence once, from its best
   stop growing one end and then the other (session 10, below).  A failed question
   teaches its small reason when it has one: three links that cannot run in one route (pairs
   are ruled out before), refuted by a set lookup in every later sequence holding them (7E+7E
   at random 1858 p6 seed 7: 997 within-route refutations by CSP down to 204).  A longer
   sequence is bounded *before* its ways are looked at: besides the bound of step 2, a
   *path bound* (:meth:`_LinkEnumerator._walks`): the most a walk from link to link that
   never turns straight back can add with the units left (stops may repeat, so an upper
   bound; it sees that a tail among poor stops cannot reach rich ones far away).
4. *Revenue*: with per-stop values (H, M, E, D trains: every visited stop of a paying kind
   scores) it is summed as the route grows, halved for a wounded train; any other train, or a
   route over a terminal path, is valued by :func:`route_revenue` itself.  The property tests
   compare the search with a brute force that values every route by :func:`route_revenue`
   (``tests/test_routes_search.py``, and town meshes in ``tests/test_routes_links.py``, which
   also checks the CSP against trying every choice).
5. *Bounds for the run* (:class:`_RunSearch`): each train's best single route ``single``, and a
   greedy run (each train in turn its best route on the track left; every order of the train
   kinds) worth ``lower``; with three or more trains also, for each kind, the exact optimum of
   the other trains (the same search on the subset) plus this train's best route beside it.
   If ``lower`` is the sum of the ``single`` values the greedy run is optimal and we stop.
   Two identical trains also start the greedy run from up to 8 of their best routes
   (:meth:`_RunSearch._twin_starts`): the best route often takes the best pair's track.
6. *Candidates*: a route of train i can only be in a run worth more than ``lower`` if its revenue
   is above ``lower`` minus what the other trains can earn (their exact optimum with two or
   more of them, else their best route); exactly those routes (or sequences) are listed, best
   first; identical trains share one list.  Two identical trains over sequences also skip,
   while listing, a sequence whose partner would have to be among the routes the twin starts
   listed (every route above a floor; the sequence's bound leaves the partner at least the
   floor) when none of those worth enough avoids its core (7E+7E at random 1858 p6 seed 20
   #1219, greedy run already optimal: 1,753 sequences >= 381 listed -> 694, 0.77-0.90 s ->
   0.59-0.60 s alternating old and new code; the other 7E+7E dumps unchanged within noise).
7. *Combination* (:func:`_combine`): branch and bound over the trains (best first), each taking
   one candidate that fits with those taken, or none; a branch is cut when its total plus what
   the remaining trains can earn (the sum of their best candidates, or their exact optimum)
   cannot beat the best run found (which starts as the greedy run).  Identical trains take
   candidates in list order, so each run is tried once (a sequence may be taken twice: two
   routes with the same stops by different ways).  Before any CSP, a candidate is refuted by
   one AND when its core meets the taken cores, by the *pigeonhole at stops* (:class:`_Meet`:
   the chains routes use at a stop cannot outnumber its exits; for two routes at stops of 1-3
   exits this is three ANDs of stop masks -- at #979 it settles 33,274 of 71,994 pairs above
   the optimum, the cores 38,207, leaving 513 for the CSP), or by a link of it whose every way
   runs over the taken core.  Both first tests are tests of two routes, so once a list's
   candidates have been looked at one by one eight times over (:data:`_INDEX_AFTER`; lists
   of at most 5,000) the list is *indexed* (:func:`_clash_sets`): per track key and per stop
   of few exits the set of its candidates (bits of an int) whose core uses it, or that
   touch, pass or conflict there, so the candidates that clash with the routes taken are an
   OR of a few dozen ints and only the others are looked at (session 8).  A failed pair's
   reason is looked for with exact shortcuts before any CSP (link unions apart: fits; cores
   crossing: cannot; else a scan of way pairs; :meth:`_Nogoods._fit`).  A sequence fits
   when the run's current realisation leaves it a
   way; otherwise all taken sequences and it are solved together (each pair first, then all;
   remembered), so earlier routes may switch ways.  A pair of sequences that fails teaches
   its small reason (:class:`_Nogoods`: a link of one against a link, or two links, of the
   other), refuted next time by ANDs of link masks (6E+7E at random-s108-p6 #1249: 5,062
   failed pairs had 329 reasons); a reason the links' cores show is looked for before
   the CSP, which it then saves.  Identical trains bound each other: those after a train take
   its candidates or later ones, so each earns at most what it takes.  What is returned is
   plain routes.
8. *Two plain trains* (:func:`_pair_search`, when the lists of step 6 pass 200,000 and no
   train runs by sequences; combining two plain lists is fast, 20,499 routes in 0.1 s): for
   each route r1 of the first train, best first, the second train's best route on the track
   r1 leaves is found by the single-train search itself.

Caching: per call, chains once per gauge family, one enumerator per distinct train spec (its
distance tables computed lazily, once per stop; its ways, cores and solved sequences per
avoided track), each train's best route and each subset's optimum.  Between calls, the
latest 64 results by everything a search reads (:func:`_map_inputs`: the company's chains in
walk order, the stops they touch with whether they hold its station and whether they block
it, their paths, the trains, phase and rules): late in a game a company's part of the map
often stands still while others build elsewhere (random 1858 p6 seed 20: 21 of 86 searches
repeated one exactly).  And the work of the latest 16 maps (:class:`_MapWork`: the same
key without the trains): a search on the map of an earlier one with other trains (one
bought, one rusted) reuses its chain sets, enumerators and best routes, and one on the same
chains under other stations or values reuses the links of its town meshes with every
answer about their ways (session 7, random 1858 p6 seed 20: company A ran 7E+6E, 7E, then
7E+7E on the same chains; #1219 took 0.69 s cold, 0.27 s after the others, min of 3 in game
order: most of a cold search is working out which town ways fit).

Cost (session 4, CPU time on the shared 2-core machine at a load average of 8-11, which
inflates it: the four 18xx.games games' 299 turns take a median 3.3 ms and at most 0.30 s
(#979), against 3.1 ms and 0.40 s for the session-3 code in the same conditions; the random
reference games' worst turns, 5E+6E+7E and 6E+7E, from 0.83 and 0.46 s to 0.48 and
0.23 s).  What is still slow: two M trains in a metre town mesh (towns pay and do not count,
so tens of thousands of routes are within reach of the optimum and the single best route
alone costs 0.15 s; random 1858 India p6 seed 2: 6M+6M up to 38 s), and 7E+7E over a dense
mesh (0.5 s).  Session 5: India p6 seed 2's 6M+6M at most 2.7 s (84,485 routes of 91 or
more, every way through the towns its own route: what remains is grouping town paths for M
trains as for E trains), 7E+7E 0.2-1.1 s (proving a greedy run optimal needs every route
within 60 of the best: 1,753 sequences).  Later in session 5 (min of 5 runs, CPU, load 3-4):
#1219 0.89-0.90 s -> 0.66-0.73 s with the twins' partner cut of step 6 (694 sequences
listed); 6M+6M unchanged (#2770 ~2 s: 0.5 s for the best route, 1.0 s listing 84,485
routes, 0.3 s combining; at #2786 36,962 routes >= 181): the twin starts' list is over
its budget there, and most M routes are worth over half a run, so only grouping town
paths can help.  The cyclic collector is paused while a search
runs (``_collector_paused``).

Session 2 figures (``tools/bench/bench_routes.py``, 299 company turns of the four 18xx.games
games, 2 cores, every turn exact): total 1.7-2.0 s, median 1.7-1.8 ms, worst 150-180 ms
(#979: A, two 7E, optimum 710; it took 416 s with plain routes and a pair search, 33 s with
the pair search tuned), no turn over 200 ms. Cost grows with the stops the company reaches
(median 0.3 ms under 10 stops, 1 ms at 20-29, 4-5 ms at 40-59) and with two long trains
rather than one (median 1.2 ms one train, 2.3 ms two). On the 8 random reference games
(1,167 turns): median 1.3 ms, worst 0.4-0.5 s (three E trains, or 6E+7E: joint questions
that pass propagation dominate), 5 turns over 200 ms. ``limit`` bounds the candidate lists
for callers that only need a good legal run (``exact=False`` then).

Measured and not kept: iterative deepening on the target (the optimum is close to the greedy
run, so every level was searched in vain); bounding the trains still to choose by their best
route avoiding the taken route's busiest keys (cut nothing at #979); arc consistency and
propagation at every backtracking step (dearer than the branches they cut); starting the
greedy run from each of the first train's 4-12 best routes (#979: lower 650 -> 690 of 710,
but dearer than the shorter lists saved).  Session 6 (random-game dumps, CPU):

- an M train's town paths grouped into links as an E train's are, by what their towns pay
  (one class of ways per value, so a sequence's revenue stays fixed; a paying town may end
  a link): at 1858 India p6 seed 2 #2770 the metre mesh's 285 ways fell into 251 classes
  (two ways past the same number of towns are rare there), 84,485 routes became 58,771
  sequences, and the search went from 2.3 to 7.3 s.  Those routes are many because the
  bound cannot see that a path collects only the towns along it (every town in reach
  counts): 58,203 routes reach 316, the least the better route of a run above the optimum
  630 must earn, so no pairing argument over listed routes helps either;
- two identical trains listed in two parts, every route of at least half the target, then
  the rest only while one of those avoids its core and does not meet it at a stop with too
  few exits (:class:`_Meet`): at #1219 144 + 0 sequences instead of 694, but the second
  list walks 5,413 sequences to list none (the cut bites 4-6 stops deep) and the search
  went 0.67 -> 0.70 s (random 1858 p6 seed 7's 7E+7E: 0.19-0.23 -> 0.22-0.29 s);
- the answers about links shared between runs avoiding different track (a twin start's
  partner search): unchanged, those searches take 2-17 ms.

Where #1219 (7E+7E, greedy run optimal, 0.6-0.7 s) spends its time: the best route 0.10 s,
the twin starts 0.17 s (34 routes >= 430 listed, 8 partner searches), the list of 694
sequences 0.35-0.45 s; in a list the CSPs (propagation and backtracking on ways, cold)
are half the time: the same list run again takes 0.17-0.20 s.  Session 7: without the
partner cut the 1,753 sequences >= 381 take 0.61 s cold and 0.16 s warm (so a search after
another on the same chains, :class:`_MapWork`, is at 0.27 s), and the 7E+6E search before it
(#1167) is the worst in that game (0.50-0.57 s, cold).

Session 7, measured on the dumps (CPU, min of 2-3) and not kept:

- a bound on a pair from one track key: at most one of two routes uses key k, so a pair
  earns at most the best route plus the best route avoiding k.  Tried with each key of the
  best route (40-70 keys) on the 16 1858 dumps and 6 India 6M+6M ones: for most keys
  another route earns as much or within 10-30 (town meshes offer many near-equal routes),
  the bound reached the greedy run at three searches only, and each avoiding search cost
  20-650 ms;
- the better route of a twin pair from a list (every route of at least half the target) and
  the best partner avoiding its core: 104 of 144 found one at #1219 (a sequence's core is
  small in a town mesh), 14 s;
- M trains: the free part of the bound over only the stops reachable from the tail on
  unused track through unvisited stops within the units left (a bucketed search per node):
  at 1858_india p6 seed 2 #2770 the best route's search went from 248,888 bounds to 84,761
  but from 0.62-0.74 s to 1.24-1.49 s, and no limit on depth (2-6) or slack (50-200) made it
  faster: the cut subtrees are small.  That search finds its best route (460) after 7,113
  bounds; the rest proves nothing beats it (starting at 460 saves nothing);
- two different trains over sequences (7E+6E): the lesser one's full list as the other's
  partners (then the cut applies at every node): #1167 listed 101 7E sequences instead of
  604 but took 0.65 s instead of 0.57 s (#1381, 6E+7E: 0.25 -> 0.34 s), up to 1,192
  partners checked per node;
- in the CSP, a link kept whole without a scan when its ways miss the other links' cores,
  and no trio learning: within noise, or slower.

Session 8 (#979, the one fixture turn over 200 ms; callgrind instructions of one cold
search, which repeat exactly where CPU time on the shared machine moved +-30 %): #979
2,297M -> 1,845M (its combination 882M -> 572M, the list 834M -> 730M), #940 1,062M ->
866M, #987 1,019M -> 928M, random 1858 p6 seed 20 #1167 4,693M -> 4,585M and #1219 5,116M
-> 4,999M (those two are listing: 7E+6E and 7E+7E).  ``bench_routes`` CPU, alternating
with the old code at load 0.8-4: #979 0.21-0.33 s (old 0.36-0.42 s); the dump of #979
alone, min of 5 cold, three alternations: 265-270 ms (old 327-392 ms).  What is left at #979:
the list ~40 % (1,124 sequences; ~12,700 neighbours looked at, every bound computed
passes), the combination ~30 % (522 pair questions: 417 refuted by learnt reasons, 105
CSPs, 103 learnings), the twin starts and best route ~25 %.  Measured and not kept:

- the combination's index built for every list at once: #979's combination 698M -> 626M,
  but random 1858 p6 seed 6 #1304 (4,096 candidates, each looked at 4 times) 281M -> 795M
  and 1858_india p6 seed 2 #2770 (84,485 plain routes) 2.3 s -> 20 s: hence the index only
  after eight looks per candidate, and never beyond 5,000;
- the index's bit positions read from the binary string (``bin``) rather than by lowest
  bit: 181M -> 200M;
- no learning of failed pairs' reasons at all: #979's combination 619M -> 588M (the
  reasons refute 417 of 522 questions, but finding them cost as much as the CSPs they
  save), kept for 6E+7E at random-s108-p6 #1249, where 5,062 failures had 329 reasons;
- the listing's bound (:func:`_bound`) never cuts at #979's list (6,851 calls, 6,851 pass,
  after the path bound), but its value is what the twins' partner cut reads: kept.

Session 9 (#979 again, callgrind instructions of one cold search; every change below gives
the same totals, routes, chains and candidate counts, exact and budgeted, on #979 and the 26
random-game dumps of session 7): 1,817M -> 1,451M; CPU, min of 7 cold alternating with the
old code, load ~2.4: 192 -> 162 ms.

- Joint questions skip the links that cannot be cut: a link none of whose ways (its
  *union*, of the link as listed: a superset of its ways left) meets what cuts it is not
  scanned, in propagation and in :func:`_choose`'s forward check.  A sequence's new link is
  propagated against its prefix's fixpoint with the prefix's cores known (each sibling's
  question had re-derived them); the combination's pair questions start from each
  sequence's cores and unions, worked out once per sequence -- one whose links were
  propagated when it was listed is *settled* and not propagated again -- and learnt trios
  and nogood questions from their links' known cores.  Propagation has one fixpoint
  whatever order links are cut in, so every answer is the same.  (Session 7 tried a scan
  skipped when the ways miss the others' cores, unions worked out per question: noise.)
- The lower-end cut: a sequence is kept from its lower end, but the walk reaches it from
  both (#979's list: 2,934 nodes for 1,124 sequences; 1,103 nodes had the tail below the
  first stop and nothing kept below).  Below such a tail only a sequence ending above the
  first stop can be kept, so the tail is not entered when no stop above the first is off
  the route and within the units left, nor reachable from it off the route (list: 2,934 ->
  ~2,400 nodes).  Exact searches only: a budgeted search counts the nodes it walks, and its
  answers stay those of the full walk.
- The listing's bound reads each stop's paying stops cut to the units left, once per (stop,
  units), inline.

Measured and not kept:

- a better incumbent before listing: the listing already reads the twin starts' 690 (the
  greedy run and the budgeted search both find 650); the optimum 710 itself would list the
  sequences >= 271 instead of >= 251, 110 of 1,124 fewer, so no cheap incumbent can help much;
- the value of the end below a reversed tail (the end is a stop above the first: at most
  its value plus the best left - 1 others): 14 more tails cut at #979;
- bitsets of which ways of a link fit beside each option, for :func:`_choose`'s forward
  check: at #979 an (option, link) filter is asked 1.36 times on average (12,443 filters,
  9,120 distinct), so working the answers out once does not pay.

What is left at #979 (Python line events, as a proxy): the list 42 % (2,491 nodes, of which
915 have the tail below the first stop and nothing kept below: only growing sequences from
both ends would skip those), the combination 26 %, the best route 12 %, the twin starts'
list 12 % (a subset of the list's walk, needed first for its threshold) and their partner
searches 5 %.

Session 10, the walk: an exact search walks each sequence once
(:meth:`_LinkEnumerator.run`).  Its
*root* is its first stop in :attr:`_LinkEnumerator.roots` (best value first, the order the
walk always started in); from a root the walk enters only stops after it (a root, once
walked, is out of the later walks), grows one end (phase 1) and at each node first turns the
route round once to grow the other end from the root (phase 2), whose first step goes to a stop of
higher id than the root's first neighbour: each sequence once, kept from its lower end as
before (turned round when recorded).  In phase 1 both ends may still grow, so a child's
bounds read both: the path bound is the best split of the units left between the walks from
the new tail and from the root (first step after the root and above its first neighbour,
``arm_rows``); the bound of the stops in reach counts those of either end, at most two of
them stops a route can only end at; the station may be reached from either end.  The turn is
skipped when the root's side cannot reach the need.  The lower-end cut of session 9 is gone
(no prefix is reversed now).  What the walk from both ends returned is kept where it is
cheap: of several best routes of one revenue, ``best_only`` keeps the one that walk found
first (it then explores ties: need = best, not best + 1), and a list is sorted into that
walk's order (by first stop in ``roots``, then each stop's place among its neighbours), so
the greedy run, the thresholds and the order of equal candidates stay as they were.
Budgeted searches keep the walk from both ends and its work (the 47 dumps below, run with
their budget: same routes, flags and candidates).  Callgrind instructions of one cold
search: #979 1,451.6M -> 1,264.9M (-12.9 %; walk nodes: best route 309 -> 282, partner
searches 326 -> 303, twin starts' list 497 -> 390, list 2,308 -> 1,762 of which 255 keep
nothing); #940 716.5M -> 668.8M; #987 714.1M -> 631.7M; random 1858 p6 seed 20 #1219
(7E+7E) 4,409M -> 2,265M (list 8,175 -> 4,004 nodes, twin starts' list 2,232 -> 1,155).
(Turning before growing the first end rather than after: #979 1,268.9M -> 1,264.9M,
#940 673.4M -> 668.8M, #987 636.2M -> 631.7M, #1219 2,257M -> 2,265M.)
The 47 dumps of /tmp/s10 (4 fixture turns, 43 budget-stopped searches run exact): the same
totals, flags and routes everywhere; CPU 11.6 s -> 7.4 s; candidates differ at random 1858
p6 seed 6 only (4,087 -> 2,537, 3,672 -> 2,251: a partner search returns another route of
the same revenue, and the greedy run is better).  #979 alone (min of 9 cold, alternating
twice, load ~7): 220-221 ms -> 190-204 ms.  Measured and not kept: the lowest stop id as root
(the same walk otherwise: #979 1,377M, no root is cut whole by the bound of the stops after
it); without the tie rule and the sort, 1,273.7M at #979 but thresholds moved by ties
(#940's list >= 151 instead of >= 191, 1,709 candidates instead of 1,353); the second end's
first step ordered by the roots' order rather than by id, either way (line events of #979's
search 3.44M and 3.46M against 3.33M); per-root path-bound tables over the stops after the
root (twin starts' list 531 -> 493 nodes, but 3.38M line events: the tables cost more); a
one-step look-ahead of the path bound off the route in phase 2 (cut no node: the nodes that
keep nothing fail on their ways).

Session 10, the combination (two identical trains, #979; callgrind instructions of one cold
search, every change giving the same totals, routes and candidate counts on the 47
dumps of session 10, exact and budgeted): 1,452M -> 1,269M (#940 717M -> 607M, #987 714M ->
625M, random 1858 p6 seed 6 #1304 774M -> 767M; seed 20 #1219 4,409M -> 4,435M and #1167
3,881M -> 3,947M, +0.6 and +1.7 %).

- A list is indexed as soon as a scan of it forecasts the mark will be passed
  (:data:`_INDEX_EARLY_AT_MOST`): at #979 the twins' list was built after 45 of 225 lead
  sequences, which had looked at 9,129 candidates one by one; the other 176 at 744.
- A taken sequence that was not settled when listed clashes by its core as propagated on
  its own (the track every way of running it uses), worked out once a candidate passes the
  bound beside it (81 of 160 such sequences at #979 had none): the index, the group skip
  and the blocked-link proof then refute more pairs before any joint question (522 -> 235
  questions, 103 -> 81 learnt reasons).  And the other way round: a link of a taken
  sequence (as propagated) whose every way runs over the candidate's core refutes it
  before any question (47 more at #979; 1,281M -> 1,269M).  Exact searches only.
- The index's sets are a transposed bit matrix (:func:`_columns`, as text: 15 -> 3 ms).
- A learnt reason's question of three links scans way by way (:func:`_fit_beside`) before
  a CSP: most such questions fit, and the first ways show it (482 CSPs at #979; 1,320M ->
  1,295M with a scan of at most 512 pairs of ways, 1,285M with 4,096, the same unbounded).

Measured and not kept: no triple reasons at all (#979 -20M, random 1858 p6 seed 6 #1304
+31M); skipping, in the search for a triple reason, the link pairs some way of the third
link is clear of, by bitmasks of its ways per link (+9M: most of those questions were
remembered answers); the index's forecast for lists of any length (#1304, 4,096
sequences: 768M -> 918M, the scans shrank as the run to beat rose from 580 to 760).
Starting the best route's walk at a higher threshold saves little (#979: 22 ms from 1, 21
from 400, 15 from 430): most of it proves that nothing beats 440, and the twin starts'
list walks that again.

Both together (session 10's walk and combination, callgrind, one cold search): #979
1,451.6M -> 1,088.4M (-25 %), #940 716.5M -> 563.3M, #987 714.1M -> 545.8M.  Measured and not
kept: the listing's trio question (``learn_trio``) scanned way by way before its CSP, as
the combination's is: #979 1,090M -> 1,142M (those trios fail, or their ways are many).
Also measured this session and not kept: track keys merged by the chains that use them (one
bit per class of keys: #979's masks 208 -> 121 bits, no change in CPU: the cost is the
interpreter's, not the ints'); no trio learning in the listing (#979 1,267M -> 1,227M, but
random 1858 p6 seed 7 #1869 1,765M -> 2,214M and #1720 2,561M -> 3,050M); a lower floor for
the twin starts' list (_START_PART 4 or 2: that list 23 -> 52/75 ms, the main list 87 ->
69/49 ms, net slower).

Session 11, the listing's joint questions (#979's main list: 3,321 extensions reach the way
check, 2,056 do not fit the realisation; 522 refuted by the link's core, 351 remembered, 616
by a pair of links, 170 by a trio, 397 CSPs of which 154 fail in propagation and 32 in the
backtracking; callgrind, one cold search, #979 1,082.7M -> 962.9M, -11 %; #940 560.5M ->
534.2M, #987 546.4M -> 510.5M, random 1858 p6 seed 20 #1219 2,299.3M -> 2,170.7M, seed 7
#1720 2,426.5M -> 2,358.5M; the 57 dumps give the same totals, flags, routes and
candidates, exact and budgeted; India's M trains do not run by sequences):

- A link has a bit (per avoided track), so a set of links is an int: the memo's key (was a
  frozenset of ids per question), the pairs of links that cannot run together (per link,
  the links asked about and those that clash: one AND per question, was a lookup per link
  of the sequence), the trios (was a set of ids built per question).  With
  :func:`_choose_route` (the backtracking of one route: track and towns one mask, a failed
  branch keyed by one int, the same branches and answer) and no copies of ways the
  propagation never changes: 1,082.7M -> 1,001.4M.
- A failed question with no trio to blame teaches its set of links (exact searches): a
  later sequence holding them all is refuted before any CSP (at #979 40 of the 186 failed
  CSPs held an earlier failed set; at random 1858 p6 seed 7 #1720, 292 of the 396 failed
  propagations): #979 1,001.4M -> 985.7M, #1720 2,426.5M -> 2,357.7M.  The proofs are
  asked pair, trio, then the scan of the link's ways (which refuted nothing at #979; the
  order changes no charge).
- Propagation starts from a fixpoint (``cut``): a domain is scanned only for the bits its
  cut grew by, and a node whose links were never propagated adds its last link to its
  parent's fixpoint: 985.7M -> 962.9M.

Measured and not kept (#979): ways tried once per footprint on the links left in the
backtracking (no two alike: 170.0M in :func:`_choose_route` either way); domains as bits
with the ways that fit beside a way worked out once per (link, way, link) (170M -> 246M:
a failing search fails mostly by the forward check, which scans each link once per way
anyway); the link a way last emptied checked first (170M -> 183M); two links left solved
as a pair of scans (-0.2M); a way whose footprint on the links left holds that of a way
that failed there skipped (it must fail too: #979 -5.5M, but #940 +0.8M, #987 +4.8M);
trios learnt only when propagation refutes them (no backtracking in ``learn_trio``: #979
+2.8M).  Of the listing's CSP time most is the searches that fail:
109 of 554 calls, 920 nodes, 175,246 ways filtered (72 of those calls are of three links,
mostly ``learn_trio``'s).

Session 11, the combination (callgrind instructions of one cold search, the combination's
share in brackets; every change gives the same totals, routes and candidate counts on the
57 dumps of /tmp/s11, exact and budgeted): #979 1,079.0M (281.3M) -> 1,039.1M (241.8M),
#940 558.9M (207.2M) -> 514.2M (162.6M), #987 548.5M (110.2M) -> 523.0M (84.7M); random
1858 p6 seed 20 #1219 2,295.2M (77.2M) -> 2,275.0M (57.2M), seed 7 #1720 (13,002 candidates,
not indexed) 2,580.7M (68.7M) -> 2,572.3M (60.6M).  At #979
the combination tries 221 lead sequences, looks at 1,031 partners (398 one by one, 633
through the index), and asks 191 pair questions of which 189 fail: 124 are refuted by
learnt reasons, 67 went to the CSP (65 failed and were learnt from, 14 without a reason).

- A reason is first looked for in the links' cores alone (:meth:`_Nogoods.quick`: a link
  of one route every way of which runs over the core of one link of the other, or of two),
  before the CSP: 34 of the 67 CSPs at #979 (11 of 49 at #940), -9M.
- :meth:`_Nogoods._fit`'s question of a link beside two links of the other route: when a
  way of it is clear of both, the answer is yes without the CSP of those two, which are
  links of one listed route and so always fit (-8.6M at #979).
- :func:`_fit_beside` builds the ways of the third link beside a way of the first only for
  the first way of the second that is clear of it (most such questions fit at once; -8.5M).
- A sequence that fits the run by its witness stays a sequence in the run and is realised
  only if returned (#940: 383 lead sequences realised for nothing; -5M at #979, -8M at #940).
- The last train, when only a few candidates (:data:`_FEW_LEFT`) are above what it must
  earn, makes the two cheap tests on those alone rather than OR-ing the whole list's index
  for the routes taken (#940: 106 of 383 leads had 2 left; -9M there, -0.2M at #979).
- A pair question sets out the CSP's links only when neither learnt reasons nor the cores
  answered it (-2.5M at #979).
- :class:`_Index` ranks its busy keys by the columns of the transposed sample of cores
  (:func:`_columns`, popcounts) rather than key by key: the same groups on every dump, and
  #979 -5.6M, #940 -18.4M (two lists, so two indexes).

Measured and not kept: the routes taken propagated only once a candidate passes the test
of their cores as listed (#979 +0.4M: most leads that grow a core ask a question anyway);
no learning at all (#979 +8M, #940 -15M); no learning after a CSP once the cores gave none
(Python line events: #979 +4.5 %, #940 -6.5 %, #987 +7 %); a candidate's links as listed
rather than propagated on their own in its pair questions (#979 line events +18 %: fewer
reasons); a taken sequence's clashes ORed from per-link sets (links recur) rather than per
core bit (line events +3.5 %); the run to beat set to the optimum from the start (an upper
limit of what finding it sooner can give): #979 -1.3 % and #940 -3 % of the combination's
line events, #987 -30 %; in the search of a triple reason, only the pairs of links whose
unions cover every way (line events +16 %); at most 8, 16 or 32 new questions of three links
per failure learnt from (line events at 16: #979 -1.6 %, #940 +0.3 %, #987 +5.6 %).  (Line
events count a loop's steps and not a comprehension's: :func:`_fit_beside`'s change above
was +2.5 % in them and -8.5M in callgrind, so every change kept was decided by callgrind.)

Session 11, the walks (callgrind instructions of one cold search; the same totals, routes
and candidate counts on the 57 dumps of session 11, exact and budgeted): #979 1,082.9M ->
1,021.0M.  Work not done again: what a run reads per stop and the paying stops in reach of
two stops are kept on the enumerator between runs (#979's nine partner searches worked them
out each time: 185k of their line events -> 72k with the next change); an exact search
avoiding track does not step to a link whose ways all run over it (636 of 881 such links
were found only after both bounds), and a link's ways are filtered only when the avoided
track meets some of them (1,082.9M -> 1,042.5M); a search's best route beside some track
is remembered (the first twin start is the best route, whose partner the greedy run has just
looked for); a neighbour's tables are read in one tuple; the first way of a link that fits
the realisation is remembered by the taken track and towns its ways can meet (#979 2,608
scans of 30 ways on average for 818 answers, random 1858 p6 seed 7 #1720 21,845 for 497; the
main list's walk run again warm 161.9M -> 143.9M; 1,035.1M in all).  Two identical trains'
best route is walked together with the twin starts' list (``also``): the walk for the best
route mostly proves that nothing beats it, and the list's walk proved it again; the list
needs the greedy run, which needs the best route, so the walk lists every sequence worth the
best so far less a twentieth (:func:`_also_floor`; 1858's revenues are tens, so 440 lists >=
420, as #979's starts' floor 412 does) and the starts read it when it holds their floor,
else walk as before (1,035.1M -> 1,021.0M; #979's nodes 282 + 390 -> 414; random 1858 p6
seed 7 #1640 662.6M -> 647.2M).  A fourteenth or a fifteenth without rounding to the
revenues' step listed far below the floor where the greedy partner is good (#1640's floor
is 440 of 450: +340 nodes at a fifteenth), the best less 10 walked #979's list twice
(1,044.3M); where more than ``_START_LIST`` routes are that good (random 1858 p6 seed 6
#1304) the walk cost 13M more until it stopped listing there and told the starts so
(700.6M -> 697.6M).  #940 and #987 (no twins): ~560M and ~545M -> 552.4M and 538.7M.
Measured and not kept: the partner searches' answers shared with the unavoided ones (#979's
partner searches ask no joint question: what they cost was the walk, above).

Session 11, the listing's trios (``learn_trio``; callgrind, one cold search; the 57 dumps
give the same totals, flags, routes and candidates, exact and budgeted): a failed question
of three links was asked again as its own trio (#979: 26 of the 314 trios asked, #940 21 of
59, random 1858 p6 seed 20 #1219 81 of 483): the trio that is the failed set, or was asked
as a sequence before (``solutions``), is answered without a CSP; a trio in which a way of
one link is clear of the other two's unions fits without one (the other two fit: #979 96
of 314); and the pairs known to clash are read before the trios, the pairs not yet asked
after them.  #979 877.4M -> 841.3M (-4.1 %), #940 477.1M -> 475.3M, #987 471.2M -> 468.8M,
#1219 1,981.8M -> 1,912.9M, seed 7 #1720 2,306.3M -> 2,275.2M.  Measured and not kept: a
pair's or a trio's ways cut to the other links' unions and alike ones kept once (#979's
trios: 38,586 ways, 34,467 distinct cuts), the trio then decided by nested scans (966.1M);
a pair's ways ANDed by
``0 in map(x.__and__, ...)`` (902.2M: the interpreter's loop is cheaper than ``map``'s
calls through the method wrapper).

Session 11, the combination's learning (round 2; callgrind, one cold search, the same totals,
routes and candidates on the 57 dumps, exact and budgeted): #979 877.4M -> 853.8M, #940
477.1M -> 462.3M, #987 471.2M -> 467.6M, random 1858 p6 seed 20 #1219 1,981.8M -> 1,975.8M,
seed 7 #1720 2,285.2M -> 2,283.2M.  A failed pair's reason is looked for only among the
questions the two routes' witnesses cannot answer: a link of one beside a link (or two) of
the other fits when some way of it is clear of their witness ways, so those questions are
skipped and the first that fails, the reason kept, is the same (#979: questions of three links
925 -> 74, of two 803 -> 113; 860.3M with the next change).  Cores and unions of the taken
sequences' links are remembered by content (546 asked, 87 distinct), and :func:`_clashing`
its OR over a core per core (262 asked, 112 cores) and over a route's touched stops only at
stops some candidate hits (313 of 2,102 bits).  Measured and not kept: :meth:`_Meet.masks` by
``reduce``/``map`` (#979 +12.4M: in 3.11 a plain loop over a few stops is the cheapest;
``sum(map(...))`` 1.4x and ``reduce`` 1.7x it).  What is left of the learning is mostly the
15 questions of three links that fail (:func:`_fit_beside`, 700-3,200 pairs of ways each).

Session 11 in all (the five paragraphs above, merged; callgrind, one cold search; the 57
dumps of the session -- 4 fixture turns, 43 budget-stopped random 1858 p6 searches, 10 India
-- give the same totals, flags, routes and candidates, exact and budgeted, and seeded play
games are action for action as before): #979 1,083.0M -> 818.0M (-24.5 %; 1,085.5M at the end
of session 10), #940 560.6M -> 460.6M, #987 546.2M -> 465.0M.  CPU, #979 alone, min of 9 cold
searches alternating with the session-10 code (load ~2, a CI run on the other core): 185-192
ms against 241-251 ms.  Also: the twins' partner cut reads the lesser of a sequence's two
bounds (the path bound was only compared with the threshold: #979's list 1,124 -> 1,105), and
:class:`_Option` is not a frozen dataclass (its ``__init__`` set each field through
``object.__setattr__``: 11M at #979, 3,000 ways).  Considered and not done: compiling the
module (mypyc): the engine stays plain Python.

Session 12, the setup (callgrind, one cold search; the 59 dumps of session 12 give the same
totals, flags, routes and candidates, exact and budgeted, and seeded play is action for action
as before): #979 816.7M -> 798.5M, #940 459.0M -> 439.7M, #987 463.5M -> 440.3M; a median
1858_game_end_bank E-train turn (#859, one 7E) 61.1M -> 50.3M, a plain walk (#846, 5M) 8.2M ->
7.5M.  The setup of #979 (chain sets, enumerator, links, path bound, run tables) was 71M.
:meth:`_LinkEnumerator._links` walks from per-stop step tables built once (the chain's track,
the track that can clash -- none when no other chain shares a key, since such a chain can
only be met again by stepping back onto a stop on the way --, the free stop's bit, the chain
and stop as 1-tuples) and grows a way's tuples by concatenation (27.4M -> 21.2M);
:meth:`_LinkEnumerator._walks` reads each key's next stops from rows set out once, with each
stop's unit from ``unit_of`` (13.4M -> 4.7M); :meth:`_Enumerator.distances` relaxes
per-stop (units, stop) lists kept on the enumerator; a link's common and any track
(``link_track``) is set out by the first run avoiding track, which a search of one train never
has (#859 -0.4M; the three above +0.04-0.09M).  Measured and not kept: the ways of a
link sorted by a list of key sizes rather than a key function (slower: +0.5M).  Not done:
half of ``_links``' walk calls (1,026 of 2,050 at #979) are in subtrees that reach only
stops below the walk's first one (the link's other direction); an exact cut needs a
reachability test per step that costs as much as the step.  The one collection pass after
the search (``_collector_paused``: the collector runs at the first allocation after
``gc.enable()``) costs 5.9M at #979: it scans the ~14,000 objects the search keeps
(:class:`_MapWork`, ``_RECENT``) and the ~850 of its closures' reference cycles; it would
only move, not go, if deferred, since what survives must be scanned once.  A second round
(from the session's merge: #979 667.3M -> 661.7M, #940 391.2M -> 386.1M, #987 400.7M ->
394.9M, #859 47.9M -> 43.2M, #846 7.53M -> 6.48M): :func:`~ferrovia.board.graph.chains_from`
builds no chain back to a stop already reached on paths already seen (``known``,
``known_ends``: what ``_chain_set`` threw away; #979 124 -> 71 chains built, #859 107 -> 62)
and :func:`~ferrovia.board.graph.make_chain` works out its fields in one loop; the key of
:func:`_map_inputs` keeps its hash (:class:`_Inputs`: a dataclass hash per chain, stop and
path it names, and a search looked it up to four times; parts not measured apart); ``_links``
walks into no free stop whose component of free stops has no stop above the walk's first
next to it (#979 2,050 -> 1,931 walk calls).  Measured and not kept: that cut per free stop
not yet passed (a mask of the free stops with a stop above the first one, per first stop:
#979 1,568 walk calls, but +0.3M, #859 +0.6M; the walks it could still cut fail on
track, which no table set out before the walk sees); ``tokened_by`` asked only in the
hexes where the company has a station (#846 -0.05M).  Not done: ``_Enumerator.__init__``'s
``blocked``, ``token`` and ``_simple_values`` cover every stop of the map, not only the
company's, but the values of the others feed ``step`` (the gcd of the paying values).

Session 12, the listing walk (callgrind instructions of one cold search; the 59 dumps of
/tmp/s12 give the same totals, flags, candidates and routes, exact and budgeted; seeded play
unchanged): #979 816.7M -> 706.3M (-13.5 %), #940 459.0M -> 428.5M, #987 463.5M -> 431.5M.
A link's cores, union and bit are one record (``link_info``: one ``id()`` lookup, carried
beside ``link_opts``; was ``link_core``, ``link_union``, ``link_bit`` per use: -22.8M at
#979), and a step's link and record one int-keyed lookup per run (-7.6M); a way that
meets the other link's core is skipped in ``compatible`` and in ``learn_trio``'s clear-way
scan (it fits none: #979's pair scans 87,598 -> 61,509 ways; -16.8M).  An exact search
whose greedy pass fails looks for a trio to blame before the backtracking, which a trio
then spares (the question fails either way: -24.4M), and before any propagation when the
prefix was never propagated (#979 -9.8M, but #940 +1.8M and #987 +2.6M: trios blame less
there); a prefix is added to its nearest propagated ancestor's fixpoint rather than
propagated from scratch, and the cheap proofs loop rather than call generators (-5.0M);
a cut domain keeps its union (a superset: it only skips scans; -6.0M); the greedy pass and
the backtracking's choice of link make no lambda call per link (-3.8M); ``record`` and
``old_order`` map rather than run generators (-0.9M; #940 and #987 -1.3M).  Measured and not
kept: a domain the new bits' core hits refuted before its scan (123 of 247 failures, small
domains: no gain); ``compatible`` dropping b's ways that meet a's core first (61,509 ->
53,109 pair scans for 11,306 filter steps); every exact question trio-first (#979 -5.2M,
#940 +4.3M, #987 +6.3M); a trio's backtracking without its propagation (line events +9 %).
A trio's question (``learn_trio``: #979 asks 283; 73 fail in the propagation, 130 fit
greedily) is answered by :func:`_fit_three` after its propagation -- the greedy pass, then
per way of the smallest link the other two's ways clear of it, decided by their union and
core before any pair loop -- rather than :func:`_search_route`'s set-up (#979 719.5M ->
706.3M, #940 428.8M -> 428.5M, #987 431.0M -> 431.5M: 19 of its 22 trios past the greedy
pass fit, where the search stops sooner).  Measured and not kept: ``_fit_three`` without the
propagation (#979 +89M); without the union and core test (#979 709.4M, #987 431.1M);
skipping a way of the smallest link that takes what one tried took of the others (the
search's key: +1.6M); the phase-1 path bound's split kept per step, arm and units (#979
+1.4M per run, -1.1M kept across runs: few repeats); with the cheaper trios, the trio-first
rule again: every exact question (#979 710.8M, #940 431.0M, #987 435.2M), never (716.2M,
426.8M, 428.9M), on a prefix not propagated of at least three links (707.5M, 427.5M, 430.8M)
or four (712.5M, 427.6M, 430.4M).

Session 12, the combination (callgrind, one cold search; the 59 dumps of session 12 give
the same totals, flags, routes and candidates, exact and budgeted, and seeded play is
unchanged): #979 816.7M -> 781.4M (-4.3 %), #940 459.0M -> 441.5M, #987 463.5M -> 456.2M;
the combination alone, run on its own inputs pickled, #979 224.8M -> 189.5M, #940 153.4M ->
135.5M, #987 83.3M -> 76.2M.  A taken sequence's links propagated on their own remember each
cut by (link, the others' cores within its union): the ways left depend on nothing else and
the fixpoint is the same in any order (#979: 150 sequences, 1,143 cuts, 346 distinct; 24,555
ways in, 5,040 scanned; -18.4M).  :meth:`_Nogoods.links` numbers a list of ways it has seen
by identity (those lists now recur as objects; -5.7M).  The scans for a link blocked by a
core, a clear way or a pair of ways that fits are plain loops, not ``all``/``any`` of a
generator (-5.4M at #979, -3.8M at #940).  :func:`_columns` writes rows by ``bin`` with a
bit above the width (``format`` to a width parsed its spec per row: -5M).  A pair question
reads its two routes without generators (-0.9M).  Measured and not kept: the ways of
:func:`_fit_beside`'s other two links filtered by ``filterfalse(track.__and__, ...)`` over
their ``both`` masks (+4M), or by a loop over those ints (-0.5M at #979 only); the towns of a
link by ``reduce(and_, map(attrgetter("stops"), ...))`` (+2.1M); :meth:`_Meet.masks` with
one mask per link, its two stops and its towns (-1.3M, but a sequence of one stop and a stub
link, listed when a budget stops, has no second stop); a cut's core and unions in
one :func:`_core_union_both` pass, not seeding :meth:`_Nogoods.core_union` (+1.4M: the pair
questions then work them out again).  :func:`_fit_beside`'s 15 failing questions at #979 scan
every way of the first link against the others (17M): no two of its ways share a footprint on
their unions, nor meet their cores.  Second round, on the merge of the first (#979 667.4M ->
649.8M, #940 391.3M -> 388.1M, #987 400.7M -> 395.2M; the combination alone #979 189.6M ->
172.1M, #940 135.5M -> 132.2M, #987 76.2M -> 70.6M): a pair question past
:meth:`_Nogoods.refutes` and :meth:`_Nogoods.quick` looks for its small reason
(:meth:`_Nogoods.learn`) before the CSP, not after the CSP failed -- a reason is exact
whatever the CSP would say, and most pair CSPs failed (#979: 32 of 34, 18 with a reason;
-14.6M); :func:`_columns` slices only the columns of the stops of few exits for the stop sets
(-1.0M); :meth:`_Meet.masks` remembers per link its two stops with its towns (-1.7M; a stub
sequence takes the old way).  Measured and not kept: a sequence's inner stops as
``sum(map((1).__lshift__, ...))`` (+1M).  :func:`_fit_beside`'s failing questions scan few
pairs of ways (#979: 10 to 632) but every way of the first link against the other two's:
listing the two's compatible pairs first costs about as much (|ys| x |zs| against
|xs| x (|ys| + |zs|)).

Session 12 in all (the three paragraphs above, merged; callgrind, one cold search; the 59 dumps give
the same totals, flags, routes and candidates, exact and budgeted, and seeded play is action for
action as before): #979 816.7M -> 632.0M (-22.6 %; 631.2M before masks became one loop), #940 459.0M
-> 383.3M, #987 463.5M -> 389.9M.  CPU, #979 alone, min of 9 cold searches alternating with the
session-11 code at load 1-2: 100-108 ms against 120-148 ms.  Measured and not kept (the run's shape,
#979): the twins' partner list down to the midpoint of the best route and the list's threshold
(``_START_PART`` 2, listed with the best route down to a quarter below it): 814M -> 883M -- the
partner cut then refutes 3 more of 1,105 sequences (most sequences of 251-345 have a partner clear
of their core); the best route's walk listing every sequence >= 251 itself instead of a second walk:
126 ms against 46 + 85 ms (the second walk is cheap where the first walked: its joint questions are
answered; the walk itself is ~40 ms of the 85).

``ferrovia replay --check-routes`` (engine/play/replay.py ``optimum_before``) runs this search on
the replay's own state before every ``run_routes``; turns stopped by ``--route-limit`` are
reported as inexact.

Budget (session 8, issue #12 item 3)
------------------------------------
The exact optimum of two long trains keeps its exponential corner, so the searches of play --
``legal_actions``' run (:func:`ferrovia.lib18xx.operating.routing.best_run`) and the greedy bot's
train choice -- pass ``budget=PLAY_BUDGET``, as 18xx.games bounds its auto-router (routes per
train, timeouts); ``ferrovia routes`` (unless ``--budget``), ``replay --check-routes`` and
``tools/bench/bench_routes.py`` stay exact.  A :class:`Work` counts logical work, never time:
a node of a route walk (both enumerators; an M train's node one more per six stops of its
route when its bound scans them), a step looked at from a sequence's tail, the ways of each
joint question solved (in a route and in the combination), a candidate tried in the
combination.  Past the budget the search stops where it is: a train's best-route search keeps
the best route found, the greedy run is completed with a quarter more granted (shared by the
trains left), a candidate list cut short is combined as far as listed (with that quarter),
and the best legal run found is returned, ``exact=False`` -- at worst the greedy run.

Deterministic and history-independent: a budgeted search builds all its own work (chain
sets, enumerators, links and their answers; it reads and leaves nothing in ``_MAPS`` or
``_LINK_SETS``), so where it stops and what it has found then depend on its inputs and the
budget only; its result is remembered in ``_RECENT`` under both.  The cost: no reuse of an
earlier search's work (the reuse could not be charged faithfully: an answer about town ways
remembers the ways the first asker chose, so a warm search may realise a route by other
ways).  ``tests/test_routes_budget.py`` checks cold against warm runs, flags included.

Figures (CPU, load 2-4): on 112 dumps (session 7's slowest and every search 40,000 units
stopped in 1858 p6 seeds 6, 7, 20 and India p6 seeds 1-2; exact 0.06-12 s) a cold budgeted
search takes at most 101-129 ms (load ~3; the same search moves by 87-129 ms), mostly 50-90;
its run is the optimum in 36 of them and below it by a mean 5.5-5.9 % per set, at most 29 %
(7E+7E and 6M+6M whose best single route alone is over the budget: the second train gets
what is left).  In play,
see README (Speed).
"""

from __future__ import annotations

import bisect
import gc
import itertools
import math
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import add as _add
from typing import Any, TypeVar

from ferrovia.board.graph import (
    Chain,
    Tokens,
    TrackGraph,
    bit_positions,
    blocks,
    chains_from,
    gauge_skip,
    tokened_by,
)
from ferrovia.errors import IllegalAction
from ferrovia.routes.value import (
    DEFAULT_ROUTE_RULES,
    Route,
    RouteResult,
    RouteRules,
    TrainSpec,
    _stop_value,
    paying_stops,
    route_revenue,
)


# ----------------------------------------------------------------------------- best routes
@dataclass(frozen=True)
class BestRoutes:
    """The best run of a company: one route per train that runs (others stay home)."""

    routes: tuple[RouteResult, ...]
    total: int  # train revenue only (add private income for the run's revenue)
    candidates: int  # legal routes considered, all trains together
    exact: bool = True  # False only when a ``limit`` stopped the proof (a good legal run)


class _Budget(Exception):
    """More candidate routes than the caller's ``limit``."""


class _OutOfWork(Exception):
    """A budgeted search (:class:`Work`) has spent its budget (``partial``: the routes a
    listing had found by then)."""

    partial: list[_Candidate] | None = None


class Work:
    """The work budget of one search (``best_routes(budget=...)``): units of logical work,
    charged where the search does something whatever any cache holds -- a node of a route
    walk, a way looked at by a joint question, a candidate tried in the combination.  A
    budgeted search builds all its own work (no :class:`_MapWork` or link answers of earlier
    searches), so where it stops, and so its answer, depends on its inputs and the budget
    alone, never on the searches before it nor on time."""

    __slots__ = ("cap", "ran_out", "reserve", "spent")

    def __init__(self, budget: int) -> None:
        # a quarter more is granted once the budget is spent, to complete the greedy run
        # (the first train's best route alone can take all of it: then the others still get
        # a route each) or to combine the routes listed so far; not a part kept back, so
        # every search that fits in ``budget`` stays exact
        self.reserve = budget // 4
        self.cap = budget
        self.spent = 0
        self.ran_out = False  # once out of work, the result is not proven best

    def charge(self, units: int = 1) -> None:
        """Count ``units`` of work; past the budget, raise :class:`_OutOfWork`."""
        self.spent += units
        if self.spent > self.cap:
            self.ran_out = True
            raise _OutOfWork

    @property
    def exhausted(self) -> bool:
        """Nothing left to spend now (a share of the reserve may still be granted)."""
        return self.spent > self.cap

    def grant(self, parts: int) -> None:
        """Out of work: one of ``parts`` equal shares of what is left of the reserve."""
        units = self.reserve // max(parts, 1)
        self.reserve -= units
        self.cap = self.spent + units


# (not frozen, though never changed: a frozen dataclass sets each field through
# object.__setattr__, and #979 builds 3,000 ways -- 11M instructions, 1.2 % of its search)
@dataclass(slots=True, unsafe_hash=True)
class _Option:
    """One way to run a *link* (non-free stop to non-free stop through free stops only)."""

    track: int  # track mask
    stops: int  # the free stops passed, one bit per stop id (a route visits a stop once)
    chains: tuple[int, ...]  # chain indices, walked from ``start``
    inner: tuple[int, ...]  # the free stops passed, in that order
    start: int = -1  # the stop the way is listed from (the lower stop id of its link)
    both: int = 0  # track and stops in one mask (stops shifted above every track bit)


@dataclass
class _Candidate:
    """A route of one train.  Plain: one route in place (``stops``, ``chains``, ``mask``).  A
    *sequence* (``links`` set; see :class:`_LinkEnumerator`): ``stops`` are the non-free stops
    only, ``links[i]`` the ways to run from ``stops[i]`` to ``stops[i + 1]``, ``mask`` and
    ``chains`` one realisation, ``witness`` its options, ``core`` the track every realisation
    uses."""

    stops: tuple[int, ...]
    chains: tuple[int, ...]
    mask: int
    revenue: int
    links: tuple[tuple[_Option, ...], ...] | None = None
    witness: tuple[_Option, ...] = ()
    core: int = 0
    #: a sequence's links as propagated together when it was solved: each holds only the
    #: ways that can run beside the others' cores (so propagating them again removes none)
    settled: bool = False


#: (ways per link, stubs, the shift of ``_Option.both``, remembered answers per avoided track)
_Links = tuple[
    dict[tuple[int, int], tuple["_Option", ...]],
    dict[int, tuple["_Option", ...]],
    int,
    dict[int, tuple[dict[Any, Any], ...]],
]


@dataclass
class _ChainSet:
    """The chains of one gauge family around one company, with compact track masks."""

    chains: list[Chain]
    masks: list[int]
    adjacency: dict[int, list[tuple[int, int]]]  # stop -> [(chain index, other stop)]
    special: list[bool]  # a chain with a terminal path: checked in full
    #: distance and bound tables, shared by the trains that measure distance alike
    tables: dict[tuple[object, ...], dict[int, Any]] = field(default_factory=dict)
    #: links between paying stops, per set of stops passed for free (:class:`_LinkEnumerator`)
    links: dict[tuple[bool, ...], _Links] = field(default_factory=dict)


def _chain_set(
    graph: TrackGraph, company: str, tokens: Tokens, gauge: str, bit: dict[int, int]
) -> _ChainSet:
    """The chains around ``company`` on ``gauge`` track; ``bit`` numbers track keys (shared by
    the chain sets of one search, so masks of both gauges compare)."""
    skip = gauge_skip(gauge)
    seen: set[frozenset[int]] = set()
    chains: list[Chain] = []
    # every stop a route of the company can touch: out from its stations, through stops that
    # do not block it (what :func:`ferrovia.board.graph.reachable` finds, walked chain by chain)
    start = [st.id for st in graph.stops if tokened_by(st, company, tokens)]
    reached = set(start)
    todo = list(start)
    while todo:
        s = todo.pop()
        # (a chain back to a stop reached, on paths already seen, is not built: it could
        # neither add a chain nor reach a stop)
        for c in chains_from(graph, s, skip, known=seen, known_ends=reached):
            k = frozenset(c.paths)
            if k not in seen:
                seen.add(k)
                chains.append(c)
            other = c.b
            if other not in reached:
                reached.add(other)
                if not blocks(graph.stops[other], company, tokens):
                    todo.append(other)
    # (a chain between two blocking stops could only be a whole route without a station)
    masks = []
    adjacency: dict[int, list[tuple[int, int]]] = {}
    special = []
    for i, c in enumerate(chains):
        m = 0
        for key in c.keys:
            if key not in bit:
                bit[key] = len(bit)
            m |= 1 << bit[key]
        masks.append(m)
        adjacency.setdefault(c.a, []).append((i, c.b))
        adjacency.setdefault(c.b, []).append((i, c.a))
        # (a terminal path anywhere on it, as the chain's own flags tell)
        special.append(c.first_terminal or c.last_terminal or c.terminal_inside or c.a == c.b)
    return _ChainSet(chains, masks, adjacency, special)


def _simple_values(graph: TrackGraph, train: TrainSpec, phase: Sequence[str]) -> list[int] | None:
    """Per-stop value when every visited stop of its kind pays (H, M, E, D trains), else None."""
    if isinstance(train.distance, int):
        return [_stop_value(s, train, phase) for s in graph.stops]
    rows = train.distance
    if any(a.kinds & b.kinds for a, b in itertools.combinations(rows, 2)):
        return None
    if any(r.pay not in (0,) and r.visit > r.pay for r in rows):
        return None
    values = []
    for s in graph.stops:
        row = next((r for r in rows if s.kind in r.kinds), None)
        values.append(_stop_value(s, train, phase) if row is not None and row.pay > 0 else 0)
    return values


def _bound(
    raw: int,
    counted: Sequence[tuple[int, int, int]],
    free: Sequence[tuple[int, int, int]],
    k: int,
    room: int,
    on_route: bytearray,
    end_only: Sequence[bool],
) -> int:
    """The most a route worth ``raw`` so far could end up worth: the best unvisited stops
    within ``k`` distance units (``counted``, at most ``room`` of them and at most one a route
    can only end at; ``free``, any number), each list (value, distance, stop), best first."""
    top = raw
    if room > 0:
        taken = 0
        last_end = False
        for v, d, st in counted:
            if d <= k and not on_route[st]:
                if end_only[st]:
                    if last_end:
                        continue
                    last_end = True
                top += v
                taken += 1
                if taken >= room:
                    break
    for v, d, st in free:
        if d <= k and not on_route[st]:
            top += v
    return top


class _Enumerator:
    """Routes of one train over one chain set: all of them above a threshold, or the best.

    Depth-first from every stop, extending at the tail only; a route is kept in the direction
    where its first stop id is below its last.  Cuts: the distance limit, group once, a route
    that can no longer reach a company token, and -- with simple per-stop values -- an upper
    bound (value so far + the best values the remaining distance could still add) below the
    threshold.
    """

    #: the budget of the search this enumerator serves (None: no budget, exact)
    work: Work | None = None

    def __init__(
        self,
        graph: TrackGraph,
        cs: _ChainSet,
        train: TrainSpec,
        *,
        phase: Sequence[str],
        company: str,
        tokens: Tokens,
        rules: RouteRules,
    ) -> None:
        import heapq

        self.graph, self.cs, self.train = graph, cs, train
        self.phase, self.company, self.tokens, self.rules = phase, company, tokens, rules
        # the stops as they are now: an enumerator outlives its search (:class:`_MapWork`),
        # and every table below is indexed by stop id up to this many
        self.stops = stops = tuple(graph.stops)
        n = len(stops)
        self.blocked = [blocks(s, company, tokens) for s in stops]
        self.token = [tokened_by(s, company, tokens) for s in stops]
        self.values = _simple_values(graph, train, phase)
        dist = train.distance
        self.hex_sides = isinstance(dist, int) and rules.int_distance_counts_hex_sides
        self.limit_sides = dist if isinstance(dist, int) else 0
        self.shared_rows = not isinstance(dist, int) and any(
            a.kinds & b.kinds for a, b in itertools.combinations(dist, 2)
        )
        self.row_of = [-1] * n
        self.row_limit: list[int] = []
        self.kind_ok = [True] * n
        if isinstance(dist, int) and not self.hex_sides:
            self.row_limit = [dist]
            self.row_of = [0] * n
        elif not isinstance(dist, int) and not self.shared_rows:
            self.row_limit = [r.visit for r in dist]
            for st in stops:
                r = next((i for i, row in enumerate(dist) if st.kind in row.kinds), -1)
                self.row_of[st.id] = r
                self.kind_ok[st.id] = r >= 0
        binding = [i for i, lim in enumerate(self.row_limit) if lim < 99]
        self.prune_row = binding[0] if len(binding) == 1 else -1
        self.divisor = rules.wounded_divisor if train.obsolete and rules.wounded_divisor > 1 else 1
        self.exact = self.values is None or self.shared_rows
        #: :meth:`unit` of every stop, read by the tables below without a call per stop
        self.unit_of = unit_of = tuple(self.unit(i) for i in range(n))
        # fewest distance units from each stop to a company token (ignores used track)
        self.inf = inf = 1 << 30
        to_token = [inf] * n
        heap = [(0, s) for s in range(n) if self.token[s]]
        for _, s in heap:
            to_token[s] = 0
        heapq.heapify(heap)
        while heap:
            d, s = heapq.heappop(heap)
            if d > to_token[s] or (self.blocked[s] and not self.token[s]):
                continue
            step = unit_of[s]
            for ci, o in cs.adjacency.get(s, ()):
                nd = d + (cs.chains[ci].edges if self.hex_sides else step)
                if nd < to_token[o]:
                    to_token[o] = nd
                    heapq.heappush(heap, (nd, o))
        self.to_token = to_token
        self.vals = self.values or [0] * n
        self.zero_side_chains = sum(1 for c in cs.chains if c.edges == 0)
        units = (self.hex_sides, unit_of)
        self._dist: dict[int, Any] = cs.tables.setdefault(("dist", units), {})
        self._dist_steps: dict[int, list[tuple[int, int]]] | None = None  # (:meth:`distances`)
        self._table: dict[int, Any] = cs.tables.setdefault(("near", units, tuple(self.vals)), {})
        self._free: dict[int, Any] = cs.tables.setdefault(("free", units, tuple(self.vals)), {})
        # neighbours best first, so good routes are found early and the bound bites sooner
        vals = self.vals
        self.adjacency = {
            st: sorted(adj, key=lambda e: -vals[e[1]]) for st, adj in cs.adjacency.items()
        }
        self.has_special = any(cs.special)
        # stops a route can only end at: blocking ones, and those with one way out (a route
        # has two ends, so the bound counts at most one of them beyond its first stop)
        firsts: dict[int, set[int]] = {}
        for c in cs.chains:
            firsts.setdefault(c.a, set()).add(c.paths[0])
            firsts.setdefault(c.b, set()).add(c.paths[-1])
        self.end_only = [self.blocked[s] or len(firsts.get(s, ())) <= 1 for s in range(n)]

    def distances(self, source: int) -> dict[int, int]:
        """Fewest distance units from ``source`` to each stop (through non-blocking stops)."""
        import heapq

        found = self._dist.get(source)
        if found is not None:
            return found
        steps = self._dist_steps
        if steps is None:
            # per stop, (units to the next stop, next stop); a route passes no blocking stop
            chains, unit_of, hex_sides = self.cs.chains, self.unit_of, self.hex_sides
            steps = self._dist_steps = {
                st: [(chains[ci].edges if hex_sides else unit_of[o], o) for ci, o in adj]
                for st, adj in self.cs.adjacency.items()
            }
        blocked, inf = self.blocked, self.inf
        pop, push = heapq.heappop, heapq.heappush
        dist = {source: 0}
        get = dist.get
        heap = [(0, source)]
        while heap:
            d, st = pop(heap)
            if d > dist[st] or (st != source and blocked[st]):
                continue
            for w, o in steps.get(st, ()):
                w += d
                if w < get(o, inf):
                    dist[o] = w
                    push(heap, (w, o))
        self._dist[source] = dist
        return dist

    def near(self, tail: int) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
        """Paying stops reachable from ``tail``, best first, as (value, distance, stop): those
        the distance counts, and the others (towns an M train scores)."""
        found = self._table.get(tail)
        if found is not None:
            return found
        dist = self.distances(tail)
        vals, hex_sides, unit_of = self.vals, self.hex_sides, self.unit_of
        counted: list[tuple[int, int, int]] = []
        free: list[tuple[int, int, int]] = []
        for st, d in dist.items():
            if st == tail or vals[st] <= 0:
                continue
            if hex_sides or unit_of[st] > 0:
                counted.append((vals[st], d, st))
            else:
                free.append((vals[st], d, st))
        counted.sort(reverse=True)
        free.sort(reverse=True)
        self._table[tail] = (counted, free)
        return counted, free

    def free_sums(self, tail: int) -> tuple[list[int], list[int], dict[int, int]]:
        """The free paying stops of :meth:`near` by distance: (distances ascending, sums of
        the values of the first i, stop -> distance)."""
        found = self._free.get(tail)
        if found is not None:
            return found
        by_d = sorted((d, v) for v, d, _ in self.near(tail)[1])
        sums = [0]
        for _, v in by_d:
            sums.append(sums[-1] + v)
        dmap = {st: d for _, d, st in self.near(tail)[1]}
        found = self._free[tail] = ([d for d, _ in by_d], sums, dmap)
        return found

    def unit(self, stop: int) -> int:
        """What visiting ``stop`` costs of the one binding distance limit (0: nothing)."""
        if self.hex_sides or self.prune_row < 0 or self.row_of[stop] != self.prune_row:
            return 0
        return self.stops[stop].visit_cost

    def run(
        self,
        threshold: int,
        *,
        best_only: bool = False,
        avoid: int = 0,
        limit: int | None = None,
    ) -> list[_Candidate]:
        """Routes with revenue >= ``threshold`` not using track ``avoid`` (``best_only``: the
        single best one, threshold rising as better routes are found); more than ``limit``
        routes raise :class:`_Budget`."""
        graph, cs = self.graph, self.cs
        stops = self.stops
        adjacency, chains, masks = self.adjacency, cs.chains, cs.masks
        blocked, token, to_token, inf = self.blocked, self.token, self.to_token, self.inf
        values = self.values
        row_of, row_limit, kind_ok = self.row_of, self.row_limit, self.kind_ok
        hex_sides, limit_sides, prune_row = self.hex_sides, self.limit_sides, self.prune_row
        groups = [s.groups for s in stops]
        use_bound = not self.exact
        # stops worth nothing to this train and holding no station of the company
        dull = [
            bool(values is not None and not self.exact and values[i] == 0 and not token[i])
            for i in range(len(stops))
        ]
        divisor = self.divisor
        out: dict[tuple[frozenset[int], frozenset[int]], _Candidate] = {}
        route: list[int] = []
        used_chains: list[int] = []
        on_route = bytearray(len(stops))
        group_used: set[str] = set()
        counts = [0] * max(1, len(row_limit))
        state = {"need": max(threshold, 1) * divisor}

        def record(mask: int, raw: int) -> None:
            if self.exact or (self.has_special and any(cs.special[c] for c in used_chains)):
                r = Route(tuple(route), tuple(chains[c] for c in used_chains))
                try:
                    value, _ = route_revenue(
                        graph,
                        r,
                        self.train,
                        phase=self.phase,
                        company=self.company,
                        tokens=self.tokens,
                        rules=self.rules,
                    )
                except IllegalAction:
                    return
                raw = value * divisor
            else:
                value = raw // divisor
            if value <= 0 or raw < state["need"]:
                return
            key = (frozenset(used_chains), frozenset(route))
            if key in out:
                return
            out[key] = _Candidate(tuple(route), tuple(used_chains), mask, value)
            if limit is not None and len(out) > limit:
                raise _Budget
            if best_only:
                out.clear()
                out[key] = _Candidate(tuple(route), tuple(used_chains), mask, value)
                state["need"] = (value + 1) * divisor

        # per stop, its neighbours with everything the walk looks at (fewer lookups)
        cost = [st.visit_cost for st in stops]
        step_vals = values or [0] * len(stops)
        unit = list(self.unit_of)
        links = {
            tail: [
                (
                    ci,
                    other,
                    masks[ci],
                    chains[ci].edges,
                    row_of[other],
                    cost[other],
                    step_vals[other],
                    groups[other],
                )
                for ci, other in adj
            ]
            for tail, adj in adjacency.items()
        }
        near = self.near
        free_sums = self.free_sums
        # what each stop adds to the free part of the bound (see :meth:`near`)
        free_val = [0 if hex_sides or unit[i] else step_vals[i] for i in range(len(stops))]
        end_only = self.end_only
        hex_counted = hex_sides
        room_extra = self.zero_side_chains if hex_sides else 0
        prune_limit = row_limit[prune_row] if prune_row >= 0 else 0
        work = self.work

        def extend(mask: int, raw: int, has_token: bool, sides: int, fsum: int) -> None:
            if work is not None:
                work.charge()  # a node of the walk
            tail = route[-1]
            n = len(route)
            # an end that scores nothing only lengthens a route (same revenue, more track):
            # such a route is kept only when it has two stops and cannot be shortened
            if (
                n > 1
                and has_token
                and route[0] < tail
                and (n == 2 or not (dull[tail] or dull[route[0]]))
            ):
                record(mask, raw)
            if n > 1 and (blocked[tail] or dull[route[0]]):
                return
            need = state["need"]
            if use_bound:
                # the best unvisited paying stops still reachable within the distance left
                counted, free = near(tail)
                if hex_counted:
                    k = limit_sides - sides
                    room = k + room_extra
                elif prune_row >= 0:
                    k = room = prune_limit - counts[prune_row]
                else:
                    k = room = inf
                if free:
                    # every unvisited free stop in reach (towns an M train scores), summed by
                    # distance once per tail: a metre town mesh has dozens (1858_india 5M:
                    # half the search's time went to adding them up stop by stop)
                    ds, sums, dmap = free_sums(tail)
                    if not ds or ds[-1] <= k:
                        # all in reach: the visited ones are those on the route (``fsum``)
                        extra = sums[-1] - fsum + free_val[tail]
                    else:
                        extra = sums[bisect.bisect_right(ds, k)]
                        if work is not None:  # (a look at every stop of the route)
                            work.charge(len(route) // 6)
                        for st in route:
                            d = dmap.get(st)
                            if d is not None and d <= k:
                                extra -= step_vals[st]
                    top = _bound(raw + extra, counted, (), k, room, on_route, end_only)
                else:
                    top = _bound(raw, counted, (), k, room, on_route, end_only)
                if top < need:
                    return
            for ci, other, cmask, edges, row, ocost, oval, g in links.get(tail, ()):
                if on_route[other] or cmask & mask:
                    continue
                if hex_sides:
                    if sides + edges > limit_sides:
                        continue
                elif row_limit:
                    if not kind_ok[other]:
                        continue
                    if row >= 0 and counts[row] + ocost > row_limit[row]:
                        continue
                if g and not group_used.isdisjoint(g):
                    continue
                tok = has_token or token[other]
                if not tok:
                    tt = to_token[other]
                    if tt >= inf:
                        continue
                    if hex_sides:
                        if sides + edges + tt > limit_sides:
                            continue
                    elif prune_row >= 0:
                        if prune_limit - counts[prune_row] - unit[other] < tt:
                            continue
                route.append(other)
                used_chains.append(ci)
                on_route[other] = 1
                if g:
                    group_used.update(g)
                if row >= 0:
                    counts[row] += ocost
                extend(mask | cmask, raw + oval, tok, sides + edges, fsum + free_val[other])
                if row >= 0:
                    counts[row] -= ocost
                if g:
                    group_used.difference_update(g)
                on_route[other] = 0
                used_chains.pop()
                route.pop()

        vals = values or [0] * len(stops)
        try:
            for start in sorted(adjacency, key=lambda s: -vals[s]):
                row = row_of[start]
                if row_limit and not hex_sides:
                    if not kind_ok[start]:
                        continue
                    if row >= 0 and stops[start].visit_cost > row_limit[row]:
                        continue
                if to_token[start] >= inf:
                    continue
                route.append(start)
                on_route[start] = 1
                group_used.update(groups[start])
                if row >= 0:
                    counts[row] += stops[start].visit_cost
                extend(avoid, vals[start], token[start], 0, free_val[start])
                if row >= 0:
                    counts[row] -= stops[start].visit_cost
                group_used.difference_update(groups[start])
                on_route[start] = 0
                route.pop()
        except _OutOfWork as stop:
            if not best_only:
                for cand in out.values():
                    cand.mask &= ~avoid
                stop.partial = list(out.values())
                raise
            # the budget ran out: the best route found so far (a legal one), if any
        # the avoided track is not part of the routes' own masks
        for cand in out.values():
            cand.mask &= ~avoid
        # a recursive closure is a reference cycle: freed now, not by the collector
        extend = None  # type: ignore[assignment]
        return list(out.values())


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


_NO_PAIR = (0, 0)  # (:meth:`_LinkEnumerator.run`'s ``pairs``: a link not asked about yet)
_REFUTED = (None, None)  # (its ``solutions``: a set of links with no realisation)
#: what :meth:`_LinkEnumerator.run` reads of a link: (core track, core towns, core both,
#: union both, its bit)
_LinkInfo = tuple[int, int, int, int, int]
_NO_INFO: _LinkInfo = (0, 0, 0, 0, 0)  # (a link with no way left)


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


def _realise(c: _Candidate, options: Sequence[_Option]) -> _Candidate:
    """The plain route of sequence ``c`` run by ``options`` (one per link)."""
    stops = [c.stops[0]]
    chains: list[int] = []
    mask = 0
    for o, here, nxt in zip(options, c.stops, c.stops[1:], strict=False):
        # a link's ways are listed once, from its lower stop: walk them backwards if need be
        forward = o.start == here
        stops.extend(o.inner if forward else reversed(o.inner))
        stops.append(nxt)
        chains.extend(o.chains if forward else reversed(o.chains))
        mask |= o.track
    if len(c.stops) == 1:  # a stub: one stop and the free stop at the end of its one chain
        o = options[0]
        stops.extend(o.inner)
        chains.extend(o.chains)
        mask |= o.track
    return _Candidate(tuple(stops), tuple(chains), mask, c.revenue)


class _LinkEnumerator(_Enumerator):
    """Routes of a train that passes some stops for free -- towns for an E or D train: no
    revenue, no distance, no station -- enumerated as *sequences* of the other stops.

    Between two stops a town mesh offers dozens of ways (1858_game_end_bank #979: 2,996 for 53
    pairs of stops), and every combination is a different route of the same revenue: the plain
    walk listed 71,906 routes there for 221 sequences.  Here a step goes from stop to stop by a
    *link*, the set of its ways (:class:`_Option`), and a sequence is kept while some choice of
    one way per link is legal (:func:`_solve`: track-disjoint, no town twice); the sequence
    carries all its ways, so the combination of trains can pick ways that fit together.

    Every cut of the plain walk applies (free stops cost no distance, pay nothing and hold no
    station; an exact search grows both ends of a sequence, and its bounds read both); a
    route ending at a free stop is only ever needed with two stops (see
    :class:`_Enumerator`), a *stub*: one sequence per stop, its ways the chains to free stops.
    """

    @staticmethod
    def free_stops(en: _Enumerator) -> list[bool] | None:
        """Which stops ``en``'s train passes for free, or None if it cannot use this search."""
        if en.exact or en.hex_sides or en.values is None or en.has_special:
            return None
        stops = en.stops
        free = [False] * len(stops)
        cost: dict[int, int] = {}
        for s in en.cs.adjacency:
            st = stops[s]
            row = en.row_of[s]
            if (
                en.values[s] == 0
                and not en.token[s]
                and not en.blocked[s]
                and not st.groups
                and row >= 0
                and row != en.prune_row
            ):
                free[s] = True
                cost[row] = cost.get(row, 0) + st.visit_cost
        # a row of free stops must never bind (an E train's 99 towns)
        if not any(free) or any(en.row_limit[r] < c for r, c in cost.items()):
            return None
        return free

    def __init__(self, base: _Enumerator, free: list[bool]) -> None:
        # share everything the plain walk computed (tables, bounds, token distances)
        for name in base.__dict__:
            setattr(self, name, getattr(base, name))
        self.free = free
        cs = self.cs
        vals = self.vals
        shared = cs.links.get(tuple(free))
        if shared is None:
            shared = cs.links[tuple(free)] = self._links(cs, free)
        # trains passing the same stops for free (a 5E and a 7E) share their links, and so
        # every answer about them: which ways fit is a question of track, not of the train
        self.links: dict[tuple[int, int], tuple[_Option, ...]] = shared[0]
        self.stubs: dict[int, tuple[_Option, ...]] = shared[1]
        self.shift: int = shared[2]
        self.memo: dict[int, tuple[dict[Any, Any], ...]] = shared[3]
        adj: dict[int, list[int]] = {}
        for x, y in self.links:
            adj.setdefault(x, []).append(y)
            adj.setdefault(y, []).append(x)
        self.link_adj = {x: sorted(ys, key=lambda y: -vals[y]) for x, ys in adj.items()}
        self.size = sum(len(v) for v in self.links.values())
        self.walks = self._walks()
        #: the roots of exact walks, best first: a sequence is walked from its first stop in
        #: this order, through stops after it only
        self.roots = sorted(self.link_adj, key=lambda s: -vals[s])
        self.rank = {s: i for i, s in enumerate(self.roots)}
        #: per (first neighbour, root): the most the root's other end can add per units left
        #: (:meth:`_walks`, its first step to a stop above that neighbour and after the root)
        self.arm_rows: dict[tuple[int, int], list[int]] = {}
        self.places = {(x, y): i for x, ys in self.link_adj.items() for i, y in enumerate(ys)}
        #: per link, the track every way uses and the track some way uses: a run avoiding
        #: track knows most links' ways left without a scan (#979's partner searches); set
        #: out by the first such run (a search of one train never avoids track)
        self.link_track: dict[tuple[int, int], tuple[int, int]] = {}
        #: what a run reads per stop, and the paying stops in reach of two stops
        #: (:meth:`run`'s ``reach_both``): the same for every run, kept between them (#979's
        #: nine partner searches worked them out again, a third of their walks)
        self.per_stop: tuple[list[Any], ...] | None = None
        #: per tail, its neighbours by link with their rows of the path bound (:meth:`run`)
        self.steps: dict[int, list[tuple[Any, ...]]] | None = None
        self.in_reach2: dict[
            tuple[int, int, int], tuple[list[tuple[int, int, bool]], list[Any]]
        ] = {}
        self.in_reach: dict[tuple[int, int], tuple[list[tuple[int, int]], ...]] = {}
        #: (id of a link's ways, the taken track and towns they can meet) -> the first way
        #: that fits there (None: none); the links as listed only, which live as long as
        #: the enumerator (:meth:`run`)
        self.fits: dict[tuple[int, int], _Option | None] = {}
        #: what the latest :meth:`run` with ``also`` listed beside the best route
        self.also_found: tuple[int, list[_Candidate] | None] | None = None
        #: every sequence's revenue is a multiple of this (1858: 10)
        self.step = 1
        if self.divisor == 1:
            self.step = math.gcd(*(v for v in self.vals if v > 0)) or 1

    def _walks(self) -> dict[tuple[int, int], list[int]] | None:
        """Per (previous stop, tail) -- previous -1 at a route's first stop -- and per distance
        units left, the most the stops a route can still add are worth if it only had to go
        from link to link and not straight back (stops may repeat: an upper bound).  Beside the
        bound of the best stops in reach, it knows that a route is a path: a tail whose
        neighbours are poor cannot collect the rich stops far away with few units left.  None
        when some stop costs no unit (its walks would be unbounded)."""
        if self.prune_row < 0:
            return None
        units = self.prune_limit = self.row_limit[self.prune_row]
        adj, vals, unit = self.link_adj, self.vals, self.unit_of
        if any(unit[x] <= 0 for x in adj):
            return None
        keys = [(x, y) for x, ys in adj.items() for y in ys] + [(-1, x) for x in adj]
        walks = {key: [0] * (units + 1) for key in keys}
        # per (previous, tail) -- but at a blocking tail, where a route ends --: its row, and
        # each next stop's (units, value, row); every row is read at fewer units left
        kind_ok, blocked = self.kind_ok, self.blocked
        rows = [
            (
                walks[(x, y)],
                [(unit[z], vals[z], walks[(y, z)]) for z in adj[y] if z != x and kind_ok[z]],
            )
            for x, y in keys
            if x < 0 or not blocked[y]
        ]
        for j in range(1, units + 1):
            for row, nexts in rows:
                top = 0
                for u, v, after in nexts:
                    if u <= j:
                        v += after[j - u]
                        if v > top:
                            top = v
                row[j] = top
        return walks

    @staticmethod
    def _links(cs: _ChainSet, free: list[bool]) -> _Links:
        """(links, stubs, shift, memo) of a chain set for trains passing ``free`` stops."""
        links: dict[tuple[int, int], list[_Option]] = {}
        stubs: dict[int, list[_Option]] = {}
        # the ways of one route are only ever compared with each other by ``both``
        shift = max((m.bit_length() for m in cs.masks), default=0)
        masks = cs.masks
        # per stop, its chains as (other stop, track, the track that can clash --
        # none when no other chain shares a key: a way can then only meet the chain by
        # stepping back onto a stop already on it --, the other stop's bit if it is
        # passed for free, else 0, and the chain and the stop as tuples to add to a way's);
        # a loop never starts a way
        once = twice = 0
        for m in masks:
            twice |= once & m
            once |= m
        adjacency = cs.adjacency
        # per free stop, the highest stop not passed for free next to its component of free
        # stops: a walk from x into a component whose highest is not above x makes no link
        # (each link is made from its lower end), so it is not walked
        top: dict[int, int] = {}
        for f in adjacency:
            if free[f] and f not in top:
                comp, todo, high = [f], [f], -1
                top[f] = -1
                while todo:
                    for _, o in adjacency[todo.pop()]:
                        if free[o]:
                            if o not in top:
                                top[o] = -1
                                comp.append(o)
                                todo.append(o)
                        elif o > high:
                            high = o
                for g in comp:
                    top[g] = high
        out = {
            s: [
                (
                    o,
                    masks[ci],
                    masks[ci] if masks[ci] & twice else 0,
                    1 << o if free[o] else 0,
                    (ci,),
                    (o,),
                    top.get(o, -1),
                )
                for ci, o in adj
                if o != s
            ]
            for s, adj in adjacency.items()
        }
        count = 0

        def walk(
            x: int,
            at: int,
            track: int,
            passed: int,
            chain_path: tuple[int, ...],
            inner: tuple[int, ...],
        ) -> None:
            nonlocal count
            for o, m, clash, bit, by, to, high in out[at]:
                if (clash and clash & track) or o == x:
                    continue
                if bit:
                    if not passed & bit and high > x:
                        walk(x, o, track | m, passed | bit, chain_path + by, inner + to)
                elif x < o:  # each link once; the other direction is the same ways
                    m |= track
                    links.setdefault((x, o), []).append(
                        _Option(m, passed, chain_path + by, inner, x, m | passed << shift)
                    )
                    count += 1
                    if count > _MAX_WAYS:
                        raise _Budget

        for x, steps in out.items():
            if free[x]:
                continue
            # (the first step, on no track yet: a chain to a free stop is also a stub)
            for o, m, _, bit, by, to, high in steps:
                if bit:
                    stubs.setdefault(x, []).append(_Option(m, bit, by, to, -1, m | bit << shift))
                    if high > x:
                        walk(x, o, m, bit, by, to)
                elif x < o:
                    links.setdefault((x, o), []).append(_Option(m, 0, by, (), x, m))
                    count += 1
                    if count > _MAX_WAYS:
                        raise _Budget
        walk = None  # type: ignore[assignment]  # (a reference cycle: freed now)
        # fewest keys first: a short way leaves the most for the other links and trains
        sorted_links = {
            k: tuple(sorted(v, key=lambda o: o.track.bit_count())) for k, v in links.items()
        }
        #: avoided track -> (ways per link, link cores, links that fit together, solved
        #: sequences), shared by the runs of one search
        memo: dict[int, tuple[dict[Any, Any], ...]] = {}
        return sorted_links, {k: tuple(v) for k, v in stubs.items()}, shift, memo

    def run(
        self,
        threshold: int,
        *,
        best_only: bool = False,
        avoid: int = 0,
        limit: int | None = None,
        partners: Sequence[tuple[int, int]] = (),
        floor: int = 0,
        target: int = 0,
        also: Callable[[int], int] | None = None,
    ) -> list[_Candidate]:
        """As :meth:`_Enumerator.run`, but listing sequences (``links`` set); ``best_only``
        returns the best one realised as a plain route.

        ``partners`` (revenue, core track), best first: every route worth at least
        ``floor`` (two identical trains; a run must be worth ``target``).  A sequence whose
        bound ``b`` leaves ``target - b >= floor`` to its partner is then entered only if one
        of them worth ``target - b`` avoids its core: the other route of such a run is in the
        list, and its track avoids all the track this one must use.

        ``also`` (exact ``best_only`` only): the same walk also lists every sequence worth at
        least ``also(v)``, ``v`` the best found so far (a non-decreasing function, at most
        ``v``), kept in :attr:`also_found` as ``(also(best), sequences in the walk's order)``,
        or ``(v, None)`` when more than ``_START_LIST`` sequences were found worth ``v``: the
        list a twin start needs next, without a second walk over the best route's tree
        (:meth:`_RunSearch.best`)."""
        stops = self.stops
        blocked, token, to_token, inf = self.blocked, self.token, self.to_token, self.inf
        vals = self.vals
        row_of, row_limit, kind_ok = self.row_of, self.row_limit, self.kind_ok
        prune_row = self.prune_row
        if self.per_stop is None:
            self.per_stop = (
                [s.groups for s in stops],
                [vals[i] == 0 and not token[i] for i in range(len(stops))],
                [st.visit_cost for st in stops],
                list(self.unit_of),
            )
        groups, dull, cost, unit = self.per_stop
        divisor = self.divisor
        near = self.near
        end_only = self.end_only
        shift = self.shift
        prune_limit = row_limit[prune_row] if prune_row >= 0 else 0
        all_links = self.links
        walks = self.walks
        # per tail, its neighbours by link with their rows of the path bound and everything
        # the walk reads of them (one lookup, unpacked at once)
        steps = self.steps
        if steps is None:
            steps = self.steps = {
                x: [
                    (
                        y,
                        walks[(x, y)] if walks is not None else None,
                        row_of[y],
                        cost[y],
                        kind_ok[y],
                        groups[y],
                        token[y],
                        to_token[y],
                        unit[y],
                        vals[y],
                    )
                    for y in ys
                ]
                for x, ys in self.link_adj.items()
            }
        # per (stop, distance units left): its paying stops in reach (:meth:`near`) -- those
        # a route can pass, those it can only end at, the uncounted ones -- as (value, stop),
        # best first
        in_reach = self.in_reach
        # per avoided track, kept between runs (the greedy and list runs walk the same tree)
        ways, infos, pairs, solutions, trios, trio_fits = self.memo.setdefault(
            avoid, ({}, {}, {}, {}, {}, {})
        )
        link_track = self.link_track
        if avoid and not link_track:
            for xy, opts in all_links.items():
                common, some = -1, 0
                for o in opts:
                    common &= o.track
                    some |= o.track
                link_track[xy] = (common, some)
        fits = self.fits

        def options(x: int, y: int) -> tuple[_Option, ...]:
            if x > y:
                x, y = y, x
            found = ways.get((x, y))
            if found is None:
                found = all_links[(x, y)]
                if avoid:
                    common, some = link_track[(x, y)]
                    if common & avoid:
                        found = ()  # (every way runs over the avoided track)
                    elif some & avoid:
                        found = tuple([o for o in found if not o.track & avoid])
                ways[(x, y)] = found
            return found

        if avoid and self.work is None:
            # an exact search does not look at a link whose ways all run over the avoided
            # track (a budgeted one keeps the steps its work was charged for): #979's
            # partner searches found 636 of 881 such links after bounding the sequence
            steps = {x: [t for t in ts if options(x, t[0])] for x, ts in steps.items()}

        out: list[_Candidate] = []
        best: list[_Candidate] = []
        route: list[int] = []
        link_opts: list[tuple[_Option, ...]] = []
        link_infos: list[_LinkInfo] = []  # (theirs: :func:`link_info`)
        # per step (tail * n_stops + stop): its link's ways and :func:`link_info` (this run's)
        link_at: dict[int, tuple[tuple[_Option, ...], _LinkInfo]] = {}
        n_stops = len(stops)
        witness: list[_Option] = []
        on_route = bytearray(len(stops))
        group_used: set[str] = set()
        counts = [0] * max(1, len(row_limit))
        need = max(threshold, 1) * divisor

        place = self.places
        best_key: list[tuple[int, ...]] = []
        # (``also``: list the good sequences on the best route's walk; exact searches only)
        collect = also is not None and best_only and self.work is None
        too_many = 0  # (more than ``_START_LIST`` sequences were worth this much)

        def old_order(c: _Candidate) -> tuple[int, ...]:
            """Where the walk from both ends finds ``c``: by first stop in ``roots``, then
            each next stop by its place among the neighbours (stubs after the walk)."""
            stops = c.stops
            if len(stops) == 1:
                return (1 << 30,)
            return (
                self.rank[stops[0]],
                *map(place.__getitem__, itertools.pairwise(stops)),
            )

        def record(raw: int) -> None:
            nonlocal need, collect, too_many
            value = raw // divisor
            if value <= 0 or raw < need:
                return
            mask = 0
            chains: list[int] = []
            core = 0
            # (kept from its lower end: the walk of exact searches may hold it the other way)
            flip = route[0] > route[-1]
            stops_kept = route[::-1] if flip else route
            ways_kept = witness[::-1] if flip else witness
            links_kept = link_opts[::-1] if flip else link_opts
            for o in ways_kept:
                mask |= o.track
                chains.extend(o.chains)
            # the ways as propagated when this sequence was solved: the rest can never be run
            # with the others, and dropping them makes every later question smaller
            narrowed = prefix[-1] if prefix and (not best_only or collect) else None
            settled = False
            if narrowed is not None and len(narrowed) == len(link_opts):
                settled = True
                links = tuple(map(tuple, narrowed[::-1] if flip else narrowed))
                known = prefix_cores[-1]
                if known is not None:
                    # (their cores as propagated, track and towns: the track is below ``shift``)
                    for common in known:
                        core |= common
                    core &= (1 << shift) - 1
                else:
                    for opts in links:
                        common = -1
                        for o in opts:
                            common &= o.track
                        core |= common
            else:
                # (the links as listed: their cores are known; #979: 133,533 ways were
                # scanned here for 1,170 sequences, three in four of them not narrowed)
                links = tuple(links_kept)
                for li in link_infos:
                    core |= li[0]
            c = _Candidate(
                tuple(stops_kept),
                tuple(chains),
                mask,
                value,
                links,
                tuple(ways_kept),
                core,
                settled,
            )
            if best_only:
                if once:
                    if collect:
                        # (every sequence the walk passes is worth at least ``also`` of the
                        # best so far: listed, and the list cut to the need as it rises)
                        out.append(c)
                        if best and value < best[0].revenue:
                            return
                    # of routes of the best revenue, the first the walk from both ends finds
                    # (the same best route, so the same greedy run and thresholds)
                    key = old_order(c)
                    if best and best[0].revenue == value and best_key[0] <= key:
                        return
                    best_key[:] = [key]
                    best[:] = [_realise(c, ways_kept)]
                    if collect:
                        assert also is not None
                        need = also(value) * divisor
                        if len(out) > _START_LIST:
                            out[:] = [x for x in out if x.revenue * divisor >= need]
                            if len(out) > _START_LIST:
                                # (too many good routes for twin starts: the best route alone)
                                collect = False
                                out.clear()
                                too_many = need // divisor
                                need = value * divisor
                    else:
                        need = value * divisor
                    return
                best[:] = [_realise(c, ways_kept)]
                need = (value + 1) * divisor
                return
            out.append(c)
            if limit is not None and len(out) > limit:
                raise _Budget

        def link_info(opts: tuple[_Option, ...]) -> _LinkInfo:
            """What the walk reads of a link (its ways ``opts``), worked out once: the
            track, towns, and both in one mask, that every way uses; the track and towns
            (one mask) some way uses; the link's bit (a set of links is an int: the memo's
            keys, pairs, trios)."""
            found = infos.get(id(opts))
            if found is None:
                t = s = b = -1
                u = 0
                for o in opts:
                    t &= o.track
                    s &= o.stops
                    ob = o.both
                    b &= ob
                    u |= ob
                found = infos[id(opts)] = (t, s, b, u, 1 << len(infos))
            return found

        def clashes(opts: tuple[_Option, ...], li: _LinkInfo, others: int) -> bool:
            """Some link of the sequence (``link_opts``, bits ``others``) and no way of it
            can run beside a way of link ``opts`` (:func:`link_info` ``li``) in one route.
            ``pairs``: per link bit, [links asked about, those that clash], as bits."""
            bit = li[4]
            known = pairs.get(bit)
            if known is None:
                known = pairs[bit] = [0, 0]
            if known[1] & others:
                return True
            todo = others & ~known[0]
            if todo:
                for x, xi in zip(link_opts, link_infos, strict=True):
                    if xi[4] & todo and not compatible(x, xi, opts, li):
                        return True
            return False

        def compatible(
            a: tuple[_Option, ...], ai: _LinkInfo, b: tuple[_Option, ...], bi: _LinkInfo
        ) -> bool:
            """Some way of link a and some way of link b fit in one route (recorded in
            ``pairs`` both ways)."""
            # (cores crossing: never; nothing of one anywhere on the other: always)
            cb = bi[2]
            ub = bi[3]
            if ai[2] & cb:
                found = False
            elif not ai[3] & ub:
                found = True
            else:
                # (a way of a that misses b's union fits any way of b; one that meets b's
                # core fits none)
                theirs = link_boths(b)
                found = False
                for xb in link_boths(a):
                    if not xb & ub:
                        found = True
                        break
                    if xb & cb:
                        continue
                    for y in theirs:
                        if not xb & y:
                            found = True
                            break
                    if found:
                        break
            abit, bbit = ai[4], bi[4]
            for p, q in ((abit, bbit), (bbit, abit)):
                known = pairs.get(p)
                if known is None:
                    known = pairs[p] = [0, 0]
                known[0] |= q
                if not found:
                    known[1] |= q
            return found

        boths: dict[int, list[int]] = {}  # id of a link's ways -> their ``both`` masks

        def link_boths(opts: tuple[_Option, ...]) -> list[int]:
            found = boths.get(id(opts))
            if found is None:
                found = boths[id(opts)] = [o.both for o in opts]
            return found

        def learn_trio(opts: tuple[_Option, ...], li: _LinkInfo, failed: int) -> bool:
            """After the sequence failed with link ``opts``: two links of it that cannot run
            with ``opts`` in one route, if there are such (pairs were ruled out already);
            kept for every later sequence (most failures have such a small reason).  Whether
            one was found.  ``failed``: the sequence's links (bits): three of them are the
            question just answered, and a trio asked before as a sequence has its answer in
            ``solutions``."""
            # (some way of one crosses some way of the other exactly when their unions meet)
            mine = li[3]
            near = [(x, xi) for x, xi in zip(link_opts, link_infos, strict=True) if mine & xi[3]]
            xb = li[4]
            for i, (y, yi) in enumerate(near):
                yb = yi[4]
                for z, zi in near[i + 1 :]:
                    zb = zi[4]
                    key = xb | yb | zb
                    ok = trio_fits.get(key)
                    if ok is None:
                        # (the trio was asked as a sequence: a question of three links that
                        # failed was asked again here; #979: 26 of 314 trios, #940 21 of 59)
                        if key == failed:
                            ok = trio_fits[key] = False
                        elif key in solutions:
                            ok = trio_fits[key] = solutions[key][0] is not None
                    if ok is None:
                        # a way of one link clear of the other two's unions: the question is
                        # theirs, and each two links fit (#979: 96 of the 314 trios asked)
                        uy, uz = yi[3], zi[3]
                        for w, wc, m in (
                            (opts, li[2], uy | uz),
                            (y, yi[2], mine | uz),
                            (z, zi[2], mine | uy),
                        ):
                            if wc & m:
                                continue  # (every way of it meets the other two)
                            for b in link_boths(w):
                                if not b & m:
                                    ok = trio_fits[key] = True
                                    break
                            if ok:
                                break
                    if ok is None:
                        # (:func:`_solve` of the three, with the cores and unions known)
                        trio = (opts, y, z)
                        doms = _propagate_one(list(trio), [li[2], yi[2], zi[2]], [mine, uy, uz])
                        ok = trio_fits[key] = doms is not None and (
                            _greedy_route(doms) is not None or _fit_three(*doms)
                        )
                    if not ok:
                        for a, bc in ((xb, yb | zb), (yb, xb | zb), (zb, xb | yb)):
                            trios.setdefault(a, []).append(bc)
                        return True
            return False

        def fixpoint_cut(cores: list[int]) -> list[int]:
            """What each domain of a fixpoint with ``cores`` was cut by (the others' cores),
            and nothing yet for one link added after them."""
            n = len(cores)
            out = [0] * (n + 1)
            acc = 0
            for i in range(n - 1, -1, -1):
                out[i] = acc
                acc |= cores[i]
            acc = 0
            for i in range(n):
                out[i] |= acc
                acc |= cores[i]
            return out

        # per depth, the links so far with their ways propagated (None: not needed yet)
        prefix: list[list[Sequence[_Option]] | None] = [[]]
        link_set = [0]  # per depth, the bits of the links so far (:func:`link_bit`)
        prefix_cores: list[list[int] | None] = [[]]  # their cores (None: not known yet)
        # where the entries of ``prefix`` in the walk's present order begin (an exact search
        # turns its route round once: the entries below are of the other order)
        bases = [0]
        work = self.work
        # exact searches walk each sequence once (from its root: its first stop in
        # ``roots``); a budgeted one keeps the walk its work was charged for
        once = work is None
        # per (stop, root, units left): the paying stops in reach of either, best first, as
        # (value, stop, a stop a route can only end at), and the free ones (value, stop)
        in_reach2 = self.in_reach2

        def reach_both(
            x: int, y: int, left: int
        ) -> tuple[list[tuple[int, int, bool]], list[tuple[int, int]]]:
            """The paying stops within ``left`` units of ``x`` or ``y`` (``in_reach2``)."""
            counted: dict[int, int] = {}
            free_in: dict[int, int] = {}
            for s in (x, y) if x != y else (x,):
                c_counted, c_free = near(s)
                if left > 0:
                    for v, d, st in c_counted:
                        if d <= left:
                            counted[st] = v
                for v, d, st in c_free:
                    if d <= left:
                        free_in[st] = v
            found = in_reach2[(x, y, left)] = (
                sorted(
                    ((v, st, end_only[st]) for st, v in counted.items()),
                    key=lambda e: -e[0],
                ),
                [(v, st) for st, v in free_in.items()],
            )
            return found

        def both_top(
            top: int,
            both: tuple[list[tuple[int, int, bool]], list[tuple[int, int]]],
            units: int,
            skip: int,
        ) -> int:
            """``top`` plus the best ``units`` paying stops of ``both`` (:func:`reach_both`)
            off the route and other than ``skip``, at most two of them stops a route can only
            end at (one at each end), plus the uncounted ones: the two-ended bound."""
            taken = ends = 0
            for v, st, e in both[0]:
                if st == skip or on_route[st]:
                    continue
                if e:
                    if ends >= 2:
                        continue
                    ends += 1
                top += v
                taken += 1
                if taken >= units:
                    break
            for v, st in both[1]:
                if st != skip and not on_route[st]:
                    top += v
            return top

        arm_rows = self.arm_rows
        rank = self.rank
        link_adj = self.link_adj

        def arm_row(a1: int, root: int) -> list[int]:
            """Per units left, the most the root's other end can add: its first step to a
            stop after the root and of higher id than ``a1``, then :meth:`_walks`."""
            assert walks is not None
            row = [0] * (prune_limit + 1)
            after = rank[root]
            for b in link_adj[root]:
                u = unit[b]
                if b <= a1 or rank[b] <= after or not kind_ok[b]:
                    continue
                w = walks[(root, b)]
                v = vals[b]
                for j in range(u, prune_limit + 1):
                    if v + w[j - u] > row[j]:
                        row[j] = v + w[j - u]
            arm_rows[(a1, root)] = row
            return row

        def extend(
            raw: int,
            has_token: bool,
            track: int,
            passed: int,
            core_t: int,
            core_s: int,
            phase: int = 0,
            above: int = -1,
        ) -> None:
            """A node of the walk: ``phase`` 0 the walk of a budgeted search (from each end,
            kept from the lower one); exact searches walk each sequence once from its root
            ``route[0]`` (its first stop in :attr:`roots`): phase 1 grows one end, phase 2
            the other end after the route was turned round (its first step to a stop above
            ``above``; -1 after it)."""
            nonlocal witness
            if work is not None:
                work.charge()  # a node of the walk
            tail = route[-1]
            n = len(route)
            first = route[0]
            if phase == 0:
                if (
                    n > 1
                    and has_token
                    and first < tail
                    and (n == 2 or not (dull[tail] or dull[first]))
                ):
                    record(raw)
                if n > 1 and (blocked[tail] or dull[first]):
                    return
                if n == 1:  # (a longer sequence was bounded before it was entered)
                    counted, free_vals = near(tail)
                    k = prune_limit - counts[prune_row] if prune_row >= 0 else inf
                    if _bound(raw, counted, free_vals, k, k, on_route, end_only) < need:
                        return
                    if walks is not None and raw + walks[(-1, tail)][k] < need:
                        return
                grow = True
            else:
                if (
                    n > 1
                    and above < 0
                    and has_token
                    and (n == 2 or not (dull[tail] or dull[first]))
                ):
                    record(raw)
                if phase == 2:
                    if blocked[tail] or dull[first]:
                        return
                    grow = True
                else:
                    # (a dull root, or tail, may still end up inside the sequence)
                    grow = n == 1 or not blocked[tail]
                    root = route[0]
                    # the other end's walks: from the root, not back to its first neighbour
                    # (none when the root blocks: it can only be an end)
                    root_open = not blocked[root]
                    root_token = to_token[root] if root_open else inf
                    if n == 1:
                        # the root and the best stops left in its reach (two ends may grow)
                        k = prune_limit - counts[prune_row] if prune_row >= 0 else inf
                        both = in_reach2.get((root, root, k))
                        if both is None:
                            both = reach_both(root, root, k)
                        if both_top(raw, both, k, -1) < need:
                            return
            if (
                phase == 1
                and n > 1
                and root_open
                and not dull[tail]
                and (
                    walks is None
                    or raw
                    + (arm_rows.get((route[1], root)) or arm_row(route[1], root))[
                        prune_limit - counts[prune_row]
                    ]
                    >= need
                )
            ):
                # the other end: the route turned round, grown from the root; its first step
                # goes above the root's first neighbour (each sequence through the root once)
                route.reverse()
                link_opts.reverse()
                link_infos.reverse()
                witness.reverse()
                done = prefix[-1]
                prefix.append(None if done is None else done[::-1])
                done_cores = prefix_cores[-1]
                prefix_cores.append(None if done_cores is None else done_cores[::-1])
                bases.append(len(prefix) - 1)
                extend(raw, has_token, track, passed, core_t, core_s, 2, route[-2])
                bases.pop()
                prefix.pop()
                prefix_cores.pop()
                route.reverse()
                link_opts.reverse()
                link_infos.reverse()
                witness.reverse()
            taken_both = track | passed << shift
            core_both = core_t | core_s << shift
            # (the units left at this node: a step to ``other`` leaves this less its unit)
            units = prune_limit - counts[prune_row] if prune_row >= 0 else inf
            at = tail * n_stops  # (``link_at``'s keys from this tail)
            for other, walk_row, row, c, ok, g, tk, tt, u, worth in (
                steps.get(tail, ()) if grow else ()
            ):
                if work is not None:
                    work.charge()  # a step looked at
                if on_route[other] or other <= above:
                    continue
                if row_limit:
                    if not ok:
                        continue
                    if row >= 0 and counts[row] + c > row_limit[row]:
                        continue
                if g and not group_used.isdisjoint(g):
                    continue
                # (without a binding row: no unit, and inf left)
                left = units - u
                tok = has_token or tk
                if not tok:
                    if phase == 1 and root_token < tt:
                        tt = root_token  # (the station may be reached from the root's side)
                    if tt >= inf or left < tt:
                        continue
                # the longer sequence's bound, before its ways are looked at or solved (7E at
                # random 1858 p6 seed 20 #1060: most CSPs were for sequences it cuts at once)
                path_top = inf  # (the path bound, when there are walks)
                if walk_row is not None:
                    if phase == 1 and root_open:
                        # both ends may still grow: the best split of the units left
                        a1 = route[1] if n > 1 else other
                        root_row = arm_rows.get((a1, root))
                        if root_row is None:
                            root_row = arm_row(a1, root)
                        path_top = (
                            raw + worth + max(map(_add, walk_row[: left + 1], root_row[left::-1]))
                        )
                    else:
                        path_top = raw + worth + walk_row[left]
                    if path_top < need:
                        continue
                if phase == 1:
                    # :func:`_bound` over the stops in reach of either end, at most two of
                    # them stops a route can only end at
                    both = in_reach2.get((other, root, left) if root_open else (other, other, left))
                    if both is None:
                        both = reach_both(other, root if root_open else other, left)
                    top = both_top(raw + worth, both, left, other)
                else:
                    # :func:`_bound` (the tail's paying stops within the units left, best first,
                    # cut to that distance once per tail and units)
                    within = in_reach.get((other, left))
                    if within is None:
                        c_counted, c_free = near(other)
                        counted_in = (
                            [(v, st) for v, d, st in c_counted if d <= left] if left > 0 else []
                        )
                        within = in_reach[(other, left)] = (
                            [(v, st) for v, st in counted_in if not end_only[st]],
                            [(v, st) for v, st in counted_in if end_only[st]],
                            [(v, st) for v, d, st in c_free if d <= left],
                        )
                    # at most one stop a route can only end at: the best one left, taken where
                    # its value falls among the others (the sum of the best ``left`` values)
                    end_v = 0
                    for v, st in within[1]:
                        if st != other and not on_route[st]:
                            end_v = v
                            break
                    top = raw + worth
                    taken = 0
                    for v, st in within[0]:
                        if st == other or on_route[st]:
                            continue
                        if end_v > v:
                            top += end_v
                            end_v = 0
                            taken += 1
                            if taken >= left:
                                break
                        top += v
                        taken += 1
                        if taken >= left:
                            break
                    else:
                        if end_v and taken < left:
                            top += end_v
                    for v, st in within[2]:
                        if st != other and not on_route[st]:
                            top += v
                if top < need:
                    continue
                # (the link's ways and what is read of them, by one int-keyed lookup)
                got = link_at.get(at + other)
                if got is None:
                    found = options(tail, other)
                    got = link_at[at + other] = (found, link_info(found) if found else _NO_INFO)
                opts, li = got
                if not opts:
                    continue
                # (the lesser of the two bounds: an exact search's partner cut bites sooner;
                # a budgeted one keeps the cut its work was charged for)
                rest = target - (top if not once or top < path_top else path_top) // divisor
                if partners and rest >= floor:
                    if not _has_partner(partners, rest, core_t | li[0]):
                        continue  # (the partners all earn too little or clash)
                # extend the current realisation if one way fits; else re-solve the whole
                # sequence (earlier links may have to run another way)
                # (none when the track every way uses is taken)
                way = None
                if not li[2] & taken_both:
                    if avoid:
                        for o in opts:
                            if not o.both & taken_both:
                                way = o
                                break
                    else:
                        # (the first way that fits reads only the taken track and towns that
                        # some way of the link uses: remembered by those, #979 2,608 scans of
                        # 30 ways on average for 818 answers; random 1858 p6 seed 7 #1720
                        # 21,845 for 497)
                        fit_key = (id(opts), taken_both & li[3])
                        if fit_key in fits:
                            way = fits[fit_key]
                        else:
                            for o in opts:
                                if not o.both & taken_both:
                                    way = o
                                    break
                            fits[fit_key] = way
                saved = None
                narrowed: list[Sequence[_Option]] | None = None
                narrowed_cores: list[int] | None = None  # (their cores, when worked out)
                if way is None and li[2] & core_both:
                    # every way crosses track or a town the sequence must use: refuted
                    # before any lookup (#979's list: 1,398 of the 4,440 links whose way
                    # did not fit the realisation)
                    continue
                if way is None:
                    # a sequence's ways fit or not whatever order its links come in: the
                    # answer, or its refutation by a cheap proof, is looked up first (7E+7E
                    # at random 1858 p6 seed 20 #1219: the list of 1,753 sequences asked
                    # the cheap proofs 18,542 times, scanning 480,531 ways)
                    # (the set of links as an int: one bit per link)
                    lbit = li[4]
                    others = link_set[-1]
                    skey = others | lbit
                    known = solutions.get(skey)
                    if known is None:
                        # cheap proofs first: the link cannot run beside one of the links
                        # already taken, or three of its links (or, in an exact search, a
                        # set of them) were found unable to run in one route, or every way
                        # hits track (or a town) the sequence must use; the pairs known to
                        # clash before the trios, and the pairs not yet asked after them
                        # (each pair is asked once, so a sequence a trio refutes may spare
                        # the scans of its ways) -- loops, not generators: #979 asks 1,534
                        refuted = pairs.get(lbit, _NO_PAIR)[1] & others
                        if not refuted:
                            for bc in trios.get(lbit, ()):
                                if bc & others == bc:
                                    refuted = 1
                                    break
                            else:
                                if clashes(opts, li, others):
                                    refuted = 1
                                else:
                                    refuted = 1
                                    for o in opts:
                                        if not o.both & core_both:
                                            refuted = 0
                                            break
                        if refuted:
                            known = solutions[skey] = _REFUTED
                    if known is not None:
                        # remembered by link (the same links may have come in another order)
                        by_link, narrowed_by = known
                        order = [*link_opts, opts]
                        solved = None if by_link is None else [by_link[id(x)] for x in order]
                        narrowed = (
                            None if narrowed_by is None else [narrowed_by[id(x)] for x in order]
                        )
                    else:
                        if work is not None:  # a joint question: the ways it looks at
                            work.charge(len(opts) + sum(map(len, link_opts)))
                        # (an exact search first looks for a trio to blame, which then
                        # spares the propagation and the backtracking: most failed questions
                        # have one, and the answer is the same; a budgeted one keeps the
                        # order its work was charged for)
                        blamed = asked = False
                        solved = None
                        if once and prefix[-1] is None:
                            asked = True
                            blamed = learn_trio(opts, li, 0)
                        if not blamed:
                            # the links so far, propagated once per prefix (siblings share it),
                            # with their cores there; the new link is then propagated against
                            # them, scanning only the links whose ways can meet a core
                            # (unions of the links as listed hold those of their ways left)
                            unions = [xi[3] for xi in link_infos]
                            done_cores = prefix_cores[-1]
                            if prefix[-1] is None:
                                done_cores = prefix_cores[-1] = []
                                # the nearest ancestor in this order whose links were propagated
                                # (the root's: none of them): only the links after it are added
                                # to its fixpoint (#979: 153 prefixes propagated from scratch)
                                up: list[Sequence[_Option]] | None = []
                                up_cores: list[int] | None = []
                                for j in range(len(prefix) - 2, bases[-1] - 1, -1):
                                    if prefix[j] is not None and prefix_cores[j] is not None:
                                        up, up_cores = prefix[j], prefix_cores[j]
                                        break
                                assert up is not None and up_cores is not None
                                m = len(up)
                                cut = fixpoint_cut(up_cores)
                                if m < len(link_opts) - 1:
                                    cut.extend([0] * (len(link_opts) - 1 - m))
                                prefix[-1] = _propagate_one(
                                    [*up, *link_opts[m:]],
                                    [*up_cores, *[xi[2] for xi in link_infos[m:]]],
                                    unions,
                                    done_cores,
                                    cut,
                                )
                            done = prefix[-1]
                            assert done is not None  # the prefix has a realisation
                            if done_cores is None:
                                done_cores = prefix_cores[-1] = []
                                for d in done:
                                    common = -1
                                    for o in d:
                                        common &= o.both
                                    done_cores.append(common)
                            unions.append(li[3])
                            narrowed_cores = []
                            narrowed = _propagate_one(
                                [*done, opts],
                                [*done_cores, li[2]],
                                unions,
                                narrowed_cores,
                                fixpoint_cut(done_cores),
                            )
                            solved = None if narrowed is None else _greedy_route(narrowed)
                            if solved is None and narrowed is not None:
                                if once and not asked:
                                    asked = True
                                    blamed = learn_trio(opts, li, 0)
                                if not blamed:
                                    solved = _search_route(narrowed)
                        order = [*link_opts, opts]
                        if (
                            solved is None
                            and not blamed
                            and (asked or not learn_trio(opts, li, skey))
                            and once
                        ):
                            # no trio to blame: the set of links itself is the reason,
                            # refuting every sequence that holds them all (exact searches:
                            # a budgeted one is charged for the questions it asks)
                            m = skey
                            while m:
                                b = m & -m
                                trios.setdefault(b, []).append(skey ^ b)
                                m ^= b
                        solutions[skey] = (
                            None
                            if solved is None
                            else {id(x): w for x, w in zip(order, solved, strict=True)},
                            None
                            if narrowed is None
                            else {id(x): d for x, d in zip(order, narrowed, strict=True)},
                        )
                    if solved is None:
                        continue
                    saved = witness
                    witness = solved[:-1]
                    way = solved[-1]
                    new_track = new_passed = 0
                    for o in witness:
                        new_track |= o.track
                        new_passed |= o.stops
                else:
                    new_track, new_passed = track, passed
                prefix.append(narrowed)
                prefix_cores.append(narrowed_cores if narrowed is not None else None)
                route.append(other)
                link_opts.append(opts)
                link_set.append(link_set[-1] | li[4])
                link_infos.append(li)
                witness.append(way)
                on_route[other] = 1
                if g:
                    group_used.update(g)
                if row >= 0:
                    counts[row] += c
                lt, ls = li[0], li[1]
                extend(
                    raw + worth,
                    tok,
                    new_track | way.track,
                    new_passed | way.stops,
                    core_t | lt,
                    core_s | ls,
                    phase,
                )
                prefix.pop()
                prefix_cores.pop()
                if row >= 0:
                    counts[row] -= c
                if g:
                    group_used.difference_update(g)
                on_route[other] = 0
                witness.pop()
                link_opts.pop()
                link_infos.pop()
                link_set.pop()
                route.pop()
                if saved is not None:
                    witness = saved
                    # the earlier links keep their old ways, which fit the shorter sequence

        try:
            for start in self.roots:
                row = row_of[start]
                if row_limit:
                    if not kind_ok[start]:
                        continue
                    if row >= 0 and cost[start] > row_limit[row]:
                        continue
                if to_token[start] >= inf:
                    continue
                route.append(start)
                on_route[start] = 1
                group_used.update(groups[start])
                if row >= 0:
                    counts[row] += cost[start]
                extend(vals[start], token[start], 0, 0, 0, 0, 1 if once else 0)
                if row >= 0:
                    counts[row] -= cost[start]
                group_used.difference_update(groups[start])
                if not once:
                    on_route[start] = 0
                # (else the root stays out of later walks: a sequence is walked from its
                # first stop in this order, the best one)
                route.pop()
            on_route[:] = bytes(len(on_route))
        except _OutOfWork as stop:
            if not best_only:
                stop.partial = out
                raise
            # the budget ran out: the best route found so far (a legal one), if any
            route.clear()
            link_opts.clear()
            link_infos.clear()
            witness.clear()
        # stubs: a stop with the company's station and one chain to a free stop
        for x, stub in self.stubs.items():
            if not token[x] or vals[x] < need:
                continue
            opts = stub
            if avoid:
                # (kept in the memo: ``link_info`` remembers a tuple by its id, which a freed
                # tuple would hand on to the next one)
                found = ways.get((x, -1))
                if found is None:
                    found = ways[(x, -1)] = tuple(o for o in stub if not o.track & avoid)
                opts = found
            if not opts:
                continue
            route[:] = [x]
            link_opts[:] = [opts]
            link_infos[:] = [link_info(opts)]
            witness[:] = [opts[0]]
            record(vals[x])
            route.clear()
            link_opts.clear()
            link_infos.clear()
            witness.clear()
        extend = None  # type: ignore[assignment]  # (a reference cycle: freed now)
        if once and len(out) > 1:
            out.sort(key=old_order)
        if also is not None:
            self.also_found = None
            if collect and best:
                least = also(best[0].revenue)
                self.also_found = (least, [c for c in out if c.revenue >= least])
            elif too_many:
                self.also_found = (too_many, None)
        return best if best_only else out


def best_routes(
    graph: TrackGraph,
    trains: Sequence[tuple[str, TrainSpec]],
    *,
    phase: Sequence[str],
    company: str,
    tokens: Tokens,
    rules: RouteRules = DEFAULT_ROUTE_RULES,
    limit: int | None = None,
    budget: int | None = None,
) -> BestRoutes:
    """The company's highest-earning legal run (exact; algorithm in the module docstring).

    ``trains``: (train id, spec) of every train the company may run now.  ``limit``: for
    callers that need any good legal run quickly (random play): when proving the optimum
    would list more than ``limit`` candidate routes, the best run found so far (at least the
    greedy one) is returned with ``exact=False``.  ``budget``: units of work (:class:`Work`,
    "Budget" in the module docstring; :data:`PLAY_BUDGET` for play); when they run out, the
    best legal run found so far, ``exact=False``.  Without either the result is always exact.
    """
    with _collector_paused():
        return _best_routes(graph, trains, phase, company, tokens, rules, limit, budget)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while the search runs: everything it makes is freed by
    reference counting, and a collection pass in the middle of it walks the whole game's heap
    for nothing -- in a late game one pass costs 30-100 ms, most of a slow search's time."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _best_routes(
    graph: TrackGraph,
    trains: Sequence[tuple[str, TrainSpec]],
    phase: Sequence[str],
    company: str,
    tokens: Tokens,
    rules: RouteRules,
    limit: int | None,
    budget: int | None = None,
) -> BestRoutes:
    chain_sets: dict[str, _ChainSet] = {}
    bits: dict[int, int] = {}
    for _, spec in trains:
        family = "metre" if spec.gauge in ("metre", "narrow") else "broad"
        if family not in chain_sets:
            chain_sets[family] = _chain_set(graph, company, tokens, family, bits)
    where = _map_inputs(graph, chain_sets, phase, company, tokens, rules)
    # (a budgeted result depends on its inputs and budget alone: remembered like any other)
    key = (where, tuple(trains), limit) if budget is None else (where, tuple(trains), limit, budget)
    known = _RECENT.get(key)
    if known is not None:
        _RECENT.move_to_end(key)
        return known
    budgeted = None if budget is None else Work(budget)
    work = _MAPS.get(where)
    if budgeted is not None:
        # a budgeted search reuses no work of earlier searches (and leaves none): it must
        # stop at the same point, with the same routes found, whatever ran before it
        work = _MapWork(chain_sets)
    elif work is None:
        work = _MAPS[where] = _MapWork(chain_sets)
        if len(_MAPS) > _MAPS_SIZE:
            _MAPS.popitem(last=False)
        # the same chains with another station somewhere (distances and bounds change) still
        # have the same ways through a town mesh, and the same answers about them
        for cs in chain_sets.values():
            track = (tuple(cs.chains), tuple(cs.masks))
            links = _LINK_SETS.get(track)
            if links is None:
                _LINK_SETS[track] = cs.links
                if len(_LINK_SETS) > _MAPS_SIZE:
                    _LINK_SETS.popitem(last=False)
            else:
                _LINK_SETS.move_to_end(track)
                cs.links = links
                _trim(links)
    else:
        _MAPS.move_to_end(where)
        # the same chains (so the same track numbering): every table, way and answer the
        # earlier searches worked out still holds
        chain_sets = work.chain_sets
        for cs in chain_sets.values():
            _trim(cs.links)
    enumerators: dict[TrainSpec, _Enumerator] = {}
    for _, spec in trains:
        if spec in enumerators:
            continue
        en = work.enumerators.get(spec)
        if en is None:
            family = "metre" if spec.gauge in ("metre", "narrow") else "broad"
            en = _Enumerator(
                graph,
                chain_sets[family],
                spec,
                phase=phase,
                company=company,
                tokens=tokens,
                rules=rules,
            )
            free = _LinkEnumerator.free_stops(en)
            if free is not None:
                try:
                    en = _LinkEnumerator(en, free)
                except _Budget:
                    pass  # a mesh too big to list its ways: the plain walk
            en.work = budgeted
            work.enumerators[spec] = en
        enumerators[spec] = en
    search = _RunSearch(graph, chain_sets, enumerators, limit, work.tops, budgeted)
    chosen, exact, considered = search.best(trains)
    if budgeted is not None and budgeted.ran_out:
        exact = False  # (a train's best route, or a bound, may have been cut short)
    results = []
    for tid, spec in trains:
        c = chosen.get(tid)
        if c is None:
            continue
        family = "metre" if spec.gauge in ("metre", "narrow") else "broad"
        route = Route(c.stops, tuple(chain_sets[family].chains[i] for i in c.chains))
        paying = paying_stops(graph, c.stops, spec, phase, company, tokens)
        results.append(RouteResult(tid, c.revenue, route, paying))
    best = BestRoutes(tuple(results), sum(r.revenue for r in results), considered, exact)
    _RECENT[key] = best
    if len(_RECENT) > _RECENT_SIZE:
        _RECENT.popitem(last=False)
    return best


@dataclass
class _MapWork:
    """What the searches of one company over one unchanged part of the map share, whatever
    trains they run: the chain sets (their distance and bound tables, and the links of a
    town mesh with every answer about which ways fit), one enumerator per train spec, and
    each spec's best route.  A company's map often stands still while its trains change (a
    train bought, one rusted): random 1858 p6 seed 20, company A ran 7E+6E, 7E and 7E+7E
    on the same chains, and most of a cold 7E+7E search is working out the town ways."""

    chain_sets: dict[str, _ChainSet]
    enumerators: dict[TrainSpec, _Enumerator] = field(default_factory=dict)
    tops: dict[TrainSpec, list[_Candidate]] = field(default_factory=dict)


def _trim(links: dict[tuple[bool, ...], _Links]) -> None:
    """Before a search reuses links: forget the answers about the track avoided by earlier
    searches' partner routes once there are many (each search asks about its own), keeping
    those about the whole map."""
    for shared in links.values():
        memo = shared[3]
        if len(memo) > _MEMO_AVOIDS:
            for avoid in [a for a in memo if a]:
                del memo[avoid]


def _has_partner(partners: Sequence[tuple[int, int]], least: int, track: int) -> bool:
    """Whether a route of ``partners`` ((revenue, core track), best first) earns at least
    ``least`` and runs on none of ``track``."""
    for revenue, core in partners:
        if revenue < least:
            return False
        if not core & track:
            return True
    return False


#: the latest searches' results by everything they read (:func:`_map_inputs`, the trains, the
#: limit): late in a game a company's part of the map often stands still while others build
#: elsewhere, and its search would find the same run again (random 1858 p6 seed 20: 5E+5E,
#: 7E and 6M+6E searches of 0.2-0.9 s each came back unchanged OR after OR)
_RECENT: OrderedDict[tuple[object, ...], BestRoutes] = OrderedDict()
_RECENT_SIZE = 64
#: the work of the latest searches by the part of the map they read (:class:`_MapWork`)
_MAPS: OrderedDict[_Inputs, _MapWork] = OrderedDict()
_MAPS_SIZE = 16
#: the links of the latest chain sets by their chains and track numbering (:class:`_MapWork`)
_LINK_SETS: OrderedDict[tuple[object, ...], dict[tuple[bool, ...], _Links]] = OrderedDict()
_MEMO_AVOIDS = 64  # avoided-track entries of a link memo kept between searches


class _Inputs:
    """:func:`_map_inputs`' key with its hash worked out once: hashing it hashes every chain,
    stop and path it names (a dataclass hash each, ~1M instructions at #979), and a search
    looks it up in ``_RECENT`` and ``_MAPS`` up to four times."""

    __slots__ = ("hash", "key")

    def __init__(self, key: tuple[object, ...]) -> None:
        self.key = key
        self.hash = hash(key)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, _Inputs) and self.key == other.key)


def _map_inputs(
    graph: TrackGraph,
    chain_sets: Mapping[str, _ChainSet],
    phase: Sequence[str],
    company: str,
    tokens: Tokens,
    rules: RouteRules,
) -> _Inputs:
    """Everything a search reads but its trains and limit, as a key: the company's chains
    (in the order walked, which fixes the order of everything after, and the numbering of
    their track), the stops they touch (with whether the company has a station there and
    whether they block it) and the paths they run over -- the rest of the map cannot change
    its routes."""
    stops: set[int] = set()
    paths: set[int] = set()
    chains: list[tuple[Chain, ...]] = []
    for cs in chain_sets.values():
        chains.append(tuple(cs.chains))
        stops.update(cs.adjacency)
        for c in cs.chains:
            paths.update(c.paths)
    at = graph.stops
    return _Inputs(
        (
            _PAIR_AFTER,  # (tests lower these to take the rare paths)
            _MAX_WAYS,
            company,
            tuple(phase),
            rules,
            tuple(chain_sets),
            tuple(chains),
            # (of the stations, the search reads only whose a stop is and whether it blocks:
            # another company's station in a city with room left changes nothing)
            tuple(
                (at[s], tokened_by(at[s], company, tokens), blocks(at[s], company, tokens))
                for s in sorted(stops)
            ),
            tuple(graph.paths[p] for p in sorted(paths)),
        )
    )


class _RunSearch:
    """The best run of any subset of one company's trains (the steps in the module
    docstring), sharing every train's enumerator and best routes between subsets: with three
    or more trains, the optimum of the others bounds what one train's route must earn."""

    def __init__(
        self,
        graph: TrackGraph,
        chain_sets: Mapping[str, _ChainSet],
        enumerators: Mapping[TrainSpec, _Enumerator],
        limit: int | None,
        tops: dict[TrainSpec, list[_Candidate]] | None = None,
        work: Work | None = None,
    ) -> None:
        self.graph, self.chain_sets, self.enumerators, self.limit = (
            graph,
            chain_sets,
            enumerators,
            limit,
        )
        self.work = work  # the search's budget (None: exact)
        self.kind = {spec: i for i, spec in enumerate(enumerators)}
        #: each train's best route (shared by the searches over the same map)
        self.tops: dict[TrainSpec, list[_Candidate]] = {} if tops is None else tops
        #: every route worth at least a floor, best first (:meth:`_twin_starts`), by train
        self.good: dict[TrainSpec, tuple[int, list[_Candidate]]] = {}
        #: two identical trains: the routes listed by the walk of their best route
        #: (:meth:`_LinkEnumerator.run`'s ``also``), by train
        self.also: dict[TrainSpec, tuple[int, list[_Candidate] | None] | None] = {}
        #: exact searches: (train, avoided track) -> (threshold, its best route there)
        self.besides: dict[tuple[TrainSpec, int], tuple[int, list[_Candidate]]] = {}
        #: kinds -> (best run as routes in kind order, exact)
        self.solved: dict[tuple[int, ...], tuple[list[tuple[TrainSpec, _Candidate]], bool]] = {}

    def top(self, spec: TrainSpec) -> list[_Candidate]:
        """The train's best route (a list of one; empty if it has none)."""
        if spec not in self.tops:
            self.tops[spec] = self.enumerators[spec].run(1, best_only=True)
        return self.tops[spec]

    def _beside(self, spec: TrainSpec, avoid: int, threshold: int) -> list[_Candidate]:
        """The train's best route on none of ``avoid`` if worth ``threshold`` (a list of one,
        else empty).  An exact search remembers it: the first twin start is the best route,
        whose partner the greedy run has just looked for (:meth:`_twin_starts`); the best
        route avoiding some track is one route whatever the threshold it is looked for at,
        the first one of its revenue in the walk's order."""
        en = self.enumerators[spec]
        if self.work is not None:
            return en.run(threshold, best_only=True, avoid=avoid)
        known = self.besides.get((spec, avoid))
        if known is not None:
            least, found = known
            if found:
                return found if found[0].revenue >= threshold else []
            if threshold >= least:
                return []  # (none worth ``least``)
        found = en.run(threshold, best_only=True, avoid=avoid)
        self.besides[(spec, avoid)] = (threshold, found)
        return found

    def optimum(
        self, trains: Sequence[tuple[str, TrainSpec]]
    ) -> tuple[list[tuple[TrainSpec, _Candidate]], bool]:
        """(the routes of the best run, exact) of a subset of the trains, remembered by their
        kinds."""
        key = tuple(sorted(self.kind[spec] for _, spec in trains))
        if key not in self.solved:
            chosen, exact, _ = self.best(trains)
            spec_of = dict(trains)
            self.solved[key] = ([(spec_of[tid], c) for tid, c in chosen.items()], exact)
        return self.solved[key]

    @staticmethod
    def _assign(
        trains: Sequence[tuple[str, TrainSpec]], routes: Sequence[tuple[TrainSpec, _Candidate]]
    ) -> dict[str, _Candidate]:
        """A remembered run (routes of trains of these kinds) given to these trains."""
        free = list(trains)
        out: dict[str, _Candidate] = {}
        for spec, c in routes:
            i = next(i for i, (_, s) in enumerate(free) if s == spec)
            out[free.pop(i)[0]] = c
        return out

    def _greedy(
        self, trains: Sequence[tuple[str, TrainSpec]], kinds: list[TrainSpec]
    ) -> tuple[int, dict[str, _Candidate]]:
        """The best greedy run: each train its best route on track the others left, every
        order of the train kinds (at most 3 kinds run in 1858).  (Starting the first train
        from each of its 4-12 best routes lifted #979's 650 to 690 of 710, but cost more than
        it saved.)"""
        orders = itertools.permutations(kinds) if len(kinds) <= 3 else [tuple(kinds)]
        lower = 0
        greedy: dict[str, _Candidate] = {}
        work = self.work
        for kind_order in orders:
            if work is not None and work.ran_out and greedy:
                break  # out of work: the best greedy run so far
            rank = {spec: i for i, spec in enumerate(kind_order)}
            order = sorted(trains, key=lambda t: rank[t[1]])
            first_tid, first_spec = order[0]
            firsts: list[_Candidate | None] = list(self.top(first_spec)) or [None]
            for start in firsts:
                used = 0
                total = 0
                picks: dict[str, _Candidate] = {}
                if start is not None:
                    total, used, picks = start.revenue, start.mask, {first_tid: start}
                for k, (tid, spec) in enumerate(order[1:]):
                    if work is not None and work.exhausted:
                        work.grant(len(order) - 1 - k)  # each train left a share of the reserve
                    found = self._beside(spec, used, 1) if used else self.top(spec)
                    if found:
                        total += found[0].revenue
                        used |= found[0].mask
                        picks[tid] = found[0]
                if total > lower or not greedy:
                    lower, greedy = total, picks
        return lower, greedy

    def _twin_starts(
        self, trains: Sequence[tuple[str, TrainSpec]], lower: int, greedy: dict[str, _Candidate]
    ) -> tuple[int, dict[str, _Candidate]]:
        """Two identical trains: a better greedy run from a few of the best routes.  The best
        route often takes the track the second-best pair needs (7E+7E at random 1858 p6 seed
        7 #1717: 440 + 300 of an optimum 850), and the list the combination needs grows
        fast as ``lower`` falls (>= 311: 3,860 routes).  The starts are the routes within an
        eighth of the way from the best down to that list's threshold (at least 10 below
        it), at most ``_STARTS`` of them, none if more than ``_START_LIST``: on 12 slow
        7E+7E and 5E+5E searches of random 1858 p6 seeds 7 and 20, 5.2 s -> 3.4 s (a
        quarter: 3.9 s; a sixteenth, 4 starts: 4.6 s)."""
        (t1, spec), (t2, _) = trains
        en = self.enumerators[spec]
        top = self.top(spec)[0].revenue if self.top(spec) else 0
        low = lower + 1 - top  # the threshold of the list the combination would need
        if low >= top:
            return lower, greedy
        floor = top - max(10, (top - low) // _START_PART)
        listed = self.also.get(spec)
        # (the least revenue a route can have at or above the floor: 1858's are tens)
        least = -(-floor // en.step) * en.step if isinstance(en, _LinkEnumerator) else floor
        if listed is not None and listed[1] is None and least <= listed[0]:
            return lower, greedy  # (more than _START_LIST routes are worth the floor)
        if listed is not None and listed[1] is not None and least >= listed[0]:
            # (listed with the best route: every sequence worth at least ``listed[0]``, in the
            # walk's order, as :meth:`_LinkEnumerator.run` lists them)
            starts = [c for c in listed[1] if c.revenue >= floor]
            if len(starts) > _START_LIST:
                return lower, greedy
        else:
            try:
                starts = en.run(floor, limit=_START_LIST)
            except (_Budget, _OutOfWork):
                return lower, greedy
        starts.sort(key=lambda c: -c.revenue)
        self.good[spec] = (floor, starts)
        for r in starts[:_STARTS]:
            if r.revenue + top <= lower:
                break
            plain = _realise(r, r.witness) if r.links is not None else r
            found = self._beside(spec, plain.mask, lower + 1 - r.revenue)
            if found and r.revenue + found[0].revenue > lower:
                lower = r.revenue + found[0].revenue
                greedy = {t1: plain, t2: found[0]}
        return lower, greedy

    def best(
        self, trains: Sequence[tuple[str, TrainSpec]]
    ) -> tuple[dict[str, _Candidate], bool, int]:
        """(train id -> its route, exact, candidates considered)."""
        enumerators, limit = self.enumerators, self.limit
        if len(trains) == 2 and self.work is None:
            spec = trains[0][1]
            en = enumerators[spec]
            if trains[1][1] == spec and spec not in self.tops and isinstance(en, _LinkEnumerator):
                # the twin starts' list (:meth:`_twin_starts`) is walked with the best route:
                # the walk for the best route mostly proves that nothing beats it, and that
                # list's walk proved it again
                self.tops[spec] = en.run(1, best_only=True, also=_also_floor)
                self.also[spec] = en.also_found
        single = {spec: (self.top(spec)[0].revenue if self.top(spec) else 0) for _, spec in trains}
        # 2. a lower bound: greedily, each train its best route on track the others left,
        # from each of the first train's best routes; every order of the distinct train
        # kinds is tried (at most 3 kinds run in 1858).  The best route plus the best beside
        # it is often well below the optimum (#979: 650 of 710), and the lists grow as it
        # falls.
        kinds = list(dict.fromkeys(spec for _, spec in trains))
        sum_single = sum(single[spec] for _, spec in trains)
        lower = 0
        greedy: dict[str, _Candidate] = {}
        lower, greedy = self._greedy(trains, kinds)
        if self.work is not None and self.work.ran_out:
            return greedy, False, 0  # the budget ran out: the best greedy run found
        if lower >= sum_single:
            return greedy, True, 0  # every train earns its best: nothing can beat it
        if len(trains) == 2 and len(kinds) == 1:
            lower, greedy = self._twin_starts(trains, lower, greedy)
        # what the other trains can add at most, with one train of each kind left out: the
        # exact optimum of the others when there are two or more of them, else their best
        rest: dict[TrainSpec, int] = {}
        for spec in kinds:
            others = list(trains)
            left_out = others.pop(next(i for i, t in enumerate(others) if t[1] == spec))
            most = sum(single[s] for _, s in others)
            if len(others) > 1:
                routes, exact_others = self.optimum(others)
                total = sum(c.revenue for _, c in routes)
                if exact_others:
                    most = min(most, total)
                # and the others' best run plus this train's best route beside it is a run
                used = 0
                for _, c in routes:
                    used |= c.mask
                found = self._beside(spec, used, 1)
                if found and total + found[0].revenue > lower:
                    lower = total + found[0].revenue
                    greedy = self._assign(others, routes)
                    greedy[left_out[0]] = found[0]
            rest[spec] = most
        if self.work is not None and self.work.ran_out:
            return greedy, False, 0  # (the bounds above may be cut short)
        # 3. every route that can be part of a run worth at least `lower`
        by_spec: dict[TrainSpec, list[_Candidate]] = {}
        # two trains: the list-and-combine search (5-6) while the lists stay short (usually
        # fastest), else the pair search (7); both exact
        pair = len(trains) == 2 and not any(
            isinstance(enumerators[spec], _LinkEnumerator) for spec in kinds
        )
        cap = limit if not pair else min(limit, _PAIR_AFTER) if limit is not None else _PAIR_AFTER
        meet = _Meet(_exits(self.graph, self.chain_sets.values()))
        try:
            for spec in kinds:
                # no route below this can be part of a run worth more than `lower` (routes
                # worth exactly this only tie the incumbent: 7E+7E at random 1858 p6 seed 20
                # #1219 listed 3186 routes for >= 380, ... for >= 381)
                threshold = max(1, lower + 1 - rest[spec])
                left = None if cap is None else cap - sum(len(v) for v in by_spec.values())
                en = enumerators[spec]
                good = self.good.get(spec) if len(trains) == 2 and len(kinds) == 1 else None
                if good is not None and isinstance(en, _LinkEnumerator):
                    cands = en.run(
                        threshold,
                        limit=left,
                        partners=[(c.revenue, c.core) for c in good[1]],
                        floor=good[0],
                        target=lower + 1,
                    )
                else:
                    cands = en.run(threshold, limit=left)
                cands.sort(key=lambda c: -c.revenue)
                by_spec[spec] = cands

            def bound(tids: Sequence[str]) -> int | None:
                """The exact optimum of these trains, when there are several (else None)."""
                if len(tids) < 2:
                    return None
                sub = [t for t in trains if t[0] in tids]
                routes, exact_sub = self.optimum(sub)
                return sum(c.revenue for _, c in routes) if exact_sub else None

            chosen = _combine(
                [(tid, by_spec[spec]) for tid, spec in trains],
                lower,
                greedy,
                meet,
                bound,
                self.work,
            )
            exact = self.work is None or not self.work.ran_out
            return chosen, exact, sum(len(v) for v in by_spec.values())
        except _OutOfWork as stop:
            # the budget ran out listing: the best run of the routes listed so far (with the
            # reserve), at worst the greedy run -- they are legal, and often the optimum's
            if stop.partial is None or self.work is None:
                return greedy, False, 0
            by_spec[spec] = sorted(stop.partial, key=lambda c: -c.revenue)
            for other in kinds:
                by_spec.setdefault(other, list(self.top(other)))
            self.work.grant(1)
            chosen = _combine(
                [(tid, by_spec[s]) for tid, s in trains],
                lower,
                greedy,
                meet,
                None,
                self.work,
            )
            return chosen, False, sum(len(v) for v in by_spec.values())
        except _Budget:
            if pair and (limit is None or limit > _PAIR_AFTER):
                try:
                    chosen, considered = _pair_search(
                        trains, enumerators, single, lower, greedy, limit
                    )
                    return chosen, True, considered
                except (_Budget, _OutOfWork):
                    pass
            return greedy, False, 0


#: two trains: candidates listed before switching to the pair search (the combination of two
#: plain lists is fast: 1858_india p6 seed 2 #1537, 3M+4M, 20,499 candidates combined in
#: 0.1 s, where the pair search ran 8,280 single-train searches for 5.2 s)
_PAIR_AFTER = 200000
_STARTS = 8  # two identical trains: greedy runs from at most this many good routes,
_START_PART = 8  # ... those in the top eighth of the way down to the list's threshold,
_START_LIST = 60  # ... and none when more routes than this are that good
_ALSO_PART = 20  # ... listed with the best route from its revenue less a twentieth down


def _also_floor(best: int) -> int:
    """The least a route is listed at beside the best route's walk for the twin starts
    (:meth:`_RunSearch.best`): at or below their floor, in steps of the revenues, unless the
    greedy run's partner earns under about three fifths of the best route, a little less
    with the steps (#979: 440 + 210, floor 412, listed >= 418: both >= 420 in tens; random
    1858 p6 seed 7 #1640: 450 + 390, floor 440, listed >= 428)."""
    return best - max(10, best // _ALSO_PART)


_MAX_WAYS = 50000  # ways between stops beyond which the plain walk is used instead
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
_BESIDE_PAIRS = 4096  # pairs of ways a question of three links scans before a CSP
_FEW_LEFT = 16  # candidates left above the bar that are tested one by one, not by the index
#: the work budget (:class:`Work`) of the searches of play -- ``legal_actions``' run and the
#: greedy bot's -- so no listing waits on an exponential corner.  Not a rule: chosen on this
#: machine (session 8, CPU, load 3-4) so that the slowest cold budgeted search of 112 dumps
#: (session 7's slowest, 1858 p6 7E+7E / 7E+6E and India 6M+6M, 0.1-2.7 s exact, and the
#: searches 40,000 stopped in 1858 p6 seeds 6, 7, 20 and India p6 seeds 1-2) takes 87-129 ms
#: (a unit is 1-3 us, and 30-40 ms of a search is fixed: chains, ways, tables).  Of the
#: budgets of the same worst case, this one (with its quarter granted after) came closest to
#: the optimum: 36,000 + 9,000 a mean 5.1-5.8 % below it, 30,000 + 10,000 5.2-7.8 %,
#: 35,000 + 4,375 5.1-8.6 % (before M-train nodes were charged by route length: since,
#: 5.5-5.9 %)
PLAY_BUDGET = 36000


def _pair_search(
    trains: Sequence[tuple[str, TrainSpec]],
    enumerators: Mapping[TrainSpec, _Enumerator],
    single: Mapping[TrainSpec, int],
    lower: int,
    greedy: dict[str, _Candidate],
    limit: int | None,
) -> tuple[dict[str, _Candidate], int]:
    """The best run of two trains: for each route r1 of the first (best first), the second
    train's best route on the track r1 leaves (a single-train search with threshold "beats
    the best run found").  Identical trains: only pairs with rev(r1) >= rev(r2), so r1 needs
    at least half the best total.  Stops once rev(r1) + the second train's single best (or
    2 rev(r1) for identical trains) cannot beat the best run found."""
    (t1, s1), (t2, s2) = trains
    if s1 != s2 and single[s2] > single[s1]:
        (t1, s1), (t2, s2) = (t2, s2), (t1, s1)
    same = s1 == s2
    en1, en2 = enumerators[s1], enumerators[s2]
    best, chosen = lower, dict(greedy)
    floor = (lower + 2) // 2 if same else max(1, lower + 1 - single[s2])
    cands = en1.run(floor, limit=limit)
    cands.sort(key=lambda c: -c.revenue)
    for c in cands:
        cap = min(c.revenue, single[s2]) if same else single[s2]
        if c.revenue + cap <= best:
            break
        found = en2.run(best - c.revenue + 1, best_only=True, avoid=c.mask)
        if found and c.revenue + found[0].revenue > best:
            best = c.revenue + found[0].revenue
            chosen = {t1: c, t2: found[0]}
    return chosen, len(cands)


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


def _exits(graph: TrackGraph, chain_sets: Iterable[_ChainSet]) -> dict[int, int]:
    """Per stop, at most how many track-disjoint chains can meet there: chains that leave it
    by the same path share that path's track."""
    firsts: dict[int, set[int]] = {}
    for cs in chain_sets:
        for c in cs.chains:
            for stop, path in ((c.a, c.paths[0]), (c.b, c.paths[-1])):
                # a path without track keys cannot make two chains conflict: count it apart
                firsts.setdefault(stop, set()).add(
                    path if graph.paths[path].keys else -1 - len(firsts.get(stop, ()))
                )
    return {s: len(v) for s, v in firsts.items()}


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

    def _fit_same(self, y: int, z: int) -> bool:
        """Whether links ``y`` and ``z`` of one route can both be run (remembered)."""
        key = (-1, y, z)
        found = self.fits.get(key)
        if found is None:
            found = self.fits[key] = _solve([(1, self.ways[y]), (1, self.ways[z])]) is not None
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
