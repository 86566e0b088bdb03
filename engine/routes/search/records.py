"""What the stages of the search pass each other: a way to run a link (:class:`_Option`), a
route or sequence of one train (:class:`_Candidate`), and the search's answer (:class:`BestRoutes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ferrovia.routes.value import RouteResult


# ----------------------------------------------------------------------------- best routes
@dataclass(frozen=True)
class BestRoutes:
    """The best run of a company: one route per train that runs (others stay home)."""

    routes: tuple[RouteResult, ...]
    total: int  # train revenue only (add private income for the run's revenue)
    candidates: int  # legal routes considered, all trains together
    exact: bool = True  # False only when a ``limit`` stopped the proof (a good legal run)


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
