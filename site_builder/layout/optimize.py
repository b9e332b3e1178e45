"""The `optimize` strategy: seeded greedy layouts improved by large-neighbourhood search.

Start: a few seeded greedy builds (seeds/000's builder, `freeform.build_seed`)
inside the size cap; the best by the search key is the starting point.

Improve (large-neighbourhood search with simulated-annealing acceptance):
each step takes some words out of the grid and puts them back.

* destroy: two to five words at random, or (a quarter of the time) some of
  the least-crossed words (those crossing only one other). Words left cut
  off from the main body of the grid go out too, so the grid stays one
  connected piece. (Region and edge moves and an ejection move were tried
  and measured worse per second on twin-peaks.)
* repair: every word not on the grid (the ones just taken out and those
  that never fitted, or a seeded sample of RETRY_CAP of the latter when
  there are more) goes back in, required answers first, then longest first with
  a seeded jitter, each at its valid spot with the most crossings (plus a
  little seeded noise, less a small charge for growing the box). Leftovers
  get a second pass.
* accept: the change is kept when its score (letters placed, heavily
  weighted, plus crossings) does not drop, and otherwise with the usual
  annealing probability exp(delta / T), T cooling over the run. Rejected
  changes are undone word by word; nothing is copied per candidate.

Boxes: half the budget goes to a search inside the greedy start's own
square (never more than the cap); the rest to ever smaller square boxes
(one square less a side than the best so far, starting from the best
layout with the words outside the smaller box taken out), for as long as
the smaller box still takes every answer. Every layout is compared by the
seeds/000 search key (required answers, letters, crossings, then the
smaller grid), so a smaller box wins whenever it keeps the crossings.

Lone words: once the grid holds two or more words, no step may leave it
with fewer, even to make room for a required answer that crosses nothing
(as in the greedy builder, a one-word grid comes out only when no two words
cross). Such an answer stays unplaced and `layout_puzzle` names it in a
LayoutError, which tells an author more than a grid of one word would.

Budget: counted in steps, never in seconds, so the result is the same on
every machine: 40 steps an answer, between 300 and 1,500 (`steps_for`), and
`effort` (1-10) multiplies them. All randomness comes
from `Rng`, seeded with the greedy start's seed (the pinned `seed`, or the
best of seeds 0-3).
"""

from __future__ import annotations

import math
from typing import Sequence

from ..model import Entry, Layout, LayoutParams
from . import freeform
from .grid import ACROSS, DOWN, ORIGIN, STEP, STRIDE, Grid, Spot
from .result import grid_to_layout, search_key
from .rng import Rng

NAME = "optimize"

GREEDY_STARTS = 4  # greedy seeds tried for the starting layout
STEPS_PER_EFFORT = 1500  # LNS steps per unit of effort, over all boxes, for lists of 38 answers or more
STEPS_PER_ANSWER = 40  # shorter lists converge sooner: 40 steps an answer (at least MIN_STEPS)
MIN_STEPS = 300
LETTER_WEIGHT = 2.0  # score of one placed letter, in crossings
REQUIRED_WEIGHT = 1000.0  # score of one placed required answer
T_START, T_END = 1.5, 0.15  # annealing temperatures, in crossings
NOISE = 0.9  # seeded noise added to a spot's crossings when re-inserting
GROWTH = 0.3  # charge per square the box grows, when re-inserting
JITTER = 2.0  # letters of length the insertion order may move
RANDOM_MIN, RANDOM_SPAN = 2, 4  # the random move takes out 2 to 5 words
LEAF_MOVES = 0.25  # share of moves that take out words crossing only one other
RETRY_CAP = 12  # words left out of earlier steps that one step retries, at most (a sample when more)


Placed = tuple[int, int, int]  # (word id, start cell, direction)


