"""Tile code -> :class:`~ferrovia.notation.models.Tile`: a lark LALR grammar, then semantic checks.

The grammar (``grammar.lark``) only knows the shape ``type=key:value,...;...``.  What each part
type accepts, which values are legal, and that ``_N`` names an existing node are checked here,
so every error can say what was expected, at the right column.  For speed, codes go through a
coarse-token form of the grammar (``start``); only a code it rejects is parsed again with the
fine-token form (``precise``) to place the error.

Lenient (default) and strict modes
----------------------------------
Real 18xx.games data contains a handful of slips its decoder tolerates.  The default, lenient
mode accepts exactly these and gives the tile the decoder would build; ``strict=True`` rejects
them (use it for new data):

* edge ``6`` in a path end: the decoder reduces edges mod 6 whenever it reads track, so it is
  edge 0;
* a missing ``;`` that glues the next part onto a value (``b:_1border=edge:4``): the decoder
  ignores everything from the second ``=`` to the next ``;``, and so do we; the value loses the
  glued type name (``_1``);
* a repeated key in one part: the last one wins;
* keys the decoder ignores but real data writes (e.g. a city's ``pos``): kept in
  ``part.extra``, only for the part types listed in :data:`INERT_KEYS`;
* whitespace around an integer (``cost:40 ``).

Both modes allow a trailing ``;`` (or several) and a trailing ``,`` in a part, as the decoder
does; both reject an empty part between two ``;`` (the decoder crashes on it).

Flags (``hide``, ``sticky``, ``terminal``...) take ``1``/``true`` or ``0``/``false``.  Note that
18xx.games treats *any* written value as true, so its 18Rhl data's ``sticky:0`` icons are
sticky there and not here; no 1858 code is affected.

Node references
---------------
``_N`` counts, from 0, the nodes defined so far in code order: ``city``, ``pass``, ``town``,
``halt``, ``offboard`` and ``junction`` parts.  The decoder resolves a reference when it reads
the path, so a path may only name a node written *before* it (every real code does so).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from pathlib import Path as FsPath
from typing import Any, NoReturn

from ferrovia.errors import SourcePos
from ferrovia.notation import keys as _keys
from ferrovia.notation import models as m
from ferrovia.notation.errors import NotationError, QuoteStyle
from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

# ----------------------------------------------------------------------------- value readers


class _Bad(Exception):
    """A value is wrong; ``offset`` is relative to the value's first character."""

    def __init__(self, message: str, offset: int = 0) -> None:
        self.message = message
        self.offset = offset


@dataclass(slots=True)
class _Ctx:
    strict: bool
    nodes: int  # nodes defined before the current part


Reader = Callable[[str, _Ctx], Any]

_INT = re.compile(r"-?\d+")
_NUM = re.compile(r"\d+(?:\.\d+)?")
_WORD = re.compile(r"[A-Za-z]+")
_COLOUR = re.compile(r"[A-Za-z]+|#[0-9A-Fa-f]{3,8}")
_PHASE = re.compile(r"([A-Za-z]+|#[0-9A-Fa-f]{3,8})_(-?\d+)")
_LANE = re.compile(r"(\d+)(?:\.(\d))?")
_VERTEX = re.compile(r"([0-5])([+-]?)")


def _int_text(value: str, ctx: _Ctx) -> str:
    text = value
    if not ctx.strict:
        text = value.strip()
    if not _INT.fullmatch(text):
        raise _Bad(f"expected an integer, got {value!r}")
    return text


def _int(value: str, ctx: _Ctx) -> int:
    return int(_int_text(value, ctx))


def _count(value: str, ctx: _Ctx) -> int:
    n = _int(value, ctx)
    if n < 0:
        raise _Bad(f"expected a whole number >= 0, got {value!r}")
    return n


def _positive(value: str, ctx: _Ctx) -> int:
    n = _int(value, ctx)
    if n < 1:
        raise _Bad(f"expected a whole number >= 1, got {value!r}")
    return n


