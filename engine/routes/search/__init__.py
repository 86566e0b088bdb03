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

from ferrovia.routes.search.best import best_routes
from ferrovia.routes.search.budget import PLAY_BUDGET, Work
from ferrovia.routes.search.records import BestRoutes

__all__ = ["PLAY_BUDGET", "BestRoutes", "Work", "best_routes"]
