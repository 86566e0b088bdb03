"""Buying trains [1858 rules 9.8]: limits, emergency issue, what a trainless company may do.

Pure rules; :mod:`engine.rules.operating.steps` applies them to a game.

- A company may buy while it has fewer trains than its limit (wounded trains count).
- Trains come from the bank (the next new one, or any type the phase makes available, or any in
  the bank pool) at face value, or from another company at any price from P1 to its treasury.
- A trainless company may raise emergency money: first issue treasury shares (never more than it
  needs for the train it buys), then the director contributes cash; only for a bank train.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def train_limit(limits: Mapping[str, int], company_kind: str) -> int:
    """The limit for a company kind ('5-share', '10-share') in the current phase; a kind the
    phase does not list (5-share after phase 5 does not exist) may own none.

    >>> train_limit({"5-share": 3, "10-share": 4}, "10-share")
    4
    """
    return limits.get(company_kind, 0)


def has_room(num_trains: int, limit: int) -> bool:
    return num_trains < limit


def emergency_issue_sizes(
    bundle_prices: Sequence[tuple[int, int]], cash: int, most_expensive_bank_train: int
) -> list[int]:
    """Which bundle sizes a trainless company may issue to raise money for a train.

    ``bundle_prices``: (number of shares, price) of each issuable bundle, smallest first.
    All bundles that still leave it short of the dearest bank train are allowed, plus the
    first one that reaches it (18xx.games ``emergency_issuable_bundles``).

    >>> emergency_issue_sizes([(1, 60), (2, 120), (3, 180)], 100, 200)
    [1, 2]
    >>> emergency_issue_sizes([(1, 60)], 400, 300)
    []
    """
    if cash >= most_expensive_bank_train:
        return []
    short = [n for n, price in bundle_prices if price + cash < most_expensive_bank_train]
    reaching = [n for n, price in bundle_prices if price + cash >= most_expensive_bank_train]
    return short + reaching[:1]


def other_company_price_ok(price: int, cash: int) -> bool:
    """Between companies the price is free: at least P1, at most the buyer's treasury.

    >>> other_company_price_ok(1, 50), other_company_price_ok(0, 50), other_company_price_ok(51, 50)
    (True, False, False)
    """
    return 1 <= price <= cash
