"""YAML with positions: load a data file, validate it against its model, and say where.

ruamel.yaml's round-trip loader keeps the line and column of every key and value (``.lc``);
:class:`YamlDoc` walks a path such as ``('hexes', 'A14', 'code')`` back to that position, so a
pydantic error (whose ``loc`` is such a path) or a cross-reference error becomes
``FILE:LINE:COL: error: MESSAGE`` (1-based).  Nothing stops at the first error: syntax errors,
duplicate keys, schema errors are all collected as :class:`~ferrovia.errors.DataError`.

>>> doc, errors = parse_yaml("hexes:\\n  A1: {colr: white}\\n", "map.yaml")
>>> model, errors = validate_model(doc, MapFile)
>>> [str(e) for e in errors]  # doctest: +NORMALIZE_WHITESPACE
["map.yaml:2:3: error: missing required key 'color' in hexes.A1",
 "map.yaml:2:8: error: unknown key 'colr' (did you mean 'color'?)"]
"""

from __future__ import annotations

import difflib
import re
import types
import typing
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ferrovia.errors import INVISIBLE, DataError, SourcePos, visible
from ferrovia.notation.errors import QuoteStyle
from ferrovia.schemas.map import MapFile
from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError

__all__ = [
    "MapFile",
    "YamlDoc",
    "clear_cache",
    "load_model",
    "load_yaml",
    "parse_yaml",
    "read_source",
    "unsaved_texts",
    "validate_model",
]

PathItem = str | int
M = TypeVar("M", bound=BaseModel)


class _CollectingConstructor(RoundTripConstructor):
    """Records a duplicated mapping key (keeping the first value) instead of raising."""

    def check_mapping_key(
        self, node: Any, key_node: Any, mapping: Any, key: Any, value: Any
    ) -> bool:
        if key in mapping:
            first = mapping.lc.key(key) if hasattr(mapping, "lc") else None
            where = f" (first at line {first[0] + 1})" if first else ""
            mark = key_node.start_mark
            self.duplicates.append((mark.line, mark.column, f"duplicate key {key!r}{where}"))
            return False
        return True

    @property
    def duplicates(self) -> list[tuple[int, int, str]]:
        found: list[tuple[int, int, str]] | None = getattr(self, "_duplicates", None)
        if found is None:
            found = []
            self._duplicates = found
        return found


