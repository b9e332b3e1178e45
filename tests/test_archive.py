"""The archive's index in a real browser: the finder and each card's progress (static/archive.js).

The site is built by `build_site` into a temporary folder and opened by
file:// URL; progress comes from the player itself, solving in its own page,
so the index and the player are tested to agree on where a save is kept.
"""

from __future__ import annotations

import shutil

import pytest

from site_builder.site import build_site

from .conftest import SETTINGS
from .test_player import CHROMIUM, SMALL
from .test_player import browser  # noqa: F401  (the fixture: Debian's Chromium, one per module)


pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="browser tests need Debian's Chromium at /usr/bin/chromium (apt-get install -y chromium)"
)

OTHER = """---
title: Crème de la Crème
date: {date}
author: Ann Other
tags: [food]
---
CREAM | Top of the milk
MACE | Spice from nutmeg's coat
ACRE | Field measure
"""


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    root = tmp_path_factory.mktemp("archive")
    (root / "puzzles").mkdir()
    shutil.copy(SETTINGS, root / "pyproject.toml")
    (root / "puzzles" / "allotment.txt").write_text(SMALL, encoding="utf-8")
    (root / "puzzles" / "creme.txt").write_text(OTHER.format(date="2025-03-01"), encoding="utf-8")
    (root / "puzzles" / "creme-two.txt").write_text(
        OTHER.format(date="2025-04-01").replace("Crème de la Crème", "Second Helping"), encoding="utf-8")
    result = build_site(root, report=lambda line: None)
    assert result.ok and len(result.built) == 3
    return root / "public"


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    yield p
    context.close()
    assert not errors, errors


def status(page, text: str) -> None:
    """The finder's live region says `text` (it waits for a pause in typing before news)."""
    from playwright.sync_api import expect

    expect(page.locator(".find-count")).to_have_text(text, timeout=3000)


def shown(page) -> list[str]:
    return page.eval_on_selector_all(".card:not([hidden]) .card-title", "els => els.map(e => e.textContent.trim())")


def test_the_years_bar_marks_the_year_being_read(archive, browser):
    context = browser.new_context(viewport={"width": 800, "height": 400})
    page = context.new_page()
    try:
        page.goto((archive / "index.html").as_uri())
        current = "() => [...document.querySelectorAll('nav.years a[aria-current=location]')].map(a => a.textContent)"
        assert page.evaluate(current) == ["2026"]  # the newest year, at the top
        page.click("nav.years a[href='#y2025']")
        page.wait_for_function("document.querySelector('nav.years a[href=\"#y2025\"]').hasAttribute('aria-current')")
        assert page.evaluate(current) == ["2025"]
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_function("document.querySelector('nav.years a[href=\"#y2026\"]').hasAttribute('aria-current')")
        assert page.evaluate(current) == ["2026"]
        page.fill("#find", "creme")  # 2026 has no card left: the mark goes to the year still shown
        assert page.evaluate(current) == ["2025"]
    finally:
        context.close()


def test_a_year_asked_for_is_marked_on_a_page_too_short_to_bring_it_up(archive, browser):
    """The end of the page marked the last year, or the top quarter the first: a click on the other year,
    which the page could not scroll up to the bar, marked a year the reader had not asked for."""
    context = browser.new_context(viewport={"width": 1000, "height": 1800})
    page = context.new_page()
    try:
        page.goto((archive / "index.html").as_uri())
        current = "() => [...document.querySelectorAll('nav.years a[aria-current=location]')].map(a => a.textContent)"
        assert page.evaluate("document.documentElement.scrollHeight <= innerHeight")  # nothing to scroll
        assert page.evaluate(current) == ["2025"]  # its heading is in the top quarter too
        page.click("nav.years a[href='#y2026']")
        page.wait_for_function("document.querySelector('nav.years a[href=\"#y2026\"]').hasAttribute('aria-current')")
        assert page.evaluate(current) == ["2026"]
        page.click("nav.years a[href='#y2025']")
        page.wait_for_function("document.querySelector('nav.years a[href=\"#y2025\"]').hasAttribute('aria-current')")
        page.goto((archive / "index.html").as_uri() + "#y2026")  # the address names it
        page.wait_for_function("document.querySelector('nav.years a[href=\"#y2026\"]').hasAttribute('aria-current')")
        assert page.evaluate(current) == ["2026"]
    finally:
        context.close()


