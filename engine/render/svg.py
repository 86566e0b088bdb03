"""A few helpers to write SVG as text with proper escaping (standard library only).

String building keeps the 1858 map well under a second; every attribute value and text node
goes through :func:`escape`, so names like ``Santiago & Orense`` stay well-formed.

>>> el("text", {"x": 1.5, "class": "name"}, text="A & B")
'<text x="1.5" class="name">A &amp; B</text>'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from xml.sax.saxutils import escape as _escape
from xml.sax.saxutils import quoteattr

from ferrovia.render.geometry import fmt

SVG_NS = "http://www.w3.org/2000/svg"

AttrValue = str | int | float | None
Attrs = Mapping[str, AttrValue]


def escape(text: str) -> str:
    """Text content, escaped for XML."""
    return _escape(text)


def _value(value: str | int | float) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return fmt(value)
    return str(value)


def attrs_text(attrs: Attrs | None) -> str:
    if not attrs:
        return ""
    return "".join(
        f" {key.rstrip('_').replace('_', '-')}={quoteattr(_value(val))}"
        for key, val in attrs.items()
        if val is not None
    )


def el(
    tag: str,
    attrs: Attrs | None = None,
    children: Iterable[str] = (),
    *,
    text: str | None = None,
) -> str:
    """One element as text; ``children`` are already-built element strings.

    Attribute names with ``_`` become ``-`` (``stroke_width`` -> ``stroke-width``), a
    trailing ``_`` is dropped (``class_`` -> ``class``); ``None`` values are left out.
    """
    inner = "".join(children)
    if text is not None:
        inner = escape(text) + inner
    head = f"<{tag}{attrs_text(attrs)}"
    return f"{head}>{inner}</{tag}>" if inner else f"{head}/>"


def document(
    width: float,
    height: float,
    view_box: tuple[float, float, float, float],
    body: Iterable[str],
    *,
    title: str | None = None,
    desc: str | None = None,
    style: str | None = None,
) -> str:
    """A standalone SVG document (``title`` and ``desc``: its SVG title and description)."""
    parts: list[str] = []
    if title:
        parts.append(el("title", text=title))
    if desc:
        parts.append(el("desc", text=desc))
    if style:
        parts.append(f"<style>{escape(style)}</style>")
    parts.extend(body)
    vb = " ".join(fmt(v) for v in view_box)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        + el(
            "svg",
            {"xmlns": SVG_NS, "width": fmt(width), "height": fmt(height), "viewBox": vb},
            parts,
        )
        + "\n"
    )
