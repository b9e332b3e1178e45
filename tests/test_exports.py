"""The solver exports (ipuz, .puz, .xd, JSON, text, Markdown), read back with other people's parsers."""

from __future__ import annotations

import dataclasses
import hashlib
import html
import json
import os
import pty
import re
import subprocess
import sys

import ipuz
import puz
import pytest
import xdformat
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.layout import layout_entries, layout_puzzle, params_for
from site_builder.model import Direction, Layout, LayoutParams, Puzzle
from site_builder.render import exports
from site_builder.render.exports import export_files, render_ipuz, render_puz, render_xd, to_latin1
from site_builder.render.text import layout_json, render_markdown, render_text_file
from site_builder.source import load_puzzle, read_puzzle

from .conftest import ROOT, SAMPLES

TP = str(SAMPLES / "twin-peaks.txt")

# Clues that have broken exporters elsewhere: markup, entities, quotes, format syntax, emoji, RTL text.
TRICKY_CLUES = [
    "Fish & chips, served <b>hot</b> &amp; fast",
    "He said \"hi\" and 'bye' \u2014 then \u201cleft\u201d\u2026",
    "\U0001f989 who? \U0001f468\u200d\U0001f469\u200d\U0001f467 family",
    "\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd, in Hebrew",
    "\u0645\u0631\u062d\u0628\u0627 (Arabic greeting)",
    "Back\\slash and ~ tilde ~ twice",
    "{/not italic/} *star* _under_ [link](x) # hash | pipe",
    "</script><script>alert(1)</script>",
    "Cr\u00e8me br\u00fbl\u00e9e, Erd\u0151s, \u0141\u00f3d\u017a",
    "A1. Looks like a clue line ~ NOPE",
]

TRICKY_SOURCE = """---
title: "Caf\u00e9 & <Friends> \u201cquoted\u201d \U0001f989"
date: 2026-03-04
author: "Zo\u00eb O'Brien & Co."
copyright: "\u00a9 2026 Zo\u00eb O'Brien"
description: A test of <escaping> & such.
notes: |
  First line & <second>.
  ## not a heading
  Last line.
---
""" + "".join(
    f"{answer} | {clue}\n"
    for answer, clue in zip(
        ["COOPER", "AUDREY", "LELAND", "DONNA", "NORMA", "HARRY", "LAURA", "DIANE", "BOBBY", "NADINE"], TRICKY_CLUES
    )
)


@pytest.fixture(scope="module")
def tp() -> tuple[Puzzle, Layout]:
    puzzle = read_puzzle(SAMPLES / "twin-peaks.txt")
    # seeds/000's builder at its own size (23): seed 3's grid, whose first clue is LAURA's
    return puzzle, layout_puzzle(puzzle, params_for(puzzle, seed=3, strategy="freeform", size=23))


@pytest.fixture(scope="module")
def tricky() -> tuple[Puzzle, Layout]:
    puzzle = load_puzzle(TRICKY_SOURCE, slug="tricky")
    return puzzle, layout_puzzle(puzzle, params_for(puzzle, seeds=20))


def with_clues(puzzle: Puzzle, layout: Layout, clues: list[str], **meta) -> tuple[Puzzle, Layout]:
    """The same grid with new clue texts (cycled) and front matter."""
    new = {e.answer: dataclasses.replace(e, clue=clues[i % len(clues)]) for i, e in enumerate(puzzle.entries)}
    p2 = dataclasses.replace(puzzle, entries=tuple(new[e.answer] for e in puzzle.entries),
                             meta=dataclasses.replace(puzzle.meta, **meta))
    placements = tuple(dataclasses.replace(p, entry=new[p.entry.answer]) for p in layout.placements)
    return p2, dataclasses.replace(layout, placements=placements, unplaced=())


def walk(grid: list[list], row: int, col: int, direction: str, length: int) -> str:
    dr, dc = (0, 1) if direction == "across" else (1, 0)
    return "".join(grid[row + dr * i][col + dc * i] for i in range(length))


# --------------------------------------------------------------------- ipuz


