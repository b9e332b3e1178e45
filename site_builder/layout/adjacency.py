"""The seeds/004 strategy: parallel placements, then dictionary fill.

Rules. A word may cross placed words (letters agree, never along a word the
same way, free cells before its first and after its last letter) and may
also lie beside a placed word. Every newly written letter that gets a
neighbour across the word's direction forms a perpendicular run:

- a run of two letters is accepted only if it is a frequent bigram (held by
  at least max(3, 0.1%) of the dictionary and the puzzle's answers); it is a
  *fragment* until something covers it;
- a run of three or more letters is accepted only if it is a real word (in
  the fill dictionary or among the puzzle's answers) not yet in the grid,
  and it is then placed as a word of its own: the puzzle's entry if it is an
  unplaced answer, else a fill word (within the fill cap);
- a run may never lengthen a placed word.

So every run of two or more letters in the grid is an answer or a fill word,
except the two-letter fragments, which `fragments()` lists and the layout
summary reports.

Build (one attempt per seed). Words go in graph order: first the word
sharing the most letters with the others, then repeatedly the word sharing
the most with those already ordered (the seed jitters the ties). Each takes
the best valid spot, crossing or parallel, by
10 x crossings + 8 x words formed - 1 x fillable fragments
- 6 x unfillable fragments + 1 x open letters - 0.5 x box growth
(WEIGHTS, or the `weights` argument; a fragment is fillable when a free cell
continues it; seeds/004 rewarded fillable fragments, which left dozens
unfilled). Right after a word makes fragments, each is extended into a fill
word while there is room (the fill step below). Words that
do not fit are retried once after the rest. Then the fill phase extends each
fragment, in reading order, into a word of 3 to 7 letters through its two
letters: the puzzle's unplaced answers first, then dictionary words, best
score first; a fill word's new letters may touch nothing, so fill never
makes new fragments. Fill words in all (with those formed in the build) are
capped at max(3, 75% of the answer count).

Search. Seeds 0..N-1 with N = min(seeds, 16 x effort), or the pinned seed;
distinct layouts are ranked by required answers placed, answers placed,
fewest leftover fragments (an unchecked two-letter run is a flaw a solver
sees, so it outranks seeds/004's crossings), crossings, words placed, then
compactness (box area per word); ties go to the
lower seed.

Fill words and their clues. A fill word is `Entry(fill=True, clue="")`;
`unclued_fill_words()` lists those still without a clue, and the site build
fails until there are none. The author gives one a clue by adding it to the
puzzle as an ordinary `WORD | clue` line. To keep the grid they approved,
they append these lines as a block at the end of the list, after a blank
line or a comment (`# fill words`). Then the search first lays out the list
without that block: if that layout's fill words include every word of the
block, it is kept and the block's entries (with their clues) take the place
of those fill words, so the grid does not move and the loop ends after one
round (clue some now and the rest later: each round keeps the same grid).
Otherwise (the block is not at the end, or the author edited other entries)
the block's words are ordinary answers like any other; the grid is laid
out afresh and may hold new fill words, which are listed in turn.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

from ..model import Entry, Layout, LayoutParams, Puzzle
from . import dictionary as dictionary_mod
from .grid import ACROSS, DOWN, ORIGIN, SIDE, STEP, STRIDE, Grid, Spot
from .result import grid_to_layout
from .rng import Rng

NAME = "adjacency"
ATTEMPTS = 16  # per effort level
FILL_SHARE = 0.75
FILL_MIN = 3
FILL_LENGTHS = range(3, 8)
RETRY_PASSES = 1
WEIGHTS: Mapping[str, float] = {
    "crossing": 10.0,
    "word": 8.0,
    "fillable": -1.0,
    "unfillable": -6.0,
    "open": 1.0,
    "growth": -0.5,
}


def fill_cap(n_entries: int) -> int:
    return max(FILL_MIN, int(n_entries * FILL_SHARE))


# ------------------------------------------------------------------ state


class _State:
    """One attempt's grid plus what the rules need to know."""

    def __init__(self, entries: Sequence[Entry], size: int, bigrams: frozenset[str], dic, cap: int):
        self.entries = list(entries)
        self.n_user = len(entries)
        self.grid = Grid(size)
        self.bigrams = bigrams
        self.dic = dic
        self.cap = cap
        self.fills = 0
        self.user_index = {e.answer: i for i, e in enumerate(entries)}
        self.in_grid: set[str] = set()

    def valid_word(self, run: str) -> bool:
        return run in self.dic or run in self.user_index

    # a candidate is (crossings, formed runs [(start, dir, letters)], fillable, unfillable, open)
    def check(self, word: str, spot: Spot, bounds, *, first: bool = False):
        g = self.grid
        letters, owner = g.letters, g.owner
        d = spot.direction
        step, side = STEP[d], SIDE[d]
        start = spot.start
        end = start + step * (len(word) - 1)
        if start - step in letters or end + step in letters:
            return None
        if bounds is not None:
            r0, c0, r1, c1 = bounds
            sr, sc = divmod(start, STRIDE)
            er, ec = divmod(end, STRIDE)
            if max(r1, er) - min(r0, sr) >= g.size or max(c1, ec) - min(c0, sc) >= g.size:
                return None
        crossings = fillable = unfillable = opened = 0
        formed: list[tuple[int, int, str]] = []
        frags: list[int] = []
        cell = start
        for ch in word:
            have = letters.get(cell)
            if have is not None:
                if have != ch or owner[cell][d] != -1:
                    return None
                crossings += 1
                cell += step
                continue
            if cell - side not in letters and cell + side not in letters:
                opened += 1
                cell += step
                continue
            before = []
            c = cell - side
            while c in letters:
                if owner[c][1 - d] != -1:
                    return None
                before.append(letters[c])
                c -= side
            top = c + side
            c = cell + side
            after = []
            while c in letters:
                if owner[c][1 - d] != -1:
                    return None
                after.append(letters[c])
                c += side
            run = "".join(reversed(before)) + ch + "".join(after)
            if len(run) == 2:
                if run not in self.bigrams:
                    return None
                frags.append(top)
                if top - side not in letters or c not in letters:
                    fillable += 1
                else:
                    unfillable += 1
            else:
                if run == word or run in self.in_grid or not self.valid_word(run) or any(f[2] == run for f in formed):
                    return None
                formed.append((top, 1 - d, run))
            cell += step
        if crossings == len(word):
            return None
        if not first and crossings == 0 and fillable == 0 and unfillable == 0 and not formed:
            return None
        new_fill = sum(1 for f in formed if f[2] not in self.user_index or self._placed_user(f[2]))
        if new_fill and self.fills + new_fill > self.cap:
            return None
        return crossings, formed, fillable, unfillable, opened, frags

    def _placed_user(self, answer: str) -> bool:
        return self.user_index[answer] in self.grid.words

    def place(self, wid: int, word: str, spot: Spot, formed) -> None:
        self.grid.place(wid, word, spot)
        self.in_grid.add(word)
        for start, d, run in formed:
            uid = self.user_index.get(run)
            if uid is not None and uid not in self.grid.words:
                self.grid.place(uid, run, Spot(start, d))
            else:
                self.add_fill(run, Spot(start, d))
            self.in_grid.add(run)

    def add_fill(self, word: str, spot: Spot) -> None:
        wid = len(self.entries)
        self.entries.append(Entry(word, "", fill=True))
        self.grid.place(wid, word, spot)
        self.in_grid.add(word)
        self.fills += 1


