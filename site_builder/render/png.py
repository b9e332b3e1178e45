"""PNG renders via cairosvg: the puzzle and solution at twice the SVG's size, and a thumbnail."""

from __future__ import annotations

from . import fonts  # noqa: F401  (sets FONTCONFIG_FILE before cairo loads)
from .svg import GRID, render_svg, standalone_grid_svg
from ..model import Layout, Puzzle

SCALE = 2  # device pixels per SVG px: sharp on high-density screens
THUMB_SIZE = 240  # the thumbnail's long side, in pixels


def _cairosvg():
    """cairosvg, with text-rendering="geometricPrecision" drawn in grey antialiasing.

    Our SVGs ask for geometricPrecision so cairo lays text out with the font's
    unhinted advances (the widths svg.wrap measured). cairosvg maps that value
    to cairo's ANTIALIAS_BEST, which with Debian 12's cairo and FreeType draws
    broken glyph fragments; grey antialiasing keeps the same metrics and draws
    clean letters. Only that one entry of cairosvg's table is changed.
    """
    import cairocffi
    import cairosvg
    import cairosvg.surface

    cairosvg.surface.TEXT_ANTIALIAS["geometricPrecision"] = cairocffi.ANTIALIAS_GRAY
    return cairosvg


def svg_to_png(svg: str, scale: float = SCALE) -> bytes:
    return _cairosvg().svg2png(bytestring=svg.encode("utf-8"), scale=scale)


def render_png(puzzle: Puzzle, layout: Layout, *, solution: bool = False) -> bytes:
    """The SVG render as PNG, SCALE device pixels per SVG pixel."""
    return svg_to_png(render_svg(puzzle, layout, solution=solution))


def thumbnail_cell(layout: Layout, size: int = THUMB_SIZE) -> float:
    """The cell size that makes the grid's long side `size` pixels, outline included."""
    long = max(layout.rows, layout.cols, 1)
    cell = size / long
    for _ in range(4):  # the outline depends a little on the cell size
        cell = (size - 2 * GRID.margin(cell)) / long
    return cell


def render_thumbnail(puzzle: Puzzle, layout: Layout) -> bytes:
    """The empty grid, no numbers, THUMB_SIZE pixels on its long side."""
    cell = thumbnail_cell(layout)
    return svg_to_png(standalone_grid_svg(layout, cell, numbers=False), scale=1)
