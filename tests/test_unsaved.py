"""Validating an editor's unsaved buffer over the game's files on disk (ferrovia lsp uses it)."""

from __future__ import annotations

from conftest import GAMEDATA
from ferrovia.data.loader import unsaved_texts
from ferrovia.data.validate import validate_game


def test_an_unsaved_buffer_is_validated_in_place_of_the_file() -> None:
    game = GAMEDATA / "1858_switzerland"
    text = (game / "privates.yaml").read_text(encoding="utf-8").replace("symbol:", "symbl:", 1)
    with unsaved_texts({game / "privates.yaml": text}):
        errors = [str(e) for e in validate_game(game, "sw").errors]
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "symbl:" in s)
    col = text.splitlines()[line - 1].index("symbl") + 1
    assert (
        f"sw/privates.yaml:{line}:{col}: error: unknown key 'symbl' (did you mean 'symbol'?)"
        in (errors)
    )
    assert validate_game(game).errors == []  # outside the block the disk's text counts again


def test_an_unsaved_base_file_reaches_the_variant() -> None:
    # the base's buffer is read when the variant merges over it (overlays included)
    base = GAMEDATA / "1858"
    text = (base / "market.yaml").read_text(encoding="utf-8")
    broken = text.replace("\n  shape:", "\n  shap:", 1)
    assert broken != text
    with unsaved_texts({base / "market.yaml": broken}):
        errors = validate_game(GAMEDATA / "1858_india", "india").errors
    [message] = [e.message for e in errors if e.file == "india/market.yaml"]
    assert message.startswith("unknown key 'shap' (did you mean 'shape'?) (inherited from ")
    assert message.endswith("gamedata/1858/market.yaml:11:3)")
