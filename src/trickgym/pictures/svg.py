"""A :class:`~.scene.Scene` written as a standalone SVG document.

Plain SVG 1.1 with presentation attributes (no stylesheet, no script, no
external font or image), so the file shows the same in a notebook, a
browser, an image viewer or a page that inlines it. Groups keep what they
are as ``class`` and ``data-*`` attributes (``<g class="card face"
data-card="10H">``), which tests and the replay page read.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from .scene import Group, Rect, Scene, Text

__all__ = ["FONT", "scene_svg"]

#: Fonts with the suit symbols (♠ ♥ ♦ ♣ and the Tarot's ✦ ⚱ ⛀ ⚔ ⚚): DejaVu Sans
#: (matplotlib's own, so the frames match) first.
FONT = "DejaVu Sans, Verdana, Segoe UI Symbol, sans-serif"


def _num(v: float) -> str:
    """A coordinate, short: ``12``, ``12.5``."""
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _rect(r: Rect) -> str:
    attrs = f'x="{_num(r.x)}" y="{_num(r.y)}" width="{_num(r.w)}" height="{_num(r.h)}"'
    if r.rx:
        attrs += f' rx="{_num(r.rx)}"'
    attrs += f' fill="{r.fill}"'
    if r.stroke:
        attrs += f' stroke="{r.stroke}"'
        if r.stroke_width != 1:
            attrs += f' stroke-width="{_num(r.stroke_width)}"'
    return f"<rect {attrs}/>"


def _text(t: Text) -> str:
    attrs = f'x="{_num(t.x)}" y="{_num(t.y)}" font-size="{_num(t.size)}" fill="{t.fill}"'
    if t.anchor != "start":
        attrs += f' text-anchor="{t.anchor}"'
    if t.bold:
        attrs += ' font-weight="bold"'
    return f"<text {attrs}>{escape(t.text)}</text>"


def _item(item, out: list[str]) -> None:
    if isinstance(item, Group):
        data = "".join(f" data-{k}={quoteattr(str(v))}" for k, v in item.data.items())
        out.append(f'<g class="{item.kind}"{data}>')
        for inner in item.items:
            _item(inner, out)
        out.append("</g>")
    elif isinstance(item, Rect):
        out.append(_rect(item))
    elif isinstance(item, Text):
        out.append(_text(item))
    else:
        raise ValueError(f"a scene holds Rect, Text and Group items, got {item!r:.60}")


def scene_svg(scene: Scene) -> str:
    """The SVG document of ``scene`` (a string, UTF-8 text without an XML declaration)."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" '
        f'height="{scene.height}" viewBox="0 0 {scene.width} {scene.height}" '
        f'font-family="{FONT}" role="img">',
        f"<title>{escape(scene.title)}</title>",
    ]
    for item in scene.items:
        _item(item, out)
    out.append("</svg>")
    return "\n".join(out)
