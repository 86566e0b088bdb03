"""Listing legal tile lays checks what does not depend on the rotation once per hex and tile;
the lays it offers are exactly those :meth:`TrackStep.check_lay` accepts, in the same order.

The oracle is the plain listing: every hex the operator reaches, every free tile of the next
colour, every rotation the tile may take there, each asked of ``check_lay``.  It is compared
with the listing at every tile-lay turn of seeded random games of 1858, its variants and 1830.
"""

from __future__ import annotations

from typing import Any

import pytest
from ferrovia.errors import IllegalAction
from ferrovia.kernel.actions import Action, Pass
from ferrovia.lib18xx import board
from ferrovia.lib18xx.actions import LayTile
from ferrovia.lib18xx.game import Game18xx
from ferrovia.lib18xx.operating import common, routing, track
from ferrovia.lib18xx.state import State18xx
from ferrovia.play.selfplay import play


def plain_listing(step: track.TrackStep, entity: str) -> list[Action]:
    """Every candidate lay asked of ``check_lay`` (what the listing did before it was quick)."""
    game, state = step.game, step.state
    kind = common.entity_type(state, entity)
    out: list[Action] = [Pass(entity=entity, entity_type=kind)]
    if int(step.rdata["num_laid_track"]) >= len(track._tile_lays(step, entity)):
        return out
    colors = ["white", *game.definition.upgrade_rules.colors]
    phase_tiles = set(common.current_phase(game, state).tiles)
    graph = routing.track_graph(game, state)
    for coord in sorted(routing.reached_hexes(game, state, entity)):
        if coord not in state.hexes or coord in step.rdata["laid_hexes"]:
            continue
        old = board.placed(game, state, coord)
        if old.color not in colors:
            continue
        last = colors.index(old.color) == len(colors) - 1
        nxt = None if last else colors[colors.index(old.color) + 1]
        sides = graph.neighbours.get(coord, {})
        for name, td in game.definition.tiles.items():
            free = state.tiles.get(name)
            if not free:
                continue
            if (td.color != nxt or nxt not in phase_tiles) and not game.rules.extra_upgrade(
                game, state, entity, coord, name
            ):
                continue
            for r in game.rules.upgrade_rotations(
                game, state, coord, old, name, sides.__contains__
            ):
                lay = LayTile(entity=entity, entity_type=kind, hex=coord, tile=free[0], rotation=r)
                try:
                    step.check_lay(lay)
                except IllegalAction:
                    continue
                out.append(lay)
    return out


class Compare:
    """After every action: if a tile lay is due, both listings of it (no cap on either)."""

    def __init__(self) -> None:
        self.turns = 0
        self.lays = 0

    def __call__(self, game: Game18xx, state: State18xx, action: Any) -> None:
        if state.finished:
            return
        step = game.active_step(state)
        if not isinstance(step, track.TrackStep):
            return
        entity = game.current_entity(state)
        assert entity is not None
        if not step.actions(entity):
            return
        with routing.listing(state):
            expected = plain_listing(step, entity)
        found = step.legal_actions(entity)
        assert found == expected, (state.turn, entity)
        self.turns += 1
        self.lays += len(found) - 1


@pytest.mark.parametrize(
    ("game", "players", "seed", "actions"),
    [
        ("1858", 4, 3, 350),
        ("1858", 3, 2, 300),
        ("1858_switzerland", 3, 1, 300),
        ("1858_india", 4, 1, 300),
        ("1830", 4, 1, 700),
    ],
)
def test_listing_offers_exactly_the_lays_check_lay_accepts(
    monkeypatch: pytest.MonkeyPatch, game: str, players: int, seed: int, actions: int
) -> None:
    monkeypatch.setattr(track, "MAX_LAYS_OFFERED", 10**6)
    compare = Compare()
    play(players, seed, max_actions=actions, game_name=game, observer=compare)
    assert compare.turns >= 8 and compare.lays >= 40, (compare.turns, compare.lays)
