"""Watch mode: `crossword watch` (and `make watch`).

Build what is stale, serve public/ on http://127.0.0.1:PORT/, watch the
sources, rebuild on every save and reload the open browser pages.

- Sources watched: puzzles/*.txt, pyproject.toml (site settings), the
  templates and the package's static files. A change to the package's own
  Python code restarts the process (the new code is what the build records).
- Debounced: events are collected until the sources have been quiet for
  QUIET seconds, so one save is one rebuild and a burst of saves is one
  rebuild of the last state. Editor droppings (swap files, backups, vim's
  4913 probe, dotfiles, temp files renamed over the puzzle) are ignored; a
  rename onto a puzzle counts as a change of that puzzle.
- Fast path: a quick build of the changed puzzles (page, SVG and exports,
  layout from the cache when only clues changed), browsers reload, then a
  full build (PNG, PDF) and browsers reload again if a file they show changed.
  One line per rebuild says what changed, what was rebuilt and how long it
  took. A bad file prints `file:line: error: message`; the last good outputs
  stay and the watcher keeps going.
- Live reload without an extension: HTML responses get a small script at
  serve time (the files in public/ never carry it). One tab of a browser
  long-polls /__reload and tells the others of each build, and each page
  reloads when a build changed it, or when the server restarted. Open pages
  show the build's errors in a panel until a build without them.
- Ctrl-C or SIGTERM: the server and the observer stop, no temporary files
  stay behind, exit status 0.
"""

from __future__ import annotations

import collections
import errno
import html
import json
import os
import posixpath
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from io import BytesIO
from pathlib import Path
from typing import Callable, Sequence

from .errors import CrosswordError
from .site import PACKAGE, STATIC, TEMPLATES, BuildResult, build_site, folder_key
from .source import is_ignored, puzzle_sources
from . import writer
from .writer import make_folder

QUIET = 0.2  # seconds without events before a rebuild starts
MAX_WAIT = 2.0  # ... but never wait longer than this after the first event of a burst
GONE = 1.0  # seconds without events before a puzzle file that is gone counts as deleted (see ChangeQueue)
LONG_POLL = 25.0  # seconds a /__reload request waits for a build before answering "nothing new"
RELOAD_PATH = "/__reload"

# ------------------------------------------------------------------ events

@dataclass(frozen=True)
class Source:
    """What a changed path means to the build."""

    kind: str  # "puzzle", "site" (templates, static files, settings), "code" (restart) or "unread" (see classify)
    path: Path


def classify(path: str | Path, root: Path) -> Source | None:
    """The meaning of a changed file, or None when it does not matter."""
    p = Path(path)
    if is_ignored(p.name) or "__pycache__" in p.parts:
        return None
    puzzles = (root / "puzzles").resolve()
    if p.resolve() == puzzles:  # the folder itself, made again (or moved away): every puzzle, read afresh
        return Source("folder", p)
    parent = p.parent.resolve()
    if parent == puzzles:
        if p.suffix == ".txt":
            return Source("puzzle", p)
        # a 'Shout.TXT', or front matter saved with no extension: never read, and the author is told why
        # (as `unread_sources` finds them; a README or a Makefile beside the puzzles is no news)
        return Source("unread", p) if p.suffix.lower() == ".txt" or (not p.suffix and _front_matter(p)) else None
    if parent == root.resolve():
        return Source("site", p) if p.name == "pyproject.toml" else None
    for base in (TEMPLATES, STATIC):
        if _inside(p, base):
            return Source("site", p)
    if p.resolve() == (PACKAGE / "sw.js").resolve():  # the offline worker: a site file, as the static ones
        return Source("site", p)
    if _inside(p, PACKAGE) and p.suffix == ".py":
        return Source("code", p)
    return None


