"""The `crossword` command. A thin layer: parse arguments, call the library,
turn its errors into `file:line: message` lines and exit statuses.

Exit status: 0 success; 1 a layout could not place every required answer
(or `check` found drift); 2 bad input (or bad usage); 3 an internal error
(a bug, reported against the puzzle that met it); 130 / 143 stopped by
SIGINT / SIGTERM.
"""

from __future__ import annotations

import argparse
import io
import os
import signal
import sys
import traceback
from pathlib import Path
from typing import Callable, TextIO

from . import __version__
from .errors import (DISK_ERRNOS, CrosswordError, FileSystemError, InternalError, OutputError, render_disk_error, shown,
                     unexpected)
from .layout import STRATEGIES, layout_puzzle, left_out_reasons, params_for, with_references
from .render import exports
from .render import text as text_render
from .source import RESERVED_SLUGS, puzzle_sources, read_puzzle


def _print_error(exc: CrosswordError) -> None:
    try:
        if isinstance(exc, InternalError) and exc.detail:
            print(exc.detail.rstrip("\n"), file=sys.stderr)  # a bug of ours: the traceback is for the report
        print(exc.diagnostic(), file=sys.stderr)
        if sys.stderr is not None:  # started with it closed (`2>&-`): print wrote to standard output
            sys.stderr.flush()
    except OSError:
        # stderr's reader went away (`2>&1 | head -1`): the exit status still says what went wrong (it was 1,
        # from a traceback about the pipe, which reads as "a required answer left out")
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stderr.fileno())
        except (OSError, ValueError):
            pass


def _effort(value: str) -> int:
    n = _positive(value)
    if not 1 <= n <= 10:
        raise argparse.ArgumentTypeError(f"must be 1 to 10, not {n}")
    return n


