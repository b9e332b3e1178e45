"""`crossword bench` / `make bench`: every layout strategy on the same lists, measured alike.

Corpus: the project's puzzles, plus generated lists of 10, 40, 80 and 160
answers (real English words from the fill dictionary, 3 to 8 letters,
drawn by our own seeded PRNG, so every machine measures the same lists).

Strategies: every name in `layout.STRATEGIES` when the benchmark runs (a
strategy registered later is picked up without touching this file), plus,
when they can be installed, the npm packages crossword-layout-generator and
crossword-generator-x, run by `bench_js/run.js` on the same lists (installed
on demand with npm into `.cache/bench/`; skipped with a message when node,
npm or the registry is not there). Their grids are checked strictly (letters
agree, every run of letters is one of their answers, one connected piece);
an invalid grid is counted and reported. Likewise PyPI genxword (GPL, so
never a dependency of this project): installed on demand with pip, without
its GTK dependencies, into `.cache/bench/py/`, and run by
`bench_genxword.py` in a subprocess with stub modules for gi and cairo. It
needs its grid size up front: it gets the list's size cap (the puzzle's
`size`, or SIZE_CAP for a generated list), a time budget of
GENXWORD_SECONDS per run, and `random.seed(run)`.

The metrics of seeds/004. A *run* is one search of 16 attempts: our
strategies get `seeds=16` (attempts use seeds 0..15; `--attempts N` sets
another number, such as the builder's own default of 200). The 3 runs of a list
differ in the order of its entries: run 0 keeps the file order, run i > 0
shuffles it with Rng(i); the layout depends on the order, so this measures
how steady a strategy is, and a strategy cannot tune itself to one order.
The third-party generators get the same 3 orders; the npm ones draw their
own random numbers, genxword is seeded with the run number.

- best x / avg x: the most crossings of the 3 runs, and their mean;
- placed: the most answers placed in a run, of the input (fill not counted);
- grid: the best run's box, width x height;
- compact: bounding-box area per placed word (fill included), best run;
- frags: two-letter runs that are no word, best run; fill: fill words, best run;
- letters: letter cells of the best run; % chk: its share of checked cells;
- time: seconds per run, the mean of the 3.

The best run is the one with the most answers placed, then the most crossings.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from .layout import STRATEGIES, layout_entries
from .layout.adjacency import compactness, fragments
from .layout.result import number_placements
from .layout.rng import Rng
from .model import Direction, Entry, Layout, LayoutParams, Placement
from .source import read_puzzle

RUNS = 3
ATTEMPTS = 16
SIZES = (10, 40, 80, 160)
QUICK_SIZES = (10, 40)
SIZE_CAP = {10: 15, 40: 25, 80: 35, 160: 50}
EXTERNAL = ("crossword-layout-generator", "crossword-generator-x")
CACHE = Path(".cache/bench")
RUNNER = Path(__file__).resolve().parent / "bench_js" / "run.js"
GENXWORD = "genxword==2.2.0"
GENXWORD_SECONDS = 1.0
PY_RUNNER = Path(__file__).resolve().parent / "bench_genxword.py"


def generated_entries(count: int, seed: int = 1) -> tuple[Entry, ...]:
    """`count` distinct real words from the fill dictionary's 6000 most frequent, picked by Rng(seed)."""
    from .layout import dictionary

    pool = list(dictionary.load().words[:6000])
    rng = Rng(seed)
    words = []
    for _ in range(count):
        words.append(pool.pop(rng.below(len(pool))))
    return tuple(Entry(w, f"generated {i + 1}", line=i + 1) for i, w in enumerate(words))


def corpus(root: Path, sizes=SIZES) -> list[tuple[str, tuple[Entry, ...], int]]:
    """(name, entries, size cap) for every list the benchmark runs."""
    out = []
    for path in sorted((root / "puzzles").glob("*.txt")):
        p = read_puzzle(path)
        out.append((p.slug, p.entries, p.meta.size))
    for n in sizes:
        out.append((f"generated-{n}", generated_entries(n), SIZE_CAP.get(n, 50)))
    return out


def run_order(entries: tuple[Entry, ...], run: int) -> tuple[Entry, ...]:
    if run == 0:
        return entries
    order = list(entries)
    Rng(run).shuffle(order)
    return tuple(order)


@dataclass
class Row:
    list: str
    strategy: str
    answers: int
    best_crossings: int
    avg_crossings: float
    placed: int
    grid: str  # the best layout's box, width x height
    compactness: float
    fragments: int
    fill: int
    letters: int
    checked_percent: float
    seconds: float
    invalid_runs: int = 0