def check_ipuz(puzzle: Puzzle, layout: Layout) -> dict:
    data = ipuz.read(render_ipuz(puzzle, layout))  # validates against the ipuz spec
    assert data["kind"] == ["http://ipuz.org/crossword#1"]
    assert data["dimensions"] == {"width": layout.cols, "height": layout.rows}
    sol, grid = data["solution"], data["puzzle"]
    assert len(sol) == len(grid) == layout.rows and all(len(r) == layout.cols for r in sol + grid)
    for r in range(layout.rows):
        for c in range(layout.cols):
            letter = layout.cells.get((r, c))
            assert sol[r][c] == letter  # None (null: the cell does not exist) where no letter is
            if letter is None:
                assert grid[r][c] is None
            else:
                assert grid[r][c] == layout.numbers.get((r, c), 0)
    starts = {v: (r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if isinstance(v, int) and v}
    for key, group in (("Across", layout.across), ("Down", layout.down)):
        clues = data["clues"][key]
        assert len(clues) == len(group)
        for clue, p in zip(clues, group):
            assert clue["number"] == p.number
            assert html.unescape(clue["clue"]) == exports.clue_of(p)  # the ipuz text fields are HTML
            assert clue["enumeration"] == p.entry.enumeration
            r, c = starts[p.number]
            assert walk(sol, r, c, key.lower(), len(p.answer)) == p.answer
    assert data["showenumerations"] is True
    return data


def test_ipuz_reads_back_with_every_answer_and_clue(tp):
    puzzle, layout = tp
    data = check_ipuz(puzzle, layout)
    assert data["title"] == "Twin Peaks"
    assert data["author"] == "The Crossword Press"
    assert data["date"] == "11/02/2026"
    assert data["intro"] == puzzle.meta.description
    assert "copyright" not in data and "notes" not in data  # absent in the source, absent here
    assert data["clues"]["Across"][0]["clue"] == "Palmer, found wrapped in plastic"


def test_ipuz_tricky_text_round_trips_and_is_html_safe(tricky):
    """ipuz text fields are HTML (GNOME Crosswords and XWord render them): the text as typed comes back
    once a reader decodes the entities, and `&`, `<`, `>` are never read as markup."""
    puzzle, layout = tricky
    text = render_ipuz(puzzle, layout)
    data = check_ipuz(puzzle, layout)
    assert html.unescape(data["title"]) == puzzle.meta.title and "\U0001f989" in data["title"]
    assert html.unescape(data["copyright"]) == "\u00a9 2026 Zo\u00eb O'Brien"
    assert html.unescape(data["notes"]) == puzzle.meta.notes
    got = {html.unescape(c["clue"]) for key in ("Across", "Down") for c in data["clues"][key]}
    assert got == {p.entry.clue for p in layout.placements}
    fields = [data["title"], data["copyright"], data["notes"], *(c["clue"] for k in ("Across", "Down") for c in data["clues"][k])]
    assert any("&amp;" in f or "&lt;" in f for f in fields)  # the tricky puzzle has markup-like text
    assert not any("<" in f or ">" in f or re.search(r"&(?!amp;|lt;|gt;)", f) for f in fields)
    assert "<" not in text and ">" not in text and "&" not in text
    assert "\u05e9\u05dc\u05d5\u05dd" in text  # UTF-8 kept readable, not \u-escaped


# ---------------------------------------------------------------------- puz


def check_puz(puzzle: Puzzle, layout: Layout) -> puz.Puzzle:
    p = puz.load(render_puz(puzzle, layout))  # raises if any checksum is wrong
    assert (p.width, p.height) == (layout.cols, layout.rows)
    expected = "".join(layout.cells.get((r, c), ".") for r in range(layout.rows) for c in range(layout.cols))
    assert p.solution == expected
    assert p.fill == "".join("." if ch == "." else "-" for ch in expected)
    numbering = p.clue_numbering()
    sol = p.solution_grid()
    for theirs, ours in ((numbering.across, layout.across), (numbering.down, layout.down)):
        assert [e["num"] for e in theirs] == [q.number for q in ours]
        for e, q in zip(theirs, ours):
            assert (e["row"], e["col"], e["len"]) == (q.row, q.col, len(q.answer))
            assert sol.get_string_for_clue(e) == q.answer
    return p


def test_puz_reads_back_grid_solution_and_clues(tp):
    puzzle, layout = tp
    p = check_puz(puzzle, layout)
    assert p.version == b"1.3"
    assert (p.title, p.author, p.copyright) == ("Twin Peaks", "The Crossword Press", "")
    assert p.notes == puzzle.meta.description
    # the format's order: by number, Across before Down at a shared number
    order = sorted(layout.placements, key=lambda q: (q.number, q.direction is Direction.DOWN))
    assert p.clues == [f"{q.entry.clue} ({q.entry.enumeration})" for q in order]
    assert p.clues[0] == "Palmer, found wrapped in plastic (5)"


def test_puz_of_an_adjacency_layout_clues_its_fragments():
    """The adjacency strategy may leave two-letter runs no answer holds: the .puz still loads, every run clued."""
    from site_builder.layout.adjacency import fragments

    puzzle = read_puzzle(SAMPLES / "solar-system.txt")
    layout = layout_puzzle(puzzle, params_for(puzzle, strategy="adjacency", seed=5))
    loose = fragments(layout)
    assert loose  # this seed leaves one, as the summary reports
    p = puz.load(render_puz(puzzle, layout))
    numbering = p.clue_numbering()
    runs = numbering.across + numbering.down
    assert len(p.clues) == len(runs) == len(layout.placements) + len(loose)
    assert p.clues.count(exports.FRAGMENT_CLUE) == len(loose)
    solution = p.solution
    for e in runs:
        step = 1 if e in numbering.across else p.width
        word = "".join(solution[e["cell"] + i * step] for i in range(e["len"]))
        clue = e["clue"]
        if clue == exports.FRAGMENT_CLUE:
            assert (e["row"], e["col"], word) in {(r, c, letters) for r, c, _, letters in loose}
        else:
            assert clue.startswith(next(q.entry.clue for q in layout.placements if q.answer == word))


def test_puz_refuses_a_run_that_is_no_answer(tp):
    puzzle, layout = tp
    across = next(q for q in layout.placements if q.direction is Direction.ACROSS)
    # the same answer again, one row lower: side by side with itself, it makes runs of two no answer holds
    twin = dataclasses.replace(across, row=across.row + 1)
    broken = dataclasses.replace(layout, placements=layout.placements + (twin,), rows=layout.rows + 1)
    with pytest.raises(ValueError, match="one-run-one-answer"):
        render_puz(puzzle, broken)


def test_puz_uses_utf8_version_2_only_when_latin1_cannot_spell_the_text(tp, tricky):
    puzzle, layout = tricky
    p = check_puz(puzzle, layout)
    assert p.version == b"2.0"
    assert p.title == puzzle.meta.title and p.author == puzzle.meta.author
    assert set(p.clues) == {f"{q.entry.clue} ({q.entry.enumeration})" for q in layout.placements}
    assert "First line & <second>." in p.notes

    # typographic punctuation and foreign accents alone keep the file at 1.3, spelled in Latin-1
    latin_clues = ["\u201cQuoted\u201d \u2014 it\u2019s Erd\u0151s\u2026", "Cr\u00e8me br\u00fbl\u00e9e & <b>"]
    p2, l2 = with_clues(*tp, latin_clues, title="Caf\u00e9 \u2013 Twin Peaks")
    q = check_puz(p2, l2)
    assert q.version == b"1.3"
    assert q.title == "Caf\u00e9 - Twin Peaks"
    assert set(q.clues) == {f'"Quoted" -- it\'s Erdos... ({x.entry.enumeration})' for x in l2.placements
                            if x.entry.clue == latin_clues[0]} | {
        f"Cr\u00e8me br\u00fbl\u00e9e & <b> ({x.entry.enumeration})" for x in l2.placements if x.entry.clue == latin_clues[1]}


def test_to_latin1():
    assert to_latin1("plain & <ascii>") == "plain & <ascii>"
    assert to_latin1("\u00e9t\u00e9 \u00a9 \u00bd") == "\u00e9t\u00e9 \u00a9 \u00bd"
    assert to_latin1("\u2018a\u2019 \u201cb\u201d \u2013 \u2014 \u2026 \ufb01") == "'a' \"b\" - -- ... fi"
    assert to_latin1("\u0141\u00f3d\u017a \u0152uvre") == "L\u00f3dz OEuvre"
    # Windows-1252's own characters, as a word processor types them: a .puz stays version 1.3 for them
    assert to_latin1("\u20ac5 \u2122 \u2020 \u2021 \u2030 \u0192 \u2039a\u203a \u02c6\u02dc \u2022") == "EUR5 (TM) + ++ o/oo f <a> ^~ *"
    assert to_latin1("\U0001f989") is None
    assert to_latin1("\u05e9\u05dc\u05d5\u05dd") is None
    assert to_latin1("\u4e2d") is None


# ----------------------------------------------------------------------- xd


def check_xd(puzzle: Puzzle, layout: Layout) -> xdformat.xdfile:
    text = render_xd(puzzle, layout)
    xd = xdformat.xdfile(text)
    assert xd.grid == ["".join(ch or "_" for ch in row) for row in layout.grid()]
    assert "#" not in "".join(xd.grid)
    # xd derives numbering and answers from the grid alone; they must be ours
    derived = sorted((n, d, a) for d, n, a in xd.iteranswers())
    ours = sorted((p.number, "A" if p.direction is Direction.ACROSS else "D", p.answer) for p in layout.placements)
    assert derived == ours
    want = [((("A" if p.direction is Direction.ACROSS else "D"), p.number),
             exports.xd_clue(exports.clue_with_enumeration(p)), p.answer)
            for p in layout.across + layout.down]
    assert xd.clues == want
    assert xd.get_header("Title") == exports.one_line(puzzle.meta.title)
    assert xd.get_header("Date") == puzzle.meta.date.isoformat()
    return xd


def test_xd_parses_back(tp):
    puzzle, layout = tp
    xd = check_xd(puzzle, layout)
    assert xd.get_header("Author") == "The Crossword Press"
    assert xd.clues[0] == (("A", 1), "Palmer, found wrapped in plastic (5)", "LAURA")
    text = render_xd(puzzle, layout)
    assert text.startswith("Title: Twin Peaks\nAuthor: The Crossword Press\nDate: 2026-11-02\n")
    assert "\n\n\n" + xd.grid[0] + "\n" in text  # the grid is its own section


def test_xd_tricky_text(tricky):
    puzzle, layout = tricky
    xd = check_xd(puzzle, layout)
    clues = {c for _, c, _ in xd.clues}
    for p in layout.placements:
        shown = p.entry.clue.replace("\\", "\u29f5")  # the one documented change: \ is a line break in .xd
        assert f"{shown} ({p.entry.enumeration})" in clues
    assert xd.get_header("Copyright") == "\u00a9 2026 Zo\u00eb O'Brien"
    assert xd.get_header("Description") == "A test of <escaping> & such."
    assert "First line & <second>." in xd.notes and "Last line." in xd.notes
    assert "not a heading" in xd.notes


# -------------------------------------------------- property: never crash


CLUE_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40
).filter(lambda s: s.strip())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(clues=st.lists(CLUE_TEXT, min_size=1, max_size=6), title=CLUE_TEXT)
def test_any_text_exports_and_reads_back(tp, clues, title):
    puzzle, layout = with_clues(*tp, clues, title=title, notes=title, copyright=title)
    files = export_files(puzzle, layout)
    check_ipuz(puzzle, layout)
    check_puz(puzzle, layout)
    check_xd(puzzle, layout)
    json.loads(files["twin-peaks.json"])
    for name, data in files.items():
        if isinstance(data, str):
            data.encode("utf-8")