def _edge(value: str, ctx: _Ctx) -> int:
    n = int(_int_text(value, ctx)) if _INT.fullmatch(value.strip()) else -1
    if not 0 <= n <= 5:
        raise _Bad(f"expected an edge 0-5, got {value!r}")
    return n


def _endpoint(value: str, ctx: _Ctx) -> m.Endpoint:
    if value.startswith("_"):
        digits = value[1:]
        if not digits.isdigit() or not digits.isascii():
            raise _Bad(f"expected a node reference _N (N a number), got {value!r}")
        index = int(digits)
        if index >= ctx.nodes:
            have = (
                "no node is defined before it"
                if ctx.nodes == 0
                else f"only {ctx.nodes} node{'s' if ctx.nodes > 1 else ''} "
                f"(_0{f'.._{ctx.nodes - 1}' if ctx.nodes > 1 else ''}) defined before it"
            )
            raise _Bad(
                f"node reference {value} names no node: {have} "
                "(nodes are city, pass, town, halt, offboard and junction parts)"
            )
        return m.NodeRef(index)
    if value == "6" and not ctx.strict:
        return m.Edge(0)  # the reference reads edges mod 6
    if value.isdigit() and value.isascii() and int(value) <= 5:
        return m.Edge(int(value))
    hint = " (18xx.games reads 6 as edge 0: write 0)" if value == "6" else ""
    raise _Bad(f"expected an edge 0-5 or a node reference _N, got {value!r}{hint}")


def _flag(value: str, ctx: _Ctx) -> bool:
    if value in ("1", "true"):
        return True
    if value in ("0", "false"):
        return False
    raise _Bad(f"expected 1 or 0 (or true/false), got {value!r}")


def _terminal(value: str, ctx: _Ctx) -> int:
    if value in ("1", "2"):
        return int(value)
    raise _Bad(f"expected terminal 1 or 2, got {value!r}")


def _lane(value: str, ctx: _Ctx) -> m.Lane:
    match = _LANE.fullmatch(value)
    if not match:
        raise _Bad(f"expected a lane W.I (lane I of W lanes, e.g. 2.0), got {value!r}")
    width, index = int(match.group(1)), int(match.group(2) or 0)
    if width < 1 or index >= width:
        raise _Bad(f"lane index must be below the lane count, got {value!r}")
    return m.Lane(width, index)


def _enum(enum: type[StrEnum]) -> Reader:
    names = ", ".join(e.value for e in enum)

    def read(value: str, ctx: _Ctx) -> StrEnum:
        try:
            return enum(value)
        except ValueError:
            raise _Bad(f"expected one of {names}, got {value!r}") from None

    return read


def _revenue(value: str, ctx: _Ctx) -> m.Revenue:
    if "_" not in value and "|" not in value:
        try:
            return m.Revenue(flat=_int(value, ctx))
        except _Bad:
            raise _Bad(
                f"expected a revenue: a number or phase values like yellow_20|brown_40, "
                f"got {value!r}"
            ) from None
    phases: dict[str, int] = {}
    offset = 0
    for item in value.split("|"):
        match = _PHASE.fullmatch(item)
        if not match:
            raise _Bad(
                f"expected a phase revenue COLOUR_NUMBER (e.g. green_30), got {item!r}", offset
            )
        colour = match.group(1)
        if colour in phases:
            raise _Bad(f"phase {colour!r} has two revenues", offset)
        phases[colour] = int(match.group(2))
        offset += len(item) + 1
    return m.Revenue(phases=tuple(phases.items()))


def _names(value: str, ctx: _Ctx) -> tuple[str, ...]:
    items = tuple(value.split("|"))
    if any(not i for i in items):
        raise _Bad(f"empty name in the '|'-separated list {value!r}")
    return items


def _terrains(value: str, ctx: _Ctx) -> tuple[str, ...]:
    offset = 0
    items = value.split("|")
    for item in items:
        if item not in m.KNOWN_TERRAINS:
            known = ", ".join(sorted(m.KNOWN_TERRAINS))
            raise _Bad(f"unknown terrain {item!r}; expected one of {known}", offset)
        offset += len(item) + 1
    return tuple(items)


