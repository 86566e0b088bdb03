"""``validate_game`` on purposely broken copies of gamedata/1858: exact file, line, column, message.

Each test copies the bundled game (and the tile sets) into ``tmp_path``, makes one mistake by
editing the YAML text, and checks the error a person would see.  Positions are computed from
the edited text (so the tests follow the data as it grows) and are 1-based.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ferrovia.data.validate import ValidationResult, coord_xy, validate_game
from ferrovia.errors import DataError, DataErrors

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "gamedata" / "1858"


@pytest.fixture
def game(gamedata_copy: Path) -> Path:
    return gamedata_copy


def edit(path: Path, old: str, new: str) -> str:
    """Replace the first ``old`` in the file with ``new``; return the new text."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture text {old!r} not in {path}"
    text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    return text


def where(text: str, needle: str, *, after: str = "", occurrence: int = 1) -> tuple[int, int]:
    """1-based (line, col) of the ``occurrence``-th ``needle`` after the first ``after``."""
    start = text.index(after) if after else 0
    index = start - 1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, col


def only_error(result: ValidationResult) -> DataError:
    assert len(result.errors) == 1, "\n".join(str(e) for e in result.errors)
    return result.errors[0]


def check(error: DataError, file: str, pos: tuple[int, int], message: str) -> None:
    assert (error.file, error.line, error.col, error.message) == (file, *pos, message)


def test_bundled_1858_is_valid_with_the_expected_sizes(game: Path) -> None:
    result = validate_game(game)
    assert result.errors == []
    assert result.counts == {
        "hexes": 127,
        "tiles": 108,
        "privates": 22,
        "corporations": 8,
        "trains": 7,
        "phases": 6,
    }
    assert result.title == "1858: The Railways of Iberia"
    assert result.definition is not None


def test_unknown_key_is_reported_at_the_key_with_a_suggestion(game: Path) -> None:
    text = edit(game / "map.yaml", "  B3: {color: white}", "  B3: {colr: white}")
    errors = validate_game(game).errors
    line, col = where(text, "colr")
    assert [(e.file, e.line, e.col, e.message) for e in errors] == [
        ("gamedata/1858/map.yaml", line, col - 5, "missing required key 'color' in hexes.B3"),
        ("gamedata/1858/map.yaml", line, col, "unknown key 'colr' (did you mean 'color'?)"),
    ]


def test_wrong_type_names_the_key_and_the_value(game: Path) -> None:
    text = edit(game / "market.yaml", "bank_pool_limit: 50", "bank_pool_limit: fifty")
    error = only_error(validate_game(game))
    check(
        error,
        "gamedata/1858/market.yaml",
        where(text, "fifty"),
        "bank_pool_limit: input should be a valid integer, unable to parse string as an "
        "integer, got 'fifty'",
    )


def test_bad_tile_code_character_points_inside_the_yaml_line(game: Path) -> None:
    old = "code: 'city=revenue:40,slots:2;path=a:0,b:_0;path=a:3"
    text = edit(game / "map.yaml", old, old.replace("path=a:0", "path=a:9"))
    error = only_error(validate_game(game))
    line, col = where(text, "a:9", after="  A14:")
    assert (error.file, error.line, error.col) == ("gamedata/1858/map.yaml", line, col + 2)
    assert error.message.startswith("tile code: ")
    assert "'9'" in error.message


def test_tile_neither_in_the_tile_set_nor_own(game: Path) -> None:
    text = edit(game / "tiles.yaml", "  '7': {count: unlimited}", "  '7777': {count: 1}")
    error = only_error(validate_game(game))
    check(
        error,
        "gamedata/1858/tiles.yaml",
        where(text, "'7777'"),
        "tile '7777' is not in the tile set gamedata/tilesets/standard.yaml and has no own "
        "'color' and 'code'",
    )


def test_private_home_hex_not_on_the_map(game: Path) -> None:
    text = edit(game / "privates.yaml", "home_hexes: [O8]", "home_hexes: [O98]")
    errors = validate_game(game).errors
    check(errors[0], "gamedata/1858/privates.yaml", where(text, "O98"), "no hex 'O98' on the map")
    # O8 stays listed as blocked, and is now not one of its home hexes: a second, true error.
    assert [e.message for e in errors[1:]] == ["O8 is not one of its home hexes"]


def test_reservation_of_a_city_that_does_not_exist(game: Path) -> None:
    text = edit(game / "privates.yaml", "{hex: O8, city: 0, name: Barcelona}", "{hex: O8, city: 1}")
    error = validate_game(game).errors[0]
    check(
        error,
        "gamedata/1858/privates.yaml",
        where(text, "1}", after="{hex: O8, city: 1}"),
        "hex O8 has only 1 city; city index 1 does not exist",
    )


