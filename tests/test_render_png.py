"""PNG renders: sizes, the thumbnail, and the pinned fonts."""

from __future__ import annotations

import io
import os
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET

import pytest

from site_builder.render import fonts
from site_builder.render.png import SCALE, THUMB_SIZE, render_png, render_thumbnail
from site_builder.render.svg import render_svg
from tests.test_render_svg import tricky_puzzle


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="module")
def tp():
    from site_builder.layout import layout_puzzle, params_for
    from site_builder.source import read_puzzle
    from tests.conftest import SAMPLES

    puzzle = read_puzzle(SAMPLES / "twin-peaks.txt")
    return puzzle, layout_puzzle(puzzle, params_for(puzzle, seed=0))


def test_png_is_the_svg_at_high_density(tp):
    puzzle, layout = tp
    root = ET.fromstring(render_svg(puzzle, layout))
    want = (int(root.get("width")) * SCALE, int(root.get("height")) * SCALE)
    puzzle_png = render_png(puzzle, layout)
    solution_png = render_png(puzzle, layout, solution=True)
    assert png_size(puzzle_png) == want
    assert png_size(solution_png) == want
    assert SCALE >= 2
    assert puzzle_png != solution_png


def test_thumbnail_is_about_240_on_its_long_side(tp):
    puzzle, layout = tp
    w, h = png_size(render_thumbnail(puzzle, layout))
    assert max(w, h) == THUMB_SIZE == 240
    ratio = layout.cols / layout.rows
    assert abs(w / h - ratio) < 0.05


def test_wide_and_tiny_thumbnails():
    puzzle, layout = tricky_puzzle()
    w, h = png_size(render_thumbnail(puzzle, layout))
    assert max(w, h) == 240 and min(w, h) > 0


def test_non_latin_and_emoji_render_without_error():
    puzzle, layout = tricky_puzzle()
    assert png_size(render_png(puzzle, layout))[0] > 0


def test_fontconfig_is_pinned_to_the_shipped_fonts():
    assert os.environ["FONTCONFIG_FILE"] == str(fonts.FONTS_CONF)
    conf = fonts.FONTS_CONF.read_text()
    assert "<dir prefix=\"relative\">.</dir>" in conf
    for file, *_ in fonts.FACES.values():
        assert (fonts.FONTS_DIR / file).is_file()
    assert (fonts.FONTS_DIR / "OFL-SourceSerifPro.txt").is_file()
    if not shutil.which("fc-match"):
        pytest.skip("fc-match (fontconfig) is not installed")
    env = dict(os.environ, FONTCONFIG_FILE=str(fonts.FONTS_CONF))
    for name in ("Arial", "sans-serif", "serif", "Liberation Serif"):
        out = subprocess.run(["fc-match", "-f", "%{file}", name], env=env, capture_output=True, text=True).stdout
        assert out.startswith(str(fonts.FONTS_DIR)), (name, out)


def test_cairo_advances_match_the_wrap_metrics():
    """cairo, with the options our SVG's text-rendering asks for, advances text by the widths we wrap with."""
    import cairocffi as cairo

    from site_builder.render.png import _cairosvg

    assert _cairosvg().surface.TEXT_ANTIALIAS["geometricPrecision"] == cairo.ANTIALIAS_GRAY
    ctx = cairo.Context(cairo.ImageSurface(cairo.FORMAT_ARGB32, 4, 4))
    opts = cairo.FontOptions()
    opts.set_hint_style(cairo.HINT_STYLE_NONE)
    opts.set_hint_metrics(cairo.HINT_METRICS_OFF)
    ctx.set_font_options(opts)
    ctx.select_font_face(fonts.SERIF)
    ctx.set_font_size(30)
    line = 'Phrase spoken by a one-armed man, "later" 100% a 1992 film'
    cairo_width = sum(ctx.text_extents(ch)[4] for ch in line)
    assert abs(cairo_width - fonts.text_width(line, "serif", 30)) < 0.5


def _pixels(png: bytes):
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def test_puzzle_png_is_grey_and_the_same_pixels_as_cairos_writer(tp):
    """The grey encoder only drops two copies of each grey byte: cairo's own PNG has the same pixels."""
    from site_builder.render.png import _cairosvg

    puzzle, layout = tp
    for solution in (False, True):
        ours = render_png(puzzle, layout, solution=solution)
        assert ours[25] == 0  # IHDR colour type 0: greyscale
        theirs = _cairosvg().svg2png(bytestring=render_svg(puzzle, layout, solution=solution).encode(), scale=SCALE)
        a, b = _pixels(ours), _pixels(theirs)
        assert a.mode == "L" and a.size == b.size
        assert a.tobytes() == b.convert("L").tobytes()
        assert b.convert("RGB").tobytes() == a.convert("RGB").tobytes()
        assert len(ours) < len(theirs)


def test_colour_or_transparency_keeps_cairos_writer():
    from site_builder.render.png import grey_png, svg_to_png

    opaque_grey = bytes([90, 90, 90, 255]) * 6
    assert grey_png(3, 2, 12, opaque_grey) is not None
    assert grey_png(3, 2, 12, bytes([90, 91, 90, 255]) + opaque_grey[4:]) is None  # one pixel not grey
    assert grey_png(3, 2, 12, opaque_grey[:-1] + b"\x80") is None  # one pixel not opaque
    padded = b"".join(opaque_grey[y * 12 : y * 12 + 12] + b"\xff" * 4 for y in range(2))
    assert _pixels(grey_png(3, 2, 16, padded)).tobytes() == bytes([90]) * 6  # row padding is dropped

    red = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"><rect width="4" height="2" fill="#c00"/></svg>'
    assert _pixels(svg_to_png(red, scale=1)).convert("RGB").getpixel((1, 1)) == (204, 0, 0)
    clear = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"><rect width="2" height="2" fill="#000"/></svg>'
    image = _pixels(svg_to_png(clear, scale=1))
    assert image.mode == "RGBA" and image.getpixel((3, 0))[3] == 0 and image.getpixel((0, 0)) == (0, 0, 0, 255)


