"""Drawing what Ferrovia loads: hex geometry, tiles, the map, game-state panels, the viewer.

Standard library only: SVG is written as escaped text (see :mod:`ferrovia.render.svg`).
"""
