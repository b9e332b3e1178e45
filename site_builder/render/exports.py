"""Exports for solvers' apps: ipuz, Across Lite .puz and .xd, plus the JSON, text and Markdown files.

Every function here is pure: a Puzzle and its Layout in, `str` or `bytes`
out, the same bytes on every run. `export_files` gives the whole set, keyed
by file name, for the site build and `crossword generate --out-dir`.

How a freeform grid maps onto each format (docs/exports.md says more):

- ipuz: a cell outside the freeform shape is `null` in `puzzle` and
  `solution`. The ipuz spec reserves `null` for an omitted cell (no square
  at all, the case of shaped puzzles) and `#` for a block (a black square
  that is part of the grid), so `null` says exactly what the cell is.
  Enumerations go in each clue's `enumeration` field with
  `showenumerations: true`, not in the clue text. Text fields are HTML, as
  the spec has them, so `&`, `<` and `>` are entities.
- .puz: the format only knows black squares, so every unused cell is black.
  Enumerations are appended to the clue text, "Clue (3,4)". Text is
  ISO-8859-1 in version 1.3; see `_puz_strings` for what happens to other
  characters.
- .xd: `_` (a cell that does not exist) for unused cells; the freeform grid
  has no blocks, so `#` never appears. Enumerations are in the clue text, as
  .xd has no field for them.
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from typing import Callable

from .. import __version__
from ..model import Direction, Layout, Placement, Puzzle
from ..source import one_line  # clues and front-matter text on one line, as every output shows them
from . import text as text_render

IPUZ_KIND = "http://ipuz.org/crossword#1"
IPUZ_VERSION = "http://ipuz.org/v2"
ORIGIN = f"Crossword Press {__version__}"

# ------------------------------------------------------------------ shared




def clue_of(p: Placement) -> str:
    """The clue text of a placement without its enumeration, on one line."""
    return one_line(p.entry.clue) or "(no clue yet)"


def clue_with_enumeration(p: Placement) -> str:
    return f"{clue_of(p)} ({p.entry.enumeration})"


def _json_text(data: object) -> str:
    """Indented JSON, a list of plain values on one line (a grid row, a clue's fields).

    `<`, `>`, `&` and U+2028/U+2029 are escaped, so the text is safe inside
    HTML or a script as well.
    """
    raw = _json_lines(data, "")
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        raw = raw.replace(ch, esc)
    return raw + "\n"


def _json_lines(value: object, indent: str) -> str:
    inner = indent + "  "
    if isinstance(value, dict) and value:
        if all(not isinstance(v, (dict, list)) for v in value.values()):
            return json.dumps(value, ensure_ascii=False)
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_json_lines(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and value and any(isinstance(v, (dict, list)) for v in value):
        return "[\n" + ",\n".join(inner + _json_lines(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)


# -------------------------------------------------------------------- ipuz


def _html(text: str) -> str:
    """Text for an ipuz text field, which the spec makes HTML: readers such as GNOME Crosswords
    (libipuz) and XWord render it, so `&`, `<` and `>` are written as entities and a clue's
    `R&B` or `<b>` shows as typed, not as markup."""
    return html.escape(text, quote=False)


def ipuz_data(puzzle: Puzzle, layout: Layout) -> dict:
    """The ipuz document as a dict (see `render_ipuz`). Its text fields are HTML (`_html`); the
    difficulty, which the spec calls informational, stays plain."""
    m = puzzle.meta
    cells = layout.cells
    numbers = layout.numbers
    grid = []
    solution = []
    for r in range(layout.rows):
        grid_row: list[int | None] = []
        sol_row: list[str | None] = []
        for c in range(layout.cols):
            ch = cells.get((r, c))
            grid_row.append(None if ch is None else numbers.get((r, c), 0))
            sol_row.append(ch)
        grid.append(grid_row)
        solution.append(sol_row)
    data: dict = {"version": IPUZ_VERSION, "kind": [IPUZ_KIND], "title": _html(one_line(m.title))}
    for key, value in (
        ("author", m.author),
        ("copyright", m.copyright),
        ("intro", m.description),
        ("notes", m.notes),
        ("difficulty", m.difficulty),
    ):
        if value:
            text = value if key == "notes" else one_line(value)
            data[key] = text if key == "difficulty" else _html(text)
    if m.date:
        data["date"] = f"{m.date.month:02}/{m.date.day:02}/{m.date.year:04}"  # strftime writes year 1 as "1"
    data.update(
        {
            "origin": ORIGIN,
            "block": "#",
            "empty": 0,
            "charset": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "dimensions": {"width": layout.cols, "height": layout.rows},
            "showenumerations": True,
            "puzzle": grid,
            "solution": solution,
            "clues": {
                "Across": [_ipuz_clue(p) for p in layout.across],
                "Down": [_ipuz_clue(p) for p in layout.down],
            },
        }
    )
    return data


def _ipuz_clue(p: Placement) -> dict:
    return {"number": p.number, "clue": _html(clue_of(p)), "enumeration": p.entry.enumeration}


def render_ipuz(puzzle: Puzzle, layout: Layout) -> str:
    """The puzzle as an ipuz crossword (JSON, UTF-8)."""
    return _json_text(ipuz_data(puzzle, layout))


# --------------------------------------------------------------------- puz

# Typographic characters outside ISO-8859-1 and their plain spellings.
_LATIN1_SUBSTITUTES = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2212": "-",
    "\u2014": "--", "\u2015": "--", "\u2026": "...", "\u2022": "*",
    "\u20ac": "EUR", "\u2122": "(TM)", "\u2009": " ", "\u200a": " ", "\u202f": " ", "\u2007": " ",
    "\u200b": "", "\u200c": "", "\u200d": "", "\u2060": "", "\ufeff": "",
    "\u0152": "OE", "\u0153": "oe", "\u0141": "L", "\u0142": "l", "\u0131": "i",
    # the rest of Windows-1252's own characters, which a setter's word processor types
    "\u2020": "+", "\u2021": "++", "\u2030": "o/oo", "\u0192": "f", "\u02c6": "^", "\u02dc": "~",
    "\u2039": "<", "\u203a": ">",
}


def to_latin1(text: str) -> str | None:
    """`text` spelled in ISO-8859-1, or None when that would lose letters.

    Typographic quotes, dashes and ellipses become their ASCII forms; a letter
    with an accent that Latin-1 lacks loses the accent (o with double acute
    becomes o). A character with no such spelling (Hebrew, Greek, emoji,
    CJK) gives None.
    """
    out = []
    for ch in text:
        if ord(ch) < 0x100:
            out.append(ch)
            continue
        if ch in _LATIN1_SUBSTITUTES:
            out.append(_LATIN1_SUBSTITUTES[ch])
            continue
        compat = unicodedata.normalize("NFKC", ch)
        if compat != ch and all(ord(c) < 0x100 for c in compat):
            out.append(compat)
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        if base and all(ord(c) < 0x100 for c in base):
            out.append(base)
            continue
        return None
    return "".join(out)


def _puz_strings(puzzle: Puzzle, layout: Layout, clues: list[str]) -> tuple[str, dict[str, str], list[str]]:
    """(version, header strings, clues) for the .puz file.

    Version 1.3, the one every reader knows, stores ISO-8859-1 text; when
    `to_latin1` can spell every string, that is what we write. When one
    cannot (a right-to-left clue, an emoji), the file is version 2.0, whose
    strings are UTF-8 and keep the text exactly: Across Lite 2.x and later
    and most current apps read it; older readers show the non-ASCII text
    garbled. The grid itself is always A-Z.
    """
    m = puzzle.meta
    notes = "\n\n".join(x.strip() for x in (m.description, m.notes) if x.strip())
    notes = "\n".join(one_line(line) for line in notes.replace("\r\n", "\n").split("\n"))
    header = {
        "title": one_line(m.title),
        "author": one_line(m.author),
        "copyright": one_line(m.copyright),
        "notes": notes,
    }
    latin = {k: to_latin1(v) for k, v in header.items()}
    latin_clues = [to_latin1(c) for c in clues]
    if all(v is not None for v in latin.values()) and all(c is not None for c in latin_clues):
        return "1.3", {k: v for k, v in latin.items() if v is not None}, [c for c in latin_clues if c is not None]
    return "2.0", header, clues


FRAGMENT_CLUE = "No clue: both letters come from the crossing answers"


_REFERENCE_NUMBER = re.compile(r"\b(\d+)-(Across|Down)\b")  # as layout.with_references prints a reference


def reader_clues(layout: Layout) -> list[tuple[str, int, str, str]]:
    """The clues as a reader that numbers the grid itself numbers them: (direction letter, number, clue, letters).

    A .puz or .xd reader numbers every run of two or more letters itself, so
    each of its runs takes the clue of the answer there. Under the strict
    rules that is every run, numbered as ours; the `adjacency` strategy may
    leave two-letter fragments, runs no answer holds (its summary reports
    them), which get FRAGMENT_CLUE and, being numbered too, can move the
    numbers after them: a clue's reference to another answer ("12-Across",
    from the layout's numbers) is rewritten to the number the reader shows.
    Any other run with no answer is a broken layout: ValueError. In the
    reader's order: by number, Across before Down.
    """
    import puz

    from ..layout.adjacency import fragments

    cells = layout.cells
    solution = "".join(
        cells.get((r, c), puz.BLACKSQUARE) for r in range(layout.rows) for c in range(layout.cols)
    )
    across, down = puz.get_grid_numbering(solution, layout.cols, layout.rows)
    theirs = sorted(
        [(e["num"], 0, e["row"], e["col"], e["len"]) for e in across]
        + [(e["num"], 1, e["row"], e["col"], e["len"]) for e in down]
    )
    answers = {(q.row, q.col, int(q.direction is Direction.DOWN), len(q.answer)): q for q in layout.placements}
    # only the adjacency strategy's rules allow a run no answer holds
    loose = {(r, c, int(d == "down"), len(letters)) for r, c, d, letters in fragments(layout)} if layout.strategy == "adjacency" else set()
    renumber = {}
    for num, d, r, c, n in theirs:
        q = answers.get((r, c, d, n))
        if q is not None and q.number != num:
            renumber[(q.number, "Down" if d else "Across")] = num

    def reader_numbers(text: str) -> str:
        return _REFERENCE_NUMBER.sub(
            lambda m: f"{renumber.get((int(m.group(1)), m.group(2)), m.group(1))}-{m.group(2)}", text)

    clues = []
    for num, d, r, c, n in theirs:
        q = answers.pop((r, c, d, n), None)
        if q is not None:
            clues.append(("AD"[d], num, reader_numbers(clue_with_enumeration(q)), q.answer))
        elif (r, c, d, n) in loose:
            letters = "".join(cells[(r + k * d, c + k * (1 - d))] for k in range(n))
            clues.append(("AD"[d], num, FRAGMENT_CLUE, letters))
        else:
            raise ValueError(f"the grid has a run at row {r + 1}, column {c + 1} that is no answer; the layout breaks the one-run-one-answer rule")
    if answers:
        raise ValueError("an answer of the layout is not a run of the grid; the layout breaks the one-run-one-answer rule")
    return clues


def render_puz(puzzle: Puzzle, layout: Layout) -> bytes:
    """The puzzle as an Across Lite .puz file, written with puzpy.

    Unused cells are black squares; clues go by number, Across before Down
    at the same number, as the format requires, numbered as the reader
    numbers the grid (`reader_clues`).
    """
    import puz

    p = puz.Puzzle()
    p.width, p.height = layout.cols, layout.rows
    cells = layout.cells
    solution = "".join(
        cells.get((r, c), puz.BLACKSQUARE) for r in range(layout.rows) for c in range(layout.cols)
    )
    clues = [clue for _, _, clue, _ in reader_clues(layout)]
    version, header, clues = _puz_strings(puzzle, layout, clues)
    p.set_version(version)  # also the text encoding: ISO-8859-1 for 1.3, UTF-8 for 2.0
    p.solution = solution
    p.fill = "".join(puz.BLACKSQUARE if ch == puz.BLACKSQUARE else puz.BLANKSQUARE for ch in solution)
    p.title, p.author, p.copyright, p.notes = header["title"], header["author"], header["copyright"], header["notes"]
    p.clues = clues
    return p.tobytes()


# ---------------------------------------------------------------------- xd

XD_HEADER_KEYS = ("Title", "Author", "Copyright", "Date", "Description", "Difficulty")


def xd_clue(text: str) -> str:
    """Clue text made safe for an .xd clue line.

    .xd reads a backslash as a line break inside a clue, so a literal one is
    written as U+29F5 (REVERSE SOLIDUS OPERATOR), which looks the same.
    """
    return one_line(text).replace("\\", "\u29f5")


def render_xd(puzzle: Puzzle, layout: Layout) -> str:
    """The puzzle in the plain-text .xd format.

    Sections are separated by two blank lines: metadata (`Key: value`), the
    grid (`_` for a cell that does not exist), the clues (`A1. clue (4) ~
    ANSWER`, a blank line between Across and Down; numbered as a reader
    numbers the grid, see `reader_clues`), then the notes.
    """
    m = puzzle.meta
    values = {
        "Title": m.title,
        "Author": m.author,
        "Copyright": m.copyright,
        "Date": m.date.isoformat() if m.date else "",
        "Description": m.description,
        "Difficulty": m.difficulty,
    }
    head = [f"{k}: {one_line(values[k])}" for k in XD_HEADER_KEYS if one_line(values[k])]
    grid = ["".join(ch or "_" for ch in row) for row in layout.grid()]
    clues = reader_clues(layout)  # an .xd reader numbers the grid itself, as a .puz reader does
    groups = []
    for letter in "AD":
        lines = [f"{letter}{num}. {xd_clue(clue)} ~ {answer}" for d, num, clue, answer in clues if d == letter]
        if lines:
            groups.append("\n".join(lines))
    sections = ["\n".join(head), "\n".join(grid), "\n\n".join(groups)]
    notes = "\n".join(_xd_note_line(line) for line in m.notes.replace("\r\n", "\n").strip().split("\n"))
    if notes:
        sections.append(notes)
    return "\n\n\n".join(sections) + "\n"


def _xd_note_line(line: str) -> str:
    """One notes line; one starting '##' gets a leading U+2060 WORD JOINER, or readers would take it for a
    '## Section' heading (xd spec 2.0)."""
    line = "".join(" " if unicodedata.category(ch) == "Cc" or ch in "\u2028\u2029" else ch for ch in line).rstrip()
    return "\u2060" + line if line.lstrip().startswith("##") else line


# ------------------------------------------------------------- the file set


def render_txt(puzzle: Puzzle, layout: Layout) -> str:
    return text_render.render_text_file(puzzle, layout)


EXPORTS: dict[str, Callable[[Puzzle, Layout], str | bytes]] = {
    "ipuz": render_ipuz,
    "puz": render_puz,
    "xd": render_xd,
    "json": text_render.render_json,
    "txt": render_txt,
    "md": text_render.render_markdown,
}
"""File extension -> renderer, in the order the puzzle page lists them."""


def export_files(puzzle: Puzzle, layout: Layout) -> dict[str, str | bytes]:
    """Every export of one puzzle: `{"<slug>.ipuz": ..., "<slug>.puz": b"...", ...}`."""
    return {f"{puzzle.slug}.{ext}": render(puzzle, layout) for ext, render in EXPORTS.items()}

