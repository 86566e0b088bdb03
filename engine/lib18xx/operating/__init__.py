"""Operating rounds: one module per step or concept.

Pure rules (:mod:`.dividend`, :mod:`.token`, :mod:`.track`, :mod:`.trains`, :mod:`.phases`,
:mod:`.game_end`) hold the arithmetic; the step classes that apply them to a game state sit
beside them.  A game's hook set lists the step classes it uses (``Rules.STEPS``); importing a
module registers nothing.
"""
