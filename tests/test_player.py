"""The puzzle player in a real browser: Playwright driving Debian's Chromium.

Each test loads a page built into a temporary folder (the page plus
site_builder/static/ beside it, as the site build lays them out) by file://
URL, so it also proves the player works offline and without a server.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.layout import layout_puzzle, params_for
from site_builder.model import Direction
from site_builder.render.html import render_puzzle_page
from site_builder.site import static_files
from site_builder.source import load_puzzle, read_puzzle
from tests.conftest import SAMPLES

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="browser tests need Debian's Chromium at /usr/bin/chromium (apt-get install -y chromium)"
)

SMALL = """---
title: Allotment
date: 2026-05-01
author: Test Setter
difficulty: easy
description: A small grid for the tests.
---
GARDEN | Where the party is
ONION | Layered vegetable
RANGE | Cooker, or mountains
DENIM | Jeans fabric
ANGEL | Heavenly being
"""

SITE = {"title": "The Crossword Press", "licence": "Puzzles CC BY 4.0", "base_url": "https://example.org/xw/"}


def _build(folder: Path, puzzle) -> object:
    layout = layout_puzzle(puzzle, params_for(puzzle, seeds=10 if puzzle.slug == "allotment" else 20))
    downloads = [("PDF", f"{puzzle.slug}.pdf", "print it"), ("Across Lite", f"{puzzle.slug}.puz", "for solving apps")]
    text = render_puzzle_page(puzzle, layout, site=SITE, root="../", downloads=downloads)
    (folder / puzzle.slug).mkdir(parents=True, exist_ok=True)
    (folder / puzzle.slug / "index.html").write_text(text, encoding="utf-8")
    return layout


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("site")
    for name, data in static_files().items():  # exactly what the site build publishes
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    small = load_puzzle(SMALL, slug="allotment")
    twin = read_puzzle(SAMPLES / "twin-peaks.txt")
    layouts = {"allotment": _build(folder, small), "twin-peaks": _build(folder, twin)}
    assert not layouts["allotment"].unplaced
    return folder, layouts


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


class Page:
    """A page of the test site, with the helpers the tests share."""

    def __init__(self, browser, site, slug, **context_args):
        folder, layouts = site
        self.layout = layouts[slug]
        self.url = (folder / slug / "index.html").as_uri()
        self.context = browser.new_context(**({"viewport": {"width": 1280, "height": 900}} | context_args))
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.confirm = True  # how confirm() dialogs are answered
        self.page.on("dialog", lambda d: d.accept() if self.confirm else d.dismiss())
        self.page.goto(self.url)

    def current(self) -> str:
        return self.page.get_attribute(".cell.current", "id")

    def active_clue(self) -> str:
        return self.page.get_attribute(".clue-list li.active", "id")

    def letter(self, r: int, c: int) -> str:
        return self.page.inner_text(f"#cell-{r}-{c} .letter")

    def grid_letters(self) -> dict[tuple[int, int], str]:
        """Every cell's letter, in one round trip."""
        pairs = self.page.evaluate(
            "() => [...document.querySelectorAll('.cell')].map(el => [+el.dataset.r, +el.dataset.c, el.innerText.replace(/[0-9\\s]/g, '')])"
        )
        return {(r, c): ch for r, c, ch in pairs}

    def focused(self) -> str:
        return self.page.evaluate("document.activeElement && document.activeElement.id")

    def solve(self, placement) -> None:
        # a clicked clue selects its first empty cell; Home goes to its first cell
        self.page.click(f"#clue-{placement.direction.value}-{placement.number}")
        self.page.keyboard.press("Home")
        self.page.keyboard.type(placement.answer)


@pytest.fixture
def open_page(browser, site):
    pages: list[Page] = []

    def opener(slug="allotment", **context_args) -> Page:
        p = Page(browser, site, slug, **context_args)
        pages.append(p)
        return p

    yield opener
    for p in pages:
        p.context.close()
        assert not p.errors, p.errors


