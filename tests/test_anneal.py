"""The compiled search (`_anneal.run_box`) against its Python reference (`optimize.run_box_python`).

Both must make the same random draws, try the same spots in the same order and add the same floats:
the same input gives the same best layout, key, steps used and generator state. Anything less would
make a layout depend on whether the extension was built.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.bench import generated_entries
from site_builder.layout import freeform, layout_entries, optimize
from site_builder.layout.rng import Rng
from site_builder.model import LayoutParams
from site_builder.source import read_puzzle

from .conftest import SAMPLES, make_entries
from .helpers import assert_valid


def test_the_compiled_engine_is_built():
    # `pip install -e .` (make's set-up) compiles it; without it every layout is about 80 times slower
    assert optimize._anneal is not None


def both(entries, start, side, steps, seed, **kw):
    out = []
    for compiled in (False, True):
        optimize._use_compiled = compiled
        rng = Rng(seed)
        try:
            key, placed, used = optimize.run_box(entries, start, side, steps, rng, **kw)
        finally:
            optimize._use_compiled = True
        out.append((key, placed, used, rng.state))
    return out


def start_for(entries, side, seed, greedy_size=None):
    greedy = freeform.build_seed(entries, seed, LayoutParams(size=greedy_size or side))
    words = [e.answer for e in entries]
    if not greedy.placements:
        return divmod(optimize.ORIGIN, optimize.STRIDE), []  # nothing fits: the search starts from an empty board
    return optimize.shrink(optimize.from_layout(greedy, entries), words, side)


@pytest.mark.parametrize("name", ["twin-peaks", "solar-system", "kitchen-herbs"])
@pytest.mark.parametrize("seed", [0, 5])
def test_same_search_as_python_on_our_puzzles(name, seed):
    entries = read_puzzle(SAMPLES / f"{name}.txt").entries
    side = 21
    python, compiled = both(entries, start_for(entries, side, seed), side, 250, seed)
    assert compiled == python
    assert python[2] == 250 and python[0][1] > 0


def test_same_search_when_a_smaller_box_gives_up_early():
    entries = read_puzzle(SAMPLES / "twin-peaks.txt").entries
    # a box far too small for every answer: both give up at the probe, with the same best
    python, compiled = both(entries, start_for(entries, 15, 3, greedy_size=23), 15, 400, 3, need=(4, 256), probe=100)
    assert compiled == python
    assert python[2] == 100


def test_same_search_with_a_cooler_start_and_other_settings(monkeypatch):
    entries = read_puzzle(SAMPLES / "world-capitals.txt").entries
    start = start_for(entries, 29, 1, greedy_size=31)  # the greedy start loses words to the smaller box
    monkeypatch.setattr(optimize, "RETRY_CAP", 3)
    monkeypatch.setattr(optimize, "LEAF_MOVES", 0.6)
    monkeypatch.setattr(optimize, "GROWTH", 0.0)
    python, compiled = both(entries, start, 29, 200, 1, t_start=optimize.T_POLISH)
    assert compiled == python


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(2, 40), seed=st.integers(0, 10_000), side=st.integers(5, 19), starred=st.integers(0, 3))
def test_same_search_on_generated_lists(count, seed, side, starred):
    entries = [replace(e, required=i < starred) for i, e in enumerate(generated_entries(count, seed=seed))]
    python, compiled = both(entries, start_for(entries, side, seed), side, 60, seed)
    assert compiled == python


def test_same_search_with_words_longer_than_the_box_and_letters_past_ascii():
    entries = make_entries("ÉCLAIR", "CRÈME", "BRÛLÉE", "ÉTÉ", "ABCDEFGHIJKLMNOPQRST", "LAIT", "MIEL")
    python, compiled = both(entries, start_for(entries, 9, 0), 9, 120, 0)
    assert compiled == python
    assert not any(entries[w].answer == "ABCDEFGHIJKLMNOPQRST" for w, _, _ in python[1])


def test_layouts_agree_whole(monkeypatch):
    """The whole strategy (greedy starts, box descent, a tight cap's second run) gives the same layout."""
    entries = read_puzzle(SAMPLES / "solar-system.txt").entries
    monkeypatch.setattr(optimize, "MAX_STEPS", 400)
    monkeypatch.setattr(optimize, "MIN_STEPS", 400)
    params = LayoutParams(size=19, strategy="optimize")
    compiled = layout_entries(entries, params)
    monkeypatch.setattr(optimize, "_use_compiled", False)
    assert layout_entries(entries, params) == compiled
    assert_valid(compiled)


def test_an_empty_start_and_a_start_outside_the_window():
    entries = make_entries("CAT", "TOE")
    python, compiled = both(entries, (divmod(optimize.ORIGIN, optimize.STRIDE), []), 7, 30, 0)
    assert compiled == python and len(python[1]) == 2
    with pytest.raises(ValueError, match="outside the window"):
        optimize.run_box(entries, ((0, 0), [(0, 500 * optimize.STRIDE, 0)]), 7, 10, Rng(0))


@pytest.mark.parametrize("side", [55, 56, 57, 58])
def test_same_search_where_a_line_of_the_window_fits_64_bits_and_where_it_does_not(side):
    # the compiled engine checks a spot on a bit per cell of its row or column while a line of its window
    # (the box, MARGIN cells each side and a border) fits 64 bits, up to a box of 56; cell by cell past it
    assert 56 + 2 * optimize.MARGIN + 2 == 64  # so these sides straddle the change
    entries = generated_entries(120, seed=side)
    python, compiled = both(entries, start_for(entries, side, 1), side, 40, 1)
    assert compiled == python and len(python[1]) > 60


@pytest.mark.parametrize("compiled", [False, True])
def test_placements_that_disagree_on_a_cell_are_refused_by_both_engines(compiled, monkeypatch):
    monkeypatch.setattr(optimize, "_use_compiled", compiled)
    entries = make_entries("CAT", "DOG", "CART")
    origin = optimize.ORIGIN
    for placed in ([(0, origin, 0), (1, origin, 1)],  # C and D in one cell
                   [(0, origin, 0), (2, origin, 0)]):  # two across words in one cell
        with pytest.raises(ValueError, match="disagree on a cell"):
            optimize.run_box(entries, (divmod(origin, optimize.STRIDE), placed), 9, 10, Rng(0))


def test_an_edit_to_the_compiled_engine_invalidates_cached_layouts():
    from site_builder import site

    assert site.PACKAGE / "layout" / "_anneal.c" in site.LAYOUT_CODE
    # the built library is left out: it differs between machines for the same source
    assert not any(p.suffix == ".so" for p in site.LAYOUT_CODE)


def test_same_search_with_a_hard_box(monkeypatch):
    monkeypatch.setattr(optimize, "SOFT", 0)
    entries = read_puzzle(SAMPLES / "twin-peaks.txt").entries
    python, compiled = both(entries, start_for(entries, 21, 2), 21, 200, 2)
    assert compiled == python
    # and as a list too long for its box asks for it (`search`: soft=0), on a box it overfills
    monkeypatch.setattr(optimize, "SOFT", 2)
    python, compiled = both(entries, start_for(entries, 15, 2), 15, 200, 2, soft=0)
    assert compiled == python and python != both(entries, start_for(entries, 15, 2), 15, 200, 2)[0]


@pytest.mark.parametrize("side", [13, 17, 21])
def test_a_soft_box_never_gives_a_layout_past_the_box(side):
    """Steps may run past the box (SOFT), results never do."""
    assert optimize.SOFT > 0
    entries = read_puzzle(SAMPLES / "twin-peaks.txt").entries
    key, placed, _ = optimize.run_box(entries, start_for(entries, side, 1), side, 3000, Rng(1))
    grid = optimize.to_grid(entries, placed, side)
    r0, c0, r1, c1 = grid.bounds()
    assert r1 - r0 < side and c1 - c0 < side and -key[4] <= side
    assert not grid.orphan_pairs()
