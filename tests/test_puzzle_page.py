"""The puzzle page's HTML, without a browser: content, escaping, encoded answers."""

from __future__ import annotations

import html
import json
import re

import pytest

from site_builder.layout import layout_entries, layout_puzzle, params_for
from site_builder.model import Entry, LayoutParams
from site_builder.render.html import (
    decode_solution,
    encode_solution,
    keystream,
    render_puzzle_page,
    script_json,
)
from site_builder.source import load_puzzle

SITE = {"title": "The Crossword Press", "licence": "Puzzles CC BY 4.0", "base_url": "https://example.org/xw/"}
DOWNLOADS = [
    ("PDF", "allotment.pdf", "print it"),
    ("Across Lite", "allotment.puz", "Across Lite, Crossword Scraper and most apps"),
]

SMALL = """---
title: Allotment
date: 2026-05-01
author: Test Setter
difficulty: easy
description: A small grid & a short list.
---
GARDEN | Where the party is
ONION | Layered vegetable
RANGE | Cooker, or mountains
DENIM | Jeans fabric
ANGEL | Heavenly being
"""


@pytest.fixture(scope="module")
def small():
    puzzle = load_puzzle(SMALL, slug="allotment")
    return puzzle, layout_puzzle(puzzle, params_for(puzzle, seeds=10))


def page(puzzle, layout, **kw):
    args = dict(site=SITE, root="../", downloads=DOWNLOADS)
    args.update(kw)
    return render_puzzle_page(puzzle, layout, **args)


def embedded_data(text: str) -> dict:
    m = re.search(r'<script type="application/json" id="puzzle-data">(.*?)</script>', text, re.S)
    assert m, "no puzzle-data block"
    return json.loads(m.group(1))


def test_page_shows_metadata_grid_clues_and_downloads(small):
    puzzle, layout = small
    text = page(puzzle, layout)
    assert text.startswith("<!DOCTYPE html>")
    assert '<a class="site-title" href="../index.html">The Crossword Press</a>' in text
    assert "<h1>Allotment</h1>" in text
    assert "By <bdi>Test Setter</bdi>" in text
    assert '<time datetime="2026-05-01">1 May 2026</time>' in text
    assert ">Easy<" in text
    assert "A small grid &amp; a short list." in text
    assert "Puzzles CC BY 4.0" in text
    # one cell element per letter cell, numbered from the layout
    assert text.count('role="gridcell"') == layout.letter_cells
    for (r, c), n in layout.numbers.items():
        assert re.search(rf'id="cell-{r}-{c}"[^>]*><span class="num" aria-hidden="true">{n}</span>', text)
    for p in layout.placements:
        assert f'id="clue-{p.direction.value}-{p.number}"' in text
        assert html.escape(f"{p.entry.clue} ({p.entry.enumeration})", quote=False) in text
    assert '<a href="allotment.pdf">PDF</a> <span class="note">print it</span>' in text
    assert '<a href="allotment.puz">Across Lite</a>' in text
    assert '<link rel="stylesheet" href="../static/player.css">' in text
    assert '<script src="../static/player.js"></script>' in text


def test_cells_have_labels_naming_their_entries(small):
    puzzle, layout = small
    text = page(puzzle, layout)
    p = layout.across[0]
    cell = re.search(rf'id="cell-{p.row}-{p.col}" role="gridcell" aria-colindex="(\d+)" aria-label="([^"]*)"', text)
    assert cell[1] == str(p.col + 1)
    label = cell[2]
    assert label.startswith(f"Row {p.row + 1}, column {p.col + 1}: {p.number} Across, letter 1 of {len(p.answer)}")


