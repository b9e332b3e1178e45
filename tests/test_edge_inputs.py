"""Inputs and situations a QA pass found mishandled: each one gets a clear message and the right exit status."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from site_builder.errors import PuzzleError, PuzzleErrors
from site_builder.source import decode_source, load_puzzle, normalise_answer, read_puzzle

from .conftest import ROOT, SAMPLES, SETTINGS

HERBS = SAMPLES / "kitchen-herbs.txt"
LIST = "CAT | Pet\nACE | Top card\nTEA | Drink\n"


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "site_builder", *args], capture_output=True, text=True, cwd=cwd)


# ------------------------------------------------------------------ generate options


@pytest.mark.parametrize(
    "option, value, says",
    [("--seeds", "0", "must be 1 to 100000"), ("--size", "61", "must be 3 to 60"), ("--size", "2", "must be 3 to 60"),
     ("--seed", str(2**32), "must be 0 to 4294967295")],
)
def test_generate_options_have_the_front_matters_ranges(tmp_path, option, value, says):
    f = tmp_path / "words.txt"
    f.write_text(LIST)
    r = run("generate", "--words", str(f), option, value)
    assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr


def test_size_option_is_the_cap_for_the_answers_too(tmp_path):
    f = tmp_path / "words.txt"
    f.write_text("SUPERCALIFRAGILISTICEXPIALI | Long word\nCAT | Pet\nTIC | Twitch\n")
    r = run("generate", "--words", str(f))
    # a plain list has no front matter to put 'size' in: the option is the fix
    assert r.returncode == 2 and "more than the grid cap of 23; shorten it or raise --size to 27 or more" in r.stderr
    r = run("generate", "--words", str(f), "--size", "30")
    assert r.returncode == 0, r.stderr
    assert "3 of 3 answers placed" in r.stderr
    r = run("generate", "--words", str(f), "--size", "15")
    assert r.returncode == 2 and "cap of 15; shorten it or raise --size" in r.stderr


def test_out_dir_that_is_a_file_is_a_clear_error(tmp_path):
    f = tmp_path / "words.txt"
    f.write_text(LIST)
    r = run("generate", "--words", str(f), "--out-dir", str(f))
    assert r.returncode == 2 and "cannot write the outputs there: it is a file" in r.stderr
    assert "Traceback" not in r.stderr and f.read_text() == LIST


def test_build_out_that_is_a_file_is_a_clear_error(tmp_path):
    root = _project(tmp_path)
    (tmp_path / "taken").write_text("x")
    r = run("build", "--root", str(root), "--out", str(tmp_path / "taken"))
    assert r.returncode == 2 and "cannot write the outputs there" in r.stderr and "Traceback" not in r.stderr


def test_a_reader_that_goes_away_is_no_traceback():
    cmd = [sys.executable, "-m", "site_builder", "generate", "--words", str(HERBS), "--format", "json"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()  # like `| head` that has read enough
    err = p.stderr.read().decode()
    assert p.wait() == 141 and "Traceback" not in err and "Exception ignored" not in err


def test_an_unexpected_error_in_generate_is_reported_as_a_bug(tmp_path, monkeypatch, capsys):
    from site_builder import cli

    f = tmp_path / "words.txt"
    f.write_text(LIST)

    def broken(puzzle, params):
        raise RuntimeError("boom")

    monkeypatch.setattr(cli, "layout_puzzle", broken)
    assert cli.main(["generate", "--words", str(f)]) == 3
    err = capsys.readouterr().err
    assert "internal error" in err and "RuntimeError: boom" in err and "please report it" in err


# ------------------------------------------------------------------ source files


@pytest.mark.parametrize("slug", ["static", "tags"])
def test_the_sites_own_folders_are_no_puzzle_names(tmp_path, slug):
    f = tmp_path / f"{slug}.txt"
    shutil.copy(HERBS, f)
    with pytest.raises(PuzzleError, match=f"'{slug}.txt' is taken: public/{slug}/"):
        read_puzzle(f)


@pytest.mark.parametrize("written", ["007", "1.10", "0x1F", "12:30", "1_000", "Yes", "No", "null", "~", "2026-01-02"])
def test_front_matter_text_is_kept_as_written(written):
    puzzle = load_puzzle(f"---\ntitle: {written}\ndate: 2026-01-02\nauthor: {written}\n---\n{LIST}")
    assert puzzle.meta.title == written and puzzle.meta.author == written


def test_an_empty_or_commented_title_says_how_to_fix_it():
    with pytest.raises(PuzzleErrors, match=r"'title' must not be empty \(a value starting with '#' is a comment"):
        load_puzzle(f"---\ntitle: #1 puzzle\ndate: 2026-01-02\n---\n{LIST}")
    with pytest.raises(PuzzleErrors, match=r"2:7: 'title' must not be empty$"):
        load_puzzle(f"---\ntitle:\ndate: 2026-01-02\n---\n{LIST}")
    assert load_puzzle(f"---\ntitle: '#1 puzzle'\ndate: 2026-01-02\nauthor:\n---\n{LIST}").meta.title == "#1 puzzle"


def test_a_nul_byte_anywhere_is_an_error_with_its_line():
    data = b"---\ntitle: T\ndate: 2026-01-02\n---\n# " + b"x" * 9000 + b"\nMINT | he\x00rb\n"
    with pytest.raises(PuzzleError) as info:
        decode_source(data, "late.txt")
    assert (info.value.line, info.value.col) == (6, 10) and "NUL" in info.value.message


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_is_named_and_utf8_asked_for(encoding):
    with pytest.raises(PuzzleError, match="UTF-16 text .*save it as UTF-8"):
        decode_source(f"---\ntitle: Owls\n---\n{LIST}".encode(encoding), "owls.txt")


def test_capital_sharp_s_folds_like_the_small_one():
    assert normalise_answer("STRAẞE").letters == normalise_answer("Straße").letters == "STRASSE"


# ------------------------------------------------------------------ the site build


def _project(tmp_path):
    root = tmp_path / "site"
    (root / "puzzles").mkdir(parents=True)
    shutil.copy(SETTINGS, root / "pyproject.toml")
    shutil.copy(HERBS, root / "puzzles" / "kitchen-herbs.txt")
    return root


def test_a_build_elsewhere_leaves_public_stale_as_it_is(tmp_path):
    root = _project(tmp_path)
    assert run("build", "--root", str(root)).returncode == 0
    src = root / "puzzles" / "kitchen-herbs.txt"
    src.write_text(src.read_text().replace("| ", "| Edited: ", 1))
    r = run("build", "--root", str(root), "--out", str(tmp_path / "other"))
    assert r.returncode == 0, r.stderr
    r = run("build", "--root", str(root))
    assert r.returncode == 0, r.stderr
    assert "build  kitchen-herbs" in r.stdout
    assert "Edited: " in (root / "public" / "kitchen-herbs" / "kitchen-herbs.txt").read_text()


def test_a_first_build_with_a_failure_still_publishes_the_styles(tmp_path):
    root = _project(tmp_path)
    (root / "puzzles" / "broken.txt").write_text("---\ntitle: Broken\n---\nCAT | Pet\n")
    (root / "puzzles" / "folder.txt").mkdir()
    r = run("build", "--root", str(root))
    assert r.returncode == 2
    assert "folder.txt: error: this is a directory" in r.stderr and "broken.txt" in r.stderr
    page = (root / "public" / "kitchen-herbs" / "index.html").read_text()
    for sheet in ("static/player.css", "static/player.js", "static/fonts.css"):
        assert f"../{sheet}" in page and (root / "public" / sheet).is_file()
    assert not (root / "public" / "index.html").exists()  # the index waits for a build without failures


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_named_pipe_is_refused_not_read(tmp_path):
    pipe = tmp_path / "pipe.txt"
    os.mkfifo(pipe)
    r = subprocess.run(
        [sys.executable, "-m", "site_builder", "lint", str(pipe)], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 2 and "not a regular file" in r.stdout + r.stderr


def test_generate_tells_what_adjacency_leaves_for_the_author(tmp_path):
    r = run("generate", "--words", str(SAMPLES / "solar-system.txt"), "--strategy", "adjacency", "--seed", "5",
            "--format", "xd")
    assert r.returncode == 0, r.stderr
    assert "note: 1 two-letter run no answer holds (solvers get no clue for it): SE at row 6, column 13 down" in r.stderr
    assert "fill words need a clue" in r.stderr and "\nPATHS | " in r.stderr


def test_the_sites_default_author_stands_in_for_a_missing_one():
    from site_builder.config import SiteConfig
    from site_builder.layout import layout_puzzle, params_for
    from site_builder.site import puzzle_files

    puzzle = load_puzzle(f"---\ntitle: Anonymous\ndate: 2026-01-02\n---\n{LIST}", slug="anon")
    assert puzzle.meta.author == ""
    files = puzzle_files(puzzle, layout_puzzle(puzzle, params_for(puzzle, seeds=2)), SiteConfig(author="Site Setter"),
                         quick=True)
    assert "Author: Site Setter" in files["anon.xd"]
    assert "By Site Setter" in files["index.html"] or "Site Setter" in files["index.html"]
    named = load_puzzle(f"---\ntitle: Named\ndate: 2026-01-02\nauthor: Ann\n---\n{LIST}", slug="named")
    files = puzzle_files(named, layout_puzzle(named, params_for(named, seeds=2)), SiteConfig(author="Site Setter"),
                         quick=True)
    assert "Author: Ann" in files["named.xd"] and "Site Setter" not in files["named.xd"]


def test_an_undone_edit_after_a_quick_build_is_rebuilt(tmp_path):
    """A quick build (watch) writes the edit's page; undoing the edit must not leave it as 'up to date'."""
    from site_builder.site import build_site

    root = _project(tmp_path)
    assert build_site(root, report=lambda line: None).ok
    src = root / "puzzles" / "kitchen-herbs.txt"
    original = src.read_text()
    src.write_text(original.replace("| ", "| Edited: ", 1))
    quick = build_site(root, quick=True, report=lambda line: None)
    assert quick.built == ["kitchen-herbs"]
    page = root / "public" / "kitchen-herbs" / "kitchen-herbs.txt"
    assert "Edited: " in page.read_text()
    src.write_text(original)  # undone before the full build ran (or the watcher was stopped)
    again = build_site(root, report=lambda line: None)
    assert again.built == ["kitchen-herbs"] and "Edited: " not in page.read_text()


