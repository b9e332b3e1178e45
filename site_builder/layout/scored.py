"""The seeds/003 strategy: greedy scored placement, then bounded backtracking.

It keeps the strict placement rules of `grid.Grid.check` (every run of
letters is exactly one answer), where seeds/003 allowed more.

Phase 1 (greedy). The first word goes across at the origin: the longest of
the first three in the attempt's shuffled order. Then at each step every
unplaced word is weighed at every valid spot in both directions, and the
best (word, spot) pair is placed, by

    0.7 x connections  (crossings / word length)
  + 0.15 x centrality  (1 - Manhattan distance of the word's middle from the
                        first word's middle / size cap, at least 0)
  + 0.1 x balance      (the share of placed words in the other direction)
  + 0.05 x length      (word length / longest word)

(WEIGHTS, or the `weights` argument). Required answers go before the others
whenever one of them fits; ties go to the earlier word in the shuffled
order, then the lower cell. Valid spots are cached per word and only the
ones near the last placed word are checked again, so a step costs little.

Phase 2 (backtracking). The words phase 1 could not place are tried by a
depth-first search: take the word with the fewest valid spots, try its spots
in an order shuffled by the seed, recurse on the rest; also try leaving it
out. The best partial result (most letters) is kept. The search stops after
NODE_BUDGET placements, so it always ends and its result never depends on
the machine's speed.

Retry loop. Attempts use seeds 0..N-1, N = min(seeds, 50 x effort) (or the
one pinned seed); each shuffles the word order with its seed. The search
stops early at the first attempt that places every word; otherwise the best
attempt wins: most required answers, fewest unplaced, then the search key of
seeds/000 (`result.search_key`); ties to the lower seed. seeds/003 also had
a 10-second limit on the loop. A limit in seconds would make the result
depend on the machine (a 60 s one used to cut twin-peaks at effort 10 short
wherever it ran), so the limit here is in work: WORK_BUDGET word scans (one
word's valid spots looked up, in either phase) times `effort`, checked
between attempts. An attempt on twin-peaks costs about 1,900 of them (0.1 s),
so every attempt of effort 1 to 10 runs there; 400 answers in a 40-square
cap cost 75,000 an attempt (8 s), so effort 1 stops there after two
attempts, some 20 s. `effort` buys attempts, not a deeper phase 2 (which made effort 10
cost a hundred times effort 1): twin-peaks takes 3.5 s at effort 1 (50 attempts) and 16 s
at effort 10, where it took over 60 s.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from ..model import Entry, Layout, LayoutParams
from .grid import ACROSS, ORIGIN, STEP, STRIDE, Grid, Spot
from .result import grid_to_layout, search_key
from .rng import Rng

NAME = "scored"
ATTEMPTS = 50  # per effort level
NODE_BUDGET = 250  # phase-2 placements per attempt
WORK_BUDGET = 150_000  # word scans (see the module's docstring) over all attempts, per effort level
WEIGHTS: Mapping[str, float] = {"connections": 0.7, "centrality": 0.15, "balance": 0.1, "length": 0.05}


def _weights(weights: Mapping[str, float] | None) -> dict[str, float]:
    out = dict(WEIGHTS)
    if weights:
        unknown = set(weights) - set(WEIGHTS)
        if unknown:
            raise ValueError(f"unknown weight(s) {', '.join(sorted(unknown))}; known: {', '.join(WEIGHTS)}")
        out.update(weights)
    return out


class _Attempt:
    def __init__(self, entries: Sequence[Entry], size: int, order: list[int], weights: dict[str, float]):
        self.entries = entries
        self.grid = Grid(size)
        self.size = size
        self.rank = {wid: k for k, wid in enumerate(order)}
        self.w = weights
        self.longest = max(len(e.answer) for e in entries)
        self.center = ORIGIN
        self.count = [0, 0]
        # wid -> {spot: static score part}
        self.spots: dict[int, dict[Spot, float]] = {}
        self.work = 0  # word scans: `refresh` and phase 2's `valid` calls

    def static(self, word: str, spot: Spot, crossings: int) -> float:
        n = len(word)
        mid = spot.start + STEP[spot.direction] * ((n - 1) // 2)
        mr, mc = divmod(mid, STRIDE)
        cr, cc = divmod(self.center, STRIDE)
        centrality = max(0.0, 1.0 - (abs(mr - cr) + abs(mc - cc)) / self.size)
        w = self.w
        return w["connections"] * crossings / n + w["centrality"] * centrality + w["length"] * n / self.longest

    def refresh(self, wid: int, placed: tuple[str, Spot] | None) -> None:
        """Update the cached valid spots of unplaced word `wid` after a placement."""
        word = self.entries[wid].answer
        g = self.grid
        self.work += 1
        if placed is None or wid not in self.spots:
            cands = g.candidates(word)
            table = {}
            for spot in cands:
                x = g.check(word, spot)
                if x > 0:
                    table[spot] = self.static(word, spot, x)
            self.spots[wid] = table
            return
        pword, pspot = placed
        table = self.spots[wid]
        # the box around the placed word, one cell wider on every side
        pr, pc = divmod(pspot.start, STRIDE)
        er, ec = (pr, pc + len(pword) - 1) if pspot.direction == ACROSS else (pr + len(pword) - 1, pc)
        r0, c0, r1, c1 = pr - 1, pc - 1, er + 1, ec + 1
        n = len(word) - 1
        for spot in list(table):
            sr, sc = divmod(spot.start, STRIDE)
            # footprint: the word plus its two end cells
            if spot.direction == ACROSS:
                fr0, fc0, fr1, fc1 = sr, sc - 1, sr, sc + n + 1
            else:
                fr0, fc0, fr1, fc1 = sr - 1, sc, sr + n + 1, sc
            if fr1 < r0 or fr0 > r1 or fc1 < c0 or fc0 > c1:
                continue
            x = g.check(word, spot)
            if x > 0:
                table[spot] = self.static(word, spot, x)
            else:
                del table[spot]
        # new spots crossing the placed word
        d = 1 - pspot.direction
        for i, ch in enumerate(pword):
            cell = pspot.start + i * STEP[pspot.direction]
            for j, wch in enumerate(word):
                if wch == ch:
                    spot = Spot(cell - j * STEP[d], d)
                    if spot not in table:
                        x = g.check(word, spot)
                        if x > 0:
                            table[spot] = self.static(word, spot, x)

    def place(self, wid: int, spot: Spot) -> None:
        word = self.entries[wid].answer
        self.grid.place(wid, word, spot)
        self.count[spot.direction] += 1
        self.spots.pop(wid, None)
        for other in self.spots:
            self.refresh(other, (word, spot))

    def phase1(self, first: int, pending: list[int]) -> list[int]:
        g = self.grid
        g.place(first, self.entries[first].answer, Spot(ORIGIN, ACROSS))
        self.count[ACROSS] += 1
        word = self.entries[first].answer
        self.center = ORIGIN + (len(word) - 1) // 2
        for wid in pending:
            self.refresh(wid, None)
        while self.spots:
            total = self.count[0] + self.count[1]
            balance = [self.count[1] / total, self.count[0] / total]
            bounds = g.bounds()
            ranked = []
            for wid, table in self.spots.items():
                req = self.entries[wid].required
                for spot, base in table.items():
                    score = base + self.w["balance"] * balance[spot.direction]
                    ranked.append(((req, score, -self.rank[wid], -spot.start, -spot.direction), wid, spot))
            ranked.sort(reverse=True)
            chosen = None
            for _key, wid, spot in ranked:
                if g.check(self.entries[wid].answer, spot, bounds) > 0:
                    chosen = (wid, spot)
                    break
                del self.spots[wid][spot]  # the box only grows: this spot stays over the cap
            if chosen is None:
                break
            self.place(*chosen)
            self.spots = {k: v for k, v in self.spots.items() if v}
        placed = set(g.words)
        return [wid for wid in pending if wid not in placed]

    def phase2(self, left: list[int], rng: Rng, budget: int) -> None:
        """Depth-first search over the leftovers; leaves the best partial result in the grid."""
        g = self.grid
        entries = self.entries
        best: list = [0, []]  # letters placed, [(wid, spot)]
        nodes = [0]
        trail: list[tuple[int, Spot]] = []

        def valid(wid: int) -> list[Spot]:
            self.work += 1
            # Grid.spots: the same spots as `check` on every candidate, without a Spot per candidate
            return [Spot(start, d) for start, d in sorted((start, d) for _, start, d in g.spots(entries[wid].answer, g.bounds()))]

        def dfs(remaining: list[int]) -> None:
            letters = sum(len(entries[w].answer) for w, _ in trail)
            if letters > best[0]:
                best[0], best[1] = letters, list(trail)
            if not remaining or nodes[0] >= budget:
                return
            options = [(wid, valid(wid)) for wid in remaining]
            options = [(len(sp), k, wid, sp) for k, (wid, sp) in enumerate(options) if sp]
            if not options:
                return
            _, _, wid, spots = min(options)
            rng.shuffle(spots)
            rest = [w for w in remaining if w != wid]
            for spot in spots:
                if nodes[0] >= budget:
                    return
                nodes[0] += 1
                g.place(wid, entries[wid].answer, spot)
                trail.append((wid, spot))
                dfs(rest)
                trail.pop()
                g.remove(wid)
                if best[0] == sum(len(entries[w].answer) for w in remaining) + letters:
                    return  # everything placed below here: nothing better exists
            dfs(rest)

        dfs(list(left))
        for wid, spot in best[1]:
            g.place(wid, entries[wid].answer, spot)


def build(entries: Sequence[Entry], seed: int, params: LayoutParams, weights: Mapping[str, float] | None = None) -> Layout:
    """One attempt with the given seed."""
    return _build(entries, seed, params, weights)[0]


def _build(
    entries: Sequence[Entry], seed: int, params: LayoutParams, weights: Mapping[str, float] | None
) -> tuple[Layout, int]:
    """One attempt, and the word scans it took."""
    rng = Rng(seed)
    order = list(range(len(entries)))
    rng.shuffle(order)
    head = order[:3]
    first = max(head, key=lambda i: (entries[i].required, len(entries[i].answer), -head.index(i)))
    pending = [i for i in order if i != first]
    att = _Attempt(entries, params.size, order, _weights(weights))
    left = att.phase1(first, pending)
    if left:
        att.phase2(left, rng, NODE_BUDGET)
    return grid_to_layout(att.grid, entries, seed=seed, strategy=NAME, params=params), att.work


def attempts_of(params: LayoutParams) -> range:
    if params.seed is not None:
        return range(params.seed, params.seed + 1)
    return range(min(params.seeds, ATTEMPTS * max(1, params.effort)))


def rank_key(layout: Layout) -> tuple:
    # a grid of one word loses to any crossword, however required that word: one answer alone is no crossword
    return (len(layout.placements) > 1, layout.required_placed, -len(layout.unplaced)) + search_key(layout)


def search(entries: Sequence[Entry], params: LayoutParams, weights: Mapping[str, float] | None = None) -> Layout:
    entries = tuple(entries)
    _weights(weights)  # reject unknown names before any work
    budget = WORK_BUDGET * max(1, params.effort)
    best: Layout | None = None
    best_key: tuple | None = None
    for seed in attempts_of(params):
        layout, work = _build(entries, seed, params, weights)
        budget -= work
        key = rank_key(layout)
        if best_key is None or key > best_key:
            best, best_key = layout, key
        if not layout.unplaced or budget <= 0:
            break
    assert best is not None
    return best
