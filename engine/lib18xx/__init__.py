"""The 18xx library: what the share-and-railway games of the 1830 family have in common, as
generic steps that read settings from the game's data, on the kernel.

Its rules (``rules.Rules18xx``: the hooks its steps ask, with 18xx.games' usual behaviour, which
a title subclasses), its part of the state (``state.State18xx``: companies, privates, trains,
map, tiles, market, bank, phase), its game (``game.Game18xx``), round kinds (``rounds``),
action types (``actions``) and step base (``step``); stock rounds (``stock/``: buy, sell, par,
waterfall auction, exchanges), operating rounds (``operating/``: track, tokens, routes,
dividends, trains, phases, emergency buys), the stock market (``market``), private abilities
(``abilities``), the map as state (``board``) and the opening set-up (``setup``).  May import
the kernel, ``board``, ``routes``, ``data`` and below; never a title (``games``), play or
anything above.
"""