def _front_matter(path: Path) -> bool:
    """Whether a file opens with a front-matter fence (False when it is gone or cannot be read)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(6).removeprefix(b"\xef\xbb\xbf").startswith(b"---")
    except OSError:
        return False


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


class ChangeQueue:
    """Collects changed paths from the observer thread; hands them over once the sources are quiet.

    A puzzle file that is gone waits `gone` seconds without events, not `quiet`: an editor that saves by
    moving the file aside and the new one into its place (JetBrains' safe write, Emacs' backup by renaming)
    can leave it missing for a moment, and the build would take it for deleted, remove the puzzle's pages
    and the index's card, and make them again a second later.
    """

    def __init__(self, quiet: float = QUIET, max_wait: float = MAX_WAIT, gone: float = GONE):
        self.quiet = quiet
        self.max_wait = max_wait
        self.gone = max(gone, quiet)
        self._paths: dict[str, None] = {}  # insertion-ordered set
        self._sources: set[str] = set()  # the puzzle files among them
        self._first = 0.0
        self._last = 0.0
        self._cond = threading.Condition()

    def add(self, path: str, source: bool = False) -> None:
        """A changed path; `source`: a puzzle file (see the class's note)."""
        with self._cond:
            now = time.monotonic()
            if not self._paths:
                self._first = now
            self._paths[path] = None
            if source:
                self._sources.add(path)
            self._last = now
            self._cond.notify_all()

    def pending(self) -> bool:
        with self._cond:
            return bool(self._paths)

    def waiting(self) -> list[str]:
        """The changed paths not yet taken."""
        with self._cond:
            return list(self._paths)

    def take(self, timeout: float) -> list[str]:
        """Wait up to `timeout` for changes, then until they are quiet; [] when none came."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                now = time.monotonic()
                if self._paths:
                    missing = any(not os.path.lexists(p) for p in self._sources)
                    ready = min(self._last + (self.gone if missing else self.quiet), self._first + self.max_wait)
                    if now >= ready:
                        batch = list(self._paths)
                        self._paths.clear()
                        self._sources.clear()
                        return batch
                    self._cond.wait(ready - now)
                elif now >= deadline:
                    return []
                else:
                    self._cond.wait(deadline - now)


def _event_handler(queue: ChangeQueue, root: Path):
    from watchdog.events import FileSystemEventHandler

    class Handler(FileSystemEventHandler):
        # Opened and closed events are ignored: the build itself reads the sources.
        def on_any_event(self, event):
            if event.event_type not in ("created", "modified", "deleted", "moved"):
                return
            for p in (event.src_path, getattr(event, "dest_path", "")):
                if not p:
                    continue
                kind = classify(os.fsdecode(p), root)
                # of folders, only puzzles/ itself matters: removed and made again, it is another folder to watch
                # (not "modified": a save inside it modifies it too)
                if kind is not None and (not event.is_directory
                                         or (kind.kind == "folder" and event.event_type != "modified")):
                    queue.add(os.fsdecode(p), source=kind.kind == "puzzle")

    return Handler()


# ------------------------------------------------------------- live reload


class ReloadState:
    """The build counter browsers poll, with what each build changed (paths relative to public/)."""

    KEEP = 64

    def __init__(self, out: Path):
        self.out = out
        self.token = f"{os.getpid()}-{time.time_ns()}"  # a restarted server has a new token: pages reload
        self.build = 0
        self._history: collections.deque[tuple[int, frozenset[str], frozenset[str]]] = collections.deque(maxlen=self.KEEP)
        self._cond = threading.Condition()
        self.closed = False
        # what is failing now, shown on every open page until fixed: puzzle slug (or "" for the
        # settings, a template or a crash) -> the error as the terminal prints it
        self._problems: dict[str, str] = {}
        # changed code that does not compile: until the fixed code restarts the process, whatever builds
        self._code_problem: str | None = None

    def bump(self, result: BuildResult, slugs: set[str] | None = None) -> int:
        """A build finished: wake the pages waiting. `slugs` (the puzzles with a source file) drops
        the problems of deleted files."""
        changed = set()
        for p in result.written:
            try:
                changed.add(Path(p).resolve().relative_to(self.out.resolve()).as_posix())
            except ValueError:
                pass
        with self._cond:
            # the build ran, so the settings and templates read again; after a build that stopped part-way
            # (pages written, then a template failed) no one knows what open pages show: all reload
            everything = self._problems.pop("", None) is not None
            for slug in [*result.built, *result.unchanged, *result.removed, *result.drafts]:
                self._problems.pop(slug, None)
            for slug, exc in result.failed:
                self._problems[slug] = exc.diagnostic()  # as the terminal prints it
            if slugs is not None:
                for slug in [s for s in self._problems if s and s not in slugs]:
                    del self._problems[slug]
            return self._next(changed, result.removed, everything)

    def fail(self, message: str) -> int:
        """A build that stopped before its end (settings, a template, a crash): pages show it."""
        with self._cond:
            self._problems[""] = message
            return self._next(set(), [])

    def code_failed(self, messages: list[str]) -> int:
        """Changed Python code that does not compile: pages show it until the fixed code restarts the watcher
        (a new process, a new state); a build of the old code meanwhile does not clear it."""
        with self._cond:
            self._code_problem = "\n".join(messages)
            return self._next(set(), [])

    def _next(self, changed: set[str], removed, everything: bool = False) -> int:
        self.build += 1
        self._history.append((self.build, frozenset(changed), frozenset(removed), everything))
        self._cond.notify_all()
        return self.build

    def problems(self) -> list[str]:
        """The errors now, each once (a template that does not parse fails every puzzle alike)."""
        with self._cond:
            found = [self._problems[k] for k in sorted(self._problems)]
            return list(dict.fromkeys(found + ([self._code_problem] if self._code_problem else [])))

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    def wait(self, since: int, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        with self._cond:
            while self.build <= since and not self.closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)
            return self.build

    def affects(self, page: str, since: int) -> bool:
        """Did a build after `since` change the page at `page` (relative to public/) or a file it uses?"""
        with self._cond:
            builds = [h for h in self._history if h[0] > since]
            if not builds or builds[0][0] != since + 1:
                return True  # history too short to tell: reload to be safe
        folder = posixpath.dirname(page)
        try:
            text = (self.out / page).read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        shown = embedded(text)
        for _n, changed, removed, everything in builds:
            if everything or page in changed or folder.split("/", 1)[0] in removed:
                return True
            for c in changed:
                if posixpath.relpath(c, folder or ".") in shown or "/" + c in shown:
                    return True
        return False


_EMBEDS = re.compile(r"""<(?:img|script|source|link)\b[^>]*?\b(?:src|href|srcset)\s*=\s*["']([^"']+)["']""", re.I)


def embedded(page: str) -> set[str]:
    """What a page draws with: images, scripts, stylesheets, icons (not the files it merely links to).

    A download link (`<a href="x.pdf">`) changing is no reason to reload the page showing it.
    """
    out = set()
    for ref in _EMBEDS.findall(page):
        for part in ref.split(","):  # a srcset: "a.png 1x, b.png 2x"
            url = part.strip().split(" ")[0].split("#")[0].split("?")[0]
            if url:
                out.add(url)
    return out


RELOAD_SCRIPT = """<script>/* crossword watch: live reload, added when served, never in public/ */
(function () {
  var build = %(build)d, token = %(token)s, problems = %(problems)s;
  var url = "%(endpoint)s?token=" + encodeURIComponent(token) + "&path=" + encodeURIComponent(location.pathname);
  // One waiting request per browser, not one per tab: a browser opens at most six connections to a
  // server, and six tabs each holding one would stall every other page. The tab holding the lock
  // waits for the next build and tells the others, which then ask, without waiting, whether their
  // own page changed. (No locks outside a secure context, e.g. a phone on the LAN: every tab waits.)
  var channel = window.BroadcastChannel ? new BroadcastChannel("crossword-watch") : null;
  var shared = !!(channel && navigator.locks);
  function ask(wait) {
    return fetch(url + "&since=" + build + (wait ? "" : "&wait=0"), {cache: "no-store"})
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); });
  }
  function take(d) {
    if (d.reload) { location.reload(); return false; }
    build = d.build;
    show(d.problems || []);
    return true;
  }
  function poll() {
    ask(true).then(function (d) {
      if (shared) { channel.postMessage(d.build); }
      if (take(d)) { poll(); }
    }).catch(function () { setTimeout(poll, 1000); });
  }
  // the build's errors, over the page until a build without them: the page is the last good one
  function show(list) {
    var box = document.getElementById("crossword-watch-problems");
    if (!list.length) { if (box) { box.remove(); } return; }
    if (!box) {
      box = document.createElement("div");
      box.id = "crossword-watch-problems";
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;left:0;right:0;bottom:0;z-index:2147483647;max-height:40vh;overflow:auto;" +
        "margin:0;padding:.6rem 2.6rem .7rem .9rem;background:#7a1010;color:#fff;font:13px/1.45 ui-monospace,monospace;" +
        "white-space:pre-wrap;overflow-wrap:anywhere;box-shadow:0 -2px 8px rgba(0,0,0,.3)";
      var close = document.createElement("button");
      close.type = "button";
      close.textContent = "\\u00d7";
      close.setAttribute("aria-label", "Hide");
      close.style.cssText = "position:absolute;top:.3rem;right:.5rem;font:20px/1 sans-serif;color:#fff;" +
        "background:none;border:0;cursor:pointer";
      close.onclick = function () { box.hidden = true; };
      box.appendChild(close);
      box.appendChild(document.createElement("div"));
      document.body.appendChild(box);
    }
    var missing = document.querySelector('meta[name="crossword-watch"][content="missing"]');  // the 404 below
    var text = (missing ? "This page does not exist (yet), and the last save did not build:\\n" :
      "The last save did not build; this page is the last good one.\\n") + list.join("\\n");
    if (box.lastChild.textContent !== text) { box.lastChild.textContent = text; box.hidden = false; }
  }
  show(problems);
  if (shared) {
    channel.onmessage = function (e) { if (e.data !== build) { ask(false).then(take, function () {}); } };
    ask(false).then(take, function () {});  // a build between serving this page and now
    navigator.locks.request("crossword-watch", function () { poll(); return new Promise(function () {}); });
  } else {
    poll();
  }
})();
</script>
"""


def inject_reload(page: bytes, build: int, token: str, problems: Sequence[str] = ()) -> bytes:
    """The page with the reload script before its last </body> (at the end when there is none)."""
    # the problems go in as JSON inside a <script>: '<' escaped, so an error quoting '</script>' stays text
    listed = json.dumps(list(problems)).replace("<", "\\u003c")
    script = (RELOAD_SCRIPT % {"build": build, "token": json.dumps(token), "endpoint": RELOAD_PATH,
                               "problems": listed}).encode()
    at = page.lower().rfind(b"</body>")
    if at < 0:
        return page + script
    return page[:at] + script + page[at:]


# -------------------------------------------------------------------- HTTP

TEXT_TYPES = {
    ".html": "text/html",
    ".css": "text/css",
    ".js": "text/javascript",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".xml": "application/xml",
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".xd": "text/plain",
    ".ipuz": "application/json",
}


class Handler(SimpleHTTPRequestHandler):
    """Serves public/ like a static host would, plus the reload endpoint and the injected script."""

    reload_state: ReloadState  # set on the subclass made by make_server
    server_version = "crossword-watch"
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass  # quiet: the terminal is for rebuild lines

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def guess_type(self, path):
        ext = os.path.splitext(str(path))[1].lower()
        if ext in TEXT_TYPES:
            kind = TEXT_TYPES[ext]
            return kind if kind.startswith("image/") else kind + "; charset=utf-8"
        if ext == ".pdf":
            return "application/pdf"
        return super().guess_type(path)

    def do_GET(self):
        if urllib.parse.urlsplit(self.path).path == RELOAD_PATH:
            return self._reload()
        return super().do_GET()

    def _file_for(self, url_path: str) -> tuple[Path | None, str]:
        """The file an URL path names inside public/ and its path relative to public/; (None, rel) if none."""
        root = Path(self.directory).resolve()
        parts = [p for p in urllib.parse.unquote(url_path).split("/") if p not in ("", ".")]
        if any(p == ".." or p.startswith(".") or "\\" in p or "\0" in p for p in parts):
            return None, ""
        rel = "/".join(parts)
        target = root.joinpath(*parts) if parts else root
        if target.is_dir() or url_path.endswith("/"):
            rel = posixpath.join(rel, "index.html") if rel else "index.html"
            target = target / "index.html"
        try:
            target.resolve().relative_to(root)
        except ValueError:
            return None, rel
        return (target if target.is_file() else None), rel

    def send_head(self):
        url_path = urllib.parse.urlsplit(self.path).path
        target, rel = self._file_for(url_path)
        if target is not None and target.name == "index.html" and not url_path.endswith(("/", ".html")):
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", url_path + "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if target is None:
            return self._not_found(rel)
        if target.suffix != ".html":
            return self._send_file(target)
        state = self.reload_state
        body = inject_reload(target.read_bytes(), state.build, state.token, state.problems())
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return BytesIO(body)

    def _send_file(self, target: Path):
        try:
            f = open(target, "rb")
        except OSError:
            return self._not_found("")
        size = os.fstat(f.fileno()).st_size
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(target))
        self.send_header("Content-Length", str(size))
        self.end_headers()
        return f

    def _not_found(self, rel: str):
        """A 404 page that carries the reload script: a puzzle that is being added appears by itself."""
        state = self.reload_state
        page = (
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found</title>"
            "<meta name=\"crossword-watch\" content=\"missing\"></head><body>"
            f"<h1>Not found</h1><p>public/{html.escape(rel)} does not exist (yet).</p>"
            "<p><a href=\"/\">All puzzles</a></p></body></html>\n"
        ).encode()
        body = inject_reload(page, state.build, state.token, state.problems())
        self.send_response(HTTPStatus.NOT_FOUND)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return BytesIO(body)

    def _reload(self):
        state = self.reload_state
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        token = query.get("token", [""])[0]
        page_url = query.get("path", ["/"])[0]
        try:
            since = int(query.get("since", [""])[0])
        except ValueError:
            since = None
        if since is None:
            answer = {"build": state.build, "token": state.token, "reload": False}
        elif token and token != state.token:
            answer = {"build": state.build, "token": state.token, "reload": True}
        else:
            # wait=0: a tab told of a new build by the one tab that waits (see RELOAD_SCRIPT) asks at once
            build = state.wait(since, 0 if query.get("wait") == ["0"] else LONG_POLL)
            _target, rel = self._file_for(urllib.parse.urlsplit(page_url).path)
            reload = build > since and state.affects(rel, since)
            answer = {"build": build, "token": state.token, "reload": reload}
        answer["problems"] = state.problems()
        body = json.dumps(answer).encode()
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser went away mid-answer


def make_server(out: Path, host: str, port: int, state: ReloadState) -> ThreadingHTTPServer:
    """Bind now (so a busy port fails before the build); serve_forever() later."""
    handler = type("WatchHandler", (Handler,), {"reload_state": state})
    server = ThreadingHTTPServer((host, port), partial(handler, directory=str(out)))
    server.daemon_threads = True
    return server


# ------------------------------------------------------------------- watch


class Stop(BaseException):
    """Raised by the signal handlers in the main thread: Ctrl-C or SIGTERM (not an Exception, like KeyboardInterrupt)."""


@dataclass
class Rebuild:
    """One pass of the loop: a quick build, then (usually) a full one."""

    changes: list[tuple[str, str]]  # (verb, path for people)
    quick: BuildResult | None = None
    full: BuildResult | None = None
    quick_s: float = 0.0
    full_s: float | None = None
    failures: list[tuple[str, CrosswordError]] = field(default_factory=list)


class Watcher:
    """The rebuild loop, without the HTTP server (bench_watch drives it directly)."""

    def __init__(self, root: Path, out: Path | None = None, *, quiet: float = QUIET,
                 say: Callable[[str], None] | None = None, on_build: Callable[[str, BuildResult], None] | None = None):
        self.root = Path(root)
        self.out = Path(out) if out is not None else self.root / "public"
        self.queue = ChangeQueue(quiet)
        self.say = say or (lambda line: print(line, flush=True))
        self.on_build = on_build or (lambda stage, result: None)
        self.on_failure: Callable[[str], None] = lambda message: None  # a build that stopped (see _failed)
        self.full_owed = False
        self.known = self._puzzle_paths()
        self.observer = None
        self.restart_wanted: list[Path] = []
        self.folder_gone = False  # puzzles/ removed, and said so
        self.told: set[str] = set()  # the notes on unread files already said

    # -- sources

    def _puzzle_paths(self) -> set[str]:
        return {p.name for p in puzzle_sources(self.root / "puzzles") if p.is_file()}

    def watched_folders(self) -> list[tuple[Path, bool]]:
        folders = [(self.root / "puzzles", False), (self.root, False), (TEMPLATES, True), (PACKAGE, True)]
        return [(f, r) for f, r in folders if f.is_dir()]

    def start_observer(self) -> None:
        from watchdog.observers import Observer

        observer = Observer()
        handler = _event_handler(self.queue, self.root)
        for folder, recursive in self.watched_folders():
            observer.schedule(handler, str(folder), recursive=recursive)
        observer.daemon = True
        observer.start()
        self.observer = observer

    def watch_again(self) -> None:
        """Watch puzzles/ afresh: it was made, removed or moved (an author's `rm -rf puzzles` and a copy back, or
        a `mv` of a folder of puzzles into its place), and the watch on the folder before saw no save again.
        Always: a folder removed and made again often has the same inode, so that tells nothing."""
        if self.observer is not None:
            self.stop_observer()
            self.start_observer()

    def stop_observer(self) -> None:
        if self.observer is not None:
            self.observer.stop()
            self.observer.join(timeout=5)
            self.observer = None

    def _show(self, path: Path) -> str:
        for base in (self.root, PACKAGE.parent):
            try:
                return path.resolve().relative_to(base.resolve()).as_posix()
            except ValueError:
                pass
        return str(path)

    # -- building

    def _build(self, stage: str, **kwargs) -> tuple[BuildResult, float]:
        t0 = time.perf_counter()
        result = build_site(self.root, self.out, report=self._said, **kwargs)
        seconds = time.perf_counter() - t0
        # a file read while it was being saved ("the file is empty": an editor empties it, then writes) fails
        # for nothing: a save is waiting, and its own build says how the file reads once written
        waiting = {Path(p).stem for p in self.queue.waiting() if Path(p).suffix == ".txt"}
        if waiting and result.failed:
            result.failed = [(slug, exc) for slug, exc in result.failed if slug not in waiting]
        self.on_build(stage, result)
        return result, seconds

    def _said(self, line: str) -> None:
        """Of what a build says, that it waits for another build of the folder (`make site` in another
        terminal: the save seemed to take seconds to build otherwise), and which files of someone else's it
        keeps in public/ (said once, by whichever build meets them first)."""
        if line.startswith("wait "):
            self.say(f"{time.strftime('%H:%M:%S')}  {line.split(None, 1)[1]}")
        elif line.startswith("keep "):
            self.say(f"{time.strftime('%H:%M:%S')}  {line}")

    def start(self) -> Rebuild:
        """The first quick build: every stale puzzle's page, before the server starts."""
        run = Rebuild([])
        run.quick, run.quick_s = self._build("quick", quick=True)
        run.failures = list(run.quick.failed)
        self.full_owed = bool(run.quick.built)
        return run

    def rebuild(self, sources: list[Source]) -> Rebuild:
        """Quick build of what changed, then a full build unless more changes are already waiting."""
        now = self._puzzle_paths()
        changes = []
        slugs: set[str] = set()
        site = False
        for s in sources:
            if s.kind == "folder":
                site = True
                changes.append(("made again" if s.path.is_dir() else "removed", self._show(s.path) + "/"))
                continue
            if s.kind != "puzzle":
                site = True
                changes.append(("changed", self._show(s.path)))
                continue
            name = s.path.name
            if name in now:
                verb = "changed" if name in self.known else "added"
            elif name in self.known:
                verb = "deleted"
            else:
                continue  # came and went between two builds
            slugs.add(s.path.stem)
            changes.append((verb, self._show(s.path)))
        self.known = now
        run = Rebuild(changes)
        if not changes:
            return run
        run.quick, run.quick_s = self._build("quick", quick=True, only=None if site else slugs)
        run.failures = list(run.quick.failed)
        if run.quick.built:
            self.full_owed = True
        try:
            self.finish(run)
        except BaseException:  # a stop (Ctrl-C) or a crash in the PNG and PDF: the save's page is written
            self.report(run)
            raise
        return run

    def finish(self, run: Rebuild) -> None:
        """The full build (PNG, PDF) the quick one owes, unless another save is already waiting."""
        if not self.full_owed or self.queue.pending():
            return
        t0 = time.perf_counter()
        # a save while the PNG and PDF render ends this build between two renders: the save's own quick
        # build comes first, and the full build after it does what this one left
        full, _ = self._build("full", stop=lambda: self.queue.pending() or writer.stop_requested)
        if full.stopped:
            return
        run.full = full
        run.full_s = run.quick_s + time.perf_counter() - t0
        self.full_owed = False
        seen = {str(e) for _, e in run.failures}
        run.failures += [(slug, e) for slug, e in run.full.failed if str(e) not in seen]

    def describe(self, run: Rebuild, *, first: bool = False) -> str:
        """The one line a rebuild prints: what changed, what was rebuilt, how long it took."""
        if first:
            what = "start"
        elif not run.changes:
            what = "PNG and PDF"
        else:
            shown = [f"{path} {verb}" for verb, path in run.changes[:3]]
            if len(run.changes) > 3:
                shown.append(f"{len(run.changes) - 3} more")
            what = ", ".join(shown)
        results = [r for r in (run.quick, run.full) if r is not None]
        built = sorted({s for r in results for s in r.built})
        removed = sorted({s for r in results for s in r.removed})
        failed = sorted({s for s, _ in run.failures})
        done = []
        if built:
            done.append(f"rebuilt {_names(built)}")
        drafts = {s for r in results for s in r.drafts}
        if removed:
            gone, kept_off = [s for s in removed if s not in drafts], [s for s in removed if s in drafts]
            if gone:
                done.append(f"removed {_names(gone)}")
            if kept_off:  # made a draft: its outputs go, the file stays (as `build` says it)
                done.append(f"removed {_names(kept_off)} (a draft: kept off the site until 'draft: false')")
        # a draft saved (a new one, or one edited while it stays a draft): nothing of it is built, and it says why
        saved = {Path(path).stem for _, path in run.changes if Path(path).suffix == ".txt"}
        if kept := sorted((drafts & saved) - set(removed)):
            done.append(f"draft {_names(kept)}: kept off the site until 'draft: false'")
        site = {p for r in results for p in r.written if _is_site_page(p, self.out)}
        # puzzle pages written again with no puzzle rebuilt: a site setting they show (base_url, the title)
        pages = sorted({rel.parts[0] for r in results for p in r.written
                        if (rel := _in_public(p, self.out)) is not None and len(rel.parts) == 2
                        and rel.parts[0] not in ("tags", "static") and rel.name == "index.html"})
        if (site or pages) and not built and not removed:
            updated = ["the index"] if site else []  # not `what`: the line's start, the file that changed
            if pages:
                updated.append(f"the page of {pages[0]}" if len(pages) == 1 else f"{len(pages)} puzzle pages")
            done.append(f"updated {' and '.join(updated)}")
        static = sorted({_in_static(p, self.out) for r in results for p in r.written} - {None})
        if static and not built and not removed:  # an edited stylesheet or script: pages reload with it
            done.append(f"updated {_names(static)}")
        if failed:
            # only a puzzle that has a page to keep keeps one; a new file with an error has none yet
            kept = [s for s in failed if (self.out / s / "index.html").exists()]
            note = "last good outputs kept" if len(kept) == len(failed) else \
                "no outputs yet" if not kept else f"last good outputs of {_names(kept)} kept"
            last = results[-1]  # the full build, when it ran: a file fixed in between lets it write the index
            if any(s not in last.failed_drafts for s, _ in last.failed):
                note += ", index kept as it was"  # as `build` says: the index waits for every published puzzle
            done.append(f"failed: {_names(failed)}, {note}")
        if not done:
            unchanged = len(run.quick.unchanged) if run.quick else 0
            done.append(f"up to date, {unchanged} puzzle{'s' if unchanged != 1 else ''}" if first else "no output changed")
        if run.quick is not None and run.full is not None and run.full.built:
            timing = f"page {run.quick_s:.2f} s, all outputs {run.full_s:.2f} s"
        elif run.full_s is not None:
            timing = f"{run.full_s:.2f} s"
        else:
            timing = f"{run.quick_s:.2f} s" + (", PNG and PDF follow" if built else "")
        return f"{time.strftime('%H:%M:%S')}  {what}: {'; '.join(done)} ({timing})"

    def report(self, run: Rebuild, *, first: bool = False) -> None:
        from .cli import _report_failures

        _report_failures(run.failures)
        sys.stderr.flush()
        self.say(self.describe(run, first=first))
        # what `build` says of a puzzle that built but needs the author: answers left out, fill words to clue
        results = [r for r in (run.quick, run.full) if r is not None]
        for slug in sorted({s for r in results for s in r.left_out}):
            note = next(r.left_out[slug] for r in results if slug in r.left_out)
            self.say(f"         puzzles/{slug}.txt: note: {note}")
        for slug in sorted({s for r in results for s in r.needs_clues}):
            self.say(next(r.needs_clues[slug] for r in results if slug in r.needs_clues))

    def tell_unread(self) -> None:
        """What `build` notes of files in puzzles/ it does not read (a 'Shout.TXT'), each said once."""
        from .source import unread_sources

        notes = unread_sources(self.root / "puzzles")
        for note in notes:
            if note not in self.told:
                self.say("note: " + note.replace(str(self.root / "puzzles"), "puzzles"))
        self.told = set(notes)

    def _failed(self, what: str, exc: Exception) -> None:
        """A build that stopped on the settings (pyproject.toml) or a bug: say so, keep watching."""
        from .cli import _print_error

        if isinstance(exc, CrosswordError):  # the author's to fix, like a bad puzzle: its message, no traceback
            _print_error(exc)
            why = "fix it and save"
            self.on_failure(exc.diagnostic())
        else:  # a bug in a renderer or template, not in the puzzle
            import traceback

            traceback.print_exc()
            why = "the build crashed (traceback above)"
            self.on_failure(f"{what}: the build crashed ({type(exc).__name__}: {exc}); the terminal shows the traceback")
        sys.stderr.flush()
        self.say(f"{time.strftime('%H:%M:%S')}  {what}: {why}; the last good outputs stay, the watcher carries on")

    def step(self, timeout: float) -> bool:
        """Wait for one batch of changes and rebuild; False when nothing came within `timeout`."""
        batch = self.queue.take(timeout)
        if not batch:
            if self.full_owed:  # a full build deferred by a quick save: the sources are quiet now
                run = Rebuild([])
                try:
                    self.finish(run)
                except Exception as exc:  # noqa: BLE001 - reported; the next save tries again
                    self.full_owed = False
                    self._failed("PNG and PDF", exc)
                    return False
                if run.full is not None:
                    self.report(run)
            return False
        sources = [s for s in (classify(p, self.root) for p in batch) if s is not None]
        if any(s.kind in ("unread", "puzzle") for s in sources):
            self.tell_unread()
        sources = [s for s in sources if s.kind != "unread"]
        if any(s.kind == "folder" for s in sources):
            self.watch_again()  # before the build reads it: a save from here on is seen
        code = [s.path for s in sources if s.kind == "code"]
        if code:
            self.restart_wanted = code
            return True
        if sources and not (self.root / "puzzles").is_dir():  # gone (for now): the site stays as it is
            self._folder_removed()
            return True
        self.folder_gone = False
        if sources:
            try:
                run = self.rebuild(sources)
            except Exception as exc:  # noqa: BLE001 - reported; the watcher carries on
                self.full_owed = False  # the next save builds again, quick then full
                if not (self.root / "puzzles").is_dir():  # removed while the build read it (`rm -rf` takes a while)
                    self._folder_removed()
                    return True
                self._failed(", ".join(self._show(s.path) for s in sources[:3]) + " changed", exc)
                return True
            if run.changes and not (self.root / "puzzles").is_dir():
                self._folder_removed()  # its files' failures are the folder's going
            elif run.changes:
                self.report(run)
        return True

    def _folder_removed(self) -> None:
        if not self.folder_gone:
            self.say(f"{time.strftime('%H:%M:%S')}  puzzles/ removed: the site stays as it was; the watcher "
                     "builds again once the folder is back")
        self.folder_gone = True
        self.full_owed = False  # nothing to render until it is back (its rebuild owes it again)