def test_a_bad_settings_file_does_not_stop_the_watcher(tmp_path, capsys):
    from site_builder.watch import Watcher

    root = _project(tmp_path)
    lines: list[str] = []
    watcher = Watcher(root, quiet=0.05, say=lines.append)
    watcher.rebuild([])  # nothing changed yet
    (root / "pyproject.toml").write_text('[tool.crossword]\ntitle = "Unclosed\n')
    watcher.queue.add(str(root / "pyproject.toml"))
    assert watcher.step(1.0) is True  # the quick build meets the bad file: reported, not raised
    watcher.full_owed = True
    assert watcher.step(0.1) is False  # the deferred full build too
    err = capsys.readouterr().err
    assert "pyproject.toml" in err and "Traceback" not in err
    assert lines and all("the watcher carries on" in line for line in lines)


def test_a_template_that_does_not_parse_is_the_templates_error(monkeypatch):
    import jinja2

    from site_builder import site
    from site_builder.config import SiteConfig
    from site_builder.errors import TemplateError

    def broken(*args, **kwargs):
        raise jinja2.TemplateSyntaxError("unexpected '}'", 22, name="puzzle.html", filename="templates/puzzle.html")

    monkeypatch.setattr(site, "puzzle_files", broken)
    _, error, _, _ = site._build_one((HERBS, SiteConfig(), None, "engine", False))
    assert isinstance(error, TemplateError) and error.exit_status == 2
    assert str(error) == "templates/puzzle.html:22: the template does not parse: unexpected '}'; fix the template"


