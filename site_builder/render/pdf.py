"""The print-ready PDF: WeasyPrint from templates/pdf.html.j2 and site_builder/static/pdf.css.

Page one holds the header, the grid as large as the page allows (leaving room
for the first clues) and the clues in three balanced columns, continuing on
later pages; the answer key (solution grid and answers by number) starts on a
page of its own at the end. WeasyPrint, its FontConfiguration and the parsed
stylesheets are loaded once per process and reused for every render.

Same input, same bytes: WeasyPrint's version is pinned, the only date comes
from the front matter, the file identifier is a hash of the content, and the
fonts are the shipped files (see fonts.py).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from . import fonts  # noqa: F401  (sets FONTCONFIG_FILE before WeasyPrint loads pango)
from .svg import byline, grid_size, standalone_grid_svg, wrap
from .text import clue_text, printable_value
from ..model import Layout, Puzzle

STATIC = Path(__file__).resolve().parent.parent / "static"
TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"
CSS_FILE = STATIC / "pdf.css"

MM = 72 / 25.4


@dataclass(frozen=True)
class Paper:
    name: str  # CSS page size keyword
    width: float  # points
    height: float
    margin_top: float = 15 * MM  # these four match @page in pdf.css
    margin_side: float = 15 * MM
    margin_bottom: float = 17 * MM

    @property
    def content_width(self) -> float:
        return self.width - 2 * self.margin_side

    @property
    def content_height(self) -> float:
        return self.height - self.margin_top - self.margin_bottom


PAPERS = {
    "letter": Paper("letter", 612.0, 792.0),
    "a4": Paper("A4", 210 * MM, 297 * MM),
}

MAX_CELL = 24.0  # points; about 8.5 mm, a generous newspaper square
CLUE_ROOM = 96.0  # points kept under the grid on page one for the first clues
KEY_MAX_CELL = 15.0
KEY_GRID_SHARE = 0.55  # at most this share of the key page's height goes to the solution grid


# ------------------------------------------------------------- WeasyPrint


class _Engine:
    """WeasyPrint, one FontConfiguration and the parsed stylesheets, created on first use."""

    def __init__(self) -> None:
        import jinja2
        import weasyprint
        from weasyprint.text.fonts import FontConfiguration

        self.weasyprint = weasyprint
        self.font_config = FontConfiguration()
        self.css = weasyprint.CSS(filename=str(CSS_FILE), font_config=self.font_config)
        self.page_css = {
            key: weasyprint.CSS(string=f"@page {{ size: {p.name}; }}", font_config=self.font_config)
            for key, p in PAPERS.items()
        }
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(TEMPLATES)),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            finalize=printable_value,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.template = env.get_template("pdf.html.j2")
        self.markup = jinja2.utils.markupsafe.Markup
        self.lock = threading.Lock()


@lru_cache(maxsize=1)
def _engine() -> _Engine:
    return _Engine()


# ------------------------------------------------------------------ sizing


def paper_for(puzzle: Puzzle) -> Paper:
    return PAPERS.get(puzzle.meta.paper.lower(), PAPERS["letter"])


def _header_height(puzzle: Puzzle, paper: Paper) -> float:
    """A close estimate of the masthead's height, measured with the shipped fonts."""
    w = paper.content_width
    h = len(wrap(puzzle.meta.title, "serif-bold", 24, w)) * 24 * 1.1
    h += 3 + len(wrap(byline(puzzle), "sans", 10, w)) * 10 * 1.28
    if puzzle.meta.description:
        h += 3 + len(wrap(puzzle.meta.description, "serif-italic", 10, w)) * 10 * 1.28
    return h + 5 + 1.2 + 10 + 4  # padding, rule, margin, slack


def _fit_cell(layout: Layout, width: float, height: float, cap: float) -> float:
    """The largest cell (to 1/8 pt) at most `cap` whose grid fits width x height."""
    cell = cap
    while cell > 2:
        w, h = grid_size(layout, cell, snap=False)
        if w <= width and h <= height:
            return cell
        cell -= 0.125
    return cell


