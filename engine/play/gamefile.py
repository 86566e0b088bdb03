"""Reading a game file (an 18xx.games export or a Ferrovia action log) with positioned errors.

Everything a game file can get wrong before the rules see it is reported as a
:class:`~ferrovia.errors.DataError` at ``FILE:LINE:COL``: unreadable bytes, JSON syntax, and the
shape the replay relies on (an object with an ``actions`` list of objects, ``players`` a
non-empty list of ``{"id": ..., "name": ...}``, ``settings`` an object with an integer
``seed`` and a list of ``optional_rules``).  What each action's fields hold is checked by
:func:`ferrovia.kernel.actions.action_from_json`; whether the action is legal, by the rules.

>>> parse_game_text('{"players": [{"id": 1}], "actions": {}}', "g.json")
Traceback (most recent call last):
...
ferrovia.errors.DataError: g.json:1:37: error: actions: expected a list of actions, got an object
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ferrovia.errors import DataError

MAX_GAME_FILE_BYTES = 64_000_000
"""The largest game file read (64 MB; a long 18xx.games game exports to a few MB)."""
_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def read_game_file(path: Path, *, require_players: bool = True) -> dict[str, Any]:
    """The game file at ``path`` as JSON data, checked for the shape the replay needs
    (``require_players=False``: a file without ``players`` passes, for board-only views)."""
    name = str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise DataError(name, 1, 1, f"cannot read the file: {exc.strerror or exc}") from None
    if size > MAX_GAME_FILE_BYTES:
        raise DataError(
            name,
            1,
            1,
            f"the file is too large ({size / 1e6:.1f} MB; game files may be at most"
            f" {MAX_GAME_FILE_BYTES / 1e6:g} MB)",
        )
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError(name, 1, 1, f"cannot read the file: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _line_col(raw[: exc.start].decode("utf-8", errors="replace"), None)
        raise DataError(name, line, col, f"not UTF-8 text (byte 0x{raw[exc.start]:02x})") from None
    return parse_game_text(text, name, require_players=require_players)


def parse_game_text(text: str, name: str, *, require_players: bool = True) -> dict[str, Any]:
    """Parse and shape-check a game file's text (``name`` is used in error positions)."""
    if not text.strip():
        raise DataError(name, 1, 1, "the file is empty (expected a JSON game file)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(name, exc.lineno, exc.colno, f"not JSON: {exc.msg}") from None
    except RecursionError:
        raise DataError(name, 1, 1, "not JSON: nested too deeply") from None

    def fail(where: tuple[str | int, ...], what: str) -> DataError:
        line, col = _line_col(text, where)
        label = _label(where)
        return DataError(name, line, col, f"{label + ': ' if label else ''}{what}")

    if not isinstance(data, dict):
        raise fail((), f"expected a game file (a JSON object), got {_kind(data)}")
    actions = data.get("actions")
    if "actions" not in data:
        raise fail((), "not a game file: no 'actions' list")
    if not isinstance(actions, list):
        raise fail(("actions",), f"expected a list of actions, got {_kind(actions)}")
    seen: dict[int, int] = {}
    for i, action in enumerate(actions):
        if not isinstance(action, dict):
            raise fail(("actions", i), f"expected an action (an object), got {_kind(action)}")
        ident = action.get("id")
        if isinstance(ident, int) and not isinstance(ident, bool):
            if ident in seen:
                # undo/redo and --until name actions by id: two with one id are ambiguous
                raise fail(
                    ("actions", i, "id"),
                    f"action id {ident} is used twice (first by actions[{seen[ident]}])",
                )
            seen[ident] = i
    players = data.get("players")
    if players is None and not require_players:
        players = []
    elif not isinstance(players, list) or not players:
        where: tuple[str | int, ...] = ("players",) if "players" in data else ()
        raise fail(where, f"expected 'players', a non-empty list, got {_kind(players)}")
    for i, player in enumerate(players):
        if not isinstance(player, dict):
            raise fail(("players", i), f"expected a player object, got {_kind(player)}")
        ident = player.get("id")
        if isinstance(ident, bool) or not isinstance(ident, int | str):
            raise fail(
                ("players", i), f"a player needs an 'id' (number or text), got {_kind(ident)}"
            )
    settings = data.get("settings", {})
    if settings is None:
        settings = {}
    if not isinstance(settings, dict):
        raise fail(("settings",), f"expected an object, got {_kind(settings)}")
    seed = settings.get("seed")
    if seed not in (None, "") and not (
        (isinstance(seed, int) and not isinstance(seed, bool))
        or (isinstance(seed, str) and seed.lstrip("-").isdigit())
    ):
        raise fail(("settings", "seed"), f"expected a whole number, got {_kind(seed)}")
    rules = settings.get("optional_rules")
    if rules is not None and not (
        isinstance(rules, list) and all(isinstance(r, str) for r in rules)
    ):
        raise fail(("settings", "optional_rules"), "expected a list of optional rule names")
    if "title" in data:
        problem = title_problem(data["title"])
        if problem is not None:
            raise fail(("title",), problem)
    elif require_players and not isinstance(data.get("game"), str):
        raise fail((), 'no \'title\': cannot tell which game this is (e.g. "title": "1858")')
    if "game_dir" in data:
        problem = game_dir_problem(data["game_dir"])
        if problem is not None:
            raise fail(("game_dir",), problem)
    return data


def title_problem(title: Any) -> str | None:
    """Why ``title`` cannot name a game (None: it can).  A title is a name such as ``1858``
    or ``1858Switzerland``, never a path: a game file must not make Ferrovia read data from
    wherever it likes.

    >>> title_problem("../../..")
    "expected a game's name such as '1858', got a path '../../..'"
    """
    if not isinstance(title, str):
        return f"expected the game's title (text such as '1858'), got {_kind(title)}"
    if not title.strip():
        return "expected the game's title (text such as '1858'), got empty text"
    if "/" in title or "\\" in title or title.startswith(".") or "\0" in title:
        return f"expected a game's name such as '1858', got a path {title!r}"
    return None


def game_dir_problem(value: Any) -> str | None:
    """Why a Ferrovia log's ``game_dir`` (the game directory, relative to the log's own
    directory and inside it) cannot be followed (None: it can)."""
    if not isinstance(value, str) or not value.strip():
        return f"expected a directory next to this file (text), got {_kind(value)}"
    parts = value.replace("\\", "/").split("/")
    if value.startswith(("/", "\\")) or ":" in parts[0] or ".." in parts or "\0" in value:
        return (
            f"expected a directory inside the one holding this file, got {value!r}"
            " (give --game-dir to use a game elsewhere)"
        )
    return None


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list" if value else "an empty list"
    if isinstance(value, str):
        return f"text {json.dumps(value)[:40]}"
    return f"the number {value}"


def _label(where: tuple[str | int, ...]) -> str:
    out = ""
    for part in where:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _line_col(text: str, where: tuple[str | int, ...] | None) -> tuple[int, int]:
    """1-based line and column of the value at JSON path ``where`` (None: the end of text)."""
    offset = len(text) if where is None else _offset(text, where)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _offset(text: str, where: tuple[str | int, ...]) -> int:
    """Where the value at ``where`` starts (only called for a file already known to parse).
    Walks the containers on the way, decoding only keys and skipped siblings."""
    i = _WS.match(text, 0).end()  # type: ignore[union-attr]
    for part in where:
        if i >= len(text) or text[i] not in "{[":
            return i
        closing = "}" if text[i] == "{" else "]"
        i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
        index = 0
        found = False
        while i < len(text) and text[i] != closing:
            if closing == "}":
                key, i = _DECODER.raw_decode(text, i)
                i = _WS.match(text, i).end()  # type: ignore[union-attr]
                i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]  # past ':'
                hit = key == part
            else:
                hit = index == part
            if hit:
                found = True
                break
            _, i = _DECODER.raw_decode(text, i)
            i = _WS.match(text, i).end()  # type: ignore[union-attr]
            if i < len(text) and text[i] == ",":
                i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
            index += 1
        if not found:
            return i
    return i
