"""The position-keeping loader: YAML positions, pydantic errors mapped back, tile-code origins."""

from __future__ import annotations

from pathlib import Path

import pytest
from ferrovia.data.loader import load_yaml, parse_yaml, validate_model
from ferrovia.errors import DataError
from ferrovia.notation import parse
from ferrovia.notation.errors import NotationError
from ferrovia.schemas import MapFile, PrivatesFile, TilesFile, TrainsFile


def errors_of(text: str, model: type, file: str = "f.yaml") -> list[tuple[int, int, str]]:
    doc, errors = parse_yaml(text, file)
    assert doc is not None and errors == []
    result, errors = validate_model(doc, model)
    assert (result is None) == bool(errors)
    return [(e.line, e.col, e.message) for e in errors]


def test_unknown_key_in_block_mapping_is_at_the_key() -> None:
    text = "hexes:\n  A1:\n    color: white\n    nmae: Lisboa\n"
    assert errors_of(text, MapFile) == [(4, 5, "unknown key 'nmae' (did you mean 'name'?)")]


def test_unknown_key_without_a_close_match_lists_the_keys() -> None:
    text = "hexes:\n  A1: {color: white, zzz: 1}\n"
    assert errors_of(text, MapFile) == [
        (2, 22, "unknown key 'zzz' (expected one of: color, name, code)")
    ]


def test_wrong_literal_is_at_the_value() -> None:
    text = "hexes:\n  A1: {color: purple}\n"
    assert errors_of(text, MapFile) == [
        (
            2,
            15,
            "hexes.A1.color: input should be 'white', 'yellow', 'green', 'brown', 'gray', 'red' "
            "or 'blue', got 'purple'",
        )
    ]


def test_error_inside_a_list_item() -> None:
    text = (
        "trains:\n"
        "  - name: 2H\n"
        "    gauge: broad\n"
        "    price: lots\n"
        "    distance: {hexes: 2}\n"
        "    count: 6\n"
    )
    assert errors_of(text, TrainsFile) == [
        (
            4,
            12,
            "trains[0].price: input should be a valid integer, unable to parse string as an "
            "integer, got 'lots'",
        )
    ]


def test_model_rule_is_reported_at_the_key_holding_the_mapping() -> None:
    line = "  - {name: 2H, gauge: broad, price: 1, distance: {}, count: 6}"
    assert errors_of(f"trains:\n{line}\n", TrainsFile) == [
        (
            2,
            line.index("distance") + 1,
            "trains[0].distance: give one of 'hexes', 'stops' or 'large_stops'"
            " (with 'small_stops')",
        )
    ]


def test_union_alternatives_become_one_error() -> None:
    last = "     income: {'2': 1}, can_start: 5}"
    text = (
        "privates:\n"
        "  - {number: 1, symbol: X, name: X, batch: 1, face_value: 1, minimum_bid: 1,\n"
        f"{last}\n"
    )
    assert errors_of(text, PrivatesFile) == [
        (
            3,
            last.index("5}") + 1,
            "privates[0].can_start: input should be 'any' or 'none'; or expected a list, got 5",
        )
    ]


def test_count_accepts_numbers_and_unlimited_only() -> None:
    text = "tiles:\n  '1': {count: unlimited}\n  '2': {count: 3}\n  '3': {count: many}\n"
    assert errors_of(text, TilesFile) == [
        (4, 16, "tiles.3.count: expected a whole number or 'unlimited', got 'many'")
    ]


def test_numeric_yaml_keys_are_names() -> None:
    doc, _ = parse_yaml("tiles:\n  57: {count: 1}\n", "t.yaml")
    assert doc is not None
    model, errors = validate_model(doc, TilesFile)
    assert errors == [] and model is not None
    assert list(model.tiles) == ["57"]


def test_numeric_key_is_dotted_not_an_index() -> None:
    assert errors_of("tiles:\n  57: {count: x}\n", TilesFile) == [
        (2, 15, "tiles.57.count: expected a whole number or 'unlimited', got 'x'")
    ]


def test_type_errors_speak_yaml() -> None:
    assert errors_of("- a\n", MapFile) == [
        (1, 1, "expected a mapping (key: value entries), got a list")
    ]
    assert errors_of("hexes:\n  A1: {color: white, name: [1]}\n", MapFile) == [
        (2, 22, "hexes.A1.name: expected text, got a list")
    ]


def test_missing_key_is_at_the_mapping() -> None:
    text = "hexes:\n  A1:\n    name: x\n"
    assert errors_of(text, MapFile) == [(2, 3, "missing required key 'color' in hexes.A1")]


def test_errors_come_in_file_order() -> None:
    text = "hexes:\n  A1: {color: x}\n  A3: {color: y}\n"
    assert [line for line, _, _ in errors_of(text, MapFile)] == [2, 3]


