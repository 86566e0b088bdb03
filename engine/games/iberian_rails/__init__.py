"""Iberian Rails: a share game of six railroad companies on the Iberian peninsula, played on
the kernel (:mod:`ferrovia.kernel`) beside the 18xx library, not inside it: no tiles, trains,
stock market or operating rounds.

``rules`` holds the rulebook's rules as pure functions and value types; ``schemas`` the
models of its own file kinds (board, railroads, payouts, characters, setup).
"""
