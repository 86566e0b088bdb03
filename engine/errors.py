"""Every error Ferrovia reports on purpose: each carries a position a person can act on.

Data errors point into a file (``FILE:LINE:COL``); notation errors point into a tile code (a
column, and the file position of that character when the code came from YAML); game errors name
the action, its index and the rule it breaks.  Anything else escaping to the user is a bug.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")
"""Characters that show as nothing (zero-width spaces, direction marks, a soft hyphen...)."""


def visible(text: str) -> str:
    r"""``text`` with characters that show as nothing written as ``<U+XXXX>``, so a message
    about ``M​ZA`` does not print a name that looks like ``MZA``.

    >>> visible("M​ZA")
    'M<U+200B>ZA'
    """
    return INVISIBLE.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


class FerroviaError(Exception):
    """Base class of all errors Ferrovia raises deliberately."""


@dataclass(frozen=True)
class SourcePos:
    """A position in a source file: 1-based line and column."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class UsageError(FerroviaError):
    """The command line asks for something that cannot be done as asked (exit code 2): a path
    that is not there or cannot be read or written, an output that is one of the inputs."""


class DataError(FerroviaError):
    """A mistake in game data, at a file position.

    >>> str(DataError("map.yaml", 3, 7, "unknown key 'colr'"))
    "map.yaml:3:7: error: unknown key 'colr'"
    """

    def __init__(self, file: str, line: int, col: int, message: str) -> None:
        self.file = file
        self.line = line
        self.col = col
        self.message = message
        super().__init__(str(self))

    @property
    def pos(self) -> SourcePos:
        return SourcePos(self.file, self.line, self.col)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: error: {visible(self.message)}"


class DataErrors(FerroviaError):
    """Several data errors, collected rather than stopping at the first."""

    def __init__(self, errors: list[DataError]) -> None:
        self.errors = errors
        super().__init__("\n".join(str(e) for e in errors))


class GameError(FerroviaError):
    """A game action could not be applied; the state is unchanged."""

    def __init__(
        self,
        message: str,
        *,
        action: object = None,
        index: int | None = None,
        rule: str | None = None,
    ) -> None:
        self.message = message
        self.action = action
        self.index = index
        self.rule = rule
        super().__init__(str(self))

    def __str__(self) -> str:
        parts = []
        if self.index is not None:
            parts.append(f"action {self.index}")
        if self.action is not None:
            parts.append(f"{getattr(self.action, 'kind', type(self.action).__name__)}")
        head = " ".join(parts)
        rule = f" [{self.rule}]" if self.rule else ""
        return visible(f"{head + ': ' if head else ''}{self.message}{rule}")


class IllegalAction(GameError):
    """The action breaks a rule (``rule`` names it, e.g. ``'8.2 certificate limit'``)."""


class OutOfTurn(GameError):
    """The entity named in the action is not the one to act."""


class UnknownEntity(GameError):
    """The action names a player, company, hex, tile or train that does not exist."""
