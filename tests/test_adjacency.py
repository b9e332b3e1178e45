from __future__ import annotations

import json

import pytest

from site_builder.layout import STRATEGIES, adjacency, dictionary
from site_builder.layout.grid import ACROSS, DOWN, ORIGIN, STRIDE, Spot
from site_builder.model import LayoutParams
from site_builder.render.text import render_json
from site_builder.source import load_puzzle

from .helpers import runs

PARAMS = LayoutParams(size=23, seeds=6, strategy="adjacency")


@pytest.fixture(scope="module")
def dic():
    return dictionary.load()


@pytest.fixture(scope="module")
def tp_layout():
    from .conftest import SAMPLES
    from site_builder.source import read_puzzle

    p = read_puzzle(SAMPLES / "twin-peaks.txt")
    return p, adjacency.search(p.entries, PARAMS)


def assert_adjacency_valid(layout, dic):
    """Every run of 2+ letters is an answer or a fill word, except the reported two-letter fragments."""
    placed = {(p.row, p.col, p.direction.value): p.entry.answer for p in layout.placements}
    frags = {(r, c, d): w for r, c, d, w in adjacency.fragments(layout)}
    for r, c, d, letters in runs(layout):
        if (r, c, d) in placed:
            assert placed[(r, c, d)] == letters
        else:
            assert frags.get((r, c, d)) == letters and len(letters) == 2, (r, c, d, letters)
    assert len(placed) == len(layout.placements)  # no two words start in the same cell and direction
    for p in layout.fill_words:
        assert p.entry.clue == "" and p.entry.answer in dic
    assert len(layout.fill_words) <= adjacency.fill_cap(len(layout.placements) - len(layout.fill_words) + len(layout.unplaced))
    answers = [p.entry.answer for p in layout.placements]
    assert len(answers) == len(set(answers))
    # one piece
    cells = set(layout.cells)
    start = min(cells)
    seen, stack = {start}, [start]
    while stack:
        r, c = stack.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    assert seen == cells


def test_registered():
    assert STRATEGIES["adjacency"] is adjacency.search


def test_twin_peaks_invariant_and_fill(tp_layout, dic):
    puzzle, layout = tp_layout
    assert_adjacency_valid(layout, dic)
    assert layout.required_placed == 4
    assert len(layout.placements) - len(layout.fill_words) == len(puzzle.entries)
    assert layout.fill_words, "twin-peaks should use some fill"


def test_the_summary_counts_the_authors_answers_and_the_fill_words_apart(tp_layout):
    """It said "45 of 45 answers placed" for 39 answers and 6 fill words (and, with answers left out, "79 of
    115" for 64 of 100)."""
    from dataclasses import replace

    puzzle, layout = tp_layout
    fill = len(layout.fill_words)
    summary = layout.summary()
    assert f": 39 of 39 answers placed (4 of 4 required) and {fill} fill word{'s' if fill > 1 else ''}, " in summary
    # one answer out, no stars: the author's count, and no "(0 of 0 required)"
    out = next(p for p in layout.placements if not p.entry.fill)
    unstarred = replace(layout, placements=tuple(replace(p, entry=replace(p.entry, required=False))
                                                  for p in layout.placements if p is not out),
                        unplaced=(replace(out.entry, required=False),))
    assert ": 38 of 39 answers placed and " in unstarred.summary() and "required" not in unstarred.summary()


def test_deterministic(tp_layout):
    puzzle, layout = tp_layout
    assert adjacency.search(puzzle.entries, PARAMS) == layout


def test_fill_words_are_marked_in_json(tp_layout):
    puzzle, layout = tp_layout
    data = json.loads(render_json(puzzle, layout))
    fills = [r for r in data["result"] if r["fill"]]
    assert sorted(r["answer"] for r in fills) == sorted(p.entry.answer for p in layout.fill_words)
    assert all(r["orientation"] in ("across", "down") and r["clue"] == "" for r in fills)


def test_unclued_fill_words_and_hint(tp_layout):
    puzzle, layout = tp_layout
    words = adjacency.unclued_fill_words(puzzle, layout)
    assert words == [p.entry.answer for p in layout.placements if p.entry.fill]
    hint = adjacency.fill_clue_hint(puzzle, layout)
    assert all(f"\n{w} | " in hint for w in words)