def puzzle_cell(puzzle: Puzzle, layout: Layout, paper: Paper) -> float:
    room = paper.content_height - _header_height(puzzle, paper) - 12 - CLUE_ROOM
    return _fit_cell(layout, paper.content_width, room, MAX_CELL)


def key_cell(puzzle: Puzzle, layout: Layout, paper: Paper) -> float:
    room = (paper.content_height - 40) * KEY_GRID_SHARE
    return _fit_cell(layout, paper.content_width, room, KEY_MAX_CELL)


# ------------------------------------------------------------------ render


def pdf_html(puzzle: Puzzle, layout: Layout) -> str:
    """The HTML WeasyPrint lays out (useful for inspection)."""
    eng = _engine()
    paper = paper_for(puzzle)
    m = puzzle.meta
    groups = [
        {
            "heading": heading,
            "clues": [{"number": p.number, "text": clue_text(p), "answer": p.entry.display} for p in group],
        }
        for heading, group in (("Across", layout.across), ("Down", layout.down))
        if group
    ]
    grid = standalone_grid_svg(layout, puzzle_cell(puzzle, layout, paper), snap=False, unit="pt")
    key = standalone_grid_svg(layout, key_cell(puzzle, layout, paper), solution=True, numbers=False, snap=False,
                              unit="pt")
    return eng.template.render(
        title=m.title,
        author=m.author,
        description=m.description,
        keywords=", ".join(m.tags),
        date_iso=m.date.isoformat(),
        byline=byline(puzzle),
        groups=groups,
        grid=eng.markup(grid),
        key_grid=eng.markup(key),
    )


def render_pdf(puzzle: Puzzle, layout: Layout) -> bytes:
    """The puzzle as a print-ready PDF on the paper its front matter names."""
    eng = _engine()
    html = pdf_html(puzzle, layout)
    stylesheets = [eng.css, eng.page_css[paper_for(puzzle).name.lower()]]
    with eng.lock:  # one FontConfiguration is shared; WeasyPrint is not meant for concurrent use of it
        doc = eng.weasyprint.HTML(string=html, base_url=str(STATIC) + "/")
        return doc.write_pdf(stylesheets=stylesheets, font_config=eng.font_config, pdf_identifier=True)



def bench_renders(puzzle: Puzzle, layout: Layout, repeat: int = 3) -> dict[str, float]:
    """Seconds per render of each format (best of `repeat`), for `make bench`.

    The first PDF of a process also pays for loading WeasyPrint and the fonts;
    that warm-up is reported separately as 'pdf-first'.
    """
    import time

    from .png import render_png, render_thumbnail
    from .svg import render_svg

    out: dict[str, float] = {}
    if _engine.cache_info().currsize == 0:
        t0 = time.perf_counter()
        render_pdf(puzzle, layout)
        out["pdf-first"] = time.perf_counter() - t0
    jobs = {
        "svg": lambda: render_svg(puzzle, layout),
        "png": lambda: render_png(puzzle, layout),
        "thumb": lambda: render_thumbnail(puzzle, layout),
        "pdf": lambda: render_pdf(puzzle, layout),
    }
    for name, job in jobs.items():
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            job()
            best = min(best, time.perf_counter() - t0)
        out[name] = best
    return out


def main() -> None:
    """`python -m site_builder.render.pdf`: render timings for the project's puzzles and a 160-answer list."""
    import datetime as _dt

    from ..bench import corpus
    from ..layout import layout_entries
    from ..model import LayoutParams, PuzzleMeta

    print(f"{'list':<16} {'svg s':>7} {'png s':>7} {'thumb s':>8} {'pdf s':>7}")
    for name, entries, size in corpus(Path(".")):
        if name == "generated-80":
            continue
        layout = layout_entries(entries, LayoutParams(size=size, seeds=20))
        puzzle = Puzzle(name, PuzzleMeta(name, _dt.date(2026, 1, 1)), tuple(entries))
        t = bench_renders(puzzle, layout)
        print(f"{name:<16} {t['svg']:>7.3f} {t['png']:>7.3f} {t['thumb']:>8.3f} {t['pdf']:>7.3f}", flush=True)


if __name__ == "__main__":
    main()