# ------------------------------------------------------ text and Markdown


def test_txt_holds_puzzle_then_solution(tp):
    puzzle, layout = tp
    text = export_files(puzzle, layout)["twin-peaks.txt"]
    head, _, tail = text.partition("\nSolution\n")
    assert head.startswith("Twin Peaks\nThe Crossword Press") and tail
    assert "Palmer, found wrapped in plastic (5)" in head
    assert "FIRE WALK WITH ME" not in head and "FIRE WALK WITH ME" in tail
    assert "L  A  U  R  A" in tail  # the filled grid
    assert text == render_text_file(puzzle, layout)


@given(st.lists(st.text(alphabet="abc-é?\u00a0\u202f", max_size=88).map(lambda w: f"a{w}?"), min_size=1, max_size=25),
       st.sampled_from([" ", "  "]), st.sampled_from(["", "     "]), st.sampled_from(["", "  1. ", "123. "]))
@settings(max_examples=300, deadline=None)
def test_text_wrap_breaks_latin_text_as_textwrap_does(words, gap, indent, prefix):
    """The .txt's wrap counts columns; for text of narrow letters that is textwrap's count and its breaks
    (a no-break space, as before '?' in French, is no break)."""
    import textwrap

    from site_builder.render.text import wrap

    line = prefix + gap.join(words)
    assert wrap(line, 80, indent) == textwrap.wrap(line, 80, subsequent_indent=indent, break_on_hyphens=False)