def measure(name: str, strategy: str, entries: tuple[Entry, ...], layouts: list[Layout], seconds: list[float], invalid=0) -> Row:
    def user_placed(lay: Layout) -> int:
        return sum(1 for p in lay.placements if not p.entry.fill)

    best = max(layouts, key=lambda lay: (user_placed(lay), lay.crossings))
    cross = [lay.crossings for lay in layouts]
    return Row(
        list=name,
        strategy=strategy,
        answers=len(entries),
        best_crossings=max(cross),
        avg_crossings=round(sum(cross) / len(cross), 1),
        placed=max(user_placed(lay) for lay in layouts),
        grid=f"{best.cols}x{best.rows}",
        compactness=round(compactness(best), 2),
        fragments=len(fragments(best)),
        fill=len(best.fill_words),
        letters=best.letter_cells,
        checked_percent=round(best.checked_percent, 1),
        seconds=round(sum(seconds) / len(seconds), 2),
        invalid_runs=invalid,
    )


# -------------------------------------------------------------- external


def external_ready(log) -> list[str]:
    """Labels ("npm:NAME", "pypi:genxword") of the third-party generators that can run."""
    return [f"npm:{p}" for p in npm_ready(log)] + (["pypi:genxword"] if genxword_ready(log) else [])


def npm_ready(log) -> list[str]:
    """The npm generators that can run, installing them into .cache/bench/ if needed."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node:
        log("npm generators: skipped (node is not installed)")
        return []
    missing = [p for p in EXTERNAL if not (CACHE / "node_modules" / p / "package.json").exists()]
    if missing:
        if not npm:
            log("npm generators: skipped (npm is not installed)")
            return []
        CACHE.mkdir(parents=True, exist_ok=True)
        log(f"installing {', '.join(missing)} into {CACHE}/ ...")
        try:
            subprocess.run(
                [npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(CACHE), *missing],
                check=True, capture_output=True, timeout=300,
            )
        except (subprocess.SubprocessError, OSError) as exc:
            log(f"npm generators: could not install ({type(exc).__name__}); going on without them")
    ready = [p for p in EXTERNAL if (CACHE / "node_modules" / p / "package.json").exists()]
    for p in EXTERNAL:
        if p not in ready:
            log(f"external generator {p}: not available, skipped")
    return ready


def genxword_ready(log) -> bool:
    """Whether genxword can run, installing it into .cache/bench/py/ if needed."""
    target = CACHE / "py"
    if not (target / "genxword" / "calculate.py").exists():
        log(f"installing {GENXWORD} into {target}/ ...")
        try:
            target.mkdir(parents=True, exist_ok=True)
            subprocess.run(
                [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                 "--no-deps", "--no-compile", "--upgrade", "--target", str(target), GENXWORD],
                check=True, capture_output=True, timeout=300,
            )
        except (subprocess.SubprocessError, OSError) as exc:
            log(f"external generator genxword: could not install ({type(exc).__name__}); going on without it")
            return False
    if not (target / "genxword" / "calculate.py").exists():
        log("external generator genxword: not available, skipped")
        return False
    return True


def external_layout(label: str, entries: tuple[Entry, ...], size: int = 50, run: int = 0) -> tuple[Layout | None, float, str]:
    """Run one generator ("npm:NAME" or "pypi:genxword"); (layout or None when its grid is invalid, seconds, problem)."""
    if label == "pypi:genxword":
        return genxword_run(entries, size, run)
    pkg = label.removeprefix("npm:")
    words = [{"answer": e.answer, "clue": e.clue} for e in entries]
    proc = subprocess.run(
        ["node", str(RUNNER), str(CACHE.resolve()), pkg],
        input=json.dumps(words), capture_output=True, text=True, timeout=600, check=True,
    )
    out = json.loads(proc.stdout)
    layout, problem = to_layout(out["layout"], entries)
    return layout, out["ms"] / 1000.0, problem


def genxword_run(entries: tuple[Entry, ...], size: int, run: int) -> tuple[Layout | None, float, str]:
    """One genxword run on a size x size grid; (layout or None when its grid is invalid, seconds, problem)."""
    job = {
        "words": [[e.answer, e.clue] for e in entries],
        "rows": size,
        "cols": size,
        "seconds": GENXWORD_SECONDS,
        "seed": run,
    }
    proc = subprocess.run(
        [sys.executable, "-I", str(PY_RUNNER), str((CACHE / "py").resolve())],
        input=json.dumps(job), capture_output=True, text=True, timeout=600, check=True,
    )
    out = json.loads(proc.stdout)
    layout, problem = genxword_layout(out["placed"], entries)
    return layout, out["ms"] / 1000.0, problem


def to_layout(data: dict, entries: tuple[Entry, ...]) -> tuple[Layout | None, str]:
    """An npm generator's output as our Layout, checked strictly; (None, why) when the grid is invalid."""
    placed = []
    for item in data.get("result", []):
        if item.get("orientation") not in ("across", "down"):
            continue
        r, c = int(item["starty"]) - 1, int(item["startx"]) - 1
        placed.append((str(item["answer"]), r, c, Direction(item["orientation"])))
    return checked_layout(placed, entries)