def test_a_tapped_year_does_not_keep_looking_like_the_year_in_view(archive, browser):
    """A touch screen keeps :hover on the last link tapped: the year tapped kept its dark border after the
    page was scrolled to another year, as if it were still the year being read."""
    context = browser.new_context(viewport={"width": 390, "height": 500}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto((archive / "index.html").as_uri())
        year = "nav.years a[href='#y2025']"
        plain = page.eval_on_selector(year, "a => getComputedStyle(a).borderTopColor")
        page.tap(year)
        page.wait_for_function(f"document.querySelector(\"{year}\").hasAttribute('aria-current')")
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_function(f"!document.querySelector(\"{year}\").hasAttribute('aria-current')")
        assert page.eval_on_selector(year, "a => a.matches(':hover')")  # the browser does keep it hovered
        assert page.eval_on_selector(year, "a => getComputedStyle(a).borderTopColor") == plain
    finally:
        context.close()


def test_the_finder_narrows_the_cards_by_their_words(archive, page):
    page.goto((archive / "index.html").as_uri())
    assert page.is_visible(".finder") and shown(page) == ["Allotment", "Second Helping", "Crème de la Crème"]
    assert page.inner_text(".find-count") == ""
    page.fill("#find", "creme")  # accents folded, case ignored
    assert shown(page) == ["Crème de la Crème"]
    status(page, "Showing 1 of 3 puzzles.")
    # a year shows how many of its puzzles match; one with none goes, with its link in the years bar
    assert page.inner_text("#y2025 .n") == "1 of 2 puzzles" and page.inner_text("#y2026 .n") == "1 puzzle"
    assert page.is_hidden("section.year:has(#y2026)") and page.is_hidden(".years a[href='#y2026']")
    page.fill("#find", "ann #food")  # every word must match: the author, and a tag as the cards show it
    assert shown(page) == ["Second Helping", "Crème de la Crème"] and page.inner_text("#y2025 .n") == "2 puzzles"
    page.fill("#find", "allotment")  # the 2025 puzzles gone: their year goes, heading and all
    assert page.is_hidden("section.year:has(#y2025)") and page.is_visible("section.year:has(#y2026)")
    assert page.is_visible(".years a[href='#y2026']") and page.is_hidden(".years a[href='#y2025']")
    page.fill("#find", "zebra")
    assert shown(page) == []
    status(page, "No puzzle matches.")
    page.press("#find", "Escape")
    assert page.input_value("#find") == "" and len(shown(page)) == 3
    status(page, "Showing all 3 puzzles.")


def test_each_card_shows_the_progress_the_player_saved(archive, page):
    index = (archive / "index.html").as_uri()
    page.goto(index)
    assert not page.query_selector(".card .progress")  # nothing solved here yet
    # solve one puzzle in its own page, with the player, reveal another, and start a third
    import json

    page.goto((archive / "allotment" / "index.html").as_uri())
    for entry in json.loads((archive / "allotment" / "allotment.json").read_text())["result"]:
        page.click(f"#clue-{entry['orientation']}-{entry['position']}")
        page.keyboard.press("Home")
        page.keyboard.type(entry["answer"])
    assert page.is_visible(".solved")
    page.goto((archive / "creme-two" / "index.html").as_uri())
    page.once("dialog", lambda d: d.accept())
    page.evaluate("document.querySelector('[data-action=reveal-puzzle]').click()")
    page.goto((archive / "creme" / "index.html").as_uri())
    page.click(".cell")
    page.keyboard.type("CR")
    page.goto(index)
    progress = dict(page.eval_on_selector_all(
        ".card", "els => els.map(e => [e.querySelector('.card-title').textContent.trim(), "
        "(e.querySelector('.progress') || {}).textContent || ''])"))
    assert progress["Allotment"].startswith("Solved in 0:"), progress
    assert progress["Second Helping"] == "Revealed" and progress["Crème de la Crème"].startswith("In progress, ")
    page.select_option("#show", "started")
    assert shown(page) == ["Crème de la Crème"]
    page.select_option("#show", "done")
    assert shown(page) == ["Allotment"]
    page.select_option("#show", "revealed")
    assert shown(page) == ["Second Helping"]
    page.select_option("#show", "new")
    assert shown(page) == []
    status(page, "No puzzle matches.")


def save(page, key: str, cells: int, **state) -> None:
    """A save as the player writes it: every letter filled unless `letters` says otherwise."""
    state = {"v": 1, "letters": "A" * cells, "revealed": "0" * cells, "solved": True, "elapsed": 61000} | state
    page.evaluate("([k, s]) => localStorage.setItem(k, JSON.stringify(s))", [key, state])


def test_a_save_of_another_version_of_the_grid_shows_nothing(archive, page):
    page.goto((archive / "index.html").as_uri())
    key, cells = page.get_attribute(".card", "data-key"), int(page.get_attribute(".card", "data-cells"))
    save(page, key[: key.rindex(":") + 1] + "0123456789ab", cells)  # the same puzzle, a grid since changed
    page.reload()
    assert not page.query_selector(".card .progress")
    save(page, key, cells)  # the same save under this grid's key
    page.reload()
    assert page.inner_text(".card .progress") == "Solved in 1:01"


def test_a_save_that_only_says_solved_in_its_own_words_is_not_solved(archive, page):
    """A tampered save ("solved": "yes", a grid of Bs) made the card say Solved; the player writes true."""
    page.goto((archive / "index.html").as_uri())
    key, cells = page.get_attribute(".card", "data-key"), int(page.get_attribute(".card", "data-cells"))
    save(page, key, cells, solved="yes", letters="B" * cells)
    page.reload()
    assert page.inner_text(".card .progress") == "All filled in, not solved yet"


def test_every_letter_revealed_one_by_one_is_revealed_not_solved(archive, page):
    page.goto((archive / "index.html").as_uri())
    key, cells = page.get_attribute(".card", "data-key"), int(page.get_attribute(".card", "data-cells"))
    save(page, key, cells, revealed="1" * cells, gaveUp=False)  # as the player saves word-by-word reveals
    page.reload()
    assert page.inner_text(".card .progress") == "Revealed"
    assert page.get_attribute(".card .progress", "data-state") == "revealed"  # no tick for it


def test_progress_made_in_another_tab_shows_at_once(archive, browser):
    context = browser.new_context()
    index, other = context.new_page(), context.new_page()
    index.goto((archive / "index.html").as_uri())
    other.goto((archive / "index.html").as_uri())
    key, cells = index.get_attribute(".card", "data-key"), int(index.get_attribute(".card", "data-cells"))
    save(other, key, cells, letters="AB".ljust(cells, "."), solved=False)
    index.wait_for_selector(".card .progress", timeout=5000)  # no reload: the storage event brings it
    assert index.inner_text(".card .progress").startswith("In progress, ")
    context.close()


def test_without_script_the_index_is_a_plain_list(archive, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((archive / "index.html").as_uri())
    assert not page.is_visible(".finder") and len(shown(page)) == 3
    context.close()


def test_back_from_a_puzzle_keeps_the_search_and_shows_what_was_done(archive, page):
    index = (archive / "index.html").as_uri()
    page.goto(index)
    page.fill("#find", "crème")
    page.click("text=Crème de la Crème")
    key, cells = page.evaluate(
        "() => { const d = JSON.parse(document.getElementById('puzzle-data').textContent); return [d.storageKey, d.cells.length]; }")
    save(page, key, cells, elapsed=125000)
    page.go_back()
    page.wait_for_selector(".card .progress")
    assert page.input_value("#find") == "crème" and shown(page) == ["Crème de la Crème"]
    assert page.inner_text(".card:not([hidden]) .progress") == "Solved in 2:05"


@pytest.fixture(scope="module")
def names(tmp_path_factory):
    """An archive whose names need folding: letters with no accent to drop, a curly apostrophe, near tags."""
    root = tmp_path_factory.mktemp("names")
    (root / "puzzles").mkdir()
    shutil.copy(SETTINGS, root / "pyproject.toml")
    (root / "puzzles" / "bridge.txt").write_text(
        OTHER.format(date="2025-03-17").replace("Crème de la Crème", "Øresund Straße").replace("Ann Other", "D. O’Brien")
        .replace("[food]", "[foodie]\ndescription: Pizza 🍕 by the bridge"), encoding="utf-8")
    (root / "puzzles" / "creme.txt").write_text(OTHER.format(date="2025-04-01"), encoding="utf-8")
    (root / "puzzles" / "allotment.txt").write_text(SMALL, encoding="utf-8")
    (root / "puzzles" / "tokyo.txt").write_text(
        OTHER.format(date="2025-05-05").replace("Crème de la Crème", "東京の地図").replace("[food]", "[travel]"),
        encoding="utf-8")
    (root / "puzzles" / "hindi.txt").write_text(
        OTHER.format(date="2025-06-06").replace("Crème de la Crème", "हिन्दी पहेली").replace("[food]", "[words]"),
        encoding="utf-8")
    (root / "puzzles" / "arabic.txt").write_text(
        OTHER.format(date="2025-07-07").replace("Crème de la Crème", "أسماء عربية").replace("[food]", "[names]"),
        encoding="utf-8")
    assert build_site(root, report=lambda line: None).ok
    return root / "public"


@pytest.mark.parametrize("query, expected", [
    ("oresund strasse", ["Øresund Straße"]),  # ø and ß, as the answers fold them
    ("obrien", ["Øresund Straße"]),  # the author's curly apostrophe left out
    ("o'brien", ["Øresund Straße"]),
    ("o’brien", ["Øresund Straße"]),  # as a phone types it
    ("#food", ["Crème de la Crème"]),  # the tag, not #foodie, nor 'food' anywhere in the text
    ("#foo", ["Crème de la Crème", "Øresund Straße"]),  # while a tag is typed: the tags it begins
    ("2025-03-17", ["Øresund Straße"]),  # the date as ISO writes it
    ("grids", ["Allotment"]),  # a plural finds its singular ("A small grid for the tests.")
    ("cremes", ["Crème de la Crème"]),
    ("smalls", ["Allotment"]),
    ("gridss", []),  # not any word ending in s
    ("lot", []),  # a word is found where a word begins: not in Allotment
    ("allot", ["Allotment"]),
    ("resund", []),
    ("setter", ["Allotment"]),  # the author, Test Setter
    ("地図", ["東京の地図"]),  # Japanese writes no spaces between words: found anywhere
    ("-", ["Allotment", "Crème de la Crème", "Øresund Straße", "أسماء عربية", "हिन्दी पहेली", "東京の地図"]),  # punctuation alone narrows nothing
    ("اسماء", ["أسماء عربية"]),  # the hamza, a mark as an accent is, may be left out
    ("أسماء", ["أسماء عربية"]),  # or typed
    ("पहल", []),  # but a Devanagari vowel sign is no accent: पहेली is another word
    ("🍕", ["Øresund Straße"]),  # a symbol is looked for as it is
    ("हिन्दी", ["हिन्दी पहेली"]),  # a word's vowel signs are part of it
    ("दी", []),  # not a word's start: the marks do not split it
])
def test_the_finder_folds_names_and_knows_tags_and_dates(names, page, query, expected):
    page.goto((names / "index.html").as_uri())
    page.fill("#find", query)
    assert sorted(shown(page)) == expected


def test_the_search_is_kept_in_the_address_and_separators_are_not_read(names, page):
    page.goto((names / "index.html").as_uri())
    page.fill("#find", "creme")
    page.select_option("#show", "new")
    assert "?q=creme&show=new" in page.url
    page.reload()
    assert page.input_value("#find") == "creme" and page.input_value("#show") == "new"
    assert shown(page) == ["Crème de la Crème"]
    # the dots between a card's links are to see: each link's name is its own text, with the puzzle it is of
    assert page.get_by_role("link", name="PDF of Crème de la Crème", exact=True).count() == 1
    assert page.get_by_role("link", name="Solve Crème de la Crème online", exact=True).count() == 1


def test_the_years_bar_stays_in_sight_after_a_jump_and_covers_no_heading(archive, browser):
    context = browser.new_context(viewport={"width": 1000, "height": 420})
    page = context.new_page()
    page.goto((archive / "index.html").as_uri())
    page.click(".years a[href='#y2025']")
    page.wait_for_function("window.scrollY > 0")
    bar = page.locator(".years").bounding_box()
    heading = page.locator("#y2025").bounding_box()
    assert abs(bar["y"]) < 1  # stuck at the window's top
    assert heading["y"] >= bar["y"] + bar["height"]  # the heading jumped to shows below it
    context.close()


def test_on_paper_the_licence_stays_and_a_search_says_it_narrowed_the_list(archive, page):
    """Printed from the browser, a puzzle page and the archive dropped the licence with the footer's links,
    and an archive narrowed by a search printed as if it were the whole list."""
    licence = "Puzzles and clues CC BY 4.0 · The Crossword Press"
    page.goto((archive / "index.html").as_uri())
    page.fill("#find", "creme")
    status(page, "Showing 1 of 3 puzzles.")
    page.emulate_media(media="print")
    assert page.is_visible(".find-count") and page.is_hidden("#find") and page.is_hidden("#show")
    assert page.is_visible(".site-footer .licence") and page.inner_text(".site-footer .licence") == licence
    assert page.is_hidden(".site-footer a[href$='feed.xml']")
    page.emulate_media(media="screen")
    assert page.is_visible(".site-footer a[href$='feed.xml']") and page.is_visible("#find")
    page.goto((archive / "creme" / "index.html").as_uri())
    page.emulate_media(media="print")
    assert page.is_visible(".site-footer .licence") and page.inner_text(".site-footer .licence") == licence
    assert page.locator(".site-footer a:visible").count() == 0


@pytest.mark.parametrize("fragment", ["#%", '#a"b', "#y2025%"])
def test_an_address_with_an_odd_fragment_runs_the_whole_script(archive, page, fragment):
    """'#%' threw 'URI malformed' and '#a"b' was no selector: the script stopped before the cards' progress."""
    page.goto((archive / "index.html").as_uri() + fragment)
    page.fill("#find", "creme")
    assert sorted(shown(page)) == ["Crème de la Crème"]  # the finder, set up after the years bar, works
