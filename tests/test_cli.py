from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from .conftest import ROOT, SAMPLES, SETTINGS

TP = str(SAMPLES / "twin-peaks.txt")


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "site_builder", *args], capture_output=True, text=True, cwd=cwd)


def test_generate_text_and_summary():
    r = run("generate", "--words", TP, "--seed", "3")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Twin Peaks\n")
    assert "Across" in r.stdout and "Down" in r.stdout
    assert "seed 3," in r.stderr and "of 39 answers placed" in r.stderr and "% of cells checked" in r.stderr


def test_generate_solution_has_letters():
    r = run("generate", "--words", TP, "--seed", "3", "--solution")
    assert "C O O P E R" in r.stdout.replace("  ", " ") or "COOPER" in r.stdout


def test_generate_json_format():
    r = run("generate", "--words", TP, "--seed", "3", "--json")
    data = json.loads(r.stdout)
    assert set(data) >= {"table", "result", "rows", "cols", "table_string", "unplaced"}
    assert len(data["table"]) == data["rows"] and all(len(row) == data["cols"] for row in data["table"])
    for item in data["result"]:
        if item["orientation"] == "none":
            continue
        x, y = item["startx"] - 1, item["starty"] - 1
        dx, dy = (1, 0) if item["orientation"] == "across" else (0, 1)
        word = "".join(data["table"][y + dy * i][x + dx * i] for i in range(len(item["answer"])))
        assert word == item["answer"]
        assert item["position"] >= 1
    assert data["table_string"].split("\n")[0] == "".join(data["table"][0])


def test_plain_list_and_out_dir(tmp_path):
    f = tmp_path / "my-list.txt"
    f.write_text("CAT | Pet\nACE | Top card\nTEA | Drink\n")
    r = run("generate", "--words", str(f), "--out-dir", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out" / "my-list.json").exists()
    assert not list((tmp_path / "out").glob(".*.tmp"))
    # a plain list has no date: no output makes one up (they used to say 1 January 1970)
    out = tmp_path / "out"
    assert "date" not in json.loads((out / "my-list.ipuz").read_text())
    for name in ("my-list.txt", "my-list.md", "my-list.xd", "my-list.svg"):
        text = (out / name).read_text()
        assert "1970" not in text and "Date:" not in text, name
    assert b"1970" not in (out / "my-list.pdf").read_bytes()


def test_bad_file_exit_2_with_location(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text("---\ntitle: T\ndate: 2026-01-01\n---\nR2D2 | droid\n")
    r = run("generate", "--words", str(f))
    assert r.returncode == 2
    assert f"{f}:5:" in r.stderr and "'2' cannot be in an answer" in r.stderr
    assert "Traceback" not in r.stderr


def test_every_command_reports_a_bad_file_as_lint_does(tmp_path):
    """`file:line:col: error: message`, the compiler form editors link, from generate, build and lint alike."""
    (tmp_path / "puzzles").mkdir()
    f = tmp_path / "puzzles" / "bad.txt"
    f.write_text("---\ntitle: T\ndate: 2026-01-01\n---\nR2D2 | droid\nHAN | pilot\n")
    want = f"{f}:5:2: error: bad answer 'R2D2': character '2' cannot be in an answer"
    lint = run("lint", str(f))
    generate = run("generate", "--words", str(f))
    build = run("build", "--root", str(tmp_path))
    assert lint.returncode == generate.returncode == build.returncode == 2
    for r in (lint, generate, build):
        assert any(line.startswith(want) for line in (r.stdout + r.stderr).splitlines()), r.stderr
    # a layout error names its file the same way
    (tmp_path / "req.txt").write_text("ABCDE | x\nAEIOU | z\n*VWXYZ | y\n")
    r = run("generate", "--words", str(tmp_path / "req.txt"), "--seeds", "3")
    assert r.returncode == 1 and f"{tmp_path / 'req.txt'}:3: error: " in r.stderr, r.stderr  # the starred line


def test_missing_required_exit_1(tmp_path):
    f = tmp_path / "req.txt"
    f.write_text("ABCDE | x\nAEIOU | z\n*VWXYZ | y\n")
    r = run("generate", "--words", str(f), "--seeds", "3")
    assert r.returncode == 1
    assert "missing: VWXYZ" in r.stderr


def test_size_option_rejects_long_answer(tmp_path):
    r = run("generate", "--words", TP, "--size", "10")
    assert r.returncode == 2 and "more than the grid cap of 10; shorten it or raise --size" in r.stderr


def test_effort_option():
    one = run("generate", "--words", TP, "--seed", "0", "--json")
    two = run("generate", "--words", TP, "--seed", "0", "--json", "--effort", "2")
    assert one.returncode == two.returncode == 0, two.stderr
    assert json.loads(one.stdout)["result"] != json.loads(two.stdout)["result"]  # twice the steps: another layout
    r = run("generate", "--words", TP, "--effort", "11")
    assert r.returncode == 2 and "--effort: must be 1 to 10, not 11" in r.stderr


def test_missing_file():
    r = run("generate", "--words", "/nonexistent/x.txt")
    assert r.returncode == 2 and "/nonexistent/x.txt: error: cannot read the file" in r.stderr


def test_generate_and_build_name_the_answers_left_out(tmp_path):
    (tmp_path / "puzzles").mkdir()
    shutil.copy(SETTINGS, tmp_path / "pyproject.toml")
    f = tmp_path / "puzzles" / "drop.txt"
    f.write_text("---\ntitle: T\ndate: 2026-01-01\n---\nHELLO | a\nWORLD | b\nXYZ | c\nLOW | d\n")
    r = run("generate", "--words", str(f))
    assert r.returncode == 0 and "3 of 4 answers placed" in r.stderr and "; left out: XYZ" in r.stderr, r.stderr
    r = run("build", "--root", str(tmp_path))
    line = next(x for x in r.stdout.splitlines() if "drop: " in x)
    assert r.returncode == 0 and "drop: 3 of 4 answers," in line and line.endswith("left out: XYZ"), r.stdout
    # and where the site is
    assert r.stdout.splitlines()[-1].startswith(f"site   {tmp_path / 'public' / 'index.html'}: open it"), r.stdout


def test_a_failed_draft_is_not_said_to_keep_its_outputs(tmp_path):
    (tmp_path / "puzzles").mkdir()
    shutil.copy(SETTINGS, tmp_path / "pyproject.toml")
    (tmp_path / "puzzles" / "wip.txt").write_text("---\ntitle: W\ndate: 2026-01-01\ndraft: true\n---\nCAT | a\nDOG\n")
    (tmp_path / "puzzles" / "ok.txt").write_text("---\ntitle: O\ndate: 2026-01-01\n---\nCAT | a\nACE | b\n")
    r = run("build", "--root", str(tmp_path))
    assert r.returncode == 2
    assert "error: 1 puzzle(s) failed: draft wip, on no page until fixed and published" in r.stderr, r.stderr
    assert (tmp_path / "public" / "index.html").exists()


def _project(tmp_path, **puzzles):
    """A project folder with pyproject.toml and the given puzzles (name -> text)."""
    root = tmp_path / "proj"
    (root / "puzzles").mkdir(parents=True)
    shutil.copy(SETTINGS, root / "pyproject.toml")
    for name, text in puzzles.items():
        (root / "puzzles" / name).write_text(text)
    return root


SMALL_PUZZLE = "---\ntitle: Small\ndate: 2026-01-02\n---\nHELLO | Greeting\nWORLD | Planet\nLOW | Not high\n"


def test_build_into_a_file_where_a_folder_goes_is_a_clear_error(tmp_path):
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE})
    (root / "public").write_text("not a folder")
    r = run("build", "--root", str(root))
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith(f"{root / 'public'}: error: cannot write or read this: "), r.stderr
    assert "a file stands where a folder must go" in r.stderr and "Traceback" not in r.stderr and "bug" not in r.stderr


