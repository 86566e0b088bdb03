"""Step classes by name.  A step module registers its classes with :func:`register_step`;
a game's hook set names the modules it needs (``Rules.STEP_MODULES``) and the steps of each
round (``Rules.ROUND_STEPS``)."""

from __future__ import annotations

from typing import TypeVar

from ferrovia.rules.step import Step

STEPS: dict[str, type[Step]] = {}

S = TypeVar("S", bound=type[Step])


def register_step(cls: S) -> S:
    """Class decorator: make a step available by its ``NAME``."""
    if not cls.NAME:
        raise ValueError(f"{cls.__name__} has no NAME")
    other = STEPS.get(cls.NAME)
    if other is not None and other is not cls:
        raise ValueError(f"two steps named {cls.NAME!r}: {other.__name__}, {cls.__name__}")
    STEPS[cls.NAME] = cls
    return cls
