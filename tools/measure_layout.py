"""Before/after figures for the layout strategies: placed, crossings, grid, % checked, time.

    .venv/bin/python tools/measure_layout.py [--strategies freeform,optimize] [--effort 1] [--lists tp,w40,w80,w160]

Lists: tests/fixtures/puzzles/twin-peaks.txt (cap 23) and lists of 40, 80 and 160 real English words
(wordfreq's English list, 3-12 letters, picked by our Rng; cap 29, 35, 50). Falls back to
site_builder.bench.generated_entries when wordfreq is not installed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from site_builder.layout import layout_entries  # noqa: E402
from site_builder.layout.rng import Rng  # noqa: E402
from site_builder.model import Entry, LayoutParams  # noqa: E402
from site_builder.source import read_puzzle  # noqa: E402

CAPS = {40: 29, 80: 35, 160: 50}


def english(count: int, seed: int = 1) -> tuple[Entry, ...]:
    try:
        from wordfreq import top_n_list
    except ImportError:
        from site_builder.bench import generated_entries

        return generated_entries(count, seed)
    pool = [w.upper() for w in top_n_list("en", 30000) if w.isascii() and w.isalpha() and 3 <= len(w) <= 12]
    pool = sorted(set(pool))
    rng = Rng(seed)
    rng.shuffle(pool)
    return tuple(Entry(w, f"word {i}", line=i + 1) for i, w in enumerate(pool[:count]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--strategies", default="freeform,optimize")
    ap.add_argument("--effort", type=int, default=1)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--lists", default="tp,w40,w80,w160")
    args = ap.parse_args()
    lists = []
    for name in args.lists.split(","):
        if name == "tp":
            p = read_puzzle(ROOT / "tests" / "fixtures" / "puzzles" / "twin-peaks.txt")
            lists.append(("twin-peaks", p.entries, 23))  # seeds/000's size (the puzzle now asks for 21)
        else:
            n = int(name[1:])
            lists.append((f"english-{n}", english(n), CAPS.get(n, 23)))
    print("| list | strategy | placed | crossings | grid | % checked | time s |")
    print("|---|---|---|---|---|---|---|")
    for name, entries, cap in lists:
        for strategy in args.strategies.split(","):
            params = LayoutParams(size=cap, strategy=strategy, effort=args.effort, seed=args.seed)
            t0 = time.process_time()
            L = layout_entries(entries, params)
            dt = time.process_time() - t0
            print(
                f"| {name} | {strategy} | {len(L.placements)}/{len(entries)} | {L.crossings} | {L.cols}x{L.rows} "
                f"| {L.checked_percent:.1f} | {dt:.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