def _names(slugs: list[str]) -> str:
    return ", ".join(slugs) if len(slugs) <= 4 else f"{', '.join(slugs[:3])} and {len(slugs) - 3} more"


def _in_public(path: Path, out: Path) -> Path | None:
    """The path relative to the output folder, or None outside it."""
    try:
        return Path(path).resolve().relative_to(out.resolve())
    except ValueError:
        return None


def _is_site_page(path: Path, out: Path) -> bool:
    """The index, the feed, the 404 page or a tag page (not sw.js, which a static file's edit rewrites)."""
    rel = _in_public(path, out)
    return rel is not None and (rel.parts[0] == "tags" or len(rel.parts) == 1 and rel.suffix in (".html", ".xml"))


def _in_static(path: Path, out: Path) -> str | None:
    """'static/site.css' for a file written under public/static/, else None."""
    rel = _in_public(path, out)
    return rel.as_posix() if rel is not None and rel.parts[0] == "static" else None


def warm_up(root: Path) -> None:
    """Pay for the renderers' imports and first-use costs now, not on the first save.

    Renders every output of the smallest published puzzle in memory and throws
    it away (whatever outputs exist: this is output-agnostic by design).
    """
    from .config import load_config
    from .site import cached_layout, puzzle_files
    from .source import read_puzzle

    sources = sorted(puzzle_sources(root / "puzzles"), key=lambda p: p.stat().st_size)
    for path in sources:
        try:
            config = load_config(root / "pyproject.toml")
            puzzle = read_puzzle(path)
            if puzzle.meta.draft:
                continue
            layout, _ = cached_layout(puzzle, root / ".cache")
            puzzle_files(puzzle, layout, config)
            return
        except CrosswordError:
            continue  # a broken puzzle: the build reports it; try the next one


