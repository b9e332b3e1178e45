from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from site_builder.config import load_config
from site_builder.errors import PuzzleErrors
from site_builder.site import build_site, check_site, compare_trees

from .conftest import ROOT, SAMPLES, SETTINGS

SMALL = """---
title: {title}
date: {date}
author: Ann
tags: [{tag}]
{extra}---
CAT | Pet that purrs
ACE | Top card
TEA | Afternoon drink
EAT | Have dinner
"""


def make_repo(tmp_path: Path, **puzzles: str) -> Path:
    root = tmp_path / "repo"
    (root / "puzzles").mkdir(parents=True)
    shutil.copy(SETTINGS, root / "pyproject.toml")
    for slug, text in puzzles.items():
        (root / "puzzles" / f"{slug}.txt").write_text(text)
    return root


def small(title="Small", date="2026-01-01", tag="pets", extra="") -> str:
    return SMALL.format(title=title, date=date, tag=tag, extra=extra)


def quiet(_line: str) -> None:
    pass


def test_build_writes_puzzles_index_tags_feed(tmp_path):
    root = make_repo(tmp_path, old=small("Old one", "2026-01-01"), new=small("New one", "2026-02-01", "cards"),
                     hidden=small("Hidden", extra="draft: true\n"))
    result = build_site(root, report=quiet)
    assert result.ok and sorted(result.built) == ["new", "old"]
    pub = root / "public"
    assert (pub / "old" / "index.html").exists() and (pub / "old" / "old.json").exists()
    assert not (pub / "hidden").exists()
    index = (pub / "index.html").read_text()
    assert index.index("New one") < index.index("Old one"), "newest first"
    assert "Hidden" not in index
    assert (pub / "tags" / "pets.html").exists() and (pub / "tags" / "cards.html").exists()
    feed = ET.parse(pub / "feed.xml").getroot()
    ns = {"a": "http://www.w3.org/2005/Atom"}
    assert [e.find("a:title", ns).text for e in feed.findall("a:entry", ns)] == ["New one", "Old one"]
    assert (pub / "static" / "site.css").exists()
    assert "https://" not in index.replace("https://crossword-press", ""), "pages link relatively (offline, file://)"


def test_incremental_and_clue_edit_reuses_layout(tmp_path):
    root = make_repo(tmp_path, a=small("A"), b=small("B"))
    build_site(root, report=quiet)
    again = build_site(root, report=quiet)
    assert again.built == [] and sorted(again.unchanged) == ["a", "b"]
    src = root / "puzzles" / "a.txt"
    src.write_text(src.read_text().replace("Pet that purrs", "Feline friend"))
    lines: list[str] = []
    third = build_site(root, report=lines.append)
    assert third.built == ["a"] and third.unchanged == ["b"]
    assert any("layout cached" in line for line in lines)
    assert "Feline friend" in (root / "public" / "a" / "a.md").read_text()


def test_failed_puzzle_keeps_previous_outputs(tmp_path):
    root = make_repo(tmp_path, a=small("A"), b=small("B"))
    build_site(root, report=quiet)
    before = {p: p.read_bytes() for p in (root / "public").rglob("*") if p.is_file()}
    (root / "puzzles" / "a.txt").write_text(small("A").replace("CAT | Pet", "C4T | Pet"))
    b = root / "puzzles" / "b.txt"
    b.write_text(b.read_text().replace("Top card", "Highest card"))
    result = build_site(root, report=quiet)
    assert not result.ok
    (slug, exc), = result.failed
    assert slug == "a" and "a.txt:7:" in str(exc)
    after = {p: p.read_bytes() for p in (root / "public").rglob("*") if p.is_file()}
    for path in before:
        if "/b/" not in str(path):
            assert after[path] == before[path], f"{path} changed after a failed build"
    assert "Highest card" in (root / "public" / "b" / "b.md").read_text(), "the other puzzle still builds"


def test_deleted_puzzle_and_draft_leave_the_site(tmp_path):
    root = make_repo(tmp_path, a=small("A"), b=small("B"))
    build_site(root, report=quiet)
    (root / "puzzles" / "a.txt").unlink()
    (root / "puzzles" / "b.txt").write_text(small("B", extra="draft: true\n"))
    result = build_site(root, report=quiet)
    assert sorted(result.removed) == ["a", "b"]
    assert not (root / "public" / "a").exists() and not (root / "public" / "tags" / "pets.html").exists()


def test_markup_in_clues_and_titles_is_text(tmp_path):
    evil = small('</title><script>alert(1)</script> & "co"').replace("Pet that purrs", "<b>bold</b> & <i>x</i>")
    root = make_repo(tmp_path, evil=evil)
    build_site(root, report=quiet)
    index = (root / "public" / "index.html").read_text()
    assert "<script>alert(1)</script>" not in index
    assert "&lt;/title&gt;&lt;script&gt;" in index
    ET.parse(root / "public" / "feed.xml")


def test_check_finds_drift_and_names_source(tmp_path):
    root = make_repo(tmp_path, a=small("A"))
    build_site(root, report=quiet)
    result, drifts = check_site(root, report=quiet)
    assert result.ok and drifts == []
    src = root / "puzzles" / "a.txt"
    src.write_text(src.read_text().replace("Top card", "Best card"))
    (root / "public" / "leftover").mkdir()
    (root / "public" / "leftover" / "leftover.json").write_text("{}")
    _, drifts = check_site(root, report=quiet)
    kinds = {(d.path, d.kind) for d in drifts}
    assert ("a/a.md", "differs") in kinds and ("leftover/leftover.json", "stale") in kinds
    md = next(d for d in drifts if d.path == "a/a.md")
    assert md.source == "puzzles/a.txt" and "+- **3.** Best card" in md.diff


def test_check_command_exit_status(tmp_path):
    root = make_repo(tmp_path, a=small("A"))
    build_site(root, report=quiet)
    cmd = [sys.executable, "-m", "site_builder", "check", "--root", str(root)]
    ok = subprocess.run(cmd, capture_output=True, text=True)
    assert ok.returncode == 0 and "no drift" in ok.stdout
    src = root / "puzzles" / "a.txt"
    src.write_text(src.read_text().replace("Top card", "Best card"))
    bad = subprocess.run(cmd, capture_output=True, text=True)
    assert bad.returncode == 1
    assert "public/a/a.md: differs (from puzzles/a.txt)" in bad.stdout
    assert "+- **3.** Best card (3)" in bad.stdout


@pytest.mark.parametrize("table", ["[tool.crossword.colours]", "[[tool.crossword.colours]]", '[ tool.crossword."colours" ]'])
def test_an_unknown_setting_written_as_a_table_is_named_on_its_header_line(tmp_path, table):
    f = tmp_path / "pyproject.toml"
    f.write_text(f'[project]\nname = "x"\n\n[tool.crossword]\ntitle = "T"\n\n{table}\nx = 1\n')
    with pytest.raises(PuzzleErrors) as info:
        load_config(f)
    assert [str(e) for e in info.value.errors] == [f"{f}:7: unknown [tool.crossword] key 'colours' (known keys: title, "
                                                  "base_url, author, licence, description, own_files)"]


def test_committed_public_matches_the_code():
    """The drift gate: `make check` inside `make test`. Rebuild and commit public/ if this fails."""
    result, drifts = check_site(ROOT, jobs=2, report=quiet)
    assert result.ok, [str(e) for _, e in result.failed]
    assert not drifts, "public/ drifted; run `make site` and commit:\n" + "\n".join(
        f"{d.path}: {d.kind} (from {d.source})" for d in drifts
    )


