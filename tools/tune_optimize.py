"""Compare settings of the optimize strategy over several seeds: the figures behind its constants.

    .venv/bin/python tools/tune_optimize.py [--seeds 4] [--offset 0] [--effort 1] [--only LIST,...] [NAME=VALUE ...]

Lays out our puzzles (twin-peaks, solar-system, world-capitals, and twin-peaks again in 21x21), lists of 40 and 80 real English
words (those of tools/measure_layout.py) and, with --only, the generated lists of `crossword bench`
(generated-40, -80 and -160, at its size caps 25, 35 and 50), with seeds offset..offset+N-1 pinned, one layout each, after
setting each NAME=VALUE on site_builder.layout.optimize (for instance T_START=1.0 GROWTH=0.6). Prints
the total crossings, the mean crossings / box area per list and the CPU seconds per seed. One seed's
layout varies by two or three crossings, so compare totals over at least 4 seeds, and the same seeds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from measure_layout import english  # noqa: E402

from site_builder.bench import corpus  # noqa: E402
from site_builder.layout import layout_entries, optimize  # noqa: E402
from site_builder.model import LayoutParams  # noqa: E402
from site_builder.source import read_puzzle  # noqa: E402


def lists() -> list[tuple[str, tuple, int]]:
    out = []
    for name in ("twin-peaks", "solar-system", "world-capitals"):
        p = read_puzzle(ROOT / "tests" / "fixtures" / "puzzles" / f"{name}.txt")
        out.append((name, p.entries, 23 if name == "twin-peaks" else p.meta.size))  # twin-peaks: seeds/000's size
    out.append(("twin-peaks-21", out[0][1], 21))  # the size the puzzle asks for now, issue 10's target box
    out += [("english-40", english(40), 29), ("english-80", english(80), 35)]
    return out


def bench_lists() -> list[tuple[str, tuple, int]]:
    """The generated lists of `crossword bench`, at its size caps (only with --only)."""
    return [item for item in corpus(ROOT, (40, 80, 160)) if item[0].startswith("generated-")]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--offset", type=int, default=0)
    ap.add_argument("--effort", type=int, default=1)
    ap.add_argument("--only", default="", help="comma-separated list names (default: the six above)")
    ap.add_argument("settings", nargs="*", help="NAME=VALUE constants of site_builder.layout.optimize")
    args = ap.parse_args()
    for item in args.settings:
        name, _, value = item.partition("=")
        if not hasattr(optimize, name):
            ap.error(f"optimize has no {name}")
        setattr(optimize, name, type(getattr(optimize, name))(float(value)))
    total, missing, parts = 0, 0, []
    t0 = time.process_time()
    chosen = lists()
    if args.only:
        wanted = args.only.split(",")
        known = {item[0]: item for item in chosen + bench_lists()}
        unknown = [w for w in wanted if w not in known]
        if unknown:
            ap.error(f"unknown list {', '.join(unknown)}; choose from {', '.join(known)}")
        chosen = [known[w] for w in wanted]
    for name, entries, size in chosen:
        crossings, areas = [], []
        for seed in range(args.offset, args.offset + args.seeds):
            layout = layout_entries(entries, LayoutParams(size=size, strategy="optimize", effort=args.effort, seed=seed))
            missing += len(layout.unplaced)
            crossings.append(layout.crossings)
            areas.append(layout.rows * layout.cols)
        total += sum(crossings)
        parts.append(f"{name} {statistics.mean(crossings):.1f}/{statistics.mean(areas):.0f}")
    seconds = (time.process_time() - t0) / args.seeds
    label = " ".join(args.settings) or "defaults"
    print(f"{label}: total {total} crossings, {missing} answers left out | {' | '.join(parts)} | {seconds:.1f} s a seed")


if __name__ == "__main__":
    main()
