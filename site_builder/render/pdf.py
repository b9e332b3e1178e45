"""The print-ready PDF: WeasyPrint from templates/pdf.html.j2 and site_builder/static/pdf.css.

Page one is a newspaper page: the masthead, the grid, and the clues in
columns of one width. The grid sits at the top right spanning some of the
columns (all of them for a wide grid, which is then centred); the columns
beside it run the page's full height and those under it start below it.

`plan_page` chooses that arrangement before WeasyPrint runs, from the shipped
fonts' own metrics (fontTools widths, see fonts.py), so the choice is the same
on every machine: the largest grid, no smaller than MIN_CELL, with which all
clues fit on page one at a readable size (CLUE_SIZES, never below 8 pt), the
columns balanced to one bottom line. Only when no such page exists does page
one take a large grid, fill its columns and the list continue, in the same
columns, on page two. The answer key (solution grid, answers by number)
starts on a page of its own at the end.

After rendering, the page-one columns are checked against where WeasyPrint
really put them (anchors at their ends); should one run past the page, the
plan is made again with less room, so an estimate never costs a clipped clue.

Same input, same bytes: WeasyPrint's version is pinned, the only date comes
from the front matter, the file identifier is a hash of the content, and the
fonts are the shipped files.
"""

from __future__ import annotations

import atexit
import math
import os
import shutil
import threading
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from . import fonts  # noqa: F401  (sets FONTCONFIG_FILE before WeasyPrint loads pango)
from .fonts import text_width
from .svg import GRID, byline, grid_size, standalone_grid_svg, wrap
from .text import breakable, clue_html, clue_only, clue_text, dir_attribute, paragraphs, printable_value
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
    landscape: bool = False

    @property
    def css_size(self) -> str:
        return f"{self.name} landscape" if self.landscape else self.name

    def turned(self) -> "Paper":
        """The same sheet on its side (the margins stay where pdf.css puts them)."""
        return replace(self, width=self.height, height=self.width, landscape=not self.landscape)

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

# Every size below is in points and says the same as pdf.css; change them together.
MAX_CELL = 24.0  # about 8.5 mm, a generous newspaper square
MIN_CELL = 15.0  # the smallest square page one settles for when fitting every clue
# clue size, and the smallest grid square worth that size (a bigger type only while the grid stays big)
CLUE_SIZES = ((10.0, 21.0), (9.5, 18.0), (9.0, MIN_CELL), (8.5, MIN_CELL), (8.0, MIN_CELL))
CONTINUED_SIZE = 9.0  # clue size when the list continues on page two
COLUMN_COUNTS = (3, 4)  # four only when it buys a grid at least FOUR_COLUMN_GAIN larger
FOUR_COLUMN_GAIN = 1.0
COLUMN_GAP = 14.0
GRID_GAP = 10.0  # between the grid and the clues under it
CONTINUED_ROOM = 110.0  # height kept for clues under the grid when the list continues on page two
CLUE_LEADING = 1.22  # line-height of a clue, in ems
CLUE_SPACE = 0.25  # space after a clue, in ems
NUMBER_SPACE = 0.4  # between the clue number and its text, in ems
HEADING_HEIGHT = 9 * 1.25 + 1.5 + 0.75 + 3.5  # line, padding, rule, margin (h2 in pdf.css)
HEADING_SPACE = 8.0  # above a heading that does not start its column
TITLE_SIZE, TITLE_LEADING = 22.0, 1.15
META_SIZE, DESCRIPTION_SIZE, META_LEADING = 9.0, 9.5, 1.3
MASTHEAD_BELOW = 3 + 1.6 + 12  # padding, rule, margin under the masthead
SAFETY = 4.0  # points kept free at the page foot for rounding between our estimate and WeasyPrint
WRAP_SLACK = 0.985  # wrap a little short of the column
RETRY_STEP = 14.0  # room given up per retry when a page-one column overflowed
RETRIES = 5  # tries with less room each; then page one holds the grid alone (`grid_only`)
KEY_MAX_CELL = 15.0
# a grid this many times wider than tall is tried on a landscape sheet, taken when its squares come out
# LANDSCAPE_GAIN times larger (a 52x5 grid has 10 pt squares across a portrait page, 14 on its side)
LANDSCAPE_RATIO = 1.6
LANDSCAPE_GAIN = 1.2
KEY_GRID_SHARE = 0.55  # at most this share of the key page's height goes to the solution grid
KEY_MIN_CELL = 5.5  # a key square under this (1.9 mm) is hard to read: no tidy-up shrinks one below it
SMALL_CELL = 12.75  # 4.5 mm, in the grid's 1/8 pt steps: a printed square under this is hard to write in (the build says so)