def test_text_wrap_counts_wide_characters_as_two_columns():
    from site_builder.render.text import columns, wrap

    clue = "  1. " + "東京は日本の首都であり、世界で最も人口の多い都市圏の一つです。" * 3 + " (5)  TOKYO"
    lines = wrap(clue, 80, " " * 5)
    assert len(lines) == 3 and all(columns(line) <= 80 for line in lines)
    assert columns(lines[0]) >= 78  # filled: Chinese breaks between any two characters
    assert lines[0].startswith("  1. 東京") and all(line.startswith("     ") for line in lines[1:])
    assert "".join(line.strip() for line in lines).replace(" ", "") == clue.replace(" ", "")  # nothing lost
    assert columns("e\u0301\u200d") == 1 and columns("ｗ") == 2
    # Japanese never opens a line with its comma or full stop: they go with the character before
    assert not any(line.lstrip().startswith(("\u3001", "\u3002")) for width in range(20, 60) for line in wrap(clue, width, " " * 5))
    # ... nor after Latin letters or digits; and an emoji sequence is one picture, never split
    assert wrap("  1. " + "東" * 31 + "の高さは333m。" + "次" * 10, 80, " " * 5)[1].startswith("     333m。")
    family, thumb = "\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f44d\U0001f3fd"
    assert wrap("\u3042" * 39 + family, 80) == ["\u3042" * 39, family]
    assert wrap("a" * 76 + " " + thumb, 80) == ["a" * 76, thumb]
    # an indent as wide as the line still ends, a character a line
    assert wrap("ab", 1, "  ") == ["a", "  b"]


