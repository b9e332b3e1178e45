"""SVG renders: the puzzle (title, grid, clues in two balanced columns) and its solution.

Grid proportions live in GRID, in cell units; the SVG, PNG, thumbnail and PDF
all draw the grid with `grid_svg`, only at different cell sizes, so they
cannot disagree. Text is measured with the shipped fonts' own metrics
(fonts.text_width) for wrapping, and every string is XML-escaped, with
characters XML cannot hold dropped. The standalone SVG carries the glyphs it
draws (`embedded_faces`), so it looks the same in a viewer without the fonts.
"""

from __future__ import annotations

import base64
import re
import unicodedata
from dataclasses import dataclass

from . import fonts  # noqa: F401  (sets FONTCONFIG_FILE before any cairo/pango load)
from .fonts import FACES, SANS as SANS_FACE, SERIF as SERIF_FACE, embedded_font, metrics, unseen
from .text import breakable, clue_only, clue_text, long_date
from ..model import Layout, Placement, Puzzle

# font-family lists: our shipped faces first (cairosvg and WeasyPrint find them through fontconfig and
# @font-face), then the generic family, so a viewer without them (an SVG opened on its own) keeps the kind of face
SANS = f"'{SANS_FACE}', sans-serif"
SERIF = f"'{SERIF_FACE}', serif"


# ------------------------------------------------------------------ geometry


@dataclass(frozen=True)
class GridGeometry:
    """The grid's proportions, in units of one cell."""

    line: float = 0.035  # rule between two letter cells
    border: float = 0.075  # rule between a letter cell and the outside
    number_size: float = 0.29  # clue number font size
    number_x: float = 0.075  # number's left edge from the cell's left line
    number_top: float = 0.06  # gap between the cell's top line and the number's cap height
    letter_size: float = 0.56  # solution letter font size
    letter_center: float = 0.6  # vertical centre of a letter when the cell has room for a number
    min_line_px: float = 1.0  # thinnest rule drawn, in output units

    def rules(self, cell: float, snap: bool = True) -> tuple[float, float]:
        """(half the inner rule, how far the outline reaches outside the cell), at this cell size.

        `snap` rounds the rules to half units and keeps them at least
        `min_line_px` wide, for crisp pixels; print (PDF) takes exact widths.
        """
        if not snap:
            inner = cell * self.line
            return inner / 2, cell * self.border - inner / 2
        inner = max(self.min_line_px, round(cell * self.line * 2) / 2)
        border = max(inner * 1.5, round(cell * self.border * 2) / 2)
        return inner / 2, border - inner / 2

    def margin(self, cell: float, snap: bool = True) -> float:
        """Room the drawing needs around the cells for the outline."""
        return self.rules(cell, snap)[1]


GRID = GridGeometry()

INK = "#111111"
PAPER = "#ffffff"
HOLE = "#bbbbbb"  # empty squares inside the grid: plainly no squares to fill, light on ink

# Page layout of the standalone SVG, in px (the PNG multiplies these by its scale).
PAGE_WIDTH = 800
MARGIN = 40
TITLE_SIZE = 32
BYLINE_SIZE = 15
MAX_CELL = 40
HEADING_SIZE = 15
HEADING_SPACE = 12  # extra space above a heading that does not start a column
CLUE_SIZE = 15
CLUE_LEADING = 20
CLUE_GAP = 5
COLUMN_GAP = 32
NUMBER_GUTTER = 26  # right edge of the clue number, from the column's left edge
TEXT_INDENT = 33  # clue text start, from the column's left edge
WRAP_SLACK = 0.97  # wrap a little short of the column, for renderers that space text wider


# ------------------------------------------------------------------ escaping

_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(s: str) -> str:
    """Escape for XML text or a double-quoted attribute; drop characters XML 1.0 cannot hold."""
    s = _XML_ILLEGAL.sub("", s)
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def drawn(s: str, keep: str = "") -> str:
    """`xml_text` for a <text> cairo draws: without the invisible characters it would draw as a box
    (`fonts.unseen`: an emoji's variation selector, a joiner), but those in `keep`, for an SVG no cairo
    draws. The <title> keeps them all: it is not drawn."""
    if keep:  # split at the marks kept: every other part is one
        return "".join(part if part in keep else xml_text(unseen(part)) for part in re.split(f"([{keep}])", s))
    return xml_text(unseen(s))


