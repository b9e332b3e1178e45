"""Benchmark runner for PyPI genxword (see site_builder/bench.py); run as a script, never imported.

Usage: python -I bench_genxword.py PACKAGES_DIR < job.json
stdin:  {"words": [[answer, clue], ...], "rows": n, "cols": n, "seconds": s, "seed": i}
stdout: {"placed": [[answer, row, col, vertical], ...], "ms": time}  (0-based row and col)

genxword is GPL and depends on PyGObject and pycairo; it is installed with
--no-deps into PACKAGES_DIR and runs here, in its own process, so none of it
enters ours. Its `calculate` module imports gi and cairo at the top for its
image export, which this benchmark does not use: stub modules stand in for
them, so the layout class `Crossword` runs without GTK.

genxword's own command line sorts the list longest first before it builds
(`Genxword.wlist`); this runner does the same (a stable sort, so the order
of equal lengths still comes from the benchmark run). Its search repeats
random attempts until `seconds` run out or every word is placed; Python's
`random` is seeded with `seed`, so a run that places everything is
repeatable, and a time-bound one repeats as far as the clock allows.
"""

import json
import random
import sys
import time
import types


def _stub_gtk() -> None:
    gi = types.ModuleType("gi")
    gi.require_version = lambda *_args, **_kwargs: None
    repository = types.ModuleType("gi.repository")
    repository.Pango = types.ModuleType("gi.repository.Pango")
    repository.PangoCairo = types.ModuleType("gi.repository.PangoCairo")
    gi.repository = repository
    sys.modules["gi"] = gi
    sys.modules["gi.repository"] = repository
    sys.modules["cairo"] = types.ModuleType("cairo")


def main() -> None:
    sys.path.insert(0, sys.argv[1])
    _stub_gtk()
    from genxword.calculate import Crossword

    job = json.load(sys.stdin)
    words = [[str(answer), str(clue)] for answer, clue in job["words"]]
    words.sort(key=lambda w: len(w[0]), reverse=True)
    random.seed(job["seed"])
    calc = Crossword(int(job["rows"]), int(job["cols"]), "-", words)
    t0 = time.perf_counter()
    calc.compute_crossword(float(job["seconds"]))
    ms = (time.perf_counter() - t0) * 1000.0
    # best_wordlist items are [word, clue, row, col, vertical]; vertical is 0 or 1
    placed = [[w[0], int(w[2]), int(w[3]), bool(w[4])] for w in calc.best_wordlist]
    json.dump({"placed": placed, "ms": ms}, sys.stdout)


if __name__ == "__main__":
    main()