def test_a_page_reloads_for_what_it_shows_not_for_what_it_links_to(tmp_path):
    from site_builder.site import build_site
    from site_builder.watch import embedded

    root = _project(tmp_path)  # a sample's page and index as a full build writes them, whatever puzzles/ holds
    assert build_site(root, report=lambda line: None).ok
    page = (root / "public" / "kitchen-herbs" / "index.html").read_text()
    shown = embedded(page)
    assert {"../static/player.css", "../static/player.js", "../static/fonts.css", "../static/favicon.svg"} <= shown
    assert not any(name.endswith((".pdf", ".png", ".puz")) for name in shown)  # the downloads
    index = embedded((root / "public" / "index.html").read_text())
    assert "kitchen-herbs/kitchen-herbs-thumb.png" in index
    assert "kitchen-herbs/kitchen-herbs-solution.svg" not in index
    assert embedded('<img srcset="a.png 1x, b.png?v=2 2x">') == {"a.png", "b.png"}


def test_the_sites_styles_and_script_are_no_part_of_a_puzzles_outputs():
    """Editing player.css or player.js re-renders no puzzle (every build copies them); pdf.css and templates do."""
    from site_builder.site import PACKAGE, STATIC, TEMPLATES, code_files

    names = {p.relative_to(PACKAGE.parent).as_posix() for p in code_files()}
    assert "site_builder/static/pdf.css" in names and "site_builder/render/pdf.py" in names
    assert {p.relative_to(PACKAGE.parent).as_posix() for p in TEMPLATES.glob("*.html")} <= names
    for name in ("player.css", "player.js", "site.css", "fonts.css", "favicon.svg"):
        assert (STATIC / name).is_file() and f"site_builder/static/{name}" not in names


