"""Building the archive: puzzles/*.txt -> public/.

The plan: read every puzzle (cheap), decide which are stale, lay out and
render the stale ones (in worker processes when jobs > 1), write their files
through the one writer, then write the index, tag pages, feed and static
files. A puzzle is stale when the hash of its source, the code that renders
it and the site settings differs from the hash recorded at its last build
(kept under .cache/, never in public/), or when one of its outputs is
missing.

Layouts are cached by what they depend on (the answers, their order and
stars, the layout parameters and the engine's code), so a clue-only edit
renders again without laying out again.

A puzzle that fails (bad file, required answer that cannot be placed) is
reported with its `file:line` message; its previous outputs stay, the others
are built, the index is left as it was, and the build ends non-zero.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Callable, Collection, Iterable, Sequence

from .config import SiteConfig, load_config
from .errors import (DISK_ERRNOS, CrosswordError, FileSystemError, OutputError, PuzzleError, TemplateError,
                     SCRATCH_PREFIX, render_disk_error, shown, unexpected)
from .layout import layout_puzzle, params_for, with_references
from .layout.adjacency import fill_clue_hint, set_apart
from .layout.result import number_placements
from .model import Direction, Entry, Layout, LayoutParams, Placement, Puzzle
from .source import RESERVED_SLUGS, is_ignored, load_puzzle, puzzle_sources, read_source, slug_for
from .writer import write_atomic, write_together

PACKAGE = Path(__file__).resolve().parent
REPO = PACKAGE.parent
TEMPLATES = REPO / "templates"
STATIC = PACKAGE / "static"
FONTS_DIR = PACKAGE / "fonts"
# the compiled engine counts by its source: the .so it builds into differs from machine to machine
LAYOUT_CODE = [PACKAGE / "model.py", *sorted((PACKAGE / "layout").glob("*.py")), *sorted((PACKAGE / "layout").glob("*.c"))]


# ------------------------------------------------------------ fingerprints


def _hash_files(paths: Iterable[Path], root: Path, read: Callable[[Path], bytes] = Path.read_bytes) -> str:
    h = hashlib.sha256()
    for p in sorted(paths):
        if p.is_file():
            h.update(str(p.relative_to(root)).encode())
            h.update(b"\0")
            h.update(read(p))
            h.update(b"\0")
    return h.hexdigest()


def code_fingerprint() -> str:
    """Hash of everything that shapes a puzzle's outputs besides the puzzle: package, templates, pdf.css.

    The site's own styles, script and icon (static/, but pdf.css) are copied to public/static/ by every
    build and only linked from the pages, so editing player.css re-renders no puzzle.
    """
    return fingerprints()[0]


# the templates a puzzle's outputs are rendered from; those they do not reach (extends, include, import),
# the index's, tag pages' and feed's own, re-render no puzzle when edited
PUZZLE_TEMPLATES = ("puzzle.html", "pdf.html.j2")
# the site settings a puzzle's outputs show: the licence (the page's footer, and the PDF's and exports' line
# for a puzzle with no copyright of its own) and the author for puzzles that name none (the description is
# the index's and the feed's alone)
PAGE_SETTINGS = ("licence", "author")
# and those the page alone shows, in its link-preview addresses and masthead: a change writes the pages
# again, not the PDFs and pictures (as a change of the page's neighbours, see `_relink`); a new site title
# had rebuilt every puzzle, 49 s for 114 of them, for pages alone
PAGE_ONLY_SETTINGS = ("base_url", "title")


# a tag that names another template: {% extends "base.html" %}, include, import, from ... import
_TEMPLATE_TAG = re.compile(r"\{%[-+]?\s*(?:extends|include|import|from)\s+(?:(['\"])(.*?)\1)?")


def puzzle_templates() -> set[str]:
    """PUZZLE_TEMPLATES and every template they reach, followed through; all of them when one names a
    template by an expression (which cannot be followed) or cannot be read. A plain scan of the tags
    (parsing with Jinja took 70 ms of a no-op build's 0.3 s); a tag inside a comment counts too, which
    only ever rebuilds more."""
    every = {p.name for p in TEMPLATES.glob("*") if p.is_file()} if TEMPLATES.exists() else set()
    seen: set[str] = set()
    todo = list(PUZZLE_TEMPLATES)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            text = (TEMPLATES / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return every
        for m in _TEMPLATE_TAG.finditer(text):
            if m.group(2) is None:
                return every  # {% include which %}: any of them
            todo.append(m.group(2))
    return seen


def puzzle_code_fingerprint() -> str:
    """`code_fingerprint` less the templates no puzzle output reaches: what shapes a puzzle's own outputs."""
    return fingerprints()[1]


def fingerprints() -> tuple[str, str]:
    """(`code_fingerprint`, `puzzle_code_fingerprint`), each code file read once for both."""
    files = code_files()
    data = {p: p.read_bytes() for p in files}
    reached = puzzle_templates()
    puzzle = [p for p in files if not (p.parent == TEMPLATES and p.name not in reached)]
    return _hash_files(files, REPO, data.__getitem__), _hash_files(puzzle, REPO, data.__getitem__)


def code_files() -> list[Path]:
    """The files `code_fingerprint` hashes."""
    files = [
        p for p in PACKAGE.rglob("*")
        if p.suffix not in (".pyc", ".so") and "__pycache__" not in p.parts
        and not (_inside_static(p) and p.name not in RENDER_ONLY)
        and p != PACKAGE / "sw.js"  # the offline worker is a site file: a change rewrites it, no puzzle
    ]
    files += list(TEMPLATES.rglob("*")) if TEMPLATES.exists() else []
    # an editor's swap or backup file beside a template is no code: it must not rebuild every puzzle
    return sorted(p for p in files if p.is_file() and not is_ignored(p.name))


def _inside_static(path: Path) -> bool:
    return STATIC in path.parents


# the packages adjacency's fill dictionary is made of: another version, other fill words
WORD_PACKAGES = ("wordfreq", "english-words", "better-profanity")


def layout_fingerprint() -> str:
    return hashlib.sha256(f"{_hash_files(LAYOUT_CODE, REPO)}\0{_word_packages()}".encode()).hexdigest()


@lru_cache(maxsize=1)
def _word_packages() -> str:
    """The installed versions of WORD_PACKAGES (once a process: the lookups take some 35 ms)."""
    from importlib.metadata import PackageNotFoundError, version

    def installed(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "-"

    return ",".join(f"{name}={installed(name)}" for name in WORD_PACKAGES)


def layout_key(puzzle: Puzzle, params: LayoutParams, engine: str) -> str:
    """What a layout depends on: answers in order with their stars, the parameters, the engine code (and
    the fill dictionary's packages); for `adjacency`, also where a blank or comment line sets entries apart
    (a block of fill words at the end of the list is one)."""
    h = hashlib.sha256()
    h.update(engine.encode())
    h.update(repr(params).encode())
    gaps = params.strategy == "adjacency"
    previous = None
    for e in puzzle.entries:
        apart = gaps and previous is not None and set_apart(previous, e)
        h.update(f"{'|' if apart else ''}{'*' if e.required else ''}{e.answer}\n".encode())
        previous = e
    return h.hexdigest()


# ------------------------------------------------------------- layout cache


def _layout_to_json(layout: Layout) -> str:
    data = {
        "rows": layout.rows,
        "cols": layout.cols,
        "seed": layout.seed,
        "strategy": layout.strategy,
        "placements": [[p.entry.answer, p.row, p.col, p.direction.value, p.entry.fill] for p in layout.placements],
        "unplaced": [e.answer for e in layout.unplaced],
    }
    return json.dumps(data, sort_keys=True)


def _layout_from_json(text: str, puzzle: Puzzle, params: LayoutParams) -> Layout:
    data = json.loads(text)
    by_answer = {e.answer: e for e in puzzle.entries}
    placements = []
    for answer, row, col, direction, fill in data["placements"]:
        entry = by_answer.get(answer) or Entry(answer, "", fill=bool(fill))
        placements.append(Placement(entry, row, col, Direction(direction)))
    unplaced = tuple(by_answer[a] for a in data["unplaced"])
    return Layout(number_placements(placements), unplaced, data["rows"], data["cols"], data["seed"], data["strategy"], params)


def cached_layout(puzzle: Puzzle, cache: Path | None, engine: str | None = None) -> tuple[Layout, bool]:
    """The puzzle's layout, from the cache when its key matches; (layout, came_from_cache)."""
    params = params_for(puzzle)
    if cache is None:
        return layout_puzzle(puzzle, params), False
    engine = engine or layout_fingerprint()
    path = cache / "layouts" / f"{layout_key(puzzle, params, engine)}.json"
    try:
        return _layout_from_json(path.read_text(encoding="utf-8"), puzzle, params), True
    except (OSError, ValueError, KeyError, TypeError):
        pass
    layout = layout_puzzle(puzzle, params)
    write_atomic(path, _layout_to_json(layout))
    return layout, False


# ----------------------------------------------------------------- outputs


@dataclass(frozen=True)
class Output:
    """One file of public/<slug>/: its name pattern, label and note for the page, and whether it is slow."""

    pattern: str  # "{slug}.pdf"
    label: str
    note: str
    slow: bool = False  # PNG and PDF: skipped by quick builds (watch renders them a moment later)

    def name(self, slug: str) -> str:
        return self.pattern.format(slug=slug)


OUTPUTS: tuple[Output, ...] = (
    Output("index.html", "Puzzle page", "solve it in the browser"),
    Output("{slug}.pdf", "PDF", "print it: puzzle, clues and an answer key", slow=True),
    Output("{slug}.svg", "Puzzle SVG", "the grid and clues as a picture"),
    Output("{slug}-solution.svg", "Solution SVG", "the filled grid and clues"),
    Output("{slug}.png", "Puzzle PNG", "a picture to share", slow=True),
    Output("{slug}-solution.png", "Solution PNG", "the filled grid as a picture", slow=True),
    Output("{slug}-thumb.png", "Thumbnail", "the empty grid, small", slow=True),
    Output("{slug}.ipuz", "ipuz", "open standard: GNOME Crosswords, the Crossword Nexus solver, Exolve"),
    Output("{slug}.puz", "Across Lite", "Across Lite, Black Ink, XWord, Forkyz and most solving apps"),
    Output("{slug}.xd", "xd", "plain text for crossword archives and any text editor"),
    Output("{slug}.json", "JSON", "the layout, in crossword-layout-generator's format"),
    Output("{slug}.txt", "Text", "puzzle and solution as plain text"),
    Output("{slug}.md", "Markdown", "the clue list, ready to paste into a README"),
)


def output_names(slug: str, *, quick: bool = False, page: bool = True) -> list[str]:
    return sorted(
        o.name(slug) for o in OUTPUTS if not (quick and o.slow) and (page or o.pattern != "index.html")
    )


def downloads(puzzle: Puzzle) -> list[tuple[str, str, str]]:
    """(label, file name, note) for every download linked from the puzzle page."""
    skip = ("index.html", "{slug}-thumb.png")
    return [(o.label, o.name(puzzle.slug), o.note) for o in OUTPUTS if o.pattern not in skip]


class BuildStopped(Exception):
    """A build's `stop` said to give up (watch: another save came in): the puzzle is not written."""


def puzzle_files(
    puzzle: Puzzle, layout: Layout, config: SiteConfig, *, quick: bool = False, page: bool = True,
    stop: Callable[[], bool] | None = None, neighbours: Neighbours = (None, None),
) -> dict[str, str | bytes]:
    """Render the outputs of one puzzle (names relative to public/<slug>/).

    `quick` skips the slow ones (PNG, PDF); `page=False` leaves out the
    puzzle page, which needs the site around it (`generate --out-dir`);
    `neighbours` are the puzzles the page links to as newer and older.
    `stop`, asked before each slow render, raises BuildStopped when it says so.
    """
    from .render.exports import export_files
    from .render.svg import render_svg

    slug = puzzle.slug
    puzzle, layout = with_references(with_default_author(puzzle, config), layout)
    licensed = with_licence(puzzle, config)  # the files that leave the site carry its terms
    files = export_files(licensed, layout)
    files[f"{slug}.svg"] = render_svg(puzzle, layout)
    files[f"{slug}-solution.svg"] = render_svg(puzzle, layout, solution=True)
    if page:
        files["index.html"] = render_page(puzzle, layout, config, neighbours)
    if not quick:
        from .render.pdf import render_pdf
        from .render.png import render_png, render_thumbnail

        slow = (
            (f"{slug}.png", lambda: render_png(puzzle, layout)),
            (f"{slug}-solution.png", lambda: render_png(puzzle, layout, solution=True)),
            (f"{slug}-thumb.png", lambda: render_thumbnail(puzzle, layout)),
            (f"{slug}.pdf", lambda: render_pdf(licensed, layout)),
        )
        for name, render in slow:
            if stop is not None and stop():
                raise BuildStopped(slug)
            files[name] = render()
    expected = set(output_names(slug, quick=quick, page=page))
    assert set(files) == expected, f"outputs and OUTPUTS disagree: {sorted(set(files) ^ expected)}"
    return files


def render_page(puzzle: Puzzle, layout: Layout, config: SiteConfig, neighbours: Neighbours = (None, None)) -> str:
    from dataclasses import asdict

    from .render.html import render_puzzle_page

    # only the settings a page may show (a template asking for another fails: StrictUndefined), so that
    # the build's record of a puzzle (`_source_key`) holds every setting its outputs depend on
    site = {k: v for k, v in asdict(config).items() if k in PAGE_SETTINGS + PAGE_ONLY_SETTINGS}
    return render_puzzle_page(puzzle, layout, site=site, root="../", downloads=downloads(puzzle), neighbours=neighbours)


# ------------------------------------------------------------------- build


@dataclass
class PuzzleInfo:
    """What the index needs to know of a built puzzle."""

    puzzle: Puzzle
    layout: Layout


@dataclass
class BuildResult:
    built: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    failed: list[tuple[str, CrosswordError]] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    # puzzles whose grid holds fill words with no clue yet (adjacency strategy): slug -> what to tell the author
    needs_clues: dict[str, str] = field(default_factory=dict)
    # puzzles the build could not read but whose front matter says `draft: true`: errors all the same,
    # but they hold no page back (the index, tags and feed are written; a draft is on none of them)
    failed_drafts: set[str] = field(default_factory=set)
    drafts: list[str] = field(default_factory=list)  # drafts that read well, kept off the site
    stopped: bool = False  # `stop` ended the build early (see build_site)
    # answers a layout left out: slug -> "left out: ..." (the build line says it; watch repeats it)
    left_out: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failed


# The puzzles read by this process, with the text they were parsed from: watch mode builds again on every
# save, and parsing 200 sources took 0.5 s of each build; a file whose text is unchanged is not parsed again.
_SOURCES: dict[str, tuple[str, Puzzle]] = {}


def _read_source(path: Path) -> Puzzle:
    """`read_puzzle(path)`: the file read once (with read_source's guards: a regular file, under its size
    cap), and that very text parsed, or the puzzle parsed from the same text before."""
    text = read_source(path)
    hit = _SOURCES.get(str(path))
    if hit is not None and hit[0] == text:
        return hit[1]
    puzzle = load_puzzle(text, path=path, slug=slug_for(path))
    _SOURCES[str(path)] = (text, puzzle)
    return puzzle


def forget_sources(keep: set[str]) -> None:
    """Drop the parsed puzzles of files no longer in `keep` (deleted or renamed in a watch session)."""
    for name in [n for n in _SOURCES if n not in keep]:
        del _SOURCES[name]


def _state_path(cache: Path, slug: str) -> Path:
    return cache / "state" / f"{slug}.key"


def _state(key: str, target: Path, slug: str) -> str | None:
    """What a puzzle's build record holds: its source key, and the size and time of each output as the
    build left it. A file edited, restored by git or deleted since no longer matches, so the next build
    writes the puzzle again (None: an output is missing)."""
    stamps = []
    for name in output_names(slug):
        try:
            st = (target / name).stat()
        except OSError:
            return None
        stamps.append(f"{name} {st.st_size} {st.st_mtime_ns}")
    return "\n".join([key, *stamps]) + "\n"


def _source_key(text: str, code: str, config: SiteConfig) -> str:
    """A puzzle's key: the code and settings its outputs depend on, and the text they were made from (the
    text as read, so that a file saved again while a worker builds it is recorded as what was built)."""
    h = hashlib.sha256()
    h.update(code.encode())
    h.update(repr([getattr(config, k) for k in PAGE_SETTINGS]).encode())
    h.update(text.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _record_key(source: str, page: "PageInputs") -> str:
    """The first line of a puzzle's build record: its source key, then what its page alone shows (JSON):
    the puzzles it links to and the site's address, which `build_site` may change by writing the page alone."""
    return f"{source} {json.dumps(page, separators=(',', ':'))}"


def _page_inputs(neighbours: "Neighbours", config: SiteConfig) -> "PageInputs":
    return neighbours, tuple(getattr(config, k) for k in PAGE_ONLY_SETTINGS)


def _recorded_page(state_file: Path, source: str, target: Path, slug: str) -> "PageInputs | None":
    """What a puzzle's page alone shows (its links, the site's address), when its record holds `source` and
    its outputs are as the build left them (None: the puzzle is stale, or was never built)."""
    try:
        recorded = state_file.read_text()
    except (OSError, ValueError):  # no record, or one a crash or a disk left in bytes that are no text: stale
        return None
    first = recorded.split("\n", 1)[0]
    key, _, links = first.partition(" ")
    if key != source or recorded != _state(first, target, slug):
        return None
    try:
        (newer, older), settings = json.loads(links)
        return (tuple(newer) if newer else None, tuple(older) if older else None), tuple(settings)
    except (ValueError, TypeError):
        return None


# A puzzle page's links to the next newer and the next older puzzle of the archive: (slug, title) each, or None
Neighbours = tuple[tuple[str, str] | None, tuple[str, str] | None]
# What a puzzle's page shows that its other outputs do not: its neighbours, and PAGE_ONLY_SETTINGS' values
PageInputs = tuple[Neighbours, tuple[str, ...]]


def archive_key(puzzle: Puzzle) -> tuple:
    """The archive's order: newest first, puzzles of one date in name order (the index, the feed, the links).

    Numbers in the names count as numbers, so daily-9 comes before daily-10; the
    name itself settles what that leaves equal (part-01 and part-1).
    """
    natural = tuple((0, int(chunk), "") if chunk.isdigit() else (1, 0, chunk) for chunk in _CHUNKS.findall(puzzle.slug))
    return -puzzle.meta.date.toordinal(), natural, puzzle.slug


_CHUNKS = re.compile(r"\d+|\D+")


def neighbours_of(puzzles: Iterable[Puzzle]) -> dict[str, Neighbours]:
    """Each published puzzle's newer and older neighbour in the archive's order (`archive_key`)."""
    order = [(p.slug, p.meta.title) for p in sorted(puzzles, key=archive_key)]
    return {slug: (order[i - 1] if i else None, order[i + 1] if i + 1 < len(order) else None)
            for i, (slug, _) in enumerate(order)}


@contextlib.contextmanager
def _stop_signals_ignored():
    """SIGINT and SIGTERM are ignored inside the block: the run is stopping already."""
    import signal

    if threading.current_thread() is not threading.main_thread():  # only the main thread may set handlers
        yield
        return
    previous = {sig: signal.signal(sig, lambda signum, frame: None) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _start_worker(parent: int, scratch: str) -> None:
    """A worker process of a parallel build: stop signals left to the parent, and its temporary files (the
    copies of the fonts WeasyPrint makes, 1.1 MB) in `scratch`, which the parent deletes when the workers
    have ended, however they ended (a pool's worker ends by os._exit, so WeasyPrint never deletes them)."""
    tempfile.tempdir = scratch
    _ignore_stop_signals(parent)


def _ignore_stop_signals(parent: int | None = None) -> None:
    """Worker processes leave SIGINT and SIGTERM to the parent, which stops them itself. Should the parent
    die without stopping them (a SIGKILL, the out-of-memory killer), Linux sends each a SIGTERM, which ends
    it quietly: left running, each printed a BrokenPipeError traceback when it next reported."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            return
        if parent is not None and os.getppid() != parent:  # gone before the request took effect
            os._exit(0)


def _build_one(args: tuple) -> tuple[str, object, float, bool]:
    """Worker: lay out and render one puzzle. Returns (path, files or error, seconds, layout cached).

    `args` is (path, config, cache, engine, quick), then the page's `Neighbours` and, in this process only,
    a `stop` callable (BuildStopped goes up to `build_site`)."""
    path, config, cache, engine, quick, *rest = args
    neighbours = rest[0] if rest else (None, None)
    stop = rest[1] if len(rest) > 1 else None
    t0 = time.perf_counter()
    if stop is not None and stop():
        raise BuildStopped(Path(path).stem)
    try:
        puzzle = _read_source(path)
        layout, hit = cached_layout(puzzle, cache, engine)
        files = puzzle_files(puzzle, layout, config, quick=quick, stop=stop, neighbours=neighbours)
        from .render.pdf import small_squares

        small = "" if quick else small_squares(puzzle, layout)  # a quick build makes no PDF: the full one says it
        return str(path), (puzzle, layout, files, small, _SOURCES[str(path)][0]), time.perf_counter() - t0, hit
    except CrosswordError as exc:
        return str(path), exc, time.perf_counter() - t0, False
    except BuildStopped:
        raise
    except Exception as exc:  # a bug: fail this puzzle, keep its old outputs, build the others
        import jinja2

        from . import writer

        if isinstance(exc, jinja2.TemplateError):  # an edited template, not a bug of ours
            return str(path), template_error(exc), time.perf_counter() - t0, False

        if writer.stop_requested:
            # a stop signal landed inside a C callback (cairo) and surfaced as this error: it is the stop
            raise KeyboardInterrupt from exc
        if isinstance(exc, OSError) and exc.filename:
            # a file it must write and cannot (a read-only layout cache): the user's to fix, not a bug
            return str(path), FileSystemError(exc), time.perf_counter() - t0, False
        full = render_disk_error(exc) if isinstance(exc, OSError) else None
        if full is not None:  # a full temporary folder, say
            return str(path), full, time.perf_counter() - t0, False
        import traceback

        return str(path), unexpected(path, exc, traceback.format_exc()), time.perf_counter() - t0, False


def _site_folders_writable(out: Path) -> None:
    """FileSystemError when public/, tags/ or static/ cannot be written: they are written after the puzzles,
    so the build fails before a puzzle's page links to a tag page that never comes (a build with nothing to
    write, as of a read-only published copy, does not ask)."""
    for sub in ("tags", "static"):
        if (out / sub).is_symlink():  # as `write_site_files` would say, after the pages
            raise FileSystemError(FileExistsError(errno.EEXIST, "a symbolic link stands where a folder goes", str(out / sub)))
    for folder in (out, out / "tags", out / "static"):
        if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK, effective_ids=os.access in os.supports_effective_ids):
            raise FileSystemError(PermissionError(errno.EACCES, "Permission denied", str(folder)))


def _check_out(root: Path, out: Path) -> None:
    """OutputError for an output folder that holds the sources, or lies among them: a build there writes
    over what it reads (`--out .` put a puzzle named puzzles' text export over puzzles/puzzles.txt)."""
    where, what = out.resolve(), ""
    # the project's puzzles, and the tool's own templates and package (its static files): what the build reads
    for source in ((root / "puzzles").resolve(), TEMPLATES.resolve(), PACKAGE):
        if where == root.resolve():
            what = "it is the project folder itself"
        elif where == source or source in where.parents or where.exists() and source.exists() and os.path.samefile(where, source):
            what = f"it is {'' if where == source else 'inside '}{source.name}/, which the build reads"
        elif where in source.parents:
            what = f"it holds {source.name}/, which the build reads"
        if what:
            raise OutputError(out, reason=what, fix="build into a folder of its own (the default, public/, or --out site)")


def build_site(
    root: Path,
    out: Path | None = None,
    *,
    jobs: int = 1,
    force: bool = False,
    cache: Path | None = None,
    state: Path | None = None,
    report: Callable[[str], None] = lambda line: None,
    quick: bool = False,
    only: set[str] | None = None,
    stop: Callable[[], bool] | None = None,
) -> BuildResult:
    """Build root/puzzles into `out` (default root/public). See the module docstring.

    `quick` renders only the fast outputs of stale puzzles (the page, SVG,
    exports), leaving them stale so the next full build renders the rest;
    watch mode runs a quick build, then a full one. `only` limits the stale
    set to those slugs (the others count as unchanged if built before).
    `stop` (watch: a save is waiting), asked between one puzzle's slow
    renders and before each puzzle when building in this process, ends the
    build early: the puzzles written so far are whole and recorded, the rest
    stay stale, the index is left as it was, and `result.stopped` is set.

    One build of a folder runs at a time: a second (`make site` while `make
    watch` rebuilds, say) waits for the first to end, as `_one_build_at_a_time`
    says.

    `cache` holds cached layouts (default root/.cache); `state` the per-puzzle
    build keys that make the build incremental (default: the cache folder).
    """
    root = Path(root)
    if not (root / "puzzles").is_dir():
        raise PuzzleError(root, None, "no puzzles/ folder here; run from the project folder or pass --root")
    out = Path(out) if out is not None else root / "public"
    _check_out(root, out)
    cache = cache if cache is not None else root / ".cache"
    import jinja2

    with _one_build_at_a_time(cache, out, report):
        try:
            return _build_site(root, out, jobs=jobs, force=force, cache=cache, state=state, report=report,
                               quick=quick, only=only, stop=stop)
        except jinja2.TemplateError as exc:  # a page rendered here, not in a worker: the template's, as there
            raise template_error(exc) from None


def folder_key(folder: Path) -> str:
    """A short name for an output folder, the same through any link to it (its lock files are named so)."""
    return hashlib.sha256(os.fsencode(os.path.realpath(folder))).hexdigest()[:16]


@contextlib.contextmanager
def _one_build_at_a_time(cache: Path, out: Path, report: Callable[[str], None]):
    """Hold the lock on building `out` (a file under cache/build/, named by the folder's real path) while the
    block runs; wait for it, saying so, when another process holds it. Two builds of one folder at once each
    removed the other's half-written temporary files as leftovers of a crash, and wrote every page twice.
    The system lets go of the lock when its holder ends, however it ends. Where the cache cannot be written,
    or the system has no flock, the build goes on unlocked, as before there was one."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not a POSIX system
        yield
        return
    path = cache / "build" / f"{folder_key(out)}.lock"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - closed below, which lets go of the lock
    except OSError:
        yield
        return
    locked = True
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip()
            report(f"wait   another build of {out} (process {holder or 'unknown'}) is running: this one starts "
                   "when it ends")
            fcntl.flock(handle, fcntl.LOCK_EX)
        except OSError:  # a file system without locks (some network and FUSE mounts): unlocked, as before
            locked = False
        if locked:
            handle.seek(0)
            handle.truncate()
            handle.write(str(os.getpid()))
            handle.flush()
        yield
    finally:
        handle.close()


def _build_site(root: Path, out: Path, *, jobs: int, force: bool, cache: Path, state: Path | None,
                report: Callable[[str], None], quick: bool, only: set[str] | None,
                stop: Callable[[], bool] | None) -> BuildResult:
    """`build_site` once it holds the lock on `out` (its arguments as `build_site` settled them)."""
    if state is None:
        # what is built where: public/ has its own record, and each other --out folder its own, so a build
        # into one never makes another look up to date
        default = out.resolve() == (root / "public").resolve()
        state = cache if default else cache / "outs" / hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:16]
    config = load_config(root / "pyproject.toml")
    _remove_temp_files(out, (cache / "layouts", state / "state"))
    code, puzzle_code = fingerprints()
    engine = layout_fingerprint()
    result = BuildResult()

    infos: dict[str, PuzzleInfo] = {}
    stale: list[tuple[Path, str]] = []
    sources = puzzle_sources(root / "puzzles")
    forget_sources({str(p) for p in sources})
    readable: list[tuple[Path, Puzzle]] = []
    for path in sources:
        try:
            puzzle = _read_source(path)
        except CrosswordError as exc:
            result.failed.append((path.stem, exc))
            report(f"fail   {shown(path.stem)}")  # as a puzzle that fails later says (-q keeps it)
            if _declares_draft(path):
                result.failed_drafts.add(path.stem)
            continue
        if puzzle.meta.draft:
            result.drafts.append(path.stem)
            continue
        readable.append((path, puzzle))
    # the links between pages as the puzzles read now stand: a stale puzzle is built with them, and
    # `_relink` mends any page whose links the build's outcome changes (see there)
    links = neighbours_of(puzzle for _, puzzle in readable)
    if force and cache is not None:  # every puzzle laid out afresh too: a cached layout no fresh build makes goes
        for _, puzzle in readable:
            (cache / "layouts" / f"{layout_key(puzzle, params_for(puzzle), engine)}.json").unlink(missing_ok=True)
    sources: dict[str, str] = {}  # the source key of each puzzle read
    linked: dict[str, PageInputs] = {}  # what each page shows alone, where the build's record knows it
    for path, puzzle in readable:
        slug = path.stem
        key = sources[slug] = _source_key(_SOURCES[str(path)][0], puzzle_code, config)
        state_file = _state_path(state, slug)
        target = out / slug
        had = None if force else _recorded_page(state_file, key, target, slug)
        if had is not None:
            linked[slug] = had
        if only is not None and slug not in only and (out / slug).exists():
            try:
                infos[slug] = PuzzleInfo(puzzle, cached_layout(puzzle, cache, engine)[0])
                result.unchanged.append(slug)
                continue
            except CrosswordError as exc:
                result.failed.append((slug, exc))
                continue
        fresh = had is not None
        if fresh:
            try:
                layout, _ = cached_layout(puzzle, cache, engine)
            except CrosswordError as exc:  # pragma: no cover - a cached puzzle laid out before
                result.failed.append((slug, exc))
                continue
            infos[slug] = PuzzleInfo(puzzle, layout)
            result.unchanged.append(slug)
        else:
            stale.append((path, key))

    work = [(path, config, cache, engine, quick, links[path.stem]) for path, _ in stale]
    if work:
        _site_folders_writable(out)

    def record_key(path: str, text: str) -> str:
        """The record of a puzzle built from `text` (the worker's own read, which a save may have changed)."""
        key = sources[Path(path).stem] = _source_key(text, puzzle_code, config)
        return _record_key(key, _page_inputs(links[Path(path).stem], config))
    if jobs > 1 and len(work) > 1:
        import multiprocessing

        # fork: the workers inherit the imported renderers (WeasyPrint is slow to import)
        ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
        scratch = tempfile.mkdtemp(prefix=SCRATCH_PREFIX)  # the workers' temporary files, gone with them
        try:
            pool = ctx.Pool(min(jobs, len(work)), initializer=_start_worker, initargs=(os.getpid(), scratch))
            try:
                _collect(pool.imap(_build_one, work), out, state, record_key, infos, result, report, quick)
                pool.close()
                pool.join()
            except BaseException:
                # a Ctrl-C or a failure: the workers stop now, without tracebacks of their own. A second Ctrl-C
                # raised inside terminate() left the pool half stopped and join() waiting for good (2 runs in 16
                # of a double SIGINT): while the workers are stopped, a stop signal is ignored (the pool's own
                # threads may take it, so a signal mask would not hold it), and the stop goes on as before
                with _stop_signals_ignored():
                    pool.terminate()
                    pool.join()
                raise
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    else:
        try:
            _collect(map(_build_one, [(*w, stop) for w in work]), out, state, record_key, infos, result, report, quick)
        except BuildStopped:
            result.stopped = True
            return result

    linked.update((slug, _page_inputs(links[slug], config)) for slug in result.built)
    _relink(readable, infos, linked, sources, config, out, state, result, quick)
    published = set(infos)
    # a draft is on no page: one still being written (with errors) must not hold the index back
    failed_slugs = {slug for slug, _ in result.failed} - result.failed_drafts
    if not failed_slugs:
        result.written += write_site_files(out, list(infos.values()), config, code, state, report)
        stale = _remove_stale(out, published, state, report)
        result.removed += stale
        for slug in stale:
            report(f"remove {slug}")
    elif failed_slugs:
        # the styles, script and fonts do not depend on the puzzles: the pages just built need them
        record, own = _site_record(state), site_files()
        made, said = _recorded_site_files(record)
        if made is not None:  # the build's now, for a later build to remove when no longer made
            _record_site_files(record, made | {n for n in own if n.startswith("static/")}, said)
        for name, data in sorted(own.items()):
            if write_atomic(out / name, data):
                result.written.append(out / name)
        # and the pages of puzzles gone or made drafts stay up with it, linked from it, until every one builds
        waiting = [d.name for d in _stale_folders(out, published | {slug for slug, _ in result.failed})]
        held = (f"; {', '.join(waiting)} stay{'s' if len(waiting) == 1 else ''} on the site until then "
                "(gone from puzzles/ or made a draft)") if waiting else ""
        report(f"index  kept as it was: {len(failed_slugs)} puzzle(s) failed{held}")
    return result


def _relink(readable: list[tuple[Path, Puzzle]], infos: dict[str, PuzzleInfo], linked: dict[str, PageInputs],
            sources: dict[str, str], config: SiteConfig, out: Path, state: Path, result: BuildResult,
            quick: bool) -> None:
    """Write again, alone, each page whose links to the next newer and older puzzle are not those of the
    archive as it now stands: the puzzles read, less those whose build failed with no page from before.

    A new puzzle, one removed or made a draft, a new title or date changes its neighbours' links, and only
    their pages: the PDF and pictures stay (rendering those again cost seconds a neighbour). The puzzles
    built in this run were built with the links of every puzzle read, before any failed; a puzzle that
    cannot be read now has no known place (its date and title are in the file that fails): while one
    fails, the pages not built keep the links they have, as the index is kept as it was, rather than be
    written once without it and again when it is mended. A new base_url (the page's link-preview
    addresses) or site title (its masthead) writes every page alone the same way."""
    failed = {slug for slug, _ in result.failed}
    unread = failed - {path.stem for path, _ in readable} - result.failed_drafts
    standing = [p for path, p in readable if path.stem not in failed or (out / path.stem / "index.html").is_file()]
    final = neighbours_of(standing)
    for slug, neighbours in final.items():
        page = _page_inputs(neighbours, config)
        if slug in failed or slug not in infos or slug not in linked or linked[slug] == page:
            continue  # a page kept from before a failure, or one that is right (or unknown: watch's quick build)
        if unread and slug in result.unchanged:
            continue
        info = infos[slug]
        puzzle, layout = with_references(with_default_author(info.puzzle, config), info.layout)
        if write_atomic(out / slug / "index.html", render_page(puzzle, layout, config, neighbours)):
            result.written.append(out / slug / "index.html")
        if slug in result.unchanged or not quick:  # a quick build leaves its puzzles stale: no record
            write_atomic(_state_path(state, slug), _state(_record_key(sources[slug], page), out / slug, slug) or "")


def _declares_draft(path: Path) -> bool:
    """Whether a puzzle file that failed to load says `draft: true` in a front matter that parses."""
    from .source import parse_source, read_source

    try:
        return parse_source(read_source(path), path=path).meta.get("draft") is True
    except (CrosswordError, OSError, ValueError):
        return False


# write_atomic's: `.<name>.<mkstemp's 8 random characters>.tmp` (a `.my.backup.tmp` of someone's is no match)
TEMP_AGE = 120.0  # seconds: a temporary file older than this is a killed build's, not a running one's
_TEMP_NAME = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")


def _remove_temp_files(out: Path, more: Sequence[Path] = ()) -> None:
    """Delete the writer's temporary files (`.<name>.<random>.tmp`) that a killed build left in `out`.

    write_atomic removes its temporary file on any exception, but a SIGKILL (or
    a power cut) between creating and renaming it leaves one behind.
    """
    if not out.is_dir():
        return
    # only where the build writes (out/, a puzzle's folder, tags/, static/ and its fonts), and only names
    # of write_atomic's pattern: `--out` may name a folder that holds other people's files too
    folders = [out, *(d for d in sorted(out.iterdir()) if d.is_dir() and not d.is_symlink()), out / "static" / "fonts"]
    # and the layout cache and the build records, which a kill may leave one in too: there only files older
    # than TEMP_AGE, as a `check` or `watch` running beside this build (they share .cache) may be writing one
    aged = time.time() - TEMP_AGE
    for folder, since in [*((f, None) for f in folders), *((f, aged) for f in more)]:
        for tmp in sorted(folder.glob(".*.tmp")) if folder.is_dir() and not folder.is_symlink() else ():
            try:
                if _TEMP_NAME.fullmatch(tmp.name) and tmp.is_file() and (since is None or tmp.stat().st_mtime < since):
                    tmp.unlink(missing_ok=True)
            except OSError:
                pass


def _collect(outcomes: Iterable, out: Path, state: Path, record_key: Callable[[str, str], str], infos: dict[str, PuzzleInfo],
             result: BuildResult, report: Callable[[str], None], quick: bool) -> None:
    """Write each built puzzle's files as its outcome arrives (this process is the only writer)."""
    for path, value, seconds, hit in outcomes:
        slug = Path(path).stem
        if isinstance(value, CrosswordError):
            result.failed.append((slug, value))
            report(f"fail   {slug}")
            continue
        puzzle, layout, files, small, text = value
        # the record of what the folder holds goes before the folder changes, and comes back (with the new
        # key) only once every output is written: a quick build (watch), a stop or a crash part-way leaves
        # the puzzle stale, so undoing the edit that started it rebuilds it rather than trusting old outputs
        ours = _recorded_names(state, slug)  # before the record goes: outputs an older version wrote, too
        _state_path(state, slug).unlink(missing_ok=True)
        try:
            changed = _write_puzzle(out / slug, files, prune=not quick, ours=ours)
        except OSError as exc:
            from . import writer

            if exc.errno in DISK_ERRNOS or writer.stop_requested:
                raise  # a full or read-only disk fails every puzzle alike; a stop is a stop
            # a folder in the way, or one that cannot be written: this puzzle fails, as bad input would, and
            # the others still build (its record is gone, so the next build tries it again)
            result.failed.append((slug, FileSystemError(exc, out / slug)))
            report(f"fail   {slug}")
            continue
        result.written += changed
        infos[slug] = PuzzleInfo(puzzle, layout)
        result.built.append(slug)
        if not quick:
            write_atomic(_state_path(state, slug), _state(record_key(path, text), out / slug, slug) or "")
        hint = fill_clue_hint(puzzle, layout)
        if hint:
            result.needs_clues[slug] = hint
            report(hint)
        how = "layout cached" if hit else f"seed {layout.seed}"
        if layout.unplaced:
            result.left_out[slug] = layout.left_out_note()
        placed = len(layout.placements)
        answers = f"{placed} answer{'s' if placed != 1 else ''}" if not layout.unplaced else \
            f"{placed} of {placed + len(layout.unplaced)} answers"
        report(
            f"build  {slug}: {answers}, {layout.cols}x{layout.rows}, "
            f"{layout.crossings} crossing{'' if layout.crossings == 1 else 's'}, {how} ({seconds:.1f} s)" + (f"; {result.left_out[slug]}" if layout.unplaced else "")
            + (f"; {small}" if small else "")
        )


def _recorded_names(state: Path, slug: str) -> set[str]:
    """The output names the puzzle's build record lists (none when there is no record)."""
    try:
        lines = _state_path(state, slug).read_text(encoding="utf-8").splitlines()[1:]
    except (OSError, ValueError):
        return set()
    return {line.split(" ", 1)[0] for line in lines if line}


def _owned(folder: Path, slug: str, ours: set[str] = frozenset()) -> list[Path]:
    """The files of a puzzle's folder the build made: an output name of this version, or one the build
    record lists (an older version's); never a link, never a file someone else put there."""
    names = set(output_names(slug)) | set(ours)
    return [f for f in sorted(folder.iterdir()) if f.name in names and f.is_file() and not f.is_symlink()]


def _write_puzzle(folder: Path, files: dict[str, str | bytes], *, prune: bool = True,
                  ours: set[str] = frozenset()) -> list[Path]:
    # the build writes only into a real folder: through a link it would write, and prune, wherever it points
    if folder.is_symlink():
        raise FileExistsError(errno.EEXIST, "a symbolic link stands where the puzzle's folder goes", str(folder))
    # a file where the folder goes fails before anything is written (as a folder where a file goes does, in
    # write_together), so the puzzle's outputs stay all old rather than half new
    if folder.exists() and not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
    for name in sorted(files):
        if "/" in name or name.startswith("."):
            raise ValueError(f"bad output name {name!r}")
    # all or none: a disk that fills up part-way left the page new and the PDF old
    changed = write_together([(folder / name, files[name]) for name in sorted(files)])
    # outputs this version no longer makes (a file of the author's own in the folder stays: `check` names it)
    for old in _owned(folder, folder.name, ours) if prune else ():
        if old.name not in files:
            old.unlink()
            changed.append(old)
    return changed


def _is_layout_json(path: Path) -> bool:
    """Whether `path` is a layout JSON this build writes (render/text.layout_json), not someone's own."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and {"table", "result", "strategy", "crossings"} <= set(data)


def _stale_folders(out: Path, published: set[str]):
    """The puzzle folders of public/ whose puzzle is not in `published` (see `_remove_stale`)."""
    if not out.exists():
        return
    for d in sorted(out.iterdir()):
        if not d.is_dir() or d.is_symlink() or d.name in published or d.name in RESERVED_SLUGS:
            continue
        names = {f.name for f in d.iterdir()}
        # the JSON is written first and the page among the last: a folder a stopped build left has the JSON
        if f"{d.name}.json" in names and names & {"index.html", f"{d.name}.svg", f"{d.name}.ipuz"} and \
                _is_layout_json(d / f"{d.name}.json"):
            yield d


def _remove_stale(out: Path, published: set[str], state: Path | None = None,
                  report: Callable[[str], None] = lambda line: None) -> list[str]:
    """Delete the outputs in puzzle folders of public/ whose puzzle is gone or now a draft, and each
    folder left empty.

    A folder counts as a puzzle's only when it looks like one this build made: files only (no
    subfolder), among them a layout JSON named for the folder and its page, SVG or ipuz. `--out`
    may name a folder holding other things (an `api/api.json` beside its images stays). Only the
    build's own files go (`_owned`): an author's notes in the folder stay, and so does the folder.
    """
    removed = []
    for d in _stale_folders(out, published):
        # the build's own files go; a file or folder of the author's own keeps the folder (and itself)
        try:
            for f in _owned(d, d.name, _recorded_names(state, d.name) if state is not None else set()):
                f.unlink()
            kept = sorted(f.name for f in d.iterdir())
            if not kept:
                d.rmdir()
        except OSError as exc:
            raise FileSystemError(exc, d) from exc
        removed.append(d.name)
        if kept:
            listed = ", ".join(kept[:3]) + (f" and {len(kept) - 3} more" if len(kept) > 3 else "")
            report(f"keep   {shown(d.name)}/: {shown(listed)}, not made by the build (delete {'it' if len(kept) == 1 else 'them'} "
                   "if no longer wanted)")
    return removed


# ------------------------------------------------------------- site files


RENDER_ONLY = {"pdf.css"}  # WeasyPrint's stylesheet for the PDFs: read from the package, never linked by a page


def static_files() -> dict[str, bytes]:
    """public/static/: our CSS and JavaScript, and the fonts the renders use (as WOFF2, with their licences)."""
    files = {}
    for src in sorted(STATIC.rglob("*")):
        if src.is_file() and src.name not in RENDER_ONLY and not is_ignored(src.name):  # no editor's swap file
            files[f"static/{src.relative_to(STATIC).as_posix()}"] = src.read_bytes()
    for src in sorted(FONTS_DIR.glob("OFL-*.txt")):
        files[f"static/fonts/{src.name}"] = src.read_bytes()
    return files


def with_default_author(puzzle: Puzzle, config: SiteConfig) -> Puzzle:
    """The puzzle with the site's default author when it names none: it stands in everywhere (page,
    prints, exports), as on the index."""
    if puzzle.meta.author or not config.author:
        return puzzle
    return replace(puzzle, meta=replace(puzzle.meta, author=config.author))


def with_licence(puzzle: Puzzle, config: SiteConfig) -> Puzzle:
    """The puzzle with the site's licence as its copyright when it states none: for the PDF and the exports
    (a .puz's copyright line, the ipuz's), which leave the site and its footer behind."""
    if puzzle.meta.copyright or not config.licence:
        return puzzle
    return replace(puzzle, meta=replace(puzzle.meta, copyright=config.licence))


def template_error(exc) -> TemplateError:
    """A template that does not parse (jinja2.TemplateSyntaxError) or fails as it renders (an UndefinedError:
    `{{ nosuch.attr }}`), named as the author sees it: templates/index.html, not its absolute path. A render's
    error names no file: Jinja2 gives the template's frames in the traceback its file and line, and the
    innermost is the one the error is in."""
    import jinja2

    from .render import pages

    templates = pages.TEMPLATES.resolve()
    name, line = getattr(exc, "filename", None), getattr(exc, "lineno", None)
    if not name:
        tb = exc.__traceback__
        while tb is not None:
            frame_file = tb.tb_frame.f_code.co_filename
            if Path(frame_file).resolve().parent == templates:
                name, line = frame_file, tb.tb_lineno
            tb = tb.tb_next
    if name:
        try:
            name = Path(name).resolve().relative_to(templates.parent).as_posix()
        except ValueError:
            pass
    return TemplateError(name, line, getattr(exc, "message", None) or str(exc),
                         parsed=not isinstance(exc, jinja2.TemplateSyntaxError))


def service_worker(static: dict[str, bytes]) -> str:
    """public/sw.js: the worker that keeps the pages a reader opened readable offline (site_builder/sw.js),
    with the site's static files to keep at install and, as its version, a hash of them: a change to one
    installs a new worker, which replaces the old copies."""
    source = (PACKAGE / "sw.js").read_text(encoding="utf-8")
    digest = hashlib.sha256(source.encode())  # the worker's own code too: an edit to it is a new version
    for name in sorted(static):
        digest.update(name.encode() + b"\0" + hashlib.sha256(static[name]).digest())
    # the index goes among the pages (sw.js); a web font's second part (Greek, Cyrillic, ...: render/fonts.py)
    # is kept once a page has used it, not fetched by every reader at install
    from .render.fonts import WEB_PARTS

    later = f"-{WEB_PARTS[-1]}.woff2"
    keep = sorted(name for name in static if not name.endswith(later))
    used = sorted(name for name in static if name.endswith(later))
    return (source.replace("__VERSION__", digest.hexdigest()[:16]).replace("__PRECACHE__", json.dumps(keep))
            .replace("__LATER__", json.dumps(used)))


def site_files() -> dict[str, bytes | str]:
    """The site's own files as published: static/ (styles, scripts, fonts) and the worker that keeps them
    offline (sw.js), whose version is their hash."""
    static = static_files()
    return {**static, "sw.js": service_worker(static)}


TAG_PAGE = re.compile(r"tags/[a-z0-9]+(?:-[a-z0-9]+)*\.html")  # a tag page's name, as the build makes them


def _site_record(state: Path) -> Path:
    """The build's record of the files it wrote under tags/ and static/ (beside the puzzles' `.key` records)."""
    return state / "state" / "site.files"


def write_site_files(out: Path, infos: list[PuzzleInfo], config: SiteConfig, code: str | None = None,
                     state: Path | None = None, report: Callable[[str], None] | None = None) -> list[Path]:
    """Write the index, feed, tag pages and static files; remove the tag pages and static files no longer
    made. Only the build's own go: a tag page's name, or a file the last build's record (under `state`)
    lists. A file of someone else's under tags/ or static/ (a logo, a README) stays, and `report` names it."""
    import jinja2

    from .render.pages import site_pages

    try:
        newest = sorted(infos, key=lambda i: archive_key(i.puzzle))
        files = site_pages(newest, config, code)
    except jinja2.TemplateError as exc:  # index.html, tag.html or feed.xml edited: the author's to fix
        raise template_error(exc) from None
    files.update(site_files())
    changed = []
    for sub in ("tags", "static", "static/fonts"):  # never written, nor pruned, through a link (`_write_puzzle`)
        if (out / sub).is_symlink():
            raise FileSystemError(FileExistsError(errno.EEXIST, "a symbolic link stands where a folder goes", str(out / sub)))
    record = _site_record(state) if state is not None else None
    made, said = _recorded_site_files(record)
    ours = sorted(name for name in files if name.startswith(("tags/", "static/")))
    if record is not None:  # what is about to be written, first: a build stopped part-way still knows it wrote them
        _record_site_files(record, (made or set()) | set(ours), said)
    # the tag pages and static files first, the index and feed last: a build that fails part-way (a tags/
    # folder that cannot be written) leaves no index linking to a tag page it never wrote
    for name in sorted(files, key=lambda name: ("/" not in name, name)):
        if write_atomic(out / name, files[name]):
            changed.append(out / name)
    # tag pages and static files that are no longer made: those the build made (its record lists what the
    # last build wrote: a tag page, an older version's style sheet or font); anyone else's stay, and are named
    kept = []
    for old, rel in _unmade_site_files(out, set(files) | set(config.own_files)):
        if _made_once(rel, made):
            old.unlink()
            changed.append(old)
        else:
            kept.append(rel)
    kept.sort()
    if kept and set(kept) != said and report is not None:  # said once, not on every build (`check` says it too)
        listed = ", ".join(kept[:3]) + (f" and {len(kept) - 3} more" if len(kept) > 3 else "")
        it = "it" if len(kept) == 1 else "them"
        whose = "this version of the build (an earlier version's, or yours)" if made is None else "the build"
        report(f"keep   {shown(listed)}: not made by {whose} (`check` counts {it} as drift: list {it} in own_files under "
               f"[tool.crossword], or delete {it})")
    if record is not None:
        _record_site_files(record, set(ours), set(kept) if report is not None else said)
    return changed


def _unmade_site_files(out: Path, made_now: set[str]):
    """(path, name relative to `out`) of each file under tags/ and static/ that is not in `made_now`: links
    neither followed nor listed."""
    for sub in ("tags", "static"):
        for top, dirs, names in os.walk(out / sub):
            dirs.sort()
            for name in sorted(names):
                path = Path(top) / name
                rel = path.relative_to(out).as_posix()
                if not path.is_symlink() and path.is_file() and rel not in made_now:
                    yield path, rel


def _made_once(rel: str, made: set[str] | None) -> bool:
    """Whether the build made this file under tags/ or static/: its record says so, or with no record (a
    fresh clone, `make clean`), it has a tag page's name."""
    return rel in made if made is not None else bool(TAG_PAGE.fullmatch(rel))


def _recorded_site_files(record: Path | None) -> tuple[set[str] | None, set[str]]:
    """What the site record says the build wrote under tags/ and static/ (None: no record, as in a fresh
    clone or after `make clean`), and the files of someone else's there it has named already."""
    try:
        text = record.read_text(encoding="utf-8") if record is not None else None
    except (OSError, ValueError):
        text = None
    if text is None:
        return None, set()
    try:
        last = json.loads(text)
        return set(last["made"]), set(last["kept"])
    except (ValueError, TypeError, KeyError):  # a first version's record: the names, a line each
        return {line for line in text.split("\n") if line}, set()


def _record_site_files(record: Path, made: set[str], said: set[str]) -> None:
    write_atomic(record, json.dumps({"made": sorted(made), "kept": sorted(said)}, indent=0) + "\n")


# ------------------------------------------------------------------- check

TEXT_SUFFIXES = {".html", ".txt", ".md", ".json", ".svg", ".xml", ".xd", ".ipuz", ".css", ".js"}


@dataclass(frozen=True)
class Drift:
    path: str  # relative to public/
    # "differs", "missing" (the build makes it, public/ lacks it), "stale" (public/ has it, the build does not make
    # it), "gone" (the build made it once and removes it: a deleted puzzle's outputs, a tag no puzzle has now)
    kind: str
    source: str  # the puzzle file it comes from, or "site" for index, feed, tags and static files
    diff: str = ""


def _source_of(rel: str, root: Path) -> str:
    first = rel.split("/", 1)[0]
    if "/" in rel and first not in RESERVED_SLUGS:
        if not (root / "puzzles" / f"{first}.txt").is_file():
            return f"no source: puzzles/{first}.txt does not exist"
        return f"puzzles/{first}.txt"
    return "site (templates, static files, pyproject.toml)"


def compare_trees(expected: Path, actual: Path, root: Path, own: Sequence[str] = (),
                  gone: Collection[str] = ()) -> list[Drift]:
    """Differences between a fresh build (`expected`) and the committed folder (`actual`); `own` files
    (the site's `own_files`) are the operator's, and count only where the build makes them too; `gone`
    files (`removed_by_build`) are drift the next build there takes away itself."""
    import difflib

    def files(folder: Path) -> dict[str, Path]:
        if not folder.exists():
            return {}
        return {p.relative_to(folder).as_posix(): p for p in folder.rglob("*") if p.is_file()}

    want, have = files(expected), files(actual)
    drifts = []
    for rel in sorted(set(want) | set(have)):
        src = _source_of(rel, root)
        if rel not in have:
            drifts.append(Drift(rel, "missing", src))
        elif rel not in want:
            if rel not in own:
                drifts.append(Drift(rel, "gone" if rel in gone else "stale", src))
        else:
            a, b = want[rel].read_bytes(), have[rel].read_bytes()
            if a == b:
                continue
            diff = ""
            if Path(rel).suffix in TEXT_SUFFIXES:
                try:
                    lines = difflib.unified_diff(
                        b.decode("utf-8").splitlines(keepends=True),
                        a.decode("utf-8").splitlines(keepends=True),
                        fromfile=f"public/{rel} (as it is)",
                        tofile=f"public/{rel} (built)",
                        n=2,
                    )
                    diff = _short_diff(list(lines))
                except UnicodeDecodeError:
                    diff = ""
            drifts.append(Drift(rel, "differs", src, diff))
    return drifts


DIFF_LINES = 40  # lines of one file's diff that `check` prints; the rest are counted
DIFF_WIDTH = 200  # characters of one diff line (a page's embedded data is one line of thousands)


def _first_change(a: str, b: str) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def _short_diff(lines: list[str]) -> str:
    """A unified diff cut to what a terminal shows well: DIFF_LINES lines of at most DIFF_WIDTH characters.

    A long changed line is shown from a little before where it differs from its partner (the removed line
    before an added one, or the added one after a removed one), so a one-word change deep in a page's
    embedded data is what the window shows.
    """
    bodies = [line.rstrip("\n") for line in lines[:DIFF_LINES]]
    out = []
    for n, body in enumerate(bodies):
        if len(body) > DIFF_WIDTH:
            mark = body[0] if body[:1] in ("-", "+", " ") and not body.startswith(("---", "+++")) else ""
            text = body[len(mark):]
            partner = bodies[n + 1] if mark == "-" and n + 1 < len(bodies) else bodies[n - 1] if mark == "+" and n else ""
            at = _first_change(text, partner[1:]) if partner[:1] in ("-", "+") and partner[:1] != mark else 0
            start = max(0, at - DIFF_WIDTH // 4)
            window = text[start:start + DIFF_WIDTH - len(mark)]
            after = len(text) - start - len(window)
            body = mark + (f"({start} characters) ..." if start else "") + window + \
                (f"... ({after} more characters)" if after else "")
        out.append(body + "\n")
    if len(lines) > DIFF_LINES:
        out.append(f"... {len(lines) - DIFF_LINES} more lines (make site, then git diff public/, shows them all)\n")
    return "".join(out)


def removed_by_build(out: Path, published: set[str], state: Path) -> set[str]:
    """The files of `out` (relative paths) that a build there deletes, as no longer made: a deleted or
    drafted puzzle's outputs (`_remove_stale`), and the tag pages and static files the build made and makes
    no more (`write_site_files`; with no record, as in a fresh clone, tag pages by their name). What it
    leaves (a file of the author's own) is not among them."""
    gone = set()
    for d in _stale_folders(out, published):
        gone.update(f"{d.name}/{f.name}" for f in _owned(d, d.name, _recorded_names(state, d.name)))
    made, _ = _recorded_site_files(_site_record(state))
    gone.update(rel for _, rel in _unmade_site_files(out, set()) if _made_once(rel, made))
    return gone


def check_site(root: Path, *, jobs: int = 1, report: Callable[[str], None] = lambda line: None) -> tuple[BuildResult, list[Drift]]:
    """Build everything into a temporary folder and compare it with root/public, byte for byte.

    As a clean checkout builds it (CI's drift check): every layout is made again, in a cache of its own,
    not taken from root/.cache, so the check cannot pass on a layout no fresh build would make."""

    root = Path(root)
    with tempfile.TemporaryDirectory(prefix="crossword-check-") as tmp:
        tmp_path = Path(tmp)
        result = build_site(root, tmp_path / "public", jobs=jobs, force=True, state=tmp_path / "state",
                            cache=tmp_path / "cache", report=report)
        if not result.ok:
            return result, []
        own = load_config(root / "pyproject.toml").own_files
        published = set(result.built) | set(result.unchanged)
        gone = removed_by_build(root / "public", published, root / ".cache")
        return result, compare_trees(tmp_path / "public", root / "public", root, own, gone)