def genxword_layout(placed: list, entries: tuple[Entry, ...]) -> tuple[Layout | None, str]:
    """genxword's best word list ([answer, row, col, vertical], 0-based) as our Layout, checked strictly."""
    return checked_layout(
        [(str(w), int(r), int(c), Direction.DOWN if v else Direction.ACROSS) for w, r, c, v in placed], entries
    )


def checked_layout(placed: list[tuple[str, int, int, Direction]], entries: tuple[Entry, ...]) -> tuple[Layout | None, str]:
    """(answer, row, col, direction) placements as our Layout, or (None, why) when they break our rules.

    The rules: the letters agree where answers cross, every run of two or
    more letters is exactly one placed answer (no stray pairs, no answer
    inside a longer run), and the grid is one connected piece.
    """
    by_answer = {e.answer: e for e in entries}
    raw = []
    cells: dict[tuple[int, int], str] = {}
    for word, r, c, d in placed:
        answer = word.upper()
        p = Placement(by_answer.get(answer, Entry(answer, "")), r, c, d)
        for cell, ch in zip(p.cells(), answer):
            if cells.setdefault(cell, ch) != ch:
                return None, f"letters disagree at {cell}"
        raw.append(p)
    if not raw:
        return None, "nothing placed"
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    shifted = [Placement(p.entry, p.row - r0, p.col - c0, p.direction) for p in raw]
    rows = max(r for r, _ in cells) - r0 + 1
    cols = max(c for _, c in cells) - c0 + 1
    placed = {p.entry.answer for p in shifted}
    unplaced = tuple(e for e in entries if e.answer not in placed)
    layout = Layout(number_placements(shifted), unplaced, rows, cols, 0, "external")
    runs = fragments(layout)
    if runs:
        return None, f"{len(runs)} run(s) of letters that are no answer, e.g. {runs[0][3]}"
    for p in layout.placements:
        dr, dc = (0, 1) if p.direction is Direction.ACROSS else (1, 0)
        before, after = (p.row - dr, p.col - dc), (p.row + dr * len(p.entry.answer), p.col + dc * len(p.entry.answer))
        if before in layout.cells or after in layout.cells:
            return None, f"{p.entry.answer} is part of a longer run of letters"
    starts = [(p.row, p.col, p.direction) for p in layout.placements]
    if len(set(starts)) != len(starts):
        return None, "two answers in the same cells"
    if not _connected(layout):
        return None, "the grid is in more than one piece"
    return layout, ""


def _failure(exc: Exception) -> str:
    """What went wrong in a generator's process, in one line."""
    lines = (getattr(exc, "stderr", "") or "").strip().splitlines()
    return f"{type(exc).__name__}: {lines[-1][:120]}" if lines else type(exc).__name__


def _connected(layout: Layout) -> bool:
    cells = set(layout.cells)
    if not cells:
        return True
    start = min(cells)
    seen, stack = {start}, [start]
    while stack:
        r, c = stack.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(cells)


# ------------------------------------------------------------------ table

COLUMNS = (
    ("list", "list", 14, "s"),
    ("strategy", "strategy", 32, "s"),
    ("answers", "in", 4, "d"),
    ("best_crossings", "best x", 6, "d"),
    ("avg_crossings", "avg x", 6, ".1f"),
    ("placed", "placed", 7, "s"),
    ("grid", "grid", 5, "s"),
    ("compactness", "compact", 7, ".2f"),
    ("fragments", "frags", 5, "d"),
    ("fill", "fill", 4, "d"),
    ("letters", "letters", 7, "d"),
    ("checked_percent", "% chk", 5, ".1f"),
    ("seconds", "time s", 7, ".2f"),
)


def format_row(row: Row) -> str:
    out = []
    for key, _title, width, fmt in COLUMNS:
        v = getattr(row, key)
        if key == "placed":
            v = f"{row.placed}/{row.answers}"
        text = format(v, fmt)
        out.append(text.ljust(width) if fmt == "s" else text.rjust(width))
    line = " ".join(out)
    if row.invalid_runs:
        line += f"  ({row.invalid_runs} invalid grid(s) left out)"
    return line


def header() -> str:
    return " ".join(t.ljust(w) if f == "s" else t.rjust(w) for _k, t, w, f in COLUMNS)