def test_a_site_setting_edit_reinstalls_nothing(tmp_path):
    """pyproject.toml holds both the install's metadata and the site settings; only the first means a set-up."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    copy = tmp_path / "copy"
    (copy / "tools").mkdir(parents=True)
    for name in ("Makefile", "pyproject.toml", "constraints.txt", "setup.py", "tools/setup-key"):
        shutil.copy2(ROOT / name, copy / name)

    def key() -> str:
        return subprocess.run(["tools/setup-key"], cwd=copy, capture_output=True, text=True, check=True).stdout.strip()

    # stand-ins that record a set-up instead of doing one (should this test ever see one)
    called = tmp_path / "set-up ran"
    stub = f"#!/bin/sh\necho ran >> '{called}'\nexit 1\n"
    (copy / "tools" / "system-deps").write_text(stub)
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text(stub)
    for tool in (copy / "tools" / "system-deps", venv / "bin" / "python"):
        tool.chmod(0o755)
    stamp = venv / ".installed-stamp"
    stamp.write_text(key() + "\n")
    os.utime(stamp, (1, 1))  # older than pyproject.toml: make looks at it
    settings = copy / "pyproject.toml"
    # the project's own title, whatever the author made it
    settings.write_text(re.sub(r'(?m)^title = ".*"$', 'title = "Another Press"', settings.read_text(), count=1))
    assert 'title = "Another Press"' in settings.read_text()
    r = subprocess.run(["make", str(stamp), f"VENV={venv}", "PYTHON=false"], cwd=copy, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert not called.exists() and stamp.stat().st_mtime > 1  # refreshed, nothing installed
    # the table's header as TOML lets it be spelt: the settings under it are still the site's alone
    for header in ('[ tool.crossword ]', '[tool."crossword"]'):
        settings.write_text(settings.read_text().replace("[tool.crossword]", header))
        before = key()
        settings.write_text(re.sub(r'(?m)^title = ".*"$', 'title = "A Third Press"', settings.read_text(), count=1))
        assert key() == before, header
        settings.write_text(settings.read_text().replace(header, "[tool.crossword]"))
    before = key()
    settings.write_text(settings.read_text().replace("[project]\n", "[project]\n# a dependency changed\n"))
    assert key() != before  # the install's own metadata does count
    before = key()
    pins = copy / "constraints.txt"
    pins.write_text(re.sub(r"(?m)^(pillow==).*$", r"\g<1>0.0", pins.read_text()))
    assert key() != before  # and so do the pinned versions


def test_a_stray_nul_early_in_a_text_file_is_located_too():
    data = b"---\ntitle: T\ndate: 2026-01-02\n---\nMINT | he\x00rb\n"
    with pytest.raises(PuzzleError) as info:
        decode_source(data, "early.txt")
    assert (info.value.line, info.value.col) == (5, 10)
    with pytest.raises(PuzzleError, match="not a text file"):
        decode_source(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "picture.txt")


def test_empty_squares_walled_in_by_letters_are_shaded_not_left_as_squares():
    """A ring of answers round an empty square: the square is a hole; a notch open to the edge is not."""
    from site_builder.model import Direction, Layout, Placement
    from site_builder.render.svg import HOLE, render_svg

    puzzle = load_puzzle(f"---\ntitle: Ring\ndate: 2026-01-02\n---\nTOP | a\nTAB | b\nPIG | c\nBAG | d\n", slug="ring")
    e = {x.answer: x for x in puzzle.entries}
    across, down = Direction.ACROSS, Direction.DOWN
    ring = Layout(
        placements=(
            Placement(e["TOP"], 0, 0, across, 1), Placement(e["TAB"], 0, 0, down, 1),
            Placement(e["PIG"], 0, 2, down, 2), Placement(e["BAG"], 2, 0, across, 3),
        ),
        unplaced=(), rows=3, cols=3,
    )
    assert ring.holes == {(1, 1)}
    svg = render_svg(puzzle, ring)
    assert f'class="holes" fill="{HOLE}"' in svg
    notch = Layout(placements=ring.placements[:3], unplaced=(), rows=3, cols=3)  # BAG gone: the middle opens out
    assert notch.holes == frozenset() and 'class="holes"' not in render_svg(puzzle, notch)


def test_every_error_survives_the_trip_from_a_worker_process():
    import pickle

    from site_builder.errors import InternalError, LayoutError, OutputError, TemplateError

    errors = [
        PuzzleError("a.txt", 3, "bad", col=2), PuzzleErrors([PuzzleError("a.txt", 1, "one"), PuzzleError("a.txt", 2, "two")]),
        LayoutError("a.txt", "could not place X", ("X",)), InternalError("a.txt", ValueError("boom"), "Traceback ..."),
        TemplateError("templates/puzzle.html", 22, "unexpected '}'"), OutputError("out", reason="it is a file"),
    ]
    for error in errors:
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and str(back) == str(error) and back.exit_status == error.exit_status
        assert vars(back).keys() == vars(error).keys()
    assert [str(e) for e in pickle.loads(pickle.dumps(errors[1])).errors] == ["a.txt:1: one", "a.txt:2: two"]


def test_a_parallel_build_reports_a_puzzle_that_fails_in_its_worker(tmp_path):
    """A required answer that cannot be placed fails inside a worker: the build ends, exit 1, the rest built."""
    root = _project(tmp_path)
    shutil.copy(SAMPLES / "solar-system.txt", root / "puzzles" / "solar-system.txt")
    (root / "puzzles" / "lonely.txt").write_text("---\ntitle: Lonely\ndate: 2026-01-02\n---\nCAT | Pet\nACE | Card\n*XYZZY | Magic word\n")
    r = subprocess.run([sys.executable, "-m", "site_builder", "build", "--root", str(root), "--jobs", "2"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "lonely.txt" in r.stderr and "XYZZY" in r.stderr and "Traceback" not in r.stderr
    assert (root / "public" / "kitchen-herbs" / "index.html").is_file()
    assert (root / "public" / "solar-system" / "index.html").is_file()



def test_the_puzzle_page_shades_the_same_holes():
    import re

    from site_builder.layout import layout_puzzle, params_for
    from site_builder.render.html import render_puzzle_page

    puzzle = read_puzzle(SAMPLES / "kitchen-herbs.txt")
    layout = layout_puzzle(puzzle, params_for(puzzle, seeds=4))
    page = render_puzzle_page(puzzle, layout, site={"title": "T", "licence": "", "base_url": "https://example.org/"}, root="../", downloads=[])
    squares = re.findall(r'<div class="(cell|void hole|void)"', page)
    assert len(squares) == layout.rows * layout.cols
    assert squares.count("void hole") == len(layout.holes) and squares.count("cell") == len(layout.cells)


def test_an_index_template_that_does_not_parse_is_one_located_error(tmp_path, monkeypatch, capsys):
    """index.html, tag.html and feed.xml are rendered after the puzzles: their syntax errors were a crash
    (exit 3, a traceback); a puzzle template's error was printed once a puzzle, with its absolute path."""
    from site_builder import cli
    from site_builder.render import pages
    from site_builder.site import TEMPLATES

    from .test_site import make_repo, small

    root = make_repo(tmp_path, a=small("Alpha"), b=small("Bravo", "2026-02-01"))
    assert cli.main(["build", "--root", str(root), "--jobs", "1"]) == 0
    index = (root / "public" / "index.html").read_bytes()
    broken = tmp_path / "templates"
    shutil.copytree(TEMPLATES, broken)
    text = (broken / "index.html").read_text(encoding="utf-8").splitlines(keepends=True)
    (broken / "index.html").write_text(text[0] + "{% if %}\n" + "".join(text[1:]), encoding="utf-8")
    monkeypatch.setattr(pages, "TEMPLATES", broken)
    pages.environment.cache_clear()
    try:
        (root / "puzzles" / "a.txt").write_text(small("Alpha Edited"), encoding="utf-8")
        capsys.readouterr()
        assert cli.main(["build", "--root", str(root), "--jobs", "1"]) == 2
        err = capsys.readouterr().err
        assert "templates/index.html:2: error: the template does not parse" in err, err
        assert str(tmp_path) not in err and "Traceback" not in err and "internal error" not in err
        assert (root / "public" / "index.html").read_bytes() == index  # the index as it was
    finally:
        pages.environment.cache_clear()