def _code_ok(paths: list[Path], say_error: Callable[[str], None]) -> bool:
    """Compile changed modules before restarting into them: a syntax error waits for the next save."""
    ok = True
    for p in paths:
        if not p.exists():
            continue
        try:
            compile(p.read_bytes(), str(p), "exec")
        except SyntaxError as exc:
            say_error(f"{p}:{exc.lineno}: error: {exc.msg}; fix it and save to restart the watcher")
            ok = False
    return ok


def _sweep_temp_files(folders: list[Path], since: float) -> None:
    """Remove the writer's temporary files (.name.XXXX.tmp) an interrupted write may have left."""
    for folder in folders:
        if not folder.is_dir():
            continue
        for p in folder.rglob(".*.tmp"):
            try:
                if p.is_file() and p.stat().st_mtime >= since - 1:
                    p.unlink()
            except OSError:
                pass


def _lock_file(root: Path, out: Path) -> Path:
    return root / ".cache" / "watch" / f"{folder_key(out)}.lock"


def _watcher_of(root: Path, out: Path) -> str | None:
    """The process number ("" if unknown) of a watcher building `out`, or None when none does; makes nothing."""
    import fcntl

    try:
        with open(_lock_file(root, out), "r+", encoding="utf-8") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return handle.read().strip()
            return None  # a lock file no watcher holds (closing lets go)
    except OSError:
        return None


