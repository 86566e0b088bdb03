"""Fuzzing the tile notation with what people (and editors) really produce: any text at all,
and corpus codes with characters or whole segments inserted, dropped, swapped or repeated.
The only failure allowed is a NotationError placed inside the code (and, when the code came
from a file, at a file position on the code's line).  Complements the grammar-shaped soups of
tests/test_notation_roundtrip.py.
"""

from __future__ import annotations

from functools import lru_cache

from ferrovia.errors import DataError, SourcePos
from ferrovia.notation import NotationError, check, format_tile, parse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import shared_path


@lru_cache(maxsize=1)
def corpus() -> tuple[str, ...]:
    text = shared_path("corpus", "tile-codes.txt").read_text(encoding="utf-8")
    return tuple(line for line in text.split("\n") if line)


STYLES = st.sampled_from(["plain", "'", '"', None])
ORIGIN = SourcePos("tiles.yaml", 12, 11)
# characters that mean something to the notation, to YAML, or to neither
CHARS = st.sampled_from(
    [*"=;:,|_-+.#0123456789 abcdelnoprstuxyz", "\t", "\n", "'", '"', "\\", "é", "\x00", "∞"]
)


def assert_clean(code: str, *, strict: bool, style: str | None) -> None:
    """Parses, or fails with a NotationError pointing into the code and into the file."""
    try:
        tile = parse(code, strict=strict, origin=ORIGIN, style=style)  # type: ignore[arg-type]
    except NotationError as err:
        assert 0 <= err.index <= len(code)
        assert err.col == err.index + 1
        assert err.message
        pos = err.file_pos
        assert pos is not None and pos.file == "tiles.yaml" and pos.line == ORIGIN.line
        assert pos.col >= ORIGIN.col + err.index
        data = err.to_data_error()
        assert isinstance(data, DataError) and (data.line, data.col) == (pos.line, pos.col)
        assert check(code, strict=strict) is not None
    else:
        assert parse(format_tile(tile)) == tile
        assert check(code, strict=strict) is None


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40), st.booleans(), STYLES)
def test_any_text_parses_or_is_a_notation_error(code: str, strict: bool, style: str | None) -> None:
    assert_clean(code, strict=strict, style=style)


@st.composite
def mutated_codes(draw: st.DrawFn) -> str:
    code = draw(st.sampled_from(corpus()))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(code)))
        j = draw(st.integers(0, len(code)))
        lo, hi = min(i, j), max(i, j)
        op = draw(st.sampled_from(["insert", "replace", "delete", "drop", "repeat", "swap"]))
        if op == "insert":
            code = code[:i] + draw(CHARS) + code[i:]
        elif op == "replace":
            code = code[:i] + draw(CHARS) + code[i + 1 :]
        elif op == "delete":
            code = code[:i] + code[i + 1 :]
        elif op == "drop":
            code = code[:lo] + code[hi:]
        elif op == "repeat":
            code = code[:hi] + code[lo:hi] + code[hi:]
        else:  # swap two parts
            parts = code.split(";")
            a, b = i % len(parts), j % len(parts)
            parts[a], parts[b] = parts[b], parts[a]
            code = ";".join(parts)
    return code


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_codes(), st.booleans(), STYLES)
def test_mutated_corpus_codes_parse_or_are_notation_errors(
    code: str, strict: bool, style: str | None
) -> None:
    assert_clean(code, strict=strict, style=style)


@settings(max_examples=50, deadline=None)
@given(st.one_of(st.integers(), st.floats(allow_nan=False), st.none(), st.booleans()))
def test_a_code_that_is_not_text_is_a_notation_error(value: object) -> None:
    """A YAML number or null where a code belongs (``code: 57``)."""
    try:
        parse(value)  # type: ignore[arg-type]
    except NotationError as err:
        assert err.message
    else:
        raise AssertionError(f"{value!r} parsed as a tile code")