def test_one_message_for_one_error_that_fails_every_puzzle(capsys):
    from site_builder.cli import _report_failures
    from site_builder.errors import TemplateError

    error = TemplateError("templates/puzzle.html", 22, "unexpected '}'")
    _report_failures([("a", error), ("b", TemplateError("templates/puzzle.html", 22, "unexpected '}'")), ("c", error)])
    assert capsys.readouterr().err.count("templates/puzzle.html:22:") == 1


def test_editor_files_beside_the_static_files_and_templates_are_not_published_nor_code(tmp_path, monkeypatch):
    from site_builder import site

    static, templates = tmp_path / "static", tmp_path / "templates"
    static.mkdir()
    templates.mkdir()
    for name in ("player.js", ".player.js.swp", "player.js~", "#player.js#", "4913"):
        (static / name).write_text("x")
    for name in ("puzzle.html", ".puzzle.html.swp", "puzzle.html~"):
        (templates / name).write_text("x")
    monkeypatch.setattr(site, "STATIC", static)
    monkeypatch.setattr(site, "TEMPLATES", templates)
    assert [n for n in site.static_files() if not n.startswith("static/fonts/")] == ["static/player.js"]
    assert [p.name for p in site.code_files() if p.parent in (static, templates)] == ["puzzle.html"]


