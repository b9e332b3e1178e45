"""Plain-text renders: the grid and clue list for a terminal, and a layout as JSON."""

from __future__ import annotations

import datetime as _dt
import json
import re
import unicodedata

from ..model import Layout, Placement, Puzzle
from ..source import one_line

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def long_date(d: _dt.date, *, weekday: bool = True) -> str:
    """'Monday, 2 November 2026' (or '2 November 2026'): fixed English names, whatever the locale."""
    day = f"{d.day} {MONTHS[d.month - 1]} {d.year}"
    return f"{WEEKDAYS[d.weekday()]}, {day}" if weekday else day


# Characters no output shows: C0 and C1 controls but tab and line feed, DEL, surrogates and the two
# non-characters XML forbids. A clue or title holding one (an ESC that would recolour a terminal
# reading the .txt, a BEL that makes feed.xml ill-formed) loses it in every render.
_UNSHOWABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def printable(text: str) -> str:
    """`text` without the characters that no output may hold (see _UNSHOWABLE)."""
    return _UNSHOWABLE.sub("", text)


# A numbered reference ("12-Across", as `with_references` writes a [[name]], or as an author typed it):
# a line of HTML may break after its hyphen, leaving "12-" at a line's end.
_REFERENCE = re.compile(r"\b\d+-(?:Across|Down)\b")


# A run of this many characters with nowhere to break (no space, and none of the marks a URL breaks after)
# gets a zero-width space between every two of its characters, in print. WeasyPrint breaks a longer word
# (overflow-wrap: anywhere) by trying ever shorter pieces of it, which is quadratic: a clue of 2,000
# letters in one word took 27 s to print, 4 s with the breaks. A break anywhere is what the clue columns'
# plan assumes (svg.wrap), so the printed lines are the planned ones. Words of text never come near it
# (the longest English ones are about 30 letters), nor do a URL's parts.
LONG_RUN = 32
BREAK_EVERY = 6  # characters between the break opportunities `breakable` puts in a long run
_LONG_RUN = re.compile(r"[^\s\u200b/\-.,;:?&=_|]{%d,}" % LONG_RUN)


def breakable(text: str) -> str:
    """`text` with a zero-width space after every BREAK_EVERY characters of any run of LONG_RUN or more
    with nowhere to break (a Jinja2 filter for the PDF); other text is returned as it is.

    Not after every character: WeasyPrint tries each break opportunity of a line, and a clue of 1,500
    letters with no space, with a title and description long enough to send the clues on to a second
    page, took a minute to print (its columns are balanced over many trial heights). Six characters are
    narrower than any column, so a line still ends within six characters of the column's edge."""
    if len(text) < LONG_RUN or not _LONG_RUN.search(text):
        return text
    return _LONG_RUN.sub(lambda m: _chunked(m[0]), text)


def _chunked(run: str) -> str:
    """`run` with a zero-width space after every BREAK_EVERY characters, never inside a character's
    cluster: not before a combining mark, an emoji modifier, a joiner or a flag's tag, nor after a joiner
    or a virama (which joins the consonants either side of it), nor between a flag's two letters."""
    out, since, flags = [], 0, 0  # flags: regional indicators just before, in a row
    for i, ch in enumerate(run):
        flag = "\U0001f1e6" <= ch <= "\U0001f1ff"
        if (since >= BREAK_EVERY and not _clings(ch) and run[i - 1] != "\u200d"
                and unicodedata.combining(run[i - 1]) != 9 and not (flag and flags % 2)):
            out.append("\u200b")
            since = 0
        out.append(ch)
        since += not _clings(ch)
        flags = flags + 1 if flag else 0
    return "".join(out)


def _clings(ch: str) -> bool:
    """Whether `ch` belongs to the character before it (a mark, an emoji skin tone, a joiner, a tag of a
    subdivision's flag)."""
    return (unicodedata.category(ch).startswith("M") or ch in "\u200c\u200d" or "\U0001f3fb" <= ch <= "\U0001f3ff"
            or "\U000e0020" <= ch <= "\U000e007f")


