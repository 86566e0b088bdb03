"""What the state keeps beside its entities agrees with the entities, on every state of real
and random games, so the rules may answer from it instead of walking every entity.

- ``state.market`` lists each company's marker on its space: a company's ``market`` position
  is always a key there holding the company (g1858 ``companies_to_close`` answers "none"
  from the closing spaces' keys alone).
- routing.token_map (kept until a Hex is given new token lists) is the map's hexes with
  city spaces and their own token lists.
- the track graph's cache key carries the map signature's hash from lay to lay
  (routing._resigned): it is always the hash of the signature worked out afresh, and that
  signature is the map's.
"""

from __future__ import annotations

import pytest
from conftest import shared_path
from ferrovia.games.g1858.closure import _closing_spaces, companies_to_close
from ferrovia.kernel.actions import action_from_json
from ferrovia.lib18xx import market
from ferrovia.lib18xx.game import Game18xx
from ferrovia.lib18xx.operating import routing
from ferrovia.lib18xx.state import State18xx
from ferrovia.play.replay import filter_actions, game_for, load_export

GAMES = [
    ("18xx.games", "1858", "1858_game_end_bank.json"),
    ("18xx.games", "1858India", "hotseat_qs_b.json"),
    ("18xx.games", "1858Switzerland", "1858Switzerland_game_end_bank.json"),
    ("reference-random", "random-s104-p6.json"),
    ("reference-random", "random-s105-p3-quick_start_b.json"),
]


def _closing_by_walk(game: Game18xx, state: State18xx) -> list[str]:
    """Every open company on a closing space, found by looking at each company."""
    spaces = _closing_spaces(game)
    return [
        c.sym
        for c in state.corporations.values()
        if c.market is not None and not c.closed and tuple(c.market) in spaces
    ]


def _check(game: Game18xx, state: State18xx) -> int:
    """Asserts the indexes agree with the entities; returns how many companies were closing."""
    tokens = routing.token_map(state)
    fresh = {c: h.tokens for c, h in state.hexes.items() if h.tokens}
    assert tokens == fresh
    assert all(tokens[c] is fresh[c] for c in fresh)  # the hexes' own lists
    for c in state.corporations.values():
        if c.market is not None:
            assert c.sym in state.market.get(market.cell_key(c.market), []), (c.sym, c.market)
    walked = _closing_by_walk(game, state)
    assert companies_to_close(game, state) == walked
    return len(walked)


@pytest.mark.parametrize("parts", GAMES, ids=lambda p: p[-1])
def test_state_indexes_agree_with_the_entities_on_every_state(parts: tuple[str, ...]) -> None:
    data = load_export(shared_path("fixtures", *parts))
    game, state = game_for(data, None)
    for raw in filter_actions(list(data["actions"])):
        game.apply(state, action_from_json(raw, game.action_types))
        _check(game, state)
    assert state.finished


def test_a_company_on_the_closing_space_is_found_before_it_closes() -> None:
    """The closing check is asked before the closure: a marker moved onto the closing space by
    hand is found there (so the test above could fail)."""
    data = load_export(shared_path("fixtures", "reference-random", "random-s104-p6.json"))
    game, state = game_for(data, None)
    actions = filter_actions(list(data["actions"]))
    for raw in actions[: len(actions) // 2]:
        game.apply(state, action_from_json(raw, game.action_types))
    corp = next(c for c in state.corporations.values() if c.market is not None and not c.closed)
    (space,) = sorted(_closing_spaces(game))
    stack = state.market[market.cell_key(corp.market)]
    stack.remove(corp.sym)
    if not stack:
        del state.market[market.cell_key(corp.market)]
    corp.market = list(space)
    state.market.setdefault(market.cell_key(corp.market), []).append(corp.sym)
    assert companies_to_close(game, state) == [corp.sym]
    assert _check(game, state) == 1


@pytest.mark.parametrize("parts", GAMES[:2] + GAMES[3:4], ids=lambda p: p[-1])
def test_the_graph_key_carries_the_hash_of_the_map_as_it_is(parts: tuple[str, ...]) -> None:
    data = load_export(shared_path("fixtures", *parts))
    game, state = game_for(data, None)
    carried = 0
    for raw in filter_actions(list(data["actions"])):
        game.apply(state, action_from_json(raw, game.action_types))
        routing.track_graph(game, state)
        sig, _graph, _hexes, _edits, _places, sig_hash = routing._LAST[id(game.definition)]
        assert sig == routing._signature(state, None)[0]
        assert sig_hash == routing._sig_hash(sig)
        carried += raw.get("type") == "lay_tile"
    assert carried > 50


def test_an_unlimited_tile_laid_adds_the_instance_above_the_highest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """board.take_tile finds the map's instances of a kind with one regex pass: the instance
    it adds is, on every lay of two games, the one a look at every hex's tile gives."""
    from ferrovia.lib18xx import board

    take = board.take_tile
    checked = 0

    def checked_take(game: Game18xx, state: State18xx, tile_id: str) -> None:
        nonlocal checked
        name = board.tile_name(tile_id)
        unlimited = name in game.definition.tiles and game.definition.tiles[name].count is None
        ids = [*state.tiles.get(name, []), tile_id, *(h.tile for h in state.hexes.values())]
        take(game, state, tile_id)
        if unlimited:
            prefix = f"{name}-"
            top = max(
                int(t[len(prefix) :])
                for t in ids
                if t.startswith(prefix) and t[len(prefix) :].isdigit()
            )
            assert state.tiles[name][-1] == f"{name}-{top + 1}"
            checked += 1

    monkeypatch.setattr(board, "take_tile", checked_take)
    for parts in (GAMES[0], GAMES[3]):
        data = load_export(shared_path("fixtures", *parts))
        game, state = game_for(data, None)
        for raw in filter_actions(list(data["actions"])):
            game.apply(state, action_from_json(raw, game.action_types))
        assert state.finished
    assert checked > 100
