"""Share certificates: bundles, prices, buying and selling, floating and director changes.

Each holder's certificates of a company are kept in arrival order (``Share.seq``), because which
certificate moves in a director swap follows that order in 18xx.games and later actions name
certificates by id.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ferrovia.errors import IllegalAction, UnknownEntity
from ferrovia.kernel.ledger import transfer
from ferrovia.lib18xx import market
from ferrovia.lib18xx.state import BANK, POOL, Corporation, Share, State18xx

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx


@dataclass
class Bundle:
    """Certificates of one company from one holder; ``percent`` may be less than their sum
    (part of a director's certificate, the rest swapped back)."""

    corp: str
    shares: list[Share]
    percent: int

    @property
    def owner(self) -> str:
        return self.shares[0].owner

    @property
    def partial(self) -> bool:
        return self.percent != sum(s.percent for s in self.shares)

    @property
    def presidents_share(self) -> Share | None:
        return next((s for s in self.shares if s.president), None)


def next_seq(state: State18xx) -> int:
    n = int(state.data.get("share_seq", 1000)) + 1
    state.data["share_seq"] = n
    return n


def move_share(state: State18xx, share: Share, to: str) -> None:
    share.owner = to
    share.seq = next_seq(state)


def holder_shares(corp: Corporation, holder: str) -> list[Share]:
    return sorted((s for s in corp.shares if s.owner == holder), key=lambda s: s.seq)


def first_ordinary_share(corp: Corporation, holder: str) -> Share | None:
    """The first certificate of :func:`holder_shares` that is not the director's, found
    without sorting (asked for every company and holder at every stock-round listing)."""
    best: Share | None = None
    for s in corp.shares:  # (a loop: min() with a key function is slower on a few shares)
        if s.owner == holder and not s.president and (best is None or s.seq < best.seq):
            best = s  # the first of the lowest seq, as min() takes
    return best


def percent_of(corp: Corporation, holder: str) -> int:
    return sum(s.percent for s in corp.shares if s.owner == holder)


def share_percent(corp: Corporation) -> int:
    """Percent of one ordinary share: the company's smallest certificate (its share
    structure's, companies.yaml: 20 for 1858's 5-share companies, 10 for 10-share ones)."""
    return min(s.percent for s in corp.shares)


def share_value(game: Game18xx, state: State18xx, corp: str, percent: int) -> int:
    """Market value of ``percent`` of ``corp`` (18xx.games rounds up per certificate)."""
    c = state.corporations[corp]
    return -(-(market.share_price(game, c) * percent) // share_percent(c))


def presidents_percent(corp: Corporation) -> int:
    pres = next((s for s in corp.shares if s.president), None)
    return pres.percent if pres else 0


def find_share(state: State18xx, share_id: str) -> Share:
    sym, _, idx = share_id.rpartition("_")
    corp = state.corporations.get(sym)
    if corp is None or not idx.isdigit():
        raise UnknownEntity(f"no share {share_id!r}", rule="shares")
    for s in corp.shares:
        if s.index == int(idx):
            return s
    raise UnknownEntity(f"no share {share_id!r}", rule="shares")


def bundle_price(game: Game18xx, state: State18xx, bundle: Bundle, price: int | None = None) -> int:
    """Current market price per share, rounded up; the IPO's shares at par unless the game
    sells them at market (1858's ``always_market_price``)."""
    corp = state.corporations[bundle.corp]
    pps = price if price is not None else market.share_price(game, state.corporations[bundle.corp])
    if (
        price is None
        and bundle.owner == corp.sym
        and corp.par_price is not None
        and not game.definition.companies.always_market_price
    ):
        pps = corp.par_price  # the IPO sells at par (companies.yaml always_market_price)
    return -(-(pps * bundle.percent) // share_percent(corp))


def player_holders(state: State18xx, corp: Corporation) -> dict[str, int]:
    """Players' percentages in seating order (18xx.games: insertion order of share holders;
    only ties without a previous director depend on it)."""
    out: dict[str, int] = {}
    for p in state.players:
        pct = percent_of(corp, p.id)
        if pct:
            out[p.id] = pct
    return out


def num_certs(game: Game18xx, state: State18xx, player: str) -> int:
    """Certificates towards the limit: every share certificate and every private."""
    n = 0
    for corp in state.corporations.values():
        # (counted first, at C speed: the zone is looked up only for the few companies the
        # player holds; asked at every stock-round test, ~1,700 times a replay)
        held = [s.owner for s in corp.shares].count(player)
        if held and counts_for_limit(game, state, corp):
            n += held
    return n + len(state.player(player).companies)


def counts_for_limit(game: Game18xx, state: State18xx, corp: Corporation) -> bool:
    """A company's certificates count toward the limit unless its price is in a zone that
    exempts them (a grid market's yellow, orange and brown)."""
    pos = corp.market  # (read from the company itself: asked for each at every purchase listing)
    cell = None if pos is None else market.cell(game, pos)
    return cell is None or cell.counts_for_limit


def can_gain(
    game: Game18xx,
    state: State18xx,
    player: str,
    bundle: Bundle,
    exchange: bool = False,
    certs: Callable[[], int] | None = None,
) -> bool:
    """Holding limit (percent of one company) and certificate limit.  ``certs``: the
    player's :func:`num_certs` when a caller asking of many bundles has it at hand."""
    corp = state.corporations[bundle.corp]
    limit = game.holding_limit
    cell = market.current_cell(game, state, corp.sym)
    above = cell is not None and cell.above_holding_limit
    if limit is not None and not above and percent_of(corp, player) + bundle.percent > limit:
        return False
    if cell is not None and not cell.counts_for_limit:  # counts_for_limit(), cell at hand
        return True
    if exchange:
        return True
    held = certs() if certs is not None else num_certs(game, state, player)
    return held < game.cert_limit


def fits_in_pool(game: Game18xx, state: State18xx, bundle: Bundle) -> bool:
    corp = state.corporations[bundle.corp]
    return bundle.percent + percent_of(corp, POOL) <= game.definition.market.bank_pool_limit


def can_dump(state: State18xx, player: str, bundle: Bundle) -> bool:
    """A director's certificate may only leave if someone else can take the directorship."""
    pres = bundle.presidents_share
    if pres is None:
        return True
    corp = state.corporations[bundle.corp]
    others = [pct for pid, pct in player_holders(state, corp).items() if pid != player]
    return max(others, default=0) >= pres.percent


def bundles_for(state: State18xx, corp: Corporation, holder: str) -> list[Bundle]:
    """Every bundle a holder could sell: ordinary certificates first, the director's last, plus
    part-director's bundles (18xx.games ``all_bundles_for_corporation``)."""
    if not corp.ipoed:
        return []
    shares = sorted(holder_shares(corp, holder), key=lambda s: (1 if s.president else 0, s.percent))
    if not shares:
        return []
    out: list[Bundle] = []
    acc: list[Share] = []
    pct = 0
    for s in shares:
        acc.append(s)
        pct += s.percent
        out.append(Bundle(corp.sym, list(acc), pct))
    if shares[-1].president:
        normal = share_percent(corp)
        for n in range(1, (presidents_percent(corp) - normal) // normal + 1):
            out.append(Bundle(corp.sym, list(acc), pct - normal * n))
    out.sort(key=lambda b: b.percent)
    return out


def float_check(game: Game18xx, state: State18xx, corp: Corporation) -> bool:
    """Floats once the treasury holds at most 100 - float percent; returns True on floating."""
    if corp.floated:
        return False
    if percent_of(corp, corp.sym) <= 100 - corp.float_percent:
        corp.floated = True
        state.log.append(f"{corp.sym} floats")
        return True
    return False


def _distance(state: State18xx, a: str | None, b: str) -> int:
    ids = [p.id for p in state.players]
    if a is None or a not in ids:
        return 0
    ia, ib = ids.index(a), ids.index(b)
    return ib - ia if ia < ib else ib - (ia - len(ids))


def transfer_shares(
    game: Game18xx,
    state: State18xx,
    bundle: Bundle,
    to: str,
    *,
    spender: str | None = None,
    receiver: str | None = None,
    price: int = 0,
    allow_president_change: bool = True,
) -> None:
    """Move a bundle, pay for it, and hand the directorship on if someone now holds more."""
    corp = state.corporations[bundle.corp]
    owner = bundle.owner
    previous = corp.director
    if spender is not None and receiver is not None and price > 0:
        transfer(state, spender, receiver, price, f"{bundle.percent}% of {corp.sym}")
    for s in bundle.shares:
        move_share(state, s, to)
    if not allow_president_change:
        return
    holders = player_holders(state, corp)
    max_pct = max(holders.values(), default=0)
    majority = [p for p, pct in holders.items() if pct == max_pct]
    if previous in majority:
        return
    president: str | None = None
    pres_share = next(s for s in corp.shares if s.president)
    if previous is None:
        president = next((p for p in majority if p == pres_share.owner), None)
    if president is None:
        cands = [p for p in majority if holders[p] >= pres_share.percent]
        if cands:
            president = min(cands, key=lambda p: _distance(state, previous, p))
    if president is None:
        return
    corp.director = president
    state.log.append(f"{state.player(president).name} becomes director of {corp.sym}")
    if to == president and previous == owner and bundle.presidents_share and not bundle.partial:
        return
    if owner == corp.sym and not bundle.presidents_share:
        previous = previous or corp.sym
    if owner == president or previous is None:
        return
    presidents = bundle.presidents_share or next(
        (s for s in holder_shares(corp, previous) if s.president), None
    )
    if presidents is None:
        return
    if state.is_player(owner) and state.is_player(to) and bundle.presidents_share:
        transfer_to = swap_to = to
    else:
        transfer_to = POOL
        swap_to = previous if percent_of(corp, previous) >= presidents.percent else transfer_to
    num = presidents.percent // share_percent(corp)
    for s in holder_shares(corp, president)[:num]:
        move_share(state, s, swap_to)
    move_share(state, presidents, president)
    if bundle.partial:
        diff = sum(s.percent for s in bundle.shares) - bundle.percent
        for _ in range(diff // share_percent(corp)):
            move_share(state, holder_shares(corp, transfer_to)[0], owner)


def buy_shares(
    game: Game18xx,
    state: State18xx,
    buyer: str,
    bundle: Bundle,
    *,
    price: int | None = None,
    exchange: bool = False,
) -> None:
    """A player buys a bundle from a treasury or the pool (or receives it in an exchange,
    paying ``price`` when given)."""
    corp = state.corporations[bundle.corp]
    if bundle.presidents_share is not None or corp.director is not None:
        corp.ipoed = True
    owner = bundle.owner
    if exchange:
        cost = price or 0
    else:
        cost = price if price is not None else bundle_price(game, state, bundle)
    full = full_capitalization(game)
    if cost == 0:
        transfer_shares(game, state, bundle, buyer)
    else:
        # incremental capitalisation (1858): a treasury sale pays the company; full (1830):
        # the IPO's sales pay the bank, and the company its capital when it floats
        receiver = owner if owner in state.corporations and not full else BANK
        transfer_shares(game, state, bundle, buyer, spender=buyer, receiver=receiver, price=cost)
    if full:
        float_if_ready(game, state, corp.sym)
    else:
        float_check(game, state, corp)


def sell_shares(game: Game18xx, state: State18xx, bundle: Bundle, price: int | None = None) -> int:
    """A holder sells a bundle to the pool at the current price (the bank pays)."""
    amount = price if price is not None else bundle_price(game, state, bundle)
    owner = bundle.owner
    transfer_shares(game, state, bundle, POOL, spender=BANK, receiver=owner, price=amount)
    return amount


def set_par(game: Game18xx, state: State18xx, corp: Corporation, col: int, row: int = 0) -> None:
    corp.market = [row, col]
    corp.par_price = market.spaces(game)[col]
    state.market.setdefault(market.cell_key(corp.market), []).append(corp.sym)


def check_bundle(state: State18xx, share_ids: tuple[str, ...], percent: int) -> Bundle:
    if not share_ids:
        raise IllegalAction("no certificates named", rule="shares")
    shares = [find_share(state, sid) for sid in share_ids]
    corps = {s.corp for s in shares}
    owners = {s.owner for s in shares}
    if len(corps) != 1 or len(owners) != 1:
        raise IllegalAction("certificates of one company from one holder only", rule="bundle")
    total = sum(s.percent for s in shares)
    pct = percent or total
    if pct > total or pct <= 0:
        raise IllegalAction(f"bundle of {total}% cannot be sold as {pct}%", rule="bundle")
    return Bundle(shares[0].corp, shares, pct)


def full_capitalization(game: Game18xx) -> bool:
    """Whether IPO sales pay the bank and a floating company receives its whole capital
    (companies.yaml ``capitalization: full``)."""
    return str(game.definition.companies.capitalization) == "full"


def float_if_ready(game: Game18xx, state: State18xx, corp: str) -> bool:
    """A fully capitalised company floats once its float percentage has left the IPO; it then
    receives par x its number of shares from the bank (18xx.games ``float_corporation``)."""
    c = state.corporations[corp]
    if c.floated or c.par_price is None:
        return False
    if percent_of(c, corp) > 100 - c.float_percent:
        return False
    c.floated = True
    state.log.append(f"{corp} floats")
    if full_capitalization(game):
        total = 100 // min(s.percent for s in c.shares)
        transfer(state, BANK, corp, c.par_price * total, f"{corp} capital")
    return True