def test_markdown_escapes_and_hides_answers(tricky):
    puzzle, layout = tricky
    md = render_markdown(puzzle, layout)
    assert md.startswith("# Caf\u00e9 \\& \\<Friends\\>")
    assert "\\<b\\>hot\\</b\\> \\&amp;" in md
    assert "<script>" not in md
    assert "\\_under\\_" in md and "\\*star\\*" in md
    # RTL clue isolated from the number and enumeration; as many Latin letters as Hebrew ones: left to right
    assert "\u2066\u05e9\u05dc\u05d5\u05dd" in md
    body, _, answers = md.partition("<details>")
    assert "COOPER" not in body and "COOPER" in answers


def test_export_files_names_and_types(tp):
    puzzle, layout = tp
    files = export_files(puzzle, layout)
    assert sorted(files) == sorted(f"twin-peaks.{ext}" for ext in ("ipuz", "puz", "xd", "json", "txt", "md"))
    assert isinstance(files["twin-peaks.puz"], bytes)
    assert all(isinstance(v, str) for k, v in files.items() if not k.endswith(".puz"))


# --------------------------------------------------------------------- CLI


def run(*args: str, env=None, text=False) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "site_builder", *args], capture_output=True, text=text,
                          env=env, cwd=ROOT)


def digest(folder) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_out_dir_files_are_deterministic_across_hash_seeds(tmp_path):
    src = tmp_path / "tricky.txt"
    src.write_text(TRICKY_SOURCE, encoding="utf-8")
    results = []
    for seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        for words, extra in ((TP, ("--seed", "3")), (str(src), ("--seeds", "20"))):
            out = tmp_path / f"out-{seed}"
            r = run("generate", "--words", words, *extra, "--out-dir", str(out), env=env)
            assert r.returncode == 0, r.stderr
        results.append(digest(out))
    assert results[0] == results[1]
    from site_builder.site import output_names

    assert sorted(results[0]) == sorted(
        name for slug in ("twin-peaks", "tricky") for name in output_names(slug, page=False)
    )
    assert {f"tricky.{ext}" for ext in ("ipuz", "puz", "xd", "json", "txt", "md")} <= set(results[0])


