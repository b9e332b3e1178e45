"""Watch mode, driven for real: a `crossword watch` subprocess on a copy of a small repo, edited the way
editors save, read back over HTTP. Every wait has a generous timeout; nothing asserts on speed."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from site_builder.watch import ChangeQueue, classify, inject_reload, is_ignored

from .test_site import make_repo, small

TIMEOUT = 30.0
SUMMARY = re.compile(r"^\d\d:\d\d:\d\d  ")


class Watch:
    """A running `python -m site_builder watch` with its output collected line by line."""

    def __init__(self, root: Path):
        self.root = root
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "site_builder", "watch", "--root", str(root), "--port", "0"],
            cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.out: list[str] = []
        self.err: list[str] = []
        self.cond = threading.Condition()
        self.readers = [threading.Thread(target=self._read, args=(s, l), daemon=True)
                        for s, l in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]
        for t in self.readers:
            t.start()
        line = self.wait_for(lambda: next((x for x in self.out if "http://" in x), None), what="the address line")
        self.host, self.port = re.search(r"http://([\d.]+):(\d+)/", line).groups()

    def _read(self, stream, lines):
        for line in stream:
            with self.cond:
                lines.append(line.rstrip("\n"))
                self.cond.notify_all()

    def wait_for(self, check, timeout: float = TIMEOUT, what: str = "it"):
        deadline = time.monotonic() + timeout
        while True:
            with self.cond:
                got = check()
                if got:
                    return got
                if self.proc.poll() is not None:
                    pytest.fail(f"watch exited ({self.proc.returncode}) waiting for {what}:\n" + self.log())
                left = deadline - time.monotonic()
                if left <= 0:
                    pytest.fail(f"timed out waiting for {what}:\n" + self.log())
                self.cond.wait(min(left, 0.1))

    def log(self) -> str:
        return "stdout:\n" + "\n".join(self.out) + "\nstderr:\n" + "\n".join(self.err)

    def summaries(self) -> list[str]:
        with self.cond:
            return [x for x in self.out if SUMMARY.match(x)]

    def next_summary(self, after: int, containing: str = "") -> str:
        """The first rebuild line after the first `after` ones that contains `containing`."""
        return self.wait_for(
            lambda: next((x for x in self.summaries()[after:] if containing in x), None), what=f"a rebuild line {containing!r}"
        )

    def get(self, path: str) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection(self.host, int(self.port), timeout=TIMEOUT + 10)
        try:
            conn.request("GET", path)
            r = conn.getresponse()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
        finally:
            conn.close()

    def text(self, path: str) -> str:
        status, _, body = self.get(path)
        assert status == 200, (path, status)
        return body.decode()

    def wait_served(self, path: str, check, what: str) -> str:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            status, _, body = self.get(path)
            if check(status, body.decode()):
                return body.decode()
            time.sleep(0.1)
        pytest.fail(f"timed out waiting for {path} to {what}:\n" + self.log())

    def counter(self) -> tuple[int, str]:
        data = json.loads(self.get("/__reload")[2])
        return data["build"], data["token"]

    def stop(self, sig=signal.SIGINT) -> int:
        self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise
        for t in self.readers:
            t.join(timeout=5)
        return rc


@pytest.fixture(scope="module")
def watch(tmp_path_factory):
    root = make_repo(tmp_path_factory.mktemp("watch"), a=small("Alpha"), b=small("Bravo", "2026-02-01"))
    w = Watch(root)
    w.next_summary(0, "start:")  # the first full build is done: the tests start from a quiet watcher
    yield w
    if w.proc.poll() is None:
        assert w.stop() == 0, w.log()
    assert "Traceback" not in "\n".join(w.err), w.log()


def edit(path: Path, old: str, new: str) -> None:
    """An in-place save, as most editors do: truncate and write."""
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new))


# ----------------------------------------------------------------- served


def test_served_pages_carry_the_reload_script_but_public_does_not(watch):
    status, headers, body = watch.get("/")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    assert b"/__reload" in body and body.rstrip().endswith(b"</html>"), "script goes before </body>"
    assert b"Alpha" in body and b"Bravo" in body
    for page in (watch.root / "public").rglob("*.html"):
        assert "__reload" not in page.read_text(), f"{page} on disk carries the reload script"
    served = watch.get("/a/")[2]
    assert b"/__reload" in served
    script = re.compile(rb"<script>/\* crossword watch.*?</script>\n", re.S)
    assert script.sub(b"", served) == (watch.root / "public" / "a" / "index.html").read_bytes(), "only the script is added"
    assert script.sub(b"", watch.get("/a/index.html")[2]) == script.sub(b"", served)


def test_served_like_a_static_host(watch):
    status, headers, _ = watch.get("/a")
    assert status == 301 and headers["location"] == "/a/"
    status, headers, body = watch.get("/a/a.json")
    assert status == 200 and headers["content-type"].startswith("application/json")
    assert body == (watch.root / "public" / "a" / "a.json").read_bytes(), "non-HTML files are served as they are"
    assert watch.get("/static/site.css")[1]["content-type"].startswith("text/css")
    status, _, body = watch.get("/no-such-puzzle/")
    assert status == 404 and b"/__reload" in body, "a 404 page reloads itself once the page exists"
    for sneaky in ("/../pyproject.toml", "/%2e%2e/pyproject.toml", "/a/../../pyproject.toml", "/%2e%2e%2fpyproject.toml"):
        status, _, body = watch.get(sneaky)
        assert b"[tool.crossword]" not in body and status in (404, 400), sneaky
    assert watch.get("/static/")[0] == 404, "no directory listings"


def test_inject_reload_places_script_before_body_end():
    page = b"<html><body><p>x</p></BODY></html>"
    out = inject_reload(page, 3, "t")
    assert out.startswith(b"<html><body><p>x</p><script>") and out.endswith(b"</script>\n</BODY></html>")
    assert b"var build = 3" in out
    assert inject_reload(b"<p>bare", 0, "t").startswith(b"<p>bare<script>")


# ------------------------------------------------------------------ saves


def test_in_place_save_rebuilds_and_reloads_the_open_page(watch):
    src = watch.root / "puzzles" / "a.txt"
    build, token = watch.counter()
    answers: dict[str, dict] = {}

    def long_poll(page):
        _, _, body = watch.get(f"/__reload?since={build}&token={token}&path={page}")
        answers[page] = json.loads(body)

    polls = [threading.Thread(target=long_poll, args=(p,)) for p in ("/a/", "/b/")]
    for t in polls:
        t.start()
    time.sleep(0.3)  # let both requests reach the server before the save
    n = len(watch.summaries())
    edit(src, "Pet that purrs", "Feline friend")
    watch.wait_served("/a/", lambda s, body: "Feline friend" in body, "show the new clue")
    line = watch.next_summary(n)
    assert "puzzles/a.txt changed" in line and "rebuilt a" in line
    for t in polls:
        t.join(timeout=TIMEOUT)
    assert answers["/a/"]["reload"] is True and answers["/a/"]["build"] > build
    assert answers["/b/"]["reload"] is False, "a page the build did not touch stays as it is"
    assert watch.counter()[0] > build


def test_temp_then_rename_save_and_swap_files(watch):
    puzzles = watch.root / "puzzles"
    src = puzzles / "a.txt"
    n = len(watch.summaries())
    # vim: swap file, write probe, backup by rename, new file, backup removed
    swap = puzzles / ".a.txt.swp"
    swap.write_bytes(b"b0VIM 9.0")
    (puzzles / "4913").write_text("")
    (puzzles / "4913").unlink()
    os.replace(src, puzzles / "a.txt~")
    src.write_text((puzzles / "a.txt~").read_text().replace("Top card", "Highest card"))
    (puzzles / "a.txt~").unlink()
    watch.wait_served("/a/", lambda s, body: "Highest card" in body, "show the vim-style save")
    swap.unlink()
    watch.next_summary(n, "puzzles/a.txt changed")
    # an atomic save: write a temporary file, rename it over the puzzle
    n = len(watch.summaries())
    tmp = puzzles / ".a.txt.tmp1234"
    tmp.write_text(src.read_text().replace("Afternoon drink", "Brewed leaves"))
    os.replace(tmp, src)
    watch.wait_served("/a/", lambda s, body: "Brewed leaves" in body, "show the renamed save")
    watch.next_summary(n, "puzzles/a.txt changed")
    # droppings alone rebuild nothing: the next line is the marker's
    n = len(watch.summaries())
    for name in (".a.txt.swx", "a.txt~", ".#a.txt", "#a.txt#", "4913"):
        (puzzles / name).write_text("junk")
        (puzzles / name).unlink()
    edit(puzzles / "b.txt", "Have dinner", "Dine")
    watch.next_summary(n, "puzzles/b.txt changed")
    assert len(watch.summaries()) == n + 1, watch.summaries()[n:]


def test_burst_of_saves_is_one_rebuild_of_the_last_state(watch):
    src = watch.root / "puzzles" / "a.txt"
    n = len(watch.summaries())
    text = src.read_text()
    for i in range(6):
        src.write_text(text.replace("Highest card", f"Burst {i}"))
    line = watch.next_summary(n)
    assert "puzzles/a.txt changed" in line
    assert "Burst 5" in watch.text("/a/")
    edit(watch.root / "puzzles" / "b.txt", "Dine", "Have supper")  # a marker: its line comes after the burst's
    watch.next_summary(n, "puzzles/b.txt changed")
    assert len(watch.summaries()) == n + 2, watch.summaries()[n:]


def test_errors_are_reported_and_the_watcher_survives(watch):
    src = watch.root / "puzzles" / "a.txt"
    good = src.read_text()
    page = watch.root / "public" / "a" / "index.html"
    before = page.read_bytes()
    n, e = len(watch.summaries()), len(watch.err)
    src.write_text(good.replace("CAT | ", "C4T | "))
    line = watch.next_summary(n)
    assert "failed" in line and "last good outputs kept" in line
    errors = watch.wait_for(lambda: [x for x in watch.err[e:] if "a.txt:7:" in x], what="the error line")
    assert ": error: " in errors[0] and "C4T" in errors[0]
    assert page.read_bytes() == before, "the last good page stays"
    assert "Pet that purrs" in watch.text("/a/") or "Feline friend" in watch.text("/a/")
    # bad front matter
    n, e = len(watch.summaries()), len(watch.err)
    src.write_text(good.replace("author: Ann", "autor: Ann"))
    watch.next_summary(n, "failed")
    errors = watch.wait_for(lambda: [x for x in watch.err[e:] if "a.txt:4:" in x], what="the front matter error")
    assert "author" in errors[0]
    # fixed: rebuilt
    n = len(watch.summaries())
    src.write_text(good.replace("Have dinner", "Fixed dinner"))
    watch.wait_served("/a/", lambda s, body: "Fixed dinner" in body, "show the fixed file")
    assert "rebuilt a" in watch.next_summary(n)
    # a new file with an error has no outputs to keep: the line must not promise any
    n = len(watch.summaries())
    (watch.root / "puzzles" / "fresh.txt").write_text(good.replace("CAT | ", "C4T | "))
    line = watch.next_summary(n, "failed")
    assert "failed: fresh, no outputs yet" in line and "outputs kept" not in line, line
    assert "index kept as it was" in line  # the index waits for every published puzzle, as in `build`
    n = len(watch.summaries())
    (watch.root / "puzzles" / "fresh.txt").unlink()
    watch.next_summary(n, "fresh.txt")  # its line, before the next test counts lines
    assert "Traceback" not in "\n".join(watch.err)


def test_new_puzzle_joins_the_index_and_a_deleted_one_leaves(watch):
    new = watch.root / "puzzles" / "charlie.txt"
    n = len(watch.summaries())
    new.write_text(small("Charlie Brand New", "2026-03-01", "fresh"))
    watch.wait_served("/", lambda s, body: "Charlie Brand New" in body, "list the new puzzle")
    assert "puzzles/charlie.txt added" in watch.next_summary(n)
    assert watch.get("/charlie/")[0] == 200
    n = len(watch.summaries())
    new.unlink()
    watch.wait_served("/", lambda s, body: "Charlie Brand New" not in body, "drop the deleted puzzle")
    line = watch.next_summary(n)
    assert "puzzles/charlie.txt deleted" in line and "removed charlie" in line
    assert watch.get("/charlie/")[0] == 404
    assert not (watch.root / "public" / "charlie").exists()


def test_answers_left_out_are_named_in_watch_as_in_build(watch):
    """Watch used to print only 'rebuilt x': an author would not hear of an answer the grid dropped."""
    src = watch.root / "puzzles" / "delta.txt"
    n = len(watch.summaries())
    src.write_text("---\ntitle: Delta\ndate: 2026-04-01\n---\nHELLO | Greeting\nWORLD | Planet\nXYZ | Letters\nLOW | Not high\n")
    watch.next_summary(n, "puzzles/delta.txt added")
    watch.wait_for(lambda: next((x for x in watch.out if "puzzles/delta.txt: note: left out: XYZ" in x), None),
                   what="the left-out note")
    src.unlink()
    watch.next_summary(n + 1, "puzzles/delta.txt deleted")


# ------------------------------------------------------------------- stop


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_signal_stops_cleanly(tmp_path, sig):
    root = make_repo(tmp_path, a=small("Alpha"))
    w = Watch(root)
    assert w.get("/")[0] == 200
    edit(root / "puzzles" / "a.txt", "Top card", "Stopping card")
    time.sleep(0.25)  # stop while the rebuild is likely under way
    rc = w.stop(sig)
    assert rc == 0, w.log()
    assert "Traceback" not in "\n".join(w.err), w.log()
    owed = "stopped before every PNG and PDF was rendered: make site (or the next watch) renders the rest"
    assert w.out[-1] in ("stopped", owed), w.log()
    assert list(root.rglob("*.tmp")) == [], "temporary files left behind"
    # what it said is so: stopped before them, the next build renders the puzzle; else it is up to date
    from site_builder.site import build_site

    assert build_site(root).built == (["a"] if w.out[-1] == owed else [])


def test_a_second_sigterm_while_stopping_still_ends_cleanly(tmp_path):
    """make passes a SIGTERM on to the watcher it runs, so `kill` of the group sends it two: the second
    reached the command's own handler while the watcher wound down (exit 143, 'stopped part way')."""
    root = make_repo(tmp_path, a=small("Alpha"))
    w = Watch(root)
    w.next_summary(0, "start:")
    w.proc.send_signal(signal.SIGTERM)
    time.sleep(0.05)
    rc = w.stop(signal.SIGTERM)
    assert rc == 0, w.log()
    assert w.out[-1] == "stopped" and "terminated" not in "\n".join(w.err), w.log()


