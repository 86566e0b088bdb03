"""A game after an action: the board as play has left it and side panels with the money.

The panels draw from :class:`StateView`, a plain snapshot (market, companies, players) the
replay adapter fills in; the board draws from :class:`~engine.render.map_svg.MapState`.
"""

from __future__ import annotations

from pathlib import Path

from engine.errors import FerroviaError
from engine.render.source import BoardSource


def render_state_file(board: BoardSource, game: Path, at: int | None, *, scale: float = 0.5) -> str:
    """Replay ``game`` up to action ``at`` and draw it (needs the replay harness)."""
    raise FerroviaError(f"cannot draw {game}: replaying games is not available in this version yet")