# ------------------------------------------------------------- candidates


def _parallel_offsets(word: str, other: str, sign: int, bigrams: frozenset[str], cache: dict) -> tuple[int, ...]:
    """Offsets s (word's start relative to other's) where every overlapping pair is a frequent bigram."""
    key = (word, other, sign)
    hit = cache.get(key)
    if hit is not None:
        return hit
    out = []
    n, m = len(word), len(other)
    for s in range(-(n - 1), m):
        ok = True
        for i in range(max(0, -s), min(n, m - s)):
            pair = word[i] + other[s + i] if sign < 0 else other[s + i] + word[i]
            if pair not in bigrams:
                ok = False
                break
        if ok:
            out.append(s)
    cache[key] = res = tuple(out)
    return res


def _candidates(state: _State, word: str, cache: dict) -> set[Spot]:
    g = state.grid
    spots = g.candidates(word)
    for _wid, (other, ospot) in list(g.words.items()):
        d = ospot.direction
        step, side = STEP[d], SIDE[d]
        for sign in (-1, 1):
            for s in _parallel_offsets(word, other, sign, state.bigrams, cache):
                spots.add(Spot(ospot.start + s * step + sign * side, d))
    return spots


def _score(cand, growth: int, weights: Mapping[str, float]) -> float:
    crossings, formed, fillable, unfillable, opened, _frags = cand
    return (
        weights["crossing"] * crossings
        + weights["word"] * len(formed)
        + weights["fillable"] * fillable
        + weights["unfillable"] * unfillable
        + weights["open"] * opened
        + weights["growth"] * growth
    )


