"""The layout engine: pure functions from entries and parameters to a Layout.

Strategies are plain functions `search(entries, params) -> Layout`,
registered by name in STRATEGIES. `layout_puzzle` picks the puzzle's
strategy, runs it and enforces the required answers.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from ..errors import LayoutError
from ..model import Entry, Layout, LayoutParams, Puzzle, letter_groups, lone_answers
from . import adjacency, freeform, optimize, scored
from .grid import Grid
from .result import grid_to_layout

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
    if not entries:  # nothing to lay out: an empty grid, whichever the strategy
        return grid_to_layout(Grid(params.size), (), seed=params.seed or 0, strategy=params.strategy, params=params)
    return strategy(tuple(entries), params)


def layout_puzzle(puzzle: Puzzle, params: LayoutParams | None = None) -> Layout:
    """Lay the puzzle out; LayoutError (exit status 1) if a required answer is missing."""
    params = params or params_for(puzzle)
    layout = layout_entries(puzzle.entries, params)
    letters = [set(e.answer) for e in puzzle.entries]
    lone = {id(e) for e in lone_answers(puzzle.entries)}

    def crosses_nothing(e: Entry) -> bool:
        return id(e) in lone

    unplaced = list(layout.unplaced)
    if len(layout.placements) == 1 and crosses_nothing(layout.placements[0].entry) and any(
        letters[i] & letters[j] for i in range(len(letters)) for j in range(i) if letters[i] and letters[j]
        and puzzle.entries[i] is not layout.placements[0].entry and puzzle.entries[j] is not layout.placements[0].entry
    ):
        # a required answer that crosses nothing, alone in the grid while other answers could make a
        # crossword (every strategy's rule: a one-word grid only when no two answers cross): it is missing
        unplaced.insert(0, layout.placements[0].entry)
    missing = tuple(e.display for e in unplaced if e.required)
    if missing:
        # why each was left out (under `adjacency` every one is "room": fill words may join what shares no letter)
        kinds = _left_out_kinds(puzzle, replace(layout, unplaced=tuple(unplaced)))
        alone = [e.display for e in unplaced if e.required and kinds[id(e)] == "alone"]
        apart = [e.display for e in unplaced if e.required and kinds[id(e)] == "apart"]
        # a plain list has no front matter: generate's options are its settings
        size, seeds = ("'size'", "'seeds'") if puzzle.has_front_matter else ("--size", "--seeds")
        seed = "'seed'" if puzzle.has_front_matter else "--seed"
        effort = "'effort'" if puzzle.has_front_matter else "--effort"
        hints = []
        if alone:
            hints.append(f"{', '.join(alone)} {'shares' if len(alone) == 1 else 'share'} no letter with any other "
                         f"answer, so nothing can cross {'it' if len(alone) == 1 else 'them'}: unstar "
                         f"{'it' if len(alone) == 1 else 'them'} or add an answer that does")
        if apart:
            # a required answer in a group of answers that shares no letter with the grid's: no grid holds both
            hints.append(f"{', '.join(apart)} {'shares' if len(apart) == 1 else 'share'} no letter with the answers "
                         "in the grid or any answer crossing them, so no grid holds both: unstar "
                         f"{'it' if len(apart) == 1 else 'them'}, or add answers that share letters with both")
        if len(alone) + len(apart) < len(missing):
            # a pinned seed: more seeds is no option, another seed is; `optimize` spends its effort, not seeds,
            # on the search (seeds beyond a few start nothing new), and `scored` tries at most 50 seeds an effort
            options = []
            grow = _size_advice(puzzle, replace(layout, unplaced=tuple(unplaced)), size)
            if grow and grow.startswith("raise"):
                options.append(grow.replace("raise", "a larger", 1))
            elif grow:  # no larger size
                hints.append(grow)
            if params.seed is not None:
                options.append(f"another {seed}")
            elif params.strategy in (optimize.NAME, scored.NAME):
                if params.effort < 10:
                    options.append(f"a higher {effort} (up to 10)")
            else:
                options.append(f"more {seeds}")
            if params.strategy != optimize.NAME:
                options.append("the default search (" + ("'strategy: optimize'" if puzzle.has_front_matter
                                                         else "--strategy optimize") + ")")
            hints.append(f"try {', '.join(options)}, or unstar one" if options else "unstar one")
        hint = "; ".join(hints)
        lines = [e.line for e in unplaced if e.required and e.line]
        raise LayoutError(
            puzzle.path, f"no layout places every required answer; missing: {', '.join(missing)} ({hint})", missing,
            line=min(lines, default=None),
        )
    return layout


def with_references(puzzle: Puzzle, layout: Layout) -> tuple[Puzzle, Layout]:
    """The puzzle and layout with each clue's [[ANSWER]] printed as the number the layout gave that answer:
    "Wife of [[King Lear]]" becomes "Wife of 12-Across" in every output. The source has checked that each
    names another answer of the list; LayoutError when a placed clue names one the grid left out (the
    clue would have nothing to point at)."""
    if not any("[[" in e.clue for e in puzzle.entries):
        return puzzle, layout
    from ..source import REFERENCE

    where = {p.entry.answer: p for p in layout.placements}
    placed = {id(p.entry) for p in layout.placements}
    resolved: dict[int, Entry] = {}
    for e in puzzle.entries:
        if not REFERENCE.search(e.clue):
            continue

        def number(m, e=e) -> str:
            letters = _letters(m.group(1))
            target = where.get(letters)
            if target is not None:
                return f"{target.number}-{target.direction.value.title()}"
            if id(e) in placed:
                left = next((x for x in layout.unplaced if x.answer == letters), None)
                why = _why_left_out(left, puzzle, layout) if left is not None else ""
                room = why.endswith("no room")
                size = "'size'" if puzzle.has_front_matter else "--size"
                fix = (f"drop the reference, or star that answer (*ANSWER) so every layout places it, or raise {size}"
                       if room else "drop the reference, or give that answer letters in common with the grid's")
                raise LayoutError(puzzle.path, (
                    f"the clue of {e.display} refers to {m.group(0)}, which the grid left out"
                    + (f" ({why})" if why else "") + f"; {fix}"), line=e.line)
            # a clue left out with its answer is printed nowhere but the JSON's list: the name, as written
            return m.group(1)

        resolved[id(e)] = replace(e, clue=REFERENCE.sub(number, e.clue))

    def swap(e: Entry) -> Entry:
        return resolved.get(id(e), e)

    return (
        replace(puzzle, entries=tuple(swap(e) for e in puzzle.entries)),
        replace(layout, placements=tuple(replace(p, entry=swap(p.entry)) for p in layout.placements),
                unplaced=tuple(swap(e) for e in layout.unplaced)),
    )


def _letters(name: str) -> str:
    from ..source import normalise_answer

    try:
        return normalise_answer(name).letters
    except ValueError:
        return ""


def _left_out_kinds(puzzle: Puzzle, layout: Layout) -> dict[int, str]:
    """Why the layout left each answer out, by id: "alone" (it shares no letter with any other answer),
    "apart" (its group of answers shares none with the grid's) or "room" (no room in the size). Under
    `adjacency`, whose fill words may join what shares no letter, every one is "room"."""
    kinds = {id(e): "room" for e in layout.unplaced}
    if layout.strategy == adjacency.NAME:
        return kinds
    placed = {id(p.entry) for p in layout.placements}
    if placed:
        for group in letter_groups(puzzle.entries):
            if len(group) > 1 and not any(id(x) in placed for x in group):
                kinds.update((id(e), "apart") for e in group if id(e) in kinds)
    kinds.update((id(e), "alone") for e in lone_answers(puzzle.entries) if id(e) in kinds)
    return kinds


def _why_left_out(entry: Entry, puzzle: Puzzle, layout: Layout) -> str:
    """Why the layout left `entry` out, as left_out_reasons says it of one answer."""
    kind = _left_out_kinds(puzzle, layout).get(id(entry), "room")
    if kind == "room" and _size_advice(puzzle, layout, "size") is None:
        return entry.display + " found no spot where the rules let it cross the grid"
    return entry.display + {"alone": " shares no letter with any other answer",
                            "apart": " shares no letter with the answers in the grid", "room": " found no room"}[kind]


def _size_advice(puzzle: Puzzle, layout: Layout, name: str) -> str | None:
    """How to give answers that found no room more of it: "raise 'size' (to about 25: ...)", or None when
    the grid stopped at least two squares short of the size both ways (it had room to grow, so what kept the
    answers out is the rules: no spot crosses the grid without touching another answer)."""
    from ..lint import roomy_size
    from ..source import MAX_SIZE

    size = layout.params.size
    if layout.placements and layout.rows <= size - 2 and layout.cols <= size - 2:
        return None
    letters = sum(len(e.answer) for e in puzzle.entries)
    holds = roomy_size(letters)  # the size lint's too-many-letters names, so the two agree
    if size >= MAX_SIZE:
        return f"split the list ({MAX_SIZE}x{MAX_SIZE} is the largest grid)"
    if holds > MAX_SIZE:
        return (f"raise {name} (to {MAX_SIZE}, the largest, and split the list: the answers' {letters} letters "
                f"need about {holds}x{holds})")
    if holds > size:
        return f"raise {name} (to about {holds}: the answers' {letters} letters need about {holds}x{holds})"
    return f"raise {name}"


def left_out_reasons(puzzle: Puzzle, layout: Layout) -> list[str]:
    """Why the layout left each answer out, in a few lines: no shared letter with any other answer, a group of
    answers sharing none with the grid's, or (the rest) no room in the size (see `_left_out_kinds`)."""
    kinds = _left_out_kinds(puzzle, layout)
    alone, apart, room = ([e for e in layout.unplaced if kinds[id(e)] == k] for k in ("alone", "apart", "room"))
    out = []
    if alone:
        out.append(f"{', '.join(e.display for e in alone)} {'shares' if len(alone) == 1 else 'share'} no letter "
                   "with any other answer: nothing can cross " + ("it" if len(alone) == 1 else "them"))
    if apart:
        out.append(f"{', '.join(e.display for e in apart)} share no letter with the answers in the grid: no grid "
                   "holds both groups")
    if room:
        size = "'size'" if puzzle.has_front_matter else "--size"
        names = ", ".join(e.display for e in room[:6]) + (f" and {len(room) - 6} more" if len(room) > 6 else "")
        advice = _size_advice(puzzle, layout, size)
        if advice is None:
            out.append(f"{names} found no spot where the rules let {'it' if len(room) == 1 else 'them'} cross the grid "
                       "(the grid had room to grow, so no larger size helps): give the answers more letters in common")
        else:
            out.append(f"{names} found no room: {advice}, or give the answers more letters in common")
    return out
