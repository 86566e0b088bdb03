"""Phases, wounding and rusting as pure decisions over train records.

Buying the first train of a type can (a) start one or more phases, (b) wound every train whose
``obsolete_on`` names that type (18xx.games: obsolete), (c) rust every train whose ``rusts_on``
names it.  A train lying in the bank pool when its type becomes wounded is rusted straight away.
1858's 6H/3M have no ``rusts_on`` type: they rust when the Nth new grey train (7E/6M/5D) is bought
from the bank (N = 5, or 3 with two players); :func:`counts_as_grey` and the counter in the game
state decide that moment, and then they rust like any other train.

Train records here are small: ``(id, type, owner, obsolete, obsolete_on, rusts_on)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ferrovia.lib18xx.operating import common
from ferrovia.lib18xx.state import POOL, Share, State18xx

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx


@dataclass(frozen=True)
class TrainFacts:
    """What rusting needs to know about one physical train."""

    id: str
    type: str  # the card's type (its broad face), e.g. '4H' even when run as a 2M
    in_pool: bool
    obsolete: bool
    obsolete_on: str | None
    rusts_on: str | None


@dataclass(frozen=True)
class RustOutcome:
    wounded: tuple[str, ...]
    rusted: tuple[str, ...]


def wound_and_rust(
    trains: Iterable[TrainFacts], bought_type: str, *, pool_wounded_rust: bool = True
) -> RustOutcome:
    """Which trains become wounded and which rust when a ``bought_type`` train is bought.
    ``pool_wounded_rust`` (trains.yaml ``wounded.removed_from_bank_pool``): a card in the bank
    pool when its type becomes wounded leaves the game.

    >>> ts = [TrainFacts("2H-0", "2H", False, False, "6H", "6E"),
    ...       TrainFacts("2H-1", "2H", True, False, "6H", "6E"),
    ...       TrainFacts("4H-0", "4H", False, False, "6E", "7E")]
    >>> wound_and_rust(ts, "6H")
    RustOutcome(wounded=('2H-0', '2H-1'), rusted=('2H-1',))
    >>> wound_and_rust(ts, "6E").rusted
    ('2H-0', '2H-1')
    """
    trains = list(trains)
    wounded = tuple(t.id for t in trains if not t.obsolete and t.obsolete_on == bought_type)
    rusted = tuple(
        t.id
        for t in trains
        if t.rusts_on == bought_type
        or (pool_wounded_rust and t.obsolete_on == bought_type and t.in_pool)
    )
    return RustOutcome(wounded, rusted)


def phases_started(
    phase_order: Sequence[str],
    current: str,
    triggers: dict[str, Sequence[str]],
    bought: Iterable[str],
) -> list[str]:
    """Phases that start, in order, when a train named any of ``bought`` (its type and face)
    is bought: each next phase starts while one of its trigger names was bought.

    >>> order = ["2", "3", "4", "5"]
    >>> trig = {"3": ["4H", "2M"], "4": ["6H", "3M"], "5": ["5E", "4M"]}
    >>> phases_started(order, "2", trig, ["4H", "2M"])
    ['3']
    >>> phases_started(order, "3", trig, ["4H"])
    []
    """
    names = set(bought)
    started: list[str] = []
    index = phase_order.index(current)
    while index + 1 < len(phase_order):
        nxt = phase_order[index + 1]
        if not names.intersection(triggers.get(nxt, ())):
            break
        started.append(nxt)
        index += 1
    return started


def counts_as_grey(face: str, from_bank: bool, grey_faces: Iterable[str]) -> bool:
    """A purchase that advances the 6H/3M rust counter: a new grey train from the bank."""
    return from_bank and face in set(grey_faces)


# -- applying it to a game ----------------------------------------------------------------------


def _facts(game: Game18xx, state: State18xx, bought_type: str) -> list[TrainFacts]:
    """The trains :func:`wound_and_rust` may act on when a ``bought_type`` is bought: those
    whose type rusts or is wounded on it (no other can be; leaving them out, in their order,
    gives the same outcome without a record for every train at every purchase)."""
    out = []
    for t in state.trains.values():
        if t.rusted:
            continue
        typ = common.train_type_def(game, t.id)
        rusts = typ.rusts_on if isinstance(typ.rusts_on, str) else None
        wounds = typ.obsolete_on if isinstance(typ.obsolete_on, str) else None
        if rusts != bought_type and wounds != bought_type:
            continue
        out.append(TrainFacts(t.id, typ.name, t.owner == POOL, t.obsolete, wounds, rusts))
    return out


def apply_wound_and_rust(game: Game18xx, state: State18xx, bought_type: str) -> None:
    outcome = wound_and_rust(
        _facts(game, state, bought_type),
        bought_type,
        pool_wounded_rust=game.definition.wounded.removed_from_bank_pool,
    )
    for tid in outcome.wounded:
        state.trains[tid].obsolete = True
    if outcome.wounded:
        names = sorted({state.trains[t].name for t in outcome.wounded})
        state.log.append(f"-- Event: {', '.join(names)} trains are wounded --")
    _rust(state, outcome.rusted)


def _rust(state: State18xx, tids: Iterable[str]) -> None:
    tids = list(tids)
    for tid in tids:
        common.remove_from_play(state, tid)
    if tids:
        state.log.append(f"-- Event: {', '.join(tids)} rust --")


def nth_purchase_rusting(game: Game18xx, state: State18xx, face: str, from_bank: bool) -> None:
    """Types that rust on the Nth purchase of certain faces (1858: 6H/3M on the 5th grey)."""
    players = len(state.players)
    rules = [(typ, "rust", typ.rusts_on) for typ in game.definition.trains_file.trains]
    # 1858 Switzerland: 6H/3M are wounded on the 2nd grey train (obsolete_on by count).
    rules += [(typ, "wound", typ.obsolete_on) for typ in game.definition.trains_file.trains]
    for typ, effect, rule in sorted(rules, key=lambda r: r[1] != "wound"):
        if rule is None or isinstance(rule, str):
            continue
        key = f"purchases_toward_{effect}_{typ.name}"
        n = rule.nth_purchase
        needed = int(n if isinstance(n, int) else (n.get(players) or n.get(str(players))))
        done = int(state.data.get(key, 0))
        if done >= needed or not counts_as_grey(face, from_bank, rule.of):
            continue
        state.data[key] = done + 1
        what = "rusting" if effect == "rust" else "being wounded"
        state.log.append(f"{done + 1} of {needed} trains toward {typ.name} {what} bought")
        if done + 1 == needed and effect == "wound":
            hit = [
                t
                for t in state.trains.values()
                if not t.rusted and not t.obsolete and common.train_type(t.id) == typ.name
            ]
            for t in hit:
                t.obsolete = True
            if hit:
                state.log.append(f"-- Event: {typ.name} trains are wounded --")
            # A card in the bank pool that becomes wounded rusts (as by type).
            if game.definition.wounded.removed_from_bank_pool:
                _rust(state, [t.id for t in hit if t.owner == POOL])
        elif done + 1 == needed:
            _rust(
                state,
                [
                    t.id
                    for t in state.trains.values()
                    if not t.rusted and common.train_type(t.id) == typ.name
                ],
            )


def start_phases(game: Game18xx, state: State18xx, bought_type: str) -> list[str]:
    order = common.phase_names(game)
    triggers: dict[str, Sequence[str]] = {p.name: list(p.on) for p in game.definition.phases}
    started = phases_started(order, state.phase, triggers, [bought_type])
    for name in started:
        state.phase = name
        state.log.append(f"-- Phase {name} --")
    return started


def convert_share_structure(game: Game18xx, state: State18xx, sym: str) -> None:
    """A company of companies.yaml ``conversion.from`` becomes one of ``conversion.to`` (1858:
    5 -> 10 shares): every certificate keeps its holder and its number of shares (1858: half
    its percent), the float percent becomes ``conversion.float_percent``; the new
    certificates go to the company's treasury (numbered on from the old ones, as 18xx.games
    does), after all existing certificates in acquisition order."""
    from ferrovia.lib18xx.stock.shares import next_seq

    conv = game.definition.companies.conversion
    corp = state.corporations[sym]
    if conv is None or corp.kind != conv.from_structure:
        return
    target = game.definition.share_structures[conv.to].shares
    source = game.definition.share_structures[conv.from_structure].shares
    # every certificate is worth what it was in the new structure's shares (1858: 40 % and
    # 20 % certificates become 20 % and 10 %: one share of 5 becomes one of 10)
    old_unit, new_unit = min(source), min(target)
    old_count = len(corp.shares)
    for sh in corp.shares:
        sh.percent = sh.percent * new_unit // old_unit
    for i in range(old_count, len(target)):
        corp.shares.append(
            Share(
                corp=sym,
                index=i,
                percent=target[i],
                president=False,
                owner=sym,
                seq=next_seq(state),
            )
        )
    corp.kind = conv.to
    if conv.float_percent is not None:
        corp.float_percent = conv.float_percent
    else:
        corp.float_percent = corp.float_percent * new_unit // old_unit
    state.log.append(f"{sym} converts to a {conv.to} company")


def fire_train_events(game: Game18xx, state: State18xx, bought_type: str) -> None:
    done = state.data.setdefault("train_events_fired", [])
    if bought_type in done:
        return
    done.append(bought_type)
    typ = common.train_type_def(game, bought_type + "-0")
    conv = game.definition.companies.conversion
    for event in typ.events:
        state.log.append(f"-- Event: {event} --")
        if conv is not None and event == conv.on_event:
            for sym in list(state.corporations):
                convert_share_structure(game, state, sym)
        else:
            game.rules.train_event(game, state, event)


def after_purchase(game: Game18xx, state: State18xx, tid: str, face: str, from_bank: bool) -> None:
    """Everything a train purchase sets off, in 18xx.games' order: the Nth-purchase rusting,
    then new phases, wounding and rusting by type, then the card's one-off events."""
    bought_type = common.train_type(tid)
    nth_purchase_rusting(game, state, face, from_bank)
    start_phases(game, state, bought_type)
    apply_wound_and_rust(game, state, bought_type)
    if from_bank:
        fire_train_events(game, state, bought_type)
