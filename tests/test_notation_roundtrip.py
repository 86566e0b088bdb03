"""Formatting is lossless: random valid tiles survive format -> parse; corpus codes survive
parse -> format -> parse, and the canonical form is a fixed point."""

from __future__ import annotations

import csv

from conftest import shared_path
from ferrovia.notation import (
    INERT_KEYS,
    KNOWN_TERRAINS,
    Border,
    BorderType,
    City,
    Edge,
    FutureLabel,
    Gauge,
    Halt,
    Icon,
    Junction,
    Label,
    Lane,
    NodeRef,
    NotationError,
    Offboard,
    Part,
    Partition,
    PartitionType,
    Pass,
    Path,
    Restrict,
    Revenue,
    Route,
    Stripes,
    Stub,
    Tile,
    Town,
    TownStyle,
    Upgrade,
    Vertex,
    format_tile,
    parse,
)
from ferrovia.notation.models import Frame
from hypothesis import given, settings
from hypothesis import strategies as st

# Free text inside a value may hold anything but the notation's separators.
value_text = st.text(
    st.characters(blacklist_characters=",;:=", blacklist_categories=("Cs", "Cc")),
    min_size=1,
    max_size=12,
)
label_text = st.text(
    st.characters(blacklist_characters=";:=", blacklist_categories=("Cs", "Cc")), max_size=8
)
name = st.text(
    st.characters(blacklist_characters=",;:=|", blacklist_categories=("Cs", "Cc")),
    min_size=1,
    max_size=8,
)
colour = st.one_of(
    st.sampled_from(["yellow", "green", "brown", "gray", "red", "blue", "black"]),
    st.from_regex(r"#[0-9a-fA-F]{6}", fullmatch=True),
)
loc = st.one_of(st.from_regex(r"[0-5](\.5)?", fullmatch=True), st.just("center"))
flag = st.booleans()
count = st.integers(0, 200)
edge = st.integers(0, 5)
revenue = st.one_of(
    st.integers(-50, 500).map(lambda v: Revenue(flat=v)),
    st.dictionaries(colour, st.integers(0, 500), min_size=1, max_size=5).map(Revenue.of),
)


def centre_fields() -> dict[str, st.SearchStrategy[object]]:
    return {
        "revenue": revenue,
        "groups": st.lists(name, max_size=3).map(tuple),
        "hide": flag,
        "visit_cost": count,
        "route": st.sampled_from(Route),
        "format": st.none() | value_text,
    }


def extra_for(kind: str) -> st.SearchStrategy[tuple[tuple[str, str], ...]]:
    keys = sorted(INERT_KEYS.get(kind, ()))
    if not keys:
        return st.just(())
    return st.lists(st.sampled_from(keys), unique=True, max_size=2).flatmap(
        lambda ks: st.tuples(*(st.tuples(st.just(k), value_text) for k in ks))
    )


city = st.builds(
    City,
    **centre_fields(),
    loc=st.none() | loc,
    slots=count,
    boom=flag,
    outline=flag,
    extra=extra_for("city"),
)
pass_ = st.builds(
    Pass, **centre_fields(), loc=st.none() | loc, slots=count, boom=flag, color=colour, size=count
)
town = st.builds(
    Town,
    **centre_fields(),
    loc=st.none() | loc,
    boom=flag,
    style=st.none() | st.sampled_from(TownStyle),
    to_city=flag,
)
halt = st.builds(
    Halt,
    **{k: v for k, v in centre_fields().items() if k != "format"},
    format=st.none() | value_text,
    loc=st.none() | loc,
    symbol=st.none() | value_text,
)
offboard = st.builds(
    Offboard, **centre_fields(), rows=st.integers(1, 3), extra=extra_for("offboard")
)
junction = st.just(Junction())
node = st.one_of(city, pass_, town, halt, offboard, junction)


def lane() -> st.SearchStrategy[Lane]:
    return st.integers(1, 12).flatmap(
        lambda w: st.integers(0, min(w - 1, 9)).map(lambda i: Lane(w, i))
    )


def path(nodes: int) -> st.SearchStrategy[Path]:
    end = st.builds(Edge, edge)
    if nodes:
        end = end | st.builds(NodeRef, st.integers(0, nodes - 1))
    return st.builds(
        Path,
        a=end,
        b=end,
        terminal=st.none() | st.sampled_from([1, 2]),
        lanes=st.none() | st.integers(1, 5),
        a_lane=st.none() | lane(),
        b_lane=st.none() | lane(),
        track=st.sampled_from(Gauge),
        ignore=flag,
        extra=extra_for("path"),
    )