def cores() -> int:
    """The CPU cores this process may run on (a container's or `taskset`'s limit, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


def given(value: str) -> str:
    """An argument's value, which must not be empty: `--host ''` served every interface and `--out-dir ''`
    printed to the terminal, as if the option were not there (an unset shell variable, typically)."""
    if not value.strip():
        raise argparse.ArgumentTypeError("an empty value (an unset shell variable?); give one, or leave the option out")
    return value


def _positive(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {value!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return n


def _port(value: str) -> int:
    n = _positive(value)
    if n > 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {n}")
    return n


def _front_matter_range(key: str):
    """An argparse type for the option that overrides front-matter `key`: the same range the file allows."""
    from .source import RANGES

    low, high = RANGES[key]

    def check(value: str) -> int:
        n = _positive(value)
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"must be {low} to {high}, as in the front matter, not {n}")
        return n

    check.__name__ = key  # argparse names the type in its messages
    return check


# ---------------------------------------------------------------- generate

# `--format NAME`: what goes to stdout.
STDOUT_FORMATS = {
    "text": lambda puzzle, layout: text_render.render_text(puzzle, layout),
    "solution": lambda puzzle, layout: text_render.render_text(puzzle, layout, solution=True),
    "json": text_render.render_json,
    "ipuz": exports.render_ipuz,
    "puz": exports.render_puz,
    "xd": exports.render_xd,
    "md": text_render.render_markdown,
}


def _binary_to_terminal(fmt: str | None) -> bool:
    """True (after saying why) when a binary --format would go to a terminal."""
    if fmt == "puz" and sys.stdout.isatty():
        print(
            "error: --format puz is a binary file and stdout is a terminal; "
            "redirect it (> puzzle.puz) or use --out-dir DIR",
            file=sys.stderr,
        )
        return True
    return False


def _write_stdout(data: str | bytes) -> int:
    """Write one --format output to stdout as bytes (UTF-8 for text)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    sys.stdout.flush()
    try:
        sys.stdout.buffer.write(raw)
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:  # `generate --format puz > /dev/full`: the output failed, not the layout
        raise _OutputFailed(exc.errno, exc.strerror) from exc
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    if _binary_to_terminal(args.format):
        return 2
    path = Path(args.words)
    puzzle = read_puzzle(path, require_front_matter=False, size=args.size)  # --size is the answers' cap too
    params = params_for(
        puzzle, seed=args.seed, seeds=args.seeds, size=args.size, strategy=args.strategy, effort=args.effort
    )
    from .site import with_default_author

    config = _project_config(path)
    puzzle = with_default_author(puzzle, config)  # a project's puzzle, as `build` writes it
    out = Path(args.out_dir) if args.out_dir else None
    if out is not None and out.exists() and not out.is_dir():
        # before the layout, which may take minutes on a long list
        raise OutputError(out, reason="it is a file, not a folder")
    if out is not None:
        from .site import output_names

        # --out-dir beside the list: its text export, <slug>.txt, is the list's own name
        for name in output_names(puzzle.slug, page=False):
            if _same_file(out / name, path):
                raise OutputError(out, reason=f"the output {name} would overwrite the puzzle file itself",
                                  fix="write the outputs into another folder (--out-dir out)")
    layout = layout_puzzle(puzzle, params)
    puzzle, layout = with_references(puzzle, layout)  # "[[ANSWER]]" in a clue: its number, as build prints it
    print(layout.summary(), file=sys.stderr)
    for reason in left_out_reasons(puzzle, layout):
        print(f"note: {reason}", file=sys.stderr)
    if layout.strategy == "adjacency":
        _adjacency_notes(puzzle, layout)
    if out is not None:
        from .site import puzzle_files
        from .writer import write_files

        files = puzzle_files(puzzle, layout, config, page=False)
        in_the_way = next((out / name for name in sorted(files) if (out / name).is_dir()), None)
        if in_the_way is not None:  # before any is written, so the folder holds no mix of old and new outputs
            raise OutputError(in_the_way, reason="a folder stands where this output goes; move it away")
        try:
            write_files(out, files)
        except OSError as exc:
            raise OutputError(out, exc) from exc
        for name in sorted(files):
            print(f"wrote {out / name}", file=sys.stderr)
        from .render.pdf import small_squares

        note = small_squares(puzzle, layout)
        if note:
            print(f"note: {note}", file=sys.stderr)
        from .lint import check_plain_title, lint_file

        # text the prints cannot draw, as lint says it; a plain list's title too, from its name (東京.txt)
        glyphs = [d for d in lint_file(path) if d.code == "missing-glyph"]
        if not puzzle.has_front_matter:
            glyphs += check_plain_title(str(path), puzzle.meta.title)
        for d in glyphs:
            print(d, file=sys.stderr)
    if args.format:
        from .site import with_licence

        return _write_stdout(STDOUT_FORMATS[args.format](with_licence(puzzle, config), layout))
    if args.json:
        from .site import with_licence

        sys.stdout.write(text_render.render_json(with_licence(puzzle, config), layout))  # as --format json
    elif args.text or args.solution or not args.out_dir:
        sys.stdout.write(text_render.render_text(puzzle, layout, solution=args.solution))
    return 0


def _same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (a link, `./x` and `x`, another spelling of the folder)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): then not the same, unless spelled alike
        return os.path.abspath(a) == os.path.abspath(b)


def _project_config(path: Path):
    """The `[tool.crossword]` settings of the project a puzzle file belongs to (`ROOT/puzzles/NAME.txt`
    with a `ROOT/pyproject.toml`), so that `generate` writes what `build` writes; defaults otherwise."""
    from .config import SiteConfig, load_config

    folder = Path(os.path.abspath(path)).parent  # where the file is listed (a link's target may be elsewhere)
    pyproject = folder.parent / "pyproject.toml"
    if folder.name == "puzzles" and pyproject.is_file():
        return load_config(pyproject)
    return SiteConfig()


def _adjacency_notes(puzzle, layout) -> None:
    """What the adjacency strategy leaves for the author: two-letter fragments, and fill words to clue."""
    from .layout.adjacency import fill_clue_hint, fragments

    loose = fragments(layout)
    if loose:
        runs = ", ".join(f"{letters} at row {r + 1}, column {c + 1} {d}" for r, c, d, letters in loose)
        print(
            f"note: {len(loose)} two-letter run{'s' if len(loose) != 1 else ''} no answer holds "
            f"(solvers get no clue for {'them' if len(loose) != 1 else 'it'}): {runs}",
            file=sys.stderr,
        )
    hint = fill_clue_hint(puzzle, layout)
    if hint:
        print(f"note: {hint}", file=sys.stderr)