def test_format_prints_each_export(tmp_path):
    args = ("generate", "--words", TP, "--seed", "3", "--strategy", "freeform", "--size", "23", "--format")
    out = {fmt: run(*args, fmt) for fmt in ("text", "solution", "json", "ipuz", "puz", "xd", "md")}
    assert all(r.returncode == 0 for r in out.values()), {k: r.stderr for k, r in out.items()}
    assert out["text"].stdout.startswith(b"Twin Peaks\n") and b"LAURA" not in out["text"].stdout.split(b"Across")[1]
    assert b"LAURA" in out["solution"].stdout
    assert json.loads(out["json"].stdout)["rows"] == 23
    assert ipuz.read(out["ipuz"].stdout.decode("utf-8"))["title"] == "Twin Peaks"
    assert puz.load(out["puz"].stdout).title == "Twin Peaks"
    assert xdformat.xdfile(out["xd"].stdout.decode("utf-8")).get_header("Title") == "Twin Peaks"
    assert out["md"].stdout.startswith(b"# Twin Peaks\n")
    # the same bytes as the file --out-dir writes
    r = run("generate", "--words", TP, "--seed", "3", "--strategy", "freeform", "--size", "23", "--out-dir", str(tmp_path))
    assert r.returncode == 0
    assert (tmp_path / "twin-peaks.puz").read_bytes() == out["puz"].stdout
    assert (tmp_path / "twin-peaks.ipuz").read_bytes() == out["ipuz"].stdout


def test_format_puz_refuses_a_terminal():
    leader, follower = pty.openpty()
    try:
        r = subprocess.run([sys.executable, "-m", "site_builder", "generate", "--words", TP, "--seed", "3",
                            "--format", "puz"], stdout=follower, stderr=subprocess.PIPE, cwd=ROOT)
    finally:
        os.close(follower)
        os.close(leader)
    assert r.returncode == 2
    assert b"binary" in r.stderr and b"redirect" in r.stderr and b"Traceback" not in r.stderr


def test_format_rejects_unknown_name():
    r = run("generate", "--words", TP, "--format", "pdf", text=True)
    assert r.returncode == 2 and "invalid choice" in r.stderr


def test_text_grid_cells_stay_in_their_columns_past_clue_99():
    """Three-digit clue numbers widen every cell, so each cell starts where its column does."""
    from site_builder.bench import generated_entries
    from site_builder.render.text import render_grid_text

    layout = layout_entries(generated_entries(120, seed=3), LayoutParams(strategy="freeform", size=40, seeds=1))
    assert max(layout.numbers.values()) >= 100
    for solution in (False, True):
        lines = render_grid_text(layout, solution=solution).splitlines()
        assert len(lines) == layout.rows
        for (r, c), ch in layout.cells.items():
            cell = lines[r][c * 4: c * 4 + 3]  # three characters and a space a cell
            want = f"{layout.numbers[(r, c)]:>3}" if (r, c) in layout.numbers and not solution else None
            assert cell == (f"{ch:>3}" if solution else want or "___"), (r, c, lines[r])


def test_text_markdown_and_json_carry_description_notes_and_copyright(tricky, tp):
    # the PDF, ipuz, .puz and .xd carry them; a pasted .md or a .txt must not lose the copyright notice
    puzzle, layout = tricky
    txt = render_text_file(puzzle, layout)
    md = render_markdown(puzzle, layout)
    data = layout_json(puzzle, layout)
    assert "\nA test of <escaping> & such.\n" in txt.split("Across")[0]
    # notes and copyright after the answers, as in the PDF (notes may give answers away)
    notes = "First line & <second>. ## not a heading Last line."
    assert txt.index("Solution") < txt.index(f"\n{notes}\n") < txt.index("\n\u00a9 2026 Zo\u00eb O'Brien\n")
    assert "\nA test of \\<escaping\\> \\& such.\n" in md.split("## Across")[0]
    assert md.index("<summary>Answers</summary>") < md.index("<summary>Notes</summary>\n\nFirst line \\& \\<second\\>.")
    assert md.rstrip().endswith("\u00a9 2026 Zo\u00eb O'Brien")
    assert data["copyright"] == "\u00a9 2026 Zo\u00eb O'Brien" and data["notes"] == puzzle.meta.notes
    plain = layout_json(*tp)  # absent in the source, absent here
    assert "copyright" not in plain and "notes" not in plain