def test_answers_are_not_in_the_source_but_decode(small):
    puzzle, layout = small
    text = page(puzzle, layout)
    for p in layout.placements:
        assert p.answer not in text.upper(), p.answer
    data = embedded_data(text)
    letters = decode_solution("allotment", data["solution"])
    assert letters == "".join(layout.cells[rc] for rc in sorted(layout.cells))
    assert [tuple(rc) for rc in data["cells"]] == sorted(layout.cells)
    assert [(e["number"], e["dir"], e["row"], e["col"], e["length"]) for e in data["entries"]] == [
        (p.number, p.direction.value, p.row, p.col, len(p.answer)) for p in layout.placements
    ]


def test_encoding_round_trips_and_depends_on_the_slug():
    assert decode_solution("a", encode_solution("a", "COOPER")) == "COOPER"
    assert encode_solution("a", "COOPER") != encode_solution("b", "COOPER")
    assert keystream("twin-peaks", 4) == keystream("twin-peaks", 8)[:4]
    assert len(set(keystream("twin-peaks", 64))) > 20


def test_script_json_cannot_end_the_script_element():
    out = str(script_json({"clue": "</script><script>alert(1)</script> <!-- & \u2028"}))
    assert "<" not in out and ">" not in out and "&" not in out
    assert json.loads(out) == {"clue": "</script><script>alert(1)</script> <!-- & \u2028"}


def test_clue_with_script_tag_stays_inside_the_data_block():
    source = SMALL.replace("Where the party is", "Ends here </script><script>alert(1)</script>")
    source = source.replace("title: Allotment", 'title: "Allot </script> ment"')
    puzzle = load_puzzle(source, slug="allotment")
    layout = layout_puzzle(puzzle, params_for(puzzle, seeds=10))
    text = page(puzzle, layout)
    assert "<script>alert(1)" not in text
    assert text.count("<script") == 2  # the data block and player.js
    data = embedded_data(text)
    assert data["title"] == "Allot </script> ment"
    assert any(e["clue"].startswith("Ends here </script><script>alert(1)</script>") for e in data["entries"])
    assert "Ends here &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in text


def test_live_reload_script_only_when_asked(small):
    puzzle, layout = small
    assert "livereload.js" not in page(puzzle, layout)
    assert '<script src="../static/livereload.js"></script>' in page(puzzle, layout, live_reload=True)


def test_rendering_is_deterministic(small):
    puzzle, layout = small
    assert page(puzzle, layout) == page(puzzle, layout)


def test_no_downloads_no_section_and_empty_licence(small):
    puzzle, layout = small
    text = page(puzzle, layout, downloads=[], site={"title": "X", "licence": "", "base_url": "https://example.org/"})
    assert "Download" not in text
    assert 'class="licence"' not in text


def test_fill_word_without_clue_says_so():
    entries = (Entry("GARDEN", "Where the party is"), Entry("RANGE", "", fill=True))
    layout = layout_entries(entries, LayoutParams(seeds=5))
    puzzle = load_puzzle(SMALL, slug="allotment")
    text = page(puzzle, layout)
    assert "(no clue yet) (5)" in text
    assert 'class="fill"' in text


def test_twin_peaks_page_renders(twin_peaks):
    layout = layout_puzzle(twin_peaks, params_for(twin_peaks, seeds=20))
    text = page(twin_peaks, layout, downloads=[("PDF", "twin-peaks.pdf", "print it")])
    assert text.count('role="gridcell"') == layout.letter_cells
    assert "GREATNORTHERN" not in text and "WINDOMEARLE" not in text
    data = embedded_data(text)
    assert data["storageKey"].startswith("crossword-press:twin-peaks:")
    assert len(data["entries"]) == len(layout.placements)


