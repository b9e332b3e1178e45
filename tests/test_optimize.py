from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.layout import STRATEGIES, layout_entries, layout_puzzle, optimize, params_for
from site_builder.layout.rng import Rng
from site_builder.layout.result import search_key
from site_builder.model import LayoutParams

from .conftest import ROOT, SAMPLES, make_entries
from .helpers import assert_valid


@pytest.fixture
def quick(monkeypatch):
    """A short budget: validity does not depend on how long the search runs."""
    monkeypatch.setattr(optimize, "MAX_STEPS", 120)
    monkeypatch.setattr(optimize, "MIN_STEPS", 120)


@pytest.fixture(scope="module")
def twin_default():
    from site_builder.source import read_puzzle

    p = read_puzzle(SAMPLES / "twin-peaks.txt")
    return p, layout_puzzle(p, params_for(p, strategy="optimize"))


def test_registered():
    assert STRATEGIES["optimize"] is optimize.search


# ------------------------------------------------------------------ validity


@pytest.mark.parametrize("seed", range(0, 60, 6))
def test_valid_on_many_seeds(twin_peaks, quick, seed):
    layout = layout_entries(twin_peaks.entries, LayoutParams(seed=seed, strategy="optimize"))
    assert_valid(layout)
    assert layout.required_placed == 4
    assert layout.rows <= 23 and layout.cols <= 23
    assert layout.strategy == "optimize"


WORD = st.text(alphabet="ABCDEILNORST", min_size=2, max_size=9)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(WORD, min_size=1, max_size=20, unique=True), st.integers(0, 2**32 - 1), st.integers(5, 23))
def test_valid_on_random_lists(quick, words, seed, size):
    words = [w for w in words if len(w) <= size] or ["AB"]
    layout = layout_entries(make_entries(*words), LayoutParams(seed=seed, size=size, strategy="optimize"))
    assert_valid(layout)
    assert layout.rows <= size and layout.cols <= size
    assert len(layout.placements) + len(layout.unplaced) == len(words)


@pytest.mark.parametrize("size", [13, 17, 19])
def test_size_cap_respected(twin_peaks, quick, size):
    layout = layout_entries(twin_peaks.entries, LayoutParams(size=size, seeds=2, strategy="optimize"))
    assert layout.rows <= size and layout.cols <= size
    assert_valid(layout)


def test_never_worse_than_its_greedy_start(twin_peaks, quick):
    from site_builder.layout import freeform

    for seed in (0, 5):
        params = LayoutParams(seed=seed, strategy="optimize")
        start = freeform.build_seed(twin_peaks.entries, seed, params)
        assert search_key(layout_entries(twin_peaks.entries, params)) >= search_key(start)


def test_tiny_lists(quick):
    assert layout_entries(make_entries("HELLO"), LayoutParams(strategy="optimize")).crossings == 0
    layout = layout_entries(make_entries("XYZQ", "CAT", "ACE", "TEA"), LayoutParams(strategy="optimize"))
    assert {"CAT", "ACE", "TEA"} <= {p.answer for p in layout.placements}
    assert_valid(layout)
    empty = layout_entries((), LayoutParams(strategy="optimize"))
    assert empty.placements == () and empty.unplaced == ()


# ------------------------------------------------------------------ required


def test_required_answers_kept(twin_peaks, quick):
    # star the short answers a tight box tends to drop; the search keeps them all
    starred = {"GUM", "LEO", "BEN", "BOB", "MIKE", "LUCY"}
    entries = [replace(e, required=e.required or e.answer in starred) for e in twin_peaks.entries]
    layout = layout_entries(entries, LayoutParams(size=19, seed=3, strategy="optimize"))
    placed = {p.answer for p in layout.placements}
    assert starred <= placed
    assert layout.required_placed == len(starred) + 4
    assert_valid(layout)


# ------------------------------------------------------------------ engine


