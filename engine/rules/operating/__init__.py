"""Operating rounds (1858 rules 9-11): one module per step or concept.

Pure rules (:mod:`.dividend`, :mod:`.token`, :mod:`.track`, :mod:`.trains`, :mod:`.phases`,
:mod:`.game_end`) hold the arithmetic; the step classes that apply them to a game state sit
beside them and register themselves by name (imported here so a hook set naming this package
gets them all).
"""

import ferrovia.rules.operating.closure
import ferrovia.rules.operating.dividend
import ferrovia.rules.operating.issue
import ferrovia.rules.operating.route_step
import ferrovia.rules.operating.token
import ferrovia.rules.operating.track
import ferrovia.rules.operating.trains  # noqa: F401  (importing registers the steps)
