from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.layout import STRATEGIES, layout_entries, layout_puzzle, params_for, scored
from site_builder.layout.grid import Grid
from site_builder.model import LayoutParams
from site_builder.source import load_puzzle

from .conftest import make_entries
from .helpers import assert_valid

WORDS = ("PYTHON", "JAVA", "HASKELL", "RUST", "KOTLIN", "SWIFT", "PERL", "RUBY", "SCALA", "ERLANG", "ELIXIR", "JULIA")


def test_registered_and_selectable_from_front_matter():
    assert STRATEGIES["scored"] is scored.search
    text = "---\ntitle: T\ndate: 2026-01-01\nstrategy: scored\nseeds: 4\n---\n" + "\n".join(f"{w} | c" for w in WORDS)
    puzzle = load_puzzle(text)
    layout = layout_puzzle(puzzle, params_for(puzzle))
    assert layout.strategy == "scored"
    assert_valid(layout)


def test_twin_peaks_keeps_the_strict_rules_and_required_answers(twin_peaks):
    layout = layout_entries(twin_peaks.entries, LayoutParams(size=23, seeds=4, strategy="scored"))
    assert_valid(layout)
    assert layout.required_placed == 4


def test_deterministic_for_a_seed():
    entries = make_entries(*WORDS)
    a = scored.build(entries, 7, LayoutParams(size=15))
    b = scored.build(entries, 7, LayoutParams(size=15))
    assert a == b
    assert any(scored.build(entries, s, LayoutParams(size=15)) != a for s in range(8))


def test_search_stops_at_the_first_attempt_that_places_everything():
    entries = make_entries(*WORDS)
    params = LayoutParams(size=15, seeds=30)
    layout = scored.search(entries, params)
    assert not layout.unplaced
    first_full = next(s for s in range(30) if not scored.build(entries, s, params).unplaced)
    assert layout.seed == first_full


def test_weights_are_configurable():
    entries = make_entries(*WORDS)
    params = LayoutParams(size=20, seed=3)
    default = scored.search(entries, params)
    central = scored.search(entries, params, weights={"connections": 0.0, "centrality": 1.0, "balance": 0.0, "length": 0.0})
    assert_valid(central)
    assert central != default
    with pytest.raises(ValueError, match="unknown weight"):
        scored.search(entries, params, weights={"crossings": 1.0})


def test_phase_two_places_words_phase_one_left(monkeypatch):
    # force phase 1 to stop after the first word: phase 2 must then place the rest by search
    entries = make_entries("CAT", "TAR", "ARC", "RAT")
    monkeypatch.setattr(scored._Attempt, "phase1", lambda self, first, pending: (
        self.grid.place(first, self.entries[first].answer, scored.Spot(scored.ORIGIN, 0)), pending)[1])
    layout = scored.build(entries, 0, LayoutParams(size=10))
    assert_valid(layout)
    assert len(layout.placements) >= 3


def test_phase_two_is_bounded_by_the_node_budget(monkeypatch):
    calls = {"n": 0}
    real_place = Grid.place

    def counting(self, wid, word, spot):
        calls["n"] += 1
        return real_place(self, wid, word, spot)

    monkeypatch.setattr(scored, "NODE_BUDGET", 5)
    monkeypatch.setattr(scored._Attempt, "phase1", lambda self, first, pending: (
        self.grid.place(first, self.entries[first].answer, scored.Spot(scored.ORIGIN, 0)), pending)[1])
    monkeypatch.setattr(Grid, "place", counting)
    scored.build(make_entries(*WORDS), 0, LayoutParams(size=23))
    # the first word, at most 5 search nodes, and the best partial result put back
    assert calls["n"] <= 1 + 5 + len(WORDS)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(alphabet="ABCDEILNORST", min_size=2, max_size=9), min_size=2, max_size=12, unique=True))
def test_random_lists_keep_runs_equal_answers(words):
    layout = scored.search(make_entries(*words), LayoutParams(size=20, seeds=2))
    assert_valid(layout)


def test_the_attempts_stop_on_a_work_budget_not_a_clock(monkeypatch):
    """The loop's limit counts word scans, so where it stops is the same on a slow machine."""
    entries = make_entries("ABCDE", "AEIOU", "VWXYZ", "BCDFG", "XQXQX")  # VWXYZ and XQXQX never fit: every attempt runs
    seeds: list[int] = []
    real = scored._build

    def counting(entries, seed, params, weights):
        seeds.append(seed)
        return real(entries, seed, params, weights)

    monkeypatch.setattr(scored, "_build", counting)
    scored.search(entries, LayoutParams(size=9, seeds=20))
    assert seeds == list(range(20)), "the default budget is far above a small list's needs"
    one_attempt = real(entries, 0, LayoutParams(size=9), None)[1]
    monkeypatch.setattr(scored, "WORK_BUDGET", one_attempt * 3)
    seeds.clear()
    scored.search(entries, LayoutParams(size=9, seeds=20))
    assert 3 <= len(seeds) < 20
    stopped = len(seeds)
    seeds.clear()
    scored.search(entries, LayoutParams(size=9, seeds=40, effort=2))
    assert len(seeds) > stopped, "effort buys attempts"
