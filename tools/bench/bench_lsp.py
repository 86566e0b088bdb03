"""Benchmark: how soon ``ferrovia lsp`` answers a keystroke with diagnostics (target < 1 s).

    .venv/bin/python tools/bench/bench_lsp.py [--repeat N] [GAME_DIR]

Starts the server as an editor does (a subprocess on stdio, pygls' client), opens the game's
map.yaml and privates.yaml, then N times types a bad tile code and a bad hex reference and
undoes them, timing each didChange until the diagnostics for it arrive.  "open" is the first
check of the game in the process (every file parsed).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

ROOT = Path(__file__).resolve().parents[2]
TARGET = 1.0


async def run(game: Path, repeat: int) -> int:
    client = LanguageClient("bench", "1")
    latest: dict[str, list[lsp.Diagnostic]] = {}
    arrived = asyncio.Event()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(ls: object, params: lsp.PublishDiagnosticsParams) -> None:
        latest[params.uri] = list(params.diagnostics)
        arrived.set()

    async def until(test: object) -> float:
        start = time.perf_counter()
        while not test():  # type: ignore[operator]
            arrived.clear()
            await asyncio.wait_for(arrived.wait(), 30)
        return time.perf_counter() - start

    await client.start_io(sys.executable, "-m", "ferrovia", "lsp")
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    texts = {name: (game / name).read_text(encoding="utf-8") for name in ("map.yaml",)}
    uri = from_fs_path(str((game / "map.yaml").resolve())) or ""
    start = time.perf_counter()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(
                uri=uri, language_id="yaml", version=1, text=texts["map.yaml"]
            )
        )
    )
    await until(lambda: uri in latest)
    opened = time.perf_counter() - start
    good = texts["map.yaml"]
    bad = good.replace("path=a:0,b:_0", "path=a:7,b:_0", 1)
    times = []
    version = 1
    for _ in range(repeat):
        for text, wanted in ((bad, True), (good, False)):
            version += 1
            client.text_document_did_change(
                lsp.DidChangeTextDocumentParams(
                    text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)],
                )
            )
            times.append(await until(lambda w=wanted: bool(latest.get(uri)) == w))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    worst = max(times)
    print(
        f"{game}: open {opened:.3f} s; keystroke to diagnostics median "
        f"{statistics.median(times):.3f} s, worst {worst:.3f} s over {len(times)} changes "
        f"(target < {TARGET} s)"
    )
    return 0 if worst < TARGET else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", type=Path, default=ROOT / "gamedata" / "1858")
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    return asyncio.run(run(args.game, args.repeat))


if __name__ == "__main__":
    raise SystemExit(main())