@dataclass
class YamlDoc:
    """A loaded YAML file: its round-trip tree and the source lines, for positions."""

    file: str
    """The path as shown in messages (as given, or relative)."""
    data: Any
    lines: list[str] = field(default_factory=list)

    # ------------------------------------------------------------------ positions
    def walk(self, path: Sequence[PathItem]) -> tuple[Any, Any, PathItem | None, list[PathItem]]:
        """Follow ``path`` as far as it goes: (parent, node, key in parent, items used).

        Items that are not in the tree (pydantic's union tags such as ``'literal['any']'``, a
        missing key) are skipped, so the deepest existing node is found.
        """
        parent: Any = None
        node: Any = self.data
        key: PathItem | None = None
        used: list[PathItem] = []
        for item in path:
            if isinstance(node, dict):
                if item in node:
                    parent, node, key = node, node[item], item
                    used.append(item)
                elif isinstance(item, int) and str(item) in node:
                    parent, node, key = node, node[str(item)], str(item)
                    used.append(item)
            elif isinstance(node, list) and isinstance(item, int) and 0 <= item < len(node):
                parent, node, key = node, node[item], item
                used.append(item)
        return parent, node, key, used

    def position(self, path: Sequence[PathItem], *, at_key: bool = False) -> tuple[int, int]:
        """1-based (line, col) of the value at ``path`` (of its key with ``at_key``).

        A mapping or list value is placed at the key that holds it, which is where a person
        looks for "this entry".
        """
        parent, node, key, _ = self.walk(path)
        if parent is None or key is None:
            lc = getattr(self.data, "lc", None)
            return (lc.line + 1, lc.col + 1) if lc is not None else (1, 1)
        lc = parent.lc
        if isinstance(parent, dict):
            use_key = at_key or isinstance(node, dict | list)
            line, col = lc.key(key) if use_key else lc.value(key)
        else:
            line, col = lc.item(key)
        return line + 1, col + 1

    def locate(
        self, path: Sequence[PathItem], *, at_key: bool = False
    ) -> tuple[str, int, int, str]:
        """(file, line, col, note) to report ``path`` at; a merged variant document
        (engine/data/overlay.py) names another file and notes where an inherited value came from."""
        line, col = self.position(path, at_key=at_key)
        return self.file, line, col, ""

    def error(self, path: Sequence[PathItem], message: str, *, at_key: bool = False) -> DataError:
        """A :class:`DataError` at ``path``."""
        file, line, col, note = self.locate(path, at_key=at_key)
        return DataError(file, line, col, message + note)

    def key_error(self, path: Sequence[PathItem], message: str) -> DataError:
        """A :class:`DataError` at the key ending ``path``."""
        return self.error(path, message, at_key=True)

    def scalar_origin(self, path: Sequence[PathItem]) -> tuple[SourcePos, QuoteStyle | None]:
        """Where a string scalar's first content character is, and how it is quoted.

        Plain scalars start at the value's column; quoted ones one column later.  Block
        scalars (``|``, ``>``) start on the next line; they get their indicator's position.
        """
        line, col = self.position(path)
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        first = text[col - 1] if 0 < col <= len(text) else ""
        style: QuoteStyle | None
        if first in ("'", '"'):
            style = "'" if first == "'" else '"'
            col += 1
        elif first in ("|", ">"):
            style = None
        else:
            style = "plain"
        return SourcePos(self.file, line, col), style

    def single_line(self, path: Sequence[PathItem], value: str) -> bool:
        """Whether the scalar at ``path`` is written on one source line (columns map 1:1)."""
        pos, style = self.scalar_origin(path)
        if style is None:
            return False
        text = self.lines[pos.line - 1] if 0 < pos.line <= len(self.lines) else ""
        rest = text[pos.col - 1 :]
        if style == "plain":
            return rest.startswith(value)
        return rest.startswith(value.replace("'", "''") if style == "'" else value)


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.Constructor = _CollectingConstructor
    return yaml


def _mark_error(file: str, exc: MarkedYAMLError) -> DataError:
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    problem = exc.problem or exc.context or "YAML syntax error"
    context = f" ({exc.context})" if exc.context and exc.problem else ""
    start = exc.context_mark
    if start is not None and exc.problem_mark is not None and exc.context:
        if "quoted scalar" in exc.context and "end of stream" in problem:
            # the quote that is never closed is the mistake, not the end of the file
            buffer = getattr(start, "buffer", None) or ""
            index = getattr(start, "index", -1)
            quote = buffer[index] if 0 <= index < len(buffer) else ""
            quote = quote if quote in ("'", '"') else "quote"
            return DataError(
                file,
                start.line + 1,
                start.column + 1,
                f"YAML: the {quote} opened here is never closed (the file ends first)",
            )
        if (start.line, start.column) != (mark.line, mark.column):
            context = (
                f" ({exc.context} started at line {start.line + 1}, column {start.column + 1})"
            )
    return DataError(file, line, col, f"YAML: {problem}{context}")


# what YAML does not allow in a file (ruamel's reader check): control characters and the like
_NOT_ALLOWED = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)


