"""The print PDF: real text, every clue, the answer key, paper sizes, clean pagination, same bytes every build."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
import time
import unicodedata
import xml.etree.ElementTree as ET

import pytest

from site_builder.bench import generated_entries
from site_builder.layout import layout_entries
from site_builder.layout.result import number_placements
from site_builder.model import Direction, Entry, Layout, LayoutParams, Placement, Puzzle, PuzzleMeta
from site_builder.render import pdf as pdf_module
from site_builder.render.pdf import MIN_CELL, Item, clue_items, fill, item_heights, plan_page, render_pdf
from site_builder.render.text import clue_text
from tests.conftest import ROOT, SAMPLES, SETTINGS
from tests.test_render_svg import tricky_puzzle

needs_poppler = pytest.mark.skipif(
    not (shutil.which("pdftotext") and shutil.which("pdfinfo")),
    reason="pdftotext/pdfinfo (Debian poppler-utils, installed by .ci/run) are not on PATH",
)


def _run(tool: str, *args: str, pdf: bytes) -> str:
    return subprocess.run([tool, *args, "-", "-"] if tool == "pdftotext" else [tool, *args, "-"],
                          input=pdf, capture_output=True, check=True).stdout.decode("utf-8")


def pdf_text(pdf: bytes, first: int | None = None, last: int | None = None) -> str:
    args = ["-raw", "-enc", "UTF-8"]
    if first:
        args += ["-f", str(first)]
    if last:
        args += ["-l", str(last)]
    return _run("pdftotext", *args, pdf=pdf)


def pdf_info(pdf: bytes) -> dict[str, str]:
    out = _run("pdfinfo", pdf=pdf)
    return dict(line.split(":", 1) for line in out.splitlines() if ":" in line)


def flat(s: str) -> str:
    """Whitespace collapsed; a line broken after a hyphen ('one-' / 'armed') joined back up."""
    return " ".join(re.sub(r"-\n", "-", s).split())


@pytest.fixture(scope="module")
def tp():
    from site_builder.layout import layout_puzzle, params_for
    from site_builder.source import read_puzzle
    from tests.conftest import SAMPLES

    puzzle = read_puzzle(SAMPLES / "twin-peaks.txt")
    return puzzle, layout_puzzle(puzzle, params_for(puzzle, seed=0))


@pytest.fixture(scope="module")
def tp_pdf(tp):
    return render_pdf(*tp)


@pytest.fixture(scope="module")
def big():
    entries = generated_entries(160)
    meta = PuzzleMeta("One Hundred and Sixty", dt.date(2026, 5, 4), author="The Bench")
    return Puzzle("big", meta, entries), layout_entries(entries, LayoutParams(size=50, seeds=2))


@needs_poppler
def test_pdf_text_holds_every_clue_and_the_header(tp, tp_pdf):
    puzzle, layout = tp
    text = flat(pdf_text(tp_pdf))
    for p in layout.placements:
        assert flat(f"{p.number} {clue_text(p)}") in text, p.number
    assert "Twin Peaks" in text
    assert "By The Crossword Press · Monday, 2 November 2026" in text


@needs_poppler
def test_last_page_is_the_answer_key(tp, tp_pdf):
    puzzle, layout = tp
    pages = int(pdf_info(tp_pdf)["Pages"])
    assert pages >= 2
    key = flat(pdf_text(tp_pdf, first=pages, last=pages))
    assert key.startswith("Solution: Twin Peaks")
    for p in layout.placements:
        assert f"{p.number} {p.entry.display}" in key
    # the solution grid spells every letter on the key page, and only there
    grid_letters = sum(1 for tok in key.split() if len(tok) == 1 and tok.isupper())
    assert grid_letters >= layout.letter_cells - len(layout.placements)
    earlier = pdf_text(tp_pdf, first=1, last=pages - 1)
    assert "Solution" not in earlier


@needs_poppler
@pytest.mark.parametrize("paper,size", [("letter", "612 x 792 pts"), ("a4", "595.276 x 841.89 pts")])
def test_page_size_follows_paper(paper, size):
    puzzle, layout = tricky_puzzle()
    puzzle = dataclasses.replace(puzzle, meta=dataclasses.replace(puzzle.meta, paper=paper))
    pdf = render_pdf(puzzle, layout)
    info = pdf_info(pdf)
    assert info["Page size"].strip().startswith(size)
    assert info["Producer"].strip() == "WeasyPrint 70.0"
    assert info["Title"].strip() == 'Cats & <Dogs> "Quoted" \'Title\''
    text = pdf_text(pdf)
    assert "Ωμέγα, Москва" in text
    assert "(no clue yet)" in text or all(not p.entry.fill for p in layout.placements)


def _word_boxes(pdf: bytes) -> list[list[tuple[float, float, float, float, str]]]:
    xhtml = _run("pdftotext", "-bbox", pdf=pdf)
    root = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", xhtml, count=1))
    ns = {"h": "http://www.w3.org/1999/xhtml"}
    pages = []
    for page in root.iterfind(".//h:page", ns):
        pages.append([
            (float(w.get("xMin")), float(w.get("yMin")), float(w.get("xMax")), float(w.get("yMax")), w.text or "")
            for w in page.iterfind("h:word", ns)
        ])
    return pages


@needs_poppler
def test_long_list_paginates_without_overlap(big):
    puzzle, layout = big
    assert len(layout.placements) == 160
    pdf = render_pdf(puzzle, layout)
    pages = _word_boxes(pdf)
    assert len(pages) >= 3
    height = 792.0
    for n, words in enumerate(pages, 1):
        # sort by x so only neighbours in x are compared
        words.sort()
        for i, a in enumerate(words):
            assert a[3] <= height and a[1] >= 0
            for b in words[i + 1:]:
                if b[0] >= a[2] - 0.01:
                    break
                overlap_x = min(a[2], b[2]) - max(a[0], b[0])
                overlap_y = min(a[3], b[3]) - max(a[1], b[1])
                assert not (overlap_x > 0.3 and overlap_y > 0.3), f"page {n}: {a} overlaps {b}"
    # every clue whole on one page (no clue split across pages), and the key on the last pages
    page_texts = [flat(pdf_text(pdf, first=i, last=i)) for i in range(1, len(pages) + 1)]
    for p in layout.placements:
        assert any(flat(f"{p.number} {clue_text(p)}") in t for t in page_texts), p.number
    key_start = next(i for i, t in enumerate(page_texts) if t.startswith("Solution:"))
    assert key_start >= 1 and all("generated" not in t for t in page_texts[key_start:])


@needs_poppler
def test_a_page_that_opens_mid_list_names_the_list(big):
    """Clue and answer pages with no heading of their own say at their head which list they continue."""
    puzzle, layout = big
    wordy = "a clue long enough to wrap over three lines of a narrow clue column, as real clues sometimes do"
    placements = tuple(dataclasses.replace(p, entry=dataclasses.replace(p.entry, clue=f"{p.number} {wordy}"))
                       for p in layout.placements)
    pdf = render_pdf(puzzle, dataclasses.replace(layout, placements=placements))
    pages = [pdf_text(pdf, first=i, last=i) for i in range(1, int(pdf_info(pdf)["Pages"]) + 1)]
    headed = re.compile(r"^(ACROSS|DOWN)\b", re.M)
    bare = [n for n, text in enumerate(pages[1:], 2) if not headed.search(text) and "Solution:" not in text]
    assert bare == [], f"pages {bare} name no list"
    # the running heading is set in capitals, "(CONTINUED)" too (page two's own heading keeps it lower case)
    running = [n for n, text in enumerate(pages, 1) if re.search(r"^(ACROSS|DOWN) \(CONTINUED\)$", text, re.M)]
    assert running and min(running) > 2, running


@needs_poppler
def test_notes_and_copyright_are_printed_and_a_long_title_is_cut_in_the_footer(tp):
    puzzle, layout = tp
    title = "An Extraordinarily Long-Winded Title " * 4
    meta = dataclasses.replace(
        puzzle.meta, title=title.strip(), notes="First note.\n\nSecond note.", copyright="© 2026 The Setter"
    )
    pdf = render_pdf(dataclasses.replace(puzzle, meta=meta), layout)
    last = flat(pdf_text(pdf, first=int(pdf_info(pdf)["Pages"]), last=int(pdf_info(pdf)["Pages"])))
    assert "First note. Second note." in last and "© 2026 The Setter" in last
    # the footer: the title cut short, and "Page 1 of N" whole on the same line
    pages = pdf_info(pdf)["Pages"].strip()
    footer = [line.strip() for line in pdf_text(pdf, first=1, last=1).splitlines() if "Page 1 of" in line]
    assert len(footer) == 1 and re.fullmatch(rf"An Extraordinarily .{{20,70}}… +Page 1 of {pages}", footer[0]), footer


def test_short_title():
    from site_builder.render.pdf import short_title

    assert short_title("Twin Peaks") == "Twin Peaks"
    cut = short_title("word " * 40)
    assert cut.endswith("\u2026") and len(cut) <= 80 and not cut[:-1].endswith(" ")
    assert short_title("x" * 200) == "x" * 79 + "\u2026"


SCRIPT = r"""
import hashlib, json, sys
from site_builder.layout import layout_puzzle, params_for
from site_builder.source import read_puzzle
from site_builder.render.svg import render_svg
from site_builder.render.png import render_png, render_thumbnail
from site_builder.render.pdf import render_pdf
puzzle = read_puzzle(sys.argv[1])
layout = layout_puzzle(puzzle, params_for(puzzle, seeds=4))
outs = {
    "svg": render_svg(puzzle, layout).encode(),
    "solution.svg": render_svg(puzzle, layout, solution=True).encode(),
    "png": render_png(puzzle, layout),
    "thumb.png": render_thumbnail(puzzle, layout),
    "pdf": render_pdf(puzzle, layout),
}
print(json.dumps({k: hashlib.sha256(v).hexdigest() for k, v in outs.items()}))
"""


def test_bytes_identical_across_processes_and_hash_seeds(tmp_path):
    path = tmp_path / "small.txt"
    path.write_text(
        "---\ntitle: Small & <Odd>\ndate: 2026-02-03\nauthor: Zoë\npaper: a4\n---\n"
        "*LOG LADY | Margaret, who carries a piece of wood\nCOOPER | Special agent who loves pie\n"
        "AUDREY | Ben Horne's daughter\nDIANE | Unseen listener to Cooper's dictation\n"
        "PIE | Cherry dessert, \"damn fine\" 🍒\nOWL | Not what it seems\n",
        encoding="utf-8",
    )
    results = []
    for seed in ("1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        env.pop("SOURCE_DATE_EPOCH", None)
        out = subprocess.run([sys.executable, "-c", SCRIPT, str(path)], env=env, cwd=ROOT,
                             capture_output=True, text=True, check=True)
        results.append(json.loads(out.stdout))
        time.sleep(1.1)
    assert results[0] == results[1]


def test_pdf_bytes_repeat_in_process_and_carry_no_clock(tp, tp_pdf):
    again = render_pdf(*tp)
    assert again == tp_pdf

@needs_poppler
def test_pdf_dates_come_from_the_front_matter(tp_pdf):
    info = pdf_info(tp_pdf)
    assert "Nov  2 00:00:00 2026" in info["CreationDate"]
    assert "ModDate" not in info


# ------------------------------------------------------------- page one


@needs_poppler
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_twin_peaks_grid_and_every_clue_share_page_one(tp, paper):
    puzzle, layout = tp
    puzzle = dataclasses.replace(puzzle, meta=dataclasses.replace(puzzle.meta, paper=paper))
    plan = plan_page(puzzle, layout)
    assert plan.single and plan.cell >= MIN_CELL and plan.size >= 8
    pdf = render_pdf(puzzle, layout)
    assert int(pdf_info(pdf)["Pages"]) == 2  # the puzzle, then the answer key
    first = flat(pdf_text(pdf, first=1, last=1))
    assert first.startswith("Twin Peaks") and "ACROSS" in first and "DOWN" in first
    for p in layout.placements:
        assert flat(f"{p.number} {clue_text(p)}") in first, p.number
    # the grid is on page one too: every clue number printed twice (grid square and clue)
    numbers = first.split()
    for n in {p.number for p in layout.placements}:
        assert numbers.count(str(n)) >= 2, n
    assert "Solution" not in first


MID_54 = ("PINK CASE CREW DEVELOP DEFENSIVE DEMANDING LIGHTER ROCKY TOMORROW TURN EVENING SUIT BITE ANSWERS LOOK "
          "COUPLED BRAD SESSIONS TRANSLATE FEES ATLANTIC STEP PAGE WAITING SIGNS FINEST ADVISE CONTEXT SOMEONE "
          "COMPARING JANE UGLY INTENTIONS ROUNDS PASSED TRANSLATED REMOVING MARATHON TRIP ASSUMED TOUGH ARRAY BEGIN "
          "SWEAR CONCERN WISHING CARIBBEAN KINGDOM ATTITUDES TREAT DIGITAL DOCUMENTED CONSENSUS COMPOUND").split()


def test_clues_that_fit_page_one_by_a_fraction_of_a_point_stay_there():
    """The lowest common bottom line of the clue columns was looked for in quarter points below the room: a
    room of 640.19 pt was searched up to 640.0, where the last clue did not fit, and it took a sheet alone."""
    from site_builder.source import load_puzzle

    text = "---\ntitle: Mid 54\ndate: 2026-12-02\nauthor: M\nsize: 23\n---\n" + "".join(
        f"{w} | {w.title()}, described in a clue of moderate length here\n" for w in MID_54)
    puzzle = load_puzzle(text, slug="mid54")
    layout = layout_entries(puzzle.entries, LayoutParams(size=23))
    plan = plan_page(puzzle, layout)
    assert plan.single and not plan.rest and plan.cell >= 15


def _ladder(rows: int, cols: int, *, tall: bool) -> Layout:
    """A synthetic frame of two long answers joined by short rungs (tall) or its transpose (wide)."""
    long_dir, rung_dir = (Direction.DOWN, Direction.ACROSS) if tall else (Direction.ACROSS, Direction.DOWN)
    span, rung = (rows, cols) if tall else (cols, rows)
    clue = "A clue of a common length, long enough to wrap once in a column"
    ps = [Placement(Entry("A" * span, clue), 0, 0, long_dir),
          Placement(Entry("A" * span, clue), *((0, rung - 1) if tall else (rung - 1, 0)), long_dir)]
    for k in range(0, span, 4):
        ps.append(Placement(Entry("A" * rung, clue), *((k, 0) if tall else (0, k)), rung_dir))
    return Layout(number_placements(ps), (), rows if tall else rung, cols if tall else span)


@pytest.mark.parametrize("tall", [True, False])
def test_tall_grid_takes_clues_beside_it_and_wide_grid_under_it(tall):
    layout = _ladder(27, 5, tall=True) if tall else _ladder(5, 31, tall=False)
    puzzle = Puzzle("ladder", PuzzleMeta("Ladder", dt.date(2026, 1, 5)), tuple(p.entry for p in layout.placements))
    plan = plan_page(puzzle, layout)
    assert plan.single
    if tall:
        assert plan.span < plan.columns and plan.cell >= 20  # beside: the grid runs the page's height
        assert all(c.y == 0 for c in plan.page_one)
    else:
        assert plan.span == plan.columns  # under: the grid spans every column
        assert all(c.y >= plan.grid_h for c in plan.page_one)


def test_plan_is_deterministic_and_balanced(tp):
    puzzle, layout = tp
    a, b = plan_page(puzzle, layout), plan_page(puzzle, layout)
    assert a == b
    items = clue_items(layout)
    heights = item_heights(items, a.size, a.width)
    bottoms = [c.y + sum(heights[i] for i in c.items) for c in a.page_one]
    # one bottom line: no column ends more than a few lines above the longest
    assert max(bottoms) - min(bottoms) < 6 * a.size * 1.22


def test_fill_never_leaves_a_heading_at_a_column_foot():
    items = [Item("Across")] + [Item("Across", n, "x") for n in range(1, 4)] + [Item("Down")] + [
        Item("Down", n, "x") for n in range(1, 4)]
    heights = [15.0 if i.is_heading else 10.0 for i in items]
    cols = fill(items, heights, [70.0, 200.0])
    assert cols[0] == [0, 1, 2, 3]  # 'Down' alone would fit under the third clue, but not with its first clue
    assert cols[1][0] == 4
    assert fill(items, heights, [20.0, 20.0]) == [[], []]  # nothing fits: nothing placed


@pytest.mark.parametrize("slug", ["kitchen-herbs", "solar-system", "twin-peaks"])
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_no_clue_column_is_left_stranded_on_page_one(slug, paper):
    """A clue or two alone in a column under the grid reads as a leftover: at equal grid size, avoid it."""
    from site_builder.layout import layout_puzzle
    from site_builder.source import read_puzzle

    puzzle = read_puzzle(SAMPLES / f"{slug}.txt")
    puzzle = dataclasses.replace(puzzle, meta=dataclasses.replace(puzzle.meta, paper=paper))
    plan = plan_page(puzzle, layout_puzzle(puzzle))
    assert plan.single
    assert all(len(c.items) >= 3 for c in plan.page_one if c.items), [len(c.items) for c in plan.page_one]


def test_a_clue_is_not_stranded_under_the_grid_for_a_square_a_point_larger(monkeypatch):
    """Three columns, with the last Down clue alone under the grid (its heading a column before, the third
    column empty), won over four columns holding every clue with the same square, whose four-column cost
    counted more than the stranded clue."""
    fill = " and then some more words that go on to tell the solver about the answer"
    clues = [(f"Clue {i}" + fill * 3)[:90 + (i * 7) % 30].rstrip() + "." for i in range(8)]
    entries = tuple(dataclasses.replace(e, clue=c) for e, c in zip(generated_entries(8), clues))
    puzzle = Puzzle("stub", PuzzleMeta("Stub", dt.date(2026, 1, 1)), entries)
    layout = layout_entries(entries, LayoutParams(size=23, seed=0, strategy="freeform"))
    plan = plan_page(puzzle, layout)
    assert plan.single and all(len(c.items) >= 3 for c in plan.page_one if c.items), [len(c.items) for c in plan.page_one]
    monkeypatch.setattr(pdf_module, "STUB_COST", 0.0)
    before = plan_page(puzzle, layout)
    assert any(0 < len(c.items) < 3 for c in before.page_one), "no longer stranded at any cost: pick another list"
    assert plan.cell >= before.cell  # the same square


def _unbroken_puzzle(count: int = 45) -> tuple[Puzzle, Layout]:
    """Clues that open with one long unbroken word (a QA pass's case: page one lost clues past its foot)."""
    entries = tuple(dataclasses.replace(e, clue=f"Pneumonoultramicroscopicsilicovolcanoconiosis{i} ok")
                    for i, e in enumerate(generated_entries(count, seed=7)))
    meta = PuzzleMeta("Unbroken Clues", dt.date(2026, 12, 6))
    return Puzzle("unbroken", meta, entries), layout_entries(entries, LayoutParams(size=25, seeds=2))


def _inside_the_pages(pdf: bytes) -> str:
    """The text of every word that lies wholly inside its page (a word past the foot is cut off the sheet)."""
    height = float(pdf_info(pdf)["Page size"].split("x")[1].split()[0])
    return " ".join(w for page in _word_boxes(pdf) for (_, y0, _, y1, w) in page if y0 >= 0 and y1 <= height)


@needs_poppler
def test_a_clue_that_opens_with_a_long_word_keeps_its_number_and_every_clue_prints():
    puzzle, layout = _unbroken_puzzle()
    pdf = render_pdf(puzzle, layout)
    # each clue's number on the line of its first word, just left of it (it used to sit alone on the line above)
    numbered = 0
    for page in _word_boxes(pdf):
        numbers = [w for w in page if w[4].isdigit()]
        for x0, y0, _, y1, word in page:
            if word.startswith("Pneumono"):
                numbered += any(abs(n[1] - y0) < 2 and 0 <= x0 - n[2] < 12 for n in numbers)
    assert numbered == len(layout.placements)
    inside = _inside_the_pages(pdf)
    got = {int(m) for m in re.findall(r"coniosis(\d+)", inside.replace(" ", ""))}
    assert got == set(range(len(puzzle.entries))), sorted(set(range(len(puzzle.entries))) - got)
    assert "DOWN" in inside


@needs_poppler
def test_when_page_one_cannot_hold_its_columns_the_clues_move_to_page_two(tp, monkeypatch):
    """The last resort (no try kept page one's columns on the page): the grid alone on page one, no clue lost."""
    from site_builder.render import pdf as pdf_module

    monkeypatch.setattr(pdf_module, "RETRIES", 0)
    puzzle, layout = tp
    pdf = render_pdf(puzzle, layout)
    first = flat(pdf_text(pdf, first=1, last=1))
    assert "ACROSS" not in first and "DOWN" not in first
    rest = flat(pdf_text(pdf, first=2))
    for p in layout.placements:
        assert flat(f"{p.number} {clue_text(p)}") in rest, p.number


@needs_poppler
def test_the_running_heading_names_the_list_a_page_opens_in_and_never_heads_the_notes(tp, monkeypatch):
    """A page that opens mid-Across says so even when Down starts lower on it; notes pages get no heading.
    (Pages as the plan first flows them: `_tidy`'s smaller type would move the case this shows.)"""
    puzzle, layout = tp
    essay = " ".join(["A long clue that says a great deal more than a clue should, to fill the columns fast."] * 4)
    placements = tuple(dataclasses.replace(p, entry=dataclasses.replace(p.entry, clue=f"{p.number} {essay}"))
                       for p in layout.placements)
    notes = "\n\n".join(["A note paragraph about how the puzzle was made, long enough to fill a page. " * 12] * 8)
    meta = dataclasses.replace(puzzle.meta, notes=notes)
    pdf = _without_tidy(monkeypatch, dataclasses.replace(puzzle, meta=meta), dataclasses.replace(layout, placements=placements))
    pages = [pdf_text(pdf, first=i, last=i) for i in range(1, int(pdf_info(pdf)["Pages"]) + 1)]
    running = re.compile(r"^(ACROSS|DOWN) \(CONTINUED\)$", re.M)
    heading = re.compile(r"^(ACROSS|DOWN)( \(continued\))?$", re.M)
    clue_pages = [n for n, t in enumerate(pages, 1) if re.search(r"A long clue", t)]
    for n in clue_pages[1:]:
        assert heading.search(pages[n - 1]) or running.search(pages[n - 1]), f"page {n} names no list"
    # the case the QA pass found: a page opening mid-Across with Down's heading lower down
    both = [n for n in clue_pages if re.search(r"^ACROSS \(CONTINUED\)$", pages[n - 1], re.M)
            and re.search(r"^DOWN$", pages[n - 1], re.M)]
    assert both, "no page opens mid-Across and starts Down: the case is not shown"
    notes = [n for n, t in enumerate(pages, 1) if "A note paragraph" in t and "A long clue" not in t and "Solution" not in t]
    assert notes, "the notes run onto a page of their own"
    for n in notes:
        assert not running.search(pages[n - 1]), f"page {n}: notes under a list's running heading"


def test_a_tall_narrow_grid_keeps_its_clues_beside_it():
    """45 squares tall, 5 wide: no grid of MIN_CELL fits the page, but the clues still fit beside a larger grid
    than the too-many-clues fallback (grid over the full width, clues under it) allowed."""
    from site_builder.source import load_puzzle

    text = ("---\ntitle: Tall\ndate: 2026-12-04\nsize: 45\n---\n*SUPERCALIFRAGILISTICEXPIALIDOCIOUS | a\n"
            "*ANTIDISESTABLISHMENTARIANISM | b\nPNEUMONOULTRAMICROSCOPICSILICOVOLCANOCONIOSIS | c\n"
            "CAT | Pet\nSIT | Rest\nALE | Drink\nERA | Period\nTEA | Brew\nPIE | Dessert\nONE | Single\n")
    puzzle = load_puzzle(text, path="tall.txt")
    from site_builder.layout import layout_puzzle

    layout = layout_puzzle(puzzle)
    assert layout.rows >= 40 and layout.cols <= 8
    plan = plan_page(puzzle, layout)
    assert plan.rest == () and plan.cell >= 13.5, plan


@needs_poppler
def test_a_grid_much_wider_than_tall_prints_on_a_sheet_turned_on_its_side():
    """52 squares wide, 3 tall: across a portrait page its squares are 10 pt, too small to write in."""
    from site_builder.layout import layout_puzzle
    from site_builder.render.pdf import paper_for, sheet_for
    from site_builder.source import load_puzzle

    words = "ACE BAD CAB DAB EBB FAD GAB HAD ICE JAB KID LAD MAD NAB OAK PAD QUA RAD SAD TAB URN VAT WAD YAK ZAP"
    text = "---\ntitle: Wide\ndate: 2026-12-04\nsize: 52\n---\n*" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ" * 2 + " | Twice\n"
    puzzle = load_puzzle(text + "".join(f"{w} | {w.lower()}\n" for w in words.split()), path="wide.txt")
    layout = layout_puzzle(puzzle)
    if layout.cols < layout.rows:  # lay it on its side: the same crossword, across and down swapped
        turned = {Direction.ACROSS: Direction.DOWN, Direction.DOWN: Direction.ACROSS}
        layout = dataclasses.replace(layout, rows=layout.cols, cols=layout.rows, placements=tuple(
            dataclasses.replace(p, row=p.col, col=p.row, direction=turned[p.direction]) for p in layout.placements))
    assert layout.cols == 52
    sheet = sheet_for(puzzle, layout)
    assert sheet.landscape and plan_page(puzzle, layout, sheet).cell >= 1.2 * plan_page(puzzle, layout).cell
    info = pdf_info(render_pdf(puzzle, layout))
    assert info["Page size"].split()[:3] == ["792", "x", "612"], info
    # the same puzzle upright (3 wide, 52 tall) keeps the upright sheet, as does a usual grid
    upright = dataclasses.replace(layout, rows=layout.cols, cols=layout.rows)
    assert not sheet_for(puzzle, upright).landscape and paper_for(puzzle).width == 612
    assert not sheet_for(*tricky_puzzle()).landscape


@needs_poppler
def test_a_right_to_left_clue_keeps_its_enumeration_after_it():
    """Bidi would carry '(9)' after a Hebrew or Arabic clue to its left (between number and clue);
    the clue is isolated, so the enumeration prints at the end, as for every other clue."""
    from site_builder.layout import layout_puzzle, params_for
    from site_builder.source import load_puzzle

    from tests.helpers import RTL

    puzzle = load_puzzle(RTL, slug="capitals")
    layout = layout_puzzle(puzzle, params_for(puzzle, seed=0))
    assert not layout.unplaced
    words = _word_boxes(render_pdf(puzzle, layout))[0]
    rtl = [w for w in words if any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in w[4])]
    for enum in ("(9)", "(5)"):
        # the right-to-left word nearest an enumeration on its line (the other column's clues share the line)
        pairs = [(abs(e[0] - w[2]), e, w) for e in words if e[4] == enum for w in rtl if abs(e[1] - w[1]) < 1]
        assert pairs, f"no right-to-left clue beside {enum}"
        _, e, w = min(pairs)
        assert e[0] > w[2], f"{enum} printed left of its clue {w[4]!r}"


