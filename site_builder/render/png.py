"""PNG renders via cairosvg: the puzzle and solution at twice the SVG's size, and a thumbnail."""

from __future__ import annotations

import io
import struct
import sys
import zlib

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
    import cairosvg.parser
    import cairosvg.surface

    cairosvg.surface.TEXT_ANTIALIAS["geometricPrecision"] = cairocffi.ANTIALIAS_GRAY
    return cairosvg


CAIRO_MAX = 32767  # cairo's largest image side, in pixels


def fitting_scale(svg: str, scale: float) -> float:
    """`scale`, or less for a picture whose side would pass cairo's limit at it (500 answers with long clues
    make an SVG some 17,000 px tall): cairo refuses such an image outright, so the PNG comes smaller."""
    import re

    root = re.search(r"<svg\b[^>]*>", svg)  # the root element, after any <?xml ...?> line
    head = root.group(0) if root else ""
    sides = [float(m) for m in re.findall(r'\b(?:width|height)="([0-9.]+)(?:px|pt)?"', head)]
    longest = max(sides, default=0.0)
    return scale if longest * scale <= CAIRO_MAX else int(CAIRO_MAX / longest * 1000) / 1000


def svg_to_png(svg: str, scale: float = SCALE) -> bytes:
    """The SVG drawn by cairosvg at `scale`, as PNG: 8-bit grey when every pixel is an opaque grey.

    The puzzle pages are ink on paper, so one channel holds them: a third of
    cairo's RGB data to compress, which halves the file (solar-system's
    puzzle PNG: 256 kB as cairo writes it, 135 kB in grey) and takes less
    than half the time of cairo's own writer. Anything else (a transparent
    thumbnail, a colour) goes through cairo's writer unchanged.
    """
    cairosvg = _cairosvg()
    tree = cairosvg.parser.Tree(bytestring=svg.encode("utf-8"))
    scale = fitting_scale(svg, scale)
    surface = cairosvg.surface.PNGSurface(tree, None, 96, scale=scale)
    image = surface.cairo
    image.flush()
    png = grey_png(image.get_width(), image.get_height(), image.get_stride(), bytes(image.get_data()), dpi=96 * scale)
    if png is None:
        out = io.BytesIO()
        image.write_to_png(out)
        png = out.getvalue()
    surface.finish()
    return png


def grey_png(width: int, height: int, stride: int, data: bytes, dpi: float = 0) -> bytes | None:
    """A cairo ARGB32 image (native-endian, premultiplied) as an 8-bit greyscale PNG, or None unless opaque grey.

    Every row gets filter 0 (none): line art compresses well without the
    per-byte filters photographs need, and zlib's level 6 is what libpng uses.
    `dpi` goes in a pHYs chunk, so a layout program places the picture at the
    size the SVG means (a 1600-pixel PNG drawn at twice the size: 8.3 inches,
    not the 22 of 72 dpi).
    """
    if stride != width * 4:
        data = b"".join(data[y * stride : y * stride + width * 4] for y in range(height))
    b, g, r, a = (0, 1, 2, 3) if sys.byteorder == "little" else (3, 2, 1, 0)
    if data[a::4].count(255) != width * height:
        return None  # transparency: cairo's writer keeps the alpha channel
    grey = data[b::4]
    if grey != data[g::4] or grey != data[r::4]:
        return None  # a colour
    rows = b"".join(b"\x00" + grey[y * width : (y + 1) * width] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8 bits, greyscale, deflate, filter set 0, no interlace
    phys = _chunk(b"pHYs", struct.pack(">IIB", round(dpi / 0.0254), round(dpi / 0.0254), 1)) if dpi else b""  # per metre
    return PNG_SIGNATURE + _chunk(b"IHDR", header) + phys + _chunk(b"IDAT", zlib.compress(rows, 6)) + _chunk(b"IEND", b"")


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


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