def dispatch_words(p: Page, placements) -> None:
    """Type answers as key events dispatched inside the page (the real handlers, no round trips)."""
    words = [[f"clue-{q.direction.value}-{q.number}", q.answer] for q in placements]
    p.page.evaluate(
        """(words) => {
            const input = document.getElementById('grid-input');
            const key = (k) => input.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true, cancelable: true}));
            for (const [id, answer] of words) {
                document.getElementById(id).click();
                key('Home');
                for (const ch of answer) key(ch);
            }
        }""",
        words,
    )


def cell_id(rc) -> str:
    return f"cell-{rc[0]}-{rc[1]}"


def test_solve_whole_puzzle_by_typing(open_page):
    p = open_page()
    assert p.page.is_hidden(".solved")
    for placement in p.layout.placements:
        p.solve(placement)
    assert p.grid_letters() == p.layout.cells
    assert p.page.is_visible(".solved")
    message = p.page.inner_text(".solved")
    assert message.startswith("Solved!") and "Your time: " in message
    # the timer stops at the time the message gives
    assert p.page.inner_text(".timer") in message


def test_the_page_draws_with_the_shipped_fonts(open_page):
    """The WOFF2 faces the page uses load from static/fonts/ by file://, so it looks like its PDF, offline."""
    p = open_page()
    p.page.evaluate("document.fonts.ready")
    faces = p.page.evaluate("[...document.fonts].map(f => [f.family.replace(/\"/g, ''), f.weight, f.status])")
    assert {(family, weight) for family, weight, status in faces if status == "loaded"} >= {
        ("Source Serif Pro", "700"), ("Source Sans Pro", "400"), ("Source Sans Pro", "600")}
    assert not [face for face in faces if face[2] == "error"]


def test_progress_is_kept_after_reload(open_page):
    p = open_page()
    first = p.layout.across[0]
    p.page.click(f"#clue-across-{first.number}")
    p.page.keyboard.type(first.answer[:3])
    typed = {rc: first.answer[i] for i, rc in enumerate(first.cells()[:3])}
    p.page.reload()
    for (r, c), ch in typed.items():
        assert p.letter(r, c) == ch
    assert p.current() == cell_id(first.cells()[3])
    assert p.active_clue() == f"clue-across-{first.number}"
    # a fresh browser profile starts empty
    q = open_page()
    assert all(q.letter(r, c) == "" for r, c in typed)


def test_check_marks_a_wrong_letter(open_page):
    p = open_page()
    word = p.layout.down[0]
    wrong = "Q" if word.answer[1] != "Q" else "Z"
    p.page.click(f"#clue-down-{word.number}")
    p.page.keyboard.type(word.answer[0] + wrong + word.answer[2:])
    p.page.click(f"#clue-down-{word.number}")
    p.page.click("summary:has-text('Check')")
    p.page.click("[data-action='check-word']")
    bad = cell_id(word.cells()[1])
    assert p.page.get_attribute(f"#{bad}", "class").split().count("wrong") == 1
    assert p.page.locator(".cell.wrong").count() == 1
    assert "1 wrong letter" in p.page.inner_text(".status")
    # fixing the letter clears the mark; keyboard focus came back to the grid
    assert p.focused() == "grid-input"
    p.page.click(f"#{bad}")
    p.page.keyboard.type(word.answer[1])
    assert p.page.locator(".cell.wrong").count() == 0


def test_reveal_letter_and_word(open_page):
    p = open_page()
    word = p.layout.across[0]
    p.page.click(f"#clue-across-{word.number}")
    p.page.click("summary:has-text('Reveal')")
    p.page.click("[data-action='reveal-letter']")
    r, c = word.cells()[0]
    assert p.letter(r, c) == word.answer[0]
    assert "revealed" in p.page.get_attribute(f"#cell-{r}-{c}", "class")
    p.page.click("summary:has-text('Reveal')")
    p.page.click("[data-action='reveal-word']")
    assert [p.letter(r, c) for r, c in word.cells()] == list(word.answer)


