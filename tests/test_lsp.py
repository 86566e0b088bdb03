"""``ferrovia lsp`` in a real Language Server Protocol session.

pygls' client starts ``python -m ferrovia lsp`` as a subprocess and speaks JSON-RPC to it over
stdio, as an editor does: initialize, open files of a copy of gamedata/1858 (and of a variant
extending it), change them, and read the diagnostics, hovers and definitions that come back.
Every wait has a timeout, so a broken server fails the test instead of hanging it.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from conftest import GAMEDATA
from ferrovia.authoring.lsp import diagnostics_for
from ferrovia.errors import DataError
from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

WAIT = 10.0  # seconds; generous for a loaded CI machine (a warm check takes ~0.1 s)
T = TypeVar("T")


class Session:
    """A client with the latest diagnostics per URI, and a way to wait for new ones."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.client = LanguageClient("ferrovia-test", "1")
        self.diagnostics: dict[str, list[lsp.Diagnostic]] = {}
        self.changed = asyncio.Event()
        self.versions: dict[str, int] = {}

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(ls: Any, params: lsp.PublishDiagnosticsParams) -> None:
            self.diagnostics[params.uri] = list(params.diagnostics)
            self.changed.set()

    async def start(self) -> None:
        await self.client.start_io(sys.executable, "-m", "ferrovia", "lsp", cwd=str(self.root))
        result = await asyncio.wait_for(
            self.client.initialize_async(
                lsp.InitializeParams(
                    capabilities=lsp.ClientCapabilities(),
                    root_uri=from_fs_path(str(self.root)),
                )
            ),
            WAIT,
        )
        assert result.server_info is not None and result.server_info.name == "ferrovia"
        assert result.capabilities.hover_provider
        assert result.capabilities.definition_provider
        self.client.initialized(lsp.InitializedParams())

    async def stop(self) -> None:
        try:
            await asyncio.wait_for(self.client.shutdown_async(None), WAIT)
            self.client.exit(None)
        finally:
            await self.client.stop()

    def open(self, path: Path) -> str:
        uri = from_fs_path(str(path))
        assert uri
        self.versions[uri] = 1
        self.client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(
                text_document=lsp.TextDocumentItem(
                    uri=uri, language_id="yaml", version=1, text=path.read_text(encoding="utf-8")
                )
            )
        )
        return uri

    def change(self, uri: str, text: str) -> None:
        self.versions[uri] += 1
        self.client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(
                    uri=uri, version=self.versions[uri]
                ),
                content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    async def until(self, test: Callable[[], bool], what: str) -> None:
        """Wait for diagnostics that pass ``test``."""

        async def wait() -> None:
            while not test():
                self.changed.clear()
                await self.changed.wait()

        try:
            await asyncio.wait_for(wait(), WAIT)
        except TimeoutError:
            pytest.fail(f"no {what} within {WAIT} s; last diagnostics: {self.diagnostics}")

    async def hover(self, uri: str, line: int, col: int) -> str:
        found = await asyncio.wait_for(
            self.client.text_document_hover_async(
                lsp.HoverParams(
                    text_document=lsp.TextDocumentIdentifier(uri=uri),
                    position=lsp.Position(line=line, character=col),
                )
            ),
            WAIT,
        )
        assert found is not None, f"no hover at {line}:{col}"
        assert isinstance(found.contents, lsp.MarkupContent)
        return found.contents.value

    async def definition(self, uri: str, line: int, col: int) -> lsp.Location:
        found = await asyncio.wait_for(
            self.client.text_document_definition_async(
                lsp.DefinitionParams(
                    text_document=lsp.TextDocumentIdentifier(uri=uri),
                    position=lsp.Position(line=line, character=col),
                )
            ),
            WAIT,
        )
        assert isinstance(found, lsp.Location), found
        return found


def _run(body: Callable[[Session], Awaitable[T]], root: Path) -> T:
    async def main() -> T:
        session = Session(root)
        await session.start()
        try:
            return await body(session)
        finally:
            await session.stop()

    return asyncio.run(main())


def _find(text: str, needle: str, after: str = "") -> tuple[int, int]:
    """0-based (line, column) of ``needle`` in the first line containing ``after``+``needle``."""
    for i, line in enumerate(text.splitlines()):
        if after + needle in line:
            return i, line.index(after + needle) + len(after)
    raise AssertionError(f"{after + needle!r} not in the text")


def _span(d: lsp.Diagnostic) -> tuple[int, int, int, int]:
    r = d.range
    return r.start.line, r.start.character, r.end.line, r.end.character


@pytest.fixture
def games(tmp_path: Path) -> Path:
    root = tmp_path / "games"
    shutil.copytree(GAMEDATA / "1858", root / "1858")
    shutil.copytree(GAMEDATA / "tilesets", root / "tilesets")
    return root