def _loc(value: str, ctx: _Ctx) -> str:
    if _NUM.fullmatch(value) or _WORD.fullmatch(value):
        return value
    raise _Bad(f"expected a location: a number like 2.5 or a word like center, got {value!r}")


def _colour(value: str, ctx: _Ctx) -> str:
    if _COLOUR.fullmatch(value):
        return value
    raise _Bad(f"expected a colour name or #hex, got {value!r}")


def _text(value: str, ctx: _Ctx) -> str:
    return value


def _float(value: str, ctx: _Ctx) -> float:
    if _NUM.fullmatch(value):
        return float(value)
    raise _Bad(f"expected a number, got {value!r}")


def _vertex(value: str, ctx: _Ctx) -> m.Vertex:
    match = _VERTEX.fullmatch(value)
    if not match:
        raise _Bad(f"expected a vertex 0-5, optionally followed by + or -, got {value!r}")
    sign = {"": 0, "+": 1, "-": -1}[match.group(2)]
    return m.Vertex(int(match.group(1)), sign)


# ----------------------------------------------------------------------------- part specs
@dataclass(frozen=True, slots=True)
class KeySpec:
    """One key a part type takes: the model field it fills and how its value is read."""

    key: str
    field: str
    read: Reader
    required: bool = False


_CENTRE_READERS: dict[str, Reader] = {
    "groups": _names,
    "hide": _flag,
    "visit_cost": _count,
    "route": _enum(m.Route),
    "format": _text,
}

#: How each key of each part type (:data:`~ferrovia.notation.keys.PART_KEYS`) is read.
_READERS: dict[str, dict[str, Reader]] = {
    "path": {
        "a": _endpoint,
        "b": _endpoint,
        "terminal": _terminal,
        "lanes": _positive,
        "a_lane": _lane,
        "b_lane": _lane,
        "track": _enum(m.Gauge),
        "ignore": _flag,
    },
    "city": {
        "revenue": _revenue,
        "slots": _count,
        **_CENTRE_READERS,
        "boom": _flag,
        "outline": _flag,
        "loc": _loc,
    },
    "pass": {
        "revenue": _revenue,
        "slots": _count,
        **_CENTRE_READERS,
        "boom": _flag,
        "loc": _loc,
        "color": _colour,
        "size": _count,
    },
    "town": {
        "revenue": _revenue,
        **_CENTRE_READERS,
        "loc": _loc,
        "boom": _flag,
        "style": _enum(m.TownStyle),
        "to_city": _flag,
    },
    "halt": {"symbol": _text, "revenue": _revenue, **_CENTRE_READERS, "loc": _loc},
    "offboard": {"revenue": _revenue, **_CENTRE_READERS, "rows": _positive},
    "junction": {},
    "label": {},  # text, not key:value
    "upgrade": {"cost": _count, "terrain": _terrains, "size": _count, "loc": _loc},
    "border": {"edge": _edge, "type": _enum(m.BorderType), "cost": _count, "color": _colour},
    "icon": {
        "image": _text,
        "name": _text,
        "sticky": _flag,
        "blocks_lay": _flag,
        "large": _flag,
        "loc": _loc,
    },
    "stub": {"edge": _edge},
    "partition": {
        "a": _vertex,
        "b": _vertex,
        "type": _enum(m.PartitionType),
        "restrict": _enum(m.Restrict),
        "length": _float,
    },
    "frame": {"color": _colour, "color2": _colour},
    "stripes": {"color": _colour},
    "future_label": {"label": _text, "color": _colour},
}

#: Keys of every part type, in canonical (formatting) order, with their readers.
PART_KEYS: dict[str, tuple[KeySpec, ...]] = {
    kind: tuple(KeySpec(k.key, k.field, _READERS[kind][k.key], k.required) for k in keys)
    for kind, keys in _keys.PART_KEYS.items()
}
assert all(set(_READERS[kind]) == {s.key for s in PART_KEYS[kind]} for kind in PART_KEYS)

