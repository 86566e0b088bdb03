"""``ferrovia lsp``: Ferrovia's own checks in the editor, as the author types.

A Language Server Protocol server (pygls) over stdin/stdout.  When a game file is opened or
changed, every game that the open files belong to is validated exactly as ``ferrovia
validate`` does (:func:`ferrovia.data.validate.validate_game`), with the editor's unsaved buffers
read in place of the files on disk (:func:`ferrovia.data.loader.unsaved_texts`), and each error is
published at its range in the file it names: the game's own files, a variant's overlays and
the bases they extend, the tile set.  An error inside a tile code covers the offending part.

Hover: on a tile code, the tile in words (track, cities, revenues); on a tile name, that tile;
on a hex coordinate, what is printed there.  Go to definition: a tile name goes to its code
(the game's tiles.yaml or the tile set), a hex coordinate (a private's home hex, a
reservation, a province city...) to its entry in map.yaml, ``extends:`` to the base's
game.yaml.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ferrovia import __version__
from ferrovia.authoring.describe import describe_tile
from ferrovia.authoring.yamlnav import Scalar, scalar_at, word_end
from ferrovia.data.loader import YamlDoc, load_yaml, read_source, unsaved_texts
from ferrovia.data.overlay import MergedDoc, base_dir, load_part
from ferrovia.data.validate import find_games, validate_game
from ferrovia.errors import DataError
from ferrovia.notation.errors import NotationError
from ferrovia.notation.parser import parse
from ferrovia.paths import gamedata_root
from ferrovia.schemas import GameFile, MapFile, PrivatesFile, TilesFile
from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

__all__ = ["GameFiles", "build_server", "diagnostics_for", "game_dirs_of"]

DEBOUNCE = 0.05
"""Seconds to wait after a change for the next keystroke before checking."""

_COORD = re.compile(r"^[A-Z]{1,2}[0-9]{1,3}$")
_KINDS = ("map", "tiles", "privates", "companies", "trains", "phases", "market", "options")


def _absolute(file: str) -> Path:
    """A file as validate names it (relative to the working directory, or absolute)."""
    path = Path(file)
    return path if path.is_absolute() else Path.cwd() / path


def game_dirs_of(path: Path) -> list[Path]:
    """The games a file belongs to: its own directory's, or every game next to a tile set."""
    if (path.parent / "game.yaml").is_file():
        return [path.parent.resolve()]
    if path.parent.name == "tilesets":
        return [g.resolve() for g in find_games(path.parent.parent)]
    return []


# ---------------------------------------------------------------------- positions
def _utf16(text: str, col: int) -> int:
    """UTF-16 units before 0-based code-point column ``col`` (LSP's default encoding)."""
    return sum(2 if ord(c) > 0xFFFF else 1 for c in text[:col])


def _from_utf16(text: str, units: int) -> int:
    """0-based code-point column at ``units`` UTF-16 units."""
    n = 0
    for i, c in enumerate(text):
        if n >= units:
            return i
        n += 2 if ord(c) > 0xFFFF else 1
    return len(text)