def test_phase_naming_a_train_that_does_not_exist(game: Path) -> None:
    text = edit(game / "phases.yaml", "on: [4H, 2M]", "on: [4H, 2X]")
    error = only_error(validate_game(game))
    check(error, "gamedata/1858/phases.yaml", where(text, "2X"), "no train '2X' in trains.yaml")


def test_phase_naming_a_tile_colour_that_is_no_tile_colour(game: Path) -> None:
    text = edit(game / "phases.yaml", "tiles: [yellow]", "tiles: [yellow, red]")
    error = only_error(validate_game(game))
    check(
        error,
        "gamedata/1858/phases.yaml",
        where(text, "red]"),
        "'red' is not a tile colour (yellow, green, brown, gray)",
    )


def test_par_value_not_on_the_market(game: Path) -> None:
    text = edit(game / "market.yaml", "par_values: [70, 80,", "par_values: [70, 75, 80,")
    error = only_error(validate_game(game))
    check(
        error,
        "gamedata/1858/market.yaml",
        where(text, "75"),
        "par value 75 is not a space of the stock market",
    )


def test_duplicate_coordinate_is_reported_at_the_second_key(game: Path) -> None:
    text = edit(game / "map.yaml", "hexes:\n", "hexes:\n  B3: {color: white}\n")
    error = only_error(validate_game(game))
    first, _ = where(text, "  B3:")
    check(
        error,
        "gamedata/1858/map.yaml",
        (where(text, "  B3:", occurrence=2)[0], 3),
        f"duplicate key 'B3' (first at line {first})",
    )


def test_coordinate_off_the_flat_grid(game: Path) -> None:
    text = edit(game / "map.yaml", "hexes:\n", "hexes:\n  B4: {color: white}\n")
    error = only_error(validate_game(game))
    check(
        error,
        "gamedata/1858/map.yaml",
        where(text, "B4"),
        "coordinate 'B4' is off this map's flat hex grid: its letter and number do not "
        "alternate like the other hexes' (e.g. 'A12')",
    )


def test_malformed_coordinate(game: Path) -> None:
    text = edit(game / "map.yaml", "hexes:\n", "hexes:\n  b3: {color: white}\n")
    error = only_error(validate_game(game))
    check(
        error,
        "gamedata/1858/map.yaml",
        where(text, "b3"),
        "bad coordinate 'b3': expected capital letters then a row number (e.g. 'A14')",
    )


def test_listed_upgrade_that_does_not_keep_the_track(game: Path) -> None:
    text = edit(
        game / "tiles.yaml",
        "  '7': {count: unlimited}",
        "  '7': {count: unlimited, upgrades_to: ['80', '81']}",
    )
    error = only_error(validate_game(game))
    check(
        error,
        "gamedata/1858/tiles.yaml",
        where(text, "'81'"),
        "'81' does not keep the track of tile '7' in any rotation",
    )


def test_listed_upgrade_that_skips_a_colour(game: Path) -> None:
    text = edit(
        game / "tiles.yaml",
        "  '7': {count: unlimited}",
        "  '7': {count: unlimited, upgrades_to: ['106']}",
    )
    error = only_error(validate_game(game))
    check(
        error,
        "gamedata/1858/tiles.yaml",
        where(text, "'106'"),
        "'106' (brown) cannot upgrade tile '7' (yellow): upgrades go one step along yellow, "
        "green, brown, gray",
    )


def test_yaml_syntax_error_at_its_mark(game: Path) -> None:
    text = edit(game / "phases.yaml", "tiles: [yellow]\n", "tiles: [yellow\n")
    errors = validate_game(game).errors
    assert len(errors) == 1
    error = errors[0]
    assert error.file == "gamedata/1858/phases.yaml"
    # The parser notices on the next line, at the ':' that cannot be in a flow sequence.
    assert (error.line, error.col) == where(text, ": {5-share", after="tiles: [yellow\n")
    assert error.message.startswith("YAML: expected ',' or ']'")


def test_every_error_in_every_file_is_collected(game: Path) -> None:
    edit(game / "map.yaml", "  B3: {color: white}", "  B3: {color: whit}")
    edit(game / "market.yaml", "par_values: [70, 80,", "par_values: [70, 75, 80,")
    edit(game / "phases.yaml", "on: [4H, 2M]", "on: [4H, 2X]")
    edit(game / "privates.yaml", "home_hexes: [O8]", "home_hexes: [O98]")
    edit(game / "game.yaml", "layout: flat", "layot: flat")
    files = [e.file for e in validate_game(game).errors]
    assert sorted(files) == sorted(
        [
            "gamedata/1858/game.yaml",
            "gamedata/1858/map.yaml",
            "gamedata/1858/market.yaml",
            "gamedata/1858/phases.yaml",
            "gamedata/1858/privates.yaml",
        ]
    )