def test_page_shows_notes_folded_and_the_copyright():
    source = SMALL.replace(
        "---\nGARDEN", 'copyright: "\\u00a9 2026 Test Setter"\nnotes: |\n  GARDEN & ONION <cross>.\n\n  Second paragraph.\n---\nGARDEN'
    )
    puzzle = load_puzzle(source, slug="allotment")
    text = page(puzzle, layout_puzzle(puzzle, params_for(puzzle, seeds=10)))
    # notes may give answers away: folded in a <details>, one <p> a paragraph, escaped; copyright shown
    notes = re.search(r'<details class="notes">(.*?)</details>', text, re.S)
    assert notes, "no notes block"
    assert "<summary>Notes" in notes.group(1)
    assert re.findall(r"<p>(.*?)</p>", notes.group(1)) == ["GARDEN &amp; ONION &lt;cross&gt;.", "Second paragraph."]
    assert '<p class="copyright">\u00a9 2026 Test Setter</p>' in text


def test_page_without_notes_or_copyright_has_neither_block(small):
    text = page(*small)
    assert 'class="notes"' not in text and 'class="copyright"' not in text


def test_the_tools_are_a_labelled_group_not_a_toolbar(small):
    # role=toolbar promises arrow-key movement between its controls (one tab stop); they move with Tab
    text = page(*small)
    assert '<div class="toolbar" role="group" aria-label="Puzzle tools" hidden>' in text and 'role="toolbar"' not in text


def test_a_reference_is_kept_on_one_line_and_the_enumeration_with_the_last_word():
    source = SMALL.replace("Layered vegetable", "Layered vegetable grown beside [[garden]] & <b>")
    puzzle = load_puzzle(source, slug="allotment")
    layout = layout_puzzle(puzzle, params_for(puzzle, seeds=10))
    from site_builder.layout import with_references

    puzzle, layout = with_references(puzzle, layout)
    garden = next(p for p in layout.placements if p.entry.answer == "GARDEN")
    text = page(puzzle, layout)
    ref = f"{garden.number}-{garden.direction.value.title()}"
    assert (f'<bdi>Layered vegetable grown beside <span class="nobr">{ref}</span> &amp; &lt;b&gt;</bdi>&nbsp;'
            '<span class="nobr">(5)</span>' in text)


@pytest.mark.parametrize("cols,article", [(8, "an"), (11, "an"), (18, "an"), (12, "a"), (19, "a"), (80, "an"),
                                          (110, "a")])
def test_the_pages_own_description_says_an_before_eight_eleven_and_eighteen(small, cols, article):
    import dataclasses

    from site_builder.render.html import summary

    puzzle, layout = small
    wide = dataclasses.replace(layout, cols=cols)
    assert summary(puzzle, wide).startswith(f"A freeform crossword of {len(layout.placements)} answers in {article} {cols}×")


def test_an_author_or_difficulty_written_right_to_left_stays_in_its_own_place():
    """A right-to-left override in the author ran on over the date: "By Ann · eeL1 March 2026"."""
    puzzle = load_puzzle(SMALL.replace("Test Setter", "Ann \u202eLee").replace("easy", "\u202eeasy"), slug="allotment")
    text = page(puzzle, layout_puzzle(puzzle, params_for(puzzle, seeds=10)))
    assert "By <bdi>Ann \u202eLee</bdi>" in text
    assert '<span class="difficulty"><bdi>\u202eeasy</bdi></span>' in text.replace("Easy", "easy")


def test_a_title_written_right_to_left_is_isolated_in_the_browser_tab():
    """The <title> cannot hold a <bdi>: an override in the puzzle's title ran on over the site's title in the
    tab ("Allotment · sserP drowssorC ehT"). Isolates keep it to the puzzle's title; plain titles are left be."""
    puzzle = load_puzzle(SMALL.replace("title: ", "title: \u202e", 1), slug="allotment")
    text = page(puzzle, layout_puzzle(puzzle, params_for(puzzle, seeds=10)))
    title = re.search(r"<title>(.*)</title>", text)[1]
    assert title.startswith("\u2068\u202e") and "\u2069 · " in title

    plain = load_puzzle(SMALL, slug="allotment")
    text = page(plain, layout_puzzle(plain, params_for(plain, seeds=10)))
    assert not re.search("[\u2066-\u2069]", re.search(r"<title>(.*)</title>", text)[1])