def test_reveal_and_clear_puzzle(open_page):
    p = open_page()
    p.page.click("summary:has-text('Reveal')")
    p.page.click("[data-action='reveal-puzzle']")  # the confirm dialog is accepted
    assert p.grid_letters() == p.layout.cells
    assert p.page.inner_text(".solved") == "Puzzle revealed."
    p.page.click("summary:has-text('Clear')")
    p.page.click("[data-action='clear-puzzle']")
    assert set(p.grid_letters().values()) == {""}
    assert p.page.is_hidden(".solved")
    assert p.page.inner_text(".timer") == "0:00"


def test_keyboard_only_navigation(open_page):
    p = open_page()
    kb = p.page.keyboard
    layout = p.layout
    # Tab from the top of the page reaches the skip link, which goes to the grid
    kb.press("Tab")
    assert p.page.evaluate("document.activeElement.className") == "skip-link"
    kb.press("Enter")
    assert p.focused() == "grid-input"
    first = layout.placements[0]
    assert p.current() == cell_id(first.cells()[0])
    assert p.active_clue() == f"clue-{first.direction.value}-{first.number}"

    # Tab and Shift-Tab: next and previous clue
    kb.press("Tab")
    second = layout.placements[1]
    assert p.active_clue() == f"clue-{second.direction.value}-{second.number}"
    kb.press("Shift+Tab")
    assert p.active_clue() == f"clue-{first.direction.value}-{first.number}"

    # typing fills and advances; Backspace on an empty cell steps back and clears
    assert first.direction is Direction.ACROSS
    cells = first.cells()
    kb.type(first.answer[:2])
    assert p.current() == cell_id(cells[2])
    kb.press("Backspace")
    assert p.current() == cell_id(cells[1])
    assert p.letter(*cells[1]) == ""
    assert p.letter(*cells[0]) == first.answer[0]

    # arrows move along the row; Delete clears without moving
    kb.press("ArrowRight")
    assert p.current() == cell_id(cells[2])
    kb.press("ArrowLeft")
    kb.press("ArrowLeft")
    assert p.current() == cell_id(cells[0])
    kb.press("Delete")
    assert p.letter(*cells[0]) == ""
    assert p.current() == cell_id(cells[0])

    # a cell where an across and a down answer cross: space and Enter switch direction
    crossing = next(rc for rc in cells if any(rc in d.cells() for d in layout.down))
    down = next(d for d in layout.down if crossing in d.cells())
    for _ in range(cells.index(crossing)):
        kb.press("ArrowRight")
    assert p.current() == cell_id(crossing)
    kb.press(" ")
    assert p.active_clue() == f"clue-down-{down.number}"
    assert p.current() == cell_id(crossing)
    kb.press("Enter")
    assert p.active_clue() == f"clue-across-{first.number}"
    # an arrow across the current direction switches direction first, then moves
    kb.press("ArrowDown")
    assert p.active_clue() == f"clue-down-{down.number}"
    assert p.current() == cell_id(crossing)
    i = down.cells().index(crossing)
    if i + 1 < len(down.cells()):
        kb.press("ArrowDown")
        assert p.current() == cell_id(down.cells()[i + 1])

    # clues are buttons, reachable by Tab from outside the grid, and Enter jumps to them
    last = layout.down[-1]
    p.page.focus(f"#clue-down-{last.number} button")
    kb.press("Enter")
    assert p.focused() == "grid-input"
    assert p.active_clue() == f"clue-down-{last.number}"
    assert p.current() == cell_id(last.cells()[0])
    # Tab at the last clue leaves the grid instead of trapping the keyboard
    kb.press("Tab")
    assert p.focused() != "grid-input"


