"""A picture as a few drawing primitives, written once and drawn by two backends.

A table picture is laid out once as a :class:`Scene` of rectangles, texts and
groups; :mod:`.svg` writes it as SVG (notebooks, files, the replay page) and
:mod:`.raster` draws it into an RGB array with matplotlib's Agg (env frames),
so both show the same cards at the same places. Coordinates are pixels, the
origin top left, ``y`` growing downwards; a text's ``y`` is its baseline.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Group", "Rect", "Scene", "Text"]


@dataclass(frozen=True)
class Rect:
    """A filled rectangle, with rounded corners of radius ``rx``."""

    x: float
    y: float
    w: float
    h: float
    fill: str
    stroke: str | None = None
    rx: float = 0.0
    stroke_width: float = 1.0


@dataclass(frozen=True)
class Text:
    """One line of text; ``anchor`` is ``"start"``, ``"middle"`` or ``"end"`` (as in SVG)."""

    x: float
    y: float
    text: str
    size: float = 12.0
    fill: str = "#1a1a1a"
    anchor: str = "start"
    bold: bool = False


@dataclass
class Group:
    """Primitives that belong together: one card, one hand, the trick.

    ``kind`` and ``data`` say what it is (an SVG ``class`` and ``data-*``
    attributes, which tests and the replay page read); a raster ignores them.
    """

    kind: str
    items: list = field(default_factory=list)
    data: dict = field(default_factory=dict)

    def add(self, *items) -> Group:
        """Append ``items``; returns ``self``."""
        self.items.extend(items)
        return self


@dataclass
class Scene:
    """A whole picture: its size in pixels, a title (for people and screen readers) and items."""

    width: int
    height: int
    title: str
    items: list = field(default_factory=list)


def walk(items):
    """Every ``Rect`` and ``Text`` of ``items``, groups opened, in drawing order."""
    for item in items:
        if isinstance(item, Group):
            yield from walk(item.items)
        else:
            yield item