def fmt(x: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


# ---------------------------------------------------------------- the grid


def grid_svg(
    layout: Layout,
    cell: float,
    *,
    x0: float = 0.0,
    y0: float = 0.0,
    solution: bool = False,
    numbers: bool = True,
    snap: bool = True,
) -> str:
    """The grid as an SVG <g>: cell (0, 0)'s top-left corner at (x0, y0).

    Unused cells draw nothing, but for empty squares the letters wall in (`Layout.holes`), which are
    shaded grey. Numbers sit in the top-left corner; solution
    letters are centred below them (or in the middle when numbers are off).
    """
    g = GRID
    half_inner, outer = g.rules(cell, snap)
    cells = sorted(layout.cells)
    black, white = [], []
    for r, c in cells:
        x, y = x0 + c * cell, y0 + r * cell
        s = cell + 2 * outer
        black.append(f"M{fmt(x - outer)} {fmt(y - outer)}h{fmt(s)}v{fmt(s)}h{fmt(-s)}z")
        w = cell - 2 * half_inner
        white.append(f"M{fmt(x + half_inner)} {fmt(y + half_inner)}h{fmt(w)}v{fmt(w)}h{fmt(-w)}z")
    shade = []
    for r, c in sorted(layout.holes):  # an empty square walled in by letters: shaded, not a square to fill
        x, y = x0 + c * cell, y0 + r * cell
        shade.append(f"M{fmt(x)} {fmt(y)}h{fmt(cell)}v{fmt(cell)}h{fmt(-cell)}z")
    out = ['<g class="grid">']
    if shade:
        out.append(f'<path class="holes" fill="{HOLE}" d="{"".join(shade)}"/>')
    if cells:
        out.append(f'<path fill="{INK}" d="{"".join(black)}"/>')
        out.append(f'<path fill="{PAPER}" d="{"".join(white)}"/>')
    if numbers and layout.numbers:
        size = cell * g.number_size
        cap = metrics("sans").cap_height / metrics("sans").units_per_em * size
        out.append(f'<g class="numbers" font-family="{SANS}" font-size="{fmt(size)}" fill="{INK}">')
        for (r, c), n in sorted(layout.numbers.items()):
            x = x0 + c * cell + half_inner + cell * g.number_x
            y = y0 + r * cell + half_inner + cell * g.number_top + cap
            out.append(f'<text x="{fmt(x)}" y="{fmt(y)}">{n}</text>')
        out.append("</g>")
    if solution and cells:
        size = cell * g.letter_size
        cap = metrics("sans-bold").cap_height / metrics("sans-bold").units_per_em * size
        centre = g.letter_center if numbers else 0.5
        out.append(
            f'<g class="letters" font-family="{SANS}" font-weight="bold" font-size="{fmt(size)}" '
            f'fill="{INK}" text-anchor="middle">'
        )
        for (r, c), ch in sorted(layout.cells.items()):
            x = x0 + (c + 0.5) * cell
            y = y0 + (r + centre) * cell + cap / 2
            out.append(f'<text x="{fmt(x)}" y="{fmt(y)}">{drawn(ch)}</text>')
        out.append("</g>")
    out.append("</g>")
    return "\n".join(out)


def grid_size(layout: Layout, cell: float, snap: bool = True) -> tuple[float, float]:
    """Width and height the grid drawing takes, outline included."""
    m = GRID.margin(cell, snap)
    return layout.cols * cell + 2 * m, layout.rows * cell + 2 * m


def standalone_grid_svg(
    layout: Layout,
    cell: float,
    *,
    solution: bool = False,
    numbers: bool = True,
    snap: bool = True,
    unit: str = "",
) -> str:
    """A complete <svg> of the grid alone (for the thumbnail and the PDF), `unit` on width/height."""
    w, h = grid_size(layout, cell, snap)
    m = GRID.margin(cell, snap)
    body = grid_svg(layout, cell, x0=m, y0=m, solution=solution, numbers=numbers, snap=snap)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{fmt(w)}{unit}" height="{fmt(h)}{unit}" '
        f'viewBox="0 0 {fmt(w)} {fmt(h)}" text-rendering="geometricPrecision">\n{body}\n</svg>'
    )