def _best_spot(state: _State, word: str, cache: dict, weights):
    g = state.grid
    bounds = g.bounds()
    h0, w0 = bounds[2] - bounds[0] + 1, bounds[3] - bounds[1] + 1
    best = None
    for spot in _candidates(state, word, cache):
        cand = state.check(word, spot, bounds)
        if cand is None:
            continue
        h, w = g.growth(word, spot, bounds)
        key = (_score(cand, (h - h0) + (w - w0), weights), -spot.start, -spot.direction)
        if best is None or key > best[0]:
            best = (key, spot, cand)
    return best


# ------------------------------------------------------------------ build


def graph_order(entries: Sequence[Entry], seed: int) -> list[int]:
    """Most-connected first, then the word sharing most letters with those already chosen."""
    n = len(entries)
    rng = Rng(seed)
    letters = [set(e.answer) for e in entries]
    jitter = [rng.random() for _ in range(n)]
    link = [[len(letters[i] & letters[j]) if i != j else 0 for j in range(n)] for i in range(n)]
    required = [e.required for e in entries]
    first = max(range(n), key=lambda i: (required[i], sum(link[i]) + 2 * jitter[i], len(entries[i].answer), -i))
    order = [first]
    gain = list(link[first])
    left = set(range(n)) - {first}
    while left:
        nxt = max(left, key=lambda i: (required[i], gain[i] + 2 * jitter[i], len(entries[i].answer), -i))
        order.append(nxt)
        left.discard(nxt)
        row = link[nxt]
        for i in left:
            gain[i] += row[i]
    return order


def fragments_in(grid: Grid) -> list[tuple[int, int, str]]:
    """Two-letter runs not covered by a word in their direction: (start, dir, letters)."""
    out = []
    letters, owner = grid.letters, grid.owner
    for cell in sorted(letters):
        for d in (ACROSS, DOWN):
            step = STEP[d]
            if cell - step in letters or cell + step not in letters or cell + 2 * step in letters:
                continue
            if owner[cell][d] == -1:
                out.append((cell, d, letters[cell] + letters[cell + step]))
    return out


def _fill(state: _State) -> None:
    g = state.grid
    for fcell, d, _pair in fragments_in(g):
        if state.fills >= state.cap:
            return
        if g.owner[fcell][d] != -1:  # covered by an earlier fill
            continue
        _fill_one(state, fcell, d)


