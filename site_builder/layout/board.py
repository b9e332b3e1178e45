"""A square window of the grid as bitboards: the optimizer's fast engine.

The `optimize` search spends nearly all its time asking "where may this word
go?". `Grid.spots` answers by trying every cell that holds one of the word's
letters, one dict probe per cell of each candidate. Inside a fixed window the
same rules can be checked for every start at once, on bitboards held as
Python integers (one bit a cell), with a handful of shifts and ANDs per
letter of the word:

* `occ`: cells holding a letter; `letter[ch]`: cells holding `ch`;
  `along`: cells already inside a word of the direction being placed.
* a start is valid for `word` when, for every offset j, the cell j further on
  is either empty with no letter beside it across the word's direction, or
  holds word[j] with no word of that direction yet in it; the cells just
  before the start and just after the end are empty; the word crosses at
  least one letter and is not made entirely of letters already there (the
  rules of `grid.Grid.check`).

Down words are found the same way on a transposed copy of every bitboard,
so both directions share one code path: in the transposed board a down word
runs across.

The window may be wider than the size cap (the search leaves the layout
room to drift): the starts are then cut to the band of rows and columns
that keeps the letters' box within cap x cap, as `Grid`'s cap does.
Connected pieces come from flood fills along the words (`pieces`).

Cells are `row * W + col` with a one-cell empty border around the window
(`W = side + 2`; rows and columns 1..side are the window), so a shift never
wraps a letter from one row into the next inside the starts that are tried.
"""

from __future__ import annotations

from functools import lru_cache

ACROSS, DOWN = 0, 1


def smear(bits: int, n: int) -> int:
    """OR of `bits >> j` for j in 0..n-1 (n >= 1): bit s is set when any of cells s..s+n-1 is."""
    k = 1
    while k * 2 <= n:
        bits |= bits >> k
        k *= 2
    if k < n:
        bits |= bits >> (n - k)
    return bits


def fill(seed: int, inside: int, step: int) -> int:
    """The cells of `inside` reachable from `seed` by steps of +-step without leaving `inside`.

    Kogge-Stone fills: five doubling shifts each way instead of one shift a
    cell, so one call reaches 31 cells each way (longer runs take another
    call, as `Board.pieces` repeats until nothing new is reached).
    """
    s2, s4, s8, s16 = step * 2, step * 4, step * 8, step * 16
    g, p = seed, inside
    g |= p & (g << step)
    p &= p << step
    g |= p & (g << s2)
    p &= p << s2
    g |= p & (g << s4)
    p &= p << s4
    g |= p & (g << s8)
    p &= p << s8
    g |= p & (g << s16)
    h, p = seed, inside
    h |= p & (h >> step)
    p &= p >> step
    h |= p & (h >> s2)
    p &= p >> s2
    h |= p & (h >> s4)
    p &= p >> s4
    h |= p & (h >> s8)
    p &= p >> s8
    h |= p & (h >> s16)
    return g | h