# ------------------------------------------------------------------ text


def wrap(text: str, face: str, size: float, width: float, keep_last: bool = False, printed: bool = False) -> list[str]:
    """Greedy word wrap at the font's metrics; a word wider than the line is split after its last hyphen
    that fits, or else by characters.

    `keep_last` keeps the last two words on one line where they fit on one: a clue's last word and its
    enumeration, so "(8)" never starts a line alone (the page and the PDF join them with a no-break space).
    `printed`: as the PDF breaks a long run (`text.breakable`), only where that puts a break.
    """
    m = metrics(face)
    words = text.split()
    if keep_last and len(words) > 1 and m.width(f"{words[-2]} {words[-1]}", size) <= width:
        words[-2:] = [f"{words[-2]} {words[-1]}"]
    lines: list[str] = []
    line = ""
    for word in words:
        candidate = f"{line} {word}" if line else word
        if m.width(candidate, size) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
            line = ""
        breaks, done = (_print_breaks(word) if printed else []), 0
        while m.width(word, size) > width:
            cut = 1
            while cut < len(word) and m.width(word[: cut + 1], size) <= width:
                cut += 1
            hyphen = max(word.rfind(mark, 1, cut) for mark in "-\u2010\u2013/")
            if hyphen > 0:  # after the last hyphen (or dash, or slash) that fits, as the page and the PDF break
                cut = hyphen + 1
            elif printed:
                cut = max((at - done for at in breaks if 0 < at - done <= cut), default=cut)
            lines.append(word[:cut])
            word = word[cut:]
            done += cut
        line = word
    if line or not lines:
        lines.append(line)
    return lines


def _print_breaks(word: str) -> list[int]:
    """Where the PDF may break `word` inside a long run: the places `breakable` marks (empty if none)."""
    marked = breakable(word)
    if marked == word:
        return []
    out, at = [], 0
    for ch in marked:
        if ch == "\u200b":
            out.append(at)
        else:
            at += 1
    return out


def byline(puzzle: Puzzle) -> str:
    m = puzzle.meta
    parts = []
    if m.author:
        parts.append(f"By {m.author}")
    if m.date:
        parts.append(long_date(m.date))
    if m.difficulty:
        parts.append(m.difficulty[:1].upper() + m.difficulty[1:])
    return " · ".join(parts)


@dataclass(frozen=True)
class Block:
    """One item of the clue flow: a heading or a clue, with its wrapped lines."""

    kind: str  # "heading" or "clue"
    text: str
    number: int = 0
    lines: tuple[str, ...] = ()

    @property
    def height(self) -> float:
        if self.kind == "heading":
            return HEADING_SPACE + HEADING_SIZE + 12
        return len(self.lines) * CLUE_LEADING + CLUE_GAP


def clue_blocks(layout: Layout, text_width_px: float) -> list[Block]:
    blocks: list[Block] = []
    for heading, group in (("ACROSS", layout.across), ("DOWN", layout.down)):
        if not group:
            continue
        blocks.append(Block("heading", heading))
        for p in group:
            text = picture_clue(p)
            lines = wrap(text, "serif", CLUE_SIZE, text_width_px * WRAP_SLACK, keep_last=True)
            blocks.append(Block("clue", text, p.number, tuple(lines)))
    return blocks


BIDI_MARKS = "\u200e"  # what a browser needs and cairo would draw as a box: the SVG keeps it, the PNG's does not


