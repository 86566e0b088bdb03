"""The kernel every game shares, whatever its family: the immutable game (``game``), its
plain-data state (``state``: players, round, random stream, log, result), typed actions and
their wire form (``actions``), the step/round interpreter (``step``, whose docstring is the
protocol, and ``rounds``), money moving through one ledger (``ledger``), the seeded random
stream (``rng``) and the rules interface a title implements (``hooks``).

It knows no game family: a rules library (the 18xx library, ``ferrovia.lib18xx``) or a title
adds its state fields, round kinds, steps and actions through ``hooks.Rules``.  May import
``errors``, ``data`` and ``ferrovia.schemas``; never a rules library, a title, play or
anything above them.
"""