# ------------------------------------------------------------------ units


def test_editor_droppings_are_ignored():
    for name in (".a.txt.swp", ".a.txt.swx", "a.txt~", ".#a.txt", "#a.txt#", "4913", ".hidden", ".a.txt.x1.tmp",
                 "a.txt.tmp", "a.txt___jb_tmp___", "sedX9EYmb"):
        assert is_ignored(name), name
    for name in ("a.txt", "twin-peaks.txt", "base.html", "site.css", "sediment.txt", "sedated"):
        assert not is_ignored(name), name


def test_classify_sources(tmp_path):
    from site_builder.site import PACKAGE, STATIC, TEMPLATES

    root = make_repo(tmp_path)
    assert classify(root / "puzzles" / "x.txt", root).kind == "puzzle"
    assert classify(root / "puzzles" / "notes.md", root) is None
    assert classify(root / "pyproject.toml", root).kind == "site"
    assert classify(root / "README.md", root) is None
    assert classify(TEMPLATES / "index.html", root).kind == "site"
    assert classify(STATIC / "site.css", root).kind == "site"
    assert classify(PACKAGE / "site.py", root).kind == "code"
    assert classify(PACKAGE / "sw.js", root).kind == "site"  # the offline worker, written beside the index
    assert classify(PACKAGE / "__pycache__" / "site.cpython-311.pyc", root) is None


