"""The track graph of a map: stops, track paths and how they join; connectivity per gauge.

Built from what is on each hex (a parsed :class:`~ferrovia.notation.models.Tile` and its rotation)
and nothing else, so it does not depend on the game state's classes::

    graph = build_graph({"G18": (tile, 0), "G20": (tile57, 1), ...}, colors={"M2": "red"})
    reach = reachable(graph, "MZA", tokens=state_tokens, gauge="broad")
    reach.hexes["G20"]        # edges of G20 the company's track reaches (tile-lay legality)
    "G20-0" in reach.nodes    # a stop the company can reach (token legality)

Vocabulary (as 18xx.games uses it, facts from its engine):

- A **stop** (graph node) is a city, town or offboard; its id is ``"<hex>-<n>"`` where ``n`` is
  the part's index in the tile code counting every part from 0 (a ``lanes:N`` path counts N
  times) -- the same id 18xx.games writes in a ``run_routes`` action's ``nodes``.
  ``Stop.city_number`` is the city's place among the tile's cities, the index the game state
  uses for station tokens.
- A **path** is one track segment of a tile between two ends (edges, stops or a junction),
  rotated into place.  Paths of two hexes join across a shared side when both have an exit
  there, the lanes line up and the gauges fit (broad meets broad or dual, metre meets metre or
  dual, dual meets anything).  ``track:future`` paths are not track and are left out.
- Hexes join only where the map has both; a red, gray or blue hex is a neighbour only of hexes
  its own track points at, and an ``impassable`` border closes a side.
- A **chain** is a run of paths from one stop to another with no stop between (see
  :func:`chains_from`): the unit a ``run_routes`` connection names by its hexes.

Connectivity (:func:`reachable`) walks from the company's station tokens (and, for a private
railway, its home hexes) along track of one gauge family -- ``"broad"`` (broad + dual),
``"metre"`` (metre + dual) or ``None`` (any) -- passing through a stop unless it blocks the
company: an offboard always blocks, a city blocks when every slot holds another company's token.
A blocked stop is still *reached* (its track counts), the walk just does not go through it.

The package, by concern: :mod:`.model` (the graph's data), :mod:`.build` (a graph from the
tiles on the map), :mod:`.update` (the graph after a lay, ids kept), :mod:`.stations` (station
tokens and what they block), :mod:`.reach` (what a company reaches, and the narrower questions
a lay or a station asks), :mod:`.walk` and :mod:`.matching` (how the reach walk is computed
exactly and fast), :mod:`.chains` (runs of track between two stops, for routes).  It imports
only :mod:`ferrovia.board.hexmap` and :mod:`ferrovia.notation`.
"""

from ferrovia.board.graph.build import build_graph
from ferrovia.board.graph.chains import Chain, chains_from, make_chain
from ferrovia.board.graph.model import (
    CLOSED_COLOURS,
    Stop,
    TrackGraph,
    TrackPath,
    bit_positions,
    ruby_part_indices,
)
from ferrovia.board.graph.reach import (
    WALK_STATS,
    Reach,
    gauge_skip,
    home_starts,
    reach_bound,
    reach_by_matching,
    reachable,
    reached_edges,
    reaches_stop,
    runs_into,
)
from ferrovia.board.graph.stations import Tokens, blocks, city_tokens, passable_stops, tokened_by
from ferrovia.board.graph.update import update_graph

__all__ = [
    "CLOSED_COLOURS",
    "WALK_STATS",
    "Chain",
    "Reach",
    "Stop",
    "Tokens",
    "TrackGraph",
    "TrackPath",
    "bit_positions",
    "blocks",
    "build_graph",
    "chains_from",
    "city_tokens",
    "gauge_skip",
    "home_starts",
    "make_chain",
    "passable_stops",
    "reach_bound",
    "reach_by_matching",
    "reachable",
    "reached_edges",
    "reaches_stop",
    "ruby_part_indices",
    "runs_into",
    "tokened_by",
    "update_graph",
]
