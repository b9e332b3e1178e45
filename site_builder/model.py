"""The typed values passed between stages: source -> Puzzle -> Layout -> renders.

Every dataclass here is frozen. A stage takes one of these and returns a new
value; nothing downstream edits what an earlier stage produced. Grid
coordinates are 0-based (row, col) with row 0 at the top; exports that need
1-based coordinates convert at the edge.
"""

from __future__ import annotations

import datetime as _dt
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from pathlib import Path


class Direction(str, Enum):
    ACROSS = "across"
    DOWN = "down"

    @property
    def step(self) -> tuple[int, int]:
        """(drow, dcol) of one step along a word in this direction."""
        return (0, 1) if self is Direction.ACROSS else (1, 0)

    @property
    def other(self) -> "Direction":
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


@dataclass(frozen=True)
class Entry:
    """One `ANSWER | clue` line of a puzzle file.

    `answer` holds the grid letters only (A-Z); `display` is the answer as the
    author wrote it (after case and accent folding), with its spaces and
    hyphens; `enumeration` is derived from `display`, e.g. "3,4" or "3-4".
    Fill words added by a strategy carry `fill=True` and may have no clue.
    """

    answer: str
    clue: str
    display: str = ""
    enumeration: str = ""
    required: bool = False
    line: int = 0
    fill: bool = False

    def __post_init__(self) -> None:
        if not self.display:
            object.__setattr__(self, "display", self.answer)
        if not self.enumeration:
            object.__setattr__(self, "enumeration", str(len(self.answer)))


@dataclass(frozen=True)
class PuzzleMeta:
    """The validated front matter of a puzzle file."""

    title: str
    date: _dt.date | None  # None only for a plain list (no front matter): the outputs then show no date
    author: str = ""
    description: str = ""
    difficulty: str = ""
    tags: tuple[str, ...] = ()
    draft: bool = False
    paper: str = "letter"
    size: int = 23
    seeds: int = 200
    seed: int | None = None
    strategy: str = "optimize"
    effort: int = 1
    copyright: str = ""
    notes: str = ""


@dataclass(frozen=True)
class Puzzle:
    """A parsed puzzle file: its slug, metadata and entries in file order."""

    slug: str
    meta: PuzzleMeta
    entries: tuple[Entry, ...]
    path: Path | None = None
    has_front_matter: bool = True  # False for a plain list of 'ANSWER | clue' lines (generate takes those)

    @property
    def required(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.required)


@dataclass(frozen=True)
class LayoutParams:
    """What a layout depends on besides the answers themselves."""

    size: int = 23
    seeds: int = 200
    seed: int | None = None
    strategy: str = "optimize"
    effort: int = 1


@dataclass(frozen=True)
class Placement:
    """An entry placed in the grid: start cell, direction and clue number."""

    entry: Entry
    row: int
    col: int
    direction: Direction
    number: int = 0

    @property
    def answer(self) -> str:
        return self.entry.answer

    def cells(self) -> list[tuple[int, int]]:
        dr, dc = self.direction.step
        return [(self.row + dr * i, self.col + dc * i) for i in range(len(self.entry.answer))]


