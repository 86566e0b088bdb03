"""Stock-round steps (registered by name)."""

from __future__ import annotations
