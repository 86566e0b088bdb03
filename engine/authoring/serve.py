"""``ferrovia serve``: a live preview of a game being authored, in the browser.

One local page shows the map, the tile manifest and the validation errors (each pinned to its
hex where it has one); clicking a hex shows its YAML and where it is written.  The game's
directories (a variant's and its bases', and the tile sets) are watched (watchfiles); after a
saved change the preview is rebuilt and the page is told over server-sent events
(``/events``), then fetches ``/state.json`` (its ETag is the preview's version).  It binds
127.0.0.1 unless told otherwise.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from ferrovia.authoring.yamlnav import scalar_at
from ferrovia.data.loader import YamlDoc, load_yaml
from ferrovia.data.overlay import MergedDoc, game_chain, load_part
from ferrovia.data.validate import coord_xy, validate_game
from ferrovia.errors import DataError
from ferrovia.notation import models as m
from ferrovia.notation.errors import NotationError
from ferrovia.notation.parser import parse
from ferrovia.paths import gamedata_root
from ferrovia.schemas import MapFile

__all__ = ["Preview", "make_server", "snapshot"]


def _absolute(file: str) -> Path:
    path = Path(file)
    return (path if path.is_absolute() else Path.cwd() / path).resolve()


@dataclass
class HexSource:
    """Where a hex is written: file, first and last line (1-based) of its entry, its YAML."""

    file: str
    line: int
    last: int
    yaml: str


def _entry_lines(lines: list[str], line: int, col: int) -> tuple[int, int]:
    """First and last 0-based line of the mapping entry whose key is at ``line``/``col``, with
    the comment lines just above it."""
    last = line
    for i in range(line + 1, len(lines)):
        text = lines[i]
        if not text.strip():
            break
        indent = len(text) - len(text.lstrip())
        if indent <= col:
            break
        last = i
    first = line
    while first > 0 and lines[first - 1].strip().startswith("#"):
        above = lines[first - 1]
        if len(above) - len(above.lstrip()) != col:
            break
        first -= 1
    return first, last


def hex_sources(doc: YamlDoc | None) -> dict[str, HexSource]:
    """Coordinate -> where its entry is written (the variant's file or its base's)."""
    out: dict[str, HexSource] = {}
    if doc is None or not isinstance(doc.data, dict):
        return out
    hexes = doc.data.get("hexes")
    if not isinstance(hexes, dict):
        return out
    lc: Any = getattr(hexes, "lc", None)
    for coord in hexes:
        file = doc.origin(hexes, coord) if isinstance(doc, MergedDoc) else doc.file
        lines = doc.sources.get(file, []) if isinstance(doc, MergedDoc) else doc.lines
        try:
            line, col = lc.key(coord)
        except (AttributeError, KeyError, TypeError):
            continue
        first, last = _entry_lines(lines, line, col)
        yaml = "\n".join(lines[first : last + 1])
        out[str(coord)] = HexSource(file, line + 1, last + 1, yaml)
    return out


_NAMED_HEX = re.compile(r"\bhex '?([A-Z]{1,2}[0-9]{1,3})\b")


def pin(error: DataError, sources: dict[str, HexSource]) -> str | None:
    """The hex an error belongs to: the map entry it is in, a coordinate it points at, or a
    hex it names; None when it has none."""
    where = _absolute(error.file)
    for coord, source in sources.items():
        if _absolute(source.file) == where and source.line <= error.line <= source.last:
            return coord
    doc, _ = load_yaml(where, error.file)
    if doc is not None:
        found = scalar_at(doc, error.line, error.col)
        if found is not None and str(found.value) in sources:
            return str(found.value)
    named = _NAMED_HEX.search(error.message)
    if named and named.group(1) in sources:
        return named.group(1)
    return None


def _board(game_dir: Path, doc: YamlDoc | None, definition: Any, last: Any) -> Any:
    """What to draw: the validated game, else the hexes as written (bad codes left blank) with
    the last good drawing's tiles and privates."""
    from ferrovia.render.source import BoardSource, MapHex, board_from_definition

    if definition is not None:
        return board_from_definition(definition)
    if doc is None or not isinstance(doc.data, dict) or not isinstance(doc.data.get("hexes"), dict):
        return None
    hexes = []
    for coord, spec in doc.data["hexes"].items():
        if coord_xy(str(coord)) is None:
            continue
        spec = spec if isinstance(spec, dict) else {}
        try:
            tile = parse(str(spec.get("code") or ""))
        except NotationError:
            tile = m.Tile()
        name = spec.get("name")
        hexes.append(
            MapHex(
                str(coord),
                str(spec.get("color", "white")),
                tile,
                str(name) if name is not None else None,
            )
        )
    if not hexes:
        return None
    layout = doc.data.get("layout") or (last.layout if last else "flat")
    return BoardSource(
        title=last.title if last else game_dir.name,
        layout=str(layout),
        hexes=tuple(hexes),
        tiles=last.tiles if last else (),
        privates=last.privates if last else (),
        icon_prefix=last.icon_prefix if last else "",
        company_colors=last.company_colors if last else {},
        market_spaces=last.market_spaces if last else (),
    )


