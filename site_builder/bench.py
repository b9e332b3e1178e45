"""`make bench`: time the layout search and report the quality of its grids.

Lists: the project's puzzles, plus generated lists of 80 and 160 answers
(pronounceable pseudo-words drawn from English letter frequencies by our own
seeded PRNG, so every machine measures the same lists).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .layout import layout_entries
from .layout.rng import Rng
from .model import Entry, LayoutParams
from .source import read_puzzle

CONSONANTS = "TNSRHLDCMFPGWYBVKXJQZ"
C_WEIGHTS = [91, 67, 63, 60, 61, 40, 43, 28, 24, 22, 19, 20, 24, 20, 15, 10, 8, 2, 2, 1, 1]
VOWELS = "EAOIU"
V_WEIGHTS = [127, 82, 75, 70, 28]


def _pick(rng: Rng, letters: str, weights: list[int]) -> str:
    x = rng.below(sum(weights))
    for ch, w in zip(letters, weights):
        if x < w:
            return ch
        x -= w
    return letters[-1]


def generated_entries(count: int, seed: int = 1) -> tuple[Entry, ...]:
    """`count` distinct pseudo-words of 3 to 12 letters, longer ones rarer."""
    rng = Rng(seed)
    words: list[str] = []
    seen = set()
    while len(words) < count:
        n = 3 + min(rng.below(6), rng.below(10))
        w = "".join(
            _pick(rng, VOWELS, V_WEIGHTS) if (i % 2 == 1) != (rng.below(5) == 0) else _pick(rng, CONSONANTS, C_WEIGHTS)
            for i in range(n)
        )
        if w not in seen:
            seen.add(w)
            words.append(w)
    return tuple(Entry(w, f"generated {i}", line=i + 1) for i, w in enumerate(words))


def corpus(root: Path) -> list[tuple[str, tuple[Entry, ...], int]]:
    """(name, entries, size cap) for every list the benchmark runs."""
    out = []
    for path in sorted((root / "puzzles").glob("*.txt")):
        p = read_puzzle(path)
        out.append((p.slug, p.entries, p.meta.size))
    out.append(("generated-80", generated_entries(80), 35))
    out.append(("generated-160", generated_entries(160), 50))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="crossword bench", description=__doc__)
    ap.add_argument("--root", default=".", help="project folder (with puzzles/)")
    ap.add_argument("--seeds", type=int, default=200)
    args = ap.parse_args(argv)
    rows = []
    print(f"{'list':<16} {'answers':>7} {'placed':>7} {'letters':>7} {'cross':>6} {'grid':>7} {'%chk':>5} {'time s':>7}")
    for name, entries, size in corpus(Path(args.root)):
        t0 = time.perf_counter()
        layout = layout_entries(entries, LayoutParams(size=size, seeds=args.seeds))
        dt = time.perf_counter() - t0
        rows.append((name, layout, dt))
        print(
            f"{name:<16} {len(entries):>7} {len(layout.placements):>7} {layout.letter_cells:>7} {layout.crossings:>6} "
            f"{f'{layout.cols}x{layout.rows}':>7} {layout.checked_percent:>5.1f} {dt:>7.2f}"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