def test_site_config_validation(tmp_path):
    f = tmp_path / "pyproject.toml"
    f.write_text('[project]\nname = "x"\n\n[tool.crossword]\ntitle = "T"\ntitel = "oops"\nbase_url = "ftp://x"\n')
    with pytest.raises(PuzzleErrors) as info:
        load_config(f)
    messages = [str(e) for e in info.value.errors]
    assert any(":6: unknown [tool.crossword] key 'titel' (did you mean 'title'?)" in m for m in messages)
    assert any(":7: 'base_url' must start with http" in m for m in messages)
    assert load_config(tmp_path / "missing.toml").title


@pytest.mark.parametrize("url, what", [
    ("https://evil.org/\\\"><script>x</script>/", "the character '\"'"),
    ("https://example.org/?a=1/", "a query ('?')"),
    ("https://example.org/#frag/", "a fragment ('#')"),
    ("https://example.org/?a=1", "a query ('?')"),  # said so, not that it must end with '/'
    ("https://example.org/#frag", "a fragment ('#')"),
    ("https://exa mple.org/", "the character ' '"),
    ("https:///", "no valid host name and port"),
    ("http://[abc/", "no valid host name and port"),
    ("https://example.org:99999/", "no valid host name and port"),
])
def test_the_sites_address_is_an_address_alone(tmp_path, url, what):
    """A base_url with a fragment or a query was taken: every page's address is it plus a path, and the feed,
    sitemap and link previews pointed past '#frag/'."""
    f = tmp_path / "pyproject.toml"
    f.write_text(f'[tool.crossword]\nbase_url = "{url}"\n')
    with pytest.raises(PuzzleErrors) as info:
        load_config(f)
    assert [str(e) for e in info.value.errors] == [f"{f}:2: 'base_url' has {what}; write the site's address alone, "
                                                   "like https://puzzles.example.org/ or https://example.org/puzzles/"]
    f.write_text('[tool.crossword]\nbase_url = "https://example.org/puzzles/"\n')
    assert load_config(f).base_url == "https://example.org/puzzles/"


def test_an_address_in_other_letters_is_written_in_ascii(tmp_path):
    """The sitemap protocol and the feed want RFC 3986 addresses: kreuzworträtsel/ went out as typed."""
    f = tmp_path / "pyproject.toml"
    f.write_text('[tool.crossword]\nbase_url = "https://bücher.de:8080/kreuzworträtsel/"\n', encoding="utf-8")
    assert load_config(f).base_url == "https://xn--bcher-kva.de:8080/kreuzwortr%C3%A4tsel/"
    f.write_text('[tool.crossword]\nbase_url = "https://example.org/r%C3%A4tsel/"\n', encoding="utf-8")
    assert load_config(f).base_url == "https://example.org/r%C3%A4tsel/"  # written encoded already: kept
    f.write_text(f'[tool.crossword]\nbase_url = "https://{"ü" * 70}.de/"\n', encoding="utf-8")
    with pytest.raises(PuzzleErrors, match=r":2: 'base_url' has a host name, .* whose form in ASCII letters \(IDNA\) cannot be worked out here; write its xn-- form"):
        load_config(f)


