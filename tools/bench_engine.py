"""Time the rule checkers and the two search engines: Grid.spots (cell by cell), Board.spots (bitboards),
and a step of the optimize search in Python (optimize.Search on the board) and compiled (_anneal.c).

    .venv/bin/python tools/bench_engine.py

Loads a greedy twin-peaks layout into both, takes out every fifth word (so the spot lists are not
empty), then times spots() for each answer, place and remove, and the optimize search's steps in each
engine (the two make the same steps: tests/test_anneal.py).
Figures are microseconds a call (best of 5 repeats), on one core.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from site_builder.layout import freeform, optimize  # noqa: E402
from site_builder.layout.board import Board  # noqa: E402
from site_builder.layout.grid import STRIDE, Grid, Spot  # noqa: E402
from site_builder.layout.rng import Rng  # noqa: E402
from site_builder.model import LayoutParams  # noqa: E402
from site_builder.source import read_puzzle  # noqa: E402

SIDE = 23


def best_of(repeats: int, fn) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    entries = read_puzzle(ROOT / "tests" / "fixtures" / "puzzles" / "twin-peaks.txt").entries
    words = [e.answer for e in entries]
    greedy = freeform.build_seed(entries, 0, LayoutParams(size=SIDE))
    _, placed = optimize.shrink(optimize.from_layout(greedy, entries), words, SIDE)
    placed = [p for i, p in enumerate(placed) if i % 5]
    grid, board = Grid(SIDE), Board(SIDE)
    r0 = min(divmod(s, STRIDE)[0] for _, s, _ in placed)
    c0 = min(divmod(s, STRIDE)[1] for _, s, _ in placed)
    for wid, start, d in placed:
        grid.place(wid, words[wid], Spot(start, d))
        r, c = divmod(start, STRIDE)
        board.place(wid, words[wid], board.cell(r - r0, c - c0), d)
    bounds = grid.bounds()
    calls = 20 * len(words)
    grid_us = best_of(5, lambda: [grid.spots(w, bounds) for _ in range(20) for w in words]) / calls * 1e6
    board_us = best_of(5, lambda: [board.spots(w) for _ in range(20) for w in words]) / calls * 1e6
    wid, start, d = placed[0]
    word = words[wid]
    spot = Spot(start, d)
    cell = board.words[wid][1]

    def grid_cycle():
        for _ in range(1000):
            grid.remove(wid)
            grid.place(wid, word, spot)

    def board_cycle():
        for _ in range(1000):
            board.remove(wid)
            board.place(wid, word, cell, d)

    grid_pr = best_of(5, grid_cycle) / 1000 * 1e6
    board_pr = best_of(5, board_cycle) / 1000 * 1e6
    start_window = optimize.shrink(optimize.from_layout(greedy, entries), words, SIDE)
    step_us = {}
    for compiled, steps in ((False, 1000), (True, 20000)):
        if compiled and optimize._anneal is None:
            continue
        optimize._use_compiled = compiled
        t0 = time.process_time()
        optimize.run_box(entries, start_window, SIDE, steps, Rng(0))
        step_us[compiled] = (time.process_time() - t0) / steps * 1e6
    optimize._use_compiled = True
    print(f"spots, one answer:   Grid {grid_us:7.1f} us   Board {board_us:7.1f} us   ({grid_us / board_us:.1f}x)")
    print(f"remove + place:      Grid {grid_pr:7.1f} us   Board {board_pr:7.1f} us   ({word}, {len(word)} letters)")
    print(f"optimize search step, Python (Search on the board): {step_us[False]:.0f} us (1,000 steps)")
    if True in step_us:
        print(f"optimize search step, compiled (_anneal.c): {step_us[True]:.1f} us (20,000 steps), "
              f"{step_us[False] / step_us[True]:.0f}x")
    else:
        print("optimize search step, compiled: not built (pip install -e . builds it)")


if __name__ == "__main__":
    main()
