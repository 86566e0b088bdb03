"""Operating rounds (1858 rules 9-11): one module per step or concept.

Pure rules (:mod:`.dividend`, :mod:`.token`, :mod:`.track`, :mod:`.trains`, :mod:`.phases`,
:mod:`.game_end`) hold the arithmetic; the step classes that apply them to a game state sit
beside them and register themselves by name (imported here so a hook set naming this package
gets them all).
"""

import engine.rules.operating.closure
import engine.rules.operating.dividend
import engine.rules.operating.issue
import engine.rules.operating.route_step
import engine.rules.operating.token
import engine.rules.operating.track
import engine.rules.operating.trains  # noqa: F401  (importing registers the steps)