def clue_html(clue: str, breaks: bool = False):
    """A clue as HTML (a Jinja2 filter): escaped, each numbered reference kept on one line; `breaks`: long
    runs made `breakable` (print)."""
    from markupsafe import Markup, escape

    if breaks:
        clue = breakable(clue)
    out, at = [], 0
    for m in _REFERENCE.finditer(clue):
        out += [escape(clue[at : m.start()]), Markup('<span class="nobr">'), escape(m.group()), Markup("</span>")]
        at = m.end()
    out.append(escape(clue[at:]))
    return Markup("").join(out)


def printable_value(value):
    """Jinja2 `finalize` for the HTML, XML and PDF templates: `printable` on every string printed.

    Markup (already-escaped HTML) stays Markup, so it is not escaped twice.
    """
    if isinstance(value, str) and _UNSHOWABLE.search(value):
        return type(value)(_UNSHOWABLE.sub("", value))
    return value


def clue_only(p: Placement) -> str:
    """The clue as printed, without its enumeration: 'Deputy Brennan'."""
    return printable(p.entry.clue) or "(no clue yet)"


def clue_text(p: Placement) -> str:
    """The clue as printed, with its enumeration: 'Deputy Brennan (4)'. (The page and the PDF print
    `clue_only` in a <bdi> before the enumeration, so a right-to-left clue cannot carry the
    enumeration to its left.)"""
    return f"{clue_only(p)} ({p.entry.enumeration})"


TEXT_WIDTH = 80  # columns of a clue line in the text outputs


# Characters a terminal gives two columns: Hangul, CJK ideographs, kana and their punctuation, full-width
# forms, emoji. Fixed ranges rather than unicodedata.east_asian_width, whose answers for characters
# assigned after Python 3.11's Unicode would change the .txt's bytes from one Python to the next.
_WIDE = ("\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3"
         "\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\U0001f300-\U0001f64f\U0001f680-\U0001f6ff\U0001f900-\U0001faff"
         "\U00020000-\U0003fffd")
_IS_WIDE = re.compile(f"[{_WIDE}]")
# Punctuation that Chinese and Japanese never put at the start of a line: it stays with the character before
_CLOSING = "\u3001\u3002\uff0c\uff0e\uff01\uff1f\uff09\u300d\u300f\u3015\u3011\u3009\u300b\u30fc\uff1a\uff1b"
# What stays with the character before it: combining marks, variation selectors, skin tones, and a joiner
# with the character it joins (an emoji family is one picture)
_JOINED = "(?:[\u0300-\u036f\u20d0-\u20ff\ufe00-\ufe0f\U0001f3fb-\U0001f3ff\U000e0020-\U000e007f]|\u200d.)*"
# A run of ASCII spaces (a no-break space is no break), one wide character (they break between any two),
# or a word to keep whole; either with the closing punctuation after it
_PIECES = re.compile(f"[ \t\n]+|[{_WIDE}]{_JOINED}[{_CLOSING}]*|(?:[^ \t\n{_WIDE}]{_JOINED})+[{_CLOSING}]*", re.S)


