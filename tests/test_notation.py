"""Tile notation: parsing into models, positioned errors, YAML origins, corpus acceptance, CLI."""

from __future__ import annotations

import csv
import io
from pathlib import Path as FsPath

import pytest
from conftest import shared_path
from ferrovia.cli import main
from ferrovia.errors import FerroviaError, SourcePos
from ferrovia.notation import (
    Border,
    BorderType,
    City,
    Edge,
    Gauge,
    Halt,
    Icon,
    Junction,
    Label,
    Lane,
    NodeRef,
    NotationError,
    Offboard,
    Pass,
    Path,
    Revenue,
    Route,
    Tile,
    Town,
    Upgrade,
    Vertex,
    check,
    format_tile,
    parse,
)
from ruamel.yaml import YAML


def corpus_lines() -> list[str]:
    text = shared_path("corpus", "tile-codes.txt").read_text(encoding="utf-8")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def registry_rows() -> list[list[str]]:
    with shared_path("corpus", "tile-registry.tsv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, delimiter="\t"))
    assert rows[0] == ["color", "name", "code"]
    return [row + [""] * (3 - len(row)) for row in rows[1:]]


# ----------------------------------------------------------------------------- models
def test_parse_city_paths_label() -> None:
    tile = parse("city=revenue:20;path=a:0,b:_0;path=a:_0,b:3;label=Y")
    assert tile.cities == (City(revenue=Revenue(flat=20)),)
    assert tile.paths == (
        Path(a=Edge(0), b=NodeRef(0)),
        Path(a=NodeRef(0), b=Edge(3)),
    )
    assert tile.labels == (Label(text="Y"),)
    assert tile.label == "Y"
    assert tile.nodes == tile.cities


def test_defaults_are_the_reference_defaults() -> None:
    city, town, halt, pas, off = parse(
        "city=revenue:0;town=revenue:0;halt;pass=revenue:0;offboard=revenue:0"
    ).nodes
    assert (city.slots, city.visit_cost, city.route) == (1, 1, Route.MANDATORY)
    assert town.route is Route.MANDATORY and halt.route is Route.OPTIONAL
    assert (
        isinstance(pas, Pass) and pas.route is Route.NEVER and (pas.color, pas.size) == ("gray", 1)
    )
    assert isinstance(off, Offboard) and off.rows == 1


def test_every_key_of_the_node_parts() -> None:
    tile = parse(
        "city=revenue:yellow_20|brown_40,slots:2,groups:A|B,hide:1,visit_cost:0,route:optional,"
        "format:+%d,boom:1,outline:1,loc:2.5;"
        "town=revenue:10,style:rect,to_city:1,loc:center;"
        "halt=symbol:⚒,revenue:20,groups:E;"
        "pass=revenue:0,slots:2,color:blue,size:2;"
        "offboard=revenue:-10,rows:2;junction"
    )
    city = tile.cities[0]
    assert city.revenue == Revenue(phases=(("yellow", 20), ("brown", 40)))
    assert (city.slots, city.groups, city.hide, city.visit_cost) == (2, ("A", "B"), True, 0)
    assert (city.route, city.format, city.boom, city.outline, city.loc) == (
        Route.OPTIONAL,
        "+%d",
        True,
        True,
        "2.5",
    )
    town, halt = tile.towns
    assert isinstance(halt, Halt) and halt.symbol == "⚒" and halt.groups == ("E",)
    assert town.to_city and town.style == "rect"
    assert tile.passes[0].color == "blue" and tile.cities[1] is tile.passes[0]
    assert tile.offboards[0].revenue.flat == -10
    assert isinstance(tile.nodes[-1], Junction) and len(tile.nodes) == 6


def test_path_keys() -> None:
    (path,) = parse(
        "city=revenue:0;path=a:0,b:_0,terminal:2,a_lane:2.1,b_lane:3.0,track:dual,ignore:1"
    ).paths
    assert path == Path(
        a=Edge(0),
        b=NodeRef(0),
        terminal=2,
        a_lane=Lane(2, 1),
        b_lane=Lane(3, 0),
        track=Gauge.DUAL,
        ignore=True,
    )
    assert parse("path=a:0,b:3,lanes:2").paths[0].lanes == 2


def test_future_track_is_not_track() -> None:
    tile = parse("path=a:0,b:3;path=a:1,b:4,track:future")
    assert [p.edges for p in tile.paths] == [(0, 3)]
    assert [p.edges for p in tile.future_paths] == [(1, 4)]


def test_other_parts() -> None:
    tile = parse(
        "upgrade=cost:80,terrain:mountain|water,size:40;border=edge:5,type:water,cost:40,"
        "color:blue;icon=image:1846/20,sticky:1,large:1,name:x,loc:hex;stub=edge:2;"
        "partition=a:0+,b:3-,type:water,restrict:inner,length:0.5;frame=color:#aa0000,"
        "color2:red;stripes=color:gray;future_label=label:Y,color:brown;label=OO"
    )
    assert tile.upgrades == (Upgrade(cost=80, terrains=("mountain", "water"), size=40),)
    assert tile.terrains == ("mountain", "water")
    assert tile.borders == (Border(edge=5, type=BorderType.WATER, cost=40, color="blue"),)
    assert tile.icons == (Icon(image="1846/20", name="x", sticky=True, large=True, loc="hex"),)
    assert tile.stubs[0].edge == 2
    assert (tile.partitions[0].a, tile.partitions[0].b) == (Vertex(0, 1), Vertex(3, -1))
    assert tile.frame is not None and (tile.frame.color, tile.frame.color2) == ("#aa0000", "red")
    assert tile.stripes is not None and tile.stripes.color == "gray"
    assert tile.future_label is not None and tile.future_label.label == "Y"
    assert tile.label == "OO"


def test_blank_and_trailing_separators() -> None:
    assert parse("") == Tile(())
    assert parse(";") == Tile(())
    assert parse("city=revenue:20;;") == parse("city=revenue:20")
    assert parse("path=a:0,b:3,") == parse("path=a:0,b:3")
    assert parse("label=") == parse("label") == Tile((Label(text=""),))


def test_node_references_count_every_node_kind_in_order() -> None:
    tile = parse(
        "town=revenue:10;junction;offboard=revenue:20;city=revenue:30;"
        "path=a:0,b:_3;path=a:_0,b:_1;path=a:_1,b:_2"
    )
    assert tile.node(tile.paths[0].b) is tile.cities[0]
    assert [type(n).__name__ for n in tile.nodes] == ["Town", "Junction", "Offboard", "City"]


def test_tiles_are_immutable_hashable_and_cached() -> None:
    code = "city=revenue:20;path=a:0,b:_0"
    tile = parse(code)
    assert parse(code) is tile
    assert hash(tile) == hash(parse("city=revenue:20;path=b:_0,a:0"))
    with pytest.raises(AttributeError):
        tile.parts = ()  # type: ignore[misc]


def test_revenue_for_phase() -> None:
    revenue = parse("city=revenue:yellow_20|green_30|brown_40").cities[0].revenue
    assert revenue.for_phase(["yellow"]) == 20
    assert revenue.for_phase(["yellow", "green", "brown", "gray"]) == 40
    assert revenue.max == 40 and revenue.as_dict() == {"yellow": 20, "green": 30, "brown": 40}


# ----------------------------------------------------------------------------- lenient/strict
@pytest.mark.parametrize(
    ("code", "fixed"),
    [
        ("path=a:6,b:3", "path=a:0,b:3"),
        ("town=revenue:0;town=revenue:0;path=a:3,b:_1border=edge:4", None),
        ("city=revenue:30,pos:0", "city=revenue:30,pos:0"),
        ("offboard=groups:A,revenue:10,groups:W", "offboard=revenue:10,groups:W"),
        ("border=edge:1,type:mountain,cost:40 ", "border=edge:1,type:mountain,cost:40"),
    ],
)
def test_lenient_slips_from_real_data_and_strict_rejects_them(code: str, fixed: str | None) -> None:
    tile = parse(code)
    if fixed is not None:
        assert format_tile(tile) == fixed
    with pytest.raises(NotationError):
        parse(code, strict=True)


def test_glued_part_is_dropped_like_the_reference_decoder() -> None:
    tile = parse("offboard=revenue:30,groups:M;path=a:0,b:_0,terminal:1path=a:5,b:_0,terminal:1")
    assert tile.paths == (Path(a=Edge(0), b=NodeRef(0), terminal=1),)
    assert tile.offboards[0].groups == ("M",)
    assert parse("town=revenue:0;town=revenue:0;path=a:3,b:_1border=edge:4").borders == ()


def test_inert_keys_are_kept_for_lossless_formatting() -> None:
    city = parse("city=revenue:30,loc:0.5,reservation:PLM").cities[0]
    assert city.extra == (("reservation", "PLM"),) and city.loc == "0.5"


# ----------------------------------------------------------------------------- errors
BAD = [
    # code, 0-based index of the offending character, words the message must contain
    ("path=a:7,b:0", 7, "edge 0-5"),
    ("path=a:0", 8, "missing b"),
    ("path=b:3", 8, "missing a"),
    ("city=revenue:abc", 13, "expected a revenue"),
    ("path=a:0,b:_3", 11, "names no node"),
    ("city=revenue:10;path=a:0,b:_1", 27, "only 1 node (_0)"),
    ("path=a:0,b:_0;city=revenue:10", 11, "no node is defined before it"),
    ("citty=revenue:20", 0, "unknown part type 'citty' (did you mean 'city'?)"),
    ("city=revnue:20", 5, "unknown key 'revnue' for city (did you mean 'revenue'?)"),
    ("city=revenue:20;;path=a:0,b:1", 16, "empty part"),
    (";city=revenue:20", 0, "cannot start with ';'"),
    ("city=revenue:", 13, "expected a value"),
    ("city=revenue:20,,slots:2", 16, "unexpected ','"),
    ("city=revenue:20,slots", 16, "unexpected 'slots'"),
    ("city=revenue:20:30", 15, "unexpected ':'"),
    ("city=revenue:20=", 15, "at most one '='"),
    ("city", 4, "missing revenue"),
    ("city=20", 5, "key:value"),
    ("label=a:b", 6, "label takes its text"),
    ("junction=x:1", 9, "junction takes no parameters"),
    ("path=a:0,b:1,track:wide", 19, "broad, narrow, dual, future, thin"),
    ("upgrade=cost:20,terrain:mountain|lava", 33, "unknown terrain 'lava'"),
    ("city=revenue:yellow_20|brown", 23, "COLOUR_NUMBER"),
    ("city=revenue:yellow_20|yellow_30", 23, "two revenues"),
    ("city=revenue:20,slots:-1", 22, ">= 0"),
    ("border=edge:6", 12, "edge 0-5"),
    ("border=type:water", 17, "missing edge"),
    ("stub=edge:x", 10, "edge 0-5"),
    ("path=a:0,b:1,lanes:0", 19, ">= 1"),
    ("path=a:0,b:1,a_lane:2.2", 20, "below the lane count"),
    ("city=revenue:20,hide:yes", 21, "1 or 0"),
    ("partition=a:7,b:2", 12, "vertex 0-5"),
    ("icon=sticky:1", 13, "missing image"),
    ("frame=color:not a colour", 12, "colour"),
    ("city=revenue:20; path=a:0,b:_0", 16, "unexpected ' '"),
    ("City=revenue:20", 0, "unknown part type 'City'"),
    ("path=a:0,b:1,terminal:3", 22, "terminal 1 or 2"),
    ("town=revenue:0,style:square", 21, "dot, rect, hidden"),
]


@pytest.mark.parametrize(("code", "index", "words"), BAD)
def test_bad_codes_are_rejected_at_the_right_column(code: str, index: int, words: str) -> None:
    with pytest.raises(NotationError) as info:
        parse(code)
    err = info.value
    assert (err.index, err.col) == (index, index + 1), err.message
    assert words in err.message
    assert err.code == code
    assert isinstance(err, FerroviaError)
    assert check(code) is not None


def test_error_str_shows_code_and_caret() -> None:
    err = check("path=a:7,b:0")
    assert err is not None
    assert str(err) == (
        "column 8: error: path a: expected an edge 0-5 or a node reference _N, got '7'\n"
        "  path=a:7,b:0\n"
        "         ^"
    )


def test_error_at_end_of_code_puts_caret_past_last_character() -> None:
    err = check("path=a:0")
    assert err is not None
    assert str(err).splitlines()[1:] == ["  path=a:0", "          ^"]


def test_strict_errors_explain_the_reference_behaviour() -> None:
    err = check("path=a:6,b:0", strict=True)
    assert err is not None and "reads 6 as edge 0" in err.message
    err = check("city=revenue:1,pos:0", strict=True)
    assert err is not None and "ignores this key" in err.message


# ----------------------------------------------------------------------------- YAML origins
YAML_TEXT = """\
tiles:
  plain: path=a:0,b:9
  single: 'label=O''K;path=a:9,b:0'
  double: "label=\\"Q\\";path=a:0,b:_4"
"""


@pytest.mark.parametrize(
    ("key", "style", "bad_char"),
    [("plain", "plain", "9"), ("single", "'", "9"), ("double", '"', "_")],
)
def test_error_maps_to_file_line_col_inside_yaml(key: str, style: str, bad_char: str) -> None:
    data = YAML().load(YAML_TEXT)
    line0, col0 = data["tiles"].lc.value(key)  # 0-based, at the quote for quoted scalars
    content_col = col0 + 1 + (0 if style == "plain" else 1)
    origin = SourcePos("map.yaml", line0 + 1, content_col)
    code = data["tiles"][key]
    with pytest.raises(NotationError) as info:
        parse(code, origin=origin, style=style)  # type: ignore[arg-type]
    pos = info.value.file_pos
    assert pos is not None and pos.file == "map.yaml" and pos.line == line0 + 1
    assert YAML_TEXT.splitlines()[pos.line - 1][pos.col - 1] == bad_char
    assert str(info.value).startswith(f"map.yaml:{pos.line}:{pos.col}: error: ")
    data_error = info.value.to_data_error()
    assert (data_error.file, data_error.line, data_error.col) == (pos.file, pos.line, pos.col)


def test_located_errors_do_not_poison_the_cache() -> None:
    code = "path=a:0,b:8"
    with pytest.raises(NotationError) as first:
        parse(code, origin=SourcePos("a.yaml", 2, 5))
    with pytest.raises(NotationError) as second:
        parse(code)
    assert first.value.file_pos == SourcePos("a.yaml", 2, 16)
    assert second.value.file_pos is None


# ----------------------------------------------------------------------------- corpus
def test_every_corpus_code_parses() -> None:
    lines = corpus_lines()
    assert len(lines) == 5770
    failures = [(n, str(e)) for n, code in enumerate(lines, 1) if (e := check(code))]
    assert failures == []


def test_every_registry_tile_parses() -> None:
    rows = registry_rows()
    assert len(rows) == 479
    assert [(name, str(e)) for _, name, code in rows if (e := check(code))] == []
    by_name = {name: parse(code) for _, name, code in rows}
    assert by_name["blank"] == Tile(())
    assert [p.edges for p in by_name["7"].paths] == [(0, 1)]


def test_strict_mode_flags_only_the_known_slips() -> None:
    lines = corpus_lines()
    flagged = [code for code in lines if check(code, strict=True)]
    assert 0 < len(flagged) < 60  # the handful of legacy slips, not the notation itself


# ----------------------------------------------------------------------------- CLI
def test_cli_check_reports_bad_lines(tmp_path: FsPath, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "codes.txt"
    f.write_text("city=revenue:20\npath=a:7,b:0\n\ncitty=revenue:1\n", encoding="utf-8")
    assert main(["tiles", "check", str(f)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{f}:2:8: error: path a: expected an edge 0-5 or a node reference _N, got '7'"
    assert out[1].startswith(f"{f}:4:1: error: unknown part type 'citty'")
    assert len(out) == 2


def test_cli_check_ok_and_show_code(
    tmp_path: FsPath, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    f = tmp_path / "ok.txt"
    f.write_text("city=revenue:20\r\n\n", encoding="utf-8")
    assert main(["tiles", "check", str(f)]) == 0
    assert capsys.readouterr().out == ""
    monkeypatch.setattr("sys.stdin", io.StringIO("path=a:0\n"))
    assert main(["tiles", "check", "--show-code", "-"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "<stdin>:1:9: error: missing b: a path needs two endpoints, a and b "
        "(an edge 0-5 or a node _N)",
        "  path=a:0",
        "          ^",
    ]


def test_cli_format(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        "sys.stdin", io.StringIO("path=b:_0,a:0\ncity=slots:1,revenue:20;path=b:_0,a:0\n\n")
    )
    assert main(["tiles", "format", "-"]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["path=b:_0,a:0", "city=revenue:20;path=a:0,b:_0", ""]
    assert captured.err.splitlines()[0].startswith("<stdin>:1:8: error: path b: node reference")
    monkeypatch.setattr("sys.stdin", io.StringIO("path=a:6,b:3\n"))
    assert main(["tiles", "format", "-"]) == 0
    assert capsys.readouterr().out == "path=a:0,b:3\n"
    monkeypatch.setattr("sys.stdin", io.StringIO("path=a:6,b:3\n"))
    assert main(["tiles", "format", "--strict", "-"]) == 1


def test_cli_usage_errors_exit_2(tmp_path: FsPath, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tiles"]) == 2
    assert main(["tiles", "lint", "x"]) == 2
    assert main(["tiles", "check"]) == 2
    assert main(["tiles", "check", str(tmp_path / "missing.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_cli_accepts_the_whole_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    path = shared_path("corpus", "tile-codes.txt")
    assert main(["tiles", "check", str(path)]) == 0
    assert main(["tiles", "format", str(path)]) == 0
    formatted = capsys.readouterr().out.split("\n")[:-1]
    assert len(formatted) == 5770
    assert [parse(c) for c in formatted] == [parse(c) for c in corpus_lines()]


def test_node_classes_are_the_reference_hierarchy() -> None:
    assert issubclass(Pass, City) and issubclass(Halt, Town)
    assert parse("halt;path=a:0,b:_0").towns != ()


def test_tiles_and_errors_pickle() -> None:
    import pickle

    tile = parse("city=revenue:20;path=a:0,b:_0")
    assert pickle.loads(pickle.dumps(tile)) == tile
    err = check("path=a:9,b:0")
    assert err is not None
    again = pickle.loads(pickle.dumps(err.located(SourcePos("f.yaml", 1, 3))))
    assert (again.index, again.file_pos) == (7, SourcePos("f.yaml", 1, 10))


def test_syntax_errors_say_what_this_part_takes() -> None:
    err = check("city=revenue:20,,")
    assert (
        err is not None and err.message == "unexpected ','; expected ';' or a key followed by ':'"
    )


def test_a_non_text_code_is_a_notation_error() -> None:
    with pytest.raises(NotationError, match="a tile code is text, got int"):
        parse(57)  # type: ignore[arg-type]
