"""States as pictures: SVG for notebooks, files and pages; RGB arrays for env frames.

``state.picture()`` (or ``state.picture(viewer=seat)``) lays the table out
once (:mod:`.table`) and draws it either way: :meth:`Picture.to_svg`
(:mod:`.svg`) or :meth:`Picture.to_rgb` (:mod:`.raster`, matplotlib's Agg).
A ``State`` shows as its picture in Jupyter and writes it with
``state.save_svg(path)``. How one card looks is :mod:`.cards`, built on the
terminal's symbols and colours (:mod:`trickgym.render`).
"""

from __future__ import annotations

import os

import numpy as np

from .scene import Scene

__all__ = ["Picture"]


class Picture:
    """A laid-out table picture: SVG text, an RGB array, or inline in Jupyter."""

    def __init__(self, scene: Scene):
        self.scene = scene

    @property
    def width(self) -> int:
        """Width in pixels."""
        return self.scene.width

    @property
    def height(self) -> int:
        """Height in pixels."""
        return self.scene.height

    def to_svg(self) -> str:
        """The picture as a standalone SVG document."""
        # lazy: keeps `import trickgym` light
        from .svg import scene_svg

        return scene_svg(self.scene)

    def to_rgb(self) -> np.ndarray:
        """The picture as ``uint8[height, width, 3]`` (drawn with matplotlib's Agg)."""
        # lazy: keeps `import trickgym` light
        from .raster import scene_rgb

        return scene_rgb(self.scene)

    def save_svg(self, path) -> None:
        """Write the SVG document to ``path`` (UTF-8)."""
        if not isinstance(path, str | os.PathLike) or not str(path):
            raise ValueError(f"path must be a file path (str or PathLike), got {path!r}")
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_svg())

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def __repr__(self) -> str:
        return f"<Picture {self.width}x{self.height}: {self.scene.title}>"
