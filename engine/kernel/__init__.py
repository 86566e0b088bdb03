"""The kernel every game shares: the immutable game (``game``), its plain-data state
(``state``), typed actions (``actions``), the step/round interpreter (``step``, ``rounds``),
money moving through one ledger (``ledger``), the seeded random stream (``rng``) and the rules
interface a title implements (``hooks``).

May import ``errors``, ``data`` and ``ferrovia.schemas``; never a rules library, a title,
play or anything above them.
"""
