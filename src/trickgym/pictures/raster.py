"""A :class:`~.scene.Scene` drawn into an RGB array with matplotlib's Agg renderer.

The envs' ``render_mode="rgb_array"`` frames: the same layout as the SVG,
drawn by the plotting library the project already depends on (no browser,
no SVG rasteriser). A ``Figure`` of its own per frame, never pyplot, so
drawing touches no global state and works without a display.
"""

from __future__ import annotations

import numpy as np

from .scene import Rect, Scene, Text, walk

__all__ = ["scene_rgb"]

_DPI = 100
_PT = 72 / _DPI  # a font size in points, per pixel
_ALIGN = {"start": "left", "middle": "center", "end": "right"}


def scene_rgb(scene: Scene) -> np.ndarray:
    """``uint8[height, width, 3]``: ``scene`` drawn as the SVG shows it."""
    # lazy: matplotlib is slow to import
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import PatchCollection
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch, Rectangle

    fig = Figure(figsize=(scene.width / _DPI, scene.height / _DPI), dpi=_DPI)
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, scene.width)
    ax.set_ylim(scene.height, 0)  # y grows downwards, as in SVG
    ax.set_axis_off()
    patches = []
    for item in walk(scene.items):
        if isinstance(item, Rect):
            style = dict(facecolor=item.fill, edgecolor=item.stroke or "none")
            style["linewidth"] = item.stroke_width * _PT if item.stroke else 0
            if item.rx:
                box = f"round,pad=0,rounding_size={item.rx}"
                patch = FancyBboxPatch((item.x, item.y), item.w, item.h, boxstyle=box, **style)
            else:
                patch = Rectangle((item.x, item.y), item.w, item.h, **style)
            patches.append(patch)
        elif isinstance(item, Text):
            ax.text(
                item.x,
                item.y,
                item.text,
                fontsize=item.size * _PT,
                color=item.fill,
                ha=_ALIGN[item.anchor],
                va="baseline",
                fontweight="bold" if item.bold else "normal",
                fontfamily="DejaVu Sans",
                zorder=2,
            )
    # One collection keeps the rectangles' order and draws them all before the texts
    # (a fifth of the time of one artist each); no text reaches into the card that
    # overlaps its own (cards.card_advance), so the picture is the SVG's.
    ax.add_collection(PatchCollection(patches, match_original=True, zorder=1))
    canvas.draw()
    rgba = np.asarray(canvas.buffer_rgba())
    return np.ascontiguousarray(rgba[..., :3])
