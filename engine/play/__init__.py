"""Running games: reading game files (``gamefile``: 18xx.games exports and Ferrovia logs),
replaying them (``replay``), bots (``bots/``) playing whole games (``selfplay``) and many
seeded games at once with their balance report (``simulate``, ``simreport``).

May import the kernel, the rules libraries, ``games``, ``routes`` and below; never
``render``, ``authoring`` or ``commands``.
"""