def test_a_picture_taller_than_cairo_allows_comes_out_smaller_not_as_a_crash():
    """500 answers with long clues made an SVG 17,000 px tall: at twice the size, past cairo's 32,767-pixel
    limit, cairo refused it and the build failed with an internal error."""
    from PIL import Image

    from site_builder.render.png import CAIRO_MAX, svg_to_png

    svg = ('<?xml version="1.0" encoding="UTF-8"?>\n'  # as render_svg writes it
           '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="20000" viewBox="0 0 800 20000">'
           '<rect width="800" height="20000" fill="#fff"/><rect x="10" y="19900" width="50" height="50"/></svg>')
    image = Image.open(io.BytesIO(svg_to_png(svg)))
    assert image.size[1] <= CAIRO_MAX and image.size[1] > 30000 and image.size[0] > 1200
    assert image.getpixel((20 * image.size[0] // 800, image.size[1] - 60 * image.size[1] // 20000)) == 0  # the foot drawn
    # a puzzle's own picture: 20 answers with clues long enough to make it some 17,000 px tall
    import dataclasses
    import datetime as dt

    from site_builder.bench import generated_entries
    from site_builder.layout import layout_entries
    from site_builder.model import LayoutParams, Puzzle, PuzzleMeta

    entries = tuple(dataclasses.replace(e, clue="A long clue that runs on and on. " * 70) for e in generated_entries(20))
    layout = layout_entries(entries, LayoutParams(size=25, seed=0, strategy="freeform"))
    puzzle = Puzzle("tall", PuzzleMeta("Tall", dt.date(2026, 1, 1)), entries)
    assert render_svg(puzzle, layout).startswith("<?xml")
    assert Image.open(io.BytesIO(render_png(puzzle, layout))).size[1] <= CAIRO_MAX


def test_the_png_says_its_resolution_so_it_is_placed_at_the_size_meant(tp):
    """A layout program placed the 1600-pixel PNG at 72 dpi, 22 inches wide: it now says 192 dpi."""
    from PIL import Image

    image = Image.open(io.BytesIO(render_png(*tp)))
    assert [round(d) for d in image.info["dpi"]] == [192, 192]


def _letter_by_letter(monkeypatch, svg: str, scale: float = SCALE) -> bytes:
    """The SVG drawn with cairosvg's own text drawer for every element, as before `_line_text`."""
    from site_builder.render import png

    with monkeypatch.context() as m:
        m.setattr(png, "_plain_line", lambda node: False)
        return png.svg_to_png(svg, scale)


def test_a_line_of_text_drawn_in_one_call_is_what_cairosvg_draws_letter_by_letter(tp, monkeypatch):
    """The fast text path puts the same glyphs in the same places: at most a glyph's edge moves by a fraction
    of a pixel (cairo rounds each glyph's position to a sub-pixel step, and the two sums round differently)."""
    from site_builder.render import png

    puzzle, layout = tp
    svg = render_svg(puzzle, layout, solution=True)
    fast = png.svg_to_png(svg)
    calls, letters = [], png._line_text.letters
    monkeypatch.setattr(png._line_text, "letters", lambda *a, **k: calls.append(a[1].text) or letters(*a, **k))
    assert png.svg_to_png(svg) == fast  # the same bytes twice
    assert set(calls) <= {"ACROSS", "DOWN"}  # only the letter-spaced headings go letter by letter
    a, b = _pixels(fast), _pixels(_letter_by_letter(monkeypatch, svg))
    assert a.size == b.size
    pa, pb = a.tobytes(), b.tobytes()
    moved = sum(abs(x - y) > 32 for x, y in zip(pa, pb))
    assert moved < len(pa) / 10_000, moved
    ink_a, ink_b = sum(255 - x for x in pa), sum(255 - y for y in pb)
    assert abs(ink_a - ink_b) < ink_b / 1000


@pytest.mark.parametrize(
    "text",
    [
        '<text x="10" y="30" letter-spacing="3">Spaced out</text>',
        '<text x="10 30 50" y="30">Placed</text>',
        '<text x="10" y="30" rotate="20">Turned</text>',
        '<text x="10" y="30">Start <tspan font-weight="bold">bold</tspan> end</text>',
        '<text x="10" y="30" stroke="#000" stroke-width="0.5">Outlined</text>',
        '<text x="10" y="30" dominant-baseline="middle">Centred</text>',
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#000"/><stop offset="1" stop-color="#888"/>'
        '</linearGradient></defs><text x="10" y="30" fill="url(#g)">Shaded</text>',
        '<defs><clipPath id="c"><text x="10" y="40" font-size="40">CLIP</text></clipPath></defs>'
        '<rect width="200" height="60" fill="#000" clip-path="url(#c)"/>',
    ],
)
def test_any_other_text_is_drawn_by_cairosvg_as_before(text, monkeypatch):
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60" text-rendering="geometricPrecision">'
           f'<rect width="200" height="60" fill="#fff"/><g font-family="Source Sans Pro" font-size="16">{text}</g></svg>')
    from site_builder.render.png import svg_to_png

    assert svg_to_png(svg) == _letter_by_letter(monkeypatch, svg)
