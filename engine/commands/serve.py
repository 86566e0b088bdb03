"""``ferrovia serve GAME_DIR [--port N] [--host H]``: a live preview page (see
:mod:`ferrovia.authoring.serve`)."""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path
from typing import Any

DEFAULT_PORT = 8858


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="a live preview page: map, tiles and errors, updated on every save",
        description=(
            "Serve a local page with GAME_DIR's map, tile manifest and validation errors "
            "pinned to their hexes; it updates itself within a second of a saved change. "
            "Clicking a hex shows its YAML and file:line."
        ),
    )
    parser.add_argument("game_dir", type=Path, metavar="GAME_DIR", help="a game directory")
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any free)"
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ferrovia.authoring.serve import Preview, make_server, watch
    from ferrovia.outputs import game_directory

    game_dir: Path = game_directory(args.game_dir)  # why not, if it is not one (exit 2)
    if not 0 <= args.port <= 65535:
        print(f"ferrovia serve: --port {args.port}: expected 0-65535", file=sys.stderr)
        return 2
    preview = Preview(game_dir)
    preview.rebuild()
    try:
        server = make_server(preview, args.host, args.port)
    except OSError as exc:
        print(
            f"ferrovia serve: cannot listen on {args.host}:{args.port}: {exc.strerror}",
            file=sys.stderr,
        )
        return 2
    host, port = str(args.host), int(server.server_address[1])
    stop = threading.Event()
    ready = threading.Event()
    watcher = threading.Thread(target=watch, args=(preview, stop, ready), daemon=True)
    watcher.start()
    ready.wait(timeout=10)  # say where the page is once saves are seen
    state = preview.state
    errors = len(state.get("errors", []))
    print(
        f"ferrovia serve: {state.get('game')} ({errors} error{'s' if errors != 1 else ''}) "
        f"at http://{host}:{port}/ — Ctrl-C stops",
        flush=True,
    )
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        with preview.changed:
            preview.stopping = True
            preview.changed.notify_all()
        server.server_close()
    return 0
