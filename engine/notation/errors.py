"""The error a bad tile code raises: where in the code, and where in its YAML file."""

from __future__ import annotations

from typing import Literal

from ferrovia.errors import DataError, FerroviaError, SourcePos

#: How a code was written in YAML, for mapping a column in the code to one in the file.
QuoteStyle = Literal["plain", "'", '"']


def file_column_offset(code: str, index: int, style: QuoteStyle | None) -> int:
    """How many file columns lie between the code's first character and character ``index``.

    Plain scalars map one to one.  In a single-quoted scalar every ``'`` is written ``''``; in a
    double-quoted one ``"`` and ``\\`` are written with a backslash (the minimal escaping a
    person writes; other escapes cannot occur in a valid tile code anyway).

    >>> file_column_offset("label=O'K;x", 9, "'")
    10
    """
    head = code[:index]
    if style == "'":
        return index + head.count("'")
    if style == '"':
        return index + head.count('"') + head.count("\\")
    return index


class NotationError(FerroviaError):
    """A tile code that is not valid notation.

    ``index`` is the 0-based offset into ``code`` of the offending character (it may equal
    ``len(code)`` when something is missing at the end); ``col`` is the same position 1-based,
    as messages show it.  With ``origin`` (the file position of the code's first character)
    :attr:`file_pos` gives the offending character's ``file:line:col``.

    >>> e = NotationError("path=a:7,b:0", 7, "edge must be 0-5, got '7'")
    >>> e.col
    8
    >>> print(e)
    column 8: error: edge must be 0-5, got '7'
      path=a:7,b:0
             ^
    """

    def __init__(
        self,
        code: str,
        index: int,
        message: str,
        *,
        origin: SourcePos | None = None,
        style: QuoteStyle | None = None,
    ) -> None:
        self.code = code
        self.index = max(0, min(index, len(code)))
        self.message = message
        self.origin = origin
        self.style = style
        super().__init__(str(self))

    @property
    def col(self) -> int:
        """1-based column of the offending character within the code."""
        return self.index + 1

    @property
    def file_pos(self) -> SourcePos | None:
        """``file:line:col`` of the offending character, when the code's origin is known."""
        if self.origin is None:
            return None
        offset = file_column_offset(self.code, self.index, self.style)
        return SourcePos(self.origin.file, self.origin.line, self.origin.col + offset)

    def located(self, origin: SourcePos | None, style: QuoteStyle | None = None) -> NotationError:
        """The same error, placed in a file (``origin`` = position of the code's first char)."""
        return NotationError(self.code, self.index, self.message, origin=origin, style=style)

    def to_data_error(self) -> DataError:
        """As a :class:`DataError` (needs an origin), for loaders that collect those."""
        pos = self.file_pos
        if pos is None:
            raise ValueError("this notation error has no file origin")
        return DataError(pos.file, pos.line, pos.col, f"tile code: {self.message}")

    @property
    def caret(self) -> str:
        """The code, and under it a caret at the offending column (two-space indent)."""
        return f"  {self.code}\n  {' ' * self.index}^"

    def __str__(self) -> str:
        pos = self.file_pos
        where = str(pos) if pos is not None else f"column {self.col}"
        return f"{where}: error: {self.message}\n{self.caret}"

    def __reduce__(self) -> tuple[object, ...]:  # picklable despite keyword arguments
        return (_rebuild, (self.code, self.index, self.message, self.origin, self.style))


def _rebuild(
    code: str, index: int, message: str, origin: SourcePos | None, style: QuoteStyle | None
) -> NotationError:
    return NotationError(code, index, message, origin=origin, style=style)
