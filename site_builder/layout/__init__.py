"""The layout engine: pure functions from entries and parameters to a Layout.

Strategies are plain functions `search(entries, params) -> Layout`,
registered by name in STRATEGIES. `layout_puzzle` picks the puzzle's
strategy, runs it and enforces the required answers.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from ..errors import LayoutError
from ..model import Entry, Layout, LayoutParams, Puzzle
from . import adjacency, freeform, optimize, scored

Strategy = Callable[[Sequence[Entry], LayoutParams], Layout]

STRATEGIES: dict[str, Strategy] = {
    freeform.NAME: freeform.search,
    scored.NAME: scored.search,
    adjacency.NAME: adjacency.search,
    optimize.NAME: optimize.search,
}


def params_for(puzzle: Puzzle, **overrides) -> LayoutParams:
    m = puzzle.meta
    params = LayoutParams(size=m.size, seeds=m.seeds, seed=m.seed, strategy=m.strategy, effort=m.effort)
    clean = {k: v for k, v in overrides.items() if v is not None}
    return replace(params, **clean)


def layout_entries(entries: Sequence[Entry], params: LayoutParams) -> Layout:
    """Run the named strategy. Does not check required answers."""
    try:
        strategy = STRATEGIES[params.strategy]
    except KeyError:
        raise ValueError(f"unknown strategy {params.strategy!r}; choose one of {', '.join(sorted(STRATEGIES))}") from None
    return strategy(tuple(entries), params)


def layout_puzzle(puzzle: Puzzle, params: LayoutParams | None = None) -> Layout:
    """Lay the puzzle out; LayoutError (exit status 1) if a required answer is missing."""
    params = params or params_for(puzzle)
    layout = layout_entries(puzzle.entries, params)
    missing = tuple(e.display for e in layout.unplaced if e.required)
    if missing:
        letters = [set(e.answer) for e in puzzle.entries]
        alone = [
            e.display for e in layout.unplaced
            if e.required and not any(letters[i] & set(e.answer) for i, o in enumerate(puzzle.entries) if o is not e)
        ]
        # a plain list has no front matter: generate's options are its settings
        size, seeds = ("'size'", "'seeds'") if puzzle.has_front_matter else ("--size", "--seeds")
        hints = []
        if alone:
            hints.append(f"{', '.join(alone)} {'shares' if len(alone) == 1 else 'share'} no letter with any other "
                         f"answer, so nothing can cross {'it' if len(alone) == 1 else 'them'}: unstar "
                         f"{'it' if len(alone) == 1 else 'them'} or add an answer that does")
        if len(alone) < len(missing):
            hints.append(f"try a larger {size}, more {seeds}, or unstar one")
        hint = "; ".join(hints)
        lines = [e.line for e in layout.unplaced if e.required and e.line]
        raise LayoutError(
            puzzle.path, f"no layout places every required answer; missing: {', '.join(missing)} ({hint})", missing,
            line=min(lines, default=None),
        )
    return layout