def _bad_character(text: str, file: str) -> DataError | None:
    r"""The first character YAML does not allow, at its line and column.

    >>> str(_bad_character("a: 1\nb: x\x00y\n", "m.yaml"))
    'm.yaml:2:5: error: YAML: control character U+0000 (NUL) is not allowed; remove it'
    """
    m = _NOT_ALLOWED.search(text)
    if m is None:
        return None
    at = m.start()
    line = text.count("\n", 0, at) + 1
    col = at - (text.rfind("\n", 0, at) + 1) + 1
    ch = m.group()
    label = _CONTROL_NAMES.get(ord(ch)) or unicodedata.name(ch, "")
    named = f" ({label})" if label else ""
    kind = "control character" if unicodedata.category(ch) == "Cc" else "character"
    return DataError(
        file, line, col, f"YAML: {kind} U+{ord(ch):04X}{named} is not allowed; remove it"
    )


# characters that show as nothing: in a symbol or a key they make two names that look alike
_INVISIBLE = INVISIBLE


def _invisible_character(text: str, file: str) -> DataError | None:
    r"""The first invisible character (a zero-width space...) outside a comment.

    >>> str(_invisible_character("a: M\u200bZA\n", "m.yaml"))
    "m.yaml:1:5: error: invisible character U+200B (ZERO WIDTH SPACE) in 'M<U+200B>ZA'; remove it"
    """
    for m in _INVISIBLE.finditer(text):
        at = m.start()
        if at == 0 and m.group() == "\ufeff":
            continue  # a byte order mark
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        line_text = text[start : end if end >= 0 else len(text)]
        before = line_text[: at - start]
        if re.search(r"(^|\s)#", before):
            continue  # in a comment: harmless
        ch = m.group()
        word = re.search(r"[^\s:,\[\]{}'\"]*$", before)
        after = re.match(r"[^\s:,\[\]{}'\"]*", line_text[at - start + 1 :])
        shown = (word.group() if word else "") + ch + (after.group() if after else "")
        return DataError(
            file,
            text.count("\n", 0, at) + 1,
            at - start + 1,
            f"invisible character U+{ord(ch):04X} ({unicodedata.name(ch, 'FORMAT CHARACTER')})"
            f" in {visible(shown)!r}; remove it",
        )
    return None


_CONTROL_NAMES = {0: "NUL", 7: "BEL", 8: "BACKSPACE", 0x0B: "VERTICAL TAB", 0x0C: "FORM FEED"}
_CONTROL_NAMES.update({0x1B: "ESC", 0x7F: "DEL"})

MAX_YAML_BYTES = 1_000_000
"""The largest data file read (1 MB; the biggest bundled one is 22 kB).  Checked before
parsing: the YAML parser and the checks take seconds per megabyte, and much more memory."""


def _too_deep(text: str, limit: int = 100) -> tuple[int, int] | None:
    r"""Where flow brackets (``[`` ``{``) first nest ``limit`` deep, or None.

    >>> _too_deep("a: 1\nb: " + "[" * 200, 100)
    (2, 103)
    """
    if text.count("[") + text.count("{") < limit:
        return None
    depth, line, start = 0, 1, 0
    for m in _BRACKETS.finditer(text):
        ch = m.group()
        if ch == "\n":
            line, start = line + 1, m.end()
        elif ch in "[{":
            depth += 1
            if depth >= limit:
                return line, m.start() - start + 1
        else:
            depth -= 1
    return None


_BRACKETS = re.compile(r"[\[\]{}\n]")


def parse_yaml(text: str, file: str) -> tuple[YamlDoc | None, list[DataError]]:
    """Parse YAML text; on a syntax error return ``None`` and the error at its mark."""
    if len(text) > MAX_YAML_BYTES:
        return None, [_too_large(file, len(text.encode("utf-8", errors="replace")))]
    deep = _too_deep(text)  # the parser recurses per level, slowly: refuse before parsing
    if deep is not None:
        return None, [DataError(file, deep[0], deep[1], "YAML: nested too deeply")]
    bad = _bad_character(text, file)
    if bad is not None:
        return None, [bad]
    invisible = _invisible_character(text, file)
    yaml = _yaml()
    try:
        data = yaml.load(text)
    except MarkedYAMLError as exc:
        return None, [_mark_error(file, exc)]
    except RecursionError:  # nested blocks rather than brackets
        return None, [DataError(file, 1, 1, "YAML: nested too deeply")]
    except YAMLError as exc:  # the reader's own checks, positioned by character
        return None, [_reader_error(text, file, exc)]
    errors = [
        DataError(file, line + 1, col + 1, msg)
        for line, col, msg in getattr(yaml.constructor, "duplicates", [])
    ]
    if invisible is not None:
        errors.insert(0, invisible)
    return YamlDoc(file, data, text.splitlines()), errors


