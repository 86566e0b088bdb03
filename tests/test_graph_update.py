"""``update_graph`` joins paths exactly as ``build_graph`` of the same map does.

A lay re-makes only the links of the re-laid hex and, of its neighbours, those across the
sides facing it (engine/graph.py); every other link is kept.  Checked on every lay of a real
1858 game: the links of each updated graph, named by (hex, path's place on its hex, edge),
are those of a graph built afresh from the same tiles.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import shared_path
from ferrovia.graph import TrackGraph, build_graph
from ferrovia.replay import load_export, replay
from ferrovia.rules.operating import routing


def _named_links(g: TrackGraph) -> set[tuple[Any, ...]]:
    """The graph's links with ids replaced by (hex, place among the hex's paths)."""
    place = {pid: (h, i) for h, pids in g.hex_paths.items() for i, pid in enumerate(pids)}
    return {
        (*place[pid], edge, tuple(sorted(place[q] for q in joined)))
        for (pid, edge), joined in g.links.items()
    }


def test_every_updated_graph_of_a_game_has_the_links_of_a_fresh_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    updated: set[int] = set()
    update = routing.update_graph

    def recorded(graph: TrackGraph, changes: Any) -> TrackGraph:
        new = update(graph, changes)
        updated.add(id(new))  # (kept alive by ``seen`` below)
        return new

    monkeypatch.setattr(routing, "update_graph", recorded)
    # the tiles in place are read back from the game as the graph was made
    seen: list[tuple[TrackGraph, dict[str, Any]]] = []
    track_graph = routing._track_graph

    def built(game: Any, state: Any) -> TrackGraph:
        g = track_graph(game, state)
        tiles = {
            c: (routing._with_hex_borders(game, state, c), h.rotation)
            for c, h in state.hexes.items()
        }
        colors = {c: str(hd.color) for c, hd in game.definition.hexes.items()}
        seen.append((g, {"tiles": tiles, "colors": colors, "layout": game.definition.layout}))
        return g

    monkeypatch.setattr(routing, "_track_graph", built)
    res = replay(load_export(shared_path("fixtures", "18xx.games", "1858", "219682.json")))
    assert res.error is None
    checked = 0
    for g, how in seen:
        if id(g) not in updated:
            continue
        fresh = build_graph(how["tiles"], colors=how["colors"], layout=str(how["layout"]))
        assert _named_links(g) == _named_links(fresh)
        checked += 1
    assert checked > 100