def test_compare_trees_ignores_identical(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        (d / "x").mkdir(parents=True)
        (d / "x" / "f.bin").write_bytes(b"\x00\x01")
    assert compare_trees(a, b, tmp_path) == []
    (b / "x" / "f.bin").write_bytes(b"\x00\x02")
    (d,) = compare_trees(a, b, tmp_path)
    assert d.kind == "differs" and d.diff == ""


def test_unclued_fill_words_are_listed_and_fail_check(tmp_path):
    adj = small("Adj").replace("---\nCAT", "strategy: adjacency\nseeds: 8\n---\nCAT") + "STONE | Rock\nTONES | Sounds\n"
    root = make_repo(tmp_path, adj=adj)
    lines: list[str] = []
    result = build_site(root, report=lines.append)
    assert result.ok and "adj" in result.needs_clues
    hint = result.needs_clues["adj"]
    assert "need" in hint and "a clue" in hint and any(hint in line for line in lines)
    cmd = [sys.executable, "-m", "site_builder", "check", "--root", str(root)]
    bad = subprocess.run(cmd, capture_output=True, text=True)
    assert bad.returncode == 1 and "fill word" in bad.stderr
    # the author clues the fill words by appending them: the grid stays and check passes
    words = [line.split("|")[0].strip() for line in hint.splitlines() if line.rstrip().endswith("|")]
    src = root / "puzzles" / "adj.txt"
    src.write_text(src.read_text() + "\n# fill words\n" + "".join(f"{w} | A clue for {w.lower()}\n" for w in words))
    again = build_site(root, report=quiet)
    assert again.ok and not again.needs_clues
    good = subprocess.run(cmd, capture_output=True, text=True)
    assert good.returncode == 0, good.stdout + good.stderr


def test_a_bug_in_one_puzzle_fails_that_puzzle_only(tmp_path, monkeypatch):
    from site_builder import site as site_mod
    from site_builder.errors import InternalError

    root = make_repo(tmp_path, a=small("A"), b=small("B"))
    real = site_mod.render_page

    def broken(puzzle, layout, *args):
        if puzzle.slug == "a":
            raise ValueError("renderer bug")
        return real(puzzle, layout, *args)

    monkeypatch.setattr(site_mod, "render_page", broken)
    result = build_site(root, report=quiet)
    (slug, exc), = result.failed
    assert slug == "a" and isinstance(exc, InternalError) and exc.exit_status == 3
    assert "a.txt: internal error while building it (ValueError: renderer bug)" in str(exc)
    assert "Traceback" in exc.detail
    assert result.built == ["b"] and not (root / "public" / "a").exists()


def test_a_folder_where_an_output_goes_fails_that_puzzle_only(tmp_path):
    root = make_repo(tmp_path, a=small("A"), b=small("B"))
    build_site(root, report=quiet)
    index = (root / "public" / "index.html").read_bytes()
    svg = root / "public" / "a" / "a.svg"
    svg.unlink()
    svg.mkdir()  # in the way of the SVG: renaming the new one onto it fails
    for name in ("a", "b"):
        src = root / "puzzles" / f"{name}.txt"
        src.write_text(src.read_text().replace("Pet that purrs", "Feline friend"))
    result = build_site(root, report=quiet)
    (slug, exc), = result.failed
    assert slug == "a" and exc.exit_status == 2
    assert str(exc).startswith(f"{svg}: ") and "a folder stands where a file must go" in str(exc), str(exc)
    assert result.built == ["b"] and "Feline friend" in (root / "public" / "b" / "b.md").read_text()
    assert "Pet that purrs" in (root / "public" / "a" / "a.md").read_text()  # all of a's outputs old, none new
    assert (root / "public" / "index.html").read_bytes() == index  # kept while a puzzle fails
    svg.rmdir()
    again = build_site(root, report=quiet)  # its record was dropped: the next build tries it again
    assert again.ok and again.built == ["a"] and svg.is_file()


def test_a_tag_page_that_cannot_be_written_leaves_the_index_as_it_was(tmp_path):
    root = make_repo(tmp_path, a=small("A"))
    build_site(root, report=quiet)
    pub = root / "public"
    before = {name: (pub / name).read_bytes() for name in ("index.html", "feed.xml")}
    (pub / "tags" / "newtag.html").mkdir()  # in the way of the new tag's page
    src = root / "puzzles" / "a.txt"
    src.write_text(src.read_text().replace("tags: [pets]", "tags: [pets, newtag]"))
    with pytest.raises(Exception, match="newtag.html"):
        build_site(root, report=quiet)
    assert {name: (pub / name).read_bytes() for name in before} == before  # no link to the page never written


def test_a_folder_that_cannot_be_removed_is_named_in_full(tmp_path, monkeypatch):
    from site_builder.errors import FileSystemError

    root = make_repo(tmp_path, a=small("A"), b=small("B"))
    build_site(root, report=quiet)
    (root / "puzzles" / "b.txt").unlink()
    real_unlink, real_rmdir = Path.unlink, Path.rmdir

    def refuse(self, *args, **kwargs):
        if self.parent.name == "b" and self.name == "b.json":
            raise PermissionError(13, "Operation not permitted", str(self))
        return real_unlink(self, *args, **kwargs)

    monkeypatch.setattr(Path, "unlink", refuse)
    with pytest.raises(FileSystemError) as info:
        build_site(root, report=quiet)
    assert str(info.value).startswith(f"{root / 'public' / 'b' / 'b.json'}: cannot write or read this"), str(info.value)
    monkeypatch.setattr(Path, "unlink", real_unlink)

    def refuse_folder(self, *args, **kwargs):
        raise PermissionError(13, "Operation not permitted", str(self))  # the folder itself, as it was given

    monkeypatch.setattr(Path, "rmdir", refuse_folder)
    monkeypatch.chdir(root)  # a relative public/, as `make site` builds
    with pytest.raises(FileSystemError) as info:
        build_site(Path("."), report=quiet)
    assert str(info.value).startswith("public/b: cannot write or read this"), str(info.value)
    monkeypatch.setattr(Path, "rmdir", real_rmdir)


def test_build_outside_a_project_says_so(tmp_path):
    r = subprocess.run([sys.executable, "-m", "site_builder", "build", "--root", str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 2 and "no puzzles/ folder here" in r.stderr and "Traceback" not in r.stderr


def test_make_check_fails_on_an_edited_clue_and_names_the_file(tmp_path):
    """`make check`, as CI runs it, in a project whose clue was edited without a rebuild. The project is a
    sample built here by `make site` (not a copy of the committed puzzles/ and public/, which an author
    replaces with their own archive)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    copy = tmp_path / "copy"
    (copy / "puzzles").mkdir(parents=True)
    shutil.copy(ROOT / "Makefile", copy / "Makefile")
    shutil.copy(SETTINGS, copy / "pyproject.toml")
    shutil.copy(SAMPLES / "kitchen-herbs.txt", copy / "puzzles" / "kitchen-herbs.txt")
    stamp = copy / ".stamp"
    stamp.touch()  # the project is installed already: the venv running this test
    venv = Path(sys.executable).parent.parent
    site = subprocess.run(["make", "-s", "site", f"VENV={venv}", f"STAMP={stamp}"], cwd=copy, capture_output=True,
                          text=True)
    assert site.returncode == 0 and (copy / "public" / "kitchen-herbs" / "kitchen-herbs.md").is_file(), (
        site.stdout + site.stderr)
    make = ["make", "-s", "check", f"VENV={venv}", f"STAMP={stamp}"]
    ok = subprocess.run(make, cwd=copy, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    src = copy / "puzzles" / "kitchen-herbs.txt"
    src.write_text(src.read_text().replace("Pesto's green leaf", "Pesto's main leaf"))
    bad = subprocess.run(make, cwd=copy, capture_output=True, text=True)
    assert bad.returncode != 0
    assert "public/kitchen-herbs/kitchen-herbs.md: differs (from puzzles/kitchen-herbs.txt)" in bad.stdout
    assert "+- **" in bad.stdout and "main leaf" in bad.stdout


def test_a_draft_with_errors_holds_no_page_back(tmp_path):
    """The index, tags and feed follow the other puzzles while a draft is half written (it fails all the same)."""
    root = make_repo(tmp_path, a=small("Alpha"), wip=small("Work in progress", extra="draft: true\n"))
    assert build_site(root, report=lambda line: None).ok
    (root / "puzzles" / "wip.txt").write_text(small("Work in progress", extra="draft: true\n") + "DOG\n")
    (root / "puzzles" / "a.txt").write_text(small("Alpha Renamed"))
    result = build_site(root, report=lambda line: None)
    assert [slug for slug, _ in result.failed] == ["wip"] and result.failed_drafts == {"wip"}
    assert "Alpha Renamed" in (root / "public" / "index.html").read_text()
    assert "Work in progress" not in (root / "public" / "index.html").read_text()


def test_repeated_builds_read_only_changed_sources_and_render_the_index_only_when_it_shows_a_change(tmp_path, monkeypatch):
    """Watch mode builds on every save: on an archive of 200 puzzles, parsing every source and rendering
    the index, tag pages and feed took 0.9 s of each build, for a one-clue edit."""
    from site_builder import site
    from site_builder.render import pages

    root = make_repo(tmp_path, a=small("Alpha"), b=small("Bravo", "2026-02-01"))
    parsed, rendered = [], []
    real_parse, real_render = site.load_puzzle, pages._render_pages
    monkeypatch.setattr(site, "load_puzzle", lambda text, **kw: parsed.append(kw["slug"]) or real_parse(text, **kw))
    monkeypatch.setattr(pages, "_render_pages", lambda *a: rendered.append(1) or real_render(*a))
    assert build_site(root, report=quiet).ok
    assert sorted(parsed) == ["a", "b"] and len(rendered) == 1
    parsed.clear()
    rendered.clear()
    src = root / "puzzles" / "a.txt"
    src.write_text(src.read_text().replace("Pet that purrs", "Feline friend"))  # a clue: the index shows none
    result = build_site(root, report=quiet)
    assert result.built == ["a"] and parsed == ["a"] and rendered == []
    assert "Feline friend" in (root / "public" / "a" / "index.html").read_text()
    src.write_text(src.read_text().replace("title: Alpha", "title: Alpha Renamed"))  # the index shows titles
    build_site(root, report=quiet)
    assert rendered == [1] and "Alpha Renamed" in (root / "public" / "index.html").read_text()


def test_a_big_archive_is_grouped_by_year_with_counts_and_a_capped_feed(tmp_path):
    from site_builder.render.pages import FEED_ENTRIES

    puzzles = {f"p{i:02d}": small(f"Puzzle {i:02d}", f"{2020 + i % 3}-0{1 + i % 9}-1{i % 10}", "odd" if i % 2 else "even")
               for i in range(FEED_ENTRIES + 4)}
    puzzles["zz"] = small("Zed", "2022-05-05", "even")
    puzzles["aa"] = small("Aye", "2022-05-05", "even")
    puzzles["daily-10"] = small("Tenth", "2022-05-05", "even")
    puzzles["daily-9"] = small("Ninth", "2022-05-05", "even")
    root = make_repo(tmp_path, **puzzles)
    assert build_site(root, report=quiet, quick=True).ok
    index = (root / "public" / "index.html").read_text()
    # newest year first, each a section with its count; a bar to jump to each
    assert [m for m in __import__("re").findall(r'<h2 id="y(\d{4})"', index)] == ["2022", "2021", "2020"]
    assert 'href="#y2020"' in index and f"{len(puzzles)} puzzles, 2020 to 2022" in index
    assert '<h3 class="card-title">' in index and "<h2 class=\"card-title\">" not in index
    # tag counts, on the index and the tag pages
    evens = sum(1 for t in puzzles.values() if "[even]" in t)
    assert f'even <span class="n" aria-hidden="true">{evens}</span><span class="visually-hidden"> ({evens} puzzles)</span>' in index
    # one date, four puzzles: in name order, numbers read as numbers
    assert index.index(">Aye<") < index.index(">Ninth<") < index.index(">Tenth<") < index.index(">Zed<")
    # the feed holds the newest FEED_ENTRIES
    feed = ET.parse(root / "public" / "feed.xml").getroot()
    entries = feed.findall("{http://www.w3.org/2005/Atom}entry")
    assert len(entries) == FEED_ENTRIES
    assert entries[0].findtext("{http://www.w3.org/2005/Atom}updated").startswith("2022-")
    # a puzzle page links its tags
    page = (root / "public" / "p01" / "index.html").read_text()
    assert 'href="../tags/odd.html">#odd</a>' in page


def test_one_year_needs_no_year_headings(tmp_path):
    root = make_repo(tmp_path, a=small("Alpha"), b=small("Bravo", "2026-02-01"))
    assert build_site(root, report=quiet, quick=True).ok
    index = (root / "public" / "index.html").read_text()
    assert 'class="years"' not in index and 'class="year-heading"' not in index
    assert '<h2 class="card-title">' in index and "2 puzzles</p>" in index


def test_a_puzzle_file_that_is_a_pipe_is_refused_not_read_forever(tmp_path):
    import os

    root = make_repo(tmp_path, a=small("Alpha"))
    os.mkfifo(root / "puzzles" / "pipe.txt")
    # in a process of its own: reading a pipe with no writer waits forever, and must not hang the suite
    r = subprocess.run([sys.executable, "-m", "site_builder", "build", "--root", str(root), "--jobs", "1"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "pipe.txt" in r.stderr and "not a regular file" in r.stderr, r.stderr


def test_a_build_writes_again_an_output_edited_restored_or_deleted_since(tmp_path):
    """`make site` after `git checkout public/`, a hand edit or a deleted file: the outputs the build left
    are part of what it checks, so it writes that puzzle again (it used to say 'up to date')."""
    root = make_repo(tmp_path, a=small("Alpha"), b=small("Beta"))
    quiet = {"report": lambda line: None}
    assert build_site(root, **quiet).ok
    xd = root / "public" / "a" / "a.xd"
    good = xd.read_bytes()
    again = build_site(root, **quiet)
    assert again.built == [] and sorted(again.unchanged) == ["a", "b"]
    xd.write_bytes(good + b"hand edit\n")
    result = build_site(root, **quiet)
    assert result.built == ["a"] and xd.read_bytes() == good  # and b, untouched, is not built again
    xd.unlink()
    assert build_site(root, **quiet).built == ["a"] and xd.read_bytes() == good
    os.utime(xd, ns=(1, 1))  # the same bytes with another date, as a checkout leaves them
    assert build_site(root, **quiet).built == ["a"] and build_site(root, **quiet).built == []


def test_the_drift_report_cuts_long_diffs_and_lines():
    """A page's embedded data is one line of thousands of characters: `check` printed it whole, twice."""
    from site_builder.site import DIFF_LINES, DIFF_WIDTH, _short_diff

    lines = ["--- a\n", "+++ b\n", "-" + "x" * 2500 + "\n", "+" + "y" * 2500 + "\n"] + [f" {i}\n" for i in range(100)]
    out = _short_diff(lines).splitlines()
    assert len(out) == DIFF_LINES + 1 and out[-1].startswith("... 64 more lines")
    assert out[2] == "-" + "x" * (DIFF_WIDTH - 1) + "... (2301 more characters)"
    assert _short_diff(lines[:4][:2] + [" short\n"]) == "--- a\n+++ b\n short\n"  # a short diff is as it was
    # a one-word change deep in a long line: the window shows where the two lines part
    data = "z" * 1500 + "Pet that purrs" + "z" * 1000
    out = _short_diff(["--- a\n", "+++ b\n", f"-{data}\n", "+" + data.replace("Pet that purrs", "Feline friend") + "\n"])
    removed, added = out.splitlines()[2:]
    assert removed.startswith("-(1450 characters) ...") and "Pet that purrs" in removed and len(removed) < DIFF_WIDTH + 60
    assert added.startswith("+(1450 characters) ...") and "Feline friend" in added


def test_a_setting_only_the_index_shows_rebuilds_the_index_alone(tmp_path):
    """The site's description is the index's and the feed's, and base_url theirs and the pages' link
    previews': editing them re-rendered every puzzle's PDF and PNG. A new base_url writes the pages alone,
    and so does the site's title (each page's masthead: it had rebuilt every puzzle, 49 s for 114)."""
    root = make_repo(tmp_path, a=small("Alpha"), b=small("Bravo", "2026-02-01"))
    assert build_site(root, report=quiet).ok
    pdf = root / "public" / "a" / "a.pdf"
    pdf_stamp = pdf.stat().st_mtime_ns
    toml = root / "pyproject.toml"
    text = toml.read_text()
    toml.write_text(text.replace('description = "Themed', 'description = "Freshly themed')
                    .replace("crossword-press.net", "crosswords.jo-baker.net"))
    result = build_site(root, report=quiet)
    assert result.ok and result.built == [] and sorted(result.unchanged) == ["a", "b"]
    assert "Freshly themed" in (root / "public" / "index.html").read_text()
    assert "crosswords.jo-baker.net" in (root / "public" / "feed.xml").read_text()
    page = (root / "public" / "a" / "index.html").read_text()
    assert '<meta property="og:url" content="https://crosswords.jo-baker.net/a/">' in page
    assert '<meta property="og:image" content="https://crosswords.jo-baker.net/a/a.png">' in page
    assert pdf.stat().st_mtime_ns == pdf_stamp
    again = build_site(root, report=quiet)  # the record knows the page's address now: nothing to write
    assert again.built == [] and not any(p.name == "index.html" and p.parent.name in ("a", "b") for p in again.written)
    toml.write_text(toml.read_text().replace('title = "The Crossword Press"', 'title = "The Puzzle Press"'))
    result = build_site(root, report=quiet)
    assert result.built == [] and sorted(result.unchanged) == ["a", "b"]
    assert "The Puzzle Press" in (root / "public" / "a" / "index.html").read_text()
    assert "The Puzzle Press" in (root / "public" / "b" / "index.html").read_text()
    assert pdf.stat().st_mtime_ns == pdf_stamp
    assert build_site(root, report=quiet).written == []  # and then nothing to write


def test_the_index_templates_are_no_part_of_a_puzzles_fingerprint(tmp_path, monkeypatch):
    from site_builder import site

    templates = tmp_path / "templates"
    templates.mkdir()
    for name in ("base.html", "index.html", "feed.xml", "puzzle.html", "pdf.html.j2"):
        (templates / name).write_text(name)
    monkeypatch.setattr(site, "TEMPLATES", templates)
    monkeypatch.setattr(site, "REPO", tmp_path)  # the hashed names are relative to it
    monkeypatch.setattr(site, "PACKAGE", tmp_path / "package")
    before = site.puzzle_code_fingerprint(), site.code_fingerprint()
    for name in ("base.html", "index.html", "feed.xml"):
        (templates / name).write_text(name + " edited")
    assert site.puzzle_code_fingerprint() == before[0] and site.code_fingerprint() != before[1]
    (templates / "puzzle.html").write_text("edited")
    assert site.puzzle_code_fingerprint() != before[0]
    # a puzzle template that comes to extend base.html makes base.html a puzzle's again
    (templates / "puzzle.html").write_text('{% extends "base.html" %}{% block main %}{% endblock %}')
    with_base = site.puzzle_code_fingerprint()
    (templates / "base.html").write_text("base.html edited again")
    assert site.puzzle_code_fingerprint() != with_base
    assert site.puzzle_templates() == {"puzzle.html", "pdf.html.j2", "base.html"}
    # and one that names a template by an expression (unknowable) counts them all
    (templates / "pdf.html.j2").write_text("{% include which %}")
    assert site.puzzle_templates() == {"base.html", "index.html", "feed.xml", "puzzle.html", "pdf.html.j2"}


def test_a_stopped_build_writes_whole_puzzles_only_and_the_next_one_finishes(tmp_path):
    """Watch stops a full build when a save comes in: between two renders of a puzzle, that puzzle is not
    written (its record neither), the index is left alone, and the next build does what is left."""
    root = make_repo(tmp_path, a=small("Alpha"), b=small("Bravo", "2026-02-01"))
    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 3  # a's page, then two of its slow renders, then stop

    result = build_site(root, report=quiet, stop=stop)
    assert result.stopped and result.built == [] and not (root / "public" / "index.html").exists()
    assert not (root / "public" / "a").exists() and not (root / ".cache" / "state" / "a.key").exists()
    assert len(asked) == 4
    result = build_site(root, report=quiet)
    assert result.ok and not result.stopped and sorted(result.built) == ["a", "b"]
    assert (root / "public" / "a" / "a.pdf").exists() and (root / "public" / "index.html").exists()
    # asked once more per puzzle, and never stopping: a build like any other
    result = build_site(root, report=quiet, stop=lambda: False, force=True)
    assert result.ok and sorted(result.built) == ["a", "b"]


def test_pages_describe_the_site_and_link_its_feed(tmp_path):
    root = make_repo(tmp_path, a=small("Alpha"))
    assert build_site(root, report=quiet).ok
    pub = root / "public"
    for page in (pub / "index.html", pub / "tags" / "pets.html"):
        html = page.read_text()
        assert '<meta name="description" content="Themed freeform crosswords to print or solve online">' in html, page
    html = (pub / "a" / "index.html").read_text()
    assert '<link rel="alternate" type="application/atom+xml" title="The Crossword Press" href="../feed.xml">' in html


def test_a_rebuild_deletes_only_the_files_it_made(tmp_path):
    """A rebuild removed every file in a puzzle's folder it had not just written: an author's notes in
    public/a/ went, silently. Only the build's own outputs are pruned, and a gone puzzle's folder keeps
    the author's files (and so stays)."""
    root = make_repo(tmp_path, a=small("A"), b=small("B"))
    build_site(root, report=quiet)
    notes = root / "public" / "a" / "hints.html"
    notes.write_text("<p>mine</p>")
    # an output an older version wrote, listed in the build record: that one is the build's to prune
    (root / "public" / "a" / "a.jpz").write_text("old")
    record = root / ".cache" / "state" / "a.key"
    record.write_text(record.read_text() + "a.jpz 3 1\n")
    src = root / "puzzles" / "a.txt"
    src.write_text(src.read_text().replace("Top card", "Best card"))
    build_site(root, report=quiet)
    assert notes.read_text() == "<p>mine</p>" and not (root / "public" / "a" / "a.jpz").exists()
    (root / "public" / "a" / "drafts").mkdir()  # a folder of the author's too: the outputs still go
    (root / "public" / "a" / "drafts" / "v1.txt").write_text("mine")
    src.unlink()
    said: list[str] = []
    result = build_site(root, report=said.append)
    assert result.removed == ["a"] and notes.exists() and (root / "public" / "a" / "drafts" / "v1.txt").exists()
    assert sorted(p.name for p in (root / "public" / "a").iterdir()) == ["drafts", "hints.html"]
    assert any(line.startswith("keep   a/: drafts, hints.html, not made by the build") for line in said), said


def _linked_elsewhere(folder: Path, name: str, text: str) -> Path:
    """`folder`, which the build made, replaced by a link to a folder beside the project holding one file."""
    elsewhere = folder.parents[2] / f"elsewhere-{folder.name}"
    elsewhere.mkdir()
    (elsewhere / name).write_text(text)
    shutil.rmtree(folder)
    folder.symlink_to(elsewhere, target_is_directory=True)
    return elsewhere


def test_a_puzzle_folder_that_is_a_link_is_never_written_through(tmp_path):
    """public/a as a link to another folder: the build wrote a's outputs there and deleted every other file
    in it (a link to /etc took the system's files). It now fails that puzzle, and touches nothing."""
    from site_builder.errors import FileSystemError

    root = make_repo(tmp_path, a=small("A"), b=small("B"))
    build_site(root, report=quiet)
    elsewhere = _linked_elsewhere(root / "public" / "a", "passwd", "root:x:0:0\n")
    result = build_site(root, report=quiet)
    assert [slug for slug, _ in result.failed] == ["a"]
    error = result.failed[0][1]
    assert isinstance(error, FileSystemError) and "remove the link" in str(error), str(error)
    assert sorted(p.name for p in elsewhere.iterdir()) == ["passwd"] and (elsewhere / "passwd").read_text() == "root:x:0:0\n"


def test_the_tags_and_static_folders_are_never_written_through_a_link(tmp_path):
    from site_builder.errors import FileSystemError

    root = make_repo(tmp_path, a=small("A"))
    build_site(root, report=quiet)
    elsewhere = _linked_elsewhere(root / "public" / "tags", "keep.txt", "mine")
    (root / "puzzles" / "a.txt").write_text(small("A2"))
    with pytest.raises(FileSystemError) as info:
        build_site(root, report=quiet)
    assert "remove the link" in str(info.value)
    assert sorted(p.name for p in elsewhere.iterdir()) == ["keep.txt"]


def test_a_build_under_a_private_umask_still_publishes_readable_folders(tmp_path):
    """Under umask 077 the files came out 644 (the writer sets it) but the folders 700: a web server running
    as another user could read no page. Folders the build makes are 755."""
    root = make_repo(tmp_path, a=small("A"))
    old = os.umask(0o077)
    try:
        build_site(root, report=quiet)
    finally:
        os.umask(old)
    for folder in (root / "public", root / "public" / "a", root / "public" / "static", root / "public" / "tags"):
        assert folder.stat().st_mode & 0o777 == 0o755, folder
    assert (root / "public" / "a" / "index.html").stat().st_mode & 0o777 == 0o644


def test_the_offline_worker_is_a_site_file_versioned_by_its_code_and_the_static_files(monkeypatch):
    """An edit to the worker rebuilt every puzzle (it counted as code) and left its version as it was."""
    from site_builder import site as site_mod

    assert site_mod.PACKAGE / "sw.js" not in site_mod.code_files()
    static = site_mod.static_files()
    first = site_mod.service_worker(static)
    assert site_mod.service_worker(static) == first  # the same bytes every build
    changed = dict(static, **{"static/site.css": static["static/site.css"] + b"/* edit */"})
    assert _version(site_mod.service_worker(changed)) != _version(first)
    real = Path.read_text
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: real(self, *a, **k) + ("//" if self.name == "sw.js" else ""))
    assert _version(site_mod.service_worker(static)) != _version(first)


def _version(worker: str) -> str:
    return re.search(r"var VERSION = '([^']+)'", worker).group(1)


def test_a_404_page_links_from_the_sites_own_path_and_every_puzzle_page_has_a_description(tmp_path):
    """A host answered a wrong address with its bare error page; a puzzle with no description had no
    description for search results and link previews."""
    import re

    root = make_repo(tmp_path, a=small("A"), b=small("B", extra="description: Pets and cards\n"))
    config = root / "pyproject.toml"
    config.write_text(re.sub(r'(?m)^base_url = ".*"$', 'base_url = "https://example.org/xw/"', config.read_text()))
    assert build_site(root, report=quiet, quick=True).ok
    page = (root / "public" / "404.html").read_text()
    links = re.findall(r'(?:href|src)="([^"#]+)"', page)  # not the skip link's "#main"
    assert links and all(link.startswith("/xw/") for link in links), links
    for link in links:  # every one names a file the build wrote
        assert (root / "public" / link.removeprefix("/xw/")).is_file(), link
    assert "/xw/tags/pets.html" in links and "/xw/index.html" in links

    def description(slug):
        return re.search(r'<meta name="description" content="([^"]*)">', (root / "public" / slug / "index.html").read_text())[1]

    assert description("b") == "Pets and cards"
    assert re.fullmatch(r"A freeform crossword of 4 answers in a \d+×\d+ grid, by Ann, 1 January 2026\.", description("a"))


def test_a_puzzle_page_links_the_next_newer_and_older_puzzle_and_a_new_puzzle_rebuilds_only_its_neighbour(tmp_path):
    root = make_repo(tmp_path, jan=small("January", "2026-01-01"), feb=small("February", "2026-02-01"),
                     mar=small("March", "2026-03-01"), draft=small("Draft", "2026-02-15", extra="draft: true\n"))
    build_site(root, report=quiet)
    pub = root / "public"

    def links(slug: str) -> dict[str, str]:
        page = (pub / slug / "index.html").read_text()
        return dict(re.findall(r'<a class="\w+" rel="(prev|next)" href="\.\./([a-z]+)/index\.html"', page))

    assert links("mar") == {"next": "feb"}  # the newest: no newer puzzle; never the draft
    assert links("feb") == {"prev": "mar", "next": "jan"}
    assert links("jan") == {"prev": "feb"}
    assert 'Older<span class="neighbour-title">: January</span>' in (pub / "feb" / "index.html").read_text()
    # a new puzzle: it is built, and the former newest's page alone is written again (not its PDF)
    pdf = (pub / "mar" / "mar.pdf").stat().st_mtime_ns
    (root / "puzzles" / "apr.txt").write_text(small("April", "2026-04-01"))
    result = build_site(root, report=quiet)
    assert result.built == ["apr"] and pub / "mar" / "index.html" in result.written
    assert links("mar") == {"prev": "apr", "next": "feb"} and links("apr") == {"next": "mar"}
    assert (pub / "mar" / "mar.pdf").stat().st_mtime_ns == pdf
    # a title the neighbours show: their pages are written again, with it; the next build finds all up to date
    feb = root / "puzzles" / "feb.txt"
    feb.write_text(feb.read_text().replace("title: February", "title: Late Winter"))
    result = build_site(root, report=quiet)
    assert result.built == ["feb"] and {pub / "jan" / "index.html", pub / "mar" / "index.html"} <= set(result.written)
    assert "Late Winter" in (pub / "jan" / "index.html").read_text()
    assert build_site(root, report=quiet).built == [] and build_site(root, report=quiet).written == []
    # a puzzle made a draft, or removed: its neighbours link past it
    feb.write_text(feb.read_text().replace("tags: [pets]", "tags: [pets]\ndraft: true"))
    build_site(root, report=quiet)
    assert links("jan") == {"prev": "mar"} and links("mar") == {"prev": "apr", "next": "jan"}
    (root / "puzzles" / "mar.txt").unlink()
    build_site(root, report=quiet)
    assert links("jan") == {"prev": "apr"} and links("apr") == {"next": "jan"}


def test_a_new_puzzle_that_fails_to_lay_out_is_not_linked(tmp_path):
    root = make_repo(tmp_path, jan=small("January", "2026-01-01"), mar=small("March", "2026-03-01"))
    build_site(root, report=quiet)
    # FEB reads well, but its starred answer shares no letter with the others: no layout places it
    (root / "puzzles" / "feb.txt").write_text(small("February", "2026-02-01") + "*XYZZY | Magic word\n")
    result = build_site(root, report=quiet)
    assert [slug for slug, _ in result.failed] == ["feb"]
    for slug in ("jan", "mar"):
        assert "../feb/" not in (root / "public" / slug / "index.html").read_text()


def test_a_lone_puzzle_page_links_only_the_archive(tmp_path):
    root = make_repo(tmp_path, only=small("Only"))
    build_site(root, report=quiet)
    page = (root / "public" / "only" / "index.html").read_text()
    assert 'class="neighbours"' not in page and '<a href="../index.html">All puzzles</a>' in page


def test_the_sitemap_lists_the_index_every_tag_page_and_every_published_puzzle_at_base_url(tmp_path):
    root = make_repo(tmp_path, jan=small("January", "2026-01-01", "cats"), feb=small("February", "2026-02-01"),
                     draft=small("Draft", extra="draft: true\n"))
    pyproject = root / "pyproject.toml"
    pyproject.write_text(re.sub(r'base_url = "[^"]*"', 'base_url = "https://puzzles.example.net/xw/"', pyproject.read_text()))
    build_site(root, report=quiet)
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locs = [e.text for e in ET.parse(root / "public" / "sitemap.xml").getroot().findall("s:url/s:loc", ns)]
    base = "https://puzzles.example.net/xw/"
    assert locs == [base, f"{base}tags/cats.html", f"{base}tags/pets.html", f"{base}feb/", f"{base}jan/"]
    for loc in locs:  # each names a page the build wrote
        rel = loc.removeprefix(base)
        assert (root / "public" / rel / ("index.html" if rel.endswith("/") or not rel else "")).is_file(), loc


def test_while_a_puzzle_cannot_be_read_its_neighbours_keep_their_links_and_are_not_built_again(tmp_path):
    root = make_repo(tmp_path, jan=small("January", "2026-01-01"), feb=small("February", "2026-02-01"),
                     mar=small("March", "2026-03-01"))
    build_site(root, report=quiet)
    feb = root / "puzzles" / "feb.txt"
    good = feb.read_text()
    feb.write_text(good.replace("CAT | Pet", "C4T | Pet"))  # an error mid-edit, as in watch mode
    broken = build_site(root, report=quiet)
    assert [slug for slug, _ in broken.failed] == ["feb"] and broken.built == []
    assert 'href="../feb/index.html"' in (root / "public" / "jan" / "index.html").read_text()
    feb.write_text(good.replace("Pet that purrs", "Feline friend"))
    mended = build_site(root, report=quiet)
    assert mended.ok and mended.built == ["feb"]


def test_watchs_quick_build_mends_the_links_of_a_removed_puzzles_neighbours(tmp_path):
    """Watch mode builds only the puzzle saved, quickly: removing one built nothing, and its neighbours kept
    links to its deleted page."""
    root = make_repo(tmp_path, jan=small("January", "2026-01-01"), feb=small("February", "2026-02-01"),
                     mar=small("March", "2026-03-01"))
    build_site(root, report=quiet)
    (root / "puzzles" / "feb.txt").unlink()
    result = build_site(root, report=quiet, quick=True, only={"feb"})
    assert result.built == [] and not (root / "public" / "feb").exists()
    for slug in ("jan", "mar"):
        assert "../feb/" not in (root / "public" / slug / "index.html").read_text()
    assert build_site(root, report=quiet).built == []  # the records were kept up to date


def test_a_save_while_a_puzzle_builds_is_recorded_as_what_was_built(tmp_path, monkeypatch):
    """The build read a puzzle, then its worker read it again after a save: the record held the first
    text's key with the second text's outputs, so undoing the save left those outputs up to date."""
    from site_builder import site

    root = make_repo(tmp_path, a=small("Alpha"))
    assert build_site(root, report=quiet).ok
    src = root / "puzzles" / "a.txt"
    before = src.read_text().replace("Pet that purrs", "Feline friend")
    src.write_text(before)
    real = site._build_one

    def saved_meanwhile(args):
        src.write_text(before.replace("Feline friend", "EDITED WHILE BUILDING"))
        return real(args)

    monkeypatch.setattr(site, "_build_one", saved_meanwhile)
    assert build_site(root, report=quiet, jobs=1).built == ["a"]
    monkeypatch.setattr(site, "_build_one", real)
    assert "EDITED WHILE BUILDING" in (root / "public" / "a" / "a.xd").read_text()
    src.write_text(before)  # the save undone: the outputs are not of this text, so the build makes them again
    assert build_site(root, report=quiet, jobs=1).built == ["a"]
    assert "Feline friend" in (root / "public" / "a" / "a.xd").read_text()
    assert check_site(root, report=quiet)[1] == []


def test_a_puzzles_folder_that_cannot_be_listed_is_an_error_not_an_empty_archive(tmp_path, monkeypatch):
    """Read as empty, it had the build take down every published puzzle (and exit 0)."""
    from site_builder import source

    root = make_repo(tmp_path, a=small("Alpha"), b=small("Bravo", "2026-02-01"))
    assert build_site(root, report=quiet).ok
    real = os.listdir

    def refused(path="."):
        if Path(path) == root / "puzzles":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(source.os, "listdir", refused)
    with pytest.raises(source.PuzzleError, match=r"puzzles: cannot list the folder's files: Permission denied; make it readable"):
        build_site(root, report=quiet)
    assert (root / "public" / "a" / "index.html").is_file() and (root / "public" / "b" / "b.pdf").is_file()
    assert "Bravo" in (root / "public" / "index.html").read_text()


def test_a_build_record_in_bytes_that_are_no_text_makes_its_puzzle_stale_not_a_crash(tmp_path):
    root = make_repo(tmp_path, a=small("Alpha"))
    assert build_site(root, report=quiet).ok
    (root / ".cache" / "state" / "a.key").write_bytes(b"\xff\xfe")
    result = build_site(root, report=quiet)
    assert result.ok and result.built == ["a"]
    assert build_site(root, report=quiet).unchanged == ["a"]


def test_the_layout_cache_key_holds_what_the_layout_reads(monkeypatch):
    """adjacency reads the blank line that sets a block of fill words apart; the key held answers and stars
    alone, so a layout cached before the line was added came back for the list after it (and `check`, which
    used the cache, agreed with it, where a clean checkout did not)."""
    from site_builder.layout import params_for
    from site_builder.site import WORD_PACKAGES, layout_fingerprint, layout_key
    from site_builder.source import load_puzzle

    head = "---\ntitle: T\ndate: 2026-01-01\nstrategy: {}\n---\nGARDEN | a\nONION | b\nRANGE | c\n"
    for strategy, differ in (("adjacency", True), ("optimize", False)):
        together = load_puzzle(head.format(strategy) + "DEN | d\nGOD | e\n")
        apart = load_puzzle(head.format(strategy) + "\n# fill words\nDEN | d\nGOD | e\n")
        keys = {layout_key(p, params_for(p), "engine") for p in (together, apart)}
        assert len(keys) == (2 if differ else 1), strategy
    # another version of a package the fill dictionary is made of: another fingerprint, so no cached layout
    import importlib.metadata

    from site_builder.site import _word_packages

    before = layout_fingerprint()
    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "99.0" if name == "wordfreq" else real(name))
    _word_packages.cache_clear()  # read once a process: this one "upgraded" since
    try:
        assert "wordfreq" in WORD_PACKAGES and layout_fingerprint() != before
    finally:
        monkeypatch.undo()
        _word_packages.cache_clear()
    assert layout_fingerprint() == before


def test_check_lays_out_afresh_as_a_clean_checkout_would(tmp_path):
    """check took its layouts from the project's .cache: a layout cached under a key that missed something
    passed the check on the author's machine and failed CI's on a clean checkout."""
    root = make_repo(tmp_path, jan=small("January", "2026-01-01"))
    build_site(root, report=quiet)
    cache = root / ".cache"
    assert cache.is_dir()
    shutil.rmtree(cache)
    result, drift = check_site(root, report=quiet)
    assert result.ok and drift == []
    assert not cache.exists()  # neither read nor written: the check's layouts are its own
    # a cached layout no fresh build makes (planted here; a key that missed something made them): the check
    # finds the drift the build cannot see, and build --force, which lays out afresh, mends it
    build_site(root, report=quiet)
    (entry,) = (cache / "layouts").glob("*.json")
    data = json.loads(entry.read_text())
    data["seed"] += 7
    entry.write_text(json.dumps(data))
    build_site(root, force=True, report=quiet)
    assert check_site(root, report=quiet)[1] == []
    entry.write_text(json.dumps(data))
    assert build_site(root, report=quiet).built == []  # up to date, by its record
    assert build_site(root, state=tmp_path / "other-state", report=quiet).built == ["jan"]  # with the planted layout
    assert [d.path for d in check_site(root, report=quiet)[1]] == ["jan/jan.json"]
    build_site(root, force=True, report=quiet)
    assert check_site(root, report=quiet)[1] == []


def test_a_second_build_of_a_folder_waits_for_the_first(tmp_path):
    """Two builds of one folder at once: the second removed the first's half-written files as a crash's
    leftovers. It waits, says so, and builds once the first has let go."""
    import threading

    root = make_repo(tmp_path, one=small())
    out = root / "public"
    out.mkdir()
    half = out / ".index.html.1234.tmp"  # the first build's file, being written
    half.write_text("half")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pathlib import Path; from site_builder.site import _one_build_at_a_time\n"
         f"with _one_build_at_a_time(Path({str(root / '.cache')!r}), Path({str(out)!r}), print):\n"
         "    print('held', flush=True); sys.stdin.readline()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert holder.stdout.readline().strip() == "held"
        said: list[str] = []
        builder = threading.Thread(target=lambda: build_site(root, report=said.append))
        builder.start()
        builder.join(3)
        assert builder.is_alive(), "the second build did not wait"
        assert said == [f"wait   another build of {out} (process {holder.pid}) is running: this one starts when it ends"]
        assert half.read_text() == "half" and not (out / "index.html").exists()
        holder.stdin.write("\n")
        holder.stdin.flush()
        builder.join(60)
        assert not builder.is_alive()
    finally:
        holder.kill()
        holder.wait()
    assert (out / "index.html").exists() and (out / "one" / "index.html").exists()
    assert said[1:] and said[1].startswith("build  one")


def test_a_file_system_without_locks_builds_unlocked(tmp_path, monkeypatch):
    """flock fails with ENOLCK on some network and FUSE mounts: the build goes on, as before there was a lock."""
    import errno
    import fcntl

    def refuse(handle, how):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", refuse)
    root = make_repo(tmp_path, one=small())
    assert build_site(root, report=quiet).built == ["one"]


def test_only_the_builds_own_files_under_tags_and_static_are_removed(tmp_path, monkeypatch):
    """A logo or style sheet of the operator's under static/, or a README under tags/, was deleted by the
    next build (and reported as "update"); a tag page no longer made, or a static file an earlier build
    wrote, still goes."""
    from site_builder import site as site_module

    root = make_repo(tmp_path, a=small("A", tag="pets"))
    assert build_site(root, report=quiet).ok
    pub = root / "public"
    own = [pub / "static" / "custom.css", pub / "static" / "img" / "logo.png", pub / "tags" / "README"]
    for f in own:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("mine")
    made = site_module.site_files()
    monkeypatch.setattr(site_module, "site_files", lambda: {**made, "static/older.css": "an earlier version's"})
    (root / "puzzles" / "a.txt").write_text(small("A", tag="cats"))
    lines: list[str] = []
    assert build_site(root, report=lines.append).ok
    assert not (pub / "tags" / "pets.html").exists() and (pub / "tags" / "cats.html").exists()
    assert all(f.read_text() == "mine" for f in own)
    keep = [line for line in lines if line.startswith("keep")]
    assert keep == ["keep   static/custom.css, static/img/logo.png, tags/README: not made by the build (`check` "
                    "counts them as drift: list them in own_files under [tool.crossword], or delete them)"], lines
    monkeypatch.setattr(site_module, "site_files", lambda: made)  # a later version makes no older.css
    (pub / "tags" / "index.html").write_text("mine")  # named like a tag page, but no build wrote it
    own.append(pub / "tags" / "index.html")
    lines.clear()
    assert build_site(root, report=lines.append).ok
    assert not (pub / "static" / "older.css").exists()  # the record says the build wrote it
    assert all(f.read_text() == "mine" for f in own)
    assert [line for line in lines if line.startswith("keep")] == [
        "keep   static/custom.css, static/img/logo.png, tags/README and 1 more: not made by the build (`check` "
        "counts them as drift: list them in own_files under [tool.crossword], or delete them)"]
    lines.clear()
    assert build_site(root, report=lines.append).ok and not any(line.startswith("keep") for line in lines)  # said once


def test_the_site_record_knows_what_a_failed_build_wrote_and_what_an_older_record_lists(tmp_path):
    """A build that failed after writing a tag page recorded nothing, so the page was never removed; a
    record of names a line each (this change's first version) was read as none."""
    from site_builder import site as site_module

    root = make_repo(tmp_path, a=small("A", tag="pets"))
    assert build_site(root, report=quiet).ok
    pub, record = root / "public", site_module._site_record(root / ".cache")
    (root / "puzzles" / "a.txt").write_text(small("A", tag="herbs"))
    (pub / "feed.xml").unlink()
    (pub / "feed.xml").mkdir()  # the feed, written after the tag pages, fails
    with pytest.raises(OSError):
        build_site(root, report=quiet)
    assert (pub / "tags" / "herbs.html").exists()
    (pub / "feed.xml").rmdir()
    (root / "puzzles" / "a.txt").write_text(small("A", tag="cats"))
    lines: list[str] = []
    assert build_site(root, report=lines.append).ok
    assert not (pub / "tags" / "herbs.html").exists() and not any(line.startswith("keep") for line in lines), lines
    (pub / "static" / "older.css").write_text("an earlier build's")
    record.write_text("static/older.css\ntags/cats.html\n")  # the first version's record
    assert build_site(root, report=quiet).ok and not (pub / "static" / "older.css").exists()
    # without a record (a fresh clone), a file own_files lists is kept even where it looks like a tag page
    record.unlink()
    (pub / "tags" / "index.html").write_text("mine")
    settings = root / "pyproject.toml"
    settings.write_text(settings.read_text() + '\nown_files = ["tags/index.html"]\n')
    assert build_site(root, report=quiet).ok and (pub / "tags" / "index.html").read_text() == "mine"


def test_a_tags_folder_that_cannot_be_written_fails_the_build_before_any_page_links_to_it(tmp_path, monkeypatch):
    """The puzzle's page was written first, linking to tags/cats.html, and then tags/ failed: a published
    page linked to a page that was never written."""
    from site_builder import site as site_module
    from site_builder.errors import FileSystemError

    root = make_repo(tmp_path, a=small("A", tag="pets"))
    assert build_site(root, report=quiet).ok
    page = (root / "public" / "a" / "index.html").read_bytes()
    (root / "puzzles" / "a.txt").write_text(small("A", tag="cats"))
    access = os.access
    monkeypatch.setattr(site_module.os, "access", lambda p, mode, **kw: Path(p).name != "tags" and access(p, mode, **kw))
    with pytest.raises(FileSystemError, match=r"tags: cannot write or read this: Permission denied"):
        build_site(root, report=quiet)
    assert (root / "public" / "a" / "index.html").read_bytes() == page and not (root / "public" / "tags" / "cats.html").exists()
    (root / "puzzles" / "a.txt").write_text(small("A", tag="pets"))
    assert build_site(root, report=quiet).ok  # nothing to write: a read-only published copy builds
    (root / "puzzles" / "a.txt").write_text(small("A", tag="cats"))
    monkeypatch.setattr(site_module.os, "access", access)
    assert build_site(root, report=quiet).ok and (root / "public" / "tags" / "cats.html").exists()


def test_own_files_cannot_name_what_the_build_makes_nor_a_host_idna_spells_two_ways(tmp_path):
    """`own_files = ["static/site.css"]` was taken, and the build overwrote the file every time; straße.de
    was written as strasse.de, another domain than the one browsers reach."""
    f = tmp_path / "pyproject.toml"
    for name in ("static/site.css", "static/fonts/OFL-SourceSansPro.txt", "sw.js", "index.html"):
        f.write_text(f'[tool.crossword]\nown_files = ["robots.txt", "{name}"]\n')
        with pytest.raises(PuzzleErrors, match=rf":2: \[tool.crossword\] 'own_files' names '{re.escape(name)}', which the build makes"):
            load_config(f)
    f.write_text('[tool.crossword]\nown_files = ["cats/notes.txt", "static/logo.png", "CNAME", "tags/index.html"]\n')
    assert load_config(f).own_files == ("CNAME", "cats/notes.txt", "static/logo.png", "tags/index.html")
    f.write_text('[tool.crossword]\nbase_url = "https://straße.de/"\n', encoding="utf-8")
    with pytest.raises(PuzzleErrors, match=r"write its xn-- form"):
        load_config(f)
    f.write_text('[tool.crossword]\nbase_url = "https://xn--strae-oqa.de/"\n', encoding="utf-8")
    assert load_config(f).base_url == "https://xn--strae-oqa.de/"


def test_a_disk_that_fills_up_part_way_leaves_the_puzzles_outputs_all_old(tmp_path, monkeypatch):
    """Written one by one, a puzzle's outputs came out half new: index.html (first by name) with the new
    clue, the PDF and exports before it. Now every one is written before any is put in place."""
    import errno

    from site_builder import writer

    root = make_repo(tmp_path, pets=small())
    assert build_site(root, report=quiet).ok
    folder = root / "public" / "pets"
    before = {f.name: f.read_bytes() for f in folder.iterdir()}
    (root / "puzzles" / "pets.txt").write_text(small().replace("Pet that purrs", "Purring pet"))
    real, calls = os.fsync, []

    def fills_up(fd):
        calls.append(fd)
        if len(calls) == 3:  # the third file of the puzzle's
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd)

    monkeypatch.setattr(writer.os, "fsync", fills_up)
    with pytest.raises(OSError, match="No space left on device"):  # a full disk stops the build (the CLI says it)
        build_site(root, report=quiet)
    assert {f.name: f.read_bytes() for f in folder.iterdir()} == before  # every output old, no temporary file
    monkeypatch.setattr(writer.os, "fsync", real)
    assert build_site(root, report=quiet).ok
    assert "Purring pet" in (folder / "index.html").read_text() and "Purring pet" in (folder / "pets.txt").read_text()