def test_hidden_editor_files_in_puzzles_are_no_puzzles(tmp_path):
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE})
    (root / "puzzles" / ".#small.txt").symlink_to("root@host.1234:1700000000")  # Emacs's lock: a dangling link
    (root / "puzzles" / "._small.txt").write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        ")
    r = run("build", "--root", str(root))
    assert r.returncode == 0, r.stderr
    assert (root / "public" / "small" / "index.html").exists() and not (root / "public" / "_small").exists()
    r = run("lint", cwd=root)
    assert r.returncode == 0 and "in 1 file" in r.stdout + r.stderr, (r.stdout, r.stderr)


def test_a_site_with_no_address_of_its_own_is_told_its_feed_links_to_an_example(tmp_path):
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE})
    settings = root / "pyproject.toml"
    settings.write_text(re.sub(r'(?m)^base_url = .*$', 'base_url = "https://crosswords.jo-baker.net/"', settings.read_text()))
    r = run("build", "--root", str(root))
    assert r.returncode == 0 and "base_url" not in r.stderr, r.stderr  # an address of its own
    page = (root / "public" / "small" / "index.html").read_text()
    assert '<link rel="canonical" href="https://crosswords.jo-baker.net/small/">' in page
    for example in ('[project]\nname = "mine"\n', '[tool.crossword]\nbase_url = "https://crosswords.example.com/"\n'):
        settings.write_text(example)  # none (the default, https://example.org/), or one at a name kept for examples
        r = run("build", "--root", str(root))
        url = re.search(r'base_url = "(.*)"', example)[1] if "base_url" in example else "https://example.org/"
        assert r.returncode == 0 and f"note: base_url is {url}, an example's address: the feed and sitemap link to it" in r.stderr, r.stderr
        assert f"{url}small/" in (root / "public" / "feed.xml").read_text()
        page = (root / "public" / "small" / "index.html").read_text()
        assert 'rel="canonical"' not in page and "og:url" not in page and "og:image" not in page
        assert '<meta property="og:title" content="Small">' in page


def test_a_build_with_its_output_closed_builds_and_exits_0(tmp_path):
    """`crossword build >&-` (cron, a daemon): Python starts with no stdout; it was an internal error, exit 3."""
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE})
    exe = os.path.join(os.path.dirname(sys.executable), "crossword")
    r = subprocess.run(["sh", "-c", f"'{exe}' build --root '{root}' >&-"], capture_output=True, text=True)
    assert r.returncode == 0 and "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    assert (root / "public" / "small" / "index.html").exists()
    # generate's output is the puzzle itself: with nowhere to print it, it says so (or writes files)
    words = root / "puzzles" / "small.txt"
    r = subprocess.run(["sh", "-c", f"'{exe}' generate --words '{words}' --seed 1 >&-"], capture_output=True, text=True)
    assert r.returncode == 2 and "there is no standard output" in r.stderr and "Traceback" not in r.stderr, r.stderr
    r = subprocess.run(["sh", "-c", f"'{exe}' generate --words '{words}' --seed 1 --out-dir '{tmp_path / 'g'}' >&-"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and (tmp_path / "g" / "small.pdf").exists(), r.stderr


def test_files_in_puzzles_that_look_like_puzzles_but_are_not_read_are_named(tmp_path):
    """A subfolder, 'Herbs.TXT', or a front-matter file with no extension was skipped without a word."""
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE})
    (root / "puzzles" / "Herbs.TXT").write_text(SMALL_PUZZLE)
    (root / "puzzles" / "herbs").write_text("\ufeff" + SMALL_PUZZLE)  # with a BOM, as Notepad saves it
    (root / "puzzles" / "README.md").write_text("# my notes\n")  # an author's own file: not a word
    (root / "puzzles" / "old").mkdir()
    (root / "puzzles" / "old" / "x.txt").write_text(SMALL_PUZZLE)
    (root / "puzzles" / "here").symlink_to(".")  # a link to the folder itself is no subfolder
    (root / "puzzles" / "My Herbs.TXT").write_text(SMALL_PUZZLE)
    # lint names them too when given the folder (or the folder twice, or with a file in it: once each)
    for r in (run("build", "--root", str(root)), run("lint", cwd=root), run("lint", "puzzles", "puzzles/", cwd=root),
              run("lint", "puzzles", "puzzles/small.txt", cwd=root)):
        assert r.returncode == 0, r.stderr
        notes = [line for line in r.stderr.splitlines() if line.startswith("note: ")]
        assert len(notes) == 4, r.stderr
        assert "My Herbs.TXT: not read: puzzle files end in '.txt', lowercase; rename it my-herbs.txt" in r.stderr
        assert "Herbs.TXT: not read: puzzle files end in '.txt', lowercase; rename it herbs.txt" in r.stderr
        assert "herbs: not read: puzzle files end in '.txt'; rename it herbs.txt" in r.stderr
        assert "old/: a subfolder's files are not read" in r.stderr and "README" not in r.stderr


def test_a_slug_or_tag_too_long_for_a_file_name_is_an_error_with_its_place(tmp_path):
    long_tag = SMALL_PUZZLE.replace("date: 2026-01-02\n", "date: 2026-01-02\ntags: [" + "a" * 300 + "]\n")
    root = _project(tmp_path, **{"small.txt": long_tag, "b" * 235 + ".txt": SMALL_PUZZLE})
    r = run("lint", cwd=root)
    said = r.stdout + r.stderr
    assert r.returncode == 2
    assert "puzzles/small.txt:4:" in said and "300 characters long" in said, said
    assert "is 235 characters long before '.txt'" in said, said
    r = run("build", "--root", str(root))
    assert r.returncode == 2 and "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    assert not (root / "public" / "index.html").exists()  # no index linking pages that cannot be written