@dataclass(frozen=True)
class Layout:
    """A finished grid. Placements are numbered and sorted Across then Down by number.

    The grid's top-left letter cell bounding box starts at (0, 0); `rows` and
    `cols` are the bounding box of the letters.
    """

    placements: tuple[Placement, ...]
    unplaced: tuple[Entry, ...]
    rows: int
    cols: int
    seed: int = 0
    strategy: str = "freeform"
    params: LayoutParams = field(default_factory=LayoutParams)

    @cached_property
    def cells(self) -> dict[tuple[int, int], str]:
        """Letter of every used cell, keyed by (row, col)."""
        out: dict[tuple[int, int], str] = {}
        for p in self.placements:
            for (r, c), ch in zip(p.cells(), p.entry.answer):
                out[(r, c)] = ch
        return out

    @cached_property
    def holes(self) -> frozenset[tuple[int, int]]:
        """Empty squares walled in by letters: no path of empty squares leads from them out of the grid.

        Drawn white inside the grid's outline they would look like squares to fill, so the renders
        draw them as blocks.
        """
        cells = self.cells
        outside = {(-1, -1)}
        stack = [(-1, -1)]
        while stack:
            r, c = stack.pop()
            for rc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if -1 <= rc[0] <= self.rows and -1 <= rc[1] <= self.cols and rc not in cells and rc not in outside:
                    outside.add(rc)
                    stack.append(rc)
        return frozenset(
            (r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in cells and (r, c) not in outside
        )

    @cached_property
    def numbers(self) -> dict[tuple[int, int], int]:
        """Clue number of every starting cell."""
        return {(p.row, p.col): p.number for p in self.placements}

    @property
    def across(self) -> tuple[Placement, ...]:
        return tuple(p for p in self.placements if p.direction is Direction.ACROSS)

    @property
    def down(self) -> tuple[Placement, ...]:
        return tuple(p for p in self.placements if p.direction is Direction.DOWN)

    def grid(self, empty: str | None = None) -> list[list[str | None]]:
        """Rows of letters, `empty` (default None) where no letter is."""
        g: list[list[str | None]] = [[empty] * self.cols for _ in range(self.rows)]
        for (r, c), ch in self.cells.items():
            g[r][c] = ch
        return g

    @property
    def letters(self) -> int:
        """Letters of the placed answers, counting a crossing twice (the search's measure)."""
        return sum(len(p.entry.answer) for p in self.placements)

    @property
    def letter_cells(self) -> int:
        return len(self.cells)

    @property
    def crossings(self) -> int:
        return self.letters - self.letter_cells

    @property
    def checked_percent(self) -> float:
        """Share of letter cells that belong to two answers, in percent."""
        return 100.0 * self.crossings / self.letter_cells if self.cells else 0.0

    @property
    def required_placed(self) -> int:
        return sum(1 for p in self.placements if p.entry.required)

    @property
    def fill_words(self) -> tuple[Placement, ...]:
        return tuple(p for p in self.placements if p.entry.fill)

    def summary(self) -> str:
        fill = len(self.fill_words)  # the dictionary's words (adjacency): placed, but none of the author's answers
        placed = len(self.placements) - fill
        req_total = self.required_placed + sum(1 for e in self.unplaced if e.required)
        return (
            f"seed {self.seed}, {self.cols}x{self.rows}: {placed} of {placed + len(self.unplaced)} answers placed"
            + (f" ({self.required_placed} of {req_total} required)" if req_total else "")
            + (f" and {fill} fill word{'' if fill == 1 else 's'}" if fill else "")
            + f", {self.letters} answer letters in "
            f"{self.letter_cells} cells, {self.crossings} crossing{'' if self.crossings == 1 else 's'} "
            f"({self.checked_percent:.0f}% of cells checked)" + (f"; {self.left_out_note()}" if self.unplaced else "")
        )

    def left_out_note(self) -> str:
        """'left out: XYZ, QUUX' naming the answers no layout found room for ('' when none)."""
        if not self.unplaced:
            return ""
        shown = [e.display for e in self.unplaced[:8]]
        more = len(self.unplaced) - len(shown)
        return "left out: " + ", ".join(shown) + (f" and {more} more" if more else "")


def letter_groups(entries) -> list[tuple["Entry", ...]]:
    """The answers in groups joined by shared letters (two answers sharing a letter are in one group, and
    so on): one grid holds answers of one group only. Largest first (by letters, then answers, then the
    first line), each in the order given."""
    parent = list(range(len(entries)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[str, int] = {}
    for i, e in enumerate(entries):
        for ch in set(e.answer):
            if ch in first:
                parent[find(i)] = find(first[ch])
            else:
                first[ch] = i
    groups: dict[int, list] = {}
    for i, e in enumerate(entries):
        groups.setdefault(find(i), []).append(e)
    return sorted((tuple(g) for g in groups.values()),
                  key=lambda g: (-sum(len(e.answer) for e in g), -len(g), entries.index(g[0])))


def lone_answers(entries) -> tuple["Entry", ...]:
    """The answers that share no letter with any other answer: nothing can ever cross them."""
    holders = Counter(ch for e in entries for ch in set(e.answer))  # answers holding each letter
    return tuple(e for e in entries if all(holders[ch] == 1 for ch in e.answer))