#: Keys real 18xx.games codes write that its decoder ignores; lenient mode keeps them in
#: ``part.extra``.  Anything else unknown is an error in both modes.
INERT_KEYS: dict[str, frozenset[str]] = {
    "city": frozenset({"pos", "reservation"}),
    "offboard": frozenset({"b", "terminal", "loc"}),
    "path": frozenset({"loc"}),
    "upgrade": frozenset({"sticky"}),
    "icon": frozenset({"visit_cost"}),
}

PART_TYPES: tuple[str, ...] = tuple(PART_KEYS)
_NODE_TYPES = frozenset({"city", "pass", "town", "halt", "offboard", "junction"})
_SPEC_BY_KEY = {kind: {s.key: s for s in specs} for kind, specs in PART_KEYS.items()}


# ----------------------------------------------------------------------------- lark
def _s(token: Token) -> int:
    return token.start_pos if token.start_pos is not None else 0


def _e(token: Token) -> int:
    return token.end_pos if token.end_pos is not None else 0


#: a part's name or label text, or one key or value: (text, 0-based start in the code)
_Piece = tuple[str, int]


@dataclass(slots=True)
class _RawPart:
    name: _Piece
    text: _Piece | None  # label text
    pairs: list[tuple[_Piece, _Piece]]  # (key, value) in code order
    glue: Token | None
    end: int


def _pair(token: Token, skip: int) -> tuple[_Piece, _Piece]:
    """Split a PAIR (``skip`` 0) or MORE (``skip`` 1, its leading ',') token."""
    text = token.value
    colon = text.index(":")
    start = _s(token)
    return (text[skip:colon], start + skip), (text[colon + 1 :], start + colon + 1)