def test_errors_as_the_author_types_then_hover_and_definitions(games: Path) -> None:
    game = games / "1858"
    map_text = (game / "map.yaml").read_text(encoding="utf-8")
    privates_text = (game / "privates.yaml").read_text(encoding="utf-8")

    async def body(s: Session) -> None:
        map_uri = s.open(game / "map.yaml")
        privates_uri = s.open(game / "privates.yaml")
        await s.until(lambda: s.diagnostics.get(map_uri) == [], "clean diagnostics on open")
        assert s.diagnostics.get(privates_uri, []) == []

        # a bad tile code (edge 7) and a bad hex reference, typed but not saved
        bad_map = map_text.replace(
            "path=a:0,b:_0;path=a:3,b:_0;path=a:4", "path=a:7,b:_0;path=a:3,b:_0;path=a:4", 1
        )
        assert bad_map != map_text
        bad_privates = privates_text.replace("home_hexes: [O8]", "home_hexes: [Z99]", 1)
        assert bad_privates != privates_text
        s.change(map_uri, bad_map)
        s.change(privates_uri, bad_privates)
        await s.until(
            lambda: bool(s.diagnostics.get(map_uri)) and bool(s.diagnostics.get(privates_uri)),
            "diagnostics for both edits",
        )
        line, col = _find(bad_map, "7", after="path=a:")
        [code_error] = s.diagnostics[map_uri]
        assert _span(code_error) == (line, col, line, col + 1)
        assert code_error.message == (
            "tile code: path a: expected an edge 0-5 or a node reference _N, got '7'"
        )
        assert code_error.severity == lsp.DiagnosticSeverity.Error
        assert code_error.source == "ferrovia"
        line, col = _find(bad_privates, "Z99")
        hex_error, blocked = s.diagnostics[privates_uri]  # B&M still blocks O8, now not home
        assert _span(hex_error) == (line, col, line, col + 3)
        assert hex_error.message == "no hex 'Z99' on the map"
        line, col = _find(bad_privates, "O8", after="blocks_hexes: [")
        assert _span(blocked) == (line, col, line, col + 2)
        assert blocked.message == "O8 is not one of its home hexes"
        assert not (game / "privates.yaml").read_text(encoding="utf-8").count("Z99")  # unsaved

        # fixing them clears them
        s.change(map_uri, map_text)
        s.change(privates_uri, privates_text)
        await s.until(
            lambda: s.diagnostics.get(map_uri) == [] and s.diagnostics.get(privates_uri) == [],
            "cleared diagnostics",
        )

        # hover: a tile code in words, a hex coordinate's contents
        line, col = _find(map_text, "city=revenue:40,slots:2")
        words = await s.hover(map_uri, line, col + 3)
        assert words.startswith("**tile code**")
        assert "- city 1: revenue 40, 2 slots" in words
        assert "- track: edge 0 – city 1, edge 3 – city 1, edge 4 – city 1" in words
        assert "- label L" in words
        line, col = _find(privates_text, "H11", after="home_hexes: [")
        words = await s.hover(privates_uri, line, col + 1)
        assert words.startswith("**hex H11 Madrid** (yellow)")
        assert "- city 3: revenue 40, 1 slot, groups Madrid" in words
        assert "- home of M&A" in words
        assert f"defined at {game / 'map.yaml'}:" in words

        # go to definition: a private's home hex, a tile name
        where = await s.definition(privates_uri, line, col + 1)
        hex_line, hex_col = _find(map_text, "H11:", after="  ")
        assert where.uri == from_fs_path(str(game / "map.yaml"))
        assert (where.range.start.line, where.range.start.character) == (hex_line, hex_col)
        tiles_uri = s.open(game / "tiles.yaml")
        tiles_text = (game / "tiles.yaml").read_text(encoding="utf-8")
        line, col = _find(tiles_text, "57'", after="'")
        where = await s.definition(tiles_uri, line, col)
        tileset = (games / "tilesets" / "standard.yaml").read_text(encoding="utf-8")
        assert where.uri == from_fs_path(str(games / "tilesets" / "standard.yaml"))
        assert where.range.start.line == _find(tileset, "'57':")[0]
        words = await s.hover(tiles_uri, line, col)
        assert words.startswith("**tile 57** (yellow, unlimited in the game)")
        assert "- city 1: revenue 20, 1 slot" in words

    _run(body, games)


def test_a_variant_reports_in_its_own_files_and_reaches_its_base(games: Path) -> None:
    variant = games / "cheap"
    variant.mkdir()
    (variant / "game.yaml").write_text("extends: '1858'\nname: cheap\ntitle: Cheap\n")
    (variant / "privates.yaml").write_text("privates:\n  - {symbol: B&M, home_hexes: [O8, H11]}\n")

    async def body(s: Session) -> None:
        uri = s.open(variant / "privates.yaml")
        game_uri = s.open(variant / "game.yaml")
        await s.until(lambda: s.diagnostics.get(uri) == [], "clean diagnostics")
        s.change(uri, "privates:\n  - {symbol: B&M, home_hexes: [O8, H12]}\n")
        await s.until(lambda: bool(s.diagnostics.get(uri)), "the variant's error")
        [error] = s.diagnostics[uri]
        assert _span(error) == (1, 35, 1, 38)
        assert error.message == "no hex 'H12' on the map"
        # a hex the variant does not change is found in the base's map
        where = await s.definition(uri, 1, 31)
        assert where.uri == from_fs_path(str(games / "1858" / "map.yaml"))
        # extends: goes to the base
        where = await s.definition(game_uri, 0, 11)
        assert where.uri == from_fs_path(str(games / "1858" / "game.yaml"))
        assert "1858" in await s.hover(game_uri, 0, 11)

    _run(body, games)


def test_diagnostic_ranges_count_utf16_units() -> None:
    # LSP columns are UTF-16 units: a character outside the BMP counts two
    [d] = diagnostics_for([DataError("f", 1, 9, "x")], ["name: 🚂 bad"])
    assert _span(d) == (0, 9, 0, 12)
