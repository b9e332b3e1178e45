"""The seeds/000 builder: seeded greedy placement and a search over seeds.

Build: words go in roughly longest first (the seed jitters the order). Each
takes the valid spot with the most crossings, less a penalty for growing the
bounding box, inside the size cap. Words that do not fit are retried after
the rest, for three more passes. If nothing ever crosses the first word, the
build starts over with the next word first. If a build drops a required
answer it is rerun with the required answers first, and the better of the two
(more required answers, then more letters) is kept.

Search: seeds 0..N-1 (or the one pinned seed); the best layout by
`search_key` wins, ties to the lower seed.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..model import Entry, Layout, LayoutParams
from .grid import ACROSS, ORIGIN, Grid, Spot
from .result import grid_to_layout, search_key
from .rng import Rng

NAME = "freeform"
JITTER = 2.0  # how many letters of length the seed may move a word up or down
GROWTH_PENALTY = 0.5  # per square the bounding box grows (height + width)
RETRY_PASSES = 3


def jittered_order(entries: Sequence[Entry], seed: int) -> list[int]:
    rng = Rng(seed)
    keyed = [(len(e.answer) + rng.random() * JITTER, -i) for i, e in enumerate(entries)]
    order = sorted(range(len(entries)), key=lambda i: keyed[i], reverse=True)
    return order


def best_spot(grid: Grid, word: str) -> Spot | None:
    """The valid spot with the best score; ties to the lowest (start, direction)."""
    bounds = grid.bounds()
    h0, w0 = bounds[2] - bounds[0] + 1, bounds[3] - bounds[1] + 1
    best: tuple[float, int, int] | None = None
    best_spot_: Spot | None = None
    for crossings, start, direction in grid.spots(word, bounds):
        spot = Spot(start, direction)
        h, w = grid.growth(word, spot, bounds)
        score = crossings - GROWTH_PENALTY * ((h - h0) + (w - w0))
        key = (score, -start, -direction)
        if best is None or key > best:
            best, best_spot_ = key, spot
    return best_spot_


def place_all(grid: Grid, entries: Sequence[Entry], pending: list[int]) -> list[int]:
    """Place what fits of `pending` in order, retrying leftovers; return the leftovers."""
    for _ in range(1 + RETRY_PASSES):
        leftover = []
        for wid in pending:
            word = entries[wid].answer
            spot = best_spot(grid, word)
            if spot is None:
                leftover.append(wid)
            else:
                grid.place(wid, word, spot)
        if not leftover or len(leftover) == len(pending):
            return leftover
        pending = leftover
    return pending


def build(entries: Sequence[Entry], order: list[int], size: int) -> Grid:
    """One greedy build in the given order (with the first-word restart rule)."""
    first_grid: Grid | None = None
    for k in range(len(order)):
        if len(entries[order[k]].answer) > size:
            continue  # cannot go in at all, let alone first
        seq = [order[k]] + order[:k] + order[k + 1 :]
        grid = Grid(size)
        grid.place(seq[0], entries[seq[0]].answer, Spot(ORIGIN, ACROSS))
        place_all(grid, entries, seq[1:])
        if len(grid.words) > 1 or len(order) == 1:
            return grid
        if first_grid is None:
            first_grid = grid
    return first_grid if first_grid is not None else Grid(size)


def _required_key(layout: Layout) -> tuple[int, int]:
    return layout.required_placed, layout.letters


def build_seed(entries: Sequence[Entry], seed: int, params: LayoutParams) -> Layout:
    order = jittered_order(entries, seed)
    layout = grid_to_layout(build(entries, order, params.size), entries, seed=seed, strategy=NAME, params=params)
    if any(e.required for e in layout.unplaced):
        front = [i for i in order if entries[i].required]
        rest = [i for i in order if not entries[i].required]
        again = grid_to_layout(build(entries, front + rest, params.size), entries, seed=seed, strategy=NAME, params=params)
        if _required_key(again) > _required_key(layout):
            layout = again
    return layout


def seeds_of(params: LayoutParams) -> range:
    if params.seed is not None:
        return range(params.seed, params.seed + 1)
    return range(params.seeds)


def search(entries: Sequence[Entry], params: LayoutParams,
           give_up: Callable[[int, tuple], bool] | None = None) -> Layout:
    """The best build over the seeds, by the search key (ties to the lower seed); `give_up(seed, best_key)`,
    asked before each seed after the first, may end the search there."""
    best: Layout | None = None
    best_key: tuple | None = None
    for seed in seeds_of(params):
        if give_up is not None and best_key is not None and give_up(seed, best_key):
            break
        layout = build_seed(entries, seed, params)
        key = search_key(layout)
        if best_key is None or key > best_key:
            best, best_key = layout, key
    assert best is not None
    return best