def _long_clued(count: int, length: int, size: int) -> tuple[Puzzle, object]:
    """A generated list, every clue `length` characters, laid out by the builder's seed 0 (fast, fixed)."""
    fill = " and then some more words that go on to tell the solver about the answer in detail"
    clues = [(f"Clue {i}, about this answer" + fill * (length // len(fill) + 1))[:length].rstrip() + "." for i in range(count)]
    entries = tuple(dataclasses.replace(e, clue=c) for e, c in zip(generated_entries(count), clues))
    puzzle = Puzzle("long", PuzzleMeta("Long Clues", dt.date(2026, 1, 1)), entries)
    return puzzle, layout_entries(entries, LayoutParams(size=size, seed=0, strategy="freeform"))


def _without_tidy(monkeypatch, puzzle, layout) -> bytes:
    with monkeypatch.context() as m:
        m.setattr(pdf_module, "_tidy", lambda doc, render, plan, *rest: doc)
        return render_pdf(puzzle, layout)


def _page_texts(pdf: bytes) -> list[str]:
    return [pdf_text(pdf, n, n) for n in range(1, int(pdf_info(pdf)["Pages"]) + 1)]


@needs_poppler
def test_a_last_page_of_a_few_continued_clues_is_folded_back(monkeypatch):
    """The clues continuing after page one overflowed their page by a few lines onto a sheet of their own;
    they are set half a point smaller instead, and every clue is still printed."""
    puzzle, layout = _long_clued(45, 150, 23)
    before = _page_texts(_without_tidy(monkeypatch, puzzle, layout))
    after = _page_texts(render_pdf(puzzle, layout))
    key = next(i for i, t in enumerate(before) if t.startswith("Solution"))
    assert key == 3 and len(flat(before[2]).split(". ")) <= 5, "the input no longer overflows: pick another"
    assert len(after) == len(before) - 1 and after[2].startswith("Solution")
    text = flat(" ".join(after[:2]))
    for p in layout.placements:
        assert flat(f"{p.number} {clue_text(p)}") in text, p.number


@needs_poppler
def test_an_answer_key_a_few_lines_too_long_takes_a_smaller_grid_not_another_sheet(monkeypatch):
    puzzle, layout = _long_clued(100, 12, 40)
    before = _page_texts(_without_tidy(monkeypatch, puzzle, layout))
    after = _page_texts(render_pdf(puzzle, layout))
    assert before[-1].count("\n") < 10 and "Solution" not in before[-1], "the key no longer spills: pick another"
    assert len(after) == len(before) - 1 and "Solution" in after[-1]
    for p in layout.placements:
        assert f"{p.number} {p.entry.display}" in flat(after[-1]), p.number


@needs_poppler
def test_a_long_answer_prints_whole_in_the_answer_key():
    """32 answers opened four key columns whatever their length: COUNTERREVOLUTIONARIES broke before its
    last letter. The key opens no more columns than hold its widest answer."""
    long = ["COUNTERREVOLUTIONARIES", "DEINSTITUTIONALIZATION",
            "ELECTROENCEPHALOGRAPH", "INTERNATIONALIZATION", "UNCHARACTERISTICALLY", "STRAIGHTFORWARDNESS"]
    entries = tuple(Entry(a, "A long answer") for a in long) + tuple(
        dataclasses.replace(e, clue="Filler") for e in generated_entries(25))
    puzzle = Puzzle("long-answers", PuzzleMeta("Long Answers", dt.date(2026, 1, 4)), entries)
    layout = layout_entries(entries, LayoutParams(size=30, seed=0, strategy="freeform"))
    shown = {p.entry.display for p in layout.placements}
    assert {"COUNTERREVOLUTIONARIES", "ELECTROENCEPHALOGRAPH"} <= shown, "pick answers that are placed"
    assert -(-(len(layout.placements) + 2) // pdf_module.KEY_LINES) >= 4, "a list that opens four columns"
    key = _page_texts(render_pdf(puzzle, layout))[-1]
    for answer in shown:
        assert answer in key.replace("-\n", "-"), answer
    assert pdf_module.key_columns(layout, pdf_module.sheet_for(puzzle, layout)) < 4


@needs_poppler
def test_a_long_key_of_short_answers_takes_more_columns_not_another_sheet(monkeypatch):
    """150 answers of at most 11 letters: in the four columns of a shorter key they ran onto a sheet of their
    own (too many to count as a few strays); in the columns the widest answer allows, the key is one page."""
    puzzle, layout = _long_clued(150, 12, 40)
    paper = pdf_module.sheet_for(puzzle, layout)
    assert pdf_module.key_fit(layout, paper) > pdf_module.key_columns(layout, paper) == 4
    with monkeypatch.context() as m:
        m.setattr(pdf_module, "key_fit", lambda layout, paper: 4)
        before = _page_texts(render_pdf(puzzle, layout))
    after = _page_texts(render_pdf(puzzle, layout))
    assert "Solution" in before[-2] and "Solution" not in before[-1], "the key no longer spills: pick another"
    assert len(after) == len(before) - 1 and "Solution" in after[-1]
    for p in layout.placements:
        assert f"{p.number} {p.entry.display}" in flat(after[-1]), p.number


def test_key_columns_are_as_many_as_the_widest_answer_allows():
    puzzle, layout = _long_clued(20, 12, 40)
    paper = pdf_module.paper_for(puzzle)
    widest = max(len(p.entry.answer) for p in layout.placements)
    assert 4 < pdf_module.key_fit(layout, paper) <= pdf_module.KEY_MOST_COLUMNS and widest <= 12
    long = dataclasses.replace(layout.placements[0], entry=Entry("X" * 60, "Long", line=1))
    assert pdf_module.key_fit(dataclasses.replace(layout, placements=(long,)), paper) == 1


def test_a_wide_grid_with_small_squares_turns_the_sheet_when_that_makes_them_large_enough():
    """45x29 is not wide enough to turn for the usual gain (1.6 times wider than tall), but upright its
    squares print at 4.1 mm and turned at 4.8: past the 4.5 mm a solver can write in, so it turns."""
    words = ("PNEUMONOULTRAMICROSCOPICSILICOVOLCANOCONIOSIS", "SUPERCALIFRAGILISTICEXPIALIDOCIOUS",
             "ANTIDISESTABLISHMENTARIANISM", "FLOCCINAUCINIHILIPILIFICATION")
    entries = tuple(Entry(w, f"Word {i}", line=i + 1) for i, w in enumerate(words))
    layout = layout_entries(entries, LayoutParams(size=60, seed=0))
    if layout.cols < layout.rows:  # lay it on its side
        turned = {Direction.ACROSS: Direction.DOWN, Direction.DOWN: Direction.ACROSS}
        layout = dataclasses.replace(layout, rows=layout.cols, cols=layout.rows, placements=tuple(
            dataclasses.replace(p, row=p.col, col=p.row, direction=turned[p.direction]) for p in layout.placements))
    assert (layout.cols, layout.rows) == (45, 29) and not layout.unplaced
    puzzle = Puzzle("wide", PuzzleMeta("Wide Load", dt.date(2026, 1, 1), paper="letter"), entries)
    upright = plan_page(puzzle, layout, pdf_module.paper_for(puzzle)).cell
    sheet = pdf_module.sheet_for(puzzle, layout)
    assert upright < pdf_module.SMALL_CELL and sheet.landscape
    assert plan_page(puzzle, layout, sheet).cell >= pdf_module.SMALL_CELL
    assert pdf_module.small_squares(puzzle, layout) == ""


def test_a_grid_too_big_for_the_paper_is_said_to_print_small(tmp_path):
    # two 50-letter answers crossing: a 50x50 grid, whose squares cannot reach 4.5 mm on letter or A4
    a, b = "ABCDEFGHIJKLMNOPQRSTUVWXY" * 2, "ZYXWVUTSRQPONMLKJIHGFEDCB" * 2
    entries = (Entry(a, "First long one", line=1), Entry(b, "Second long one", line=2))
    layout = layout_entries(entries, LayoutParams(size=60, seed=0))
    assert (layout.cols, layout.rows) == (50, 50) and not layout.unplaced
    for paper, across in (("letter", 41), ("a4", 39)):
        puzzle = Puzzle("big", PuzzleMeta("Big", dt.date(2026, 1, 1), paper=paper), entries)
        note = pdf_module.small_squares(puzzle, layout)
        assert note.startswith("printed squares 3.") and f"a size of {across} or less prints them at 4.5 mm" in note
        # that size cannot hold the 50-letter answers, and the note says so rather than offer it alone
        assert note.endswith(f"which needs answers of {across} letters or fewer ({a} has 50)"), note
        plan = plan_page(puzzle, layout, pdf_module.sheet_for(puzzle, layout))
        assert plan.cell < pdf_module.SMALL_CELL  # what the note says is what the PDF does
        # and the size it offers is enough: a grid that many squares a side prints at 4.5 mm or more
        fits = layout_entries((Entry(a[:across], "One", line=1), Entry(b[:across], "Two", line=2)),
                              LayoutParams(size=across, seed=0))
        assert (fits.cols, fits.rows) == (across, across) and pdf_module.small_squares(puzzle, fits) == ""
        assert plan_page(puzzle, fits, pdf_module.sheet_for(puzzle, fits)).cell >= pdf_module.SMALL_CELL
    from site_builder.source import read_puzzle

    # wide enough to print on its side, where the grid alone would make 4.5 mm, but the page's plan does not
    wide = (Entry((a * 2)[:52], "One", line=1), Entry(b[:26] + "QQQQQQ", "Two", line=2))
    layout = layout_entries(wide, LayoutParams(size=60, seed=0))
    puzzle = Puzzle("wide", PuzzleMeta("Wide", dt.date(2026, 1, 1), paper="a4"), wide)
    assert (layout.cols, layout.rows) == (52, 32) and pdf_module.sheet_for(puzzle, layout).landscape
    assert pdf_module.small_squares(puzzle, layout).startswith("printed squares 4.4 mm")
    herbs = read_puzzle(SAMPLES / "kitchen-herbs.txt")
    assert pdf_module.small_squares(herbs, layout_entries(herbs.entries, LayoutParams(seed=0))) == ""
    # the build says it on the puzzle's line
    root = tmp_path / "repo"
    (root / "puzzles").mkdir(parents=True)
    shutil.copy(SETTINGS, root / "pyproject.toml")
    (root / "puzzles" / "big.txt").write_text(
        f"---\ntitle: Big\ndate: 2026-01-01\nsize: 60\nseed: 0\n---\n{a} | First long one\n{b} | Second long one\n")
    lines: list[str] = []
    from site_builder.site import build_site

    result = build_site(root, report=lines.append)
    assert result.ok
    assert any(line.startswith("build  big:") and "printed squares 3." in line and "a size of 41 or less" in line
               for line in lines), lines


def _column_feet(words, paper_width: float = 612.0, columns: int = 3) -> list[float]:
    """The lowest word of each clue column on a page (0 for an empty column), the footer left out."""
    margin = 15 * 72 / 25.4
    width = (paper_width - 2 * margin) / columns
    feet = [0.0] * columns
    for x0, _, _, y1, _ in words:
        if y1 < 792 - 17 * 72 / 25.4:  # above the bottom margin, where the footer sits
            col = min(columns - 1, max(0, int((x0 - margin) / width)))
            feet[col] = max(feet[col], y1)
    return feet


PRINT_FIXTURES = ROOT / "tests" / "fixtures" / "print"


def _fixture_pdf(name: str) -> list:
    from site_builder.layout import layout_puzzle, params_for
    from site_builder.source import read_puzzle

    puzzle = read_puzzle(PRINT_FIXTURES / name)
    return _word_boxes(render_pdf(puzzle, layout_puzzle(puzzle, params_for(puzzle))))


@needs_poppler
def test_the_last_page_of_continued_clues_balances_its_columns():
    """Clues continuing on page two (every other one four lines long) filled two columns and left the third
    empty: WeasyPrint balanced the rest of a list as one piece. Every column now takes its share."""
    pages = _fixture_pdf("uneven-clues.txt")
    assert len(pages) == 3 and not any(w[4] == "Solution:" for w in pages[1]), "no page of continued clues"
    feet = _column_feet(pages[1])
    assert min(feet) > 0 and max(feet) - min(feet) < 100, feet


@needs_poppler
def test_a_heading_of_the_answer_key_keeps_two_answers_under_it():
    """The key's DOWN heading stood at a column's foot with one answer, the rest in the next column."""
    pages = _fixture_pdf("key-heading.txt")
    key = next(page for page in pages if any(w[4] == "Solution:" for w in page))
    headings = [w for w in key if w[4] in ("ACROSS", "DOWN")]
    assert sorted(w[4] for w in headings) == ["ACROSS", "DOWN"], headings
    for heading in headings:
        x0, _, _, y1, _ = heading
        below = {round(w[1]) for w in key if abs(w[0] - x0) < 30 and w[1] > y1 and w[3] < 792 - 17 * 72 / 25.4}
        assert len(below) >= 2, f"{heading[4]} has {len(below)} line(s) under it in its column"


def test_the_size_offered_for_small_squares_prints_them_large_enough_beside_a_long_list():
    """130 answers continued on page two: the page keeps room under the grid for clues, so the note's size
    (worked out from the grid alone under the masthead) was one too many, and a grid of it printed at 4.4 mm."""
    entries = tuple(dataclasses.replace(e, clue=f"A clue long enough to wrap onto a second line in its column, {i}")
                    for i, e in enumerate(generated_entries(130, seed=1)))
    layout = layout_entries(entries, LayoutParams(size=45, seed=1, strategy="freeform"))
    meta = PuzzleMeta("The Big Zoo", dt.date(2026, 1, 1), author="Zoe Keeper", difficulty="easy", paper="letter",
                      description="One hundred and twenty-odd animals, from aardvark to zebra, in one enormous grid.")
    puzzle = Puzzle("zoo", meta, entries)
    note = pdf_module.small_squares(puzzle, layout)
    size = int(re.search(r"a size of (\d+) or less", note).group(1))
    for n in range(size - 3, size + 1):  # a grid of that size, or smaller, prints at 4.5 mm or more
        square = dataclasses.replace(layout, rows=n, cols=n)
        assert plan_page(puzzle, square, pdf_module.sheet_for(puzzle, square)).cell >= pdf_module.SMALL_CELL, (n, note)
    bigger = dataclasses.replace(layout, rows=size + 1, cols=size + 1)  # and it is the largest that does
    assert plan_page(puzzle, bigger, pdf_module.sheet_for(puzzle, bigger)).cell < pdf_module.SMALL_CELL


def test_a_title_that_takes_the_page_is_said_to_be_too_long_not_given_a_negative_size():
    """A 2,000-character title left no room for the grid: the note offered "a size of -39 or less"."""
    entries = (Entry("GARDEN", "Plot", line=1), Entry("DANGER", "Peril", line=2), Entry("RANGED", "Roamed", line=3))
    layout = layout_entries(entries, LayoutParams(size=15, seed=0))
    puzzle = Puzzle("long", PuzzleMeta(" ".join(["Title"] * 400), dt.date(2026, 1, 1)), entries)
    note = pdf_module.small_squares(puzzle, layout)
    assert "-" not in note.split(":")[-1] and "shorten them" in note and "of page one" in note, note


@needs_poppler
def test_the_notes_and_copyright_are_not_left_alone_on_a_last_sheet(tp):
    """81 answers whose key fills its page to the foot: the copyright line took a fourth sheet of its own;
    a smaller key grid takes it back onto the key's page."""
    puzzle, _ = tp
    entries = generated_entries(81, seed=1)
    layout = layout_entries(entries, LayoutParams(size=33, seed=0, strategy="freeform"))
    meta = dataclasses.replace(puzzle.meta, notes="Some notes here.", copyright="© 2026 The Press", paper="letter")
    pdf = render_pdf(dataclasses.replace(puzzle, meta=meta, entries=entries), layout)
    pages = int(pdf_info(pdf)["Pages"])
    last = pdf_text(pdf, first=pages, last=pages)
    assert "Solution:" in last and "Some notes here." in last and "© 2026 The Press" in last
    assert pages == 3


@needs_poppler
def test_a_list_that_opens_a_column_of_continued_clues_starts_level_with_its_neighbours():
    """On world-capitals' second page the Down heading opens the middle column: it sat 8 pt below the
    other columns' first lines (the space above a heading, kept at a column's top)."""
    from site_builder.source import read_puzzle
    from tests.conftest import SAMPLES

    from site_builder.layout import layout_puzzle

    puzzle = read_puzzle(SAMPLES / "world-capitals.txt")
    pdf = render_pdf(puzzle, layout_puzzle(puzzle))
    page = _word_boxes(pdf)[1]
    down = next(w for w in page if w[4] == "DOWN")
    above = [w for w in page if w[1] < down[1] and w[0] < down[2] and w[2] > down[0]]
    assert not above, "the layout changed: Down no longer opens a column of page two"
    assert down[1] - min(w[1] for w in page) < 2


@needs_poppler
def test_a_numbered_reference_and_an_enumeration_keep_to_their_line():
    """'4-Down' broke at its hyphen, and '(8)' started a line of its own: clues that end near a line's end
    (tests/fixtures/print/references.txt; before the fix, "who outwitted 4-" then "Down (5,5)")."""
    from site_builder.layout import layout_puzzle, with_references
    from site_builder.render.pdf import pdf_html
    from site_builder.source import read_puzzle

    puzzle = read_puzzle(PRINT_FIXTURES / "references.txt")
    puzzle, layout = with_references(puzzle, layout_puzzle(puzzle))
    html = pdf_html(puzzle, layout)
    assert re.search(r'<span class="nobr">\d+-(Across|Down)</span></bdi>&nbsp;\(', html)
    lines = [line.strip() for line in pdf_text(render_pdf(puzzle, layout)).splitlines()]
    assert not [line for line in lines if re.search(r"\d-$", line)]
    assert not [line for line in lines if re.fullmatch(r"\(\d+(,\d+)*\)", line)]


def test_long_unbroken_runs_get_break_opportunities_in_print_and_nothing_else_changes():
    """WeasyPrint broke a 2,000-letter word by trying ever shorter pieces: 27 s for one PDF."""
    from site_builder.render.text import BREAK_EVERY, LONG_RUN, breakable

    for ordinary in ("An ordinary clue, with words of every length: antidisestablishmentarianism",
                     "see https://example.org/crosswords/archive/2026/word-lists.html and thank you",
                     "Pet, see www.example.org/crosswords/archive/words-for-cats.html for more",
                     "12-Across" + "-x" * 40):
        assert breakable(ordinary) == ordinary
    run = "X" * (LONG_RUN + 5)
    spaced = "\u200b".join(run[i:i + BREAK_EVERY] for i in range(0, len(run), BREAK_EVERY))
    assert breakable(f"see {run} here") == f"see {spaced} here"
    # a break opportunity after every BREAK_EVERY characters, not every one: WeasyPrint tries each, and a
    # clue of 1,500 letters whose clues went on to a second page took a minute to print; never inside a
    # letter and its accent, an emoji and its skin tone, or a joined emoji
    for cluster in ("E\u0301", "\U0001f44d\U0001f3fd", "\U0001f469\u200d\U0001f4bb", "\u0915\u094d\u0937",
                    "\u0915\u094d\u0937\u093f\u0924", "\U0001f1ee\U0001f1f9",
                    "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"):
        pieces = breakable(cluster * 40).split("\u200b")
        assert len(pieces) > 1 and all(len(piece) % len(cluster) == 0 for piece in pieces), (cluster, pieces)


def test_the_planner_wraps_a_long_run_where_the_pdf_breaks_it():
    """The PDF breaks a long run only after every BREAK_EVERY characters; the planner cut the last 31 or
    fewer anywhere (the rest of the run, measured again, was too short to be marked), so a narrow column of
    wide letters printed taller than planned and page one overflowed."""
    from site_builder.render.svg import wrap
    from site_builder.render.text import breakable

    for letter in "mWЖ":
        run = letter * 42
        lines = wrap(run, "serif", 10.0, 95.0, printed=True)  # room for 9 or 10, breaks every 6
        assert len(lines) > 2 and "".join(lines) == run
        cuts = [sum(len(line) for line in lines[:k]) for k in range(1, len(lines))]
        pieces = breakable(run).split("\u200b")
        allowed = {sum(len(p) for p in pieces[:k]) for k in range(1, len(pieces))}
        assert set(cuts) <= allowed, (letter, cuts, sorted(allowed))


@needs_poppler
def test_a_clue_of_one_long_word_prints_whole_across_lines():
    from site_builder.source import load_puzzle

    word = "".join("ABCDEFGHIJ"[i % 10] for i in range(400))
    puzzle = load_puzzle(f"---\ntitle: Long\ndate: 2026-01-01\n---\nCAT | Pet {word}\nACT | Deed\nTACT | Skill\n", slug="long")
    layout = layout_entries(puzzle.entries, LayoutParams(size=9, seed=0))
    html = pdf_module.pdf_html(puzzle, layout)
    assert "\u200b" in html and word not in html
    text = pdf_text(render_pdf(puzzle, layout), 1, 1)
    assert word in re.sub(r"[\s\u200b]", "", text)


def test_an_edited_pdf_template_or_stylesheet_reaches_the_next_pdf_in_the_same_process(tmp_path, monkeypatch):
    """Watch mode renders in one process: pdf.html.j2 and pdf.css were read once, so an edit to either never
    reached a PDF while it ran (and the build recorded the new files as built)."""
    from site_builder.layout import layout_puzzle, params_for
    from site_builder.source import load_puzzle

    templates, static = tmp_path / "templates", tmp_path / "static"
    shutil.copytree(pdf_module.TEMPLATES, templates)
    static.mkdir()
    shutil.copy(pdf_module.CSS_FILE, static / "pdf.css")
    monkeypatch.setattr(pdf_module, "TEMPLATES", templates)
    monkeypatch.setattr(pdf_module, "CSS_FILE", static / "pdf.css")
    pdf_module._engine.cache_clear()
    try:
        puzzle = load_puzzle("---\ntitle: Edits\ndate: 2026-01-01\n---\nGARDEN | Plot\nONION | Bulb\nRANGE | Cooker\n")
        layout = layout_puzzle(puzzle, params_for(puzzle, seed=0))
        assert "Edited template" not in pdf_text(render_pdf(puzzle, layout))
        page = templates / "pdf.html.j2"
        page.write_text(page.read_text().replace("<body>", "<body><p>Edited template</p>", 1))
        os.utime(page, ns=(time.time_ns() + 10**9,) * 2)  # a later time, as an editor's save gives
        assert "Edited template" in pdf_text(render_pdf(puzzle, layout))
        css = static / "pdf.css"
        css.write_text(css.read_text() + '\nbody::before { content: "Edited stylesheet"; }\n')
        os.utime(css, ns=(time.time_ns() + 2 * 10**9,) * 2)
        assert "Edited stylesheet" in pdf_text(render_pdf(puzzle, layout))
    finally:
        pdf_module._engine.cache_clear()  # the next test's engine reads the project's own files


def test_a_tidy_up_never_shrinks_the_answer_keys_squares_past_legible():
    """To save a sheet the key's grid may shrink to 0.42 or 0.3 of its page: for a grid of 46 rows the latter
    made squares of 4.25 pt (1.5 mm), letters under 3 pt tall. Only shares that keep KEY_MIN_CELL are tried."""
    for count, size, allowed in [(81, 33, [0.42, 0.3]), (190, 48, [0.42])]:
        puzzle, layout = _long_clued(count, 12, size)
        paper = pdf_module.sheet_for(puzzle, layout)
        assert pdf_module.smaller_key_shares(layout, paper, pdf_module.KEY_GRID_SHARE) == allowed, (count, layout.rows)
        assert all(pdf_module.key_cell(layout, paper, s) >= pdf_module.KEY_MIN_CELL for s in allowed)
    assert pdf_module.key_cell(layout, paper, 0.3) < pdf_module.KEY_MIN_CELL
