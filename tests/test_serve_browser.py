"""``ferrovia serve`` in headless Chromium: load the page, change a file, see the page change.

The server runs as a subprocess on a free port of 127.0.0.1 over a copy of gamedata/1858; the
browser is driven over the DevTools protocol (the client of tests/test_view_browser.py).
Skipped, with the reason, where Chromium is not installed.  Every wait has a deadline.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import GAMEDATA
from test_view_browser import CHROMIUM_FLAGS, DevTools, _chromium

WAIT = 20.0  # seconds; a change shows within about half a second here


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A copy of 1858 and the URL of ``ferrovia serve`` on it."""
    games = tmp_path / "games"
    shutil.copytree(GAMEDATA / "1858", games / "1858")
    shutil.copytree(GAMEDATA / "tilesets", games / "tilesets")
    proc = subprocess.Popen(
        [sys.executable, "-m", "ferrovia", "serve", str(games / "1858"), "--port", "0"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # the server prints its address once it listens
        assert " at http://127.0.0.1:" in line, line
        url = line.split(" at ", 1)[1].split()[0]
        yield games / "1858", url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _until(test: Callable[[], Any], what: str) -> Any:
    deadline = time.time() + WAIT
    while True:
        value = test()
        if value:
            return value
        if time.time() > deadline:
            pytest.fail(f"{what}: not within {WAIT} s")
        time.sleep(0.05)


def _line_of(key: str) -> int:
    """The line of ``  KEY:`` in the bundled 1858 map.yaml (the data's owners edit the file)."""
    lines = (GAMEDATA / "1858" / "map.yaml").read_text(encoding="utf-8").splitlines()
    return next(n for n, text in enumerate(lines, 1) if text.startswith(f"  {key}:"))


def test_state_is_json_with_an_etag_and_binds_localhost(served: tuple[Path, str]) -> None:
    _, url = served
    with urllib.request.urlopen(url + "state.json", timeout=10) as reply:
        etag = reply.headers["ETag"]
        state = json.load(reply)
    assert state["ok"] is True and state["errors"] == []
    assert state["hexes"]["A14"]["where"].endswith(f"1858/map.yaml:{_line_of('A14')}")
    assert "  A14:\n    color: green\n    name: Lisboa\n" in state["hexes"]["A14"]["yaml"]
    assert state["map"].startswith("<svg") and 'id="hex-A14"' in state["map"]
    request = urllib.request.Request(url + "state.json", headers={"If-None-Match": etag})
    with pytest.raises(urllib.error.HTTPError) as unchanged:
        urllib.request.urlopen(request, timeout=10)
    assert unchanged.value.code == 304


@pytest.fixture
def browser(served: tuple[Path, str], tmp_path: Path) -> Iterator[DevTools]:
    exe = _chromium()
    _, url = served
    profile = tmp_path / "chromium-profile"
    proc = subprocess.Popen(
        [exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0", url],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        port_file = profile / "DevToolsActivePort"
        _until(lambda: port_file.exists() and port_file.read_text().strip(), "DevTools port")
        port = int(port_file.read_text().split()[0])

        def page() -> Any:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
                pages = [t for t in json.load(r) if t.get("type") == "page"]
            return next((t for t in pages if t.get("url", "").startswith(url)), None)

        target = _until(page, "the preview page in Chromium")
        tools = DevTools(target["webSocketDebuggerUrl"])
        _until(
            lambda: tools.js("window.ferroviaPreview && window.ferroviaPreview.updates"),
            "the page's first state",
        )
        yield tools
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _text(tools: DevTools, selector: str) -> str:
    return str(tools.js(f"(document.querySelector({selector!r}) || {{}}).textContent || ''"))


def test_the_page_follows_saved_changes_and_shows_a_hex(
    served: tuple[Path, str], browser: DevTools
) -> None:
    game, _ = served
    b = browser
    assert _text(b, "#status") == "ok — no errors"
    assert b.js("document.querySelectorAll('#map .hex-cell').length") == 127
    assert b.js("document.querySelectorAll('#tiles svg').length") == 1
    assert b.js("document.querySelectorAll('.pin').length") == 0

    # a bad tile code on B3, saved: the error appears, pinned to B3
    map_path = game / "map.yaml"
    good = map_path.read_text(encoding="utf-8")
    version = b.js("window.ferroviaPreview.version")
    map_path.write_text(
        good.replace("  B3: {color: white}", "  B3: {color: white, code: 'city=revenue:x'}"),
        encoding="utf-8",
    )
    _until(lambda: b.js("window.ferroviaPreview.version") > version, "the page after the edit")
    assert _text(b, "#status") == "1 error(s)"
    assert _text(b, "#errors li").startswith(
        f"games/1858/map.yaml:{_line_of('B3')}:42: tile code: city revenue:"
    )
    assert _text(b, "#errors li").endswith("[B3]")
    assert b.js("document.querySelectorAll('#hex-B3 .pin').length") == 1
    assert b.js("document.querySelectorAll('.pin').length") == 1

    # clicking a hex shows its YAML and file:line
    b.js(
        "document.getElementById('hex-A14').dispatchEvent(new MouseEvent('click', {bubbles: true}))"
    )
    assert _text(b, "#hex-where") == f"A14 — games/1858/map.yaml:{_line_of('A14')}"
    assert "name: Lisboa" in _text(b, "#hex-yaml")
    b.js("document.querySelector('#errors li[data-hex]').click()")
    assert _text(b, "#hex-where") == f"B3 — games/1858/map.yaml:{_line_of('B3')}"
    assert "city=revenue:x" in _text(b, "#hex-yaml")

    # fixed, with a new town name: the map shows it and the error is gone
    version = b.js("window.ferroviaPreview.version")
    map_path.write_text(
        good.replace(
            "  B3: {color: white}", "  B3: {color: white, name: Ribadeo, code: 'town=revenue:10'}"
        ),
        encoding="utf-8",
    )
    _until(lambda: b.js("window.ferroviaPreview.version") > version, "the page after the fix")
    assert _text(b, "#status") == "ok — no errors"
    assert b.js("document.querySelectorAll('.pin').length") == 0
    assert "Ribadeo" in _text(b, "#hex-B3")
    assert "town=revenue:10" in _text(b, "#hex-yaml")  # the selected hex follows the file