# An editor validates the text in its buffers, not yet saved, over the game's files on disk.
_UNSAVED: ContextVar[Mapping[Path, str] | None] = ContextVar("unsaved", default=None)


@contextmanager
def unsaved_texts(texts: Mapping[Path, str]) -> Iterator[None]:
    """Within this block, reading a file in ``texts`` (by resolved path) gives that text.

    >>> with unsaved_texts({Path("nowhere.yaml"): "a: 1"}):
    ...     read_source(Path("nowhere.yaml"))
    'a: 1'
    """
    token = _UNSAVED.set({p.resolve(): t for p, t in texts.items()})
    try:
        yield
    finally:
        _UNSAVED.reset(token)


def read_source(path: Path) -> str:
    """The text of a data file: an editor's unsaved buffer if one is given, else the disk's."""
    unsaved = _UNSAVED.get()
    if unsaved:
        text = unsaved.get(path.resolve())
        if text is not None:
            return text
    return path.read_text(encoding="utf-8")


def _too_large(file: str, size: int) -> DataError:
    return DataError(
        file,
        1,
        1,
        f"the file is too large ({size / 1e6:.1f} MB; data files may be at most"
        f" {MAX_YAML_BYTES / 1e6:g} MB)",
    )


def _reader_error(text: str, file: str, exc: Exception) -> DataError:
    at = getattr(exc, "position", None)
    if isinstance(at, int) and 0 <= at <= len(text):
        line = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
    else:
        line, col = 1, 1
    reason = str(getattr(exc, "reason", "") or exc).splitlines()[0]
    return DataError(file, line, col, f"YAML: {reason}")


def read_text(path: Path, file: str) -> tuple[str | None, list[DataError]]:
    """A data file's text (an editor's unsaved buffer first), or why it cannot be read:
    missing, a directory, a link loop, not UTF-8, too large (checked before reading it)."""
    unsaved = _UNSAVED.get()
    if unsaved and path.resolve() in unsaved:
        return unsaved[path.resolve()], []
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        if path.is_symlink():
            return None, [DataError(file, 1, 1, "file not found (a symbolic link to nothing)")]
        return None, [DataError(file, 1, 1, "file not found")]
    except OSError as exc:
        return None, [DataError(file, 1, 1, f"cannot read file: {exc}")]
    if size > MAX_YAML_BYTES:
        return None, [_too_large(file, size)]
    try:
        return read_source(path), []
    except FileNotFoundError:
        return None, [DataError(file, 1, 1, "file not found")]
    except UnicodeDecodeError as exc:
        return None, [not_utf8(file, exc)]
    except OSError as exc:
        return None, [DataError(file, 1, 1, f"cannot read file: {exc}")]


def not_utf8(file: str, exc: UnicodeDecodeError) -> DataError:
    r"""The position of the first byte that is not UTF-8 (editors show line and column).

    >>> str(not_utf8("map.yaml", UnicodeDecodeError("utf-8", b"a: 1\nb: \xe9", 8, 9, "x")))
    'map.yaml:2:4: error: not UTF-8 text (byte 0xe9); save the file as UTF-8'
    """
    raw = bytes(exc.object)
    head = raw[: exc.start]
    line = head.count(b"\n") + 1
    col = len(head[head.rfind(b"\n") + 1 :].decode("utf-8", errors="replace")) + 1
    byte = raw[exc.start] if exc.start < len(raw) else 0
    return DataError(file, line, col, f"not UTF-8 text (byte 0x{byte:02x}); save the file as UTF-8")