def test_spots_agree_with_candidates_and_check(twin_peaks):
    from site_builder.layout import freeform

    for seed in range(3):
        for size in (9, 15, 23):
            order = freeform.jittered_order(twin_peaks.entries, seed)
            grid = freeform.build(twin_peaks.entries, [i for i in order if len(twin_peaks.entries[i].answer) <= size][:25], size)
            bounds = grid.bounds()
            for e in twin_peaks.entries:
                for b in (bounds, None):
                    want = sorted((grid.check(e.answer, s, b), s.start, s.direction) for s in grid.candidates(e.answer))
                    assert [w for w in want if w[0] > 0] == grid.spots(e.answer, b)


def test_undo_restores_the_grid(twin_peaks):
    from site_builder.layout import freeform

    layout = freeform.build_seed(twin_peaks.entries, 1, LayoutParams())
    words = [e.answer for e in twin_peaks.entries]
    origin, placed = optimize.shrink(optimize.from_layout(layout, twin_peaks.entries), words, 23)
    s = optimize.Search(twin_peaks.entries, 23, Rng(1), origin)
    s.load(placed)
    assert s.snapshot() == sorted(placed)

    def state():
        b = s.board
        letter = [{ch: m for ch, m in d.items() if m} for d in b.letter]  # every letter bitboard, both ways
        return s.snapshot(), list(b.letters), b.occ[:], b.along[:], b.down, letter, s.total, s.req, b.box()

    before = state()
    s.log.clear()
    for wid in s.pick_random():
        s.take(wid)
    s.repair(s.unplaced())
    s.undo()
    assert state() == before


# ------------------------------------------------------------ determinism