# -------------------------------------------------------------------- lint


def cmd_lint(args: argparse.Namespace) -> int:
    from .lint import ERROR, expand_paths, lint_paths, summary
    from .source import unread_sources

    if args.files:
        files = expand_paths(args.files)
        seen = set()
        for folder in map(Path, args.files):  # what a folder named holds and lint does not read, once a folder
            if folder.is_dir() and folder.resolve() not in seen:
                seen.add(folder.resolve())
                for note in unread_sources(folder):
                    print(f"note: {note}", file=sys.stderr)
        if not files:  # folders named, and none holds a puzzle: "0 files" alone reads like a pass
            print(f"error: no *.txt puzzle files in {', '.join(args.files)}; name a puzzle file or a folder "
                  "that holds some", file=sys.stderr)
            return 2
    else:
        folder = Path(args.root) / "puzzles" if args.root != "." else Path("puzzles")
        files = puzzle_sources(folder)
        for note in unread_sources(folder):
            print(f"note: {note}", file=sys.stderr)
        if not files and folder.is_dir():  # an archive with no puzzle yet (the samples deleted): nothing wrong
            print(f"note: {shown(str(folder))}/ holds no puzzle file yet: nothing to lint", file=sys.stderr)
            return 0
        if not files:  # no puzzles/ folder: another folder than the project's, where "0 files" reads like a pass
            where = ("no puzzles/*.txt here; run from the project directory, pass --root" if args.root == "."
                     else f"no *.txt puzzle files in {folder}; pass the project folder as --root")
            print(f"error: {where}, or name the files to lint", file=sys.stderr)
            return 2
    diagnostics = lint_paths(files, strict=args.strict)
    for d in diagnostics:
        print(d)
    print(summary(diagnostics, len(files)), file=sys.stderr)
    return 2 if any(d.level == ERROR for d in diagnostics) else 0


# ------------------------------------------------------------ build, check


def _report_failures(failed) -> None:
    said = set()
    for _slug, exc in failed:
        if str(exc) not in said:  # a template that does not parse fails every puzzle: one message
            said.add(str(exc))
            _print_error(exc)


