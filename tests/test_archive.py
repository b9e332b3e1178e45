"""The archive's index in a real browser: the finder and each card's progress (static/archive.js).

The site is built by `build_site` into a temporary folder and opened by
file:// URL; progress comes from the player itself, solving in its own page,
so the index and the player are tested to agree on where a save is kept.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from site_builder.site import build_site

from .test_player import ARGS, CHROMIUM, SMALL

ROOT = Path(__file__).resolve().parent.parent

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
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    (root / "puzzles" / "allotment.txt").write_text(SMALL, encoding="utf-8")
    (root / "puzzles" / "creme.txt").write_text(OTHER.format(date="2025-03-01"), encoding="utf-8")
    (root / "puzzles" / "creme-two.txt").write_text(
        OTHER.format(date="2025-04-01").replace("Crème de la Crème", "Second Helping"), encoding="utf-8")
    result = build_site(root, report=lambda line: None)
    assert result.ok and len(result.built) == 3
    return root / "public"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    yield p
    context.close()
    assert not errors, errors


def shown(page) -> list[str]:
    return page.eval_on_selector_all(".card:not([hidden]) .card-title", "els => els.map(e => e.textContent.trim())")


def test_the_finder_narrows_the_cards_by_their_words(archive, page):
    page.goto((archive / "index.html").as_uri())
    assert page.is_visible(".finder") and shown(page) == ["Allotment", "Second Helping", "Crème de la Crème"]
    assert page.inner_text(".find-count") == ""
    page.fill("#find", "creme")  # accents folded, case ignored
    assert shown(page) == ["Crème de la Crème"]
    assert page.inner_text(".find-count") == "Showing 1 of 3 puzzles."
    page.fill("#find", "ann food")  # every word must match: the author and a tag
    assert shown(page) == ["Second Helping", "Crème de la Crème"]
    page.fill("#find", "allotment")  # the 2025 puzzles gone: their year goes, heading and all
    assert page.is_hidden("section.year:has(#y2025)") and page.is_visible("section.year:has(#y2026)")
    page.fill("#find", "zebra")
    assert shown(page) == [] and page.inner_text(".find-count") == "No puzzle matches."
    page.press("#find", "Escape")
    assert page.input_value("#find") == "" and len(shown(page)) == 3 and page.inner_text(".find-count") == ""


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
    assert shown(page) == ["Allotment", "Second Helping"]
    page.select_option("#show", "new")
    assert shown(page) == [] and page.inner_text(".find-count") == "No puzzle matches."


def test_a_save_of_another_version_of_the_grid_shows_nothing(archive, page):
    page.goto((archive / "index.html").as_uri())
    key = page.get_attribute(".card", "data-key")
    other = key[: key.rindex(":") + 1] + "0123456789ab"  # the same puzzle, a grid since changed
    page.evaluate("k => localStorage.setItem(k, JSON.stringify({v: 1, letters: 'AB', solved: true}))", other)
    page.reload()
    assert not page.query_selector(".card .progress")


def test_without_script_the_index_is_a_plain_list(archive, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((archive / "index.html").as_uri())
    assert not page.is_visible(".finder") and len(shown(page)) == 3
    context.close()
