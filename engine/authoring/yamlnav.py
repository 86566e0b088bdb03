"""What is written where in a YAML file: the key or value under a cursor, and its extent.

The loader keeps the line and column where each key and value starts; an editor asks the
other way round: which scalar is at line L, column C, and what path leads to it.  Used by
``ferrovia lsp`` (hover, go-to-definition) and ``ferrovia serve`` (errors pinned to hexes).

>>> from ferrovia.data.loader import parse_yaml
>>> doc, _ = parse_yaml("privates:\\n  - {symbol: 'B&M', home_hexes: [C2, D3]}\\n", "p.yaml")
>>> found = scalar_at(doc, 2, 38)
>>> found.path, found.value, found.key, (found.col, found.end)
(('privates', 0, 'home_hexes', 1), 'D3', False, (38, 40))
>>> scalar_at(doc, 2, 15).value, scalar_at(doc, 2, 15).col   # quotes are part of the extent
('B&M', 14)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ferrovia.data.loader import PathItem, YamlDoc

__all__ = ["Scalar", "scalar_at", "scalars", "word_end"]


@dataclass(frozen=True)
class Scalar:
    """One key or scalar value as written: its path, value and extent on its (first) line."""

    path: tuple[PathItem, ...]
    """Path of the value (for a key: of the value the key holds)."""
    value: Any
    key: bool
    """Whether this is a mapping key rather than a value."""
    line: int
    """1-based line."""
    col: int
    """1-based column of its first character (its opening quote, if quoted)."""
    end: int
    """1-based column just after its last character."""


_PLAIN_END = re.compile(r"[^,\[\]{}\s]+(?: +[^,\[\]{}\s#:]+)*")
_WORD = re.compile(r"[^\s,;:=|'\"\[\]{}]+")


def _extent(text: str, start: int, value: Any) -> int:
    """0-based column just after the scalar starting at ``start`` of ``text``."""
    if start >= len(text):
        return start
    quote = text[start]
    if quote in ("'", '"'):
        i = start + 1
        while i < len(text):
            if quote == "'" and text[i] == "'":
                if text[i + 1 : i + 2] == "'":  # '' is an escaped quote
                    i += 2
                    continue
                return i + 1
            if quote == '"' and text[i] == "\\":
                i += 2
                continue
            if quote == '"' and text[i] == '"':
                return i + 1
            i += 1
        return len(text)
    written = str(value)
    if isinstance(value, str) and text.startswith(written, start):
        return start + len(written)
    found = _PLAIN_END.match(text, start)
    return found.end() if found else start + 1


def word_end(text: str, col: int) -> int:
    """1-based column just after the word starting at 1-based ``col`` (at least one character).

    A word stops at spaces and the punctuation of YAML and of tile codes, so an error inside a
    tile code covers just the offending edge, key or value.

    >>> word_end("  code: 'path=a:7,b:0'", 17)
    18
    """
    found = _WORD.match(text, col - 1)
    return found.end() + 1 if found and found.end() > col - 1 else col + 1


def scalars(doc: YamlDoc) -> Iterator[Scalar]:
    """Every key and scalar value of the document, in tree order."""
    lines = doc.lines

    def make(path: tuple[PathItem, ...], value: Any, key: bool, pos: Any) -> Scalar | None:
        try:
            line, col = int(pos[0]), int(pos[1])
        except (TypeError, IndexError, ValueError):
            return None
        text = lines[line] if 0 <= line < len(lines) else ""
        if text[col : col + 1] in ("|", ">") and not key:
            return None  # a block scalar: its text is on the lines below
        return Scalar(path, value, key, line + 1, col + 1, _extent(text, col, value) + 1)

    def walk(node: Any, path: tuple[PathItem, ...]) -> Iterator[Scalar]:
        lc: Any = getattr(node, "lc", None)
        data = getattr(lc, "data", None) or {}
        if isinstance(node, dict):
            for k, v in node.items():
                spot = data.get(k)
                here = (*path, k)
                if spot is not None:
                    found = make(here, k, True, spot[0:2])
                    if found:
                        yield found
                    if not isinstance(v, dict | list):
                        found = make(here, v, False, spot[2:4])
                        if found:
                            yield found
                yield from walk(v, here)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                spot = data.get(i)
                here = (*path, i)
                if spot is not None and not isinstance(v, dict | list):
                    found = make(here, v, False, spot[0:2])
                    if found:
                        yield found
                yield from walk(v, here)

    yield from walk(doc.data, ())


def scalar_at(doc: YamlDoc, line: int, col: int) -> Scalar | None:
    """The key or scalar value covering 1-based ``line``/``col``, or None; a cursor just
    after a scalar (where it stands after typing it) counts as on it."""
    after = None
    for found in scalars(doc):
        if found.line == line and found.col <= col <= found.end:
            if col < found.end:
                return found
            after = found
    return after