def test_build_out_leaves_other_peoples_files_alone(tmp_path):
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE})
    out = tmp_path / "site"
    keep = [out / "api" / "api.json", out / "api" / "img" / "photo.jpg", out / ".lock.tmp", out / "deep" / "er" / ".session.x1.tmp",
            out / "notes" / ".draft.md.abcd1234.tmp"]
    for f in keep:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("theirs")
    r = run("build", "--root", str(root), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "remove" not in r.stdout
    assert [f for f in keep if not f.exists()] == [f for f in keep if f.name == ".draft.md.abcd1234.tmp"]
    assert (out / "small" / "index.html").exists()
    # a folder the build did make, for a puzzle now gone, is removed
    (root / "puzzles" / "small.txt").rename(root / "puzzles" / "renamed.txt")
    r = run("build", "--root", str(root), "--out", str(out))
    assert r.returncode == 0 and not (out / "small").exists() and (out / "renamed" / "index.html").exists(), r.stdout


def test_watch_port_out_of_range_and_unknown_host_are_clear_errors(tmp_path):
    r = run("watch", "--port", "70000")
    assert r.returncode == 2 and "a port is 0 to 65535, not 70000" in r.stderr and "Traceback" not in r.stderr, r.stderr
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE})
    r = subprocess.run([sys.executable, "-m", "site_builder", "watch", "--root", str(root), "--host", "no.such.host.invalid",
                        "--port", "0"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "name a host of this machine" in r.stderr and "pick another port" not in r.stderr, r.stderr


def test_pyproject_problems_are_errors_with_their_place(tmp_path):
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE})
    for text, expect in (
        ('[project]\nname = "x"\n\n[tool]\ncrossword = "oops"\n', "pyproject.toml:5: error: [tool.crossword] must be a table"),
        ('[project]\nname = "x"\n\n[tool.crossword]\ntitle = "unclosed\n',
         "pyproject.toml:5:18: error: not valid TOML: Illegal character '\\n'; a quoted value is not closed on its line"),
        ('[project]\nname = "x"\n\n[tool.crossword]\ntitle = The Press\n',
         'pyproject.toml:5:9: error: not valid TOML: Invalid value; a text value goes in double quotes: key = "text"'),
        ('[tool.crossword]\ntitle = "A"\n  title = "B"\n',
         "pyproject.toml:3:3: error: not valid TOML: key title is given twice; keep one"),
        ('[tool.crossword]\ntitle = " "\n', "pyproject.toml:2: error: [tool.crossword] 'title' must not be empty"),
    ):
        (root / "pyproject.toml").write_text(text)
        r = run("build", "--root", str(root))
        assert r.returncode == 2 and expect in r.stderr and "internal error" not in r.stderr, r.stderr
    (root / "pyproject.toml").write_bytes(b'[tool.crossword]\ntitle = "caf\xe9"\n')
    r = run("build", "--root", str(root))
    assert r.returncode == 2 and "pyproject.toml:2: error: not UTF-8 text" in r.stderr, r.stderr


def test_check_says_to_delete_a_file_the_build_does_not_make(tmp_path):
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE})
    assert run("build", "--root", str(root)).returncode == 0
    (root / "public" / "small" / "stray.html").write_text("hand-made")
    r = run("check", "--root", str(root))
    assert r.returncode == 1 and "delete them (`git rm` those committed)" in r.stderr and "make site" not in r.stderr, r.stderr
    # no source makes it: not "stale (from site (templates, ...))", as if the site's templates did
    assert "drift: public/small/stray.html: not made by the build\n" in r.stdout, r.stdout
    (root / "public" / "small" / "stray.html").unlink()
    assert run("check", "--root", str(root)).stdout == "public/ matches the sources: 1 puzzle, no drift\n"


def test_files_of_the_operators_own_are_kept_and_are_no_drift(tmp_path):
    """A host's robots.txt or CNAME in public/ failed every `check` (and so CI), with no way to say it is
    meant to be there; own_files says so."""
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE})
    assert run("build", "--root", str(root)).returncode == 0
    own = {"robots.txt": "Sitemap: https://example.org/sitemap.xml\n", "CNAME": "puzzles.example.org\n",
           "static/img/logo.png": "logo"}
    for name, text in own.items():
        (root / "public" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "public" / name).write_text(text)
    r = run("check", "--root", str(root))
    assert r.returncode == 1 and "list the ones of your own (a host's robots.txt or CNAME) in own_files" in r.stderr
    settings = root / "pyproject.toml"
    settings.write_text(settings.read_text() + '\nown_files = ["CNAME", "robots.txt", "static/img/logo.png"]\n')
    assert "[tool.crossword]" in settings.read_text().split("own_files")[0]
    r = run("check", "--root", str(root))
    assert r.stdout == "public/ matches the sources: 1 puzzle, no drift\n", r.stdout + r.stderr
    r = run("build", "--root", str(root))
    assert r.returncode == 0 and "keep" not in r.stdout, r.stdout  # nothing to say of them
    assert all((root / "public" / name).read_text() == text for name, text in own.items())
    settings.write_text(settings.read_text().replace('"CNAME"', '"../CNAME"'))
    r = run("check", "--root", str(root))
    assert r.returncode == 2 and "'own_files' names '../CNAME', which is no path inside public/" in r.stderr, r.stderr
    settings.write_text(settings.read_text().replace('"../CNAME"', '"sw.js"'))
    assert "names 'sw.js', which the build makes; remove it from the list" in run("build", "--root", str(root)).stderr


def _on_a_terminal(*args: str, timeout: float = 120) -> tuple[subprocess.CompletedProcess, str]:
    """Run the CLI with its stderr on a pseudo-terminal, as a person at a terminal sees it: (result, what it showed)."""
    pty = pytest.importorskip("pty")
    import select
    import time

    master, slave = pty.openpty()
    child = subprocess.Popen([sys.executable, "-m", "site_builder", *args], stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    seen, deadline = b"", time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:  # read as it comes, so a full terminal buffer never stalls the child
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # the child closed its end: all read
                    break
                if not chunk:
                    break
                seen += chunk
            elif child.poll() is not None:
                break
        else:
            child.kill()
            pytest.fail(f"{args} did not finish in {timeout} s")
    finally:
        os.close(master)
    out = child.stdout.read().decode()
    child.stdout.close()
    return subprocess.CompletedProcess(child.args, child.wait(), out, ""), seen.decode()


def test_check_counts_the_puzzles_it_builds_on_a_terminal_only(tmp_path):
    """check lays every puzzle out again (minutes on a big archive): a terminal sees the count, a log nothing."""
    draft = SMALL_PUZZLE.replace("Small", "Draft").replace("date: 2026-01-02\n", "date: 2026-01-02\ndraft: true\n")
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE, "other.txt": SMALL_PUZZLE.replace("Small", "Other"),
                                 "wip.txt": draft})  # a draft is not built, so not counted
    assert run("build", "--root", str(root)).returncode == 0
    r, shown = _on_a_terminal("check", "--root", str(root))
    assert r.returncode == 0 and r.stdout == "public/ matches the sources: 2 puzzles, no drift\n", (r.stdout, shown)
    assert "\rcheck: 1 of 2 puzzles built afresh" in shown and "\rcheck: 2 of 2 puzzles built afresh" in shown, shown
    assert "\r\x1b[K" in shown[shown.rindex("built afresh"):], shown  # the line cleared for the verdict
    logged = run("check", "--root", str(root))
    assert logged.returncode == 0 and "check:" not in logged.stderr, logged.stderr


def test_build_of_an_empty_project_says_how_to_start(tmp_path):
    root = _project(tmp_path)
    r = run("build", "--root", str(root))
    assert r.returncode == 0 and "no puzzles yet" in r.stdout and "up to date" not in r.stdout, r.stdout