def load_yaml(path: Path, file: str | None = None) -> tuple[YamlDoc | None, list[DataError]]:
    """Read and parse a YAML file; ``file`` is the name shown in messages (default: ``path``)."""
    shown = file if file is not None else str(path)
    text, read_errors = read_text(path, shown)
    if text is None:
        return None, read_errors
    # A variant re-reads its bases' files for each file kind it merges, and an editor re-checks
    # the game on every keystroke: parse each unchanged text once (documents are never changed).
    key = (text, shown)
    cached = _PARSED.get(key)
    if cached is None:
        if len(_PARSED) >= _CACHE_SIZE:
            _PARSED.pop(next(iter(_PARSED)))
        doc, errors = parse_yaml(text, shown)
        cached = _PARSED[key] = (doc, tuple(errors))
    return cached[0], list(cached[1])


# ---------------------------------------------------------------------- model validation
def _dotted(path: Sequence[PathItem], data: Any = None) -> str:
    """``trains[0].price``: list indexes in brackets, mapping keys (even numeric) dotted."""
    out = ""
    node = data
    for item in path:
        if isinstance(item, int) and (node is None or isinstance(node, list)):
            out += f"[{item}]"
        else:
            out += ("." if out else "") + str(item)
        if isinstance(node, list) and isinstance(item, int) and 0 <= item < len(node):
            node = node[item]
        elif isinstance(node, dict):
            node = node.get(item, node.get(str(item)) if isinstance(item, int) else None)
        else:
            node = None
    return out


def _model_at(model: type[BaseModel], path: Sequence[PathItem]) -> type[BaseModel] | None:
    """The model class that validates the mapping at ``path`` (to suggest key names)."""
    current: Any = model
    for item in path:
        current = _unwrap_model(current)
        if current is None:
            return None
        if isinstance(current, type) and issubclass(current, BaseModel):
            info = next(
                (f for n, f in current.model_fields.items() if (f.alias or n) == item), None
            )
            if info is None:
                return None
            current = info.annotation
        else:  # a container: dict value or tuple item
            current = _element(current)
    result = _unwrap_model(current)
    return result if isinstance(result, type) and issubclass(result, BaseModel) else None


def _unwrap_model(tp: Any) -> Any:
    """Strip Optional/Annotated/unions down to a model class or container type."""
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return _unwrap_model(typing.get_args(tp)[0])
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(tp):
            inner = _unwrap_model(arg)
            if isinstance(inner, type) and issubclass(inner, BaseModel):
                return inner
            if typing.get_origin(inner) in (dict, tuple, list):
                return inner
        return None
    return tp


def _element(tp: Any) -> Any:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is dict and len(args) == 2:
        return args[1]
    if origin in (tuple, list) and args:
        return args[0]
    return None


def _message(
    err: Any, model: type[BaseModel], real: list[PathItem], data: Any
) -> tuple[str, str, bool]:
    """(where, what) for one pydantic error, and whether it belongs at a key."""
    kind = err["type"]
    loc = tuple(err["loc"])
    if kind == "extra_forbidden":
        key = str(real[-1]) if real else str(loc[-1])
        target = _model_at(model, real[:-1])
        hint = ""
        if target is not None:
            names = [f.alias or n for n, f in target.model_fields.items()]
            close = difflib.get_close_matches(key, names, n=1)
            if close:
                hint = f" (did you mean {close[0]!r}?)"
            else:
                hint = f" (expected one of: {', '.join(names)})"
        return "", f"unknown key {key!r}{hint}", True
    if kind == "missing":
        where = f" in {_dotted(real, data)}" if real else ""
        return "", f"missing required key {loc[-1]!r}{where}", False
    msg: str = err["msg"]
    if kind in _EXPECTED:
        # pydantic names Python types ("a valid dictionary or instance of MapFile"); say it in
        # YAML terms instead.
        msg = f"expected {_EXPECTED[kind]}"
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix) :]
    msg = msg[:1].lower() + msg[1:]
    if loc and loc[-1] == "[key]":
        return f"key {_dotted(real, data)!r}", msg, True
    return _dotted(real, data), msg, False


