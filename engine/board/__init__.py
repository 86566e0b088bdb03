"""The board as geometry: hex coordinates and neighbours (``hexmap``), tile rotation, exits and
upgrades (``tiles``), and the track graph a company's routes run on (``graph``).

Pure functions of parsed tiles and placed hexes; no game state, no rules.  May import
``errors`` and ``notation`` only.
"""