@pytest.mark.parametrize("name", ["index.html", "puzzle.html"])
def test_a_template_that_fails_as_it_renders_is_one_located_error(tmp_path, monkeypatch, capsys, name):
    """`{{ nosuch.attr }}` parses, then fails on every render: it was an internal error with a traceback
    for each puzzle ("this is a bug in the crossword press"), exit status 3, or for the index a crash."""
    from site_builder import cli
    from site_builder.render import html, pages
    from site_builder.site import TEMPLATES

    from .test_site import make_repo, small

    root = make_repo(tmp_path, a=small("Alpha"), b=small("Bravo", "2026-02-01"))
    assert cli.main(["build", "--root", str(root), "--jobs", "1"]) == 0
    kept = root / "public" / ("index.html" if name == "index.html" else "a/index.html")
    page = kept.read_bytes()
    broken = tmp_path / "templates"
    shutil.copytree(TEMPLATES, broken)
    text = (broken / name).read_text(encoding="utf-8").splitlines(keepends=True)
    # on line 2: inside index.html's title block (outside its blocks, a child template's text is not shown)
    line = text[1].replace("{% block title %}", "{% block title %}{{ nosuch.attr }}", 1) if name == "index.html" \
        else "{{ nosuch.attr }}\n" + text[1]
    (broken / name).write_text(text[0] + line + "".join(text[2:]), encoding="utf-8")
    monkeypatch.setattr(pages, "TEMPLATES", broken)
    monkeypatch.setattr(html, "TEMPLATES", broken)
    pages.environment.cache_clear()
    html._environment.cache_clear()
    try:
        (root / "puzzles" / "a.txt").write_text(small("Alpha Edited"), encoding="utf-8")
        capsys.readouterr()
        assert cli.main(["build", "--root", str(root), "--jobs", "1"]) == 2
        err = capsys.readouterr().err
        assert f"templates/{name}:2: error: the template fails as it renders: 'nosuch' is undefined; fix the template" in err, err
        assert "Traceback" not in err and "internal error" not in err and "bug" not in err, err
        assert kept.read_bytes() == page  # the page as it was
    finally:
        pages.environment.cache_clear()
        html._environment.cache_clear()