def picture_clue(p: Placement) -> str:
    """`clue_text`, with a left-to-right mark (U+200E, which draws nothing) before the enumeration of a
    clue holding Hebrew or Arabic: a browser's bidi otherwise sets "(6)" before a last word read right to
    left, where the PDF and the page print it after the clue (they isolate the clue in a <bdi>)."""
    clue = clue_only(p)
    if not any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in clue):
        return clue_text(p)
    return f"{clue}\u200e ({p.entry.enumeration})"


BOUNDARY_SLACK = 1.2  # the Across | Down split wins when its taller column is at most this much the best split's


def balance(blocks: list[Block], columns: int = 2) -> list[list[Block]]:
    """Split the flow into `columns` runs, keeping the tallest as short as it can be.

    A heading never ends a column. Exhaustive for two columns; for more, each
    column takes blocks until it would pass the best two-column target.
    """
    if columns != 2 or len(blocks) < 2:
        return [blocks] + [[] for _ in range(columns - 1)]
    heights = [b.height for b in blocks]
    total = sum(heights)
    best, best_k = None, len(blocks)
    acc = 0.0
    tallest_at: dict[int, float] = {}
    for k in range(1, len(blocks) + 1):
        acc += heights[k - 1]
        if blocks[k - 1].kind == "heading" and k < len(blocks):
            continue
        tallest = tallest_at[k] = max(acc, total - acc)
        if best is None or tallest < best:
            best, best_k = tallest, k
    # Across in one column and Down in the other, when that is about as short: a column that opens
    # mid-list has no heading to say which list it is (a short list split 1 | 3, Down 2 read badly)
    second = next((k for k in range(1, len(blocks)) if blocks[k].kind == "heading"), None)
    if second is not None and second in tallest_at and best is not None and tallest_at[second] <= best * BOUNDARY_SLACK:
        best_k = second
    return [blocks[:best_k], blocks[best_k:]]


# ------------------------------------------------------------------ page


def embedded_faces(drawn_by: dict[str, list[str]]) -> str:
    """A <style> of @font-face rules carrying the glyphs each face (a `fonts.FACES` key) draws, as WOFF in
    data: URLs, so the SVG looks as designed where its faces are not installed (a viewer's own face is
    wider or narrower than the one the lines were wrapped for); "" where none can be cut. Each rule's
    weight is the one the text asks for ("bold": 700), so no browser thickens the semibold.
    cairosvg skips @font-face and finds the same files through fontconfig."""
    rules = []
    for face, texts in drawn_by.items():
        text = "".join(texts)
        if not text.strip():
            continue
        data = embedded_font(face, text)
        if data is None:
            return ""
        _file, family, weight, style = FACES[face]
        rules.append(
            f'@font-face{{font-family:"{family}";font-weight:{700 if weight > 400 else 400};font-style:{style};'
            f'src:url(data:font/woff;base64,{base64.b64encode(data).decode("ascii")}) format("woff")}}'
        )
    return f"<style>\n{chr(10).join(rules)}\n</style>\n" if rules else ""


def _svg_cell(layout: Layout) -> int:
    room = PAGE_WIDTH - 2 * MARGIN
    cell = MAX_CELL
    while cell > 4 and grid_size(layout, cell)[0] > room:
        cell -= 1
    return cell