class Search:
    """One working grid plus the bookkeeping the LNS needs."""

    def __init__(self, entries: Sequence[Entry], size: int, rng: Rng):
        self.entries = entries
        self.words = [e.answer for e in entries]
        self.required = [e.required for e in entries]
        self.rng = rng
        self.grid = Grid(size)
        self.total = 0  # letters placed (a crossing counted twice)
        self.req = 0  # required answers placed
        self.log: list[tuple[bool, int, int, int]] = []  # (put?, word, start, direction) since the step began
        self.floor = 0  # fewest words a kept grid may hold (see `step`)

    # ------------------------------------------------------------ state
    def load(self, placed: Sequence[Placed]) -> None:
        for wid, start, d in placed:
            self.put(wid, start, d)

    def snapshot(self) -> list[Placed]:
        return sorted((wid, spot.start, spot.direction) for wid, (_, spot) in self.grid.words.items())

    def put(self, wid: int, start: int, d: int) -> None:
        self.log.append((True, wid, start, d))
        word = self.words[wid]
        self.grid.place(wid, word, Spot(start, d))
        self.total += len(word)
        self.req += self.required[wid]

    def take(self, wid: int) -> Placed:
        _, spot = self.grid.words[wid]
        self.log.append((False, wid, spot.start, spot.direction))
        self.grid.remove(wid)
        self.total -= len(self.words[wid])
        self.req -= self.required[wid]
        return wid, spot.start, spot.direction

    def take_clean(self, wid: int) -> list[int]:
        """Take `wid` out, and with it any word whose cells it alone kept from forming a stray run.

        When a word ran through the last cell of one crossing word and the
        first cell of the next, those two cells stay side by side once it is
        gone: a run of letters that is no answer. The word holding the second
        of them goes too (and so on, should that expose another pair).
        """
        taken = []
        stack = [wid]
        letters, owner = self.grid.letters, self.grid.owner
        while stack:
            w = stack.pop()
            if w not in self.grid.words:
                continue
            word, spot = self.grid.words[w]
            self.take(w)
            taken.append(w)
            d, step = spot.direction, STEP[spot.direction]
            cell, kept_before = spot.start, False
            for _ in word:
                kept = cell in letters
                if kept and kept_before:
                    stack.append(owner[cell][1 - d])
                kept_before = kept
                cell += step
        return taken

    def strays(self) -> bool:
        """Whether a word taken out this step left two letters side by side that no one word holds.

        Adding words cannot do that (the placement rules), so only the spans
        of the words taken out need a look.
        """
        letters, owner = self.grid.letters, self.grid.owner
        for was_put, _wid, start, d in self.log:
            if was_put:
                continue
            step = STEP[d]
            cell = start
            for _ in range(len(self.words[_wid]) - 1):
                nxt = cell + step
                if cell in letters and nxt in letters:
                    held = owner[cell][d]
                    if held == -1 or held != owner[nxt][d]:
                        return True
                cell = nxt
        return False

    def mend(self) -> list[int]:
        """Take out words until no stray run is left (after loading a partial layout)."""
        taken = []
        while pairs := self.grid.orphan_pairs():
            cell, d = pairs[0]
            nxt = cell + STEP[d]
            holder = self.grid.owner[nxt][1 - d]
            taken += self.take_clean(holder if holder != -1 else self.grid.owner[nxt][d])
        return taken

    def undo(self) -> None:
        """Revert every put and take since the log was last cleared."""
        log = self.log
        while log:
            was_put, wid, start, d = log.pop()
            word = self.words[wid]
            if was_put:
                self.grid.remove(wid)
                self.total -= len(word)
                self.req -= self.required[wid]
            else:
                self.grid.place(wid, word, Spot(start, d))
                self.total += len(word)
                self.req += self.required[wid]

    def crossings(self) -> int:
        return self.total - len(self.grid.letters)

    def score(self) -> float:
        return REQUIRED_WEIGHT * self.req + LETTER_WEIGHT * self.total + self.crossings()

    def key(self) -> tuple:
        """The search key of the current grid, without building a Layout."""
        rows, cols = self.grid.box()
        return (self.req, self.total, self.crossings(), -(rows * cols), -max(rows, cols))

    def unplaced(self) -> list[int]:
        return [w for w in range(len(self.words)) if w not in self.grid.words]

    # ---------------------------------------------------------- destroy
    def partners(self, wid: int) -> list[int]:
        """Words crossing `wid`."""
        word, spot = self.grid.words[wid]
        d = spot.direction
        step = STEP[d]
        owner = self.grid.owner
        out = []
        cell = spot.start
        for _ in word:
            other = owner[cell][1 - d]
            if other != -1:
                out.append(other)
            cell += step
        return out

    def stranded(self) -> list[int]:
        """Words outside the largest connected piece (by letters; ties to the lowest word id)."""
        words = self.grid.words
        if len(words) <= 1:
            return []
        seen: dict[int, int] = {}
        pieces: list[tuple[int, int, list[int]]] = []
        for root in sorted(words):
            if root in seen:
                continue
            piece = [root]
            seen[root] = len(pieces)
            i = 0
            while i < len(piece):
                for other in self.partners(piece[i]):
                    if other not in seen:
                        seen[other] = len(pieces)
                        piece.append(other)
                i += 1
            letters = sum(len(self.words[w]) for w in piece)
            pieces.append((-letters, root, piece))
        if len(pieces) == 1:
            return []
        pieces.sort()
        return sorted(w for _, _, piece in pieces[1:] for w in piece)

    def pick_leaves(self) -> list[int]:
        leaves = [w for w in sorted(self.grid.words) if self.grid.crossings_of(w) <= 1]
        self.rng.shuffle(leaves)
        return sorted(leaves[: 2 + self.rng.below(5)])

    def pick_random(self) -> list[int]:
        words = sorted(self.grid.words)
        self.rng.shuffle(words)
        return sorted(words[: RANDOM_MIN + self.rng.below(RANDOM_SPAN)])

    # ----------------------------------------------------------- repair
    def insert_order(self, pending: list[int]) -> list[int]:
        rng = self.rng
        keyed = {w: (self.required[w], len(self.words[w]) + rng.random() * JITTER, -w) for w in pending}
        return sorted(pending, key=lambda w: keyed[w], reverse=True)

    def insert(self, wid: int) -> bool:
        grid = self.grid
        word = self.words[wid]
        if not grid.words:
            if len(word) > grid.size:
                return False
            self.put(wid, ORIGIN, ACROSS)
            return True
        bounds = grid.bounds()
        spots = grid.spots(word, bounds)
        if not spots:
            return False
        r0, c0, r1, c1 = bounds
        n = len(word) - 1
        rng = self.rng
        best = None
        best_score = -math.inf
        for crossings, start, d in spots:
            sr, sc = divmod(start, STRIDE)
            er, ec = (sr, sc + n) if d == ACROSS else (sr + n, sc)
            grow = max(0, r0 - sr) + max(0, er - r1) + max(0, c0 - sc) + max(0, ec - c1)
            s = crossings + NOISE * rng.random() - GROWTH * grow
            if s > best_score:
                best_score, best = s, (start, d)
        assert best is not None
        self.put(wid, best[0], best[1])
        return True

    def repair(self, pending: list[int]) -> list[int]:
        """Insert what fits; return the word ids inserted, in order."""
        inserted = []
        pending = self.insert_order(pending)
        for _ in range(2):
            left = []
            for wid in pending:
                if self.insert(wid):
                    inserted.append(wid)
                else:
                    left.append(wid)
            if not left or len(left) == len(pending):
                break
            pending = left
        return inserted

    # ------------------------------------------------------------- step
    def step(self, temperature: float) -> None:
        """One destroy-and-repair move, kept or undone by the annealing rule."""
        rng = self.rng
        before = self.score()
        self.log.clear()
        victims = self.pick_leaves() if rng.random() < LEAF_MOVES else self.pick_random()
        waiting = self.unplaced()  # left out by earlier steps, or never fitted
        if len(waiting) > RETRY_CAP:
            # An overfull list (hundreds of answers that cannot all fit) would make every step try
            # every one of them; a seeded sample keeps a step's cost bounded by the move's size.
            rng.shuffle(waiting)
            waiting = waiting[:RETRY_CAP]
        for wid in victims:
            self.take(wid)
        out = list(victims)
        for wid in self.stranded():
            out.append(self.take(wid)[0])
        self.repair(sorted(waiting + out))
        if self.strays():
            self.undo()  # a word that held two others' cells together is gone: a run no answer holds
            return
        if len(self.grid.words) < self.floor:
            self.undo()  # a lone word, however required, is not a crossword
            return
        delta = self.score() - before
        if delta >= 0 or rng.random() < math.exp(delta / temperature):
            return
        self.undo()