def test_a_project_of_drafts_only_says_nothing_is_published(tmp_path):
    root = _project(tmp_path, **{"wip.txt": SMALL_PUZZLE.replace("date: 2026-01-02\n", "date: 2026-01-02\ndraft: true\n")})
    r = run("build", "--root", str(root))
    assert r.returncode == 0 and "nothing published: 1 draft (wip)" in r.stdout and "no puzzles yet" not in r.stdout, r.stdout


def test_a_build_names_the_drafts_it_keeps_off_the_site(tmp_path):
    root = _project(tmp_path, **{"wip.txt": SMALL_PUZZLE.replace("date: 2026-01-02\n", "date: 2026-01-02\ndraft: true\n"),
                                 "done.txt": SMALL_PUZZLE})
    for _ in range(2):  # built, then up to date: said each time
        r = run("build", "--root", str(root))
        assert r.returncode == 0 and "draft  wip: kept off the site until 'draft: false'" in r.stdout, r.stdout
    # --quiet says nothing when all is up to date, and what a build did (the drafts too) when it built
    assert run("build", "--root", str(root), "-q").stdout == ""
    (root / "puzzles" / "done.txt").write_text(SMALL_PUZZLE.replace("| ", "| A ", 1))
    r = run("build", "--root", str(root), "-q")
    assert "build  done" in r.stdout and "draft  wip: kept off the site" in r.stdout, r.stdout


def test_file_system_errors_name_the_folder_and_the_right_fix(tmp_path):
    import errno

    from site_builder.errors import FileSystemError

    temp = PermissionError(errno.EACCES, "Permission denied", str(tmp_path / ".cache" / "layouts" / ".ab12.json.k2j3_x9q.tmp"))
    message = str(FileSystemError(temp))
    assert message.startswith(f"{tmp_path / '.cache' / 'layouts'}: ") and "make .cache writable" in message and "--out" not in message
    out = PermissionError(errno.EACCES, "Permission denied", str(tmp_path / "public" / "a" / ".a.pdf.x1y2z3ab.tmp"))
    assert str(FileSystemError(out)).startswith(f"{tmp_path / 'public' / 'a'}: ") and "--out" in str(FileSystemError(out))


def test_watch_says_how_to_raise_the_inotify_limit(tmp_path, monkeypatch, capsys):
    import errno

    from site_builder import watch

    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE})

    def full(self):
        raise OSError(errno.ENOSPC, "inotify watch limit reached")

    monkeypatch.setattr(watch.Watcher, "start_observer", full)
    assert watch.run_watch(root, "127.0.0.1", 0, None) == 2
    err = capsys.readouterr().err
    assert "cannot watch the project's folders" in err and "max_user_watches" in err and "disk space" not in err, err


def test_a_folder_a_stopped_build_left_goes_when_its_puzzle_does(tmp_path):
    from site_builder.site import _remove_stale

    out = tmp_path / "public"
    (out / "gone").mkdir(parents=True)
    (out / "gone" / "gone.json").write_text(json.dumps({"table": [], "result": [], "strategy": "optimize", "crossings": 0}))
    (out / "gone" / "gone.svg").write_text("<svg/>")  # stopped before the page and the ipuz
    (out / "api").mkdir()
    (out / "api" / "api.json").write_text("{}")  # someone else's: no page, SVG or ipuz of its name
    assert _remove_stale(out, published=set()) == ["gone"] and (out / "api" / "api.json").exists()


def test_a_full_disk_is_a_file_system_error_naming_the_file(tmp_path):
    # a write or fsync fails with no file named: the writer names the one it was writing
    import errno

    from site_builder import writer

    real = os.fsync

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    try:
        os.fsync = full
        try:
            writer.write_atomic(tmp_path / "out.txt", "x")
        except OSError as exc:
            assert exc.errno == errno.ENOSPC and exc.filename == str(tmp_path / "out.txt")
        else:
            raise AssertionError("no error")
    finally:
        os.fsync = real
    assert not list(tmp_path.iterdir())  # nothing half-written
    r = subprocess.run(["bash", "-c", f"ulimit -f 20; {sys.executable} -m site_builder generate --words {TP} --seed 3 "
                        f"--out-dir {tmp_path / 'o'}"], capture_output=True, text=True)
    assert r.returncode == 2 and "cannot write or read this" in r.stderr and "bug" not in r.stderr, r.stderr


