"""Site build benchmark: a cold build of 50 generated puzzles, a no-op `make site`, a one-clue edit.

The floor it is judged against is WeasyPrint alone rendering the same 50 PDF
documents in one process (the HTML prepared beforehand), measured in the
same run on the same machine. Target: cold build within 1.5x that floor,
no-op under 0.5 s.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .layout.rng import Rng

REPO = Path(__file__).resolve().parent.parent


def _archive(root: Path, count: int) -> None:
    from .bench import generated_entries

    (root / "puzzles").mkdir(parents=True)
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    rng = Rng(2026)
    for i in range(count):
        n = 12 + rng.below(30)
        entries = generated_entries(n, seed=1000 + i)
        lines = [f"---\ntitle: Generated puzzle {i + 1}\ndate: 2026-{1 + i % 12:02d}-{1 + i % 28:02d}\n"
                 f"author: Bench\ntags: [bench]\nseeds: 40\n---"]
        lines += [f"{e.answer} | Clue number {j + 1} for a generated answer" for j, e in enumerate(entries)]
        (root / "puzzles" / f"gen-{i + 1:02d}.txt").write_text("\n".join(lines) + "\n")


def _run(cmd: list[str], cwd: Path, env: dict | None = None) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
    return time.perf_counter() - t0


def weasyprint_floor(root: Path) -> float:
    """Seconds WeasyPrint alone takes to lay out and write the archive's PDFs.

    The HTML documents, stylesheets and fonts are prepared first (untimed),
    in a fresh process; only WeasyPrint's own work on the 50 documents counts.
    """
    code = (
        "import sys, time, pathlib\n"
        "from site_builder.render.pdf import pdf_html, pdf_stylesheets, STATIC, _engine\n"
        "from site_builder.source import read_puzzle\n"
        "from site_builder.site import cached_layout\n"
        "root = pathlib.Path(sys.argv[1])\n"
        "docs = []\n"
        "for p in sorted((root / 'puzzles').glob('*.txt')):\n"
        "    puzzle = read_puzzle(p)\n"
        "    layout, _ = cached_layout(puzzle, root / '.cache')\n"
        "    docs.append((pdf_html(puzzle, layout), pdf_stylesheets(puzzle, layout)))\n"
        "eng = _engine()\n"
        "t0 = time.perf_counter()\n"
        "for html, sheets in docs:\n"
        "    eng.weasyprint.HTML(string=html, base_url=str(STATIC) + '/').write_pdf(\n"
        "        stylesheets=sheets, font_config=eng.font_config)\n"
        "print(time.perf_counter() - t0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(root)], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def bench_site(count: int = 50, jobs: int = 2) -> dict[str, float]:
    """Measure the site build on a temporary archive; returns seconds per step."""
    crossword = [sys.executable, "-m", "site_builder"]
    with tempfile.TemporaryDirectory(prefix="crossword-bench-") as tmp:
        root = Path(tmp)
        _archive(root, count)
        env = dict(os.environ)
        figures = {"puzzles": float(count)}
        figures["cold build"] = _run([*crossword, "build", "--jobs", str(jobs)], root, env)
        # make with nothing changed: the Makefile's stamp check, as a user runs it
        make = ["make", "-s", "-f", str(REPO / "Makefile"), f"VENV={Path(sys.executable).parent.parent}",
                f"STAMP={root / '.stamp'}", f"JOBS={jobs}"]
        (root / ".stamp").touch()
        _run([*make, "site"], root, env)
        figures["no-op make site"] = _run([*make, "site"], root, env)
        src = root / "puzzles" / "gen-07.txt"
        src.write_text(src.read_text().replace("Clue number 3 ", "Edited clue 3 "))
        figures["one-clue edit make site"] = _run([*make, "site"], root, env)
        try:
            figures["weasyprint floor (50 PDFs)"] = weasyprint_floor(root)
            figures["cold build / floor"] = figures["cold build"] / figures["weasyprint floor (50 PDFs)"]
        except (subprocess.CalledProcessError, ValueError) as exc:  # renders not installed
            print(f"weasyprint floor not measured: {exc}", file=sys.stderr)
        return figures


def bench_renders_all(root: Path = REPO) -> list[tuple[str, dict[str, float]]]:
    """Seconds per render of each format, for every puzzle of the project (best of 3)."""
    from .render.pdf import bench_renders
    from .site import cached_layout
    from .source import read_puzzle

    out = []
    for path in sorted((root / "puzzles").glob("*.txt")):
        puzzle = read_puzzle(path)
        layout, _ = cached_layout(puzzle, root / ".cache")
        out.append((puzzle.slug, bench_renders(puzzle, layout)))
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse

    argparse.ArgumentParser(
        prog="python -m site_builder.bench_site",
        description="Time the renders of this project's puzzles, watch mode's clue edit and the site build of 50 "
        "generated puzzles against WeasyPrint's floor (a few minutes; make bench runs it). No options.",
    ).parse_args(argv)
    from .watch import bench_subject, bench_watch

    print("\nRenders, seconds per file (best of 3)")
    rows = bench_renders_all()
    formats = [f for f in ("svg", "png", "thumb", "pdf") if all(f in r for _, r in rows)]
    print(f"  {'puzzle':<16}" + "".join(f"{f:>8}" for f in formats))
    for slug, r in rows:
        print(f"  {slug:<16}" + "".join(f"{r[f]:8.3f}" for f in formats))

    slug, _ = bench_subject(REPO)
    print(f"\nWatch mode: a clue edit of {slug} (medians of 3 saves)")
    for name, value in bench_watch(REPO, slug=None).items():
        print(f"  {name:<28} {value:8.2f} s")
    sys.stdout.flush()

    figures = bench_site()
    print("\nSite build (50 generated puzzles, make -j2)")
    for name, value in figures.items():
        unit = "" if name in ("puzzles", "cold build / floor") else " s"
        print(f"  {name:<28} {value:8.2f}{unit}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