def shrink(placed: Sequence[Placed], words: Sequence[str], side: int) -> list[Placed]:
    """The words of `placed` that lie inside the best side x side window (most letters kept)."""
    spans = []
    for wid, start, d in placed:
        sr, sc = divmod(start, STRIDE)
        n = len(words[wid]) - 1
        spans.append((wid, start, d, sr, sc, sr + n * d, sc + n * (1 - d), n + 1))
    rows = sorted({s[3] for s in spans})
    cols = sorted({s[4] for s in spans})
    best: tuple[int, int, int] | None = None
    best_keep: list[Placed] = []
    for r in range(rows[0], rows[-1] + 1):
        for c in range(cols[0], cols[-1] + 1):
            keep = [
                (wid, start, d)
                for wid, start, d, sr, sc, er, ec, _ in spans
                if sr >= r and sc >= c and er < r + side and ec < c + side
            ]
            letters = sum(len(words[w]) for w, _, _ in keep)
            key = (letters, -r, -c)
            if best is None or key > best:
                best, best_keep = key, keep
    return best_keep


def run_box(
    entries: Sequence[Entry], start: Sequence[Placed], side: int, steps: int, rng: Rng
) -> tuple[tuple, list[Placed]]:
    """Anneal inside a side x side box from `start`; the best (key, placements) met."""
    s = Search(entries, side, rng)
    s.load(start)
    # the start may have lost words (shrinking): no stray runs, and one piece, before anything else
    s.mend()
    for wid in s.stranded():
        s.take(wid)
    s.repair(s.unplaced())
    s.floor = min(2, len(s.grid.words))
    best_key, best = s.key(), s.snapshot()
    t_ratio = T_END / T_START
    for i in range(steps):
        s.step(T_START * t_ratio ** (i / steps))
        key = s.key()
        if key > best_key:
            best_key, best = key, s.snapshot()
    return best_key, best