def test_click_a_clue_jumps_to_it_and_click_a_cell_twice_switches(open_page):
    p = open_page()
    # a down word crossed by an across word away from its first cell (where clicking the clue puts the
    # cursor: a click there would be the second click on the current cell, which switches direction)
    word, across, shared = next(
        (down, a, cell)
        for down in reversed(p.layout.down)
        for a in p.layout.across
        for cell in set(a.cells()) & set(down.cells())
        if cell != down.cells()[0]
    )
    p.page.click(f"#clue-down-{word.number}")
    assert p.current() == cell_id(word.cells()[0])
    assert p.active_clue() == f"clue-down-{word.number}"
    assert f"{word.number} Down" in p.page.inner_text(".clue-bar")
    assert word.entry.clue in p.page.inner_text(".clue-bar")
    # the cells of the word are highlighted, and the crossing clue is marked
    assert p.page.locator(".cell.in-word").count() == len(word.answer)
    p.page.click(f"#{cell_id(shared)}")
    assert p.active_clue() == f"clue-down-{word.number}"
    assert "cross-current" in p.page.get_attribute(f"#clue-across-{across.number}", "class")
    p.page.click(f"#{cell_id(shared)}")
    assert p.active_clue() == f"clue-across-{across.number}"


def test_pause_hides_the_grid_and_resume_returns(open_page):
    p = open_page()
    p.page.click(".cell")
    p.page.click("[data-action='pause']")
    assert p.page.is_visible(".pause-cover")
    assert p.page.inner_text("[data-action='pause']") == "Resume"
    shown = p.page.inner_text(".timer")
    p.page.keyboard.type("A")  # ignored while paused
    p.page.wait_for_timeout(1100)
    assert p.page.inner_text(".timer") == shown  # the clock stands still
    assert p.page.locator(".cell.filled").count() == 0
    p.page.click(".pause-cover button")
    assert p.page.is_hidden(".pause-cover")
    assert p.focused() == "grid-input"
    p.page.keyboard.type("A")
    assert p.page.locator(".cell.filled").count() == 1


def test_works_without_javascript(open_page):
    p = open_page(java_script_enabled=False)
    assert p.page.locator(".cell").count() == p.layout.letter_cells
    assert p.page.is_visible(".grid")
    assert p.page.locator(".clue-list li").count() == len(p.layout.placements)
    assert p.page.is_hidden(".toolbar")
    assert p.page.is_hidden(".grid-input")
    assert p.page.is_visible("text=Across Lite")


def test_phone_tap_focuses_the_input_and_typing_fills(open_page, tmp_path):
    p = open_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2)
    word = p.layout.across[0]
    r, c = word.cells()[0]
    p.page.tap(f"#cell-{r}-{c}")
    assert p.focused() == "grid-input"
    p.page.keyboard.type(word.answer[:2])
    assert p.letter(r, c) == word.answer[0]
    # no sideways scrolling on a phone
    assert p.page.evaluate("document.documentElement.scrollWidth") <= 390


def test_twin_peaks_solves_and_looks_right(open_page, tmp_path):
    p = open_page("twin-peaks")
    assert p.page.title() == "Twin Peaks · The Crossword Press"
    # All but the last answer go in as key events dispatched inside the page
    # (the same handlers as real keys, without a round trip per letter) ...
    dispatch_words(p, p.layout.placements[:-1])
    assert p.page.is_hidden(".solved")
    p.page.screenshot(path=str(tmp_path / "desktop.png"))
    # ... and the last one through the real keyboard.
    p.solve(p.layout.placements[-1])
    assert p.page.inner_text(".solved").startswith("Solved!")
    assert p.grid_letters() == p.layout.cells
    phone = open_page("twin-peaks", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    # the phone shares nothing with the desktop context: a fresh start
    assert phone.page.locator(".cell.filled").count() == 0
    phone.page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    assert (tmp_path / "desktop.png").stat().st_size > 10_000
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= 390
