"""The work budget of a search (:class:`Work`): counted units of work, never time, and
:data:`PLAY_BUDGET`, the budget of the searches of play.
"""

from __future__ import annotations

from ferrovia.routes.search.records import _Candidate


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