def cmd_build(args: argparse.Namespace) -> int:
    from .site import build_site

    root = Path(args.root)
    out = Path(args.out) if args.out else None
    if out is not None and out.exists() and not out.is_dir():
        raise OutputError(out, reason="it is a file, not a folder")
    result = build_site(root, out, jobs=args.jobs, force=args.force, report=print)  # the library says nothing itself
    _report_failures(result.failed)
    from .source import unread_sources

    for note in unread_sources(root / "puzzles"):
        print(f"note: {note}", file=sys.stderr)
    from .config import example_address, load_config

    base_url = load_config(root / "pyproject.toml").base_url
    if (result.built or result.unchanged) and example_address(base_url):
        print(f"note: base_url is {base_url}, an example's address: the feed and sitemap link to it (and the 404 page "
              "from its path), and the pages claim no address for link previews; set base_url (and title) under "
              "[tool.crossword] in pyproject.toml (README, The archive site)", file=sys.stderr)
    if len(result.left_out) > 1 or (result.left_out and len(result.built) > 8):
        # said on each puzzle's line too; after a long build, the list in one place
        names = sorted(result.left_out)
        listed = ", ".join(names[:12]) + (f" and {len(names) - 12} more" if len(names) > 12 else "")
        print(f"note: {len(names)} puzzle{'s' if len(names) != 1 else ''} left answers out: {listed}; "
              "raise 'size', or give the answers more letters in common (see the lines above)", file=sys.stderr)
    if result.drafts and (result.built or result.unchanged) and (result.built or not args.quiet):  # -q: when up to date
        print(f"draft  {', '.join(result.drafts)}: kept off the site until 'draft: false' (or the line removed)")
    folder = out or root / "public"
    # no puzzle changed, but the index, tag pages, feed or static files of a site with puzzles did
    site_only = not result.built and not result.removed and not result.failed and bool(result.written and result.unchanged)
    if site_only and not args.quiet:  # a site setting, index.html
        names = sorted(p.relative_to(folder).as_posix() for p in result.written if folder in p.parents)
        listed = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
        print(f"update {listed} (no puzzle changed)")
    if (result.built or result.removed or site_only) and not result.failed and not args.quiet:
        # where the site is, the first time especially
        index = folder / "index.html"
        try:
            index = index.resolve().relative_to(Path.cwd().resolve())
        except ValueError:
            pass
        serve = "" if out is not None else ", or run `make watch` to serve it and rebuild on every save"
        print(f"site   {index}: open it in a browser{serve}")
    if not result.built and not result.removed and not site_only and not result.failed and not args.quiet:
        if result.unchanged:
            print(f"up to date: {len(result.unchanged)} puzzle{'s' if len(result.unchanged) != 1 else ''}")
        elif result.drafts:
            n = len(result.drafts)
            print(f"nothing published: {n} draft{'s' if n != 1 else ''} ({', '.join(result.drafts)}); "
                  "set 'draft: false' (or remove the line) to publish one")
        else:
            print("no puzzles yet: add one to puzzles/, like puzzles/my-first.txt (see README, Source format)")
    if result.failed:
        published = [slug for slug, _ in result.failed if slug not in result.failed_drafts]
        drafts = [slug for slug, _ in result.failed if slug in result.failed_drafts]
        said = []
        # the site's own folders (public/tags/, public/static/) are no outputs of a puzzle named after them
        # (a folder with no page in it holds no outputs of a build before: something else put it there)
        kept = [slug for slug in published if (folder / slug / "index.html").is_file() and slug not in RESERVED_SLUGS]
        new = [slug for slug in published if slug not in kept]
        if kept:
            said.append(f"{', '.join(kept)}; {'their' if len(kept) > 1 else 'its'} previous outputs are kept")
        if new:
            said.append(f"{', '.join(new)}, on no page until fixed (no outputs from before)")
        if drafts:
            said.append(f"draft{'s' if len(drafts) > 1 else ''} {', '.join(drafts)}, on no page until fixed and published")
        print(shown(f"error: {len(result.failed)} puzzle(s) failed: {'; '.join(said)}"), file=sys.stderr)
        return max(exc.exit_status for _, exc in result.failed)
    return 0


def _to_build(root: Path) -> int:
    """How many puzzles a build of `root` lays out: those that read, less the drafts (the others make no line)."""
    try:
        sources = puzzle_sources(root / "puzzles")
    except CrosswordError:
        return 0  # check_site says what is wrong with the folder
    count = 0
    for path in sources:
        try:
            count += not read_puzzle(path).meta.draft
        except CrosswordError:
            pass
    return count


def _check_progress(root: Path, stream: TextIO | None = None) -> tuple[Callable[[str], None], Callable[[], None]]:
    """A report for check_site that counts the puzzles built on one line of a terminal, and its clearing.

    check lays every puzzle out again, minutes on a big archive: without this, a terminal shows nothing
    until the verdict. A log (not a terminal) gets nothing, so CI's output stays the verdict alone.
    """
    stream = stream or sys.stderr
    if not stream.isatty() or os.environ.get("TERM") == "dumb":
        return (lambda line: None), (lambda: None)
    total = _to_build(root)
    done = 0

    def report(line: str) -> None:
        nonlocal done
        if line.startswith(("build ", "fail ")):
            done += 1
            of = f" of {total}" if total >= done else ""
            stream.write(f"\rcheck: {done}{of} puzzle{'' if max(total, done) == 1 else 's'} built afresh")
            stream.flush()

    def end() -> None:
        if done:
            stream.write("\r\033[K")  # the verdict takes the line
            stream.flush()

    return report, end