_EXPECTED = {
    "model_type": "a mapping (key: value entries)",
    "model_attributes_type": "a mapping (key: value entries)",
    "dict_type": "a mapping (key: value entries)",
    "tuple_type": "a list",
    "list_type": "a list",
    "string_type": "text",
}


def _got(value: Any) -> str:
    """``, got 'x'`` for a scalar, ``, got a list`` for a container (YAML terms)."""
    if value is None:
        return ", got nothing (null)"
    if isinstance(value, dict):
        return ", got a mapping"
    if isinstance(value, list):
        return ", got a list"
    if isinstance(value, bool | int | float) or (isinstance(value, str) and len(value) < 60):
        return f", got {value!r}"
    return ""


def validate_model(doc: YamlDoc, model: type[M]) -> tuple[M | None, list[DataError]]:
    """Validate ``doc`` against ``model``; every pydantic error comes back with its position.

    Errors a union reports once per alternative at the same place are merged into one; the
    result is in file order.
    """
    try:
        return model.model_validate(doc.data), []
    except ValidationError as exc:
        found: dict[tuple[str, int, int, str], tuple[str, list[str], str]] = {}
        for err in exc.errors():
            loc = tuple(err["loc"])
            _, _, _, real = doc.walk(loc)
            if err["type"] == "extra_forbidden" and (not real or real[-1] != loc[-1]):
                real = [*real, loc[-1]]
            where, what, at_key = _message(err, model, real, doc.data)
            spot = doc.locate(real, at_key=at_key)
            # Own rule messages say what is wrong themselves; no "got ..." after them.
            quiet = at_key or err["type"] in ("missing", "count", "value_error", "empty")
            got = "" if quiet else _got(err.get("input"))
            if spot in found:
                if what not in found[spot][1]:
                    found[spot][1].append(what)
                continue
            found[spot] = (where, [what], got)
        errors = []
        for (file, line, col, note), (where, whats, got) in sorted(found.items()):
            text = "; or ".join(whats) + got + note
            errors.append(DataError(file, line, col, f"{where}: {text}" if where else text))
        return None, errors


# ---------------------------------------------------------------------- cached file loading
_CACHE: dict[tuple[str, str, type[BaseModel]], tuple[Any, ...]] = {}
_PARSED: dict[tuple[str, str], tuple[YamlDoc | None, tuple[DataError, ...]]] = {}
_CACHE_SIZE = 128


def clear_cache() -> None:
    """Forget every cached file (benchmarks measure uncached work with it)."""
    _CACHE.clear()
    _PARSED.clear()


def load_model(
    path: Path, file: str, model: type[M]
) -> tuple[YamlDoc | None, M | None, list[DataError]]:
    """Read, parse and validate one file: (document, model or None, errors).

    Results are cached by (text, shown name, model): re-checking unchanged files (tests that
    edit one file of a game, a long-running process) costs one read.  Documents and models
    are never changed after loading, so sharing them is safe.
    """
    text, read_errors = read_text(path, file)
    if text is None:
        return None, None, read_errors
    key = (text, file, model)
    cached = _CACHE.get(key)
    if cached is not None:
        doc, result, errors = cached
        return doc, result, list(errors)
    doc, errors = parse_yaml(text, file)
    result = None
    if doc is not None:
        if doc.data is None:
            errors.append(DataError(file, 1, 1, "the file is empty"))
        else:
            result, more = validate_model(doc, model)
            errors.extend(more)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = (doc, result, tuple(errors))
    return doc, result, errors
