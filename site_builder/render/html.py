"""The interactive puzzle page: grid and clues in plain HTML, enhanced by player.js.

The page works without JavaScript (grid, clues and downloads are in the HTML
and print cleanly). The player reads a JSON block embedded in the page, so it
works offline and from file://. The answers in that block are not plain words:
each letter is XORed with a keystream derived from the slug and the result is
base64-encoded (`encode_solution`); player.js undoes it to check letters. This
hides the answers from a glance at the source, it is not encryption.
"""

from __future__ import annotations

import base64
import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from ..config import example_address
from ..model import Direction, Layout, Placement, Puzzle
from .text import clue_html, clue_only, clue_text, dir_attribute, isolated, long_date, paragraphs, printable_value

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

@lru_cache(maxsize=1)
def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        undefined=StrictUndefined,
        finalize=printable_value,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["clue_html"] = clue_html
    env.filters["dir_attribute"] = dir_attribute
    env.filters["isolated"] = isolated
    env.tests["example_address"] = example_address
    return env


# ------------------------------------------------------------------ answer encoding


def keystream(slug: str, n: int) -> bytes:
    """n key bytes for a puzzle: FNV-1a of the slug seeds a xorshift32 generator.

    player.js computes the same bytes (keep the two in step).
    """
    h = 0x811C9DC5
    for b in ("crossword-press/" + slug).encode("utf-8"):
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    state = h or 0x9E3779B9
    out = bytearray()
    for _ in range(n):
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        out.append(state & 0xFF)
    return bytes(out)


def encode_solution(slug: str, letters: str) -> str:
    """Letters (A-Z) -> base64 of each letter's code XORed with the slug's keystream."""
    raw = letters.encode("ascii")
    key = keystream(slug, len(raw))
    return base64.b64encode(bytes(a ^ b for a, b in zip(raw, key))).decode("ascii")


def decode_solution(slug: str, encoded: str) -> str:
    """The inverse of encode_solution."""
    raw = base64.b64decode(encoded)
    key = keystream(slug, len(raw))
    return bytes(a ^ b for a, b in zip(raw, key)).decode("ascii")