@lru_cache(maxsize=16)
def _masks(side: int) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The fixed masks of a side x side board: (window, starts, rows_from, cols_from).

    starts[n]: the window cells where an across word of n letters fits (the
    same mask serves down words, in transposed cells); rows_from[r] /
    cols_from[c]: the cells in rows >= r / columns >= c (index W: none), to
    cut bands of starts out of the window.
    """
    W = side + 2
    rows = range(1, side + 1)
    window = sum(((1 << side) - 1) << (r * W + 1) for r in rows)
    starts = (0,) + tuple(sum(((1 << (side - n + 1)) - 1) << (r * W + 1) for r in rows) for n in range(1, side + 1))
    every = (1 << (W * W)) - 1
    rows_from = tuple(every >> (r * W) << (r * W) for r in range(W + 1))
    cols_from = tuple(sum((((1 << W) - 1) >> c << c) << (i * W) for i in range(W)) for c in range(W + 1))
    return window, starts, rows_from, cols_from


class Board:
    """Mutable side x side window: place and remove words, list valid spots."""

    __slots__ = (
        "side", "W", "step", "letters", "owner", "words", "occ", "along", "down", "letter",
        "cap", "_window", "_starts", "_shapes", "_rows_from", "_cols_from", "_limits", "_fits",
    )

    def __init__(self, side: int, cap: int | None = None):
        self.side = side
        self.cap = side if cap is None else min(cap, side)  # the letters' bounding box stays within cap x cap
        W = self.W = side + 2
        cells = W * W
        self.step = (1, W)  # cell step along each direction
        self.letters = [""] * cells
        self.owner = ([-1] * cells, [-1] * cells)  # word id across / down per cell
        self.words: dict[int, tuple[str, int, int]] = {}  # wid -> (word, start cell, direction)
        # bitboards, per orientation: [0] in plain cells, [1] in transposed cells
        self.occ = [0, 0]
        self.along = [0, 0]  # [0]: cells in an across word (plain); [1]: cells in a down word (transposed)
        self.letter: tuple[dict[str, int], dict[str, int]] = ({}, {})
        self.down = 0  # cells in a down word, plain (for connectivity)
        self._shapes: dict[str, tuple[int, int, dict[str, int], dict[str, int]]] = {}
        self._limits: dict[tuple, tuple[int, int]] = {}  # (bounds, length) -> allowed starts across, down
        self._fits: tuple[dict[str, int], dict[str, int]] = ({}, {})
        self._window, self._starts, self._rows_from, self._cols_from = _masks(side)

    def set_cap(self, cap: int) -> None:
        """Change the size cap (at most the window's side)."""
        self.cap = min(cap, self.side)
        self._limits.clear()

    # ------------------------------------------------------------ coordinates
    def cell(self, row: int, col: int) -> int:
        """The cell of window row/col (0-based)."""
        return (row + 1) * self.W + col + 1

    def rowcol(self, cell: int) -> tuple[int, int]:
        r, c = divmod(cell, self.W)
        return r - 1, c - 1

    def bounds(self) -> tuple[int, int, int, int]:
        """(min_row, min_col, max_row, max_col) of the letters, in cell rows/cols; board must not be empty.

        Rows come from the lowest and highest set bits of the plain board,
        columns from those of the transposed one.
        """
        W = self.W
        occ, tocc = self.occ
        return (
            ((occ & -occ).bit_length() - 1) // W,
            ((tocc & -tocc).bit_length() - 1) // W,
            (occ.bit_length() - 1) // W,
            (tocc.bit_length() - 1) // W,
        )

    def box(self) -> tuple[int, int]:
        """(height, width) of the letters' bounding box, (0, 0) when empty."""
        if not self.occ[0]:
            return 0, 0
        r0, c0, r1, c1 = self.bounds()
        return r1 - r0 + 1, c1 - c0 + 1

    # ------------------------------------------------------------------ rules
    def spots(self, word: str) -> list[tuple[int, int, int]]:
        """Every valid spot for `word` inside the window as (crossings, start cell, direction), sorted.

        The same spots, by the same rules, as `Grid.spots` finds for a grid
        with no size cap, less those reaching outside the window.
        """
        n = len(word)
        if n > self.cap or not self.occ[0]:
            return []
        W = self.W
        out: list[tuple[int, int, int]] = []
        low = (1 << n) - 1
        if self.cap < self.side:
            # keep the box within the cap: the starts allowed, each direction (down in transposed cells)
            key = (self.bounds(), n)
            limits = self._limits.get(key)
            if limits is None:
                if len(self._limits) > 4096:
                    self._limits.clear()
                (r0, c0, r1, c1), cap, starts = key[0], self.cap, self._starts[n]
                limits = self._limits[key] = (
                    starts & self._band(r1 - cap + 1, r0 + cap - 1, c1 - cap + 1, c0 + cap - n),
                    starts & self._band(c1 - cap + 1, c0 + cap - 1, r1 - cap + 1, r0 + cap - n),
                )
        else:
            limits = (self._starts[n], self._starts[n])
        for d in (ACROSS, DOWN):
            occ = self.occ[d]
            fits = self._fits[d]  # per letter: the cells where it may go (kept until the board changes)
            free = fits.get("")
            if free is None:  # empty, nothing beside it across the word
                free = fits[""] = self._window & ~(occ | occ << W | occ >> W)
            valid = limits[d] & ~(occ << 1) & ~(occ >> n) & smear(occ, n)
            for j, ch in enumerate(word):
                ok = fits.get(ch)
                if ok is None:
                    ok = fits[ch] = free | (self.letter[d].get(ch, 0) & ~self.along[d])
                valid &= ok >> j
                if not valid:
                    break
            while valid:
                lowest = valid & -valid
                s = lowest.bit_length() - 1
                valid ^= lowest
                crossings = ((occ >> s) & low).bit_count()
                if crossings < n:
                    if d == DOWN:
                        s = (s % W) * W + s // W  # back to plain cells
                    out.append((crossings, s, d))
        out.sort()
        return out

    def _band(self, row_lo: int, row_hi: int, col_lo: int, col_hi: int) -> int:
        """Cells with row_lo <= row <= row_hi and col_lo <= col <= col_hi (clamped to the board)."""
        top = len(self._rows_from) - 1
        rows, cols = self._rows_from, self._cols_from
        band_rows = rows[min(max(row_lo, 0), top)] & ~rows[min(max(row_hi + 1, 0), top)]
        return band_rows & cols[min(max(col_lo, 0), top)] & ~cols[min(max(col_hi + 1, 0), top)]

    # ----------------------------------------------------------------- change
    def _shape(self, word: str) -> tuple[int, int, dict[str, int], dict[str, int]]:
        """A word's bits at offset 0: (run, column, run bits per letter, column bits per letter).

        A word covers `run << start` in the cells of its own direction (plain
        for across, transposed for down) and `column << start` in the other.
        """
        shape = self._shapes.get(word)
        if shape is None:
            W = self.W
            run_of: dict[str, int] = {}
            column_of: dict[str, int] = {}
            for j, ch in enumerate(word):
                run_of[ch] = run_of.get(ch, 0) | 1 << j
                column_of[ch] = column_of.get(ch, 0) | 1 << (j * W)
            column = sum(1 << (j * W) for j in range(len(word)))
            shape = self._shapes[word] = ((1 << len(word)) - 1, column, run_of, column_of)
        return shape

    def place(self, wid: int, word: str, start: int, d: int) -> None:
        step = self.step[d]
        owner = self.owner[d]
        letters = self.letters
        W = self.W
        cell = start
        for ch in word:
            if not letters[cell]:
                letters[cell] = ch
            owner[cell] = wid
            cell += step
        run, column, run_of, column_of = self._shape(word)
        t = (start % W) * W + start // W  # the start in transposed cells
        if d == ACROSS:
            plain, trans, own = (run, run_of), (column, column_of), start
        else:
            plain, trans, own = (column, column_of), (run, run_of), t
            self.down |= column << start
        occ, (let0, let1) = self.occ, self.letter
        occ[0] |= plain[0] << start
        occ[1] |= trans[0] << t
        for ch, m in plain[1].items():
            let0[ch] = let0.get(ch, 0) | m << start
        for ch, m in trans[1].items():
            let1[ch] = let1.get(ch, 0) | m << t
        self.along[d] |= run << own
        self.words[wid] = (word, start, d)
        self._fits = ({}, {})

    def remove(self, wid: int) -> None:
        word, start, d = self.words.pop(wid)
        step = self.step[d]
        owner, other = self.owner[d], self.owner[1 - d]
        letters = self.letters
        W = self.W
        freed_run = freed_column = 0  # offsets of the cells this word alone held
        cell = start
        for j in range(len(word)):
            owner[cell] = -1
            if other[cell] == -1:
                letters[cell] = ""
                freed_run |= 1 << j
                freed_column |= 1 << (j * W)
            cell += step
        run, column, run_of, column_of = self._shape(word)
        t = (start % W) * W + start // W
        if d == ACROSS:
            plain, trans, own = (freed_run, run_of), (freed_column, column_of), start
        else:
            plain, trans, own = (freed_column, column_of), (freed_run, run_of), t
            self.down &= ~(column << start)
        occ, (let0, let1) = self.occ, self.letter
        occ[0] &= ~(plain[0] << start)
        occ[1] &= ~(trans[0] << t)
        for ch, m in plain[1].items():
            let0[ch] &= ~((m & plain[0]) << start)
        for ch, m in trans[1].items():
            let1[ch] &= ~((m & trans[0]) << t)
        self.along[d] &= ~(run << own)
        self._fits = ({}, {})

    # ---------------------------------------------------------------- queries
    def crossings_of(self, wid: int) -> int:
        word, start, d = self.words[wid]
        other = self.owner[1 - d]
        step = self.step[d]
        return sum(1 for j in range(len(word)) if other[start + j * step] != -1)

    def pieces(self) -> list[int]:
        """The connected pieces of the board as cell masks, the first holding the lowest cell.

        A flood fill on the bitboards: from one letter, along the across and
        down words through it, until nothing new is reached. Two across
        words never touch end to end (the placement rules), so a step between
        two across cells stays inside one word; likewise down.
        """
        left = self.occ[0]
        across, down, W = self.along[0], self.down, self.W
        out = []
        while left:
            reached = left & -left
            while True:
                grown = reached | fill(reached & across, across, 1) | fill(reached & down, down, W)
                if grown == reached:
                    break
                reached = grown
            out.append(reached)
            left &= ~reached
        return out

    def orphan_pairs(self) -> list[tuple[int, int]]:
        """(cell, direction) of every two adjacent letters that no one word holds together (see Grid)."""
        out = []
        letters = self.letters
        for cell in range(len(letters)):
            if not letters[cell]:
                continue
            for d in (ACROSS, DOWN):
                nxt = cell + self.step[d]
                if letters[nxt]:
                    here = self.owner[d][cell]
                    if here == -1 or here != self.owner[d][nxt]:
                        out.append((cell, d))
        return out