def cmd_check(args: argparse.Namespace) -> int:
    from .site import check_site

    root = Path(args.root)
    report, end = _check_progress(root)
    try:
        result, drifts = check_site(root, jobs=args.jobs, report=report)
    finally:
        end()
    if result.failed:
        _report_failures(result.failed)
        return 2
    for hint in result.needs_clues.values():
        print(f"error: {hint}", file=sys.stderr)
    if result.needs_clues and not drifts:
        return 1
    if not drifts:
        n = len(result.built)
        print(f"public/ matches the sources: {n} puzzle{'' if n == 1 else 's'}, no drift")
        return 0
    said = {"stale": "not made by the build",
            "gone": "no longer made (a deleted or drafted puzzle's, a tag page no puzzle needs, an older style sheet "
                    "or font): `make site` removes it"}
    for d in drifts:
        # a file the build does not make comes from no source: it is the author's, or an older build's
        print(f"drift: public/{d.path}: " + said.get(d.kind, f"{d.kind} (from {d.source})"))
        if d.diff and not args.brief:
            print(d.diff.rstrip("\n"))
    # `make site` rewrites what differs, but leaves alone a file it does not make (a stray, a hand-made one)
    stale = sum(d.kind == "stale" for d in drifts)
    from .site import _TEMP_NAME

    temps = sum(d.kind == "stale" and bool(_TEMP_NAME.fullmatch(Path(d.path).name)) for d in drifts)
    if temps == len(drifts):  # a killed build's: ignored by git, so `git rm` would find nothing
        fix = "they are a stopped build's temporary files: `make site` deletes them"
    elif stale == len(drifts):
        fix = ("the build does not make them: delete them (`git rm` those committed) and commit, or list the ones of "
               "your own (a host's robots.txt or CNAME) in own_files under [tool.crossword] in pyproject.toml")
    elif stale:
        fix = (f"run `make site`, delete the {stale} file(s) the build does not make (`git rm` those committed; or list "
               "yours in own_files under [tool.crossword]), and commit public/")
    elif any(d.kind == "gone" for d in drifts):
        fix = ("run `make site` (it removes the files no longer made) and commit public/ with the removals "
               "(`git add -A public/`)")
    else:
        fix = ("run `make site` and commit public/ (if it finds nothing to do, `crossword build --force`: check lays "
               "every puzzle out afresh, and the build may have taken a layout from .cache/ that no longer comes out)")
    print(f"error: {len(drifts)} file(s) in public/ differ from what the code builds; {fix}", file=sys.stderr)
    return 1


def cmd_watch(args: argparse.Namespace) -> int:
    from .watch import run_watch

    return run_watch(Path(args.root), args.host, args.port, Path(args.out) if args.out else None)