def script_json(value: Any) -> Markup:
    """JSON that is safe inside <script type="application/json">.

    '<', '>' and '&' become \\u escapes, so no text (a clue holding
    '</script>' or '<!--') can end the element early; JSON.parse reads
    the escapes back as the original characters.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return Markup(text)


# ------------------------------------------------------------------ page model



def _dir_name(d: Direction) -> str:
    return "Across" if d is Direction.ACROSS else "Down"


def _clue_id(p: Placement) -> str:
    return f"clue-{p.direction.value}-{p.number}"


def _cells_model(layout: Layout) -> list[list[dict | None]]:
    """Rows of cells for the template: None for an empty square, {"hole": True} for one walled in by letters."""
    words: dict[tuple[int, int], list[tuple[Placement, int]]] = {}
    for p in layout.placements:
        for i, rc in enumerate(p.cells()):
            words.setdefault(rc, []).append((p, i))
    rows: list[list[dict | None]] = []
    for r in range(layout.rows):
        row: list[dict | None] = []
        for c in range(layout.cols):
            if (r, c) not in layout.cells:
                row.append({"hole": True} if (r, c) in layout.holes else None)
                continue
            parts = [
                f"{p.number} {_dir_name(p.direction)}, letter {i + 1} of {len(p.entry.answer)}"
                for p, i in sorted(words[(r, c)], key=lambda t: t[0].direction is Direction.DOWN)
            ]
            row.append({
                "hole": False,
                "r": r,
                "c": c,
                "number": layout.numbers.get((r, c)),
                "label": f"Row {r + 1}, column {c + 1}: " + "; ".join(parts),
            })
        rows.append(row)
    return rows


def _clue_model(p: Placement) -> dict:
    return {
        "id": _clue_id(p),
        "number": p.number,
        "dir": p.direction.value,
        "clue": clue_only(p),
        "enumeration": p.entry.enumeration,
        "fill": p.entry.fill,
    }


def storage_key(puzzle: Puzzle, layout: Layout) -> str:
    """Where the player keeps a solver's progress in localStorage (the index reads it too): the slug and a
    digest of the grid, so progress in a grid whose answers have changed is never shown in the new one."""
    digest = hashlib.sha256(
        (f"{layout.rows}x{layout.cols}:" + ";".join(f"{p.row},{p.col},{p.direction.value},{p.entry.answer}"
                                                  for p in layout.placements)).encode("utf-8")
    ).hexdigest()[:12]
    return f"crossword-press:{puzzle.slug}:{digest}"


def puzzle_data(puzzle: Puzzle, layout: Layout) -> dict:
    """What player.js needs, embedded in the page as JSON."""
    order = sorted(layout.cells)
    letters = "".join(layout.cells[rc] for rc in order)
    return {
        "version": 1,
        "slug": puzzle.slug,
        "title": puzzle.meta.title,
        "rows": layout.rows,
        "cols": layout.cols,
        "storageKey": storage_key(puzzle, layout),
        "cells": [[r, c] for r, c in order],
        "solution": encode_solution(puzzle.slug, letters),
        "entries": [
            {
                "id": _clue_id(p),
                "number": p.number,
                "dir": p.direction.value,
                "row": p.row,
                "col": p.col,
                "length": len(p.entry.answer),
                "clue": clue_text(p),
            }
            for p in layout.placements
        ],
    }


def summary(puzzle: Puzzle, layout: Layout) -> str:
    """A line about the puzzle for a page that has no description (search results, link previews):
    'A freeform crossword of 30 answers in a 19×18 grid, by Ann Lee, 16 November 2026.'"""
    meta = puzzle.meta
    n = len(layout.placements)
    by = f", by {meta.author}" if meta.author else ""
    when = f", {long_date(meta.date, weekday=False)}" if meta.date else ""
    size = f"{layout.cols}×{layout.rows}"
    return f"A freeform crossword of {n} answer{'' if n == 1 else 's'} in {_article(layout.cols)} {size} grid{by}{when}."


def _article(n: int) -> str:
    """'an' before a number said with a vowel first (8, 11, 18, 80-89, 800-899...), else 'a'."""
    digits = str(n)
    return "an" if digits.startswith("8") or (len(digits) % 3 == 2 and digits[:2] in ("11", "18")) else "a"


def render_puzzle_page(
    puzzle: Puzzle,
    layout: Layout,
    *,
    site: Mapping[str, Any],
    root: str,
    downloads: Iterable[tuple[str, str, str]],
    live_reload: bool = False,
    neighbours: tuple = (None, None),
) -> str:
    """The puzzle's web page (public/<slug>/index.html) as a string.

    `site` holds at least `title`, `licence` and `base_url`; `root` is the relative URL
    from the page to the site root ("../"); `downloads` lists (label, href,
    note); `neighbours` the (slug, title) of the next newer and older puzzle
    of the archive, or None. `live_reload` adds the watch helper's script
    (never published).
    """
    meta = puzzle.meta
    template = _environment().get_template("puzzle.html")
    return template.render(
        site=site,
        root=root,
        downloads=[tuple(d) for d in downloads],
        live_reload=live_reload,
        newer=neighbours[0],
        older=neighbours[1],
        slug=puzzle.slug,
        title=meta.title,
        author=meta.author,
        date_iso=meta.date.isoformat() if meta.date else "",
        date_human=long_date(meta.date, weekday=False) if meta.date else "",
        difficulty=meta.difficulty,
        tags=meta.tags,
        description=meta.description,
        summary=summary(puzzle, layout),
        notes=paragraphs(meta.notes),
        copyright=meta.copyright,
        rows=layout.rows,
        cols=layout.cols,
        grid=_cells_model(layout),
        across=[_clue_model(p) for p in layout.across],
        down=[_clue_model(p) for p in layout.down],
        data=script_json(puzzle_data(puzzle, layout)),
    )
