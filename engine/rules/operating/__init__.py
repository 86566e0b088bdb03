"""Operating rounds (1858 rules 9-11): one module per step or concept.

Pure rules (:mod:`.dividend`, :mod:`.token`, :mod:`.track`, :mod:`.trains`, :mod:`.phases`,
:mod:`.game_end`) hold the arithmetic; the step classes that apply them to a game state sit
beside them.
"""
