"""Game data: YAML files read with their positions, merged over a base (overlays), checked, and
turned into one immutable :class:`~ferrovia.data.definition.GameDefinition`.

Holds the loader (``loader``), the overlay merge (``overlay``), the cross-file checks
(``validate``), the definition and its on-disk cache (``definition``, ``defcache``) and the
read-only records a cached definition is made of (``records``).  May import ``errors``,
``paths``, ``notation``, ``board`` (tile geometry for the checks) and ``ferrovia.schemas``;
never the kernel, the rules, play or anything above them.
"""