# -------------------------------------------------------------------- main


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crossword", description="Turn themed word lists into freeform crosswords and an archive site."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    gen = sub.add_parser("generate", help="lay out one word list and print or write it")
    gen.add_argument("--words", required=True, type=given, metavar="FILE", help="a puzzle file, or a plain list of 'ANSWER | clue' lines")
    # one thing to print: two of these asked at once was one of them printed, silently
    printed = gen.add_mutually_exclusive_group()
    printed.add_argument("--text", action="store_true", help="print the puzzle as text (the default)")
    printed.add_argument("--solution", action="store_true", help="print the text with the letters filled in")
    printed.add_argument("--json", action="store_true", help="print the layout as JSON (the crossword-layout-generator format: README, JSON layout)")
    printed.add_argument(
        "--format", choices=list(STDOUT_FORMATS),
        help="print one format to stdout: text, solution, json, ipuz, puz (binary; not to a terminal), xd or md",
    )
    gen.add_argument("--out-dir", type=given, metavar="DIR", help="write the outputs into DIR")
    gen.add_argument("--seed", type=_front_matter_range("seed"), help="use this one seed instead of searching")
    gen.add_argument(
        "--seeds", type=_front_matter_range("seeds"), help="how many seeds to search (default: front matter, else 200)"
    )
    gen.add_argument(
        "--size", type=_front_matter_range("size"), help="grid cap, squares a side, 3 to 60 (default: front matter, else 23)"
    )
    gen.add_argument("--strategy", choices=sorted(STRATEGIES), help="layout strategy")
    gen.add_argument(
        "--effort", type=_effort,
        help="1 to 10: how long the search may run (optimize, adjacency: steps; scored: attempts; "
        "default: front matter, else 1)"
    )
    gen.set_defaults(func=cmd_generate)

    lint = sub.add_parser("lint", help="check puzzle files: errors and editorial warnings, as file:line:col lines")
    lint.add_argument("files", nargs="*", type=given, metavar="FILE", help="puzzle files or directories (default: puzzles/*.txt)")
    lint.add_argument("--strict", action="store_true", help="treat warnings as errors (exit status 2)")
    lint.add_argument("--root", default=".", type=given, help="project folder whose puzzles/ to lint when no FILE is named (default .)")
    lint.set_defaults(func=cmd_lint)

    build = sub.add_parser("build", help="build every puzzle in puzzles/ into public/, incrementally")
    build.add_argument("--root", default=".", type=given, help="project folder holding puzzles/ and pyproject.toml (default .)")
    build.add_argument("--out", type=given, metavar="DIR", help="output folder (default ROOT/public)")
    build.add_argument("--jobs", "-j", type=_positive, default=cores(), help=f"puzzles to build at once (default: the cores this process may use, {cores()} here)")
    build.add_argument("--force", action="store_true", help="rebuild every puzzle, even the unchanged ones, laying each out afresh (not from .cache/)")
    build.add_argument("--quiet", "-q", action="store_true", help="say nothing when everything is up to date")
    build.set_defaults(func=cmd_build)

    check = sub.add_parser("check", help="rebuild into a temporary folder and compare with public/, byte for byte")
    check.add_argument("--root", default=".", type=given, help="project folder (default .)")
    check.add_argument("--jobs", "-j", type=_positive, default=cores(), help=f"puzzles to build at once (default {cores()}, as build)")
    check.add_argument("--brief", action="store_true", help="list drifted files without diffs")
    check.set_defaults(func=cmd_check)
    from . import bench as bench_mod

    bench = sub.add_parser("bench", help="compare the layout strategies on the same lists (see `make bench`)")
    bench_mod.add_arguments(bench)
    bench.set_defaults(func=bench_mod.run)

    watch = sub.add_parser("watch", help="build, serve public/ with live reload, and rebuild on every save")
    watch.add_argument("--root", default=".", type=given, help="project folder (default .)")
    watch.add_argument("--out", type=given, metavar="DIR", help="output folder (default ROOT/public)")
    watch.add_argument("--host", default="127.0.0.1", type=given, help="address to serve on (default 127.0.0.1)")
    watch.add_argument("--port", type=_port, default=8000, help="port to serve on (default 8000; 0 picks a free one)")
    watch.set_defaults(func=cmd_watch)
    parser.set_defaults(commands=sub.choices)  # for main: an option a command does not know shows that command's usage
    return parser


_stopped: list[int] = []  # the signal that asked this run to stop


def _on_signal(signum, frame) -> None:
    """SIGINT and SIGTERM: raise KeyboardInterrupt, so the writer removes its temporary file.

    A signal that lands inside a C callback (cairo writing a PNG) has its
    exception swallowed there and reported as 'ignored'; the render then
    fails with an OSError. Once stopping, that report is noise, so it is
    silenced, and main() reads any error after a stop signal as the stop.
    """
    from . import writer

    writer.stop_requested = True
    if not _stopped:
        _stopped.append(signum)
        sys.unraisablehook = lambda unraisable: None
    raise KeyboardInterrupt


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's flush at exit has nothing left to fail on."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


class _OutputFailed(OSError):
    """A write to standard output that failed (`> /dev/full`, a full disk under a redirect): not the build's."""