class _Shape(Transformer[Token, Any]):
    """Turns the fast parse into raw parts; the meaning is checked in :func:`_build`."""

    def text_body(self, children: list[Token]) -> tuple[str, Token, list[Any]]:
        token = children[0]
        return ("text", token, [])

    def pairs_body(self, children: list[Token]) -> tuple[str, Token, list[Any]]:
        pairs = [_pair(children[0], 0)]
        pairs.extend(_pair(t, 1) for t in children[1:])
        return ("pairs", children[-1], pairs)

    def part(self, children: list[Any]) -> _RawPart:
        head: Token = children[0]
        if head.type == "HEAD":
            name = (head.value[:-1], _s(head))
        else:
            name = (head.value, _s(head))
        text: _Piece | None = None
        pairs: list[tuple[_Piece, _Piece]] = []
        glue: Token | None = None
        end = _e(head)
        for child in children[1:]:
            if isinstance(child, Token):
                glue = child
                end = _e(child)
            else:
                kind, last, found = child
                end = _e(last)
                if kind == "text":
                    text = (last.value, _s(last))
                else:
                    pairs = found
        return _RawPart(name, text, pairs, glue, end)

    def start(self, children: list[Any]) -> list[Any]:
        return children


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The parser, built at the first parse (a tenth of a second): a definition from the
    on-disk cache holds its tiles parsed, so a replay never needs it."""
    grammar = (FsPath(__file__).with_name("grammar.lark")).read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        lexer="contextual",
        start=["start", "precise"],
        transformer=_Shape(),
        maybe_placeholders=False,
    )


_TERMINAL_WORDS = {
    "NAME": "a part type",
    "HEAD": "a part type",
    "PAIR": "key:value",
    "MORE": "',' and key:value",
    "KEY": "a key followed by ':'",
    "VALUE": "a value",
    "TEXT": "label text",
    "SEMIS": "';'",
    "COMMA": "','",
    "EQUAL": "'='",
    "$END": "the end of the code",
    "<END-OF-FILE>": "the end of the code",
}
_WORDLIKE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*:?")


def _expected(names: set[str] | frozenset[str], code: str = "", index: int = 0) -> str:
    # say only what the part at hand can take: label text for a label, keys for the rest
    head = code[:index].rsplit(";", 1)[-1]
    if "=" in head:
        names = set(names) - ({"KEY"} if head.split("=", 1)[0] == "label" else {"TEXT"})
    words = sorted({_TERMINAL_WORDS[n] for n in names if n in _TERMINAL_WORDS})
    if not words:
        return "something else"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _found(code: str, index: int) -> str:
    if index >= len(code):
        return "end of the code"
    word = _WORDLIKE.match(code, index)
    return repr(word.group(0) if word else code[index])


def _lark_error(code: str, exc: UnexpectedInput) -> NotationError:
    leading = len(code) - len(code.lstrip(";"))
    if leading and leading < len(code.rstrip(";")):
        return NotationError(code, 0, "empty part: a code cannot start with ';'")
    if isinstance(exc, UnexpectedCharacters):
        index = exc.pos_in_stream or 0
        found = _found(code, index)
        return NotationError(
            code,
            index,
            f"unexpected {found}; expected {_expected(set(exc.allowed or ()), code, index)}",
        )
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        if token.type == "$END" or token.start_pos is None:
            index = len(code)
        else:
            index = _s(token)
        found = _found(code, index)
        return NotationError(
            code, index, f"unexpected {found}; expected {_expected(exc.expected, code, index)}"
        )
    if isinstance(exc, UnexpectedEOF):
        return NotationError(
            code, len(code), f"unexpected end of the code; expected {_expected(set(exc.expected))}"
        )
    return NotationError(code, 0, "not a tile code")  # pragma: no cover - lark has no others


# ----------------------------------------------------------------------------- semantics
def _suggest(word: str, choices: list[str] | tuple[str, ...]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _fail(code: str, index: int, message: str) -> NoReturn:
    raise NotationError(code, index, message)


def _unglue(code: str, raw: _RawPart, strict: bool) -> None:
    """Handle a second '=' in one part (a missing ';'): see the module docstring."""
    glue = raw.glue
    assert glue is not None
    last: _Piece | None = raw.pairs[-1][1] if raw.pairs else raw.text
    problem = "a part has at most one '='; is a ';' missing before it?"
    if strict or last is None or last[1] + len(last[0]) != _s(glue):
        _fail(code, _s(glue), problem)
    value, start = last
    glued = next((t for t in _TYPES_LONGEST_FIRST if value.endswith(t)), None)
    if glued is None or len(glued) == len(value):
        _fail(code, _s(glue), problem)
    fixed = (value[: -len(glued)], start)
    if raw.pairs:
        raw.pairs[-1] = (raw.pairs[-1][0], fixed)
    else:
        raw.text = fixed


_TYPES_LONGEST_FIRST = sorted(PART_TYPES, key=len, reverse=True)


def _build_part(code: str, raw: _RawPart, ctx: _Ctx) -> m.Part:
    name = raw.name[0]
    if name not in PART_KEYS:
        _fail(
            code,
            raw.name[1],
            f"unknown part type {name!r}{_suggest(name, PART_TYPES)}; "
            f"expected one of {', '.join(PART_TYPES)}",
        )
    if raw.glue is not None:
        _unglue(code, raw, ctx.strict)
    if name == "label":
        if raw.pairs:
            _fail(code, raw.pairs[0][0][1], "a label takes its text (label=Y), not key:value")
        return m.Label(text=raw.text[0] if raw.text is not None else "")
    if raw.text is not None:
        _fail(
            code,
            raw.text[1],
            f"{name} takes key:value parameters"
            + (f" ({', '.join(s.key for s in PART_KEYS[name])})" if PART_KEYS[name] else "")
            + f", got {raw.text[0]!r}",
        )
    specs = _SPEC_BY_KEY[name]
    values: dict[str, Any] = {}
    extra: list[tuple[str, str]] = []
    for (key, key_at), (value, value_at) in raw.pairs:
        spec = specs.get(key)
        if spec is None:
            if not ctx.strict and key in INERT_KEYS.get(name, ()):
                extra = [kv for kv in extra if kv[0] != key]
                extra.append((key, value))
                continue
            if specs:
                expected = f"expected one of {', '.join(specs)}"
            else:
                expected = f"{name} takes no parameters"
            if key in INERT_KEYS.get(name, ()):
                expected += " (18xx.games ignores this key; only lenient mode keeps it)"
            _fail(
                code,
                key_at,
                f"unknown key {key!r} for {name}{_suggest(key, list(specs))}; {expected}",
            )
        if spec.field in values and ctx.strict:
            _fail(code, key_at, f"key {key!r} given twice in this {name}")
        try:
            values[spec.field] = spec.read(value, ctx)
        except _Bad as bad:
            _fail(code, value_at + bad.offset, f"{name} {key}: {bad.message}")
    for spec in PART_KEYS[name]:
        if spec.required and spec.field not in values:
            what = (
                "a path needs two endpoints, a and b (an edge 0-5 or a node _N)"
                if name == "path"
                else f"{name} needs {spec.key}"
            )
            _fail(code, raw.end, f"missing {spec.key}: {what}")
    if extra:
        values["extra"] = tuple(extra)
    return m.PART_CLASSES[name](**values)


def _build(code: str, items: list[Any], strict: bool) -> m.Tile:
    ctx = _Ctx(strict=strict, nodes=0)
    parts: list[m.Part] = []
    previous: Token | None = None
    for item in items:
        if isinstance(item, Token):
            previous = item
            continue
        if previous is not None and len(previous.value) > 1:
            _fail(code, _s(previous) + 1, "empty part: nothing between two ';'")
        parts.append(_build_part(code, item, ctx))
        if item.name[0] in _NODE_TYPES:
            ctx.nodes += 1
        previous = None
    return m.Tile(tuple(parts))


@lru_cache(maxsize=16384)
def _parse_cached(code: str, strict: bool) -> m.Tile:
    try:
        items: list[Any] = _lark().parse(code, start="start")  # type: ignore[assignment]
    except UnexpectedInput as exc:
        raise _syntax_error(code, exc) from None
    return _build(code, items, strict)


def _syntax_error(code: str, fast: UnexpectedInput) -> NotationError:
    """Place a syntax error with the precise grammar (same language, finer tokens)."""
    try:
        _lark().parse(code, start="precise")
    except UnexpectedInput as exc:
        return _lark_error(code, exc)
    return _lark_error(code, fast)  # pragma: no cover - both grammars accept the same codes


def parse(
    code: str,
    *,
    origin: SourcePos | None = None,
    style: QuoteStyle | None = None,
    strict: bool = False,
) -> m.Tile:
    """Parse a tile code into an immutable :class:`Tile` (cached by code).

    ``origin`` is the file position of the code's first character (for a quoted YAML scalar,
    the character after the opening quote) and ``style`` how the scalar was quoted; with them
    a :class:`NotationError` also knows its ``file_pos``.

    >>> parse("city=revenue:20;path=a:0,b:_0").cities[0].revenue
    Revenue(flat=20, phases=())
    >>> print(check("path=a:7,b:0"))
    column 8: error: path a: expected an edge 0-5 or a node reference _N, got '7'
      path=a:7,b:0
             ^
    """
    if not isinstance(code, str):  # e.g. a YAML number where a code was expected
        err = NotationError(str(code), 0, f"a tile code is text, got {type(code).__name__}")
        raise err.located(origin, style) if origin is not None else err
    try:
        return _parse_cached(code, strict)
    except NotationError as exc:
        if origin is None:
            raise
        raise exc.located(origin, style) from None


def check(
    code: str,
    *,
    origin: SourcePos | None = None,
    style: QuoteStyle | None = None,
    strict: bool = False,
) -> NotationError | None:
    """The error in ``code``, or None when it is valid."""
    try:
        parse(code, origin=origin, style=style, strict=strict)
    except NotationError as exc:
        return exc
    return None
