"""Named rule-hook sets, one per game family (``rules: '1858'`` in game.yaml).

>>> get_rules("1858").NAME
'1858'
"""

from __future__ import annotations

import importlib

from ferrovia.errors import UnknownEntity
from ferrovia.kernel.hooks import Rules

# rules name -> module defining ``RULES`` (a Rules subclass instance)
_MODULES: dict[str, str] = {
    "1830": "ferrovia.games.g1830",
    "1858": "ferrovia.games.g1858",
    "1858_switzerland": "ferrovia.games.g1858.switzerland",
    "1858_india": "ferrovia.games.g1858.india",
}


def available() -> list[str]:
    return sorted(_MODULES)


def get_rules(name: str) -> Rules:
    """The hook set registered under ``name``."""
    module = _MODULES.get(name)
    if module is None:
        raise UnknownEntity(f"no rule-hook set {name!r}; known: {', '.join(available())}")
    rules = importlib.import_module(module).RULES
    if not isinstance(rules, Rules):
        raise TypeError(f"{module}.RULES is not a Rules instance")
    return rules