# the Markdown table has room for whole words (the README's table is this one)
MARKDOWN_TITLES = {"answers": "answers", "letters": "letter cells", "checked_percent": "% checked", "seconds": "s per run"}


def markdown(rows: list[Row]) -> str:
    head = "| " + " | ".join(MARKDOWN_TITLES.get(k, t) for k, t, _w, _f in COLUMNS) + " |"
    sep = "|" + "|".join("---" for _ in COLUMNS) + "|"
    body = [
        "| " + " | ".join(
            f"{r.placed}/{r.answers}" if k == "placed" else format(getattr(r, k), f) for k, _t, _w, f in COLUMNS
        ) + " |"
        for r in rows
    ]
    return "\n".join([head, sep, *body])


# ------------------------------------------------------------------- main


def add_arguments(ap: argparse.ArgumentParser) -> None:
    from .cli import given

    ap.add_argument("--root", default=".", type=given, help="project folder (with puzzles/)")
    ap.add_argument("--quick", action="store_true", help="only the project's puzzles and the lists of 10 and 40, one run each")
    ap.add_argument("--strategies", type=given, metavar="A,B", help="only these strategies (default: every registered one)")
    ap.add_argument("--no-external", action="store_true", help="do not run the third-party generators (npm, PyPI)")
    ap.add_argument("--attempts", type=_attempts, default=ATTEMPTS, metavar="N",
                    help=f"seeds a run of our strategies tries (default {ATTEMPTS}, seeds/004's; the builder's own default is 200)")
    ap.add_argument("--json", type=given, metavar="PATH", help="also write the figures as JSON to PATH")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown too")


def _attempts(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; give 1 to 100000") from None
    if not 1 <= n <= 100_000:
        raise argparse.ArgumentTypeError(f"{n} is out of range; give 1 to 100000")
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="crossword bench", description="Run every layout strategy on the same lists and compare them.")
    add_arguments(ap)
    return run(ap.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    """The benchmark; exit status 0, or 2 for an unknown strategy name."""
    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    names = sorted(STRATEGIES)
    if args.strategies:
        wanted = [s.strip() for s in args.strategies.split(",") if s.strip()]
        unknown = [s for s in wanted if s not in STRATEGIES]
        if unknown:
            log(f"error: unknown strategy {', '.join(unknown)}; choose from {', '.join(names)}")
            return 2
        names = wanted
    if args.json and (Path(args.json).is_dir() or not Path(args.json).name or args.json.endswith(("/", os.sep))):
        # said now, not after the minutes the benchmark takes
        log(f"{args.json}: error: --json names a folder; name a file for the figures, such as build/bench.json")
        return 2
    runs = 1 if args.quick else RUNS
    lists = corpus(Path(args.root), QUICK_SIZES if args.quick else SIZES)
    external = [] if args.no_external else external_ready(log)
    if not external and not args.no_external:
        log("no external generators: the table shows this project's strategies only")

    from .layout import dictionary

    dictionary.load()  # built once per process: keep it out of the first timing
    rows: list[Row] = []
    print(header(), flush=True)
    for list_name, entries, size in lists:
        for name in names:
            layouts, secs = [], []
            for i in range(runs):
                ordered = run_order(entries, i)
                t0 = time.perf_counter()
                layouts.append(layout_entries(ordered, LayoutParams(size=size, seeds=args.attempts, strategy=name)))
                secs.append(time.perf_counter() - t0)
            rows.append(measure(list_name, name, entries, layouts, secs))
            print(format_row(rows[-1]), flush=True)
        for pkg in external:
            layouts, secs, bad, why = [], [], 0, ""
            for i in range(runs):
                try:
                    lay, sec, problem = external_layout(pkg, run_order(entries, i), size, i)
                except (subprocess.SubprocessError, OSError, ValueError, KeyError) as exc:
                    lay, sec, problem = None, 0.0, f"failed: {_failure(exc)}"
                if lay is None:
                    bad += 1
                    why = problem
                else:
                    layouts.append(lay)
                    secs.append(sec)
            if layouts:
                rows.append(measure(list_name, pkg, entries, layouts, secs, bad))
                print(format_row(rows[-1]), flush=True)
            else:
                print(f"{list_name:<14} {pkg:<32} no valid grid in {runs} run(s): {why}", flush=True)
    if args.markdown:
        print()
        print(markdown(rows))
    if args.json:
        data = {
            "runs": runs,
            "attempts_per_run": args.attempts,
            "strategies": names,
            "external": external,
            "rows": [asdict(r) for r in rows],
        }
        path = Path(args.json)
        from .writer import write_atomic

        write_atomic(path, json.dumps(data, indent=2) + "\n")  # a temporary file beside it, then a rename
        log(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
