"""Operating rounds (1858 rules 9-11): one module per step or concept.

Pure rules (:mod:`.dividend`, :mod:`.token`, :mod:`.track`, :mod:`.trains`, :mod:`.phases`,
:mod:`.game_end`) hold the arithmetic; the step classes that apply them to a game state sit
beside them and register themselves by name (imported here so a hook set naming this package
gets them all).
"""

from engine.rules.operating import (  # noqa: F401  (registers the steps)
    closure,
    dividend,
    issue,
    route_step,
    token,
    track,
    trains,
)
