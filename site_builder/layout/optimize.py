"""The `optimize` strategy: seeded greedy layouts improved by large-neighbourhood search.

Start: a few seeded greedy builds (seeds/000's builder, `freeform.build_seed`)
inside the size cap; the best by the search key is the starting point, and
its seed seeds the search. (Two runs from two starts, each with half the
steps, were measured as good as one run, not better: the budget goes to one.)

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
  weighted, plus crossings, less COMPACT = 0.5 per row and column of the
  letters' bounding box where there is room) does not drop, and otherwise
  with the usual annealing probability exp(delta / T), T cooling over the
  run. Rejected changes are undone word by word; nothing is copied per
  candidate.

Compaction: the charge per row and column steers the walk, not the result
(the best layout met is still chosen by the search key, crossings before
the grid): among layouts with as many crossings it drifts to the smaller
ones, and it gives up a crossing for a smaller box only now and then, as
annealing does. Measured with it on every list, over 6 pinned seeds of 8
lists (tools/tune_optimize.py --seeds 6 --only twin-peaks,solar-system,
world-capitals,twin-peaks-21,english-40,english-80,generated-40,
generated-160, against COMPACT=0): the mean box area fell by 1.5%
(english-80) to 14% (generated-40) on every list the size does not hold
(world-capitals 799 to 741, generated-160 1,862 to 1,688), and the total
crossings went from 4,074 to 4,061 (0.3%). A charge of 1.0 cost crossings
(world-capitals, 12 seeds: 86.8 to 84.6).

It applies only where there is room: when the answers' letters come to at
most TIGHT (half) of the size x size box's cells. The densest layouts
measured fill 40 to 46% of their box with letter cells, about 0.8 of the
letters once crossings share them, so past half the layout needs the whole
box: the size is what limits it, and the charge only fought it. Twin-peaks
in 21x21 (letters 0.58 of the box) averaged 48.4 crossings with the charge
and 49.0 without (30 pinned seeds); every other list measured is at most
0.48 (twin-peaks at 23, english-80 at 35; solar-system 0.40, generated-160
0.37). Judging room by whether the greedy start held every answer misfired:
some greedy starts of generated-160 leave an answer out at size 50, and
without the charge its mean box over 6 seeds grew from 1,688 cells to 1,774.

The board is a window a few cells (MARGIN) wider than the box, so the
layout can drift as it would on an unbounded grid; it is moved back to the
middle when it reaches the window's edge. Two engines run the same search:
`_anneal.c`, compiled when the package is installed, and `Search` below on
`board.Board` bitboards, the readable reference it is tested against
(tests/test_anneal.py: same input, same layout). The compiled one does a
step in about 8 us on twin-peaks, some 80 times faster, and the budget is
set for it. It finds a word's spots from lists of the board's letters that
each direction may still cross, and checks them on a bit per cell of the
word's row or column (where one fits in 64 bits): 2 to 3.3 times faster than
a list per letter checked cell by cell, with every result the same (100
layouts of 13 lists and every one of their 424 engine calls compared).

Boxes: half a run's budget goes to a search inside the greedy start's own
square (the whole cap when the start left answers out: ten three-letter
answers boxed into 5x4 kept 5 of them, where the cap holds 7); the rest to ever smaller square boxes (one square less a side than
the best so far, starting from the best layout with the words outside the
smaller box taken out), for as long as the smaller box still takes every
answer. A smaller box that has not held every answer a quarter of the way
through its steps is given up, and the steps it leaves go to a last,
cooler search in the best box. Every layout is compared by the seeds/000
search key (required answers, letters, crossings, then the smaller grid),
so a smaller box wins whenever it keeps the crossings.

Soft box: once a box's search has started, a step may take up to SOFT rows
and columns past the box, charged OVERFLOW_START (0.5, in crossings) per
row or column past it at first, rising geometrically to OVERFLOW_END (1,000)
by the last step; only layouts inside the box count as results. A word
can then go in just past the edge and the rest move round it, where a hard
box would refuse the move outright; the rising charge brings the layout
back inside. Measured (tools/tune_optimize.py, 6 seeds of 6 lists, and 20
layouts of twin-peaks in 21x21, seeds 0-9 at effort 1 and 2): twin-peaks in
21x21 went from 46.1 to 49.5 crossings on average, the totals from 2,384 to
2,392 and from 2,378 to 2,386 (seeds 6-11), and no layout left an answer
out. A charge ending at 20 to 200 found up to 2,413 but left an answer out
in about one layout of 20 (the layout stayed past the box, where every
answer fit, and the best inside it was the start); one row of slack also
left answers out; three rows, or a charge from 1.0, found fewer crossings.

Too long for the box: where the answers' letters come to more than FULL
(0.6) of the size x size box's cells, more than the densest layouts hold
(about 0.58), no step leaves the box (no soft rows). There the two rows and
columns past the box hold far more letters than their charge costs until
the last steps, so the walk stayed outside and fell back in at the end with
fewer letters than it started with: every result was the greedy start, and
the builder's fallback won (generated lists of 40 to 200 answers at 0.7 to
1.6 of the box, 8 lists). Inside the box the same budget placed 7 to 30% more
letters than the start and 5 to 24% more than the builder over 64 seeds
(200 answers at size 40: 966, 1,123 and 993 letters; 100 at size 25: 360,
431 and 386). Between 0.61 and 0.65 the hard box placed more letters in 6 of
10 runs and fewer in 2; at 0.53 to 0.58, where every answer fits, the soft
box found more crossings (twin-peaks in 21x21: 49.0 against 46.0 over two
starts; 5 lists, 10 runs).
Such a list also gets half the budget (FULL_SHARE) and no second run from a
wider start (see "Tight caps": answers that cannot all fit gain little from
it): 40 answers of 12 to 15 letters at size 23 took 6 to 7 s of CPU, 60 and
100 English words 8 to 10 s, where 2 s is the target for 40 answers. Over
those four lists and two seeds each, the letters placed went from 2,626 to
2,602 without the second run and to 2,573 with half the budget as well
(2% fewer), in about a quarter of the time (2 to 2.7 s). The author is
told anyway: lint's too-many-letters names a size that holds them all.

Tight caps: when the search ends with answers left out, it runs again from
a greedy layout built up to SLACK squares wider than the cap, which first
comes down to the cap in short searches; only layouts inside the cap count.

Full boxes: on a list whose answers cannot all fit, letters placed come
first, and the search starts from the best of GREEDY_STARTS greedy layouts:
where it still leaves answers out, the builder over more seeds may hold more
(lists of 80 to 170 English words at size 23: 296 letters against the
builder's 316 over 200 seeds, 320 against 329, 373 against 390), so its best
over up to FALLBACK_SEEDS seeds is taken when its key is higher (300 English
words at size 60: the search 299, the builder 300 by its 34th seed; 64 seeds
of a 400-answer list take about 12 s). Not always: on generated lists whose
letters come to 0.8 to 1.3 of the box the search placed more on 20 of 30, so
both run (a shortcut to the builder past 0.75 of the box was tried and taken
back). The builder stops after FALLBACK_PROBE seeds when its best is
FALLBACK_GAP short of the search (`fallback`): measured now, the search
placed 17%, 12% and 9% more letters than the builder's best of 64 seeds on
the lists of 80, 120 and 170 words at size 23, and the builder won on the 300
words at size 60 (2,138 letters), 2.6% up on its 8th seed.

Lone words: once the grid holds two or more words, no step may leave it
with fewer, even to make room for a required answer that crosses nothing
(as in the greedy builder, a one-word grid comes out only when no two words
cross). Such an answer stays unplaced and `layout_puzzle` names it in a
LayoutError, which tells an author more than a grid of one word would.

Budget: counted in steps, never in seconds, so the result is the same on
every machine: 1,000 steps an answer, between 6,000 and 160,000
(`steps_for`), and `effort` (1-10) multiplies them. A step moves words on
the board, so a list far longer than its box can hold is budgeted for what
the box holds: one answer per CELLS_PER_ANSWER (8) cells, where the densest
layouts measured use 10 to 12. 160 answers in 23 squares (about 50 fit)
then take 10 s, not the 23 s their number would cost. (Counting the answers
the greedy start placed instead starved tight caps: twin-peaks in 21x21,
whose greedy starts place 29 to 33 of the 39 answers, left one out.) All
randomness comes from `Rng`, seeded with the greedy start's seed (the
pinned `seed`, or the best of seeds 0-3).

Measured and not kept: solar-system (30 answers, size 21) at effort 1 over
24 pinned seeds, against 37.6 crossings on average (37.6 again on seeds
24-47). None of these did better than that noise:
* repair order by each word's best crossings first (37.5, 1.4x the time);
* a bonus per letter with a letter two cells off (ladder potential; 37.1-37.5);
* barring taken-out words from their old spots (36.8 all; 37.4 one);
* a second repair, failed words first, when a step cannot put a word back
  (a third of all steps; 37.9 and 37.5, 1.25x the time);
* LETTER_WEIGHT 0.3-1.0, so a missing word is a softer loss (37.4-37.7);
* T_START 1.0/2.5, T_END 0.08/0.3, GROWTH 0/0.8, LEAF_MOVES 0/0.5,
  RANDOM_SPAN 2/7, JITTER 0/5 (37.2-37.8);
* 2 or 4 short first runs, the best one carried on (37.5-38.0); the first box
  at the size rather than the greedy start's square (37.8);
* chains at fixed temperatures 2.5 to 0.25 that swap layouts, a
  parallel-tempering variant (37.5-37.8).
Exhaustive checks found no better pair of words (one at any of its spots,
the other at its best) in six final layouts, and no better triple of words
joined by crossings in three: what the search ends on is a local optimum
for moves of two words, and of three that cross. Nor is there a better
placement of any four words joined by crossings, with the words they alone
held to the rest (up to seven words re-placed at every spot, three final
layouts), or of five (up to six, two layouts). NOISE 1.5 and 2.5 (so a spot
with one crossing fewer may win) gave 37.6 and 37.3. For scale: a word is
crossed at about every other letter at most, which puts this list's
ceiling near 48 (half the sum of its answers' (length + 1) // 2). A rough
figure, not a bound: two neighbouring letters can both be crossed, where a
down word ends on the across word's row and the next column's starts there.
More steps do help, up to a point (no compaction, as the charge costs
0.3 to 0.7 crossings on every list of 30 to 60 answers): 38.1 at effort 1,
38.3 at 2, 38.5 at 3, 39.0 at 4 (a quarter of the layouts at 40), 38.8 at 10.
A budget that gives short lists the time of a 40-answer list (max(1,000 n,
2.4M / n) steps) took solar-system from 37.3 to 38.7 and a generated list of
30 from 37.5 to 38.8 (12 seeds), at 1.1 s instead of 0.4 s a layout. It was
not kept, because the cold site build of 50 short puzzles would take about
0.5 s a puzzle longer, past 1.5 times the WeasyPrint floor.
Also measured and not kept (solar-system, 24 pinned seeds, effort 1, against
37.6-37.75; every variant's best layout had 40 crossings):
* acceptance: late-acceptance hill climbing (L = 100 to 2,000; 37.0-37.5),
  threshold acceptance (36.8-37.7), reheat cycles and restarts from the best
  layout with a kick of 8-30% of the words (37.4-38.0);
* destroy: crossing-connected clusters of 3-9 words, 4x4 and 6x6 windows,
  6-9 random words (37.4-37.7); cut-off pieces kept in place, or moved back
  as one rigid block at the offset with most crossings, transposed or not
  (36.5-38.0, and 37.8 on seeds 24-47);
* repair: regret order (largest best-minus-second gap, fewest spots; 37.7-
  38.0 at 2.5x the time), a random spot among the best for 10-30% of the
  insertions (37.3), the best of 2-4 repairs a step (38.0-38.5 on seeds 0-23,
  37.7-38.0 on 24-47, at 2-3x the time: what doubling the steps buys);
* a soft adjacency rule, violations charged and results counted only when
  valid (37.4-38.0); the 15 or 20 longest answers laid out first (37.7);
* caps: 17 to 19 squares cost crossings (32.8-36.4), 23 and 25 gain little
  (38.1); COMPACT 0.25 gives 37.7, COMPACT 0 38.1 in a box 8% larger.
Effort 4 and effort 8 both give 38.75: the search's own ceiling on this list
is about 39, and a mean of 40 needs another way to represent layouts.
Two other ways, not kept (solar-system, 8 pinned seeds, effort 4's budget):
* a memetic search, 4-6 annealed layouts crossed over (one parent's words on
  one side of a cut, the other's, aligned on a shared word, where they fit;
  the annealing mends the child): 38.75-39.0 against 38.75;
* an exact model in OR-Tools' CP-SAT (a Boolean per word and placement in the
  box, the strict rules as clauses), hinted with a 38-crossing layout: 10 s to
  take the hint, nothing better in 50 s more on 2 cores, its bound at 322.
And a pilot repair (each word's 4 or 8 best spots tried with a greedy rollout of
the words still to go back, the best rollout's spot kept; 24 pinned seeds, effort
1): 38.25 and 38.33 against 37.5 and 38.0 for 4 spots, 38.0 for 8, at 6.4 times
the time a step, where effort 6 gives about 38.8. A relaxation that keeps only
the letters (a crossing pairs two equal letters of two words, a word's crossings
at least a letter apart, two words crossing at most once, across against down)
bounds nothing useful: it reaches 46, near the 48 of the count above.
How the results spread: 619 pinned seeds (24-642) at effort 1 gave 36 crossings
28 times, 37 237 times, 38 276, 39 67, 40 9 and 41 twice (mean 37.67): 41 exists,
but a mean of 40 would move the whole spread up by nearly three of its standard
deviations (0.81). Memory, to lead the walk away from where it has been, did not
help either (24 pinned seeds, effort 1, against 37.75; effort 4 against 38.75):
* a tabu list of the spots words left in the last 3 to 1,000 kept steps, with
  aspiration (a tabu spot allowed when it beats the best so far) and with or
  without a fallback to the best tabu spot: 36.8-37.9 (37.88 against 37.68
  over 72 seeds at a tenure of 3), and 38.3 at effort 4;
* guided local search, a penalty on the features of the layout whenever K
  steps find no new best (a word at a spot, or two words crossing), charged
  lambda = 0.2-1.0 crossings in the repair's choice of spot: 36.2-37.75, and
  37.7-38.5 at effort 4;
* taking out first the words that have gone longest unmoved (37.0-37.6), or
  keeping a step that leaves the score unchanged only some of the time
  (37.3-37.9): such steps are two in five of those kept, and the walk needs them.
Nor did an exact repair (OR-Tools' CP-SAT, one worker, the strict rules as
constraints, connection added as cuts when a solution falls apart): 8 to 15
words taken out of eight final layouts (36 to 40 crossings), each re-placed at
a spot crossing a word left in or near where the words were, 114 times. It
never found more crossings: those layouts are local optima for 8 to 10 words
too (larger sets rarely finished within 8 s). A set of 8 took 0.3 to 3.4 s, the
time of some 20,000 steps here. The whole list, hinted with a 40-crossing layout,
found no 41 in 10 minutes, its bound still at 439.
What the best layouts look like (the 619 seeds' layouts compared, grouped by crossings): nearly nine
in ten of the loops a layout has past the 29 crossings that join 30 words are rectangles, two across
words crossed by the same two down words (6.0 of 7 at 36 crossings, 11.5 of 12 at 41), most of them two
rows apart; no three parallel words of this list take the same crossers (no 3x3 weave), so rectangles
only chain. The better layouts are larger and sparser (box 326 cells at 36 crossings, 347 at 38, 390
at 41; letter cells 0.44 of the box down to 0.35), put more words at their most crossings (18 words
against 13 at 38) and waste fewer letters between crossings (5.5 pairs of crossings three letters
apart against 9.2). A 41 and a 38 share two or three crossings and a handful of words in the same
places: they are unrelated layouts, and the hot half of a run forgets its start (a 41 restarted at
T_START ends at 36 like a 38). Moves built on that, none kept (solar-system, 48-96 pinned seeds from
24, effort 1, against 37.65-37.77): a ladder move (a word placed parallel to another, two or three rows
off, with two or more words crossing both, what is in the way taken out and put back: 37.58-37.71, and
world-capitals 86.0 to 84.8; a ladder cost 2.8 crossings on average and 3% were kept), the same as a
kick before 20-50 plain steps (37.48-37.75) or built from the words a step took out (37.46), and a
charge for crossings three letters apart, in the repair (37.42-37.94) or in the score (37.67-37.85).
A smaller COMPACT helps this list a little (0.25: 37.96 against 37.67 over 192 seeds; 0.1: 38.14, box
+3%), a charge rising over the run no more than that, at the cost of larger boxes elsewhere (english-40's
by 8%, 8 seeds); effort 3 with COMPACT 0.25 gives 38.69.
Nor does spending the faster engine's time on a bigger default budget close the gap. Over 48 pinned
seeds (24-71) solar-system gives 38.2 crossings at effort 2, 38.3 at 3 and 38.8 at 4; 4,000 steps an
answer by default (effort 4's budget, capped at MAX_STEPS) gives `crossword bench`'s three runs 40, 37
and 40, a draw from that spread rather than a better search, at 3.5 times the time (1.1 s; 40 answers
1.6 s). On other lists it buys one to three crossings (8 seeds, effort 1 against 4: twin-peaks in 21x21
48.9 to 50.1, english-40 56.5 to 58.4, world-capitals 86.1 to 87.9, english-80 117.1 to 120.4), and
generated-40's box grows 13% (413 to 467 cells): not kept, as `effort` already lets an author buy them.
Nor spending the whole budget on crossings (48 pinned seeds, 24-71, effort 1; tools/tune_optimize.py
with MAIN_SHARE and COMPACT set): the first box's search with every step (MAIN_SHARE 1.0) gave solar-
system 38.1 in the same box (349 cells) but left twin-peaks-21's answers out 4 times in 48; with no
compaction either, 38.46 (6 layouts of 48 at 40 or 41; 39.38 at effort 4, 11 of 24), and every list
gained about a crossing (world-capitals 86.06 to 87.29, generated-40 51.98 to 52.81, english-40 56.81
to 57.94) in boxes 5 to 10% larger: world-capitals' 815 cells, past freeform's 775 (25x31), where the
box is to be smaller than the other generators'. Compaction only after the first box (its search
uncharged, MAIN_SHARE 0.6 to 0.9) lies on the same line (38.04 to 38.40, boxes 358 to 370). Temperatures
with every step in the first box: T_START 0.6 to 3, T_END 0.08 to 0.3 gave 37.65 to 38.23.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Sequence

from ..model import Entry, Layout, LayoutParams, lone_answers
from . import freeform
from .board import Board
from .grid import ACROSS, DOWN, ORIGIN, STRIDE, Grid, Spot
from .result import grid_to_layout, search_key
from .rng import Rng

try:
    from . import _anneal  # the compiled inner loop (setup.py builds it; `pip install -e .` does)
except ImportError:  # pragma: no cover - a checkout run without building: the same layouts, slower
    _anneal = None
_use_compiled = True  # tests switch it off to compare the two engines

NAME = "optimize"

SLACK = 2  # squares past the size cap the first boxes of a run may use (never the result)
WAY_IN = 8  # a box wider than the cap gets 1/WAY_IN of the budget
MARGIN = 3  # free cells around the cap x cap box in the search's window: the layout may drift that far between re-centrings
MAIN_SHARE = 0.5  # of a run's budget, for the first box
PROBE_SHARE = 0.25  # a smaller box must hold every answer within this share of its steps, or is given up
T_POLISH = 0.6  # starting temperature of the last, cooler search
GREEDY_STARTS = 4  # greedy seeds tried for the starting layout (the best by the search key starts the run)
STEPS_PER_ANSWER = 1000  # LNS steps per answer at effort 1, over all boxes (at least MIN_STEPS, at most MAX_STEPS)
MIN_STEPS = 6000
MAX_STEPS = 160_000
CELLS_PER_ANSWER = 8  # a size x size box holds at most about size**2 / 8 answers (dense layouts use 10 to 12)
LETTER_WEIGHT = 2.0  # score of one placed letter, in crossings
REQUIRED_WEIGHT = 1000.0  # score of one placed required answer
T_START, T_END = 1.5, 0.15  # annealing temperatures, in crossings
NOISE = 0.9  # seeded noise added to a spot's crossings when re-inserting: 0 to NOISE, in 256 steps
NOISE_UNIT = NOISE / 256
GROWTH = 0.3  # charge per square the box grows, when re-inserting
JITTER = 2.0  # letters of length the insertion order may move
RANDOM_MIN, RANDOM_SPAN = 2, 4  # the random move takes out 2 to 5 words
LEAF_MOVES = 0.25  # share of moves that take out words crossing only one other
SOFT = 2  # rows and columns past the box a step may take (never a result's), at a charge
FULL = 0.6  # past this share of the size x size box's cells in answer letters, no step leaves the box (SOFT 0); lint's CROWDED too
OVERFLOW_START, OVERFLOW_END = 0.5, 1000.0  # the charge per row or column past the box, rising over a run
COMPACT = 0.5  # charge per row and column of the letters' bounding box, in crossings (steps only; results by key)
TIGHT = 0.5  # no compaction when the answers' letters exceed this share of the size x size box's cells
RETRY_CAP = 12  # words left out of earlier steps that one step retries, at most (a sample when more)
FULL_SHARE = 0.5  # of the budget, for a list too long for its box (see "Too long for the box")
FALLBACK_SEEDS = 64  # greedy builds tried when the search leaves answers out (see "Full boxes")
FALLBACK_PROBE = 8  # ... of which the first this many decide whether the rest are worth building
FALLBACK_GAP = 0.06  # the rest are not when the builder's best placed this share fewer letters than the search
FALLBACK_WORK = 10_240  # and at most this many answers' builds in all: 64 seeds of 160 answers, 10 of 1,000


Placed = tuple[int, int, int]  # (word id, start cell, direction)


class Search:
    """One working board plus the bookkeeping the LNS needs.

    The board is a window `margin` cells wider than the side x side box on
    every side. Placements come in and go out as `Placed` tuples in `Grid`
    cells; `origin` is the grid (row, col) of the window's top-left cell.
    """

    def __init__(
        self, entries: Sequence[Entry], side: int, rng: Rng, origin: tuple[int, int] = (0, 0), margin: int = 0
    ):
        self.entries = entries
        self.words = [e.answer for e in entries]
        self.required = [e.required for e in entries]
        self.rng = rng
        self.board = Board(side + 2 * margin, side)
        self.side = side  # the box; `loosen` lets steps take a little more
        self.origin = origin
        self.total = 0  # letters placed (a crossing counted twice)
        self.req = 0  # required answers placed
        self.log: list[tuple[bool, int, int, int]] = []  # (put?, word, start, direction) since the step began
        self.floor = 0  # fewest words a kept grid may hold (see `step`)
        self.compact = 0.0  # charge per row and column of the letters' box (see `score`)

    # ------------------------------------------------------------ state
    def to_cell(self, start: int) -> int:
        r, c = divmod(start, STRIDE)
        return self.board.cell(r - self.origin[0], c - self.origin[1])

    def to_start(self, cell: int) -> int:
        r, c = self.board.rowcol(cell)
        return (r + self.origin[0]) * STRIDE + c + self.origin[1]

    def load(self, placed: Sequence[Placed]) -> None:
        """Put grid placements (which must lie inside the window, and agree where they meet) on the board."""
        board = self.board
        for wid, start, d in placed:
            cell, step = self.to_cell(start), board.step[d]
            for j, ch in enumerate(self.words[wid]):  # as the compiled engine checks (its letter lists need it)
                at = cell + j * step
                if board.owner[d][at] != -1 or board.letters[at] not in ("", ch):
                    raise ValueError("run_box: two placements disagree on a cell")
            self.put(wid, cell, d)

    def snapshot(self) -> list[Placed]:
        """The board's placements, in grid cells."""
        return sorted((wid, self.to_start(start), d) for wid, (_, start, d) in self.board.words.items())

    def recenter(self) -> None:
        """Move the words to the middle of the window, when they reach its edge (between steps)."""
        board = self.board
        if not board.words:
            return
        r0, c0, r1, c1 = board.bounds()
        edge = board.side  # window rows and columns are 1..side
        if r0 > 1 and c0 > 1 and r1 < edge and c1 < edge:
            return
        placed = self.snapshot()
        for wid in list(board.words):
            board.remove(wid)
        top, left = self.origin
        self.origin = (
            top + r0 - 1 - (board.side - (r1 - r0 + 1)) // 2,
            left + c0 - 1 - (board.side - (c1 - c0 + 1)) // 2,
        )
        for wid, start, d in placed:
            board.place(wid, self.words[wid], self.to_cell(start), d)

    def put(self, wid: int, start: int, d: int) -> None:
        self.log.append((True, wid, start, d))
        word = self.words[wid]
        self.board.place(wid, word, start, d)
        self.total += len(word)
        self.req += self.required[wid]

    def take(self, wid: int) -> Placed:
        _, start, d = self.board.words[wid]
        self.log.append((False, wid, start, d))
        self.board.remove(wid)
        self.total -= len(self.words[wid])
        self.req -= self.required[wid]
        return wid, start, d

    def take_clean(self, wid: int) -> list[int]:
        """Take `wid` out, and with it any word whose cells it alone kept from forming a stray run.

        When a word ran through the last cell of one crossing word and the
        first cell of the next, those two cells stay side by side once it is
        gone: a run of letters that is no answer. The word holding the second
        of them goes too (and so on, should that expose another pair).
        """
        taken = []
        stack = [wid]
        board = self.board
        letters, owner = board.letters, board.owner
        while stack:
            w = stack.pop()
            if w not in board.words:
                continue
            word, start, d = board.words[w]
            self.take(w)
            taken.append(w)
            step = board.step[d]
            cell, kept_before = start, False
            for _ in word:
                kept = bool(letters[cell])
                if kept and kept_before:
                    stack.append(owner[1 - d][cell])
                kept_before = kept
                cell += step
        return taken

    def strays(self) -> bool:
        """Whether a word taken out this step left two letters side by side that no one word holds.

        Adding words cannot do that (the placement rules), so only the spans
        of the words taken out need a look.
        """
        board = self.board
        letters = board.letters
        for was_put, wid, start, d in self.log:
            if was_put:
                continue
            step = board.step[d]
            own = board.owner[d]
            cell = start
            for _ in range(len(self.words[wid]) - 1):
                nxt = cell + step
                if letters[cell] and letters[nxt]:
                    held = own[cell]
                    if held == -1 or held != own[nxt]:
                        return True
                cell = nxt
        return False

    def mend(self) -> list[int]:
        """Take out words until no stray run is left (after loading a partial layout)."""
        taken = []
        board = self.board
        while pairs := board.orphan_pairs():
            cell, d = pairs[0]
            nxt = cell + board.step[d]
            holder = board.owner[1 - d][nxt]
            taken += self.take_clean(holder if holder != -1 else board.owner[d][nxt])
        return taken

    def undo(self) -> None:
        """Revert every put and take since the log was last cleared."""
        log = self.log
        board = self.board
        while log:
            was_put, wid, start, d = log.pop()
            word = self.words[wid]
            if was_put:
                board.remove(wid)
                self.total -= len(word)
                self.req -= self.required[wid]
            else:
                board.place(wid, word, start, d)
                self.total += len(word)
                self.req += self.required[wid]

    def crossings(self) -> int:
        return self.total - self.board.occ[0].bit_count()

    def loosen(self, soft: int) -> None:
        """Let steps take up to `soft` rows and columns past the box (charged in `score`)."""
        self.board.set_cap(self.side + soft)

    def score(self, charge: float = 0.0) -> float:
        """Required answers, letters and crossings, less `charge` per row and column past the box,
        and `compact` per row and column of the letters' bounding box."""
        score = REQUIRED_WEIGHT * self.req + LETTER_WEIGHT * self.total + self.crossings()
        if charge or self.compact:
            rows, cols = self.board.box()
            over = max(0, rows - self.side) + max(0, cols - self.side)
            score -= charge * over + self.compact * (rows + cols)
        return score

    def key(self) -> tuple:
        """The search key of the current grid, without building a Layout."""
        rows, cols = self.board.box()
        return (self.req, self.total, self.crossings(), -(rows * cols), -max(rows, cols))

    def unplaced(self) -> list[int]:
        return [w for w in range(len(self.words)) if w not in self.board.words]

    # ---------------------------------------------------------- destroy
    def stranded(self) -> list[int]:
        """Words outside the largest connected piece (by cells; ties to the piece with the lowest cell)."""
        board = self.board
        if len(board.words) <= 1:
            return []
        pieces = board.pieces()
        if len(pieces) == 1:
            return []
        main = max(pieces, key=int.bit_count)  # the first of the largest
        return sorted(w for w, (_, start, _) in board.words.items() if not main >> start & 1)

    def pick_leaves(self) -> list[int]:
        leaves = [w for w in sorted(self.board.words) if self.board.crossings_of(w) <= 1]
        self.rng.shuffle(leaves)
        return sorted(leaves[: 2 + self.rng.below(5)])

    def pick_random(self) -> list[int]:
        words = sorted(self.board.words)
        self.rng.shuffle(words)
        return sorted(words[: RANDOM_MIN + self.rng.below(RANDOM_SPAN)])

    # ----------------------------------------------------------- repair
    def insert_order(self, pending: list[int]) -> list[int]:
        rng = self.rng
        keyed = {w: (self.required[w], len(self.words[w]) + rng.random() * JITTER, -w) for w in pending}
        return sorted(pending, key=lambda w: keyed[w], reverse=True)

    def insert(self, wid: int) -> bool:
        board = self.board
        word = self.words[wid]
        if len(word) > self.side:
            return False  # longer than the box: it may never be in a result, so never in a step's layout
        if not board.words:  # len(word) <= self.side <= board.cap: the first word always fits
            side = board.side
            self.put(wid, board.cell(side // 2, (side - len(word)) // 2), ACROSS)
            return True
        spots = board.spots(word)
        if not spots:
            return False
        r0, c0, r1, c1 = board.bounds()
        n = len(word) - 1
        W = board.W
        rng = self.rng
        best = None
        best_score = -math.inf
        bits = 0
        for k, (crossings, start, d) in enumerate(spots):
            if not k & 7:
                bits = rng.next64()  # eight 8-bit noise draws
            sr, sc = divmod(start, W)
            er, ec = (sr, sc + n) if d == ACROSS else (sr + n, sc)
            grow = max(0, r0 - sr) + max(0, er - r1) + max(0, c0 - sc) + max(0, ec - c1)
            s = crossings + NOISE_UNIT * (bits & 255) - GROWTH * grow
            bits >>= 8
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
    def step(self, temperature: float, charge: float = 0.0) -> None:
        """One destroy-and-repair move, kept or undone by the annealing rule."""
        rng = self.rng
        before = self.score(charge)
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
        if len(self.board.words) < self.floor:
            self.undo()  # a lone word, however required, is not a crossword
            return
        delta = self.score(charge) - before
        if delta >= 0 or rng.random() < math.exp(delta / temperature):
            return
        self.undo()


Window = tuple[tuple[int, int], list[Placed]]  # (grid row/col of the window's corner, placements inside it)


def shrink(placed: Sequence[Placed], words: Sequence[str], side: int) -> Window:
    """The best side x side window over `placed` (most letters kept), with the words inside it.

    The window is then centred on what it keeps, so the search has room to
    grow on every side.
    """
    spans = []
    for wid, start, d in placed:
        sr, sc = divmod(start, STRIDE)
        n = len(words[wid]) - 1
        spans.append((wid, start, d, sr, sc, sr + n * d, sc + n * (1 - d)))
    top, left = min(s[3] for s in spans), min(s[4] for s in spans)
    height, width = max(s[3] for s in spans) - top + 1, max(s[4] for s in spans) - left + 1
    # the windows worth trying have their corner at a word's start row and column, or between; a word is
    # inside those whose corner is at most its start and at least its end less side - 1: a rectangle of
    # corners, added up in one pass over a difference table (rather than every word for every corner)
    diff = [[0] * (width + 1) for _ in range(height + 1)]
    for wid, _, _, sr, sc, er, ec in spans:
        r0, c0 = max(top, er - side + 1) - top, max(left, ec - side + 1) - left
        r1, c1 = sr - top + 1, sc - left + 1
        if r0 < r1 and c0 < c1:
            n = len(words[wid])
            diff[r0][c0] += n
            diff[r0][c1] -= n
            diff[r1][c0] -= n
            diff[r1][c1] += n
    best_letters, corner = -1, (top, left)
    above = [0] * (width + 1)
    for i in range(height):
        run = 0
        for j in range(width):
            run += diff[i][j]
            above[j] += run
            if above[j] > best_letters:  # most letters, then the top-most, then the left-most corner
                best_letters, corner = above[j], (top + i, left + j)
    r, c = corner
    best_keep = [
        (wid, start, d) for wid, start, d, sr, sc, er, ec in spans if sr >= r and sc >= c and er < r + side and ec < c + side
    ]
    if not best_keep:
        return (0, 0), []
    r0 = min(divmod(start, STRIDE)[0] for _, start, _ in best_keep)
    c0 = min(divmod(start, STRIDE)[1] for _, start, _ in best_keep)
    r1 = max(divmod(start, STRIDE)[0] + (len(words[w]) - 1) * d for w, start, d in best_keep)
    c1 = max(divmod(start, STRIDE)[1] + (len(words[w]) - 1) * (1 - d) for w, start, d in best_keep)
    return (r0 - (side - (r1 - r0 + 1)) // 2, c0 - (side - (c1 - c0 + 1)) // 2), best_keep


def run_box(
    entries: Sequence[Entry],
    start: Window,
    side: int,
    steps: int,
    rng: Rng,
    *,
    need: tuple = (),
    probe: int = 0,
    t_start: float | None = None,
    compact: float = 0.0,
    soft: int | None = None,
) -> tuple[tuple, list[Placed], int]:
    """Anneal inside a side x side box from `start`: the best (key, placements) met, and the steps used.

    With `need` and `probe`: give up after `probe` steps unless the box has by
    then held a layout whose key starts with `need` (every answer the bigger
    box held), leaving the rest of the steps to the caller. `compact`: the
    charge per row and column of the letters' box (see COMPACT).

    The compiled engine (`_anneal.run_box`) does it when it is built, and
    `run_box_python` otherwise: the same search, step for step, so the same
    layout (tests/test_anneal.py); the compiled one is about 80 times faster.
    """
    if _anneal is None or not _use_compiled:
        return run_box_python(entries, start, side, steps, rng, need=need, probe=probe, t_start=t_start, compact=compact,
                              soft=soft)
    (top, left), placed = start
    codes = _letter_codes(entries)
    if codes is None:
        return run_box_python(entries, start, side, steps, rng, need=need, probe=probe, t_start=t_start, compact=compact,
                              soft=soft)
    settings = (
        LETTER_WEIGHT, REQUIRED_WEIGHT, NOISE_UNIT, GROWTH, JITTER, LEAF_MOVES, OVERFLOW_START, OVERFLOW_END,
        compact, RANDOM_MIN, RANDOM_SPAN, RETRY_CAP, MARGIN, SOFT if soft is None else soft,
    )
    rows = [(wid, *divmod(cell, STRIDE), d) for wid, cell, d in placed]
    key, best, used, rng.state = _anneal.run_box(
        codes, [int(e.required) for e in entries], side + 2 * MARGIN, side, (top - MARGIN, left - MARGIN), rows,
        rng.state, steps, probe, tuple(need) if need else None, T_START if t_start is None else t_start, T_END, settings,
    )
    return key, [(wid, r * STRIDE + c, d) for wid, r, c, d in best], used


def _letter_codes(entries: Sequence[Entry]) -> list[bytes] | None:
    """Each answer as bytes of letter codes 1-255 (by the letters' sorted order), or None past 255 letters."""
    alphabet = sorted({ch for e in entries for ch in e.answer})
    if len(alphabet) > 255:
        return None
    code = {ch: i + 1 for i, ch in enumerate(alphabet)}
    return [bytes(code[ch] for ch in e.answer) for e in entries]


def run_box_python(
    entries: Sequence[Entry],
    start: Window,
    side: int,
    steps: int,
    rng: Rng,
    *,
    need: tuple = (),
    probe: int = 0,
    t_start: float | None = None,
    compact: float = 0.0,
    soft: int | None = None,
) -> tuple[tuple, list[Placed], int]:
    """`run_box` in Python: the reference the compiled engine is held to."""
    (top, left), placed = start
    s = Search(entries, side, rng, (top - MARGIN, left - MARGIN), MARGIN)
    s.compact = compact
    s.load(placed)
    # the start may have lost words (shrinking): no stray runs, and one piece, before anything else
    s.mend()
    for wid in s.stranded():
        s.take(wid)
    s.repair(s.unplaced())
    s.floor = min(2, len(s.board.words))
    best_key, best = s.key(), s.snapshot()
    soft = SOFT if soft is None else soft  # read at call time, as T_START below
    if soft:
        s.loosen(soft)
    t_start = T_START if t_start is None else t_start  # read at call time, so tools/tune_optimize.py can set it
    t_ratio = T_END / t_start
    o_ratio = OVERFLOW_END / OVERFLOW_START
    for i in range(steps):
        if i == probe and need and best_key[: len(need)] < need:
            return best_key, best, i
        s.step(t_start * t_ratio ** (i / steps), OVERFLOW_START * o_ratio ** (i / steps) if soft else 0.0)
        if MARGIN:
            s.recenter()
        key = s.key()
        if key > best_key and -key[4] <= side:
            best_key, best = key, s.snapshot()
    return best_key, best, steps


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
    """The step budget at effort 1: 1,000 an answer, between MIN_STEPS and MAX_STEPS.

    Measured with tools/tune_optimize.py (6 seeds of 6 lists, total
    crossings): 2,000 steps at most gave 2,226; 20,000 gave 2,349 (+5.5%);
    40,000 gave 2,384 (+7.1%); 80,000 only 2,397. 40,000 steps take
    the compiled engine about 0.7 s for a 40-answer list on one core.

    Longer lists need as many steps an answer: each step moves a few words,
    so at 40,000 steps a word of a 160-answer list is moved a quarter as
    often as one of a 40-answer list. Raising MAX_STEPS from 40,000 to
    160,000 (the 8 lists of the compaction figures above, 6 seeds) took the
    total from 4,006 to 4,061 crossings: generated-160 from 220.8 to 226.0
    (in 1,688 cells against 1,740), english-80 from 114.5 to 117.2,
    world-capitals from 84.7 to 86.0; lists of 40 answers or fewer are
    unchanged. It costs time on long lists only: about 6 s for 160 answers.
    """
    return max(MIN_STEPS, min(MAX_STEPS, STEPS_PER_ANSWER * answers))


def improve(
    entries: Sequence[Entry], greedy: Layout, cap: int, budget: int, compact: float = 0.0, soft: int | None = None
) -> tuple[tuple, list[Placed]]:
    """One run: anneal from a greedy layout, then in ever smaller boxes; the best (key, placements) in the cap.

    A greedy layout wider than the cap (see `search`) first comes down to it
    in short searches, an eighth of the budget a box, whatever they drop on
    the way; only layouts inside the cap are ever kept. `compact` is every
    search's charge per row and column of the letters' box (COMPACT where
    there is room, see `search`), `soft` the rows and columns past the box
    a step may take (none for a list too long for its box, see `search`).
    """
    words = [e.answer for e in entries]
    rng = Rng(greedy.seed)
    side = max(greedy.rows, greedy.cols)
    if side < cap and any(len(e.answer) <= cap for e in greedy.unplaced):
        # the start left answers out: its own square may be what kept them out, so search the whole cap
        side = cap
    start = shrink(from_layout(greedy, entries), words, side)
    while side > cap:
        steps = budget // WAY_IN
        budget -= steps
        key, placed, _ = run_box(entries, start, side, steps, rng, compact=compact, soft=soft)
        side = max(1, min(side - 1, -key[4]))
        start = shrink(placed, words, side)
    # first inside the start's own square
    steps = int(budget * MAIN_SHARE)
    best_key, best, _ = run_box(entries, start, side, steps, rng, compact=compact, soft=soft)
    budget -= steps
    # box descent: one square less a side than the best so far, from the best so far, for as long as
    # the smaller box holds every answer the bigger one did (given up early when it does not)
    side = -best_key[4] - 1
    while side >= 1 and budget > 0:
        steps = max(1, budget // 2)
        key, placed, used = run_box(
            entries, shrink(best, words, side), side, steps, rng, need=best_key[:2], probe=int(steps * PROBE_SHARE),
            compact=compact, soft=soft,
        )
        budget -= used
        if key[:2] < best_key[:2] or len(placed) < min(2, len(best)):
            break  # the smaller box lost answers (or kept a lone word, see `search`): stop shrinking
        if key > best_key:
            best_key, best = key, placed
        side = min(side, -key[4]) - 1
    if budget > 0:
        # the steps a smaller box did not use: a cooler search inside the best box, from the best layout
        side = -best_key[4]
        key, placed, _ = run_box(
            entries, shrink(best, words, side), side, budget, rng, t_start=T_POLISH, compact=compact, soft=soft
        )
        if (len(placed) > 1, key) > (len(best) > 1, best_key):
            best_key, best = key, placed
    return best_key, best


def search(entries: Sequence[Entry], params: LayoutParams) -> Layout:
    """The best layout the search finds, by the search key. A higher `effort` never gives a worse one than
    effort 1: a longer run takes another path, and on a list longer than its box it could end with fewer
    letters (20 answers of 16 to 18 letters at size 23: 16 placed at effort 1, 15 at 3 and at 10), so the
    effort-1 run goes too (at effort 4 about a third more time) and its layout is taken when it is better."""
    layout = _search(entries, params)
    if params.effort > 1:
        floor = _search(entries, replace(params, effort=1))
        if (len(floor.placements) > 1, search_key(floor)) > (len(layout.placements) > 1, search_key(layout)):
            return replace(floor, params=params)
    return layout


def fallback(entries: Sequence[Entry], params: LayoutParams, key: tuple, crossword: bool = True) -> Layout:
    """The builder's best over up to FALLBACK_SEEDS seeds (as `freeform.search`), against the search's `key`.

    Past FALLBACK_PROBE seeds it stops when its best is FALLBACK_GAP short of the search's letters (with
    as many required answers): from 8 seeds to 64 the builder's best gained 2.4 to 4.8% (lists of 60 to
    300 answers at sizes 23 to 60). A long list gets fewer seeds (FALLBACK_WORK): each of its builds is
    slow in a big grid, and the search holds more (64 builds of 400 answers at size 60 took 6 s, of 1,000
    answers 26 s, and placed 7% and 5% fewer letters than the search). Not when the search's layout is
    one word (`crossword` False): any layout of two words beats it, whatever its letters.
    """
    enough = (key[0], key[1] - int(FALLBACK_GAP * key[1]))
    seeds = min(params.seeds, FALLBACK_SEEDS, max(FALLBACK_PROBE, FALLBACK_WORK // max(1, len(entries))))
    return freeform.search(entries, replace(params, seeds=seeds),
                           give_up=lambda seed, best: seed == FALLBACK_PROBE and crossword and best[:2] < enough)


def _search(entries: Sequence[Entry], params: LayoutParams) -> Layout:
    entries = tuple(entries)
    if not entries:
        return grid_to_layout(Grid(params.size), entries, seed=params.seed or 0, strategy=NAME, params=params)
    base = params.seed if params.seed is not None else 0
    starts = 1 if params.seed is not None else max(1, min(params.seeds, GREEDY_STARTS))
    greedy = max(
        (freeform.build_seed(entries, seed, params) for seed in range(base, base + starts)),
        key=lambda layout: (search_key(layout), -layout.seed),
    )
    if not greedy.placements:
        return replace(greedy, strategy=NAME)  # no answer fits the size at all
    letters = sum(len(e.answer) for e in entries if len(e.answer) <= params.size)
    # the letters of answers that can cross another (one that shares no letter never goes in)
    lone = {id(e) for e in lone_answers(entries)}
    crossable = sum(len(e.answer) for e in entries if len(e.answer) <= params.size and id(e) not in lone)
    # steps move the words on the board: a list far longer than the box can hold is budgeted for what it holds
    budget = steps_for(min(len(entries), params.size**2 // CELLS_PER_ANSWER)) * max(1, params.effort)
    # compaction where there is room; where the answers' letters would fill more than TIGHT of the box,
    # the size itself is the constraint, and a charge for the box would only fight it
    roomy = letters <= TIGHT * params.size**2
    # a list too long for its box searches inside it: outside, the extra room holds more letters than any
    # charge for it outweighs until the last steps (see "Too long for the box")
    full = letters > FULL * params.size**2
    soft = 0 if full else SOFT
    budget = int(budget * (FULL_SHARE if full else 1))
    key, placed = improve(entries, greedy, params.size, budget, COMPACT if roomy else 0.0, soft)
    if key[1] < letters and not full:
        # a tight cap: a greedy layout a little wider may hold every answer, and come down to the cap
        loose = freeform.build_seed(entries, greedy.seed, replace(params, size=params.size + SLACK))
        wide_key, wide = improve(entries, loose, params.size, budget, soft=soft)
        # as inside a run, a grid of one word (however required) never beats a crossword
        if (len(wide) > 1, wide_key) > (len(placed) > 1, key):
            key, placed = wide_key, wide
    if key[1] < crossable and params.seed is None:
        # answers still left out: the builder over more seeds may hold more of them (see "Full boxes")
        built = fallback(entries, params, key, crossword=len(placed) > 1)
        if (len(built.placements) > 1, search_key(built)) > (len(placed) > 1, key):
            return replace(built, strategy=NAME)
    if len(placed) < 2 <= len(greedy.placements):
        # a grid of one word is a crossword only when no two answers cross: a required answer that
        # crosses nothing must come out missing (a LayoutError names it), not alone in the grid
        return replace(greedy, strategy=NAME)
    grid = to_grid(entries, placed, params.size)
    if grid.orphan_pairs():  # never expected; a stray run would break the one-run-one-answer rule
        return greedy
    return grid_to_layout(grid, entries, seed=greedy.seed, strategy=NAME, params=params)
