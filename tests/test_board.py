"""The bitboard engine agrees with the dict grid on every rule, through places and removals."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.layout.board import Board, fill, smear
from site_builder.layout.grid import ACROSS, DOWN, ORIGIN, STRIDE, Grid, Spot
from site_builder.layout.rng import Rng

SIDE = 15
R0 = C0 = ORIGIN // STRIDE - 4  # grid row/col of the window's corner (the first word goes in at row/col 4)


def to_board(board: Board, start: int) -> int:
    r, c = divmod(start, STRIDE)
    return board.cell(r - R0, c - C0)


def inside(start: int, d: int, n: int) -> bool:
    r, c = divmod(start, STRIDE)
    r, c = r - R0, c - C0
    er, ec = (r, c + n - 1) if d == ACROSS else (r + n - 1, c)
    return 0 <= r and 0 <= c and er < SIDE and ec < SIDE


def grid_spots(grid: Grid, board: Board, word: str) -> list[tuple[int, int, int]]:
    """Grid.spots (with the grid's cap) cut to the window, in board cells."""
    spots = grid.spots(word, grid.bounds() if grid.letters else None)
    return sorted((x, to_board(board, s), d) for x, s, d in spots if inside(s, d, len(word)))


def pieces_by_words(grid: Grid) -> set[frozenset[int]]:
    """Connected pieces as sets of word ids, by crossings."""
    left, out = set(grid.words), set()
    while left:
        piece, todo = set(), [min(left)]
        while todo:
            w = todo.pop()
            if w in piece:
                continue
            piece.add(w)
            word, spot = grid.words[w]
            step = 1 if spot.direction == ACROSS else STRIDE
            for j in range(len(word)):
                other = grid.owner[spot.start + j * step][1 - spot.direction]
                if other != -1:
                    todo.append(other)
        out.add(frozenset(piece))
        left -= piece
    return out


WORDS = st.lists(st.text(alphabet="AEIRST", min_size=2, max_size=8), min_size=2, max_size=30, unique=True)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(WORDS, st.integers(0, 2**32 - 1), st.sampled_from([SIDE, 11, 8]))
def test_board_matches_grid_through_places_and_removals(words, seed, cap):
    """With cap < SIDE the box may sit anywhere in the window, within cap x cap (as Grid's size cap)."""
    rng = Rng(seed)
    grid, board = Grid(cap), Board(SIDE, cap)
    first = next((i for i, w in enumerate(words) if len(w) <= min(cap, SIDE - 4)), None)
    if first is None:
        return
    grid.place(first, words[first], Spot(ORIGIN, ACROSS))
    board.place(first, words[first], to_board(board, ORIGIN), ACROSS)
    for _ in range(3):
        for wid, word in enumerate(words):
            if wid in grid.words:
                if rng.random() < 0.15:  # take some out again: removal must restore every bitboard
                    grid.remove(wid)
                    board.remove(wid)
                continue
            expected = grid_spots(grid, board, word)
            assert board.spots(word) == expected, word
            if expected:
                _, start, d = expected[rng.below(len(expected))]
                r, c = board.rowcol(start)
                grid.place(wid, word, Spot((r + R0) * STRIDE + c + C0, d))
                board.place(wid, word, start, d)
        # the bounding box, the pieces and the stray pairs agree too
        if grid.words:
            r0, c0, r1, c1 = grid.bounds()
            b0, bc0, b1, bc1 = board.bounds()
            assert (b0 - 1 + R0, bc0 - 1 + C0, b1 - 1 + R0, bc1 - 1 + C0) == (r0, c0, r1, c1)
        by_cells = {
            frozenset(w for w, (_, start, _) in board.words.items() if piece >> start & 1) for piece in board.pieces()
        }
        assert by_cells == pieces_by_words(grid)
        assert len(board.orphan_pairs()) == len(grid.orphan_pairs())


def test_spots_respect_the_window_edge():
    board = Board(7)
    board.place(0, "ABCDEFG", board.cell(3, 0), ACROSS)
    # a down word through A can start at most 3 rows up, and must end inside row 6
    assert board.spots("XAX") == [(1, board.cell(2, 0), DOWN)]
    assert board.spots("XXXXA") == []  # would start above the window
    assert (1, board.cell(0, 6), DOWN) in board.spots("XXXGX")
    assert board.spots("ABCDEFGH") == []  # longer than the window


def test_no_spot_along_or_beside_a_word():
    board = Board(9)
    board.place(0, "CAT", board.cell(4, 2), ACROSS)
    # never along CAT: only down, through its A or ending on its T
    assert board.spots("AT") == [(1, board.cell(3, 4), DOWN), (1, board.cell(4, 3), DOWN)]
    assert all(d == DOWN for _, _, d in board.spots("TACT"))
    assert board.spots("XYZ") == []  # crosses nothing


def test_smear_and_fill():
    assert smear(0b1, 3) == 0b1  # bits move down only
    assert smear(0b1000, 3) == 0b1110
    assert smear(0b100000, 5) == 0b111110
    inside = 0b0111011
    assert fill(0b10, inside, 1) == 0b11  # the run of bits 0-1, from bit 1
    assert fill(0b100000, inside, 1) == 0b111000