def claim_output(root: Path, out: Path):
    """An exclusive lock on building `out` for as long as this process runs (an open file; the system lets
    go of it when the process ends, and at a restart's exec). None when another watcher holds it, with
    that watcher's process number: two watchers of one folder each built every save, twice the work, and
    wrote the same files. The lock file lives under the project's .cache/, never in the output folder."""
    import fcntl

    path = _lock_file(root, out)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(path, "a+")  # noqa: SIM115 - held open on purpose, for the process's life
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip()
        handle.close()
        return None, holder
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle, None


def run_watch(root: Path, host: str = "127.0.0.1", port: int = 8000, out: Path | None = None) -> int:
    """`crossword watch`: returns the exit status (0 after Ctrl-C or SIGTERM)."""
    started = time.time()
    root = Path(root)
    if not (root / "puzzles").is_dir():
        print(f"{root / 'puzzles'}: error: no such folder; run watch from the project folder or pass --root",
              file=sys.stderr)
        return 2
    watcher = Watcher(root, out)
    state = ReloadState(watcher.out)
    watcher.on_build = lambda stage, result: state.bump(result, {Path(name).stem for name in watcher.known})
    watcher.on_failure = state.fail
    try:  # the port first: a watcher that cannot serve makes nothing (an empty public/, a lock file)
        server = make_server(watcher.out, host, port, state)
    except OSError as exc:
        import socket

        holder = _watcher_of(root, watcher.out) if exc.errno == errno.EADDRINUSE else None
        if holder is not None:  # the same `make watch` twice: the port is the first one's
            print(f"error: another watcher (process {holder or 'unknown'}) is building {watcher.out} already, on "
                  f"this port; use that one, or stop it (Ctrl-C in its terminal) and start this one again",
                  file=sys.stderr)
            return 2
        if isinstance(exc, socket.gaierror) or exc.errno in (errno.EADDRNOTAVAIL,):
            # the host, not the port: a name that does not resolve, an address not on this machine
            fix = "name a host of this machine: --host 127.0.0.1 (the default), or 0.0.0.0 for every interface"
        else:
            fix = f"pick another port: make watch PORT={port + 1} (or crossword watch --port {port + 1})"
        print(f"error: cannot serve on {host}:{port}: {exc.strerror or exc}; {fix}", file=sys.stderr)
        return 2
    try:
        claim, holder = claim_output(root, watcher.out)
    except OSError:  # a .cache that cannot be written: no lock, as before there was one
        claim, holder = True, None
    if claim is None:
        server.server_close()
        print(f"error: another watcher (process {holder or 'unknown'}) is building {watcher.out} already: every save "
              "would be built twice; use that one, or stop it (Ctrl-C in its terminal) and start this one again",
              file=sys.stderr)
        return 2
    make_folder(watcher.out)

    stopping = threading.Event()

    signalled = []

    def on_signal(signum, frame):
        if stopping.is_set():
            return
        signalled.append(signum)
        stopping.set()
        # from here nothing is written: a Stop raised inside a C callback (cairo, pango) is swallowed there, and
        # the render it cut short could come back looking complete; the build stops at its next write instead
        # of running on to its end (a full build of the archive)
        writer.stop_requested = True
        # a Stop raised inside a finalizer (a weakref callback the collector ran just then) is swallowed
        # and printed as 'Exception ignored'; the loop stops anyway on `stopping`, so that print is noise
        default = sys.unraisablehook
        sys.unraisablehook = lambda unraisable: None if isinstance(unraisable.exc_value, Stop) else default(unraisable)
        raise Stop()

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    thread = None
    restart: list[Path] = []
    broken: list[Path] = []  # changed modules that did not compile: the watcher waits for their fix
    try:
        try:
            watcher.start_observer()  # before the first build: a save during it is not lost
        except OSError as exc:  # inotify's limits (a machine already watching many files)
            fix = ("raise the limit: sudo sysctl fs.inotify.max_user_watches=524288 (and max_user_instances)"
                   if exc.errno in (errno.ENOSPC, errno.EMFILE) else "check the folders exist and can be read")
            print(f"error: cannot watch the project's folders for saves: {exc.strerror or exc}; {fix}", file=sys.stderr)
            return 2
        run = watcher.start()
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
        thread.start()
        real_host, real_port = server.server_address[:2]
        print(f"serving {watcher._show(watcher.out)}/ at http://{real_host}:{real_port}/ "
              f"and watching puzzles/, templates/, site_builder/, pyproject.toml (Ctrl-C stops)", flush=True)
        watcher.finish(run)
        watcher.report(run, first=True)
        watcher.tell_unread()
        if run.full is None and not watcher.full_owed:
            try:
                warm_up(root)
            except Exception as exc:  # a renderer bug: the first rebuild will show it with its traceback
                print(f"note: warming up the renderers failed ({exc!r}); the first rebuild pays for the imports",
                      file=sys.stderr, flush=True)
        while not stopping.is_set():
            if watcher.step(0.5) and watcher.restart_wanted:
                names = ", ".join(watcher._show(p) for p in watcher.restart_wanted)
                # a module that did not compile at an earlier save is checked again: the new process imports it
                wanted = list(dict.fromkeys([*broken, *watcher.restart_wanted]))
                errors: list[str] = []
                if _code_ok(wanted, errors.append):
                    print(f"{time.strftime('%H:%M:%S')}  {names} changed: restarting with the new code", flush=True)
                    restart = wanted
                    break
                for line in errors:
                    print(line, file=sys.stderr, flush=True)
                state.code_failed(errors)  # in the open pages' panel too
                broken = [p for p in wanted if any(line.startswith(f"{p}:") for line in errors)]
                watcher.restart_wanted = []
    except (Stop, KeyboardInterrupt):
        pass
    finally:
        stopping.set()
        # stopping: a second signal (make passes a SIGTERM on to the watcher, so `kill` of the group sends
        # two) changes nothing, and must not reach the command's own handler (exit 143 and a "stopped part
        # way" message) while this winds down
        for s in old:
            signal.signal(s, signal.SIG_IGN)
        state.close()
        if thread is not None:
            server.shutdown()
        server.server_close()
        watcher.stop_observer()
        _sweep_temp_files([watcher.out, root / ".cache"], started)
        writer.stop_requested = False  # the process ends, or (a caller in this process) builds again
        if restart or not signalled:
            # a restart's new process must hear them (an ignored signal stays ignored across exec), as must
            # a caller this returns to without a stop; after a stop signal the process is ending: a second
            # one, come late, changes nothing
            for s, handler in old.items():
                signal.signal(s, handler)
    if restart:
        sys.stdout.flush()
        sys.stderr.flush()
        args = [sys.executable, "-m", "site_builder", "watch", "--root", str(root), "--host", host,
                "--port", str(server.server_address[1])]
        if out is not None:
            args += ["--out", str(out)]
        os.execv(sys.executable, args)
    # stopped between a build's pages and their PNG and PDF: say so, or `check` finds them stale unannounced
    owed = " before every PNG and PDF was rendered: make site (or the next watch) renders the rest" \
        if watcher.full_owed else ""
    print(f"stopped{owed}", flush=True)
    return 0