other_part = st.one_of(
    st.builds(Label, text=label_text),
    st.builds(
        Upgrade,
        cost=count,
        terrains=st.lists(st.sampled_from(sorted(KNOWN_TERRAINS)), max_size=3).map(tuple),
        size=st.none() | count,
        loc=st.none() | loc,
        extra=extra_for("upgrade"),
    ),
    st.builds(
        Border,
        edge=edge,
        type=st.none() | st.sampled_from(BorderType),
        cost=st.none() | count,
        color=st.none() | colour,
    ),
    st.builds(
        Icon,
        image=value_text,
        name=st.none() | value_text,
        sticky=flag,
        blocks_lay=flag,
        large=flag,
        loc=st.none() | loc,
        extra=extra_for("icon"),
    ),
    st.builds(Stub, edge=edge),
    st.builds(
        Partition,
        a=st.builds(Vertex, edge, st.sampled_from([-1, 0, 1])),
        b=st.builds(Vertex, edge, st.sampled_from([-1, 0, 1])),
        type=st.none() | st.sampled_from(PartitionType),
        restrict=st.none() | st.sampled_from(Restrict),
        length=st.none() | st.integers(0, 100).map(lambda n: n / 10),
    ),
    st.builds(Frame, color=colour, color2=st.none() | colour),
    st.builds(Stripes, color=colour),
    st.builds(FutureLabel, label=st.none() | value_text, color=st.none() | colour),
)


@st.composite
def tiles(draw: st.DrawFn) -> Tile:
    """A valid tile: paths only name nodes defined before them."""
    parts: list[Part] = []
    nodes = 0
    for kind in draw(st.lists(st.sampled_from(["node", "path", "path", "other"]), max_size=10)):
        if kind == "node":
            parts.append(draw(node))
            nodes += 1
        elif kind == "path":
            parts.append(draw(path(nodes)))
        else:
            parts.append(draw(other_part))
    return Tile(tuple(parts))


@settings(max_examples=200, deadline=None)
@given(tiles())
def test_format_then_parse_gives_the_same_tile(tile: Tile) -> None:
    code = format_tile(tile)
    assert parse(code) == tile
    assert format_tile(parse(code)) == code


@settings(max_examples=100, deadline=None)
@given(tiles())
def test_strict_accepts_every_canonical_code_without_legacy_keys(tile: Tile) -> None:
    # formatting never writes a legacy slip except the inert keys kept in ``extra``
    if all(not p.extra for p in tile.parts):
        assert parse(format_tile(tile), strict=True) == tile


def test_corpus_round_trip_and_fixed_point() -> None:
    text = shared_path("corpus", "tile-codes.txt").read_text(encoding="utf-8")
    codes = text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")
    with shared_path("corpus", "tile-registry.tsv").open(encoding="utf-8", newline="") as f:
        codes += [[*row, "", "", ""][2] for row in list(csv.reader(f, delimiter="\t"))[1:]]
    for code in codes:
        tile = parse(code)
        canonical = format_tile(tile)
        assert parse(canonical) == tile, code
        assert format_tile(parse(canonical)) == canonical, code


# Garbage in gives a NotationError (never another exception), positioned inside the code.
notation_soup = st.lists(
    st.sampled_from([*"=;:,|_-+.#0123456789 abceilnoprstuwy", "city", "path", "label", "a:", "b:"]),
    max_size=30,
).map("".join)


def _assert_clean(code: str) -> None:
    try:
        tile = parse(code)
    except NotationError as err:
        assert 0 <= err.index <= len(code)
        assert err.message and str(err).endswith("^")
    else:
        assert parse(format_tile(tile)) == tile


@settings(max_examples=300, deadline=None)
@given(notation_soup)
def test_garbage_raises_only_notation_errors(code: str) -> None:
    _assert_clean(code)


@settings(max_examples=150, deadline=None)
@given(
    tiles(),
    st.lists(st.tuples(st.integers(0, 200), st.sampled_from(list("=;:,|_ 7x"))), max_size=3),
)
def test_mutated_codes_raise_only_notation_errors(tile: Tile, edits: list[tuple[int, str]]) -> None:
    code = format_tile(tile)
    for pos, char in edits:
        pos = pos % (len(code) + 1)
        code = code[:pos] + char + code[pos:]
    _assert_clean(code)
    _assert_clean(code.replace(":", "", 1))