def test_same_bytes_across_hash_seeds():
    code = (
        "import sys;from site_builder.source import read_puzzle;from site_builder.layout import layout_puzzle,params_for;"
        "from site_builder.layout import optimize;optimize.MAX_STEPS=300;"
        "from site_builder.render.text import render_json;p=read_puzzle(sys.argv[1]);"
        "sys.stdout.write(render_json(p, layout_puzzle(p, params_for(p, strategy='optimize'))))"
    )
    outs = set()
    for hs in ("0", "1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hs)
        out = subprocess.run(
            [sys.executable, "-c", code, str(SAMPLES / "twin-peaks.txt")],
            capture_output=True, text=True, env=env, check=True, cwd=ROOT,
        ).stdout
        outs.add(out)
    assert len(outs) == 1 and outs.pop()


def test_effort_buys_a_longer_search(twin_peaks, quick):
    one = layout_entries(twin_peaks.entries, LayoutParams(seed=2, strategy="optimize", effort=1))
    again = layout_entries(twin_peaks.entries, LayoutParams(seed=2, strategy="optimize", effort=1))
    more = layout_entries(twin_peaks.entries, LayoutParams(seed=2, strategy="optimize", effort=4))
    assert one == again
    assert_valid(more)
    assert search_key(more)[:3] >= search_key(one)[:3] or more != one


# ------------------------------------------------------------------ quality


def test_twin_peaks_beats_the_greedy_search(twin_default):
    puzzle, layout = twin_default
    assert len(layout.placements) == 39 and not layout.unplaced
    assert_valid(layout)
    # seeds/000's builder, 200 seeds, in the same 21 squares: it never places all 39 there
    greedy = layout_puzzle(puzzle, params_for(puzzle, strategy="freeform"))
    assert len(greedy.placements) < 39
    assert layout.crossings > greedy.crossings


def test_twin_peaks_target(twin_default):
    """Issue 10's target: all 39 answers inside 21x21 with at least 50 crossings (the puzzle asks for effort 10)."""
    puzzle, layout = twin_default
    assert puzzle.meta.size == 21 and puzzle.meta.effort == 10
    assert layout.rows <= 21 and layout.cols <= 21 and len(layout.placements) == 39
    assert layout.crossings >= 50


def test_twin_peaks_in_21_squares_at_the_default_effort():
    """Without the longer search every answer still fits the 21 squares, on every seed tried."""
    from site_builder.source import read_puzzle

    entries = read_puzzle(SAMPLES / "twin-peaks.txt").entries
    for seed in range(3):
        layout = layout_entries(entries, LayoutParams(size=21, seed=seed, strategy="optimize"))
        assert len(layout.placements) == 39 and layout.rows <= 21 and layout.cols <= 21
        assert layout.crossings >= 45
        assert_valid(layout)


def test_answers_longer_than_the_size_are_left_out_not_a_crash():
    layout = layout_entries(make_entries("ABCDEFG", "HIJKLMN"), LayoutParams(size=5, strategy="optimize"))
    assert layout.placements == () and [e.answer for e in layout.unplaced] == ["ABCDEFG", "HIJKLMN"]
    assert layout.strategy == "optimize"
    layout = layout_entries(make_entries("ABCDEFG", "CAT", "TOE"), LayoutParams(size=5, strategy="optimize"))
    assert {p.answer for p in layout.placements} == {"CAT", "TOE"} and [e.answer for e in layout.unplaced] == ["ABCDEFG"]
    assert_valid(layout)


def test_lone_required_word_is_left_out_not_kept_alone(quick):
    # a starred answer that crosses nothing: the search keeps the crossing pair
    # (layout_puzzle then names the starred one) rather than a grid of one word
    entries = [replace(e, required=e.answer == "VWXYZ") for e in make_entries("ABCDE", "AEIOU", "VWXYZ")]
    layout = layout_entries(entries, LayoutParams(seeds=5, strategy="optimize"))
    assert {p.answer for p in layout.placements} == {"ABCDE", "AEIOU"}
    assert [e.answer for e in layout.unplaced] == ["VWXYZ"]
    assert_valid(layout)


def test_taking_out_a_glue_word_takes_the_stray_pair_with_it():
    """A word running through the end of one down word and the start of the next holds them together.

    Taking it out must not leave their two cells side by side as a run no answer holds.
    """
    from site_builder.layout.optimize import Search
    from site_builder.layout.rng import Rng

    entries = make_entries("TAN", "BAT", "ACE")
    s = Search(entries, 23, Rng(0))
    cell = s.board.cell
    # BAT down ending at (2,0); TAN across on row 2; ACE down from (2,1), through TAN's A
    s.put(1, cell(0, 0), 1)
    s.put(0, cell(2, 0), 0)
    s.put(2, cell(2, 1), 1)
    assert not s.board.orphan_pairs()
    taken = s.take_clean(0)
    assert taken == [0, 2]  # TAN, and ACE, whose A would sit beside BAT's T
    assert not s.board.orphan_pairs()


def test_every_list_of_a_generated_archive_stays_valid():
    """Regression: an archive of 12 generated lists once gave an optimize grid with a stray 'TA'."""
    from site_builder.bench import generated_entries
    from site_builder.layout.rng import Rng

    rng = Rng(2026)
    for i in range(12):
        entries = generated_entries(12 + rng.below(30), seed=1000 + i)
        layout = layout_entries(entries, LayoutParams(seeds=4))
        assert_valid(layout)


def _counting(monkeypatch) -> list[int]:
    spent: list[int] = []
    real = optimize.run_box

    def counting(*args, **kwargs):
        key, placed, used = real(*args, **kwargs)
        spent.append(used)
        return key, placed, used

    monkeypatch.setattr(optimize, "run_box", counting)
    return spent


def test_an_overfull_list_costs_steps_for_the_answers_that_fit(monkeypatch):
    """The budget follows what the box can hold: 120 answers in 13 squares are not searched as 120."""
    from site_builder.bench import generated_entries

    entries = generated_entries(120)
    spent = _counting(monkeypatch)
    layout = layout_entries(entries, LayoutParams(size=13, strategy="optimize"))
    assert len(layout.unplaced) > 60  # far too many for the size
    assert_valid(layout)
    # two runs at most (a tight cap's second one), each of 1,000 steps for the answers 13x13 cells can hold
    assert 0 < sum(spent) <= 2 * optimize.steps_for(13 * 13 // optimize.CELLS_PER_ANSWER)
    assert sum(spent) < optimize.steps_for(len(entries))


def test_a_list_far_past_the_box_is_searched_and_never_worse_than_the_builder(monkeypatch):
    """120 answers in 13 squares: the search runs (on many such lists it places more than the builder), and
    the builder's best over every seed is taken when it holds more."""
    from site_builder.bench import generated_entries
    from site_builder.layout import freeform
    from site_builder.layout.result import search_key

    entries = generated_entries(120)
    spent = _counting(monkeypatch)
    params = LayoutParams(size=13, strategy="optimize", seeds=40)
    layout = layout_entries(entries, params)
    assert len(layout.unplaced) > 60 and layout.strategy == "optimize"
    assert_valid(layout)
    assert sum(spent) > 0
    assert search_key(layout) >= search_key(freeform.search(entries, params))


def test_a_search_that_leaves_answers_out_is_never_worse_than_the_builder(monkeypatch):
    """Where the answers might all fit but the search leaves some out, the builder's best over every seed
    is taken when it holds more (the search starts from only GREEDY_STARTS of them)."""
    from site_builder.bench import generated_entries
    from site_builder.layout import freeform
    from site_builder.layout.result import search_key

    entries = generated_entries(60)
    params = LayoutParams(size=23, strategy="optimize", seeds=60)
    monkeypatch.setattr(optimize, "STEPS_PER_ANSWER", 5)  # a search too short to fit what the builder fits
    monkeypatch.setattr(optimize, "MIN_STEPS", 50)
    layout = layout_entries(entries, params)
    assert layout.unplaced and search_key(layout) >= search_key(freeform.search(entries, params))


def test_the_builders_fallback_stops_where_it_cannot_catch_up(monkeypatch):
    """The builder's fallback, 64 seeds whatever the list, took 26 s on 1,000 answers at size 60 and lost to
    the search by 5%: it gives up after FALLBACK_PROBE seeds when it trails by FALLBACK_GAP, and a long list
    gets fewer seeds; otherwise it is `freeform.search`, seed for seed."""
    from site_builder.bench import generated_entries
    from site_builder.layout import freeform
    from site_builder.layout.result import search_key

    entries = generated_entries(40)
    params = LayoutParams(size=9, strategy="optimize", seeds=20)
    built: list[int] = []
    build_seed = freeform.build_seed
    monkeypatch.setattr(freeform, "build_seed", lambda e, seed, p: built.append(seed) or build_seed(e, seed, p))
    behind = optimize.fallback(entries, params, (0, 0, 0, 0, 0))  # the search placed nothing: every seed
    assert built == list(range(20))
    monkeypatch.setattr(freeform, "build_seed", build_seed)
    assert behind == freeform.search(entries, params)
    monkeypatch.setattr(freeform, "build_seed", lambda e, seed, p: built.append(seed) or build_seed(e, seed, p))
    best = search_key(behind)
    built.clear()
    optimize.fallback(entries, params, (0, int(best[1] / (1 - optimize.FALLBACK_GAP)) + 2, 0, 0, 0))  # far ahead
    assert built == list(range(optimize.FALLBACK_PROBE))
    built.clear()  # but a search's layout of one word loses to any of two, whatever its letters
    optimize.fallback(entries, params, (0, int(best[1] / (1 - optimize.FALLBACK_GAP)) + 2, 0, 0, 0), crossword=False)
    assert built == list(range(20))
    built.clear()
    optimize.fallback(entries, params, (0, int(best[1] / (1 - optimize.FALLBACK_GAP)) - 2, 0, 0, 0))  # within reach
    assert built == list(range(20))
    built.clear()
    monkeypatch.setattr(optimize, "FALLBACK_WORK", 40 * 12)  # as long a list as 12 seeds' worth
    optimize.fallback(entries, params, (0, 0, 0, 0, 0))
    assert built == list(range(12))


def test_compaction_only_where_there_is_room(monkeypatch):
    """The box charge shapes roomy layouts; at a size that holds the layout back it is off."""
    from site_builder.source import read_puzzle

    twin = read_puzzle(SAMPLES / "twin-peaks.txt").entries  # 39 answers: tight in 21 squares
    herbs = read_puzzle(SAMPLES / "kitchen-herbs.txt").entries  # 12 answers: room in 15
    tight, roomy = LayoutParams(size=21, strategy="optimize"), LayoutParams(size=15, strategy="optimize")
    before = layout_entries(twin, tight), layout_entries(herbs, roomy)
    monkeypatch.setattr(optimize, "COMPACT", 3.0)
    after = layout_entries(twin, tight), layout_entries(herbs, roomy)
    assert after[0] == before[0]  # tight: the charge is off, whatever it is set to
    assert after[1] != before[1]  # roomy: it steers the search


def test_a_list_too_long_for_its_box_is_searched_inside_the_box():
    """60 answers in 18 squares (their letters 1.1 times the box): with soft rows past the box the walk
    stayed outside, where more letters fit, and came back at the end with fewer than it started with, so
    the builder's fallback won every time. Inside the box the search places far more than the builder."""
    from site_builder.bench import generated_entries
    from site_builder.layout import freeform

    entries = generated_entries(60, 5)
    params = LayoutParams(size=18)
    assert sum(len(e.answer) for e in entries) > 18 * 18  # more letters than the box has cells
    layout = layout_entries(entries, params)
    built = freeform.search(entries, replace(params, seeds=64))
    assert layout.strategy == "optimize" and layout.letters > 1.1 * built.letters, (layout.letters, built.letters)
    assert max(layout.rows, layout.cols) <= 18
    assert_valid(layout)


def test_a_list_too_long_for_its_box_gets_one_run_on_half_the_budget(monkeypatch):
    """Answers that cannot all fit gained 1% more letters from a second run from a wider start, at twice the
    time (6 to 10 s for 40 to 100 answers at size 23): one run, on half the steps. A list that fits keeps both."""
    from site_builder.bench import generated_entries

    runs: list[int] = []
    real = optimize.improve
    monkeypatch.setattr(optimize, "improve", lambda entries, greedy, cap, budget, *rest: runs.append(budget) or
                        real(entries, greedy, cap, budget, *rest))
    entries = generated_entries(60, 5)
    layout_entries(entries, LayoutParams(size=18, seed=0))
    assert runs == [optimize.steps_for(min(60, 18 * 18 // optimize.CELLS_PER_ANSWER)) // 2]
    runs.clear()
    fits = generated_entries(20, 5)  # letters half a 15x15 box: the whole budget
    layout_entries(fits, LayoutParams(size=15, seed=0))
    assert runs and runs[0] == optimize.steps_for(20)


LONG_WORDS = ("RESPONSIBILITIES TELECOMMUNICATIONS MISUNDERSTANDING UNCONSTITUTIONAL ENTREPRENEURSHIP CHARACTERIZATION "
              "INTERDISCIPLINARY DISPROPORTIONATE DISPROPORTIONATELY GASTROINTESTINAL ENTHUSIASTICALLY INCOMPREHENSIBLE "
              "INDISTINGUISHABLE TELECOMMUNICATION INTERCONTINENTAL AUTOBIOGRAPHICAL INSTITUTIONALIZED DISQUALIFICATION "
              "MISUNDERSTANDINGS CONSTITUTIONALLY").split()


def test_more_effort_is_never_worse_than_effort_one():
    """A longer run takes another path: on 20 answers of 16 to 18 letters in 23x23, effort 1 placed 16 of them
    and efforts 3 and 10 only 15, where the README tells an author a higher effort helps."""
    entries = make_entries(*LONG_WORDS)
    one = layout_entries(entries, LayoutParams(size=23, effort=1))
    three = layout_entries(entries, LayoutParams(size=23, effort=3))
    assert search_key(three) >= search_key(one), (len(three.placements), len(one.placements))
    assert three.params.effort == 3
    assert_valid(three)