def test_ipuz_date_has_a_four_digit_year(tp):
    puzzle, layout = tp
    early = dataclasses.replace(puzzle, meta=dataclasses.replace(puzzle.meta, date=__import__("datetime").date(1, 2, 3)))
    assert json.loads(render_ipuz(early, layout))["date"] == "02/03/0001"


def test_markdown_escapes_what_opens_a_line(tricky):
    puzzle, layout = tricky
    meta = dataclasses.replace(
        puzzle.meta, description="1986. A great year", copyright="- 2026 The Press", notes="===\n\n+ spoiler\n\n2) two"
    )
    md = render_markdown(dataclasses.replace(puzzle, meta=meta), layout)
    lines = md.splitlines()
    for line in ("1986\\. A great year", "\\- 2026 The Press", "\\===", "\\+ spoiler", "2\\) two"):
        assert line in lines, line
    # a number not followed by '.' or ')' stays as it is
    meta = dataclasses.replace(puzzle.meta, description="1986 was a year")
    assert "1986 was a year" in render_markdown(dataclasses.replace(puzzle, meta=meta), layout).splitlines()


def test_a_decomposed_accent_keeps_the_puz_at_version_1_3(tp):
    puzzle, layout = tp
    decomposed = load_puzzle(
        "---\ntitle: Cafe\u0301\ndate: 2026-01-02\n---\nCAT | Cafe\u0301 au lait\nACT | Do\nTEA | Brew\n", slug="cafe"
    )
    lay = layout_puzzle(decomposed, params_for(decomposed, seeds=4))
    data = render_puz(decomposed, lay)
    assert data[0x18:0x1C] == b"1.3\x00"
    p = puz.load(data)
    assert p.title == "Caf\u00e9" and "Caf\u00e9 au lait (3)" in p.clues


def _referring_adjacency():
    """Twin-peaks under `adjacency`, each clue naming the answer seven on ([[...]]): (the list, its answers as
    written, the puzzle, its layout), whose two-letter fragments move the reader's numbers."""
    import dataclasses

    from site_builder.layout import layout_puzzle, params_for, with_references
    from site_builder.source import read_puzzle
    from tests.conftest import SAMPLES

    base = read_puzzle(SAMPLES / "twin-peaks.txt")
    names = [e.display for e in base.entries]
    entries = tuple(dataclasses.replace(e, clue=f"{e.clue}, not [[{names[(i + 7) % len(names)]}]]")
                    for i, e in enumerate(base.entries))
    puzzle = dataclasses.replace(base, entries=entries,
                                 meta=dataclasses.replace(base.meta, strategy="adjacency", size=23))
    puzzle, layout = with_references(puzzle, layout_puzzle(puzzle, params_for(puzzle, seed=0)))
    return base, names, puzzle, layout


def test_a_puz_reference_names_the_number_the_reader_shows():
    """Under `adjacency` a reader numbers the two-letter fragments too, and the numbers after one move: a
    clue's "see 17-Down" (the layout's number) then named another clue in the .puz, or none."""
    import puz

    base, names, puzzle, layout = _referring_adjacency()
    p = puz.load(render_puz(puzzle, layout))
    numbering = p.clue_numbering()
    solution = p.solution
    theirs = {}
    for d, entries_ in (("Across", numbering.across), ("Down", numbering.down)):
        for e in entries_:
            step = 1 if d == "Across" else p.width
            theirs[(e["num"], d)] = (e, "".join(solution[e["cell"] + i * step] for i in range(e["len"])))
    ours = {(q.number, q.direction.value.title()): q for q in layout.placements}
    assert any((num, d) not in ours or ours[(num, d)].answer != word for (num, d), (_, word) in theirs.items()), \
        "no fragment moved a number: pick another layout"
    checked = 0
    for (num, d), (e, word) in theirs.items():
        for ref_num, ref_dir in re.findall(r"\b(\d+)-(Across|Down)\b", e["clue"]):
            target = theirs[(int(ref_num), ref_dir)][1]
            checked += 1
            # the answer the reader's numbered clue names is the one the list's reference named
            source = next(x for x in base.entries if x.answer == word)
            meant = names[(base.entries.index(source) + 7) % len(names)]
            assert target == "".join(ch for ch in meant.upper() if ch.isalpha()), (e["clue"], target, meant)
    assert checked > 20