@dataclass
class Preview:
    """The current preview of one game, rebuilt after each change."""

    game_dir: Path
    version: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    board: Any = None
    """The last board drawn from a valid game (its tiles stand in while the game is broken)."""
    manifest: tuple[Any, str] = (None, "")
    """The tile manifest last drawn, and what it was drawn from."""
    changed: threading.Condition = field(default_factory=threading.Condition)
    stopping: bool = False

    def rebuild(self) -> None:
        try:
            state = snapshot(self, self.board)
        except Exception as exc:  # a bug here must not stop the preview following the files
            state = {
                **self.state,
                "render_error": f"cannot check the game: {type(exc).__name__}: {exc}",
            }
        with self.changed:
            self.version += 1
            state["version"] = self.version
            self.state = state
            self.changed.notify_all()

    def watched(self) -> list[Path]:
        """Directories whose YAML files make up the game."""
        paths = {d.resolve() for d, _ in game_chain(self.game_dir)}
        for directory in list(paths):
            tilesets = directory.parent / "tilesets"
            if tilesets.is_dir():
                paths.add(tilesets.resolve())
        paths.add((gamedata_root() / "tilesets").resolve())
        return sorted(p for p in paths if p.is_dir())


def snapshot(preview: Preview, last: Any) -> dict[str, Any]:
    """The page's data: map and manifest SVG, errors with their hexes, each hex's source."""
    from ferrovia.render.manifest_svg import render_manifest
    from ferrovia.render.map_svg import render_map

    game_dir = preview.game_dir
    result = validate_game(game_dir)
    map_name = "map.yaml"
    if result.definition is not None:
        map_name = result.definition.game.files.map
    doc, _, _ = load_part(game_dir, result.shown, map_name, "map", MapFile)
    sources = hex_sources(doc)
    errors = [
        {
            "where": f"{e.file}:{e.line}:{e.col}",
            "file": e.file,
            "line": e.line,
            "col": e.col,
            "message": e.message,
            "hex": pin(e, sources),
        }
        for e in result.errors
    ]
    state: dict[str, Any] = {
        "game": result.shown,
        "title": result.title or game_dir.name,
        "ok": result.ok,
        "counts": result.counts,
        "errors": errors,
        "hexes": {
            coord: {"where": f"{s.file}:{s.line}", "yaml": s.yaml} for coord, s in sources.items()
        },
        "map": None,
        "tiles": None,
        "render_error": None,
    }
    try:
        board = _board(game_dir, doc, result.definition, last)
        if board is not None:
            state["map"] = _inline(render_map(board, scale=0.4))
            if board.tiles:
                # most saves change the map, not the tiles: draw the manifest only when needed
                key = (board.title, board.tiles)
                if preview.manifest[0] != key:
                    preview.manifest = (key, _inline(render_manifest(board, scale=0.35)))
                state["tiles"] = preview.manifest[1]
            if result.definition is not None:
                preview.board = board
    except Exception as exc:  # a half-typed game must not stop the preview
        state["render_error"] = f"cannot draw the map: {type(exc).__name__}: {exc}"
    return state