def render_svg(puzzle: Puzzle, layout: Layout, *, solution: bool = False, fonts: bool = True) -> str:
    """The puzzle as a standalone SVG: title, byline, grid, then the clues in two columns. `fonts=False`
    leaves out the embedded fonts (`embedded_faces`), for the PNG: cairosvg draws with the installed ones."""
    W = PAGE_WIDTH
    content = W - 2 * MARGIN
    body: list[str] = []
    y = MARGIN
    drawn_by: dict[str, list[str]] = {face: [] for face in ("serif", "serif-bold", "sans", "sans-bold")}

    title_lines = wrap(puzzle.meta.title, "serif-bold", TITLE_SIZE, content)
    drawn_by["serif-bold"] += title_lines
    body.append(f'<g class="title" font-family="{SERIF}" font-weight="bold" font-size="{TITLE_SIZE}" fill="{INK}">')
    for line in title_lines:
        y += TITLE_SIZE * 1.05
        body.append(f'<text x="{MARGIN}" y="{fmt(y)}">{drawn(line)}</text>')
    body.append("</g>")
    y += 8
    body.append(f'<g class="byline" font-family="{SANS}" font-size="{BYLINE_SIZE}" fill="#444444">')
    for line in wrap(byline(puzzle), "sans", BYLINE_SIZE, content):
        drawn_by["sans"].append(line)
        y += BYLINE_SIZE * 1.3
        body.append(f'<text x="{MARGIN}" y="{fmt(y)}">{drawn(line)}</text>')
    body.append("</g>")
    y += 12
    body.append(f'<rect x="{MARGIN}" y="{fmt(y)}" width="{content}" height="1.5" fill="{INK}"/>')
    y += 24

    cell = _svg_cell(layout)
    gw, gh = grid_size(layout, cell)
    m = GRID.margin(cell)
    gx = MARGIN + round((content - gw) / 2) + m
    body.append(grid_svg(layout, cell, x0=gx, y0=y + m, solution=solution))
    drawn_by["sans"] += map(str, layout.numbers.values())
    if solution:
        drawn_by["sans-bold"] += layout.cells.values()
    y += gh + 30

    col_w = (content - COLUMN_GAP) / 2
    blocks = clue_blocks(layout, col_w - TEXT_INDENT)
    col_bottom = y
    for i, col in enumerate(balance(blocks, 2)):
        cx = MARGIN + i * (col_w + COLUMN_GAP)
        right = cx + col_w
        cy = y
        body.append(f'<g class="column" data-left="{fmt(cx)}" data-right="{fmt(right)}" fill="{INK}">')
        for b in col:
            if b.kind == "heading":
                drawn_by["sans-bold"].append(b.text)
                if cy > y:
                    cy += HEADING_SPACE
                cy += HEADING_SIZE
                body.append(
                    f'<text class="heading" x="{fmt(cx)}" y="{fmt(cy)}" font-family="{SANS}" font-weight="bold" '
                    f'font-size="{HEADING_SIZE}" letter-spacing="1">{b.text}</text>'
                )
                cy += 12
                continue
            num = str(b.number)
            drawn_by["sans-bold"].append(num)
            drawn_by["serif"] += b.lines
            # the number's right edge at the gutter, whatever face draws it (anchored there, not placed by
            # this face's width: a viewer's own face is wider or narrower)
            nx = cx + NUMBER_GUTTER
            body.append(f'<g class="clue" data-number="{b.number}">')
            body.append(
                f'<text class="number" x="{fmt(nx)}" y="{fmt(cy + CLUE_SIZE)}" font-family="{SANS}" '
                f'font-weight="bold" font-size="{CLUE_SIZE}" text-anchor="end">{num}</text>'
            )
            for j, line in enumerate(b.lines):
                ly = cy + CLUE_SIZE + j * CLUE_LEADING
                body.append(
                    f'<text class="line" x="{fmt(cx + TEXT_INDENT)}" y="{fmt(ly)}" font-family="{SERIF}" '
                    f'font-size="{CLUE_SIZE}">{drawn(line, keep=BIDI_MARKS if fonts else "")}</text>'
                )
            body.append("</g>")
            cy += b.height
        body.append("</g>")
        col_bottom = max(col_bottom, cy)
    H = round(col_bottom + MARGIN - CLUE_GAP)
    head = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
        'text-rendering="geometricPrecision">\n'
        f"<title>{xml_text(puzzle.meta.title)}{' (solution)' if solution else ''}</title>\n"
        f'<rect width="{W}" height="{H}" fill="{PAPER}"/>\n'
        f"{embedded_faces(drawn_by) if fonts else ''}"
    )
    # text-rendering="geometricPrecision" turns off hinted metrics in cairo (and browsers): glyphs
    # advance by the font's own widths, the ones `wrap` measured with.
    return head + "\n".join(body) + "\n</svg>\n"
