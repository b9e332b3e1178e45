"""Turning a working Grid into a numbered, immutable Layout; the search key."""

from __future__ import annotations

from typing import Sequence

from ..model import Direction, Entry, Layout, LayoutParams, Placement
from .grid import ACROSS, STRIDE, Grid


def number_placements(placements: Sequence[Placement]) -> tuple[Placement, ...]:
    """Number starting cells row by row, left to right; Across first, then Down."""
    starts = sorted({(p.row, p.col) for p in placements})
    number = {cell: i + 1 for i, cell in enumerate(starts)}
    numbered = [
        Placement(p.entry, p.row, p.col, p.direction, number[(p.row, p.col)]) for p in placements
    ]
    numbered.sort(key=lambda p: (p.direction is not Direction.ACROSS, p.number))
    return tuple(numbered)


def grid_to_layout(
    grid: Grid, entries: Sequence[Entry], *, seed: int, strategy: str, params: LayoutParams
) -> Layout:
    """Freeze a grid whose word ids index `entries`; anything not on it is unplaced."""
    if not grid.words:
        return Layout((), tuple(entries), 0, 0, seed, strategy, params)
    r0, c0, r1, c1 = grid.bounds()
    raw = []
    for wid, (_word, spot) in grid.words.items():
        r, c = divmod(spot.start, STRIDE)
        raw.append(
            Placement(entries[wid], r - r0, c - c0, Direction.ACROSS if spot.direction == ACROSS else Direction.DOWN)
        )
    unplaced = tuple(e for i, e in enumerate(entries) if i not in grid.words)
    return Layout(number_placements(raw), unplaced, r1 - r0 + 1, c1 - c0 + 1, seed, strategy, params)


def search_key(layout: Layout) -> tuple:
    """Bigger is better: required answers, letters, crossings, then the smaller grid.

    The grid comparison is by area, then by the longer side. Ties go to the
    lower seed, which callers handle by keeping the first best they meet.
    """
    return (
        layout.required_placed,
        layout.letters,
        layout.crossings,
        -(layout.rows * layout.cols),
        -max(layout.rows, layout.cols),
    )