class _Output:
    """Standard output, with a failed write or flush marked as the output's (`_OutputFailed`).

    Without it, a report line that cannot be written reads like the build's own
    full disk, and the error names the output folder.
    """

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _OutputFailed(exc.errno, exc.strerror) from exc

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _OutputFailed(exc.errno, exc.strerror) from exc

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    words = sys.argv[1:] if argv is None else list(argv)
    # --help and --version print, and argparse drops a failed write (`> /dev/full`) and exits 0: print it here
    printed, real = io.StringIO(), sys.stdout
    sys.stdout = printed
    try:
        args, unknown = parser.parse_known_args(words)
    except SystemExit:
        sys.stdout = real
        if printed.getvalue() and real is not None:
            try:
                real.write(printed.getvalue())
                real.flush()
            except BrokenPipeError:
                _quiet_stdout()
                return 128 + signal.SIGPIPE
            except OSError as exc:
                _quiet_stdout()
                print(f"error: cannot write the command's output: {exc.strerror or exc} (check where the output "
                      "is redirected to)", file=sys.stderr)
                return 2
        raise
    finally:
        sys.stdout = real
    if unknown:
        # `build --bogus`: the usage to show is build's, not the list of commands (`--bogus build` gets that)
        if args.command in words and unknown[0] in words and words.index(args.command) < words.index(unknown[0]):
            parser = args.commands[args.command]
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if sys.stdout is None:  # started with its output closed (`>&-`, as cron may): what it says goes nowhere
        if args.command == "generate" and not args.out_dir:
            print("error: generate prints the puzzle, and there is no standard output to print it to; "
                  "redirect it to a file, or write the files with --out-dir DIR", file=sys.stderr)
            return 2
        sys.stdout = open(os.devnull, "w", encoding="utf-8")
    stdout = sys.stdout
    sys.stdout = _Output(stdout)
    _stopped.clear()
    hook = sys.unraisablehook
    previous = {sig: signal.signal(sig, _on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        status = args.func(args)
        try:
            sys.stdout.flush()  # here, so a reader gone away (`| head`) is a BrokenPipeError below, not at exit
        except BrokenPipeError:
            raise
        except OSError as exc:  # `> /dev/full`, a full disk under a redirect: the output, not the build, failed
            _quiet_stdout()
            print(f"error: cannot write the command's output: {exc.strerror or exc}; the work itself is done "
                  "(check where the output is redirected to)", file=sys.stderr)
            return 2
        # a stop signal whose KeyboardInterrupt was swallowed (inside a C callback) still stops the run
        return _stop_message() if _stopped else status
    except CrosswordError as exc:
        if _stopped:
            return _stop_message()
        _print_error(exc)
        return exc.exit_status
    except KeyboardInterrupt:
        return _stop_message()
    except BrokenPipeError:
        # the reader went away (`| head`): nothing more to say, and nowhere to say it
        _quiet_stdout()
        return 128 + signal.SIGPIPE
    except OSError as exc:
        if _stopped:
            return _stop_message()
        if isinstance(exc, _OutputFailed):  # `build > /dev/full`: its report, not the build, hit the error
            sys.stdout = stdout
            _quiet_stdout()
            print(f"error: cannot write the command's output: {exc.strerror or exc}; the command stopped there, "
                  "and every file it wrote is complete (check where the output is redirected to, and run it again)", file=sys.stderr)
            return 2
        full = render_disk_error(exc)  # a full disk, with no file named: a render's temporary files
        if full is not None:
            error: CrosswordError = full
        elif exc.filename or exc.errno in DISK_ERRNOS:  # a folder that cannot be written, a disk: the user's
            error = FileSystemError(exc, getattr(args, "out", None) or getattr(args, "out_dir", None) or ".")
        else:
            error = InternalError(getattr(args, "words", None) or args.command, exc, traceback.format_exc())
        _print_error(error)
        return error.exit_status
    except Exception as exc:
        if _stopped:
            return _stop_message()
        error = unexpected(getattr(args, "words", None) or args.command, exc, traceback.format_exc())
        _print_error(error)
        return error.exit_status
    finally:
        sys.stdout = stdout
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        sys.unraisablehook = hook
        if _stopped:
            from . import writer

            writer.stop_requested = False


def _stop_message() -> int:
    sig = _stopped[0] if _stopped else signal.SIGINT
    name = "terminated" if sig == signal.SIGTERM else "interrupted"
    print(f"{name}: stopped; every file written so far is complete, run the command again to finish", file=sys.stderr)
    return 128 + sig