def _fill_one(state: _State, fcell: int, d: int) -> bool:
    g = state.grid
    letters, owner = g.letters, g.owner
    step, side = STEP[d], SIDE[d]
    bounds = g.bounds()
    for length in FILL_LENGTHS:
        for a in range(length - 1):
            start = fcell - a * step
            end = start + (length - 1) * step
            if start - step in letters or end + step in letters:
                continue
            r0, c0, r1, c1 = bounds
            sr, sc = divmod(start, STRIDE)
            er, ec = divmod(end, STRIDE)
            if max(r1, er) - min(r0, sr) >= g.size or max(c1, ec) - min(c0, sc) >= g.size:
                continue
            fixed: dict[int, str] = {}
            ok = True
            for i in range(length):
                cell = start + i * step
                ch = letters.get(cell)
                if ch is not None:
                    if owner[cell][d] != -1:
                        ok = False
                        break
                    fixed[i] = ch
                elif cell - side in letters or cell + side in letters:
                    ok = False
                    break
            if not ok:
                continue
            word = _pick_fill(state, length, fixed)
            if word is None:
                continue
            uid = state.user_index.get(word)
            if uid is not None:
                g.place(uid, word, Spot(start, d))
                state.in_grid.add(word)
            else:
                state.add_fill(word, Spot(start, d))
            return True
    return False


def _pick_fill(state: _State, length: int, fixed: dict[int, str]) -> str | None:
    for i, e in enumerate(state.entries[: state.n_user]):
        w = e.answer
        if len(w) == length and i not in state.grid.words and all(w[k] == ch for k, ch in fixed.items()):
            return w
    for w in state.dic.matching(length, fixed):
        if w not in state.in_grid and w not in state.user_index:
            return w
    return None


def build(entries: Sequence[Entry], seed: int, params: LayoutParams, bigrams, dic, cache: dict, weights=None) -> Layout:
    weights = WEIGHTS if weights is None else {**WEIGHTS, **weights}
    state = _State(entries, params.size, bigrams, dic, fill_cap(len(entries)))
    order = graph_order(entries, seed)
    g = state.grid
    first = order[0]
    state.place(first, entries[first].answer, Spot(ORIGIN, ACROSS), [])
    pending = order[1:]
    for _ in range(1 + RETRY_PASSES):
        left = []
        for wid in pending:
            if wid in g.words:  # formed as a perpendicular run by an earlier word
                continue
            word = entries[wid].answer
            if word in state.in_grid:
                left.append(wid)
                continue
            best = _best_spot(state, word, cache, weights)
            if best is None:
                left.append(wid)
            else:
                state.place(wid, word, best[1], best[2][1])
                for top in best[2][5]:  # fill the new fragments while there is room
                    if state.fills < state.cap and g.owner[top][1 - best[1].direction] == -1:
                        _fill_one(state, top, 1 - best[1].direction)
        if not left or len(left) == len(pending):
            pending = left
            break
        pending = left
    _fill(state)
    return grid_to_layout(g, state.entries, seed=seed, strategy=NAME, params=params)


# ------------------------------------------------------------------ search


def fragments(layout: Layout) -> list[tuple[int, int, str, str]]:
    """Runs of 2+ letters that are no placed word: (row, col, 'across'|'down', letters).

    Under this strategy's rules these are the leftover two-letter fragments;
    under the strict rules of the other strategies the list is empty.
    """
    cells = layout.cells
    placed = {(p.row, p.col, p.direction.value) for p in layout.placements}
    out = []
    for r, c in sorted(cells):
        for name, (dr, dc) in (("across", (0, 1)), ("down", (1, 0))):
            if (r - dr, c - dc) in cells or (r + dr, c + dc) not in cells:
                continue
            run, rr, cc = [], r, c
            while (rr, cc) in cells:
                run.append(cells[(rr, cc)])
                rr, cc = rr + dr, cc + dc
            if (r, c, name) not in placed:
                out.append((r, c, name, "".join(run)))
    return out


def compactness(layout: Layout) -> float:
    """Bounding-box area per placed word (lower is denser)."""
    return layout.rows * layout.cols / len(layout.placements) if layout.placements else 0.0


def rank_key(layout: Layout) -> tuple:
    return (
        layout.required_placed,
        sum(1 for p in layout.placements if not p.entry.fill),
        -len(fragments(layout)),
        layout.crossings,
        len(layout.placements),
        -compactness(layout),
    )