def test_duplicate_keys_are_all_reported_at_the_second_key() -> None:
    doc, errors = parse_yaml("a: 1\nb: 2\na: 3\nc:\n  d: 1\n  d: 2\n", "d.yaml")
    assert [str(e) for e in errors] == [
        "d.yaml:3:1: error: duplicate key 'a' (first at line 1)",
        "d.yaml:6:3: error: duplicate key 'd' (first at line 5)",
    ]
    assert doc is not None and doc.data == {"a": 1, "b": 2, "c": {"d": 1}}  # first value kept


def test_syntax_error_is_at_its_mark() -> None:
    doc, errors = parse_yaml("a: [1, 2\nb: 3\n", "s.yaml")
    assert doc is None
    assert len(errors) == 1
    assert (errors[0].line, errors[0].col) == (2, 2)
    assert errors[0].message.startswith("YAML: ")


def test_tab_indentation_is_a_syntax_error_with_position() -> None:
    doc, errors = parse_yaml("a:\n\tb: 1\n", "t.yaml")
    assert doc is None
    assert (errors[0].file, errors[0].line) == ("t.yaml", 2)


def test_missing_file(tmp_path: Path) -> None:
    doc, errors = load_yaml(tmp_path / "none.yaml", "none.yaml")
    assert doc is None
    assert [str(e) for e in errors] == ["none.yaml:1:1: error: file not found"]


@pytest.mark.parametrize(
    ("line", "style", "offset"),
    [
        ("  A1: {color: white, code: path=a:9,b:0}", "plain", 0),
        ("  A1: {color: white, code: 'path=a:9,b:0'}", "'", 1),
        ('  A1: {color: white, code: "path=a:9,b:0"}', '"', 1),
    ],
)
def test_scalar_origin_for_each_quoting_style(line: str, style: str, offset: int) -> None:
    doc, _ = parse_yaml(f"hexes:\n{line}\n", "m.yaml")
    assert doc is not None
    origin, found_style = doc.scalar_origin(("hexes", "A1", "code"))
    value_col = line.index("path") + 1 - offset
    assert (origin.line, origin.col, found_style) == (2, value_col + offset, style)
    with pytest.raises(NotationError) as caught:
        parse("path=a:9,b:0", origin=origin, style=found_style)
    pos = caught.value.file_pos
    assert pos is not None
    assert (pos.line, pos.col) == (2, line.index("9") + 1)  # the very character in the file


def test_single_quoted_code_with_doubled_quote_keeps_columns() -> None:
    line = "  A1: {color: white, code: 'label=O''K;path=a:9,b:0'}"
    doc, _ = parse_yaml(f"hexes:\n{line}\n", "m.yaml")
    assert doc is not None
    code = doc.data["hexes"]["A1"]["code"]
    assert code == "label=O'K;path=a:9,b:0"
    origin, style = doc.scalar_origin(("hexes", "A1", "code"))
    with pytest.raises(NotationError) as caught:
        parse(code, origin=origin, style=style)
    pos = caught.value.file_pos
    assert pos is not None and pos.col == line.index("9") + 1


def test_multi_line_scalar_is_not_claimed_single_line() -> None:
    text = "hexes:\n  A1:\n    color: white\n    code: >-\n      path=a:0,b:3;\n      label=Y\n"
    doc, _ = parse_yaml(text, "m.yaml")
    assert doc is not None
    path = ("hexes", "A1", "code")
    assert not doc.single_line(path, doc.data["hexes"]["A1"]["code"])
    plain = "hexes:\n  A1: {color: white, code: path=a:0}\n"
    doc, _ = parse_yaml(plain, "m.yaml")
    assert doc is not None and doc.single_line(path, "path=a:0")


def test_data_error_text() -> None:
    assert str(DataError("x.yaml", 3, 7, "m")) == "x.yaml:3:7: error: m"


def test_load_model_caches_unchanged_files_only(tmp_path: Path) -> None:
    from ferrovia.data.loader import load_model

    path = tmp_path / "map.yaml"
    path.write_text("hexes:\n  A1: {color: white}\n", encoding="utf-8")
    first = load_model(path, "map.yaml", MapFile)
    again = load_model(path, "map.yaml", MapFile)
    assert again[0] is first[0] and again[1] is first[1]  # reused, not re-parsed
    path.write_text("hexes:\n  A1: {color: blu}\n", encoding="utf-8")
    _doc, model, errors = load_model(path, "map.yaml", MapFile)
    assert model is None
    assert [(e.line, e.col) for e in errors] == [(2, 15)]
    errors.clear()  # a caller changing its list does not change the cache
    assert len(load_model(path, "map.yaml", MapFile)[2]) == 1