def test_an_unknown_option_shows_its_commands_usage():
    r = subprocess.run([sys.executable, "-m", "site_builder", "build", "--bogus"], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.startswith("usage: crossword build [-h] [--root ROOT]"), r.stderr
    assert "crossword build: error: unrecognized arguments: --bogus" in r.stderr
    r = subprocess.run([sys.executable, "-m", "site_builder", "--bogus", "lint"], capture_output=True, text=True)
    assert r.returncode == 2 and "crossword: error: unrecognized arguments: --bogus" in r.stderr, r.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_output_that_cannot_be_written_is_named_as_the_output(tmp_path):
    # `crossword build > /dev/full`: the report fails, not the build; the error must not blame public/ or '.'
    root = tmp_path / "repo"
    (root / "puzzles").mkdir(parents=True)
    shutil.copy(TP, root / "puzzles" / "tp.txt")
    for _ in range(2):  # a report cut off mid-build, then an up-to-date build's one line
        with open("/dev/full", "w") as full:
            r = subprocess.run([sys.executable, "-m", "site_builder", "build", "--root", str(root)],
                               stdout=full, stderr=subprocess.PIPE, text=True)
        assert r.returncode == 2, r.stderr
        assert "cannot write the command's output: No space left on device" in r.stderr, r.stderr
        assert "cannot write or read this" not in r.stderr and "Traceback" not in r.stderr
    assert (root / "public" / "tp" / "index.html").is_file()
    with open("/dev/full", "w") as full:  # a binary export written straight to the stream's buffer
        r = subprocess.run([sys.executable, "-m", "site_builder", "generate", "--words", TP, "--seed", "3",
                            "--format", "puz"], stdout=full, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 2 and "cannot write the command's output" in r.stderr, r.stderr


def test_a_users_folder_with_a_json_and_svg_of_its_name_is_not_removed(tmp_path):
    from site_builder.site import _remove_stale

    out = tmp_path / "public"
    (out / "brand").mkdir(parents=True)
    (out / "brand" / "brand.json").write_text("{}")
    (out / "brand" / "brand.svg").write_text("<svg/>")
    assert _remove_stale(out, published=set()) == [] and (out / "brand").exists()


def test_generate_in_a_project_writes_what_build_writes(tmp_path):
    # a puzzle with no author gets the project's default author from pyproject.toml, in every file
    (tmp_path / "puzzles").mkdir()
    (tmp_path / "pyproject.toml").write_text('[tool.crossword]\nauthor = "The House Setter"\nlicence = "CC BY 4.0"\n',
                                             encoding="utf-8")
    (tmp_path / "puzzles" / "plain.txt").write_text(
        "---\ntitle: Plain\ndate: 2026-01-02\n---\nCAT | Pet\nTEA | Brew\nACT | Perform\n", encoding="utf-8"
    )
    r = run("build", "--root", str(tmp_path), "--jobs", "1")
    assert r.returncode == 0, r.stderr
    r = run("generate", "--words", "puzzles/plain.txt", "--out-dir", "gen", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    written = sorted(p.name for p in (tmp_path / "gen").iterdir())
    assert written and "plain.xd" in written
    for name in written:
        assert (tmp_path / "gen" / name).read_bytes() == (tmp_path / "public" / "plain" / name).read_bytes(), name
    assert "Author: The House Setter" in (tmp_path / "gen" / "plain.xd").read_text(encoding="utf-8")
    # with no copyright of its own, what leaves the site (PDF, exports) carries the site's licence; the page
    # shows it once, in its footer
    assert "Copyright: CC BY 4.0" in (tmp_path / "gen" / "plain.xd").read_text(encoding="utf-8")
    assert b"CC BY 4.0" in (tmp_path / "gen" / "plain.puz").read_bytes()
    page = (tmp_path / "public" / "plain" / "index.html").read_text(encoding="utf-8")
    assert page.count("CC BY 4.0") == 1
    r = run("generate", "--words", "puzzles/plain.txt", "--format", "ipuz", cwd=tmp_path)
    assert r.returncode == 0 and '"copyright": "CC BY 4.0"' in r.stdout
    # outside a project's puzzles/ folder, no project's settings apply
    (tmp_path / "loose.txt").write_text((tmp_path / "puzzles" / "plain.txt").read_text(encoding="utf-8"), encoding="utf-8")
    r = run("generate", "--words", "loose.txt", "--format", "xd", cwd=tmp_path)
    assert r.returncode == 0 and "Author:" not in r.stdout


def test_a_build_ends_with_the_puzzles_that_left_answers_out(tmp_path):
    from .test_site import make_repo, small

    # BUZZ shares no letter with CAT, ACE, TEA and EAT: it can cross none of them
    loose = small("Loose").replace("EAT | Have dinner\n", "EAT | Have dinner\nBUZZ | Hum\n")
    root = make_repo(tmp_path, a=loose.replace("title: Loose", "title: Loose A"),
                     b=loose.replace("title: Loose", "title: Loose B"), c=small("Fits"))
    r = run("build", "--root", str(root), "--jobs", "1")
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip().splitlines()[-1].startswith("note: 2 puzzles left answers out: a, b;"), r.stderr


def test_generate_names_a_file_in_the_way_of_its_out_dir_before_laying_out(tmp_path):
    """It was checked after the layout: minutes of a long list's search, then the error."""
    f = tmp_path / "p.txt"
    f.write_text("---\ntitle: T\ndate: 2026-01-01\n---\nHELLO | a\nWORLD | b\n")
    (tmp_path / "afile").write_text("x")
    r = run("generate", "--words", str(f), "--out-dir", str(tmp_path / "afile"))
    assert r.returncode == 2 and "it is a file, not a folder" in r.stderr, r.stderr
    assert "answers placed" not in r.stderr, r.stderr  # no layout was made
    r = run("generate", "--words", str(f), "--seed", "0")
    assert "1 crossing (" in r.stderr, r.stderr


def test_generate_warns_of_a_title_the_prints_cannot_draw(tmp_path):
    """A plain list named 東京.txt was titled 東京, printed as two empty boxes, and nothing said so."""
    f = tmp_path / "東京.txt"
    f.write_text("TOKYO | Japanese capital\nOSAKA | Kansai city\nKYOTO | Old capital\n", encoding="utf-8")
    r = run("generate", "--words", str(f), "--out-dir", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    assert "warning: the title '東京', from the file name: the print fonts have no glyph for '東'" in r.stderr, r.stderr
    g = tmp_path / "tokyo.txt"
    g.write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    r = run("generate", "--words", str(g), "--out-dir", str(tmp_path / "out"))
    assert r.returncode == 0 and "warning" not in r.stderr, r.stderr


def test_no_fontconfig_warning_where_the_cache_folder_cannot_be_written(tmp_path):
    """A service user with HOME=/nonexistent: fontconfig said 'No writable cache directories' three times
    on every build. The cache goes to a folder of the user's own under the temporary folder instead."""
    f = tmp_path / "p.txt"
    f.write_text("---\ntitle: T\ndate: 2026-01-01\n---\nHELLO | a\nWORLD | b\nLOW | c\n")
    # FONTCONFIG_FILE as a parent process that rendered sets it (the test suite does): the fix ran too late
    from site_builder.render.fonts import FONTS_CONF

    env = {**os.environ, "XDG_CACHE_HOME": "/dev/null/cache", "FONTCONFIG_FILE": str(FONTS_CONF)}
    r = subprocess.run([sys.executable, "-m", "site_builder", "generate", "--words", str(f), "--out-dir",
                        str(tmp_path / "out")], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and (tmp_path / "out" / "p.pdf").exists(), r.stderr
    assert "Fontconfig" not in r.stderr, r.stderr


def test_a_build_that_changed_only_the_index_says_so_not_up_to_date(tmp_path):
    (tmp_path / "puzzles").mkdir()
    shutil.copy(SETTINGS, tmp_path / "pyproject.toml")
    (tmp_path / "puzzles" / "a.txt").write_text("---\ntitle: T\ndate: 2026-01-01\n---\nHELLO | a\nWORLD | b\n")
    assert run("build", "--root", str(tmp_path)).returncode == 0
    r = run("build", "--root", str(tmp_path))
    assert r.stdout == "up to date: 1 puzzle\n", r.stdout
    toml = tmp_path / "pyproject.toml"
    toml.write_text(toml.read_text().replace('description = "Themed', 'description = "Newly themed'))
    r = run("build", "--root", str(tmp_path))
    lines = r.stdout.splitlines()
    assert lines[0].startswith("update ") and "index.html" in lines[0] and lines[0].endswith("(no puzzle changed)"), r.stdout
    assert lines[-1].startswith("site   ") and "up to date" not in r.stdout, r.stdout


REFERENCES = """---
title: References
date: 2026-01-02
---
MAESTRO | Conductor
BATON | What the [[Maestro]] waves
ORCHESTRA | Group led by [[maestro]]
VIOLIN | Instrument in [[ORCHESTRA]]
CELLO | Bigger than [[violin]]
"""


def test_a_clue_refers_to_another_answer_by_name_and_every_output_prints_its_number(tmp_path):
    """Numbers come from the layout, so an author cannot write "12-Across": "[[VIOLIN]]" becomes the number the
    layout gave VIOLIN, in the page, the PDF, the exports and generate's text."""
    root = _project(tmp_path, **{"refs.txt": REFERENCES})
    r = run("build", "--root", str(root))
    assert r.returncode == 0, r.stderr
    data = json.loads((root / "public" / "refs" / "refs.json").read_text(encoding="utf-8"))
    place = {e["answer"]: e for e in data["result"]}
    name = {a: f"{place[a]['position']}-{place[a]['orientation'].title()}" for a in place}
    clues = {e["answer"]: e["clue"] for e in data["result"]}
    assert clues["BATON"] == f"What the {name['MAESTRO']} waves" and clues["CELLO"] == f"Bigger than {name['VIOLIN']}"
    for out in ("refs.ipuz", "refs.xd", "refs.md", "index.html"):
        text = (root / "public" / "refs" / out).read_text(encoding="utf-8")
        assert not re.search(r"\[\[[A-Za-z]", text) and f"Group led by {name['MAESTRO']}" in text, out
    assert b"[[" not in (root / "public" / "refs" / "refs.puz").read_bytes()
    r = run("generate", "--words", "puzzles/refs.txt", cwd=root)
    assert r.returncode == 0 and f"Instrument in {name['ORCHESTRA']}" in r.stdout, r.stdout + r.stderr


def test_a_reference_to_no_answer_its_own_or_one_left_out_fails_with_its_line(tmp_path):
    bad = REFERENCES.replace("Bigger than [[violin]]", "Bigger than [[viola]]").replace(
        "MAESTRO | Conductor", "MAESTRO | Conductor, [[Maestro]] himself")
    root = _project(tmp_path, **{"refs.txt": bad})
    r = run("lint", str(root / "puzzles" / "refs.txt"))
    assert r.returncode != 0
    assert "refs.txt:5:22: error: the clue's [[Maestro]] refers to its own answer" in r.stdout, r.stdout
    assert "refs.txt:9:21: error: the clue's [[viola]] names no answer of this puzzle" in r.stdout, r.stdout
    # XYZZY crosses nothing, so the grid leaves it out: the clue pointing at it has nothing to point at
    (root / "puzzles" / "refs.txt").write_text(REFERENCES + "XYZZY | Magic word\n" + "TUBA | Not [[xyzzy]]\n")
    r = run("build", "--root", str(root))
    assert r.returncode != 0 and "refs.txt:11" in r.stderr and "[[xyzzy]], which the grid left out" in r.stderr, r.stderr
    # why, and what helps: XYZZY shares no letter, so starring it would not
    assert "(XYZZY shares no letter with any other answer); drop the reference, or give" in r.stderr, r.stderr


def test_generate_says_why_it_left_each_answer_out(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("DOG | a\nGOD | b\nGOOD | c\nCAT | d\nACT | e\nTACT | f\nXYZZY | g\n", encoding="utf-8")
    r = run("generate", "--words", str(words))
    assert r.returncode == 0, r.stderr
    assert "note: XYZZY shares no letter with any other answer: nothing can cross it" in r.stderr, r.stderr
    assert "share no letter with the answers in the grid: no grid holds both groups" in r.stderr, r.stderr
    crowded = tmp_path / "c.txt"
    crowded.write_text("".join(f"{w} | clue\n" for w in ("GARDEN", "ORANGE", "DANGER", "RANGED", "GANDER", "ENDEAR",
                                                          "READING", "GRENADE")), encoding="utf-8")
    r = run("generate", "--words", str(crowded), "--size", "7")
    assert r.returncode == 0 and "found no room: raise --size" in r.stderr, r.stderr


def test_generate_names_lists_of_other_scripts_apart(tmp_path):
    """東京.txt and ___.txt both wrote puzzle.* into one --out-dir: the second overwrote the first."""
    for name in ("東京.txt", "___.txt", "Crème.txt", "Straße Ærø.txt"):
        (tmp_path / name).write_text("CAT | Pet\nACT | Perform\nTACT | Diplomacy\n", encoding="utf-8")
        r = run("generate", "--words", name, "--out-dir", "out", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
    stems = sorted({p.name.split(".")[0] for p in (tmp_path / "out").glob("*.json")})
    # letters with no accent to drop spelled as answers spell them ('strae-r' before)
    named = {"creme", "strasse-aero"}
    assert len(stems) == 4 and named <= set(stems) and all(s in named or s.startswith("puzzle-") for s in stems), stems


def test_build_and_check_use_every_core_they_may_and_make_passes_its_own_job_count(monkeypatch):
    from site_builder import cli

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 2, 5}, raising=False)
    assert cli.cores() == 3
    assert cli.build_parser().parse_args(["build"]).jobs == 3
    assert cli.build_parser().parse_args(["check"]).jobs == 3
    dry = {flags: subprocess.run(["make", "-n", *flags, "site"], cwd=ROOT, capture_output=True, text=True).stdout
           for flags in ((), ("-j3",))}
    build = [line for line in dry[()].splitlines() if "crossword build" in line]
    assert build and all("--jobs" not in line for line in build)
    assert any(line.endswith("crossword build --jobs 3") for line in dry[("-j3",)].splitlines())


def test_an_answer_the_rules_keep_out_of_a_grid_with_room_is_not_told_to_raise_the_size(tmp_path):
    """Fourteen two-letter answers: at most eleven fit under the rules, in a 7x6 grid at any size; the note
    said "raise --size", which changed nothing."""
    words = tmp_path / "twos.txt"
    words.write_text("".join(f"{w} | clue\n" for w in "IO OX AX AT TO ON NO IN IT OF OR AN AS IS".split()))
    r = run("generate", "--words", str(words))
    assert r.returncode == 0, r.stderr
    assert "found no spot where the rules let them cross the grid" in r.stderr and "raise" not in r.stderr


def test_a_strategy_that_cannot_place_a_required_answer_is_told_what_helps_it(tmp_path):
    """`scored` tries at most 50 seeds an effort level: more seeds changed nothing; effort, or the default
    search, may place it."""
    words = tmp_path / "w.txt"
    words.write_text("*CAT | a\n*ACT | b\n*TAT | c\n*CAB | d\n")
    r = run("generate", "--words", str(words), "--size", "3", "--strategy", "scored")
    assert r.returncode == 1, r.stderr
    assert "a higher --effort (up to 10), the default search (--strategy optimize), or unstar one" in r.stderr
    assert "seeds" not in r.stderr, r.stderr


def test_a_python_without_the_packages_is_told_how_to_set_up_not_asked_for_a_bug_report(tmp_path):
    """`python3 -m site_builder` under the system's Python, not .venv's: a package cannot be imported."""
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE})
    for blocked, command in (("jinja2", "build"), ("fontTools", "lint")):
        code = (f"import sys; sys.modules[{blocked!r}] = None; sys.argv = ['crossword', {command!r}]\n"
                "from site_builder.__main__ import run; run()")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=300)
        assert r.returncode == 2, r.stderr
        assert f"has no '{blocked}" in r.stderr and "which the crossword press needs; run `make site`" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr and "internal error" not in r.stderr and "report" not in r.stderr, r.stderr
    # the package's own module missing is a bug of ours, as before: not "install the packages"
    code = "import sys; sys.modules['site_builder.layout'] = None; sys.argv = ['crossword', 'lint']\n" \
           "from site_builder.__main__ import run; run()"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=300)
    assert r.returncode != 0 and "make site" not in r.stderr and "site_builder.layout" in r.stderr, r.stderr
    from site_builder.errors import InternalError, unexpected

    assert isinstance(unexpected("x", ModuleNotFoundError("gone", name="site_builder.nothing")), InternalError)


def test_a_failed_build_says_which_failed_puzzles_had_no_outputs_to_keep(tmp_path):
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE})
    assert run("build", "--root", str(root), "--jobs", "1").returncode == 0
    (root / "puzzles" / "small.txt").write_text(SMALL_PUZZLE.replace("HELLO | Greeting", "HELLO - Greeting"))
    (root / "puzzles" / "fresh.txt").write_text(SMALL_PUZZLE.replace("LOW | Not high", "LOW: Not high"))
    (root / "public" / "fresh" / "fresh.pdf").mkdir(parents=True)  # a folder of someone's, no outputs of a build
    r = run("build", "--root", str(root), "--jobs", "1")
    assert r.returncode == 2
    assert ("error: 2 puzzle(s) failed: small; its previous outputs are kept; fresh, on no page until fixed "
            "(no outputs from before)") in r.stderr, r.stderr