def test_change_queue_debounces_a_burst():
    q = ChangeQueue(quiet=0.1, max_wait=5)
    assert q.take(0.05) == []
    for name in ("a", "b", "a"):
        q.add(name)
    assert q.take(1) == ["a", "b"]
    assert not q.pending()


def test_a_puzzle_file_gone_for_a_moment_is_not_taken_for_deleted(tmp_path):
    """An editor's safe write moves the file aside and the new one in: gone for 0.3 s, the build had removed
    the puzzle's pages and the index's card, and made them again a second later."""
    source = tmp_path / "cats.txt"
    source.write_text("---\n")
    q = ChangeQueue(quiet=0.05, max_wait=5, gone=1.5)
    aside = tmp_path / "cats.txt.___jb_old___"
    source.rename(aside)
    q.add(str(source), source=True)
    t0 = time.monotonic()
    back = threading.Timer(0.3, lambda: (aside.rename(source), q.add(str(source), source=True)))
    back.start()
    assert q.take(2) == [str(source)]
    back.join()
    waited = time.monotonic() - t0
    assert source.exists() and 0.3 <= waited < 1.4, waited  # one batch, taken once the file was back
    # a file that stays gone is deleted, after `gone`; another kind of path waits only `quiet`
    source.unlink()
    q.add(str(source), source=True)
    t0 = time.monotonic()
    assert q.take(3) == [str(source)] and time.monotonic() - t0 >= 1.5
    q.add(str(tmp_path / "gone.css"))
    t0 = time.monotonic()
    assert q.take(3) == [str(tmp_path / "gone.css")] and time.monotonic() - t0 < 1.4


