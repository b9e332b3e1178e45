"""The working grid every strategy shares, and the strict placement rules.

Cells are single integers, `row * STRIDE + col` around an origin in the
middle, so a step across is +1 and a step down is +STRIDE and a neighbour
look-up is one dict probe. The grid keeps, per cell, its letter and which
word occupies it in each direction, plus an index of cells by letter, so a
candidate placement is checked in O(word length) without copying anything.

The rules (seeds/000): letters agree; the cells before the first and after
the last letter are free; every newly written letter has no neighbour across
the word's direction; a word never lies along another word in the same
direction; and it crosses at least one placed word (the first word is
exempt). Under these rules every maximal run of two or more letters in the
grid is exactly one placed word.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

STRIDE = 4096
ORIGIN = (STRIDE // 2) * STRIDE + STRIDE // 2
ACROSS, DOWN = 0, 1
STEP = (1, STRIDE)  # indexed by direction
SIDE = (STRIDE, 1)  # the perpendicular step
_ROW_SHIFT = STRIDE.bit_length() - 1  # cell >> _ROW_SHIFT is the row (STRIDE is a power of two)
_COL_MASK = STRIDE - 1  # cell & _COL_MASK is the column


@dataclass(frozen=True, slots=True)
class Spot:
    """A candidate or actual position: start cell and direction (0 across, 1 down)."""

    start: int
    direction: int


class Grid:
    """Mutable working grid: place and remove words, check candidate spots."""

    __slots__ = ("letters", "owner", "by_letter", "words", "size", "_rows", "_cols")

    def __init__(self, size: int):
        self.size = size
        self.letters: dict[int, str] = {}
        # owner[cell] = [across word id or -1, down word id or -1]
        self.owner: dict[int, list[int]] = {}
        self.by_letter: dict[str, set[int]] = defaultdict(set)
        self.words: dict[int, tuple[str, Spot]] = {}
        # letter counts per occupied row and column (no zero entries), for the bounding box
        self._rows: dict[int, int] = defaultdict(int)
        self._cols: dict[int, int] = defaultdict(int)

    # ---------------------------------------------------------------- box
    def bounds(self) -> tuple[int, int, int, int]:
        """(min_row, min_col, max_row, max_col) of the letters; grid must not be empty."""
        rows, cols = self._rows, self._cols
        return min(rows), min(cols), max(rows), max(cols)

    def box(self) -> tuple[int, int]:
        """(height, width) of the letters' bounding box, (0, 0) when empty."""
        if not self.letters:
            return 0, 0
        r0, c0, r1, c1 = self.bounds()
        return r1 - r0 + 1, c1 - c0 + 1

    # -------------------------------------------------------------- rules
    def check(self, word: str, spot: Spot, bounds: tuple[int, int, int, int] | None = None) -> int:
        """Crossings the word would make at `spot`, or -1 if a rule forbids it.

        `bounds` (the current letter box) enables the size-cap check; pass the
        value of `self.bounds()` when checking many candidates in a row.
        """
        d = spot.direction
        step = STEP[d]
        side = SIDE[d]
        start = spot.start
        letters = self.letters
        end = start + step * (len(word) - 1)
        if start - step in letters or end + step in letters:
            return -1
        if bounds is not None:
            r0, c0, r1, c1 = bounds
            sr, sc = divmod(start, STRIDE)
            er, ec = divmod(end, STRIDE)
            if max(r1, er) - min(r0, sr) >= self.size or max(c1, ec) - min(c0, sc) >= self.size:
                return -1
        owner = self.owner
        crossings = 0
        cell = start
        for ch in word:
            have = letters.get(cell)
            if have is None:
                if cell - side in letters or cell + side in letters:
                    return -1
            else:
                if have != ch or owner[cell][d] != -1:
                    return -1
                crossings += 1
            cell += step
        if crossings == len(word):
            return -1
        return crossings

    def candidates(self, word: str) -> set[Spot]:
        """Every spot where `word` would cross a placed letter (unchecked)."""
        out: set[Spot] = set()
        by_letter = self.by_letter
        owner = self.owner
        for i, ch in enumerate(word):
            for cell in by_letter.get(ch, ()):
                own = owner[cell]
                if own[ACROSS] == -1:
                    out.add(Spot(cell - i * STEP[ACROSS], ACROSS))
                elif own[DOWN] == -1:
                    out.add(Spot(cell - i * STEP[DOWN], DOWN))
        return out

    def spots(self, word: str, bounds: tuple[int, int, int, int] | None = None) -> list[tuple[int, int, int]]:
        """Every valid spot for `word` as (crossings, start, direction), sorted.

        The same answer as checking each of `candidates(word)` with `check`,
        but with the rules inlined and no Spot objects: the search calls this
        for every word it inserts, so it is the engine's inner loop.
        """
        letters = self.letters
        owner = self.owner
        n = len(word)
        # the start row/col the cap allows, for each direction: lo <= start <= hi
        if bounds is not None:
            r0, c0, r1, c1 = bounds
            cap = self.size
            if n > cap:
                return []
            lo = (c1 - cap + 1, r1 - cap + 1)
            hi = (c0 + cap - n, r0 + cap - n)
        else:
            lo = (-1, -1)
            hi = (STRIDE, STRIDE)
        seen: set[int] = set()
        out: list[tuple[int, int, int]] = []
        for i, ch in enumerate(word):
            cells = self.by_letter.get(ch)
            if not cells:
                continue
            for cell in cells:
                own = owner[cell]
                if own[0] == -1:
                    first = (cell & _COL_MASK) - i
                    if first < lo[0] or first > hi[0]:
                        continue
                    d, step, side = 0, 1, STRIDE
                elif own[1] == -1:
                    first = (cell >> _ROW_SHIFT) - i
                    if first < lo[1] or first > hi[1]:
                        continue
                    d, step, side = 1, STRIDE, 1
                else:
                    continue
                start = cell - i * step
                key = start * 2 + d
                if key in seen:
                    continue
                seen.add(key)
                if start - step in letters or start + n * step in letters:
                    continue
                crossings = 0
                c = start
                for wc in word:
                    have = letters.get(c)
                    if have is None:
                        if c - side in letters or c + side in letters:
                            break
                    elif have != wc or owner[c][d] != -1:
                        break
                    else:
                        crossings += 1
                    c += step
                else:
                    if crossings < n:
                        out.append((crossings, start, d))
        out.sort()
        return out

    def growth(self, word: str, spot: Spot, bounds: tuple[int, int, int, int]) -> tuple[int, int]:
        """(height, width) of the box after placing word at spot."""
        r0, c0, r1, c1 = bounds
        sr, sc = divmod(spot.start, STRIDE)
        n = len(word) - 1
        er, ec = (sr, sc + n) if spot.direction == ACROSS else (sr + n, sc)
        return max(r1, er) - min(r0, sr) + 1, max(c1, ec) - min(c0, sc) + 1

    # ------------------------------------------------------------- change
    def place(self, wid: int, word: str, spot: Spot) -> None:
        d = spot.direction
        step = STEP[d]
        cell = spot.start
        for ch in word:
            own = self.owner.get(cell)
            if own is None:
                self.owner[cell] = own = [-1, -1]
                self.letters[cell] = ch
                self.by_letter[ch].add(cell)
                r, c = divmod(cell, STRIDE)
                self._rows[r] += 1
                self._cols[c] += 1
            own[d] = wid
            cell += step
        self.words[wid] = (word, spot)

    def remove(self, wid: int) -> None:
        word, spot = self.words.pop(wid)
        d = spot.direction
        step = STEP[d]
        cell = spot.start
        for ch in word:
            own = self.owner[cell]
            own[d] = -1
            if own[1 - d] == -1:
                del self.owner[cell]
                del self.letters[cell]
                self.by_letter[ch].discard(cell)
                r, c = divmod(cell, STRIDE)
                rows, cols = self._rows, self._cols
                rows[r] -= 1
                if not rows[r]:
                    del rows[r]
                cols[c] -= 1
                if not cols[c]:
                    del cols[c]
            cell += step

    def crossings_of(self, wid: int) -> int:
        word, spot = self.words[wid]
        d = spot.direction
        step = STEP[d]
        return sum(1 for i in range(len(word)) if self.owner[spot.start + i * step][1 - d] != -1)

    def orphan_pairs(self) -> list[tuple[int, int]]:
        """(cell, direction) of every two adjacent letters that no one word holds together.

        Empty exactly when every maximal run of letters is one placed word: the
        placement rules keep it empty while words are only added, but taking a
        word out can leave two crossing words' cells side by side (a word that
        ran through the end of one and the start of the other held them).
        """
        out = []
        letters, owner = self.letters, self.owner
        for cell in sorted(letters):
            for d in (ACROSS, DOWN):
                nxt = cell + STEP[d]
                if nxt in letters:
                    here = owner[cell][d]
                    if here == -1 or here != owner[nxt][d]:
                        out.append((cell, d))
        return out

    def runs(self) -> list[tuple[int, int, str]]:
        """Every maximal run of 2+ letters as (start cell, direction, letters)."""
        out = []
        for cell in sorted(self.letters):
            for d in (ACROSS, DOWN):
                step = STEP[d]
                if cell - step in self.letters or cell + step not in self.letters:
                    continue
                chars = []
                c = cell
                while c in self.letters:
                    chars.append(self.letters[c])
                    c += step
                out.append((cell, d, "".join(chars)))
        return out