@pytest.mark.parametrize("flags", [("--json", "--solution"), ("--format", "xd", "--solution"), ("--text", "--json")])
def test_generate_refuses_two_things_to_print(flags):
    # `--json --solution` printed the JSON alone, and `--format xd --solution` the xd: one was dropped unsaid
    r = run("generate", "--words", TP, "--seed", "3", *flags)
    assert r.returncode == 2 and "not allowed with argument" in r.stderr and r.stdout == "", r.stderr


def test_a_new_puzzle_named_for_a_folder_of_the_site_has_no_outputs_to_keep(tmp_path):
    # public/static/ holds the site's styles and scripts: no outputs of a puzzle file named static.txt
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE})
    assert run("build", "--root", str(root), "--jobs", "1").returncode == 0
    assert (root / "public" / "static").is_dir()
    (root / "puzzles" / "static.txt").write_text(SMALL_PUZZLE)
    r = run("build", "--root", str(root), "--jobs", "1")
    assert r.returncode == 2 and "file name 'static.txt' is taken" in r.stderr, r.stderr
    assert "error: 1 puzzle(s) failed: static, on no page until fixed (no outputs from before)" in r.stderr, r.stderr


def test_a_removed_puzzle_waiting_on_a_failed_one_is_named(tmp_path):
    """A puzzle deleted while another fails stays on the site (the index, which links it, is kept as it was):
    the build said nothing of it, and removed it only at the next good build."""
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE, "other.txt": SMALL_PUZZLE.replace("title: ", "title: Other ")})
    assert run("build", "--root", str(root), "--jobs", "1").returncode == 0
    (root / "puzzles" / "other.txt").unlink()
    (root / "puzzles" / "small.txt").write_text(SMALL_PUZZLE.replace("HELLO | Greeting", "HELLO - Greeting"))
    r = run("build", "--root", str(root), "--jobs", "1")
    assert r.returncode == 2 and (root / "public" / "other").is_dir()
    assert "index  kept as it was: 1 puzzle(s) failed; other stays on the site until then" in r.stdout, r.stdout
    (root / "puzzles" / "small.txt").write_text(SMALL_PUZZLE)
    r = run("build", "--root", str(root), "--jobs", "1")
    assert r.returncode == 0 and "remove other" in r.stdout and not (root / "public" / "other").exists()