# ------------------------------------------------------------------- bench


def bench_subject(root: Path) -> tuple[str, str]:
    """(slug, text) of the puzzle the watch bench edits: the project's published one with the most answers, or, in an
    archive with none that reads, a generated list of 40 real words (the bench's own, `bench.generated_entries`)."""
    from .errors import CrosswordError
    from .source import load_puzzle, read_source, slug_for

    best: tuple[int, str, str] | None = None
    for path in puzzle_sources(Path(root) / "puzzles"):
        try:
            text = read_source(path)
            puzzle = load_puzzle(text, path=path, slug=slug_for(path))
        except CrosswordError:
            continue
        if puzzle.meta.draft:  # never built: a watch build would never finish with it
            continue
        n = len(puzzle.entries)
        if best is None or n > best[0]:
            best = (n, path.stem, text)
    if best is not None:
        return best[1], best[2]
    from .bench import generated_entries

    lines = ["---", "title: Generated for the watch bench", "date: 2026-01-01", "---"]
    lines += [f"{e.answer} | Clue number {i + 1} for a generated answer" for i, e in enumerate(generated_entries(40))]
    return "generated-40", "\n".join(lines) + "\n"


def bench_watch(root: Path, *, edits: int = 3, slug: str | None = None) -> dict[str, float]:
    """Time a clue edit of puzzles/<slug>.txt in a temporary copy of the project, as watch mode sees it
    (by default the puzzle `bench_subject` picks).

    Returns seconds, medians over `edits` saves: save_to_page (save -> page,
    SVG and exports written; the quiet period included), save_to_all (-> PNG
    and PDF written too), full_build_after_page (the full build alone) and
    quiet_period (the debounce, a constant).
    """
    import statistics

    root = Path(root)
    with tempfile.TemporaryDirectory(prefix="crossword-bench-watch-") as tmp:
        copy = Path(tmp) / "repo"
        (copy / "puzzles").mkdir(parents=True)
        shutil.copy(root / "pyproject.toml", copy / "pyproject.toml")
        if slug is None:
            slug, text = bench_subject(root)
            src = copy / "puzzles" / f"{slug}.txt"
            src.write_text(text, encoding="utf-8")
        else:
            src = copy / "puzzles" / f"{slug}.txt"
            shutil.copy(root / "puzzles" / f"{slug}.txt", src)
        done: collections.deque[tuple[str, float]] = collections.deque()
        ready = threading.Condition()

        def on_build(stage: str, result: BuildResult) -> None:
            with ready:
                done.append((stage, time.perf_counter()))
                ready.notify_all()

        watcher = Watcher(copy, say=lambda line: None)
        watcher.finish(watcher.start())  # lays out once; the edits below reuse the cached layout
        warm_up(copy)
        watcher.on_build = on_build
        watcher.start_observer()
        stop = threading.Event()

        def loop():
            while not stop.is_set():
                watcher.step(0.2)

        thread = threading.Thread(target=loop, daemon=True)
        thread.start()
        page, full, full_b = [], [], []
        try:
            text = src.read_text(encoding="utf-8")
            body = text.split("\n---", 1)[-1]  # past the front matter: a clue line, not a description with a '|'
            first = next(line for line in body.splitlines() if "|" in line and not line.startswith("#"))
            for i in range(edits):
                time.sleep(0.5)  # let the observer settle between edits
                with ready:
                    done.clear()
                edited = text.replace(first, f"{first} (edit {i + 1})")
                t0 = time.perf_counter()
                src.write_text(edited, encoding="utf-8")
                with ready:
                    ok = ready.wait_for(lambda: [s for s, _ in done] == ["quick", "full"], timeout=120)
                    stamps = dict(done)
                if not ok:
                    raise RuntimeError("watch bench: the rebuild did not finish within 120 s")
                page.append(stamps["quick"] - t0)
                full.append(stamps["full"] - t0)
                full_b.append(stamps["full"] - stamps["quick"])
        finally:
            stop.set()
            thread.join(timeout=10)
            watcher.stop_observer()
        med = statistics.median
        return {
            "save_to_page": med(page),
            "save_to_all": med(full),
            "quiet_period": QUIET,
            "full_build_after_page": med(full_b),
        }


def main(argv: list[str] | None = None) -> int:
    """`python -m site_builder.watch [ROOT]`: print bench_watch's figures."""
    root = Path(argv[0] if argv else (sys.argv[1] if len(sys.argv) > 1 else "."))
    figures = bench_watch(root)
    for name, value in figures.items():
        print(f"{name:<24} {value:6.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