def test_adding_clues_for_the_fill_words_converges(tp_layout):
    puzzle, layout = tp_layout
    source = puzzle.path.read_text(encoding="utf-8")
    words = adjacency.unclued_fill_words(puzzle, layout)
    block = "\n# fill words\n" + "".join(f"{w} | clue for {w.lower()}\n" for w in words)
    again = load_puzzle(source + block, slug=puzzle.slug)
    layout2 = adjacency.search(again.entries, PARAMS)
    assert adjacency.unclued_fill_words(again, layout2) == []
    # the same grid, now every word an ordinary clued entry
    assert layout2.cells == layout.cells and layout2.rows == layout.rows
    assert not layout2.fill_words
    # clueing only some keeps the grid too, and lists the rest
    half = words[: len(words) // 2]
    partial = load_puzzle(source + "\n" + "".join(f"{w} | c\n" for w in half), slug=puzzle.slug)
    layout3 = adjacency.search(partial.entries, PARAMS)
    assert layout3.cells == layout.cells
    assert adjacency.unclued_fill_words(partial, layout3) == words[len(half):]


def _state(dic, *words):
    entries = tuple(dictionary_entry(w) for w in words)
    bigrams = dictionary.frequent_bigrams(dic, tuple(e.answer for e in entries))
    return adjacency._State(entries, 23, bigrams, dic, 3), bigrams


def dictionary_entry(word):
    from site_builder.model import Entry

    return Entry(word, f"clue {word}")


def test_parallel_placements_need_frequent_bigrams_or_words(dic):
    state, bigrams = _state(dic, "TEAM", "ONE", "XXQZ")
    state.place(0, "TEAM", Spot(ORIGIN, ACROSS), [])
    # ONE right under EAM: E/O? no: columns read T-, EO, AN, ME
    below = Spot(ORIGIN + STRIDE + 1, ACROSS)
    cand = state.check("ONE", below, None)
    pairs = ["EO", "AN", "ME"]
    if all(p in bigrams for p in pairs):
        assert cand is not None and cand[0] == 0 and len(cand[5]) == 3
    else:
        assert cand is None
    # rare pairs are refused
    assert "QX" not in bigrams
    assert state.check("XXQZ", Spot(ORIGIN - STRIDE, ACROSS), None) is None


def test_three_letter_runs_must_be_words_and_become_fill(dic):
    state, _ = _state(dic, "CAT", "ARE", "TEN")
    state.place(0, "CAT", Spot(ORIGIN, ACROSS), [])
    state.place(1, "ARE", Spot(ORIGIN + 2 * STRIDE, ACROSS), [])
    # a word across the middle row makes three-letter columns C?A, A?R, T?E
    cand = state.check("ORB", Spot(ORIGIN + STRIDE, ACROSS), None)
    assert cand is None or all(run in dic or run in state.user_index for _s, _d, run in cand[1])
    ok = state.check("OAR", Spot(ORIGIN + STRIDE, ACROSS), None)  # COA? AAR? TRE? not words
    assert ok is None


def test_a_run_never_lengthens_a_placed_word(dic):
    state, _ = _state(dic, "CAT", "ACE", "SO")
    state.place(0, "CAT", Spot(ORIGIN, ACROSS), [])
    state.place(1, "ACE", Spot(ORIGIN + 1, DOWN), [])
    # a letter right under ACE's E would make ACE? longer
    assert state.check("SO", Spot(ORIGIN + 3 * STRIDE, ACROSS), None) is None


def test_dictionary_is_clean_and_cached(dic):
    assert dictionary.load() is dic
    assert len(dic) > 5000
    assert all(3 <= len(w) <= 8 and w.isalpha() and w.isupper() for w in dic.words)
    for bad in ("SLUT", "WHORE", "FAGGOT", "NAZI", "PORN"):
        assert bad not in dic
    for good in ("WATER", "HOUSE", "ACORN"):
        assert good in dic
    assert "JOHN" not in dic  # names are not fill
    assert dic.matching(5, {0: "W", 4: "R"})[0] == "WATER"