def test_generate_into_a_folder_with_a_folder_where_an_output_goes_writes_none(tmp_path):
    (tmp_path / "out" / "small.pdf").mkdir(parents=True)
    (tmp_path / "small.txt").write_text(SMALL_PUZZLE)
    r = run("generate", "--words", str(tmp_path / "small.txt"), "--out-dir", str(tmp_path / "out"))
    assert r.returncode == 2 and "small.pdf: error: cannot write the outputs there: a folder stands where this output goes" in r.stderr, r.stderr
    assert ".tmp" not in r.stderr and [p.name for p in (tmp_path / "out").iterdir()] == ["small.pdf"]


def test_a_link_loop_and_a_stopped_builds_temporary_file_are_told_what_to_do(tmp_path):
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE})
    (root / "puzzles" / "a.txt").symlink_to("b.txt")
    (root / "puzzles" / "b.txt").symlink_to("a.txt")
    r = run("lint", str(root / "puzzles" / "a.txt"))
    assert r.returncode == 2 and "a chain of symbolic links leads back to itself: point the link at the puzzle file" in r.stdout + r.stderr
    for name in ("a.txt", "b.txt"):
        (root / "puzzles" / name).unlink()
    assert run("build", "--root", str(root), "--jobs", "1").returncode == 0
    (root / "public" / "small" / ".small.pdf.abcd1234.tmp").write_bytes(b"%PDF-1.7 cut short")
    r = run("check", "--root", str(root), "--brief")
    assert r.returncode == 1 and "a stopped build's temporary files: `make site` deletes them" in r.stderr, r.stderr
    assert "git rm" not in r.stderr


def test_quiet_names_a_puzzle_that_fails_to_read_as_one_that_fails_to_lay_out(tmp_path):
    """`build -q` printed "fail   slug" for a puzzle whose layout failed, nothing for one that failed to read."""
    root = _project(tmp_path, **{"done.txt": SMALL_PUZZLE, "bad.txt": SMALL_PUZZLE + "BAD LINE\n"})
    r = run("build", "--root", str(root), "-q")
    assert r.returncode != 0 and "fail   bad" in r.stdout.splitlines() and "bad.txt:" in r.stderr, (r.stdout, r.stderr)


def test_lint_takes_the_project_folder_as_build_does(tmp_path):
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE, "bad.txt": SMALL_PUZZLE.replace("title:", "titel:")})
    r = run("lint", "--root", str(root), cwd=tmp_path)
    assert r.returncode == 2 and f"{root / 'puzzles' / 'bad.txt'}:2:1: error: unknown front-matter key 'titel'" in r.stdout
    assert r.stderr.strip().endswith("in 2 files"), r.stderr
    r = run("lint", "--root", str(tmp_path), cwd=tmp_path)
    assert r.returncode == 2 and f"no *.txt puzzle files in {tmp_path / 'puzzles'}; pass the project folder" in r.stderr


def test_outputs_never_go_over_the_sources(tmp_path):
    """`generate --out-dir .` beside the list wrote its text export over the list itself, and `build --out .`
    over puzzles/puzzles.txt: both are refused before anything is written."""
    words = tmp_path / "cats.txt"
    words.write_text("---\ntitle: Cats\ndate: 2026-01-01\n---\nCAT | Feline\nACT | Deed\nTACT | Diplomacy\n")
    before = words.read_bytes()
    for out in (".", "./", str(tmp_path)):
        r = run("generate", "--words", "cats.txt", "--out-dir", out, cwd=tmp_path)
        assert r.returncode == 2 and "the output cats.txt would overwrite the puzzle file itself" in r.stderr, r.stderr
        assert words.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["cats.txt"]
    assert run("generate", "--words", "cats.txt", "--out-dir", "out", cwd=tmp_path).returncode == 0
    assert (tmp_path / "out" / "cats.txt").read_text().startswith("Cats\n") and words.read_bytes() == before
    from site_builder.site import PACKAGE, TEMPLATES

    root = _project(tmp_path, **{"puzzles.txt": SMALL_PUZZLE})
    templates = {p.name: p.read_bytes() for p in TEMPLATES.iterdir()}
    for out, what in ((".", "it is the project folder itself"), ("puzzles", "it is puzzles/, which the build reads"),
                      ("puzzles/site", "it is inside puzzles/"), ("..", "it holds puzzles/"),
                      (str(TEMPLATES), "it is templates/"),  # the tool's own, which every project's build reads
                      (str(PACKAGE / "static"), f"it is inside {PACKAGE.name}/")):
        r = run("build", "--root", str(root), "--out", out, cwd=root)
        assert r.returncode == 2 and what in r.stderr and "build into a folder of its own" in r.stderr, (out, r.stderr)
    assert sorted(p.name for p in root.iterdir()) == ["puzzles", "pyproject.toml"]
    assert sorted(p.name for p in (root / "puzzles").iterdir()) == ["puzzles.txt"]
    assert {p.name: p.read_bytes() for p in TEMPLATES.iterdir()} == templates


