"""The viewer in a real browser: headless Chromium, driven over the DevTools protocol.

No extra Python packages: the DevTools websocket is spoken with a few lines of standard
library (RFC 6455 framing), so CI only needs Debian's ``chromium`` package. Skipped, with the
reason, where Chromium is not installed.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import GAMEDATA, shared_path
from ferrovia.cli import main

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,1000",
]


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if os.path.exists("/usr/bin/chromium"):
        return "/usr/bin/chromium"
    pytest.skip("headless browser test needs Chromium (Debian: apt-get install chromium)")


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = shared_path("fixtures", "18xx.games", "1858", "219682.json")
    out = tmp_path_factory.mktemp("view") / "game.html"
    assert main(["view", str(game), "-o", str(out), "--game-dir", str(GAMEDATA / "1858")]) == 0
    return out


class DevTools:
    """A minimal Chrome DevTools Protocol client over one websocket (text frames only)."""

    def __init__(self, ws_url: str) -> None:
        match = re.match(r"ws://([^:/]+):(\d+)(/.*)", ws_url)
        assert match, ws_url
        host, port, path = match.group(1), int(match.group(2)), match.group(3)
        self.sock = socket.create_connection((host, port), timeout=20)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("DevTools closed the connection during the handshake")
            head += chunk
        assert b" 101 " in head.split(b"\r\n", 1)[0], head
        self.next_id = 0

    def _send(self, text: str) -> None:
        payload = text.encode()
        header = bytearray([0x81])
        n = len(payload)
        if n < 126:
            header.append(0x80 | n)
        elif n < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        header += mask
        self.sock.sendall(bytes(header) + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _exact(self, n: int) -> bytes:
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("DevTools closed the connection")
            buf += chunk
        return buf

    def _receive(self) -> str:
        message = b""
        while True:
            b0, b1 = self._exact(2)
            n = b1 & 0x7F
            if n == 126:
                (n,) = struct.unpack(">H", self._exact(2))
            elif n == 127:
                (n,) = struct.unpack(">Q", self._exact(8))
            data = self._exact(n)
            if b0 & 0x0F in (0x1, 0x0):
                message += data
                if b0 & 0x80:
                    return message.decode()

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        my_id = self.next_id
        self._send(json.dumps({"id": my_id, "method": method, "params": params}))
        while True:
            reply = json.loads(self._receive())
            if reply.get("id") == my_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result

    def js(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")


@pytest.fixture(scope="module")
def browser(page: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevTools]:
    exe = _chromium()
    profile = tmp_path_factory.mktemp("chromium-profile")
    proc = subprocess.Popen(
        [
            exe,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            "--remote-debugging-port=0",
            page.as_uri(),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.time() + 30
        while not (port_file.exists() and port_file.read_text().strip()):
            if time.time() > deadline or proc.poll() is not None:
                pytest.fail("Chromium did not open its DevTools port")
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        target = None
        while target is None:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
                pages = [t for t in json.load(r) if t.get("type") == "page"]
            target = next((t for t in pages if t.get("url", "").startswith("file:")), None)
            if target is None:
                if time.time() > deadline:
                    pytest.fail("Chromium did not open the viewer page")
                time.sleep(0.1)
        tools = DevTools(target["webSocketDebuggerUrl"])
        while not tools.js("!!window.ferroviaViewer"):
            if time.time() > deadline:
                pytest.fail("the viewer's script did not start")
            time.sleep(0.1)
        yield tools
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _text(tools: DevTools, element_id: str) -> str:
    return str(tools.js(f"document.getElementById({element_id!r}).textContent"))


def test_clicking_through_actions_shows_board_panels_and_log(
    browser: DevTools, tmp_path_factory: pytest.TempPathFactory
) -> None:
    b = browser
    assert _text(b, "current-text") == "Start of the game"
    assert _text(b, "status").startswith("Start (step 0 of ")
    for _ in range(3):
        b.js("document.getElementById('next').click()")
    assert _text(b, "status").startswith("Action 4 (step 3 of ")
    assert _text(b, "current-text") == "Player 3 bids P75 for L&C"
    assert b.js("location.hash") == "#action=4"
    assert b.js("document.querySelector('#log-list li.current').textContent") == (
        "Player 3 bids P75 for L&C"
    )
    # jump to an action: the tile appears on the board in its rotation
    b.js(
        "document.getElementById('jump').value = 79;"
        "document.getElementById('jump-form').requestSubmit()"
    )
    assert _text(b, "current-text") == "P&L lays tile 201 on B9 (Porto), rotation 5, paying P0"
    assert b.js("document.getElementById('hex-B9').getAttribute('data-tile')") == "201"
    assert b.js("document.querySelectorAll('#hex-B9 .track').length") == 2
    assert b.js("document.querySelectorAll('#highlights polygon').length") == 1
    # the panel shows the money (rules engine replay) from the players' table
    players = b.js(
        "Array.from(document.querySelectorAll('#players tr td:first-child'))"
        ".map(function (e) { return e.textContent; })"
    )
    assert len(players) == 4 and all(p.startswith("Player ") for p in players)
    assert re.fullmatch(r"Bank P\d+   Phase \d", _text(b, "bank"))
    assert _text(b, "round").startswith("Operating round 1.")
    assert _text(b, "depot").startswith("Trains for sale: 2H ×")
    # previous goes back one step, and the earlier tile is gone from B9 at the start
    b.js("document.getElementById('prev').click()")
    assert _text(b, "status").startswith("Action 75 ")
    assert b.js("document.getElementById('hex-B9').getAttribute('data-tile')") == "B9-printed"
    b.js("document.querySelector('#log-list li[data-frame=\"0\"]').click()")
    assert _text(b, "current-text") == "Start of the game"
    b.js(
        "document.getElementById('jump').value = 300;"
        "document.getElementById('jump-form').requestSubmit()"
    )
    width = float(b.js("document.getElementById('board-svg').getAttribute('width')"))
    b.js("document.getElementById('zoom-in').click()")
    zoomed = float(b.js("document.getElementById('board-svg').getAttribute('width')"))
    assert zoomed == pytest.approx(width * 1.25)
    b.js("document.getElementById('zoom-out').click()")
    shot = b.call("Page.captureScreenshot", format="png")
    out = tmp_path_factory.mktemp("screens") / "viewer-action-300.png"
    out.write_bytes(base64.b64decode(shot["data"]))
    assert out.stat().st_size > 20_000 and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    keep = os.environ.get("FERROVIA_SCREENSHOTS")  # CI: a directory to keep it as an artifact
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(out, Path(keep) / out.name)


def test_url_hash_opens_that_action_dump_dom(page: Path, tmp_path: Path) -> None:
    exe = _chromium()
    dom = subprocess.run(
        [
            exe,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={tmp_path}",
            "--dump-dom",
            page.as_uri() + "#action=79",
        ],
        capture_output=True,
        text=True,
        timeout=90,
        check=True,
    ).stdout
    assert (
        '<div id="current-text">P&amp;L lays tile 201 on B9 (Porto), rotation 5, paying P0</div>'
        in dom
    )
    assert 'id="hex-B9" class="hex-cell" transform="translate(150 692.82)" data-tile="201"' in dom