def columns(text: str) -> int:
    """How many terminal columns `text` takes: two for a wide character (`_WIDE`), none for a
    combining mark or a format character (a zero-width joiner), one for the rest."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if _IS_WIDE.match(ch) else 1
    return width


def wrap(text: str, width: int = TEXT_WIDTH, indent: str = "") -> list[str]:
    """`text` in lines of at most `width` terminal columns (see `columns`), later lines after `indent`.

    Like textwrap.wrap (breaks at spaces, never at hyphens; a word longer than a line is cut), but it
    counts columns, not characters: a line of Chinese takes 40 characters, not 80, and it may break
    between two of them.
    """
    lines: list[str] = []
    pieces = _PIECES.findall(text.replace("\t", " "))
    gap = lambda piece: piece[0] in " \n"  # noqa: E731  (a run of spaces, tabs made spaces)
    line = pieces.pop(0) if pieces and gap(pieces[0]) and len(pieces) > 1 else ""  # a leading indent stays
    used, space, fresh = columns(line), "", columns(indent)
    for piece in pieces:
        if gap(piece):
            space = " " * len(piece) if line.strip() else ""  # spaces between words are kept as typed
            continue
        need = columns(piece)
        # (textwrap's rule: a word is too long when it exceeds the width of the line it is on, less its indent)
        if used + len(space) + need > width and need <= width - (fresh if lines else 0) and line.strip():
            lines.append(line)  # the word fits a line of its own: it starts the next one
            line, used, space = indent, fresh, ""
        while piece and used + len(space) + need > width:  # longer than a whole line: cut to fill this one
            room, cut = width - used - len(space), 0
            while cut < len(piece) and columns(piece[: cut + 1]) <= room:
                cut += 1
            if cut == 0 and line.strip():  # no room left here: the cut starts the next line
                lines.append(line)
                line, used, space = indent, fresh, ""
                continue
            cut = max(cut, 1)  # a line narrower than one wide character still takes one
            lines.append(line + space + piece[:cut])
            piece, need = piece[cut:], columns(piece[cut:])
            line, used, space = indent, fresh, ""
        if piece:
            line += space + piece
            used += len(space) + need
        space = ""
    if line.strip():
        lines.append(line)
    return lines


def paragraphs(text: str) -> list[str]:
    """Front-matter notes as paragraphs (split at blank lines), each on one line, as every output prints them."""
    return [one_line(para) for para in text.replace("\r\n", "\n").split("\n\n") if para.strip()]


def render_grid_text(layout: Layout, *, solution: bool = False) -> str:
    """The grid, one row a line, a cell as wide as the largest clue number (two characters at least).

    Puzzle: a numbered cell shows its number, another letter cell '__', an
    unused cell blanks. Solution: letters, '.' for unused cells.
    """
    numbers = layout.numbers
    cells = layout.cells
    w = max(2, len(str(max(numbers.values(), default=0))))  # 100 and up would push the rest of a row right
    lines = []
    for r in range(layout.rows):
        row = []
        for c in range(layout.cols):
            ch = cells.get((r, c))
            if solution:
                row.append(f"{ch or '.':>{w}}")
            elif ch is None:
                row.append(" " * w)
            elif (r, c) in numbers:
                row.append(f"{numbers[(r, c)]:>{w}}")
            else:
                row.append("_" * w)
        lines.append(" ".join(row).rstrip())
    return "\n".join(lines) + "\n"


def render_text(puzzle: Puzzle, layout: Layout, *, solution: bool = False) -> str:
    """Title, grid and the clues Across then Down, for a terminal or a .txt file."""
    out = [one_line(puzzle.meta.title)]
    byline = " · ".join(one_line(x) for x in (puzzle.meta.author, puzzle.meta.date and puzzle.meta.date.isoformat()) if x)
    if byline:
        out.append(byline)
    if puzzle.meta.description.strip():
        out.append(one_line(puzzle.meta.description))
    out.append("")
    out.append(render_grid_text(layout, solution=solution))
    for heading, group in (("Across", layout.across), ("Down", layout.down)):
        if not group:
            continue
        out.append(heading)
        for p in group:
            line = f"{p.number:>3}. {clue_text(p)}"
            if solution:
                line += f"  {p.entry.display}"
            # a long clue wraps under its text, as on paper (a terminal or a printer would cut it or run on)
            out.extend(wrap(line, TEXT_WIDTH, indent=" " * 5))
        out.append("")
    return "\n".join(out)


def layout_json(puzzle: Puzzle, layout: Layout) -> dict:
    """The layout in the output format of seeds/003 (crossword-layout-generator).

    `table` is rows of one-character strings, '-' for an unused cell;
    `result` lists every entry in file order with 1-based `startx` (column)
    and `starty` (row), `orientation` ('across', 'down', or 'none' when
    unplaced, with null coordinates) and `position` (clue number, 0 when
    unplaced). Extra keys (`enumeration`, `required`, `fill`, and `copyright` and `notes` when
    the front matter has them) are ours;
    readers of the original format ignore them.
    """
    grid = layout.grid(empty="-")
    table = [[ch for ch in row] for row in grid]
    where = {p.entry.answer: p for p in layout.placements}
    result = []
    entries = list(puzzle.entries) + [p.entry for p in layout.placements if p.entry.fill]
    for e in entries:
        p = where.get(e.answer)
        item = {
            "answer": e.answer,
            "clue": e.clue,
            "display": e.display,
            "enumeration": e.enumeration,
            "required": e.required,
            "fill": e.fill,
            "startx": p.col + 1 if p else None,
            "starty": p.row + 1 if p else None,
            "orientation": p.direction.value if p else "none",
            "position": p.number if p else 0,
        }
        result.append(item)
    return {
        "title": puzzle.meta.title,
        "table": table,
        "result": result,
        "rows": layout.rows,
        "cols": layout.cols,
        "table_string": "\n".join("".join(row) for row in table),
        "unplaced": len(layout.unplaced),
        "seed": layout.seed,
        "strategy": layout.strategy,
        "crossings": layout.crossings,
        **{key: value for key, value in (("copyright", puzzle.meta.copyright), ("notes", puzzle.meta.notes)) if value.strip()},
    }


def render_json(puzzle: Puzzle, layout: Layout) -> str:
    return json.dumps(layout_json(puzzle, layout), ensure_ascii=False, indent=2) + "\n"


def render_text_file(puzzle: Puzzle, layout: Layout) -> str:
    """The .txt export: the puzzle (grid and clues), then the solution grid and answers."""
    out = [render_text(puzzle, layout).rstrip("\n"), "", "-" * 40, "Solution", ""]
    out.append(render_grid_text(layout, solution=True))
    for heading, group in (("Across", layout.across), ("Down", layout.down)):
        if not group:
            continue
        out.append(heading)
        out.extend(f"{p.number:>3}. {p.entry.display}" for p in group)
        out.append("")
    # as in the PDF, the notes (which may give answers away) and the copyright come after the answers
    for para in paragraphs(puzzle.meta.notes):
        out += [*wrap(para), ""]
    if puzzle.meta.copyright.strip():
        out += [*wrap(one_line(puzzle.meta.copyright)), ""]
    return "\n".join(out)


def render_markdown(puzzle: Puzzle, layout: Layout) -> str:
    """The clue list in Markdown, ready to paste into a README; answers folded away in <details>."""
    m = puzzle.meta
    out = [f"# {_md_escape(one_line(m.title))}", ""]
    byline = " · ".join(_md_escape(one_line(x)) for x in (m.author, m.date and m.date.isoformat()) if x)
    if byline:
        out += [f"*{byline}*", ""]
    if m.description.strip():
        out += [_md_block(one_line(m.description)), ""]
    for heading, group in (("Across", layout.across), ("Down", layout.down)):
        if not group:
            continue
        out.append(f"## {heading}")
        out.append("")
        for p in group:
            out.append(f"- **{p.number}.** {_md_clue(p)} ({p.entry.enumeration})")
        out.append("")
    if layout.placements:
        out += ["<details>", "<summary>Answers</summary>", ""]
        for heading, group in (("Across", layout.across), ("Down", layout.down)):
            if group:
                answers = ", ".join(f"{p.number} {p.entry.display}" for p in group)
                out.append(f"**{heading}:** {_md_escape(answers)}")
                out.append("")
        out += ["</details>", ""]
    if paragraphs(m.notes):
        out += ["<details>", "<summary>Notes</summary>", ""]
        for para in paragraphs(m.notes):
            out += [_md_block(para), ""]
        out += ["</details>", ""]
    if m.copyright.strip():
        out += [_md_block(one_line(m.copyright)), ""]
    return "\n".join(out)


_RTL = ("R", "AL")


_IN_WORD = "'\u2019-\u2010\"\u05f3\u05f4\u200c\u200d"  # don't, e-mail, צ'יפס and צה"ל (geresh, gershayim), a ZWNJ


def clue_direction(clue: str) -> str:
    """"rtl" or "ltr" where an isolate's own guess, its first strong letter, would set the clue the wrong
    way: a clue mostly in English that begins with a Hebrew or Arabic word read right to left ("is hello
    world in שלום עולם"), one mostly in Hebrew that begins with a Latin name left to right; "" where the
    guess is right. The main direction is that of most of its words, then of most of its letters (Hebrew and
    Arabic spell with fewer letters: "The القرآن الكريم, holy book" has more Arabic letters than English ones,
    and reads as English); as many each way read left to right, as the page does."""
    first, prev = "", ""
    words, letters = {"ltr": 0, "rtl": 0}, {"ltr": 0, "rtl": 0}
    for ch in clue:
        kind = unicodedata.bidirectional(ch)
        if kind == "NSM" or ch in _IN_WORD:  # a combining mark, an apostrophe, a joiner: part of the word
            continue
        way = "ltr" if kind == "L" else "rtl" if kind in _RTL else ""
        if way:
            first = first or way
            letters[way] += 1
            words[way] += way != prev
        prev = way
    main = "rtl" if (words["rtl"], letters["rtl"]) > (words["ltr"], letters["ltr"]) else "ltr"
    return main if first and main != first else ""


def dir_attribute(clue: str):
    """` dir="ltr"` or ` dir="rtl"` for a clue's <bdi> where its own guess is wrong (`clue_direction`)."""
    from markupsafe import Markup

    way = clue_direction(clue)
    return Markup(f' dir="{way}"') if way else Markup("")


_BIDI_CONTROLS = frozenset("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def isolated(text: str) -> str:
    """`text` in a first-strong isolate (U+2068 ... U+2069) when it holds direction controls, for places no
    markup can isolate: a page's <title>, which the browser shows in its tab and history. An override
    (U+202E) in a puzzle's title then stops at the isolate's end, and does not run on over the site title
    after it. Other text, right-to-left letters and all, is returned as it is (the title a script reads)."""
    if any(ch in _BIDI_CONTROLS for ch in text):
        return "\u2068" + text + "\u2069"
    return text


def _md_clue(p: Placement) -> str:
    """The clue escaped for Markdown; right-to-left text is wrapped in Unicode isolates so the number and
    enumeration around it keep their places: a first-strong isolate (U+2068 ... U+2069), or a left-to-right
    or right-to-left one (U+2066, U+2067) where the first letter would set the clue the wrong way."""
    clue = _md_escape(one_line(p.entry.clue) or "(no clue yet)")
    if any(unicodedata.bidirectional(ch) in _RTL for ch in clue):
        opening = {"ltr": "\u2066", "rtl": "\u2067"}.get(clue_direction(clue), "\u2068")
        clue = opening + clue + "\u2069"
    return clue


def _md_escape(text: str) -> str:
    """Backslash-escape every character Markdown or inline HTML could act on."""
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in text)


_MD_SPECIAL = set("\\`*_[]<>#|&~")


def _md_block(text: str) -> str:
    """`_md_escape` for text that opens a line: a leading '-', '+' or '=' (a list item, a rule, a
    heading's underline) and a number before '.' or ')' (an ordered list) are escaped too."""
    text = _md_escape(text)
    if text[:1] in ("-", "+", "="):
        return "\\" + text
    return re.sub(r"^(\d+)([.)])", r"\1\\\2", text)