def _range(lines: list[str], line: int, col: int, end: int) -> lsp.Range:
    """1-based line, 1-based start and end columns (code points) as an LSP range."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return lsp.Range(
        start=lsp.Position(line=max(0, line - 1), character=_utf16(text, col - 1)),
        end=lsp.Position(line=max(0, line - 1), character=_utf16(text, end - 1)),
    )


def diagnostics_for(errors: Iterable[DataError], lines: list[str]) -> list[lsp.Diagnostic]:
    """Each error at its position, covering the word that starts there (a key, a value, the
    offending edge or key inside a tile code)."""
    out = []
    for e in errors:
        text = lines[e.line - 1] if 0 < e.line <= len(lines) else ""
        out.append(
            lsp.Diagnostic(
                range=_range(lines, e.line, e.col, word_end(text, e.col)),
                message=e.message,
                severity=lsp.DiagnosticSeverity.Error,
                source="ferrovia",
            )
        )
    return out


# ---------------------------------------------------------------------- what a game holds
@dataclass(frozen=True)
class Place:
    """Where something is written: an absolute file, 1-based line and column, and length."""

    file: Path
    line: int
    col: int
    length: int = 1


class GameFiles:
    """One game's merged files, to answer what a name or a coordinate refers to.

    Build it inside :func:`~ferrovia.data.loader.unsaved_texts` to see the editor's buffers.
    """

    def __init__(self, game_dir: Path) -> None:
        self.dir = game_dir.resolve()
        shown = str(self.dir)
        game, _, _ = load_part(self.dir, shown, "game.yaml", "game", GameFile)
        data = game.data if game is not None and isinstance(game.data, dict) else {}
        self.game = data
        files = data.get("files")
        self.files = {k: f"{k}.yaml" for k in _KINDS}
        if isinstance(files, dict):
            self.files.update({k: v for k, v in files.items() if isinstance(v, str)})
        self.map, _, _ = load_part(self.dir, shown, self.files["map"], "map", MapFile)
        self.tiles, _, _ = load_part(self.dir, shown, self.files["tiles"], "tiles", TilesFile)
        self.privates, _, _ = load_part(
            self.dir, shown, self.files["privates"], "privates", PrivatesFile
        )
        self.tileset_path: Path | None = None
        self.tileset: YamlDoc | None = None
        name = data.get("tileset")
        if isinstance(name, str) and name:
            local = self.dir.parent / "tilesets" / f"{name}.yaml"
            path = local if local.is_file() else gamedata_root() / "tilesets" / f"{name}.yaml"
            if path.is_file():
                self.tileset_path = path.resolve()
                self.tileset, _ = load_yaml(path, str(self.tileset_path))

    def kind_of(self, path: Path) -> str | None:
        path = path.resolve()
        if path == self.tileset_path:
            return "tileset"
        if path.parent != self.dir:
            return None
        if path.name == "game.yaml":
            return "game"
        return next((k for k, f in self.files.items() if f == path.name), None)

    # ------------------------------------------------------------------ lookups
    @staticmethod
    def _entry(doc: YamlDoc | None, collection: str, key: str) -> tuple[Any, Place] | None:
        """The entry ``key`` of a top-level mapping and where its key is written."""
        if doc is None or not isinstance(doc.data, dict):
            return None
        entries = doc.data.get(collection)
        if not isinstance(entries, dict):
            return None
        found = next((k for k in entries if str(k) == key), None)
        if found is None:
            return None
        file = doc.origin(entries, found) if isinstance(doc, MergedDoc) else doc.file
        try:
            lc: Any = getattr(entries, "lc", None)
            line, col = lc.key(found)
        except (AttributeError, KeyError, TypeError):
            line, col = 0, 0
        return entries[found], Place(_absolute(file), line + 1, col + 1, len(key))

    def hex(self, coord: str) -> tuple[Any, Place] | None:
        return self._entry(self.map, "hexes", coord)

    def privates_at(self, coord: str) -> list[str]:
        """The privates whose home hexes include ``coord``."""
        data = self.privates.data if self.privates is not None else None
        entries = data.get("privates") if isinstance(data, dict) else None
        return [
            str(p.get("symbol"))
            for p in entries or []
            if isinstance(p, dict) and coord in (p.get("home_hexes") or [])
        ]

    def tile(self, name: str) -> tuple[dict[str, Any], Place] | None:
        """The tile named: its fields (manifest over tile set) and where its code is given."""
        own = self._entry(self.tiles, "tiles", name)
        shared = self._entry(self.tileset, "tiles", name)
        fields: dict[str, Any] = {}
        place = None
        for found in (shared, own):
            if found is not None and isinstance(found[0], dict):
                fields.update(found[0])
                if "code" in found[0] or place is None:
                    place = found[1]
        if own is not None and shared is not None and "code" not in own[0]:
            place = shared[1]  # the manifest only counts it: its code is in the tile set
        return (fields, place) if place is not None else None


# ---------------------------------------------------------------------- what is under a cursor
def classify(kind: str | None, found: Scalar) -> str | None:
    """What a scalar names in a file of ``kind``: ``code``, ``tile``, ``hex``, ``extends``."""
    path, value = found.path, str(found.value)
    if kind == "game" and path == ("extends",) and not found.key:
        return "extends"
    if kind in ("map", "tiles", "tileset") and path and path[-1] == "code" and not found.key:
        return "code"
    if kind in ("tiles", "tileset") and len(path) == 2 and path[0] == "tiles" and found.key:
        return "tile"
    if kind == "tiles" and len(path) == 4 and path[0] == "tiles" and path[2] == "upgrades_to":
        return "tile"
    if path[:2] == ("remove", "tiles") and not found.key:
        return "tile"
    if kind == "tiles" and path[:2] == ("upgrades", "hexes"):
        return "hex" if found.key else "tile"
    if kind == "map" and len(path) == 2 and path[0] == "hexes" and found.key:
        return "hex"
    if not found.key and _COORD.match(value):
        return "hex"
    return None


def _code_words(code: Any) -> str:
    if not isinstance(code, str):
        return ""
    try:
        return describe_tile(parse(code, strict=True))
    except NotationError as exc:
        return f"not a valid tile code: {exc.message} (column {exc.col})"


def hover_text(game: GameFiles, kind: str | None, found: Scalar) -> str | None:
    """Markdown for what the cursor is on, or None."""
    what = classify(kind, found)
    value = str(found.value)
    if what == "code":
        return f"**tile code**\n\n{_code_words(found.value)}"
    if what == "tile":
        tile = game.tile(value)
        if tile is None:
            return f"no tile {value!r} in the manifest or the tile set"
        fields, place = tile
        count = fields.get("count")
        bits = [str(fields.get("color", "")), f"{count} in the game" if count else ""]
        head = ", ".join(b for b in bits if b)
        return (
            f"**tile {value}**{f' ({head})' if head else ''}\n\n{_code_words(fields.get('code'))}"
            f"\n\n{_where(place)}"
        )
    if what == "hex":
        hexdata = game.hex(value)
        if hexdata is None:
            return f"no hex {value!r} on the map"
        data, place = hexdata
        if not isinstance(data, dict):
            return f"**hex {value}**\n\n{_where(place)}"
        name = f" {data['name']}" if data.get("name") else ""
        color = f" ({data['color']})" if data.get("color") else ""
        words = _code_words(data.get("code", ""))
        homes = game.privates_at(value)
        home = f"\n- home of {', '.join(homes)}" if homes else ""
        return f"**hex {value}{name}**{color}\n\n{words}{home}\n\n{_where(place)}"
    if what == "extends":
        base = base_dir(game.dir, value)
        return f"**extends** the game in {base}"
    return None


def _where(place: Place) -> str:
    return f"defined at {place.file}:{place.line}:{place.col}"


def definition_of(game: GameFiles, kind: str | None, found: Scalar) -> Place | None:
    what = classify(kind, found)
    value = str(found.value)
    if what == "tile":
        tile = game.tile(value)
        return tile[1] if tile else None
    if what == "hex":
        hexdata = game.hex(value)
        return hexdata[1] if hexdata else None
    if what == "extends":
        target = base_dir(game.dir, value) / "game.yaml"
        return Place(target.resolve(), 1, 1, 0) if target.is_file() else None
    return None


# ---------------------------------------------------------------------- the server
class FerroviaServer(LanguageServer):
    """Keeps what it published, to clear a file's diagnostics once its errors are gone."""

    def __init__(self) -> None:
        super().__init__(
            "ferrovia", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Full
        )
        self.published: dict[str, list[lsp.Diagnostic]] = {}
        self.generation = 0
        self.lock = asyncio.Lock()

    def open_texts(self) -> dict[Path, str]:
        """The editor's buffers, by file path (what to validate instead of the disk)."""
        out: dict[Path, str] = {}
        for uri, document in self.workspace.text_documents.items():
            path = to_fs_path(uri)
            if path:
                out[Path(path)] = document.source
        return out

    def open_uris(self) -> dict[Path, str]:
        """Resolved path -> the URI the editor uses for it (diagnostics go back under it)."""
        out: dict[Path, str] = {}
        for uri in self.workspace.text_documents:
            path = to_fs_path(uri)
            if path:
                out[Path(path).resolve()] = uri
        return out

    def check(
        self, texts: dict[Path, str], uris: dict[Path, str]
    ) -> dict[str, list[lsp.Diagnostic]]:
        """Validate every game of the open files; diagnostics by file URI."""
        games: dict[Path, None] = {}
        for path in texts:
            for game in game_dirs_of(path):
                games.setdefault(game)
        by_file: dict[Path, list[DataError]] = {}
        with unsaved_texts(texts):
            for game in games:
                for e in validate_game(game, str(game)).errors:
                    errors = by_file.setdefault(_absolute(e.file).resolve(), [])
                    if all(str(e) != str(x) for x in errors):  # a base shared by two games
                        errors.append(e)
            out: dict[str, list[lsp.Diagnostic]] = {}
            for path, errors in by_file.items():
                try:
                    lines = read_source(path).splitlines()
                except (OSError, UnicodeDecodeError):
                    lines = []
                uri = uris.get(path) or from_fs_path(str(path)) or path.as_uri()
                out[uri] = diagnostics_for(errors, lines)
        for uri in uris.values():
            out.setdefault(uri, [])  # an open file without errors: say so
        return out

    async def revalidate(self) -> None:
        self.generation += 1
        mine = self.generation
        await asyncio.sleep(DEBOUNCE)
        if mine != self.generation:
            return  # another keystroke came: that one's check will run
        async with self.lock:
            found = await asyncio.to_thread(self.check, self.open_texts(), self.open_uris())
            for uri in sorted(set(self.published) | set(found)):
                diagnostics = found.get(uri, [])
                if uri in self.published and self.published[uri] == diagnostics:
                    continue
                self.text_document_publish_diagnostics(
                    lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics)
                )
            self.published = found

    def lookup(
        self, uri: str, position: lsp.Position
    ) -> tuple[GameFiles, str | None, Scalar] | None:
        """The game, the file's kind and the scalar at an editor position."""
        path_text = to_fs_path(uri)
        if not path_text:
            return None
        path = Path(path_text)
        games = game_dirs_of(path)
        if not games:
            return None
        texts = self.open_texts()
        source = self.workspace.get_text_document(uri).source
        with unsaved_texts(texts):
            game = GameFiles(games[0])
            doc, _ = load_yaml(path, str(path))
        if doc is None:
            return None
        lines = source.splitlines()
        text = lines[position.line] if position.line < len(lines) else ""
        found = scalar_at(doc, position.line + 1, _from_utf16(text, position.character) + 1)
        if found is None:
            return None
        return game, game.kind_of(path), found