def test_an_xd_is_numbered_as_its_reader_numbers_the_grid():
    """An .xd reader numbers every run of its grid: under `adjacency` a fragment takes a number, and the .xd
    had given the numbers after it as the layout's, so clues landed on other squares and fragments had none."""
    from site_builder.layout.adjacency import fragments
    from site_builder.render.exports import render_xd

    base, names, puzzle, layout = _referring_adjacency()
    assert fragments(layout)
    sections = render_xd(puzzle, layout).split("\n\n\n")
    grid = sections[1].split("\n")
    # the grid's own numbering: a square starting a run of two or more letters across or down takes the next number
    runs, number = {}, 0
    letter = lambda r, c: 0 <= r < len(grid) and 0 <= c < len(grid[0]) and grid[r][c] != "_"  # noqa: E731
    for r in range(len(grid)):
        for c in range(len(grid[0])):
            starts = [d for d, (dr, dc) in (("A", (0, 1)), ("D", (1, 0)))
                      if letter(r, c) and not letter(r - dr, c - dc) and letter(r + dr, c + dc)]
            if starts:
                number += 1
            for d in starts:
                dr, dc = (0, 1) if d == "A" else (1, 0)
                k = 0
                while letter(r + k * dr, c + k * dc):
                    k += 1
                runs[(d, number)] = "".join(grid[r + i * dr][c + i * dc] for i in range(k))
    clues = {}
    for line in sections[2].split("\n"):
        if line:
            m = re.fullmatch(r"([AD])(\d+)\. (.*) ~ ([A-Z]+)", line)
            assert m, line
            clues[(m.group(1), int(m.group(2)))] = (m.group(3), m.group(4))
    assert clues.keys() == runs.keys()
    assert all(runs[k] == answer for k, (_, answer) in clues.items())
    assert sum(clue == exports.FRAGMENT_CLUE for clue, _ in clues.values()) == len(fragments(layout))
    referred = 0
    for clue, answer in clues.values():
        for num, d in re.findall(r"\b(\d+)-(Across|Down)\b", clue):
            source = next(x for x in base.entries if x.answer == answer)
            meant = names[(base.entries.index(source) + 7) % len(names)]
            assert runs[(d[0], int(num))] == "".join(ch for ch in meant.upper() if ch.isalpha()), (clue, meant)
            referred += 1
    assert referred > 20


def test_a_clue_that_begins_in_the_other_direction_is_isolated_in_its_own():
    """A first-strong isolate (U+2068) set an English clue that begins with a Hebrew word right to left."""
    from site_builder.render.text import _md_clue, clue_direction
    from site_builder.model import Direction, Entry, Placement

    hebrew = "\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd"
    assert clue_direction(hebrew + " is hello world in this language") == "ltr"
    assert clue_direction("NASA " + hebrew + " " + hebrew) == "rtl"
    assert clue_direction(hebrew) == clue_direction("Eternal city") == clue_direction("1999") == ""
    assert clue_direction("Hello in Hebrew: " + hebrew) == ""  # English first and mostly: the isolate's guess is right
    assert clue_direction("Hello " + hebrew) == "rtl"  # mostly Hebrew
    # most words, not most letters: Arabic and Hebrew write fewer letters a word (12 Arabic letters, 11 Latin)
    assert clue_direction("The \u0627\u0644\u0642\u0631\u0622\u0646 \u0627\u0644\u0643\u0631\u064a\u0645, holy book") == ""
    assert clue_direction("\u0627\u0644\u0642\u0631\u0622\u0646 is the holy book of Islam") == "ltr"
    # a gershayim (or a geresh, an apostrophe, a hyphen) is inside its word: two Hebrew words, three English
    assert clue_direction('\u05e6\u05d4"\u05dc and \u05de\u05d3"\u05d0 are it') == "ltr"
    assert clue_direction("Don't e-mail \u05e6'\u05d9\u05e4\u05e1") == ""

    def md(clue: str) -> str:
        return _md_clue(Placement(Entry("SHALOM", clue, line=1), 0, 0, Direction.ACROSS, 1))

    assert md(hebrew + " is hello world in this language").startswith("\u2066\u05e9")
    assert md("NASA " + hebrew + " " + hebrew).startswith("\u2067NASA")
    assert md(hebrew).startswith("\u2068")
