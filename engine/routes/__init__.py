"""Train routes on a track graph: the legality and revenue of given routes (``value``) and the
exact best-routes search with its work budget (``search``).

Pure: reads a :class:`~ferrovia.board.graph.TrackGraph`, station tokens and train specs, never
a game state.  May import ``errors`` and ``board``; the rules call in, never the other way.
"""