def test_a_full_temporary_folder_is_the_users_to_fix_not_a_bug(tmp_path, monkeypatch):
    """WeasyPrint writes each font it loads into the temporary folder, and a full one says only "No space
    left on device", with no file: that was an internal error, a traceback and exit status 3."""
    import errno
    import tempfile

    from site_builder.errors import FileSystemError, InternalError
    from site_builder.render import pdf

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pdf, "render_pdf", full)
    root = make_repo(tmp_path, pets=small())
    result = build_site(root, report=quiet)
    (slug, error), = result.failed
    assert isinstance(error, FileSystemError) and not isinstance(error, InternalError)
    assert str(error).startswith(f"{tempfile.gettempdir()}: ") and "free some disk space" in str(error)
    assert "TMPDIR" in str(error) and error.exit_status == 2


def test_a_full_temporary_folder_is_named_as_the_user_set_it_not_a_workers_own(tmp_path, monkeypatch):
    """A parallel build's worker writes into a folder of its own inside the temporary folder, gone when the
    error is read: the message names the folder TMPDIR sets."""
    import errno
    import tempfile

    from site_builder.errors import SCRATCH_PREFIX, render_disk_error

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / f"{SCRATCH_PREFIX}x1y2z3"))
    error = render_disk_error(OSError(errno.ENOSPC, "No space left on device"))
    assert str(error).startswith(f"{tmp_path}: cannot write or read this: No space left on device; free some disk space")
    assert render_disk_error(OSError(errno.EIO, "Input/output error")) is None  # a read may fail so: not a render's


def test_files_written_together_are_none_written_when_a_folder_is_in_the_way(tmp_path):
    from site_builder.writer import write_files

    (tmp_path / "a.txt").write_text("old")
    (tmp_path / "c.txt").mkdir()
    with pytest.raises(IsADirectoryError):
        write_files(tmp_path, {"a.txt": "new", "c.txt": "new"})
    assert (tmp_path / "a.txt").read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "c.txt"]