def _inline(svg: str) -> str:
    """An SVG document as markup to put inside the page (no XML declaration)."""
    if svg.startswith("<?xml"):
        svg = svg.split("?>", 1)[1].lstrip()
    return svg


# ---------------------------------------------------------------------- HTTP
class _Handler(BaseHTTPRequestHandler):
    preview: Preview
    server_version = "ferrovia-serve"

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the page polls
        return

    def _send(self, status: int, body: bytes, kind: str, headers: dict[str, str]) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        if body:
            self.wfile.write(body)

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/":
            self._send(200, PAGE.encode(), "text/html; charset=utf-8", {})
        elif path == "/state.json":
            with self.preview.changed:
                state, version = self.preview.state, self.preview.version
            etag = f'"{version}"'
            if self.headers.get("If-None-Match") == etag:
                self._send(HTTPStatus.NOT_MODIFIED, b"", "application/json", {"ETag": etag})
                return
            body = json.dumps(state, ensure_ascii=False).encode()
            self._send(200, body, "application/json; charset=utf-8", {"ETag": etag})
        elif path == "/events":
            self._events()
        else:
            self._send(404, b"not found\n", "text/plain; charset=utf-8", {})

    def _events(self) -> None:
        """Server-sent events: the preview's version now and after every change."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        preview = self.preview
        seen = -1
        try:
            while not preview.stopping:
                with preview.changed:
                    if preview.version == seen:
                        preview.changed.wait(timeout=15)
                    version = preview.version
                if version != seen:
                    self.wfile.write(f"data: {version}\n\n".encode())
                    seen = version
                else:
                    self.wfile.write(b": still here\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return


def make_server(preview: Preview, host: str, port: int) -> ThreadingHTTPServer:
    handler = type("Handler", (_Handler,), {"preview": preview})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def _only_yaml(change: Any, path: str) -> bool:
    return path.endswith((".yaml", ".yml"))


def watch(preview: Preview, stop: threading.Event, ready: threading.Event | None = None) -> None:
    """Rebuild the preview after each saved change, until ``stop`` is set; ``ready`` is set
    once the files are watched (a change saved before that would go unseen)."""
    from watchfiles import watch as watch_files

    while not stop.is_set():
        paths = preview.watched()
        for changes in watch_files(
            *paths,
            watch_filter=_only_yaml,
            debounce=100,
            step=30,
            stop_event=stop,
            rust_timeout=200,
            yield_on_timeout=True,
            raise_interrupt=False,
        ):
            if not changes:  # a quiet interval: the watcher is in place
                if ready is not None and not ready.is_set():
                    preview.rebuild()  # what was saved while it started
                    ready.set()
                continue
            preview.rebuild()
            if preview.watched() != paths:
                break  # extends: changed: watch the new chain of bases


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ferrovia preview</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 0; display: grid;
       grid-template-columns: minmax(0, 1fr) 380px; height: 100vh; }
main { overflow: auto; padding: 8px 12px; }
aside { overflow: auto; border-left: 1px solid #ccc; padding: 8px 12px; background: #fafafa; }
h1 { font-size: 18px; margin: 4px 0 8px; } h2 { font-size: 15px; margin: 14px 0 6px; }
#status.ok { color: #176117; } #status.bad { color: #a11; }
#errors { padding-left: 18px; } #errors li { margin: 4px 0; cursor: default; }
#errors li[data-hex] { cursor: pointer; } #errors .where { font-family: monospace; color: #555; }
.hex-cell { cursor: pointer; }
.hex-cell.has-error > * { opacity: 0.85; }
.pin { fill: #d11; stroke: white; stroke-width: 4; pointer-events: none; }
.hex-cell.selected polygon { stroke: #06c; stroke-width: 8; }
pre { background: #fff; border: 1px solid #ddd; padding: 6px; white-space: pre-wrap;
      font-size: 12px; }
</style></head>
<body><main><h1 id="title">Ferrovia preview</h1>
<div id="status">loading…</div><div id="render-error"></div>
<div id="map"></div><h2>Tile manifest</h2><div id="tiles"></div></main>
<aside><h2>Errors</h2><ol id="errors"></ol>
<h2>Hex</h2><div id="hex-info">Click a hex to see its YAML.</div></aside>
<script>
(function () {
  "use strict";
  var state = null, etag = null, selected = null;
  var preview = window.ferroviaPreview = { version: 0, updates: 0 };
  function text(id, value) { document.getElementById(id).textContent = value; }
  function showHex(coord) {
    var info = document.getElementById("hex-info");
    var source = state && state.hexes[coord];
    selected = coord;
    document.querySelectorAll(".hex-cell.selected").forEach(function (e) {
      e.classList.remove("selected"); });
    var cell = document.getElementById("hex-" + coord);
    if (cell) { cell.classList.add("selected"); }
    info.textContent = "";
    if (!source) { info.textContent = coord + ": not on the map"; return; }
    var head = document.createElement("div");
    head.id = "hex-where";
    head.textContent = coord + " — " + source.where;
    var pre = document.createElement("pre");
    pre.id = "hex-yaml";
    pre.textContent = source.yaml;
    info.appendChild(head); info.appendChild(pre);
    state.errors.forEach(function (e) {
      if (e.hex === coord) {
        var p = document.createElement("div");
        p.className = "hex-error";
        p.textContent = e.where + ": " + e.message;
        info.appendChild(p);
      }
    });
  }
  function render(s) {
    state = s;
    text("title", s.title + " — " + s.game);
    var status = document.getElementById("status");
    status.className = s.ok ? "ok" : "bad";
    status.textContent = s.ok ? "ok — no errors" : s.errors.length + " error(s)";
    text("render-error", s.render_error || "");
    document.getElementById("map").innerHTML = s.map || "";
    document.getElementById("tiles").innerHTML = s.tiles || "";
    var list = document.getElementById("errors");
    list.textContent = "";
    s.errors.forEach(function (e) {
      var li = document.createElement("li");
      var where = document.createElement("span");
      where.className = "where";
      where.textContent = e.where;
      li.appendChild(where);
      li.appendChild(document.createTextNode(": " + e.message + (e.hex ? " [" + e.hex + "]" : "")));
      if (e.hex) {
        li.dataset.hex = e.hex;
        li.addEventListener("click", function () { showHex(e.hex); });
        var cell = document.getElementById("hex-" + e.hex);
        if (cell && !cell.querySelector(".pin")) {
          cell.classList.add("has-error");
          var pin = document.createElementNS("http://www.w3.org/2000/svg", "circle");
          pin.setAttribute("class", "pin"); pin.setAttribute("r", "22");
          pin.setAttribute("cx", "0"); pin.setAttribute("cy", "0");
          cell.appendChild(pin);
        }
      }
      list.appendChild(li);
    });
    document.querySelectorAll("#map .hex-cell").forEach(function (cell) {
      cell.addEventListener("click", function () { showHex(cell.id.slice(4)); });
    });
    if (selected) { showHex(selected); }
    preview.version = s.version; preview.updates += 1;
  }
  function load() {
    var headers = etag ? { "If-None-Match": etag } : {};
    return fetch("state.json", { headers: headers, cache: "no-store" }).then(function (r) {
      if (r.status === 304) { return; }
      etag = r.headers.get("ETag");
      return r.json().then(render);
    });
  }
  preview.load = load;
  load();
  if (window.EventSource) {
    new EventSource("events").onmessage = function () { load(); };
  } else {
    setInterval(load, 1000);  // no server-sent events: ask, the ETag keeps it cheap
  }
})();
</script></body></html>
"""