def test_bench_json_naming_a_folder_is_refused_before_the_benchmark_runs(tmp_path):
    """It ran the whole benchmark, then printed a traceback (`--json .`) or left `dd.tmp` (`--json dd`)."""
    (tmp_path / "dd").mkdir()
    for target in (".", "dd", "dd/"):
        r = run("bench", "--quick", "--no-external", "--strategies", "freeform", "--json", target, cwd=tmp_path)
        assert r.returncode == 2 and f"{target}: error: --json names a folder" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr and "best x" not in r.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dd"] and not any((tmp_path / "dd").iterdir())


def test_an_empty_argument_is_refused_not_read_as_left_out(tmp_path):
    """`watch --host ''` served every interface, `--out-dir ''` printed to the terminal, `lint x.txt ''` linted
    the whole folder: an unset shell variable read as the option left out."""
    for args in (["watch", "--host", ""], ["generate", "--words", TP, "--out-dir", ""], ["lint", "x.txt", ""],
                 ["build", "--out", " "], ["bench", "--strategies", ""], ["check", "--root", ""]):
        r = run(*args, cwd=tmp_path)
        assert r.returncode == 2 and "an empty value (an unset shell variable?)" in r.stderr, (args, r.stderr)
        assert r.stdout == "" and not any(tmp_path.iterdir())


def test_lint_reads_a_file_named_twice_once(tmp_path):
    f = tmp_path / "x.txt"
    f.write_text("---\ntitle: T\n---\nCAT | Pet\nACT | Deed\n")
    r = run("lint", "x.txt", "./x.txt", str(f), ".", cwd=tmp_path)
    assert r.stdout.count("lacks 'date'") == 1 and "1 error, 0 warnings in 1 file" in r.stderr, r.stdout + r.stderr
    (tmp_path / "y.txt").symlink_to("x.txt")  # a link is a puzzle of its own (its name is its slug), as the build reads it
    r = run("lint", ".", "x.txt", cwd=tmp_path)
    assert r.stdout.count("lacks 'date'") == 2 and "in 2 files" in r.stderr, r.stdout + r.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_help_and_version_that_cannot_be_written_fail(tmp_path):
    """argparse drops a failed write: `--version > /dev/full` exited 0 with nothing written."""
    for args in (["--version"], ["generate", "--help"]):
        with open("/dev/full", "w") as full:
            r = subprocess.run([sys.executable, "-m", "site_builder", *args], stdout=full, stderr=subprocess.PIPE, text=True)
        assert r.returncode == 2 and "cannot write the command's output" in r.stderr, (args, r.stderr)
    r = run("--version")
    assert r.returncode == 0 and r.stdout.startswith("crossword ")


def test_check_says_make_site_removes_a_deleted_puzzles_outputs_and_its_tag_pages(tmp_path):
    """A deleted puzzle's outputs and its tag's page were 'not made by the build', to delete by hand or list
    in own_files (which would keep them published): `make site` removes them itself."""
    other = SMALL_PUZZLE.replace("title: ", "tags: [gardening]\ntitle: ", 1)
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE, "other.txt": other})
    assert run("build", "--root", str(root)).returncode == 0
    (root / "public" / "other" / "my-notes.txt").write_text("the author's own")
    (root / "puzzles" / "other.txt").unlink()
    r = run("check", "--root", str(root))
    assert r.returncode == 1
    assert "drift: public/other/index.html: no longer made" in r.stdout, r.stdout
    assert "drift: public/tags/gardening.html: no longer made" in r.stdout, r.stdout
    assert "drift: public/other/my-notes.txt: not made by the build\n" in r.stdout, r.stdout
    assert "delete the 1 file(s) the build does not make" in r.stderr, r.stderr
    (root / "public" / "other" / "my-notes.txt").unlink()
    r = run("check", "--root", str(root))
    assert "run `make site` (it removes the files no longer made)" in r.stderr and "own_files" not in r.stderr, r.stderr
    # and it does: nothing is left to drift
    assert run("build", "--root", str(root)).returncode == 0
    assert run("check", "--root", str(root)).returncode == 0


def test_bad_input_reported_to_a_reader_gone_away_still_exits_2(tmp_path):
    """`generate ... 2>&1 | head -1`: the error report hit a closed pipe and Python's own traceback about it
    ended the command with status 1, which this CLI uses for a required answer left out."""
    words = tmp_path / "bad.txt"
    words.write_text("---\ntitle: T\ndate: 2026-01-01\n---\n" + "".join(f"A{i} | x\n" for i in range(3000)))
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line
    try:
        status = subprocess.run([sys.executable, "-m", "site_builder", "generate", "--words", str(words)],
                                stdout=subprocess.DEVNULL, stderr=write).returncode
    finally:
        os.close(write)
    assert status == 2
    # started with no stderr at all (`2>&-`), where print writes to standard output
    closed = subprocess.run(["sh", "-c", 'exec "$@" 2>&-', "sh", sys.executable, "-m", "site_builder", "generate",
                             "--words", str(words)], capture_output=True, text=True)
    assert closed.returncode == 2 and "Traceback" not in closed.stdout + closed.stderr, closed


def test_an_archive_with_no_puzzle_yet_lints_builds_and_checks(tmp_path):
    """The samples deleted, none written yet: `make check` failed on lint's "no puzzles/*.txt here", and a clone
    (git keeps no empty folder) had no puzzles/ at all; the repository keeps puzzles/.gitkeep for that."""
    root = _project(tmp_path, **{"small.txt": SMALL_PUZZLE})
    (root / "puzzles" / "small.txt").unlink()
    (root / "puzzles" / ".gitkeep").write_text("")
    r = run("lint", cwd=root)
    assert r.returncode == 0 and "holds no puzzle file yet" in r.stderr, r.stderr
    assert run("build", "--root", str(root)).returncode == 0
    assert run("check", "--root", str(root)).returncode == 0
    # and elsewhere, with no puzzles/ folder, it is still an error: "0 files" would read like a pass
    r = run("lint", cwd=tmp_path)
    assert r.returncode == 2 and "no puzzles/*.txt here; run from the project directory" in r.stderr, r.stderr
    assert (ROOT / "puzzles" / ".gitkeep").is_file()