def test_code_changes_are_compiled_before_a_restart(tmp_path):
    from site_builder.watch import _code_ok

    good, bad = tmp_path / "good.py", tmp_path / "bad.py"
    good.write_text("x = 1\n")
    bad.write_text("x = 1\ny = (\n")
    said: list[str] = []
    assert _code_ok([good, tmp_path / "deleted.py"], said.append) and said == []
    assert not _code_ok([good, bad], said.append)
    assert said and f"{bad}:2:" in said[0]


# ---------------------------------------------------------------- in a browser


def test_many_open_tabs_share_one_waiting_request_and_show_the_builds_errors(watch):
    """A browser opens six connections to a server: tabs each holding a waiting request stalled every
    further page load for the 25 s of the wait. One tab waits for the browser; errors show on the pages."""
    from .test_player import ARGS, CHROMIUM

    if not CHROMIUM.exists():
        pytest.skip("needs Debian's Chromium at /usr/bin/chromium (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    base = f"http://{watch.host}:{watch.port}"
    src = watch.root / "puzzles" / "b.txt"
    good = src.read_text()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            context = browser.new_context()
            tabs = []
            for i in range(8):
                page = context.new_page()
                page.goto(f"{base}/{'ab'[i % 2]}/", timeout=8000)  # the stall took 20 s from the sixth tab on
                tabs.append(page)
            page = context.new_page()
            page.goto(f"{base}/a/a.ipuz", timeout=8000)
            # a broken save: every open page says so, with the file and line, and keeps its content
            n = len(watch.summaries())
            src.write_text(good.replace("CAT | ", "C4T | "))
            watch.next_summary(n, "failed")
            for tab in (tabs[0], tabs[1], tabs[7]):
                banner = tab.wait_for_selector("#crossword-watch-problems", timeout=TIMEOUT * 1000)
                assert "b.txt:7:" in banner.inner_text() and "C4T" in banner.inner_text()
            assert "Bravo" in tabs[1].inner_text("h1")
            fresh = context.new_page()  # a page opened now shows it from the start
            fresh.goto(f"{base}/", timeout=8000)
            assert "b.txt:7:" in fresh.inner_text("#crossword-watch-problems")
            assert "this page is the last good one" in fresh.inner_text("#crossword-watch-problems")
            missing = context.new_page()  # a page not built yet (a new puzzle saved broken) is no last good one
            missing.goto(f"{base}/nothing-yet/", timeout=8000)
            said = missing.inner_text("#crossword-watch-problems")
            assert "This page does not exist (yet)" in said and "last good one" not in said, said
            # fixed: the banner goes from every page
            n = len(watch.summaries())
            src.write_text(good)
            watch.next_summary(n, "b.txt changed")  # "no output changed": the outputs were the last good ones
            for tab in (tabs[0], tabs[7], fresh):
                tab.wait_for_selector("#crossword-watch-problems", state="detached", timeout=TIMEOUT * 1000)
        finally:
            browser.close()


def test_a_rewritten_stylesheet_is_said_not_no_output_changed(tmp_path):
    from site_builder.site import BuildResult
    from site_builder.watch import Rebuild, Watcher

    (tmp_path / "puzzles").mkdir()
    w = Watcher(tmp_path)
    run = Rebuild([("changed", "site_builder/static/site.css")], quick=BuildResult(written=[tmp_path / "public" / "static" / "site.css"]))
    line = w.describe(run)
    assert "updated static/site.css" in line and "no output changed" not in line, line
    # the offline worker's version changes with it, but the index does not: it was said "updated the index"
    run = Rebuild([("changed", "site_builder/static/site.css")],
                  quick=BuildResult(written=[tmp_path / "public" / "static" / "site.css", tmp_path / "public" / "sw.js"]))
    line = w.describe(run)
    assert "updated static/site.css" in line and "index" not in line, line


def test_a_setting_that_rewrites_the_puzzle_pages_says_so(tmp_path):
    """A new base_url rewrites every page (its canonical address): it was said "updated the index"."""
    from site_builder.site import BuildResult
    from site_builder.watch import Rebuild, Watcher

    (tmp_path / "puzzles").mkdir()
    w = Watcher(tmp_path)
    pub = tmp_path / "public"
    site = [pub / "index.html", pub / "feed.xml", pub / "tags" / "pets.html"]
    run = Rebuild([("changed", "pyproject.toml")], quick=BuildResult(
        unchanged=["a", "b"], written=[*site, pub / "a" / "index.html", pub / "b" / "index.html"]))
    assert "pyproject.toml changed: updated the index and 2 puzzle pages (" in w.describe(run)
    run = Rebuild([("changed", "pyproject.toml")], quick=BuildResult(unchanged=["a", "b"], written=[*site, pub / "b" / "index.html"]))
    assert "pyproject.toml changed: updated the index and the page of b (" in w.describe(run)
    run = Rebuild([("changed", "templates/base.html")], quick=BuildResult(unchanged=["a", "b"], written=site))
    assert "templates/base.html changed: updated the index (" in w.describe(run)  # it said "['the index']: ..."


def test_watch_says_which_files_of_someone_elses_the_build_keeps(tmp_path):
    """The build names them once (its record notes it said so): under watch the line was dropped, and the
    next `make site` kept quiet about them too."""
    from site_builder.watch import Watcher

    (tmp_path / "puzzles").mkdir()
    said: list[str] = []
    w = Watcher(tmp_path, say=said.append)
    w._said("keep   static/logo.png: not made by the build (...)")
    w._said("build  a: 4 answers")  # the rebuild line says that
    assert len(said) == 1 and said[0].endswith("  keep   static/logo.png: not made by the build (...)"), said


def test_a_puzzle_made_a_draft_is_said_to_be_kept_off_the_site(tmp_path):
    from site_builder.site import BuildResult
    from site_builder.watch import Rebuild, Watcher

    (tmp_path / "puzzles").mkdir()
    w = Watcher(tmp_path)
    run = Rebuild([("changed", "puzzles/wip.txt")], quick=BuildResult(removed=["wip"], drafts=["wip"]))
    line = w.describe(run)
    assert "removed wip (a draft: kept off the site until 'draft: false')" in line, line
    # a new draft (or one saved again): it was "no output changed", where build names it
    run = Rebuild([("added", "puzzles/idea.txt")], quick=BuildResult(drafts=["idea", "wip"]))
    line = w.describe(run)
    assert "draft idea: kept off the site until 'draft: false'" in line and "wip" not in line, line
    assert "no output changed" not in line, line


def test_the_pages_errors_follow_the_builds(tmp_path):
    from site_builder.errors import PuzzleError, TemplateError
    from site_builder.site import BuildResult
    from site_builder.watch import ReloadState

    state = ReloadState(tmp_path)
    bad = PuzzleError("puzzles/n.txt", 3, "unknown key 'autor'")
    state.bump(BuildResult(failed=[("n", bad)]), {"n", "a"})
    assert state.problems() == ["puzzles/n.txt:3: error: unknown key 'autor'"]
    state.bump(BuildResult(drafts=["n"]), {"n", "a"})  # fixed, as a draft: on no page, and no error
    assert state.problems() == []
    state.bump(BuildResult(failed=[("n", bad)]), {"n", "a"})
    state.bump(BuildResult(built=["a"]), {"a"})  # deleted (or renamed) while failing
    assert state.problems() == []
    # one template error fails every puzzle alike: said once
    broken = [(s, TemplateError("templates/puzzle.html", 22, "unexpected '}'")) for s in ("a", "b", "c")]
    state.bump(BuildResult(failed=broken), {"a", "b", "c"})
    assert len(state.problems()) == 1 and "templates/puzzle.html:22:" in state.problems()[0]
    # a build that stopped part-way (an index template) may have written pages: the next good one reloads all
    since = state.build
    state.fail("templates/index.html:2: error: the template does not parse")
    state.bump(BuildResult(built=["a", "b", "c"]), {"a", "b", "c"})
    assert state.problems() == [] and state.affects("b/index.html", since)


def test_watch_says_once_when_a_file_in_puzzles_is_not_read(watch):
    """`build` and `lint` name a 'Shout.TXT' they do not read; watch said nothing at all."""
    n = len(watch.out)
    shout = watch.root / "puzzles" / "Shout.TXT"
    shout.write_text(small("Shout"))
    line = watch.wait_for(lambda: next((x for x in watch.out[n:] if "Shout.TXT" in x), None), what="the note")
    assert line == "note: puzzles/Shout.TXT: not read: puzzle files end in '.txt', lowercase; rename it shout.txt", line
    shout.write_text(small("Shout again"))  # said once
    a = watch.root / "puzzles" / "a.txt"
    text = a.read_text()
    a.write_text(text + "# a comment\n")
    watch.wait_for(lambda: any("puzzles/a.txt changed" in x for x in watch.out[n:]), what="the rebuild")
    assert sum("Shout.TXT" in x for x in watch.out[n:]) == 1
    shout.unlink()
    a.write_text(text)


def test_a_save_during_the_full_build_stops_it_and_the_next_quiet_moment_finishes_it(tmp_path):
    """A save while the PNG and PDF render waited for all of them (7 to 12 s on a big puzzle) before its
    page was built: the full build now stops between two renders, owes itself, and runs again later."""
    from site_builder.watch import Rebuild, Watcher

    root = make_repo(tmp_path, a=small("Alpha"))
    w = Watcher(root, say=lambda line: None)
    run = w.start()
    assert w.full_owed and not (root / "public" / "a" / "a.pdf").exists()
    calls = []
    # quiet when the full build starts (finish looks first), a save pending from the slow renders' second ask on
    w.queue.pending = lambda: calls.append(1) or len(calls) > 2
    w.finish(run)
    assert run.full is None and w.full_owed and not (root / "public" / "a" / "a.pdf").exists()
    w.queue.pending = lambda: False
    again = Rebuild([])
    w.finish(again)
    assert again.full is not None and again.full.built == ["a"] and not w.full_owed
    assert (root / "public" / "a" / "a.pdf").exists() and (root / "public" / "a" / "a.png").exists()


def test_a_stop_signal_ends_the_full_build_at_its_next_render_even_when_the_stop_itself_was_swallowed(tmp_path, monkeypatch):
    """A Ctrl-C whose Stop a C callback (cairo, pango) swallowed left the full build running to its end (seconds
    here, minutes on a big archive): the watcher's signal handler now also sets the writer's stop flag, which
    the full build checks between renders."""
    from site_builder import writer
    from site_builder.watch import Rebuild, Watcher

    root = make_repo(tmp_path, a=small("Alpha"), b=small("Bravo", "2026-02-01"))
    w = Watcher(root, say=lambda line: None)
    run = w.start()
    assert w.full_owed
    monkeypatch.setattr(writer, "stop_requested", True)  # what on_signal sets, its Stop lost in a callback
    w.finish(run)
    assert run.full is None and not any((root / "public" / s / f"{s}.pdf").exists() for s in "ab")
    monkeypatch.setattr(writer, "stop_requested", False)
    again = Rebuild([])
    w.finish(again)
    assert again.full is not None and sorted(again.full.built) == ["a", "b"]


def test_a_syntax_error_in_the_code_stays_in_the_panel_through_builds_of_the_old_code(tmp_path):
    """The panel's syntax error went at the next build (a puzzle saved while the module was still broken):
    that build ran the old code, and the watcher still waited for the fix."""
    from site_builder.site import BuildResult
    from site_builder.watch import ReloadState

    state = ReloadState(tmp_path / "public")
    state.code_failed(["site_builder/lint.py:3: error: invalid syntax; fix it and save to restart the watcher",
                       "site_builder/cli.py:9: error: invalid syntax; fix it and save to restart the watcher"])
    state.bump(BuildResult(built=["a"]))
    said = "\n".join(state.problems())
    assert "lint.py:3:" in said and "cli.py:9:" in said
    # as the watcher calls it, with the puzzles that have a source: the code's error is no deleted puzzle's
    state.bump(BuildResult(built=["a"]), slugs={"a"})
    said = "\n".join(state.problems())
    assert "lint.py:3:" in said and "cli.py:9:" in said


def test_a_second_watcher_of_the_same_folder_is_refused(tmp_path):
    """Two watchers of one project each built every save (twice the work, the same files written twice)."""
    from site_builder.watch import claim_output

    (tmp_path / "puzzles").mkdir()
    (tmp_path / "puzzles" / "a.txt").write_text("---\ntitle: A\ndate: 2026-01-01\n---\nHELLO | Hi\nWORLD | Earth\n")
    held, _ = claim_output(tmp_path, tmp_path / "public")
    assert held is not None
    try:
        r = subprocess.run([sys.executable, "-m", "site_builder", "watch", "--root", str(tmp_path), "--port", "8799"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 2, r.stdout + r.stderr
        assert f"another watcher (process {os.getpid()}) is building {tmp_path / 'public'} already" in r.stderr, r.stderr
        assert not (tmp_path / "public").exists()  # nothing built by the one refused
        # another output folder is another watcher's to build
        other, _ = claim_output(tmp_path, tmp_path / "elsewhere")
        assert other is not None
        other.close()
    finally:
        held.close()
    again, _ = claim_output(tmp_path, tmp_path / "public")  # let go: the next watcher may build
    assert again is not None
    again.close()
    assert not any(p.name.endswith(".lock") for p in tmp_path.rglob("*") if "public" in p.parts)


def test_a_puzzles_folder_made_again_is_watched_again(tmp_path):
    """`rm -rf puzzles` and a copy back (or a folder moved into its place): the watcher watched the old
    folder, and no save was seen again until it was restarted."""
    import shutil

    root = make_repo(tmp_path, a=small("Alpha"))
    w = Watch(root)
    try:
        w.next_summary(0, "start:")
        puzzles = root / "puzzles"
        shutil.move(str(puzzles), str(root / "old"))
        puzzles.mkdir()
        shutil.copy(root / "old" / "a.txt", puzzles / "a.txt")
        n = len(w.summaries())
        w.next_summary(n - 1, "puzzles/ made again")
        time.sleep(0.5)
        edit(puzzles / "a.txt", "Top card", "Card on top")
        w.wait_served("/a/", lambda status, body: status == 200 and "Card on top" in body, "show the edit")
        (root / "old" / "a.txt").write_text("not a puzzle")  # the old folder, watched no more
        edit(puzzles / "a.txt", "Card on top", "Top card again")
        w.wait_served("/a/", lambda status, body: "Top card again" in body, "show the second edit")
        assert not any("old" in line for line in w.err), w.log()
        # removed and made again: a new folder, often with the old one's inode
        text = (puzzles / "a.txt").read_text()
        n = len(w.summaries())
        shutil.rmtree(puzzles)
        gone = w.next_summary(n - 1, "puzzles/ removed")
        assert gone.endswith("puzzles/ removed: the site stays as it was; the watcher builds again once the folder "
                             "is back"), w.log()
        assert not any("run from the project folder" in line for line in w.err), w.log()
        puzzles.mkdir()
        (puzzles / "a.txt").write_text(text)
        time.sleep(1.0)
        edit(puzzles / "a.txt", "Top card again", "Third card")
        w.wait_served("/a/", lambda status, body: "Third card" in body, "show the edit after rm -rf")
    finally:
        assert w.stop() == 0, w.log()


def test_a_file_read_while_a_save_of_it_waits_is_not_said_to_fail(tmp_path):
    """An editor empties a file, then writes it: a build that read it in between said 'the file is empty'
    (and 'rebuilt a; failed: a'), where the save waiting says how it reads once written."""
    from site_builder.watch import Watcher

    root = make_repo(tmp_path, a=small("Alpha"), b=small("Bravo", "2026-02-01"))
    w = Watcher(root, say=lambda line: None)
    w.start()
    (root / "puzzles" / "a.txt").write_text("")
    (root / "puzzles" / "b.txt").write_text("")
    w.queue.add(str(root / "puzzles" / "a.txt"))  # a's save is waiting; b's was taken (b is empty for good)
    result, _ = w._build("quick", quick=True)
    assert [slug for slug, _ in result.failed] == ["b"]


def test_a_stop_during_the_png_and_pdf_still_says_what_the_save_rebuilt(tmp_path):
    """The page was written and the browser showed the edit, but Ctrl-C during the PNG and PDF dropped the
    save's own line (and its notes)."""
    from site_builder.watch import Source, Stop, Watcher

    root = make_repo(tmp_path, a=small("Alpha"))
    said: list[str] = []
    w = Watcher(root, say=said.append)
    w.finish(w.start())
    edit(root / "puzzles" / "a.txt", "Top card", "Card on top")

    def stopped(run):
        raise Stop()

    w.finish = stopped
    with pytest.raises(Stop):
        w.rebuild([Source("puzzle", root / "puzzles" / "a.txt")])
    assert len(said) == 1 and "puzzles/a.txt changed: rebuilt a (" in said[0] and "PNG and PDF follow" in said[0], said


def test_watch_says_when_it_waits_for_another_build(tmp_path):
    from site_builder.watch import Watcher

    said: list[str] = []
    w = Watcher(tmp_path, say=said.append)
    w._said("build  a: 3 answers")  # what a build says of its puzzles is the watcher's own line's to say
    w._said(f"wait   another build of {tmp_path} (process 12) is running: this one starts when it ends")
    assert len(said) == 1 and SUMMARY.match(said[0]), said
    assert said[0][10:] == f"another build of {tmp_path} (process 12) is running: this one starts when it ends"


def test_a_second_watcher_on_the_first_ones_port_is_told_of_the_first(tmp_path):
    """The same `make watch` twice: the port is taken first, and 'pick another port' sent the author to
    start a second watcher of the same folder, refused in its turn."""
    from site_builder.watch import claim_output

    (tmp_path / "puzzles").mkdir()
    (tmp_path / "puzzles" / "a.txt").write_text(small("Alpha"))
    held, _ = claim_output(tmp_path, tmp_path / "public")
    try:
        r, _port = _watch_on_a_busy_port(tmp_path)
    finally:
        held.close()
    assert r.returncode == 2 and f"another watcher (process {os.getpid()}) is building" in r.stderr, r.stderr
    assert "pick another port" not in r.stderr


def _watch_on_a_busy_port(root: Path) -> tuple[subprocess.CompletedProcess, int]:
    """`watch` of `root` on a port another socket holds: its run, and the port."""
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        return subprocess.run([sys.executable, "-m", "site_builder", "watch", "--root", str(root), "--port", str(port)],
                              capture_output=True, text=True, timeout=60), port


def test_a_watcher_that_cannot_serve_makes_nothing(tmp_path):
    (tmp_path / "puzzles").mkdir()
    (tmp_path / "puzzles" / "a.txt").write_text(small("Alpha"))
    r, port = _watch_on_a_busy_port(tmp_path)
    assert r.returncode == 2 and f"cannot serve on 127.0.0.1:{port}" in r.stderr, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["puzzles"]  # no public/, no .cache/ with a lock in it


def test_only_puzzles_folder_itself_made_or_removed_is_news():
    """A save inside puzzles/ modifies the folder too: taken for the folder made again, every save rebuilt
    every puzzle."""
    from watchdog.events import DirCreatedEvent, DirDeletedEvent, DirModifiedEvent, DirMovedEvent, FileModifiedEvent

    from site_builder.watch import _event_handler

    root = Path("/project")
    queue = ChangeQueue()
    handler = _event_handler(queue, root)
    handler.on_any_event(FileModifiedEvent("/project/puzzles/a.txt"))
    handler.on_any_event(DirModifiedEvent("/project/puzzles"))
    handler.on_any_event(DirCreatedEvent("/project/puzzles/drafts"))
    assert queue.waiting() == ["/project/puzzles/a.txt"]
    for event in (DirDeletedEvent("/project/puzzles"), DirCreatedEvent("/project/puzzles"),
                  DirMovedEvent("/project/puzzles", "/project/old")):
        handler.on_any_event(event)
    assert queue.waiting() == ["/project/puzzles/a.txt", "/project/puzzles"]