# ------------------------------------------------------------- WeasyPrint


class _Engine:
    """WeasyPrint, one FontConfiguration and the parsed stylesheets, created on first use."""

    def __init__(self) -> None:
        import jinja2
        import weasyprint
        from weasyprint.text.fonts import FontConfiguration

        self.weasyprint = weasyprint
        self.font_config = FontConfiguration()
        self._css: tuple[tuple[int, int], object] | None = None  # pdf.css parsed, with the (time, size) it had
        self.page_css: dict[str, object] = {}  # by CSS page size, made on first use
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(TEMPLATES)),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            finalize=printable_value,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        env.filters["clue_html"] = lambda clue: clue_html(clue, breaks=True)
        env.filters["dir_attribute"] = dir_attribute
        env.filters["breakable"] = breakable
        self.env = env
        self.markup = jinja2.utils.markupsafe.Markup
        self.lock = threading.Lock()

    # Watch mode renders in one process for as long as it runs: an edited template or stylesheet must
    # reach the next PDF (they were read once, and the build recorded the new files as built).
    @property
    def template(self):
        return self.env.get_template("pdf.html.j2")  # Jinja reloads a template (and what it reaches) that changed

    @property
    def css(self):
        st = CSS_FILE.stat()
        stamp = (st.st_mtime_ns, st.st_size)
        if self._css is None or self._css[0] != stamp:
            self._css = (stamp, self.weasyprint.CSS(filename=str(CSS_FILE), font_config=self.font_config))
        return self._css[1]


@lru_cache(maxsize=1)
def _engine() -> _Engine:
    atexit.register(release_fonts, os.getpid())
    return _Engine()