def test_per_player_table_must_cover_every_player_count(game: Path) -> None:
    text = edit(game / "market.yaml", "starting_cash: {'2': 500, ", "starting_cash: {")
    error = only_error(validate_game(game))
    check(
        error,
        "gamedata/1858/market.yaml",
        where(text, "starting_cash"),
        "no value for 2 players (game.yaml allows 2-6)",
    )


def test_quick_start_packet_naming_an_unknown_private(game: Path) -> None:
    text = edit(game / "options.yaml", "'M&A', 'V&J', 'M&C', 'B&M'", "'M&A', 'V&J', 'M&X', 'B&M'")
    error = only_error(validate_game(game))
    check(error, "gamedata/1858/options.yaml", where(text, "'M&X'"), "no private 'M&X'")


def test_missing_file_is_an_error_not_a_crash(game: Path) -> None:
    (game / "phases.yaml").unlink()
    error = only_error(validate_game(game))
    check(error, "gamedata/1858/phases.yaml", (1, 1), "file not found")


def test_load_game_raises_data_errors_with_all_of_them(game: Path) -> None:
    from ferrovia.data.definition import load_game

    edit(game / "phases.yaml", "on: [4H, 2M]", "on: [4X, 2X]")
    with pytest.raises(DataErrors) as caught:
        load_game(game)
    assert [e.message for e in caught.value.errors] == [
        "no train '4X' in trains.yaml",
        "no train '2X' in trains.yaml",
    ]


def test_coordinates_follow_18xx_games_doubled_system() -> None:
    assert coord_xy("A14") == (0, 13)
    assert coord_xy("AA2") == (26, 1)
    assert coord_xy("14A") is None


def test_corporation_with_an_unknown_share_structure(game: Path) -> None:
    text = edit(game / "companies.yaml", "structure: 5-share", "structure: 6-share")
    error = only_error(validate_game(game))
    check(
        error,
        "gamedata/1858/companies.yaml",
        where(text, "6-share"),
        "no share structure '6-share' (share_structures: 5-share, 10-share)",
    )


def test_train_rusting_on_an_unknown_train(game: Path) -> None:
    text = edit(game / "trains.yaml", "rusts_on: 6E", "rusts_on: 6X")
    error = only_error(validate_game(game))
    check(error, "gamedata/1858/trains.yaml", where(text, "6X"), "no train '6X'")


def test_tile_set_codes_are_checked_strictly_at_their_position(game: Path) -> None:
    tileset = Path("gamedata/tilesets/standard.yaml")
    text = tileset.read_text(encoding="utf-8")
    line = next(t for t in text.splitlines() if t.startswith("  '57':"))
    broken = line.replace("path=a:0,b:_0", "path=a:0,a:0,b:_0", 1)
    assert broken != line
    text = edit(tileset, line, broken)
    error = only_error(validate_game(game))
    row, col = where(text, "a:0,b:_0", after=broken)
    check(
        error,
        "gamedata/tilesets/standard.yaml",
        (row, col),
        "tile code: key 'a' given twice in this path",
    )


def test_tile_set_is_still_checked_when_game_yaml_has_an_error(game: Path) -> None:
    edit(game / "game.yaml", "layout: flat", "layot: flat")
    text = edit(game / "tiles.yaml", "  '7': {count: unlimited}", "  '7777': {count: 1}")
    errors = validate_game(game).errors
    assert [(e.file, e.message.split(" (")[0]) for e in errors] == [
        ("gamedata/1858/game.yaml", "unknown key 'layot'"),
        (
            "gamedata/1858/tiles.yaml",
            "tile '7777' is not in the tile set gamedata/tilesets/standard.yaml and has no own "
            "'color' and 'code'",
        ),
    ]
    assert (errors[1].line, errors[1].col) == where(text, "'7777'")


def test_missing_tile_set(game: Path) -> None:
    text = edit(game / "game.yaml", "tileset: standard", "tileset: nosuch")
    error = only_error(validate_game(game))
    check(
        error,
        "gamedata/1858/game.yaml",
        where(text, "nosuch"),
        "no tile set 'nosuch' (gamedata/tilesets/nosuch.yaml)",
    )