def to_grid(entries: Sequence[Entry], placed: Sequence[Placed], size: int) -> Grid:
    grid = Grid(size)
    for wid, start, d in placed:
        grid.place(wid, entries[wid].answer, Spot(start, d))
    return grid


def from_layout(layout: Layout, entries: Sequence[Entry]) -> list[Placed]:
    index = {id(e): i for i, e in enumerate(entries)}
    out = []
    for p in layout.placements:
        wid = index[id(p.entry)]
        d = ACROSS if p.direction.value == "across" else DOWN
        out.append((wid, ORIGIN + p.row * STRIDE + p.col, d))
    return sorted(out)


def steps_for(answers: int) -> int:
    """The step budget at effort 1: 40 an answer, between MIN_STEPS and STEPS_PER_EFFORT.

    Measured on lists of 12 to 35 answers, the full 1,500 steps found no more
    crossings than this budget, in about twice the time.
    """
    return max(MIN_STEPS, min(STEPS_PER_EFFORT, STEPS_PER_ANSWER * answers))


def search(entries: Sequence[Entry], params: LayoutParams) -> Layout:
    entries = tuple(entries)
    if not entries:
        return grid_to_layout(Grid(params.size), entries, seed=params.seed or 0, strategy=NAME, params=params)
    base = params.seed if params.seed is not None else 0
    starts = 1 if params.seed is not None else max(1, min(params.seeds, GREEDY_STARTS))
    greedy = None
    for seed in range(base, base + starts):
        layout = freeform.build_seed(entries, seed, params)
        if greedy is None or search_key(layout) > search_key(greedy):
            greedy = layout
    assert greedy is not None
    seed = greedy.seed
    rng = Rng(seed)
    words = [e.answer for e in entries]
    budget = steps_for(len(entries)) * max(1, params.effort)

    steps = budget // 2
    # first inside the greedy layout's own square (never more than the cap)
    side = min(params.size, max(greedy.rows, greedy.cols))
    best_key, best = run_box(entries, shrink(from_layout(greedy, entries), words, side), side, steps, rng)
    budget -= steps
    # box descent: one square less a side than the best so far, from the best so far
    side = -best_key[4] - 1
    steps = max(1, budget // 2)
    while side >= 1 and budget > 0:
        steps = min(steps, budget)
        budget -= steps
        key, placed = run_box(entries, shrink(best, words, side), side, steps, rng)
        if key[:2] < best_key[:2]:
            break  # the smaller box lost answers: stop shrinking
        if key > best_key:
            best_key, best = key, placed
        side = min(side, -key[4]) - 1
    grid = to_grid(entries, best, params.size)
    if grid.orphan_pairs():  # never expected; a stray run would break the one-run-one-answer rule
        return greedy
    return grid_to_layout(grid, entries, seed=seed, strategy=NAME, params=params)
