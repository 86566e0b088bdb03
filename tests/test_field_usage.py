"""A field in a schema is a promise: every field of every file model is read by the rules or the
renderer while seeded games are played and drawn (tests/field_usage.py records the reads), or
it is in one of the short lists below, each with its reason.

A field whose value is a nested model (``GameFile.end``, ``TilesFile.lays``) counts as read
when a field of that model is.
"""

from __future__ import annotations

import pytest
from ferrovia.data.definition import load_game
from ferrovia.paths import gamedata_root

from tests import field_usage

LOADER = {
    # the loader reads these to build the definition; the rules read what they hold
    "GameFile.extends": "overlay base (engine/data/overlay.py)",
    "GameFile.files": "file names of the parts (loader)",
    "GameFile.tileset": "the tile set the manifest draws on (loader)",
    "MapFile.hexes": "becomes GameDefinition.hexes (HexDef, recorded as Hex.*)",
    "MapFile.group_revenues": "fills its group's off-board codes (HexDef.code and .tile)",
    "PhasesFile.phases": "becomes GameDefinition.phases",
    "PrivatesFile.privates": "becomes GameDefinition.privates",
    "TilesFile.tiles": "becomes GameDefinition.tiles (TileDef, recorded as ManifestEntry.*)",
    "TilesetFile.tiles": "tile-set codes and colours become GameDefinition.tiles",
    "TileDef.code": "a tile-set tile's code becomes the game's TileDef.code",
    "TileDef.color": "a tile-set tile's colour becomes the game's TileDef.color",
    "OptionsFile.options": "becomes GameDefinition.options",
    "CityRef.city": "which reserved space a start city is: checked against the private's "
    "reservations by the validator; play follows the reservation itself, whose city number "
    "changes when an upgrade merges a hex's cities",
    **{f"Files.{k}": "a part's file name (loader)" for k in field_usage.FILES_FIELDS},
}

RARE = {
    # read by the rules only in situations the short recorded games do not reach; each is
    # shown to work by the test named
    "GameEnd.bank_broken": "when the bank breaks: tests/test_data_mutations.py (bank_broken)",
    "GameFile.end": "as GameEnd.bank_broken",
    "GameFile.rule_sections": "an illegal action's rule: tests/test_errors_library.py",
    "Ability.corporation": "1830 private abilities when used: tests/test_g1830*.py",
    "Ability.corporations": "1830 private abilities when used: tests/test_g1830*.py",
    "Ability.count": "1830 private abilities when used: tests/test_g1830*.py",
    "Ability.from_": "1830 private abilities when used: tests/test_g1830*.py",
    "Ability.hexes": "1830 private abilities when used: tests/test_g1830*.py",
    "Ability.owner_type": "1830 private abilities when used: tests/test_g1830*.py",
    "Ability.tiles": "1830 private abilities when used: tests/test_g1830*.py",
    "Ability.when": "1830 private abilities when used: tests/test_g1830*.py",
    "Train.trade_in": "1830 diesel trade-in, late in a game",
    "SpecialLay.cost": "Switzerland's mountain railways: tests/test_variant_switzerland.py",
    "SpecialLay.on_terrain": "Switzerland's mountain railways: tests/test_variant_switzerland.py",
    "ManifestEntry.special_lay": "as SpecialLay.cost",
    "Private.home_gauges": "Switzerland's Gotthard exchange: its fixture replay",
    "RouteBonus.value_hex": "a route earning a Swiss bonus: tests/test_variant_switzerland.py",
    "HexTokens.bonus_hex": "India's mine, oil and port tokens when collected: test_variant_india",
    "Car.attaches_to": "India's Pullman cars: tests/test_variant_india.py",
    "Car.per_large_stop": "India's Pullman cars: tests/test_variant_india.py",
    "TrainDiscount.percent": "India's locomotive works: tests/test_variant_india.py",
    "TrainDiscount.trains": "India's locomotive works: tests/test_variant_india.py",
}

PROSE = {
    # text for people reading the file or choosing; no rule depends on it
    "GameFile.name": "the game's short id, for people (the directory names the game)",
    "Option.name": "its name for people (quoted when the option is refused)",
    "Option.description": "what the option does, in words",
    "Phase.description": "what the phase changes, in words",
    "Private.description": "the private's card text",
    "Reservation.name": "the reserved city's name, for people reading the file",
}

TO_REMOVE: dict[str, str] = {
    # said twice or read by nothing: none left
}

ALLOWED = {**LOADER, **RARE, **PROSE, **TO_REMOVE}


def _nested(model: type, name: str) -> list[type]:
    return list(field_usage.models_in(model.model_fields[name].annotation))  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def read() -> set[str]:
    for name, *_ in field_usage.GAMES:
        load_game(gamedata_root() / name)  # validated before the recording starts
    with field_usage.recording() as seen:
        field_usage.exercise()
    # a nested model's field counts as read when one of its own fields is
    by_name = {m.__name__: m for m in field_usage.all_models()}
    grew = True
    while grew:
        grew = False
        for key in field_usage.all_fields() - seen:
            model, name = key.split(".")
            for inner in _nested(by_name[model], name):
                if any(f.startswith(f"{inner.__name__}.") for f in seen):
                    seen.add(key)
                    grew = True
                    break
    return seen


def test_every_schema_field_is_read_by_the_rules_or_the_renderer(read: set[str]) -> None:
    unread = sorted(field_usage.all_fields() - read - set(ALLOWED))
    assert unread == [], "fields no rule or renderer reads: " + ", ".join(unread)


def test_the_allow_lists_name_real_fields_only() -> None:
    assert sorted(set(ALLOWED) - field_usage.all_fields()) == []