def build_server() -> FerroviaServer:
    server = FerroviaServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: FerroviaServer, params: lsp.DidOpenTextDocumentParams) -> None:
        await ls.revalidate()

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: FerroviaServer, params: lsp.DidChangeTextDocumentParams) -> None:
        await ls.revalidate()

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: FerroviaServer, params: lsp.DidSaveTextDocumentParams) -> None:
        await ls.revalidate()

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: FerroviaServer, params: lsp.DidCloseTextDocumentParams) -> None:
        await ls.revalidate()

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: FerroviaServer, params: lsp.HoverParams) -> lsp.Hover | None:
        found = ls.lookup(params.text_document.uri, params.position)
        if found is None:
            return None
        game, kind, scalar = found
        text = hover_text(game, kind, scalar)
        if text is None:
            return None
        lines = ls.workspace.get_text_document(params.text_document.uri).source.splitlines()
        return lsp.Hover(
            contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text),
            range=_range(lines, scalar.line, scalar.col, scalar.end),
        )

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: FerroviaServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        found = ls.lookup(params.text_document.uri, params.position)
        if found is None:
            return None
        place = definition_of(*found)
        if place is None:
            return None
        try:
            with unsaved_texts(ls.open_texts()):
                lines = read_source(place.file).splitlines()
        except (OSError, UnicodeDecodeError):
            lines = []
        return lsp.Location(
            uri=from_fs_path(str(place.file)) or place.file.as_uri(),
            range=_range(lines, place.line, place.col, place.col + place.length),
        )

    return server


def serve_stdio() -> None:
    """Run the server on stdin/stdout until the client says exit."""
    build_server().start_io()
