"""The 18xx library: what the share-and-railway games of the 1830 family have in common, as
generic steps that read settings from the game's data.

Stock rounds (``stock/``: buy, sell, par, waterfall auction, exchanges), operating rounds
(``operating/``: track, tokens, routes, dividends, trains, phases, emergency buys), the
stock market (``market``), private abilities (``abilities``), the map as state (``board``) and
the opening set-up (``setup``).  May import the kernel, ``board``, ``routes``, ``data`` and
below; never a title (``games``), play or anything above.
"""
