"""Players that are programs: the bot interface and the bundled bots (random, greedy)."""
