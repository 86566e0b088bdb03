"""Distribute earnings [1858 rules 9.6]: pay out, pay half or withhold, and the market move.

Pure arithmetic; the step that applies it to a game lives in :mod:`engine.rules.operating.steps`.

Full payout divides the earnings by the number of shares (5 or 10), rounds down and pays that
per share; the remainder goes to the company.  Half payout halves the earnings first (rounding
down) and the *whole* remainder goes to the company.  Shares in the company's treasury pay the
company, shares in the bank pool pay nobody.

>>> split_earnings(105, 10, "payout")
Payout(per_share=10, retained=5)
>>> split_earnings(105, 10, "half")
Payout(per_share=5, retained=55)
>>> split_earnings(105, 5, "withhold")
Payout(per_share=0, retained=105)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

KINDS = ("payout", "half", "withhold")


@dataclass(frozen=True)
class Payout:
    """What one dividend decision pays: per share to holders, and what the company keeps."""

    per_share: int
    retained: int


def split_earnings(revenue: int, total_shares: int, kind: str) -> Payout:
    """Split ``revenue`` between the holders of ``total_shares`` shares and the company."""
    if kind not in KINDS:
        raise ValueError(f"unknown dividend kind {kind!r} (expected one of {', '.join(KINDS)})")
    if kind == "withhold":
        return Payout(0, revenue)
    distributable = revenue if kind == "payout" else revenue // 2
    per_share = distributable // total_shares
    return Payout(per_share, revenue - per_share * total_shares)


def market_steps(per_share: int, share_price: int) -> int:
    """Stock-price move after the dividend: -1 (left), 0 or +1 (right).

    Nothing paid (withheld, or earnings too small to pay a peseta a share) moves left; ten
    times the dividend per share reaching the share price moves right, even for a 5-share
    company.

    >>> market_steps(0, 100), market_steps(9, 100), market_steps(10, 100)
    (-1, 0, 1)
    """
    if per_share <= 0:
        return -1
    return 1 if per_share * 10 >= share_price else 0


def holder_payments(per_share: int, holdings: Mapping[str, int], *, pool: str) -> dict[str, int]:
    """Cash each holder receives: ``holdings`` maps holder -> number of shares held (a
    director's certificate counts as two).  The bank pool's shares pay nobody.

    >>> holder_payments(7, {"1": 4, "MZA": 1, "pool": 2}, pool="pool")
    {'1': 28, 'MZA': 7}
    """
    return {h: n * per_share for h, n in holdings.items() if h != pool and n and per_share}
