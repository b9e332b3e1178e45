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
    """cairosvg, with text-rendering="geometricPrecision" drawn in grey antialiasing, and a plain line of text
    drawn in one call (`_line_text`).

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
    letters = getattr(cairosvg.surface, "text", None)
    if callable(letters) and letters is not _line_text:  # once: every tag drawn as text, and the name draw() compares
        _line_text.letters = letters
        for tag, drawer in cairosvg.surface.TAGS.items():
            if drawer is letters:
                cairosvg.surface.TAGS[tag] = _line_text
        cairosvg.surface.text = _line_text
    return cairosvg


def _line_text(surface, node, draw_as_text=False):
    """cairosvg's text drawer, for a plain line of text drawn in one call.

    cairosvg places a text element letter by letter (it supports per-letter
    x, y, dx, dy and rotate lists, letter-spacing and text on a path), and
    draws every element twice: once as glyph outlines for a stroke, once as
    text for the fill. Our lines have one x and y and no stroke, so one
    `show_text` at the anchored start draws the same glyphs (cairo's toy text
    advances each glyph by the advance cairosvg adds up letter by letter),
    and the outline pass draws nothing. The four puzzles' eight PNGs take
    a quarter less CPU (medians of 10: 1.37 s to 1.00 s); a glyph's edge may
    move by a fraction of a pixel, where cairo rounds the two sums of
    advances differently. Anything else (our letter-spaced
    headings, any other SVG) goes to cairosvg's own drawer, kept in `letters`.
    """
    if not surface.stroke_and_fill or not _plain_line(node):  # a clip path's text is drawn as outlines
        return _line_text.letters(surface, node, draw_as_text)
    import cairocffi
    from cairosvg.helpers import size

    context = surface.context
    family = (node.get("font-family") or "sans-serif").split(",")[0].strip("\"' ")
    slant = getattr(cairocffi, f"FONT_SLANT_{node.get('font-style')}".upper(), cairocffi.FONT_SLANT_NORMAL)
    weight = node.get("font-weight")
    if weight and weight.isdigit() and int(weight) >= 550:  # as cairosvg reads it
        weight = "bold"
    weight = getattr(cairocffi, f"FONT_WEIGHT_{weight}".upper(), cairocffi.FONT_WEIGHT_NORMAL)
    context.select_font_face(family, slant, weight)
    context.set_font_size(surface.font_size)
    x, y = size(surface, node["x"], "x"), size(surface, node["y"], "y")
    x_bearing, _, width, _, x_advance, _ = context.text_extents(node.text)
    anchor = node.get("text-anchor")
    align = -(width / 2 + x_bearing) if anchor == "middle" else -(width + x_bearing) if anchor == "end" else 0
    if draw_as_text:
        context.move_to(x + align, y)
        context.show_text(node.text)
    surface.cursor_position = (x + x_advance, y)
    surface.cursor_d_position = [0, 0]


def _plain_line(node) -> bool:
    """A <text> element with one x and y, its own text and nothing that places or strokes letters one by one."""
    from cairosvg.helpers import normalize

    return (
        node.tag == "text"
        and bool(node.text)
        and not node.children
        and "x" in node
        and "y" in node
        and len(normalize(node["x"]).split()) == 1
        and len(normalize(node["y"]).split()) == 1
        and not any(key in node for key in ("dx", "dy", "rotate", "textLength"))
        and node.get("stroke") in (None, "none")
        and not node.get("fill", "").startswith("url(")  # a gradient or pattern needs the text's bounding box
        and not node.get("letter-spacing")
        and not node.get_href()
        and not (node.parent is not None and node.parent.get_href())
        and not any(node.get(key) for key in ("display-anchor", "dominant-baseline", "alignment-baseline"))
    )


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
    return svg_to_png(render_svg(puzzle, layout, solution=solution, fonts=False))


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