def attempts_of(params: LayoutParams) -> range:
    if params.seed is not None:
        return range(params.seed, params.seed + 1)
    return range(min(params.seeds, ATTEMPTS * max(1, params.effort)))


def _signature(layout: Layout) -> tuple:
    return tuple((p.entry.answer, p.row, p.col, p.direction.value) for p in layout.placements)


def ranked_layouts(entries: Sequence[Entry], params: LayoutParams, weights=None) -> list[Layout]:
    """Distinct layouts of every attempt, best first."""
    entries = tuple(entries)
    dic = dictionary_mod.load()
    bigrams = dictionary_mod.frequent_bigrams(dic, tuple(e.answer for e in entries))
    cache: dict = {}
    seen: set = set()
    found: list[tuple[tuple, int, Layout]] = []
    for seed in attempts_of(params):
        layout = build(entries, seed, params, bigrams, dic, cache, weights)
        sig = _signature(layout)
        if sig in seen:
            continue
        seen.add(sig)
        found.append((rank_key(layout), -seed, layout))
    found.sort(key=lambda t: (t[0], t[1]), reverse=True)
    return [t[2] for t in found]


def set_apart(before: Entry, entry: Entry) -> bool:
    """Whether a blank or comment line stands between two entries of the list (as before a block of fill words)."""
    return bool(entry.line and before.line and entry.line - before.line > 1)


def _fill_block(entries: Sequence[Entry], dic) -> int:
    """Size of the trailing block set off by a blank or comment line, if every entry could be fill."""
    n = 0
    for k in range(len(entries) - 1, 0, -1):
        e = entries[k]
        if e.required or not (FILL_LENGTHS.start <= len(e.answer) < FILL_LENGTHS.stop) or e.answer not in dic:
            return 0
        n += 1
        if set_apart(entries[k - 1], e):
            return n
    return 0


def search(entries: Sequence[Entry], params: LayoutParams, weights: Mapping[str, float] | None = None) -> Layout:
    entries = tuple(entries)
    dic = dictionary_mod.load()
    block = _fill_block(entries, dic)
    if block:
        core, tail = entries[:-block], entries[-block:]
        layouts = ranked_layouts(core, params, weights)
        if layouts:
            layout = layouts[0]
            fill_answers = {p.entry.answer for p in layout.fill_words}
            if {e.answer for e in tail} <= fill_answers:
                return _with_clues(layout, tail)
    layouts = ranked_layouts(entries, params, weights)
    return layouts[0]


def _with_clues(layout: Layout, tail: Sequence[Entry]) -> Layout:
    by_answer = {e.answer: e for e in tail}
    placements = tuple(
        replace(p, entry=by_answer[p.entry.answer]) if p.entry.fill and p.entry.answer in by_answer else p
        for p in layout.placements
    )
    return replace(layout, placements=placements)


# --------------------------------------------------------- fill and clues


def unclued_fill_words(puzzle: Puzzle, layout: Layout) -> list[str]:
    """Fill words in the layout that the puzzle gives no clue for, in clue order."""
    clued = {e.answer for e in puzzle.entries if e.clue}
    return [p.entry.answer for p in layout.placements if p.entry.fill and p.entry.answer not in clued]


def fill_clue_hint(puzzle: Puzzle, layout: Layout) -> str:
    """What to tell an author whose grid has unclued fill words ('' when none)."""
    words = unclued_fill_words(puzzle, layout)
    if not words:
        return ""
    where = str(puzzle.path) if puzzle.path else puzzle.slug
    lines = [
        f"{where}: {len(words)} fill word{'s' if len(words) != 1 else ''} need{'s' if len(words) == 1 else ''} a clue; "
        "append these lines at the end of the list, after a blank line or a '# fill words' comment, "
        "and write the clues (the grid stays as it is):",
        "",
    ]
    lines += [f"{w} | " for w in words]
    return "\n".join(lines)