def release_fonts(owner: int | None = None) -> None:
    """Delete the copies of the fonts WeasyPrint made for this process, at its end (a render after it has
    no fonts). WeasyPrint copies the fonts a stylesheet's @font-face names into a temporary folder (1.1 MB)
    and deletes it only when its FontConfiguration is collected, which a process that ends by os._exit
    (a stopped build) never does. A parallel build's workers put theirs in a folder the build deletes
    (`site._start_worker`). `owner`: the process that made the engine (a forked copy has its folder)."""
    if not _engine.cache_info().currsize or (owner is not None and owner != os.getpid()):
        return
    folder = getattr(_engine().font_config, "_folder", None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def pdf_stylesheets(puzzle: Puzzle, layout: Layout | None = None) -> list:
    """The parsed stylesheets a render of `puzzle` uses (pdf.css and the sheet: `sheet_for` with a layout)."""
    eng = _engine()
    size = (sheet_for(puzzle, layout) if layout is not None else paper_for(puzzle)).css_size
    if size not in eng.page_css:
        eng.page_css[size] = eng.weasyprint.CSS(string=f"@page {{ size: {size}; }}", font_config=eng.font_config)
    return [eng.css, eng.page_css[size]]


# ------------------------------------------------------------------ sizing


def paper_for(puzzle: Puzzle) -> Paper:
    return PAPERS.get(puzzle.meta.paper.lower(), PAPERS["letter"])


def sheet_for(puzzle: Puzzle, layout: Layout) -> Paper:
    """The puzzle's paper, turned on its side for a grid wider than tall (both pages: the answer key's grid
    is as wide) when that makes its squares LANDSCAPE_GAIN times larger (a grid LANDSCAPE_RATIO times
    wider than tall), or lifts squares under SMALL_CELL to it (any wider grid: a 45x29 grid's squares
    go from 4.1 to 4.8 mm on letter paper)."""
    paper = paper_for(puzzle)
    if layout.cols <= layout.rows:
        return paper
    upright = plan_page(puzzle, layout, paper).cell
    if upright >= MAX_CELL or (upright >= SMALL_CELL and layout.cols <= LANDSCAPE_RATIO * layout.rows):
        return paper
    turned = plan_page(puzzle, layout, paper.turned()).cell
    wide = layout.cols > LANDSCAPE_RATIO * layout.rows and turned >= LANDSCAPE_GAIN * upright
    return paper.turned() if wide or (upright < SMALL_CELL <= turned) else paper


def small_squares(puzzle: Puzzle, layout: Layout) -> str:
    """A note when the PDF prints the grid's squares under SMALL_CELL ('' otherwise).

    The grid has too many squares across (or down) for the sheet: the note
    gives the size (front matter) whose grids print at SMALL_CELL or more on
    the puzzle's paper.
    """
    if not layout.placements:
        return ""
    paper = paper_for(puzzle)
    sheets = [paper, paper.turned()] if layout.cols > layout.rows else [paper]
    alone = max(_fit_cell(layout, p.content_width, p.content_height - masthead_height(puzzle, p), MAX_CELL)
                for p in sheets)
    if alone >= MAX_CELL:
        return ""  # the grid takes the largest square there is: the page's plan cannot make it small
    best = plan_page(puzzle, layout, sheet_for(puzzle, layout)).cell  # the square the PDF prints
    if best >= SMALL_CELL:
        return ""
    margin = 2 * GRID.margin(SMALL_CELL, False)  # the outline round the squares
    across = int((paper.content_width - margin) // SMALL_CELL)
    masthead = masthead_height(puzzle, paper)
    if masthead > paper.content_height / 2:
        # the title and description take most of page one (a 2,000-character title): no size mends that
        return (f"printed squares {best / MM:.1f} mm, small to write in: the title and description take "
                f"{masthead / paper.content_height:.0%} of page one; shorten them (the notes hold the rest)")
    down = int((paper.content_height - masthead - margin) // SMALL_CELL)
    size = min(across, down)  # the grid alone under the masthead; the page's plan may keep room under it for
    # clues (a long list continued on page two): offer a size whose square grid that plan prints large enough
    while size > 3 and plan_page(puzzle, replace(layout, rows=size, cols=size), paper).cell < SMALL_CELL:
        size -= 1
    # the longest answer, the first in the file among as long (a fill word, line 0, after the author's)
    longest = max((p.entry for p in layout.placements), key=lambda e: (len(e.answer), -(e.line or 10**9)))
    note = (f"printed squares {best / MM:.1f} mm, small to write in: a size of {size} or less prints them "
            f"at {SMALL_CELL / MM:.1f} mm or more on {paper.name} paper")
    if len(longest.answer) > size:  # that size cannot hold the longest answer: say so, not just "lower it"
        note += f", which needs answers of {size} letters or fewer ({longest.display} has {len(longest.answer)})"
    return note


def masthead_height(puzzle: Puzzle, paper: Paper) -> float:
    """The masthead's height (title, byline, description, rule), measured with the shipped fonts."""
    w = paper.content_width * WRAP_SLACK
    h = len(wrap(puzzle.meta.title, "serif-bold", TITLE_SIZE, w, printed=True)) * TITLE_SIZE * TITLE_LEADING
    h += 3.5 + len(wrap(byline(puzzle), "sans", META_SIZE, w, printed=True)) * META_SIZE * META_LEADING
    if puzzle.meta.description:
        h += 2 + len(wrap(puzzle.meta.description, "serif-italic", DESCRIPTION_SIZE, w, printed=True)) * DESCRIPTION_SIZE * META_LEADING
    return h + MASTHEAD_BELOW


def _fit_cell(layout: Layout, width: float, height: float, cap: float) -> float:
    """The largest cell (to 1/8 pt) at most `cap` whose grid fits width x height."""
    cell = cap
    while cell > 2:
        w, h = grid_size(layout, cell, snap=False)
        if w <= width and h <= height:
            return cell
        cell -= 0.125
    return cell


KEY_COLUMNS = 4  # the answer key's columns, at most
KEY_LINES = 10  # lines of answers (headings counted) a key column should have before another is opened
KEY_MOST_COLUMNS = 7  # columns of short answers tried when the key would otherwise run onto another sheet
KEY_SIZE, KEY_GAP, KEY_INDENT, KEY_TRACKING = 8.5, 14.0, 15.0, 0.03  # as pdf.css sets .answers


def key_columns(layout: Layout, paper: Paper) -> int:
    """The answer key's column count: fewer for a short list, whose answers four columns would scatter, and
    no more than hold the widest answer on one line (`key_fit`: a 21-letter answer broke before its last
    letter in four)."""
    lines = len(layout.placements) + 2
    return max(1, min(KEY_COLUMNS, -(-lines // KEY_LINES), key_fit(layout, paper)))


def key_fit(layout: Layout, paper: Paper) -> int:
    """The most key columns (up to KEY_MOST_COLUMNS) that hold the widest answer on one line."""
    widest = max((text_width(p.entry.display, "sans", KEY_SIZE) + KEY_TRACKING * KEY_SIZE * len(p.entry.display)
                  for p in layout.placements), default=0.0) + KEY_INDENT
    fit = int((paper.content_width + KEY_GAP) // (widest + KEY_GAP + 1.0))
    return max(1, min(KEY_MOST_COLUMNS, fit))


def key_cell(layout: Layout, paper: Paper, share: float = KEY_GRID_SHARE) -> float:
    """The answer key's square, its grid given `share` of the key page's height."""
    room = (paper.content_height - 40) * share
    return _fit_cell(layout, paper.content_width, room, KEY_MAX_CELL)


def smaller_key_shares(layout: Layout, paper: Paper, below: float) -> list[float]:
    """The KEY_SHARES under `below` a tidy-up may try to save a sheet: those whose squares stay at least
    KEY_MIN_CELL (46 rows at 0.3 of the page had squares of 4.25 pt, 1.5 mm, letters under 3 pt tall)."""
    return [s for s in KEY_SHARES if s < below and key_cell(layout, paper, s) >= KEY_MIN_CELL]


@dataclass(frozen=True)
class Item:
    """One piece of the clue flow: a group heading ('Across') or a clue."""

    heading: str  # the group it belongs to
    number: int = 0  # 0 for the heading itself
    text: str = ""  # the clue and its enumeration, as measured
    clue: str = ""  # the clue alone, as printed in a <bdi> before its enumeration
    enumeration: str = ""

    @property
    def is_heading(self) -> bool:
        return self.number == 0


def clue_items(layout: Layout) -> list[Item]:
    items: list[Item] = []
    for heading, group in (("Across", layout.across), ("Down", layout.down)):
        if group:
            items.append(Item(heading))
            items.extend(Item(heading, p.number, clue_text(p), clue_only(p), p.entry.enumeration) for p in group)
    return items


def number_width(items: list[Item], size: float) -> float:
    """Room for the widest clue number (sans semibold), to the next half point."""
    widest = max((text_width(str(i.number), "sans-bold", size) for i in items if not i.is_heading), default=0.0)
    return math.ceil(widest * 2) / 2


def item_heights(items: list[Item], size: float, column: float) -> list[float]:
    """Each item's height in a column `column` points wide, clues at `size` points."""
    indent = number_width(items, size) + NUMBER_SPACE * size
    text_w = (column - indent) * WRAP_SLACK
    line = size * CLUE_LEADING
    space = size * CLUE_SPACE
    return [HEADING_HEIGHT if i.is_heading else len(wrap(i.text, "serif", size, text_w, keep_last=True, printed=True)) * line + space
            for i in items]


def fill(items: list[Item], heights: list[float], caps: list[float]) -> list[list[int]]:
    """Put the items in order into columns of heights `caps`, each column as full as it goes.

    A heading never ends a column (it takes its first clue along) and only
    gets space above it when it does not start one. Returns the item indexes
    per column; items that did not fit are left out (check the total).
    """
    cols: list[list[int]] = [[] for _ in caps]
    col, used, n = 0, 0.0, len(items)
    i = 0
    while i < n and col < len(caps):
        h = heights[i]
        if items[i].is_heading:
            if cols[col]:
                h += HEADING_SPACE
            if i + 1 < n:
                h += heights[i + 1]
        if used + h <= caps[col] + 1e-6:
            cols[col].append(i)
            used += heights[i] + (HEADING_SPACE if items[i].is_heading and len(cols[col]) > 1 else 0)
            i += 1
        else:
            col, used = col + 1, 0.0
    return cols


@dataclass(frozen=True)
class Column:
    x: float
    y: float
    width: float
    items: tuple[int, ...]


@dataclass(frozen=True)
class Plan:
    """Page one: where the grid and each clue column go, and what continues on page two."""

    size: float  # clue font size
    cell: float
    columns: int  # column count (all the same width)
    span: int  # how many of them the grid spans (at the right)
    width: float  # column width
    grid_x: float
    grid_w: float
    grid_h: float
    height: float  # height of the page-one block under the masthead
    clues_end: float  # where the longest clue column ends, from the block's top
    page_one: tuple[Column, ...]
    rest: tuple[int, ...]  # items continuing on page two

    @property
    def single(self) -> bool:
        return not self.rest


STUB_ITEMS = 3  # a column of fewer items (headings count) looks stranded; at equal grid size, avoid one
STUB_COST = 1.0  # ... and one is worth this much of a square's side (points) to avoid


def _geometry(paper: Paper, k: int) -> float:
    return (paper.content_width - (k - 1) * COLUMN_GAP) / k


def _caps(k: int, j: int, bottom: float, grid_h: float) -> list[float]:
    under = max(0.0, bottom - grid_h - GRID_GAP)
    return [bottom] * (k - j) + [under] * j


def _placed(cols: list[list[int]]) -> int:
    return sum(len(c) for c in cols)


def _largest_cell(layout: Layout, items, heights, k, j, span, room, low) -> float | None:
    """The largest grid cell (1/8 pt steps, from `low` up to the grid's room) with which every item fits."""
    top = _fit_cell(layout, span, room, MAX_CELL)
    if top < low:
        return None

    def fits(cell: float) -> bool:
        gh = grid_size(layout, cell, snap=False)[1]
        return _placed(fill(items, heights, _caps(k, j, room, gh))) == len(items)

    if not fits(low):
        return None
    lo, hi = int(low * 8), int(top * 8)  # eighths of a point; lo fits
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid / 8):
            lo = mid
        else:
            hi = mid - 1
    return lo / 8


def _make_plan(layout, items, paper, size, k, j, cell, room, heights, balance: bool) -> Plan:
    cw = _geometry(paper, k)
    span_x = (k - j) * (cw + COLUMN_GAP)
    span_w = j * cw + (j - 1) * COLUMN_GAP
    gw, gh = grid_size(layout, cell, snap=False)
    bottom = room
    if balance:  # the lowest common bottom line that still holds every item
        lo, hi = 0, int(room * 4)
        while lo < hi:
            mid = (lo + hi) // 2
            if _placed(fill(items, heights, _caps(k, j, mid / 4, gh))) == len(items):
                hi = mid
            else:
                lo = mid + 1
        bottom = lo / 4
        if lo == int(room * 4) and _placed(fill(items, heights, _caps(k, j, bottom, gh))) < len(items):
            # they fit the room, not the quarter point below it: the room it is (the last clue went to a
            # sheet of its own for a fraction of a point)
            bottom = room
    cols = fill(items, heights, _caps(k, j, bottom, gh))
    placed = _placed(cols)
    page_one = tuple(
        Column(x=i * (cw + COLUMN_GAP), y=0.0 if i < k - j else gh + GRID_GAP, width=cw, items=tuple(c))
        for i, c in enumerate(cols) if c
    )
    ends = [c.y + sum(heights[n] for n in c.items) + sum(HEADING_SPACE for n in c.items[1:] if items[n].is_heading)
            for c in page_one]
    return Plan(size=size, cell=cell, columns=k, span=j, width=cw, grid_x=span_x + (span_w - gw) / 2,
                grid_w=gw, grid_h=gh, height=max([gh] + ends), clues_end=max(ends, default=0.0),
                page_one=page_one, rest=tuple(range(placed, len(items))))


def _stub(plan: Plan) -> bool:
    """Whether a page-one column holds only one or two items (a clue or two stranded under the grid)."""
    return any(0 < len(c.items) < STUB_ITEMS for c in plan.page_one)


def _best_single(layout: Layout, items, paper: Paper, size: float, room: float, low: float) -> Plan | None:
    """The best plan with every clue on page one at clue size `size` and a cell of at least `low`:
    the largest grid (a four-column plan's square counted FOUR_COLUMN_GAIN smaller, and one with a clue
    or two stranded under the grid STUB_COST smaller), then no stranded column, then the shortest
    columns (None if none fits). Without the stub's cost a Down clue stood alone under the grid, its
    heading in the column before and the third column empty, for a square a point larger."""
    best = None
    for k in COLUMN_COUNTS:
        heights = item_heights(items, size, _geometry(paper, k))
        for j in range(k, 0, -1):  # under the grid first: it wins what is left tied
            span = j * _geometry(paper, k) + (j - 1) * COLUMN_GAP
            cell = _largest_cell(layout, items, heights, k, j, span, room, low)
            if cell is None:
                continue
            plan = _make_plan(layout, items, paper, size, k, j, cell, room, heights, balance=True)
            stub = _stub(plan)
            key = (cell - (FOUR_COLUMN_GAIN if k == 4 else 0.0) - (STUB_COST if stub else 0.0), not stub,
                   -round(plan.clues_end))
            if best is None or key > best[0]:
                best = (key, plan)
    return best[1] if best is not None else None


def plan_page(puzzle: Puzzle, layout: Layout, paper: Paper | None = None, give: float = 0.0) -> Plan:
    """Choose page one's arrangement (see the module's docstring); `give` takes that much height away."""
    paper = paper or paper_for(puzzle)
    items = clue_items(layout)
    room = paper.content_height - masthead_height(puzzle, paper) - SAFETY - give
    for size, low in CLUE_SIZES:
        plan = _best_single(layout, items, paper, size, room, low)
        if plan is not None:
            return plan
    # Too many clues for one page: a large grid, page one's columns filled, the rest on page two.
    size, k = CONTINUED_SIZE, COLUMN_COUNTS[0]
    heights = item_heights(items, size, _geometry(paper, k))
    best = None
    for j in range(k, 0, -1):
        span = j * _geometry(paper, k) + (j - 1) * COLUMN_GAP
        cell = _fit_cell(layout, span, max(room - CONTINUED_ROOM, room / 2), MAX_CELL)
        if best is None or cell > best[0] + 1e-9:
            best = (cell, j)
    cell, j = best
    # ... unless the grid is what is too big (a tall, narrow one): if every clue fits beside a grid at
    # least as large as that one, page one holds them all, the grid at that size
    for size2, _ in CLUE_SIZES:
        plan = _best_single(layout, items, paper, size2, room, cell)
        if plan is not None:
            return plan
    return _make_plan(layout, items, paper, CONTINUED_SIZE, k, j, cell, room, heights, balance=False)


# ------------------------------------------------------------------ render


def _groups(items: list[Item], indexes, continued: bool = False) -> list[dict]:
    """Items as the template's runs: [{heading, clues: [...]}]; a run that starts mid-group says so. The
    clues continuing after page one (`continued`) carry anchors, `more-N`, to find the pages they land on."""
    runs: list[dict] = []
    for n in indexes:
        it = items[n]
        if it.is_heading:
            runs.append({"heading": it.heading, "list": it.heading, "continued": False, "clues": []})
            continue
        if not runs:
            runs.append({"heading": it.heading if continued else "", "list": it.heading, "continued": continued,
                         "clues": []})
        runs[-1]["clues"].append({"number": it.number, "clue": it.clue, "enumeration": it.enumeration,
                                  "anchor": f"more-{n}" if continued else ""})
    return runs


def pdf_html(puzzle: Puzzle, layout: Layout, plan: Plan | None = None, paper: Paper | None = None,
             more_size: float | None = None, key_share: float = KEY_GRID_SHARE, key_cols: int = 0,
             flat_more: bool = False) -> str:
    """The HTML WeasyPrint lays out (useful for inspection). `more_size` sets the clues continuing after
    page one smaller than page one's, `key_share` the answer key's grid, `key_cols` its columns of answers,
    `flat_more` the clues after page one as the columns' own children rather than in lists (see `_tidy`)."""
    eng = _engine()
    paper = paper or sheet_for(puzzle, layout)
    plan = plan or plan_page(puzzle, layout, paper)
    items = clue_items(layout)
    m = puzzle.meta
    answers = [
        {"heading": heading, "clues": [{"number": p.number, "answer": p.entry.display, "anchor": f"key-{heading[0]}{p.number}"}
                                       for p in group]}
        for heading, group in (("Across", layout.across), ("Down", layout.down))
        if group
    ]
    columns = [
        {"left": _pt(c.x), "top": _pt(c.y), "width": _pt(c.width), "runs": _groups(items, c.items),
         "end": f"col-end-{n}"}
        for n, c in enumerate(plan.page_one)
    ]
    grid = standalone_grid_svg(layout, plan.cell, snap=False, unit="pt")
    key = standalone_grid_svg(layout, key_cell(layout, paper, key_share), solution=True, numbers=False,
                              snap=False, unit="pt")
    numbers = number_width(items, plan.size)
    indent = numbers + NUMBER_SPACE * plan.size
    clue_css = (  # numbers only, no quotes: safe inside <style>
        f".clues {{ font-size: {_pt(plan.size)}; }} "
        f".clues li {{ padding-left: {_pt(indent)}; }} "
        f".clues .num {{ width: {_pt(numbers)}; }} "
        f".more {{ columns: {plan.columns};{f' font-size: {_pt(more_size)};' if more_size else ''} }} "
        f".answers {{ columns: {key_cols or key_columns(layout, paper)}; }}"
    )
    return eng.template.render(
        title=m.title,
        short_title=short_title(m.title),
        notes=paragraphs(m.notes),
        copyright=m.copyright,
        author=m.author,
        description=m.description,
        keywords=", ".join(m.tags),
        date_iso=m.date.isoformat() if m.date else "",
        byline=byline(puzzle),
        clue_css=eng.markup(clue_css),
        front_height=_pt(plan.height),
        grid_left=_pt(plan.grid_x),
        columns=columns,
        rest=_groups(items, plan.rest, continued=True),
        flat_more=flat_more,
        grid=eng.markup(grid),
        answers=answers,
        key_grid=eng.markup(key),
    )


FOOTER_TITLE = 80  # characters of the title the page footer shows beside "Page N of M"


def short_title(title: str, limit: int = FOOTER_TITLE) -> str:
    """The title for the page footer: whole when short, else cut at a word with an ellipsis."""
    title = " ".join(title.split())
    if len(title) <= limit:
        return title
    cut = title[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:-") + "\u2026"


def _pt(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".") + "pt"


def _overflows(doc, plan: Plan, paper: Paper) -> bool:
    """True if a page-one column ended past the page's foot or off page one."""
    px = 96 / 72  # WeasyPrint's anchors are in CSS pixels
    foot = (paper.height - paper.margin_bottom) * px + 0.5
    first = doc.pages[0].anchors
    for n in range(len(plan.page_one)):
        pos = first.get(f"col-end-{n}")
        if pos is None or pos[1] > foot:
            return True
    return False


def render_pdf(puzzle: Puzzle, layout: Layout) -> bytes:
    """The puzzle as a print-ready PDF on the paper its front matter names."""
    eng = _engine()
    paper = sheet_for(puzzle, layout)
    give = 0.0
    with eng.lock:  # one FontConfiguration is shared; WeasyPrint is not meant for concurrent use of it
        stylesheets = pdf_stylesheets(puzzle, layout)
        for attempt in range(RETRIES + 1):
            # the last try never overflows: page one holds only the grid, and every clue flows on from page two
            plan = plan_page(puzzle, layout, paper, give)
            if attempt == RETRIES:
                plan = grid_only(plan, layout, paper)
            html = eng.weasyprint.HTML(string=pdf_html(puzzle, layout, plan, paper), base_url=str(STATIC) + "/")
            doc = html.render(stylesheets=stylesheets, font_config=eng.font_config)
            if not _overflows(doc, plan, paper):
                break
            give += RETRY_STEP
        doc = _tidy(doc, lambda **kw: eng.weasyprint.HTML(
            string=pdf_html(puzzle, layout, plan, paper, **kw), base_url=str(STATIC) + "/",
        ).render(stylesheets=stylesheets, font_config=eng.font_config), plan, layout, paper)
        return doc.write_pdf(pdf_identifier=True)


# A last page holding no more than this share of the clues continuing after page one (or of the answer
# key's answers), and at most the count beside it, is a sheet spent on a few lines: `_tidy` folds it back.
STRAY_CLUES = (0.15, 8)
STRAY_ANSWERS = (0.3, 40)
MORE_SIZES = (0.5, 1.0)  # points off the continued clues' size to try, down to the smallest clue size
KEY_SHARES = (0.42, 0.3)  # smaller answer-key grids to try


def _spread(doc, prefix: str) -> list[int]:
    """How many of the anchors named `prefix`... each page holds, for the pages that hold any."""
    counts = [sum(1 for a in page.anchors if a.startswith(prefix)) for page in doc.pages]
    return [c for c in counts if c]


def _stray(spread: list[int], limits: tuple[float, int]) -> bool:
    share, most = limits
    return len(spread) > 1 and spread[-1] <= min(most, share * sum(spread))


def _lopsided(doc, columns: int) -> bool:
    """Whether the last page of clues continued after page one leaves a column empty, or one column ends a
    quarter of the page higher than another.

    WeasyPrint balances the columns of that page one child of the section at a time, and a list of clues is
    one child: it tries a taller column by the height of the rest of a list, and settled, with a long list
    after a short one, on two full columns and an empty third. (Given the clues as the section's own
    children it balances them clue by clue, but lays out the page again for every clue's worth of height:
    a third to twice the time of the whole PDF, so only when needed.)"""
    pages = [page for page in doc.pages if any(a.startswith("more-") for a in page.anchors)]
    if not pages:
        return False
    page = pages[-1]
    boxes = [box for name, box in page.anchors.items() if name.startswith("more-")]  # (x0, y0, x1, y1)
    feet: dict[int, float] = {}  # the foot of each column, by its left edge
    for x0, _, _, y1 in boxes:
        feet[round(x0)] = max(feet.get(round(x0), 0.0), y1)
    if len(boxes) >= 2 * columns and len(feet) < columns:
        return True
    return len(feet) > 1 and max(feet.values()) - min(feet.values()) > page.height / 4


def _tidy(doc, render, plan: Plan, layout: Layout, paper: Paper):
    """`doc` with the columns of its last page of continued clues balanced (see `_lopsided`); without a last
    page of a few continued clues or a few answers, when setting the continued clues half a point or a
    point smaller (never below the smallest clue size), or the key's grid smaller, takes them back onto the
    page before; with a key of short answers in more columns (up to what `key_fit` allows) when that
    saves a sheet; and without a last sheet of the notes or copyright alone, when a smaller key grid takes
    them back. `render(flat_more=..., more_size=..., key_share=..., key_cols=...)` lays the document out
    again."""
    kw: dict = {}
    if plan.rest and _lopsided(doc, plan.columns):
        trial = render(flat_more=True)
        if len(trial.pages) <= len(doc.pages):
            doc, kw = trial, {"flat_more": True}
    if _stray(_spread(doc, "more-"), STRAY_CLUES):
        for off in MORE_SIZES:
            if plan.size - off < CLUE_SIZES[-1][0]:
                break
            trial = render(more_size=plan.size - off, **kw)
            if len(trial.pages) < len(doc.pages):
                doc, kw = trial, {**kw, "more_size": plan.size - off}
                break
    if _stray(_spread(doc, "key-"), STRAY_ANSWERS):
        for share in smaller_key_shares(layout, paper, KEY_GRID_SHARE):
            trial = render(key_share=share, **kw)
            if len(trial.pages) < len(doc.pages):
                doc, kw = trial, {**kw, "key_share": share}
                break
    cols = key_fit(layout, paper)
    if len(_spread(doc, "key-")) > 1 and cols > key_columns(layout, paper):
        # a long key of short answers: more, narrower columns (and a smaller grid above them) may keep it
        # on one sheet fewer
        share = kw.pop("key_share", KEY_GRID_SHARE)
        for smaller in (share, *smaller_key_shares(layout, paper, share)):
            trial = render(key_cols=cols, key_share=smaller, **kw)
            if len(trial.pages) < len(doc.pages):
                doc, kw = trial, {**kw, "key_cols": cols, "key_share": smaller}
                break
        else:
            kw["key_share"] = share
    if _tail_alone(doc):
        # a key that fills its page to the foot sent the notes or the copyright line to a sheet of their own
        share = kw.pop("key_share", KEY_GRID_SHARE)
        for smaller in smaller_key_shares(layout, paper, share):
            trial = render(key_share=smaller, **kw)
            if len(trial.pages) < len(doc.pages):
                doc, kw = trial, {**kw, "key_share": smaller}
                break
        else:
            kw["key_share"] = share
    return doc


def _tail_alone(doc) -> bool:
    """Whether the last page holds only the notes or the copyright line (begun there or carried over)."""
    if len(doc.pages) < 2:
        return False
    last = doc.pages[-1].anchors
    return not any(name.startswith(("key-", "more-")) for name in last) and (
        not last or "notes" in last or "copyright" in last)


def grid_only(plan: Plan, layout: Layout, paper: Paper) -> Plan:
    """`plan`'s grid alone on page one, centred, with every clue continuing on page two.

    The fallback when the clue columns planned for page one still run past
    its foot after RETRIES tries (clue text the width estimate gets badly
    wrong): a clue past the foot would be cut off the page, lost to the solver.
    """
    items = clue_items(layout)
    return replace(plan, grid_x=(paper.content_width - plan.grid_w) / 2, height=plan.grid_h, clues_end=0.0,
                   page_one=(), rest=tuple(range(len(items))))


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
