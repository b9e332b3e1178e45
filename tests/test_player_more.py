"""More of the puzzle player in a real browser: the bugs a QA pass found.

Same set-up as test_player.py (pages built into a temporary folder, loaded by
file:// URL in Debian's Chromium), with a large grid (world-capitals, 28
columns) and a small one (kitchen-herbs) beside the tests' own small grid.
"""

from __future__ import annotations

import base64
import json
import re
from types import SimpleNamespace

import pytest

from site_builder.model import Direction
from site_builder.site import static_files
from site_builder.source import load_puzzle, read_puzzle
from tests.conftest import SAMPLES
from tests.test_player import CHROMIUM, SMALL, Page, _build, cell_id, dispatch_words
from tests.helpers import RTL
from tests.test_player import browser, open_page  # noqa: F401  (fixtures: Chromium, and pages of this module's `site`)

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="browser tests need Debian's Chromium at /usr/bin/chromium (apt-get install -y chromium)"
)

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


LONG_CLUE = " ".join(["A very long clue that goes on and on, as clues should not,"] * 6)

# unbroken words longer than a phone is wide, in the title, the byline, a clue and the notes; a long clue
LONG_WORDS = """---
title: Counterrevolutionaries and Antidisestablishmentarianism
date: 2026-06-01
author: Zoe.OBrien.at.example.org.crosswords.press
description: See https://example.org/a/very/long/address/that/never/breaks/anywhere/at/all
notes: https://example.org/another/very/long/address/that/never/breaks/anywhere/at/all
copyright: (c)2026-Zoe-OBrien-all-rights-reserved-everywhere-forever
---
GARDEN | Pneumonoultramicroscopicsilicovolcanoconiosis-free place for the party, once upon a time long ago
ONION | Layered vegetable
RANGE | Cooker, or mountains
DENIM | Jeans fabric
ANGEL | """ + LONG_CLUE + """
"""


# answers spelled with letters the grid writes otherwise (ß: SS, Ø: O, Æ: AE, Ł: L, Þ: TH)
OWN_LETTERS = """---
title: Letters of their own
date: 2026-06-02
---
STRAßE | German street
SMØRREBRØD | Danish open sandwich
ÆSOP | Teller of fables
ŁÓDŹ | Polish city
ÞORSMÖRK | Icelandic valley
ROSE | Flower
DOOR | Entrance
WELL-TO-DO | Rich, as a family whose clue runs on long enough to fill the clue bar of a narrow phone twice
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("site")
    for name, data in static_files().items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    layouts = {"allotment": _build(folder, load_puzzle(SMALL, slug="allotment"))}
    for slug in ("world-capitals", "kitchen-herbs"):
        layouts[slug] = _build(folder, read_puzzle(SAMPLES / f"{slug}.txt"))
    layouts["long-words"] = _build(folder, load_puzzle(LONG_WORDS, slug="long-words"))
    layouts["own-letters"] = _build(folder, load_puzzle(OWN_LETTERS, slug="own-letters"))
    assert layouts["world-capitals"].cols >= 25  # the wide grid these tests are about
    return folder, layouts


# Whether the whole of an element can be seen: inside the window and inside every box around it
# that clips (a scrolling clue list, a scrolling grid).
SEEN = """(sel) => {
    const el = typeof sel === 'string' ? document.querySelector(sel) : sel;
    if (!el) return 'missing';
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) return 'not shown';
    let top = 0, left = 0, bottom = innerHeight, right = innerWidth;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
        const q = a.getBoundingClientRect();
        top = Math.max(top, q.top); left = Math.max(left, q.left);
        bottom = Math.min(bottom, q.bottom); right = Math.min(right, q.right);
    }
    const ok = r.top >= top - 1 && r.bottom <= bottom + 1 && r.left >= left - 1 && r.right <= right + 1;
    return ok ? true : `${el.id || el.className} at ${Math.round(r.top)}..${Math.round(r.bottom)} x ` +
        `${Math.round(r.left)}..${Math.round(r.right)}, visible ${Math.round(top)}..${Math.round(bottom)} x ` +
        `${Math.round(left)}..${Math.round(right)}`;
}"""


def seen(p: Page, selector: str):
    return p.page.evaluate(SEEN, selector)


# ---------------------------------------------------------------- 1. clue lists follow the selection


@pytest.mark.parametrize("window", [DESKTOP, {"viewport": {"width": 1366, "height": 650}}], ids=["1280x800", "1366x650"])
def test_desktop_selected_clue_is_in_view_on_a_wide_grid(open_page, window):
    # at 1366x650 (a laptop) the lists are stacked, and before the page is scrolled the header pushes
    # them down: the foot of the Down list, with the selected clue, was below the window
    p = open_page("world-capitals", **window)
    kb = p.page.keyboard
    p.page.focus("#grid-input")
    placements = p.layout.placements
    # Tab forward through every clue, then Shift-Tab all the way back
    steps = [("Tab", q) for q in placements[1:]] + [("Shift+Tab", q) for q in reversed(placements[:-1])]
    for key, q in steps:
        kb.press(key)
        assert p.active_clue() == f"clue-{q.direction.value}-{q.number}"
        assert seen(p, ".clue-list li.active") is True, (key, q.number, q.direction.value, seen(p, ".clue-list li.active"))
        if p.page.locator(".clue-list li.cross-current").count():
            assert seen(p, ".clue-list li.cross-current") is True, (key, q.number, seen(p, ".clue-list li.cross-current"))
        assert seen(p, ".cell.current") is True
    # typing a whole answer in (and so on to the next clue) keeps the clue in view too
    last = p.layout.down[-1]
    p.page.evaluate("window.scrollTo(0, 0)")
    p.page.click(f"#{cell_id(last.cells()[0])}")
    if p.active_clue() != f"clue-down-{last.number}":
        p.page.click(f"#{cell_id(last.cells()[0])}")
    kb.type(last.answer)
    assert seen(p, ".clue-list li.active") is True


# ---------------------------------------------------------------- 2. two tabs on one puzzle


@pytest.fixture
def tabs(browser, site):
    """Tabs of one puzzle in one browser (sharing localStorage): (open a new tab, the layout); errors fail the test."""
    folder, layouts = site
    url = (folder / "allotment" / "index.html").as_uri()
    context = browser.new_context(**DESKTOP)
    errors: list[str] = []

    def new_tab():
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        return page

    yield new_tab, layouts["allotment"]
    context.close()
    assert not errors, errors


def test_a_stale_tab_does_not_overwrite_another_tabs_progress(tabs):
    new_tab, layout = tabs
    a = new_tab()  # opened first, never touched
    b = new_tab()
    word = layout.across[0]
    b.click(f"#clue-across-{word.number}")
    b.keyboard.press("Home")
    b.keyboard.type(word.answer)
    r, c = word.cells()[-1]
    # tab A takes up what tab B saved ...
    a.wait_for_function(f"document.querySelector('#cell-{r}-{c} .letter').textContent === '{word.answer[-1]}'", timeout=3000)
    # ... and going away (hidden, then closed) does not put its old empty grid back
    a.evaluate("document.dispatchEvent(new Event('visibilitychange')); window.dispatchEvent(new Event('pagehide'))")
    a.close()
    b.close()
    again = new_tab()
    assert [again.inner_text(f"#cell-{r}-{c} .letter") for r, c in word.cells()] == list(word.answer)


def test_a_tab_that_changed_nothing_saves_nothing_and_catches_up_on_return(tabs):
    new_tab, layout = tabs
    a = new_tab()
    key = a.evaluate("JSON.parse(document.getElementById('puzzle-data').textContent).storageKey")
    word = layout.across[0]
    # progress saved by someone else that this tab never heard about
    letters = a.evaluate(
        """([key, cells, answer]) => {
            const data = JSON.parse(document.getElementById('puzzle-data').textContent);
            const at = data.cells.map(rc => rc.join(','));
            const letters = at.map(() => '.');
            cells.forEach((rc, i) => { letters[at.indexOf(rc.join(','))] = answer[i]; });
            const state = {v: 1, letters: letters.join(''), revealed: '0'.repeat(at.length),
                           wrong: '0'.repeat(at.length), elapsed: 5000, solved: false, cursor: null};
            localStorage.setItem(key, JSON.stringify(state));
            return state.letters;
        }""",
        [key, [list(rc) for rc in word.cells()], word.answer],
    )
    a.evaluate("window.dispatchEvent(new Event('pagehide'))")
    assert a.evaluate(f"JSON.parse(localStorage.getItem('{key}')).letters") == letters
    # coming back to the tab, it shows that progress
    a.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    assert [a.inner_text(f"#cell-{r}-{c} .letter") for r, c in word.cells()] == list(word.answer)
    assert a.inner_text(".timer") == "0:05"


def test_the_other_tab_shows_a_clear_and_a_solve(tabs):
    new_tab, layout = tabs
    a = new_tab()
    b = new_tab()
    b.on("dialog", lambda d: d.accept())
    b.click("summary:has-text('Reveal')")
    b.click("[data-action='reveal-puzzle']")
    a.wait_for_function("!document.querySelector('.solved').hidden", timeout=3000)
    assert a.inner_text(".solved") == "Puzzle revealed."
    assert a.evaluate("[...document.querySelectorAll('.cell .letter')].every(el => el.textContent)")
    b.click("summary:has-text('Clear')")
    b.click("[data-action='clear-puzzle']")
    a.wait_for_function("document.querySelector('.solved').hidden", timeout=3000)
    assert a.evaluate("[...document.querySelectorAll('.cell .letter')].every(el => !el.textContent)")
    assert a.inner_text(".timer") == "0:00"


def test_progress_of_an_older_version_of_the_puzzle_is_removed_and_the_solver_told(open_page):
    # a rebuilt puzzle with a changed answer has a new key: the old progress was dropped without a word,
    # and its key stayed in the browser for good
    p = open_page("kitchen-herbs")
    key = p.page.evaluate("JSON.parse(document.getElementById('puzzle-data').textContent).storageKey")
    old = key.rsplit(":", 1)[0] + ":0123456789ab"
    others = ["crossword-press:kitchen-herbs-2:0123456789ab", "crossword-press:allotment:0123456789ab", "another-app:kitchen-herbs"]
    put = """([keys, letters, page]) => keys.forEach(k => localStorage.setItem(k, JSON.stringify({v: 1, letters,
        revealed: '', wrong: '', elapsed: 5000, solved: false, cursor: null, page: page || location.pathname})))"""
    # another site's puzzle of the same name (file:// pages share one storage): not this page's to remove
    elsewhere = key.rsplit(":", 1)[0] + ":fedcba987654"
    p.page.evaluate(put, [[elsewhere], "THYME", "/another/site/kitchen-herbs/index.html"])
    others.append(elsewhere)
    keys = "() => Object.keys(localStorage).sort()"
    notice = "This puzzle was changed since you last played it, so it starts afresh."
    p.page.evaluate(put, [[old] + others[:3], "BASIL"])
    p.page.reload()
    assert p.page.inner_text(".status") == notice
    assert set(p.grid_letters().values()) == {""} and p.page.inner_text(".timer") == "0:00"
    p.page.reload()
    assert p.page.inner_text(".status") == ""  # said once (a tab's reloads: watch mode reloads on every save)
    # the old save stays until the solver types in this version: an answer changed back finds it
    assert p.page.evaluate(keys) == sorted(others + [old])
    word = p.layout.across[0]
    p.page.click(f"#clue-across-{word.number}")  # a move saves, and keeps it still
    assert p.page.evaluate(keys) == sorted(others + [key, old])
    p.page.reload()  # ... also over a reload: this version's save holds no letter yet
    # this version's own progress is kept over reloads, with nothing said
    p.page.click(f"#clue-across-{word.number}")
    p.page.keyboard.press("Home")
    p.page.keyboard.type(word.answer[0])
    assert p.page.evaluate(keys) == sorted(others + [key])  # other puzzles' progress is never touched
    p.page.reload()
    assert p.page.inner_text(".status") == "" and p.letter(*word.cells()[0]) == word.answer[0]
    # an old save with no letters in it goes without a word, with this version's first letters
    q = open_page("kitchen-herbs")  # a browser of its own: nothing saved there yet
    q.page.evaluate(put, [[old], "....."])
    q.page.reload()
    assert q.page.inner_text(".status") == ""
    q.page.click(f"#clue-across-{word.number}")
    q.page.keyboard.press("Home")
    q.page.keyboard.type(word.answer[0])
    assert q.page.evaluate(keys) == [key]


# ---------------------------------------------------------------- 3. revealing is not solving


def test_reveal_puzzle_after_typing_is_not_solved(open_page):
    p = open_page()
    word = p.layout.across[0]
    p.page.click(f"#clue-across-{word.number}")
    p.page.keyboard.press("Home")
    p.page.keyboard.type(word.answer[0])
    p.page.click("summary:has-text('Reveal')")
    p.page.click("[data-action='reveal-puzzle']")
    assert p.grid_letters() == p.layout.cells
    assert p.page.inner_text(".solved") == "Puzzle revealed."
    p.page.reload()
    assert p.page.inner_text(".solved") == "Puzzle revealed."


# ---------------------------------------------------------------- 4. the solved message is seen


def test_solved_message_is_in_view_on_desktop(open_page):
    p = open_page("world-capitals", **DESKTOP)
    first, rest = p.layout.placements[0], p.layout.placements[1:]
    dispatch_words(p, rest)
    assert p.page.is_hidden(".solved")
    # the last answer goes in at the top of the tall grid
    p.page.evaluate("window.scrollTo(0, 0)")
    p.solve(first)
    assert p.page.inner_text(".solved").startswith("Solved!")
    assert seen(p, ".solved") is True, seen(p, ".solved")


# ---------------------------------------------------------------- 5. focus after the tools


def test_typing_goes_on_after_a_cancelled_confirm(open_page):
    p = open_page()
    word = p.layout.across[0]
    p.page.click(f"#clue-across-{word.number}")
    p.page.keyboard.type(word.answer[0])
    p.confirm = False
    for menu, action in (("Clear", "clear-puzzle"), ("Reveal", "reveal-puzzle")):
        p.page.click(f"summary:has-text('{menu}')")
        p.page.click(f"[data-action='{action}']")
        assert p.focused() == "grid-input", action
    assert p.letter(*word.cells()[0]) == word.answer[0]  # nothing was cleared
    p.page.keyboard.type(word.answer[1])
    assert p.letter(*word.cells()[1]) == word.answer[1]
    # a confirmed clear gives the keyboard back too
    p.confirm = True
    p.page.click("summary:has-text('Clear')")
    p.page.click("[data-action='clear-puzzle']")
    assert p.focused() == "grid-input"
    p.page.keyboard.type("Q")
    assert p.page.locator(".cell.filled").count() == 1


def test_clear_word_on_a_solved_puzzle_says_why_not(open_page):
    p = open_page()
    for placement in p.layout.placements:
        p.solve(placement)
    assert p.page.inner_text(".solved").startswith("Solved!")
    p.page.click("summary:has-text('Clear')")
    p.page.click("[data-action='clear-word']")
    assert p.grid_letters() == p.layout.cells
    status = p.page.inner_text(".status")
    assert "solved" in status.lower() and "Clear" in status
    assert p.focused() == "grid-input"


def test_typing_in_a_finished_grid_says_why_nothing_changes(open_page):
    # a letter, Backspace or Delete in a solved (or revealed) grid did nothing and said nothing
    p = open_page()
    for placement in p.layout.placements:
        p.solve(placement)
    assert p.page.inner_text(".solved").startswith("Solved!")
    for key in ("Q", "Backspace", "Delete"):
        p.page.evaluate("document.querySelector('.status').textContent = ''")
        p.page.keyboard.press(key)
        assert p.page.inner_text(".status") == "The puzzle is solved: Clear, then Puzzle, starts it again.", key
    assert p.grid_letters() == p.layout.cells
    q = open_page("kitchen-herbs")
    q.page.click("summary:has-text('Reveal')")
    q.page.click("[data-action='reveal-puzzle']")
    at = q.current()
    q.page.keyboard.type("QQ")
    assert q.page.inner_text(".status") == "The puzzle is revealed: Clear, then Puzzle, starts it again."
    assert q.grid_letters() == q.layout.cells
    assert q.current() == at  # and the cursor stays where it is: it moved on, with the page, for nothing


# ---------------------------------------------------------------- 6. Backspace into the previous answer


def test_backspace_at_the_start_of_an_answer_goes_back_to_the_previous_one(open_page):
    p = open_page("kitchen-herbs")
    one, two = p.layout.across[0], p.layout.across[1]
    p.page.click(f"#clue-across-{one.number}")
    p.page.keyboard.press("Home")
    p.page.keyboard.type(one.answer)
    p.page.click(f"#clue-across-{two.number}")
    p.page.keyboard.press("Home")
    assert p.current() == cell_id(two.cells()[0]) and p.letter(*two.cells()[0]) == ""
    p.page.keyboard.press("Backspace")
    assert p.active_clue() == f"clue-across-{one.number}"
    assert p.current() == cell_id(one.cells()[-1])
    assert p.letter(*one.cells()[-1]) == ""
    assert p.letter(*one.cells()[-2]) == one.answer[-2]
    # and on from there, as usual
    p.page.keyboard.press("Backspace")
    assert p.current() == cell_id(one.cells()[-2]) and p.letter(*one.cells()[-2]) == ""


# ---------------------------------------------------------------- 7, 8. phones


def test_phone_big_grid_has_usable_cells_and_no_page_scroll(open_page):
    p = open_page("world-capitals", **PHONE)
    size = p.page.evaluate("document.querySelector('.cell').getBoundingClientRect().width")
    assert size >= 24
    assert p.page.evaluate("document.documentElement.scrollWidth") <= 390
    # an answer at the right-hand edge: the grid scrolls to it, and the (hidden) input sits on the cell
    word = max(p.layout.across, key=lambda q: q.col + len(q.answer))
    p.page.click(f"#clue-across-{word.number}")
    p.page.keyboard.press("End")
    assert p.current() == cell_id(word.cells()[-1])
    assert seen(p, ".cell.current") is True, seen(p, ".cell.current")
    box = p.page.evaluate(
        "[document.querySelector('.cell.current'), document.getElementById('grid-input')]"
        ".map(el => { const r = el.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top)]; })"
    )
    assert box[0] == box[1]
    p.page.keyboard.type("X")
    assert p.letter(*word.cells()[-1]) == "X"
    assert p.page.evaluate("document.documentElement.scrollWidth") <= 390


def test_phone_small_grid_still_fits(open_page):
    p = open_page("kitchen-herbs", **PHONE)
    grid, board = p.page.evaluate(
        "['.grid', '.board'].map(s => document.querySelector(s).getBoundingClientRect().right)"
    )
    assert grid <= board + 1
    assert seen(p, f"#{cell_id(max(p.layout.cells, key=lambda rc: rc[1]))}") is True
    assert p.page.evaluate("document.documentElement.scrollWidth") <= 390


def test_narrowest_phone_toolbar_fits(open_page):
    p = open_page("kitchen-herbs", viewport={"width": 320, "height": 640}, is_mobile=True, has_touch=True)
    assert p.page.evaluate("document.documentElement.scrollWidth") <= 320
    for name in ("Check", "Reveal", "Clear"):
        right = p.page.evaluate(f"[...document.querySelectorAll('summary')].find(s => s.textContent.trim() === '{name}').getBoundingClientRect().right")
        assert right <= 320, name


# ---------------------------------------------------------------- 9. phone keyboards


COMPOSE = """(steps) => {
    const input = document.getElementById('grid-input');
    input.focus();
    for (const [type, value, data] of steps) {
        if (type === 'start') { input.dispatchEvent(new CompositionEvent('compositionstart', {data: ''})); continue; }
        if (type === 'end') { input.dispatchEvent(new CompositionEvent('compositionend', {data})); continue; }
        const composing = type === 'compose';
        const inputType = composing ? 'insertCompositionText' : type;
        if (input.dispatchEvent(new InputEvent('beforeinput', {inputType, data, isComposing: composing, bubbles: true, cancelable: !composing}))) {
            input.value = value;
            input.dispatchEvent(new InputEvent('input', {inputType, data, isComposing: composing, bubbles: true}));
        }
    }
}"""


def test_android_composition_types_each_letter_once(open_page):
    p = open_page()
    word = next(q for q in p.layout.across if len(q.answer) >= 5)
    p.page.click(f"#clue-across-{word.number}")
    p.page.keyboard.press("Home")
    a = word.answer.lower()
    # the keyboard composes a word in the field, a letter at a time
    p.page.evaluate(COMPOSE, [["start", "", ""]] + [["compose", a[: i + 1], a[: i + 1]] for i in range(3)] + [["end", "", a[:3]]])
    assert [p.letter(*rc) for rc in word.cells()[:4]] == list(word.answer[:3]) + [""]
    assert p.current() == cell_id(word.cells()[3])
    # a plain insert, then Backspace with nothing in the field
    p.page.evaluate(COMPOSE, [["insertText", a[3], a[3]]])
    assert p.letter(*word.cells()[3]) == word.answer[3]
    p.page.evaluate(COMPOSE, [["deleteContentBackward", "", None]])
    assert p.current() == cell_id(word.cells()[3])
    assert p.letter(*word.cells()[3]) == ""
    # a composition that corrects itself ("ab" -> "a" -> "ac") ends as the last text it showed
    p.page.evaluate(COMPOSE, [["start", "", ""], ["compose", "x", "x"], ["compose", "xy", "xy"], ["compose", "x", "x"],
                              ["compose", "xz", "xz"], ["end", "", "xz"]])
    assert p.letter(*word.cells()[3]) == "X" and p.letter(*word.cells()[4]) == "Z"


def test_ime_composition_in_chromium_types_each_letter_once(open_page):
    # Chromium's own composition path (what an Android keyboard drives), through the DevTools protocol
    p = open_page(**PHONE)
    word = next(q for q in p.layout.across if len(q.answer) >= 4)
    p.page.tap(f"#{cell_id(word.cells()[0])}")
    if p.active_clue() != f"clue-across-{word.number}":
        p.page.tap(f"#{cell_id(word.cells()[0])}")
    a = word.answer.lower()
    cdp = p.context.new_cdp_session(p.page)
    for text in (a[0], a[:2], a[:2] + "q", a[:3]):  # a slip, taken back and corrected
        cdp.send("Input.imeSetComposition", {"text": text, "selectionStart": len(text), "selectionEnd": len(text)})
    cdp.send("Input.insertText", {"text": a[:3]})  # the keyboard commits the word
    cdp.send("Input.insertText", {"text": a[3]})
    assert [p.letter(*rc) for rc in word.cells()[:4]] == list(word.answer[:4])
    assert p.page.locator(".cell.filled").count() == 4
    assert p.page.input_value("#grid-input") == ""


# ---------------------------------------------------------------- 10. accessibility


def test_cells_say_their_letter_and_clues_are_buttons(open_page):
    p = open_page()
    word = p.layout.across[0]
    r, c = word.cells()[0]
    p.page.click(f"#clue-across-{word.number}")
    p.page.keyboard.press("Home")
    before = p.page.get_attribute(f"#cell-{r}-{c}", "aria-label")
    p.page.keyboard.type(word.answer[0])
    after = p.page.get_attribute(f"#cell-{r}-{c}", "aria-label")
    assert not re.search(rf"\b{word.answer[0]}\b", before.split(":", 1)[1]), before
    assert re.search(rf"\b{word.answer[0]}\b", after.split(":", 1)[1]), after
    # every clue is a button, named by its number, direction and clue, and it works from the keyboard
    buttons = p.page.get_by_role("button", name=re.compile(r"^\d+ (Across|Down)\b"))
    assert buttons.count() == len(p.layout.placements)
    last = p.layout.down[-1]
    button = p.page.get_by_role("button", name=re.compile(rf"^{last.number} Down\b"))
    button.focus()
    p.page.keyboard.press("Enter")
    assert p.focused() == "grid-input"
    assert p.active_clue() == f"clue-down-{last.number}"


# ---------------------------------------------------------------- 11. wording


def test_status_wording_for_one_letter_and_clears_on_typing(open_page):
    p = open_page()
    word = p.layout.across[0]
    wrong = "Q" if word.answer[0] != "Q" else "Z"
    p.page.click(f"#clue-across-{word.number}")
    p.page.keyboard.press("Home")
    p.page.keyboard.type(wrong)
    p.page.keyboard.press("ArrowLeft")
    p.page.click("summary:has-text('Check')")
    p.page.click("[data-action='check-letter']")
    status = p.page.inner_text(".status")
    assert status and "this letter." not in status and "letters" not in status
    # typing again clears the message
    p.page.keyboard.type(word.answer[0])
    assert p.page.inner_text(".status") == ""
    p.page.keyboard.press("ArrowLeft")
    p.page.click("summary:has-text('Reveal')")
    p.page.click("[data-action='reveal-letter']")
    status = p.page.inner_text(".status")
    assert status and "Those" not in status and "letters" not in status
    p.page.click("summary:has-text('Check')")
    p.page.click("[data-action='check-letter']")
    assert "this letter." not in p.page.inner_text(".status")


def test_a_reload_while_solving_gives_the_grid_the_keyboard_back(open_page):
    """The watcher's live reload (or F5) mid-solve: typing goes on where it was, and the clock runs."""
    p = open_page()
    p.page.click("#cell-0-0") if p.page.query_selector("#cell-0-0") else p.page.click(".cell")
    p.page.keyboard.type("G")
    where = p.current()
    p.page.reload()
    p.page.wait_for_function("document.activeElement && document.activeElement.id === 'grid-input'", timeout=3000)
    assert p.current() == where
    p.page.keyboard.type("A")
    assert "A" in "".join(p.grid_letters().values())
    p.page.wait_for_timeout(1200)
    assert p.page.inner_text(".timer") != "0:00"


def test_a_plain_visit_does_not_take_the_keyboard(open_page):
    p = open_page()
    p.page.click(".cell")
    p.page.goto(p.url)  # a new visit, not a reload
    assert p.focused() != "grid-input"


# ---------------------------------------------------------------- 10. a second QA pass


def test_backspace_in_the_first_answer_erases_nothing_at_the_far_end(open_page):
    """There is no answer before the first: Backspace used to wrap round and erase the last answer's last letter."""
    p = open_page("kitchen-herbs")
    first, last = p.layout.across[0], (p.layout.down or p.layout.across)[-1]
    assert first.cells()[0] not in last.cells()
    p.solve(last)
    p.page.click(f"#clue-across-{first.number}")
    p.page.keyboard.press("Home")
    p.page.keyboard.press("Backspace")
    assert p.current() == cell_id(first.cells()[0])
    assert [p.letter(*rc) for rc in last.cells()] == list(last.answer)


SWITCH_TAB = """() => {
    if (!('__hidden' in window)) {
        window.__hidden = false;
        Object.defineProperty(document, 'hidden', {configurable: true, get: () => window.__hidden});
    }
    window.__hidden = true; document.dispatchEvent(new Event('visibilitychange'));
    window.__hidden = false; document.dispatchEvent(new Event('visibilitychange'));
}"""


def test_the_clock_runs_after_a_tab_switch_only_if_it_ran_before(open_page):
    p = open_page("kitchen-herbs")
    word = p.layout.across[0]
    p.solve(word)
    p.page.wait_for_timeout(1100)
    p.page.evaluate(SWITCH_TAB)  # while solving: the clock goes on
    p.page.wait_for_timeout(1100)
    assert p.page.inner_text(".timer") not in ("0:00", "0:01")
    p.page.evaluate("document.activeElement.blur()")
    p.page.reload()  # saved progress, the grid left alone: the clock waits
    assert p.focused() != "grid-input"
    stopped = p.page.inner_text(".timer")
    p.page.evaluate(SWITCH_TAB)
    p.page.wait_for_timeout(1500)
    assert p.page.inner_text(".timer") == stopped


def test_typing_after_another_tab_cleared_the_solve_starts_the_clock(tabs):
    new_tab, layout = tabs
    a, b = new_tab(), new_tab()
    for tab in (a, b):
        tab.on("dialog", lambda d: d.accept())
    a.bring_to_front()
    a.click(".cell")
    a.click("summary:has-text('Reveal')")
    a.click("[data-action='reveal-puzzle']")
    assert a.inner_text(".solved") == "Puzzle revealed."
    b.click("summary:has-text('Clear')")
    b.click("[data-action='clear-puzzle']")
    a.wait_for_function("[...document.querySelectorAll('.cell .letter')].every(el => el.textContent === '')", timeout=3000)
    a.bring_to_front()
    assert a.evaluate("document.activeElement.id") == "grid-input"
    a.keyboard.type(layout.across[0].answer[:2])
    a.wait_for_timeout(1300)
    assert a.inner_text(".timer") != "0:00"

def test_on_a_phone_the_clue_bar_never_covers_the_selected_square(open_page):
    p = open_page("world-capitals", viewport={"width": 320, "height": 640}, is_mobile=True, has_touch=True)
    longest = sorted(p.layout.placements, key=lambda q: (-len(q.entry.clue), q.number))[:6]
    for q in longest:
        p.page.click(f"#clue-{q.direction.value}-{q.number}")
        bar = p.page.evaluate("document.querySelector('.clue-bar').getBoundingClientRect().bottom")
        top = p.page.evaluate("document.querySelector('.cell.current').getBoundingClientRect().top")
        assert top >= bar - 1, (q.number, q.direction.value, top, bar)


def test_a_printed_page_keeps_walled_in_squares_grey(open_page):
    """Browsers print no backgrounds unless a rule says so; the holes would print as squares to fill."""
    p = open_page("kitchen-herbs")
    p.page.emulate_media(media="print")
    style = p.page.evaluate(
        "(() => { const s = getComputedStyle(document.querySelector('.void.hole'));"
        " return [s.backgroundColor, s.printColorAdjust || s.webkitPrintColorAdjust]; })()"
    )
    assert style == ["rgb(187, 187, 187)", "exact"]


def test_on_paper_the_licence_is_one_small_line_under_the_clues(open_page):
    """The screen's footer (rule, padding, margin) printed the licence of a page the clues all but filled
    (solar-system's on letter paper) on a second sheet of its own."""
    p = open_page("kitchen-herbs")
    p.page.emulate_media(media="print")
    clues, footer, licence, line = p.page.evaluate("""() => {
        const box = sel => document.querySelector(sel).getBoundingClientRect();
        return [box('.clues').bottom, box('.site-footer'), box('.site-footer .licence').height,
                parseFloat(getComputedStyle(document.querySelector('.site-footer')).lineHeight) ||
                1.2 * parseFloat(getComputedStyle(document.querySelector('.site-footer')).fontSize)];
    }""")
    assert licence > 0 and footer["height"] <= line + 1, (footer, line)  # one line, no padding
    assert footer["y"] - clues <= 3 * 96 / 25.4, (footer, clues)  # 3 mm at most below the clues
    assert p.page.evaluate("getComputedStyle(document.querySelector('.site-footer')).borderTopStyle") == "none"


# ---------------------------------------------------------------- 11. a third QA pass


def test_a_full_storage_never_takes_back_what_this_tab_could_not_save(open_page):
    p = open_page("kitchen-herbs")
    word = p.layout.across[0]
    p.page.click(f"#clue-across-{word.number}")
    p.page.keyboard.press("Home")
    p.page.keyboard.type(word.answer[:2])  # saved
    p.page.evaluate("() => { Storage.prototype.setItem = () => { throw new DOMException('full', 'QuotaExceededError'); }; }")
    p.page.keyboard.type(word.answer[2:])  # not saved: the storage is full
    p.page.evaluate(SWITCH_TAB)  # coming back reads the storage: its older state must not win
    assert [p.letter(*rc) for rc in word.cells()] == list(word.answer)


def test_a_browser_that_keeps_nothing_says_so_as_the_page_opens(open_page):
    """Storage turned off: every reload started from nothing, and nothing said the letters were not kept."""
    p = open_page("kitchen-herbs")
    assert p.page.inner_text(".status") == ""
    p.context.add_init_script("Object.defineProperty(window, 'localStorage', {get() { throw new DOMException('off', 'SecurityError'); }});")
    p.page.reload()
    assert "not keeping your progress" in p.page.inner_text(".status")
    word = p.layout.across[0]
    p.page.click(f"#clue-across-{word.number}")
    p.page.keyboard.type(word.answer[:2])
    assert p.page.inner_text(".status") == ""  # said once: typing on clears it, as any message


def test_a_full_storage_that_still_takes_this_puzzles_save_says_nothing_as_the_page_opens(open_page):
    """The opening probe writes a key of its own, which a full storage refuses though it still takes this
    puzzle's save in place: with a save to read, only a save that fails says so."""
    p = open_page("kitchen-herbs")
    word = p.layout.across[0]
    p.page.click(f"#clue-across-{word.number}")
    p.page.keyboard.press("Home")
    p.page.keyboard.type(word.answer[:2])
    p.context.add_init_script("""(() => { const set = Storage.prototype.setItem;
        Storage.prototype.setItem = function (k, v) {
            if (this.getItem(k) === null) throw new DOMException('full', 'QuotaExceededError');
            return set.call(this, k, v); }; })();""")
    p.page.reload()
    assert p.page.inner_text(".status") == ""
    assert [p.letter(*rc) for rc in word.cells()][:2] == list(word.answer[:2])
    p.page.keyboard.type(word.answer[2])  # saved in place: still nothing to say
    assert p.page.inner_text(".status") == ""


def test_a_storage_that_fills_up_says_once_that_the_letters_are_not_kept(open_page):
    p = open_page("kitchen-herbs")
    assert p.page.inner_text(".status") == ""
    p.page.evaluate("() => { Storage.prototype.setItem = () => { throw new DOMException('full', 'QuotaExceededError'); }; }")
    word = p.layout.across[0]
    p.page.click(f"#clue-across-{word.number}")
    p.page.keyboard.press("Home")
    p.page.keyboard.type(word.answer[0])
    assert "not keeping your progress" in p.page.inner_text(".status")
    p.page.keyboard.type(word.answer[1:3])
    assert p.page.inner_text(".status") == ""


def test_turning_a_phone_keeps_the_cursor_in_sight(open_page):
    p = open_page("world-capitals", viewport={"width": 844, "height": 390}, is_mobile=True, has_touch=True)
    right = max(p.layout.cells, key=lambda rc: (rc[1], -rc[0]))
    p.page.tap(f"#{cell_id(right)}")
    p.page.set_viewport_size({"width": 390, "height": 844})
    p.page.wait_for_timeout(300)
    assert seen(p, f"#{cell_id(right)}") is True
    # the address bar hiding as the solver scrolls down to the clues: a new height alone leaves the page be
    p.page.evaluate("window.scrollTo(0, 1500)")
    before = p.page.evaluate("window.scrollY")
    assert before > 500
    p.page.set_viewport_size({"width": 390, "height": 900})
    p.page.wait_for_timeout(300)
    assert p.page.evaluate("window.scrollY") == before


def test_solving_is_announced(open_page):
    """The solved box appears as the puzzle is solved; a live region that appears is not read out, so the
    screen-reader announcer (always there) says it."""
    p = open_page("kitchen-herbs")
    dispatch_words(p, p.layout.placements)
    assert p.page.text_content("#announce").startswith("Solved! Your time:")


def test_tabbing_out_of_a_menu_closes_it_and_arrows_move_inside(open_page):
    p = open_page("kitchen-herbs")
    p.page.focus("summary:has-text('Check')")
    p.page.keyboard.press("Enter")
    assert p.page.evaluate("document.querySelector('details.menu').open")
    p.page.keyboard.press("ArrowDown")
    first = p.page.evaluate("document.activeElement.textContent.trim()")
    p.page.keyboard.press("ArrowDown")
    second = p.page.evaluate("document.activeElement.textContent.trim()")
    assert first and second and first != second
    for _ in range(6):
        p.page.keyboard.press("Tab")
    assert not p.page.evaluate("[...document.querySelectorAll('details.menu')].some(m => m.open)")


def test_the_pause_button_is_named_for_what_it_does_and_is_not_a_toggle(open_page):
    # it was 'Resume' and pressed at once: "Resume, toggle button, pressed" contradicts itself
    p = open_page("kitchen-herbs")
    p.page.click(".cell")
    assert p.page.locator(".timer-box").aria_snapshot().splitlines()[-1].strip() == '- button "Pause"'
    p.page.click("[data-action='pause']")
    assert p.page.locator(".timer-box").aria_snapshot().splitlines()[-1].strip() == '- button "Resume"'
    assert p.page.get_attribute("[data-action='pause']", "aria-pressed") is None


def test_escape_leaves_the_grid_for_the_current_clue_and_still_closes_a_menu(open_page):
    # Tab goes from clue to clue and leaves the grid only after the last one (131 presses to the
    # downloads of a 60-answer puzzle): Escape is the way out in one key
    p = open_page("kitchen-herbs")
    p.page.focus("#grid-input")
    p.page.keyboard.press("Tab")
    clue = p.active_clue()
    p.page.keyboard.press("Home")
    p.page.keyboard.press("ArrowRight" if "across" in clue else "ArrowDown")  # not the clue's first empty square
    square = p.current()
    p.page.keyboard.press("Escape")
    assert p.page.evaluate("document.activeElement.className") == "clue-button"
    assert p.page.evaluate("document.activeElement.closest('li').id") == clue
    p.page.keyboard.press("Enter")  # and back, to the square it left
    assert p.focused() == "grid-input" and p.active_clue() == clue and p.current() == square
    # once back in the grid by any way, the clue's button goes to its first empty square again
    p.page.keyboard.press("Escape")
    p.page.click(f"#{square}")
    p.page.keyboard.press("Home")
    p.page.click(f"#{clue}")
    assert p.current() != square
    assert "Escape leaves the grid" in p.page.inner_text(".hint")
    # in an open menu Escape closes the menu, as before
    p.page.focus("summary:has-text('Check')")
    p.page.keyboard.press("Enter")
    p.page.keyboard.press("ArrowDown")
    p.page.keyboard.press("Escape")
    assert not p.page.evaluate("[...document.querySelectorAll('details.menu')].some(m => m.open)")
    assert p.page.evaluate("document.activeElement.textContent") == "Check"


def test_menu_buttons_are_named_without_their_arrow(open_page):
    p = open_page("kitchen-herbs")
    names = p.page.evaluate("""() => [...document.querySelectorAll('details.menu summary')].map(s => {
        const c = getComputedStyle(s, '::after').content; return [s.textContent.trim(), c]; })""")
    assert [n for n, _ in names] == ["Check", "Reveal", "Clear"]
    assert all(c.endswith('/ ""') for _, c in names), names


def test_a_long_paste_saves_once(open_page):
    p = open_page("world-capitals")
    # a paste fills the answer it starts in, and stops at its end: one of ten letters or more
    word = next(q for q in p.layout.placements if len(q.answer) >= 10)
    p.page.click(f"#clue-{word.direction.value}-{word.number}")
    calls = p.page.evaluate("""() => {
        let n = 0; const real = Storage.prototype.setItem;
        Storage.prototype.setItem = function (k, v) { n++; return real.call(this, k, v); };
        const input = document.getElementById('grid-input');
        input.value = 'abcdefghijklmnopqrstuvwxyzabcdefghij';
        input.dispatchEvent(new InputEvent('input', {inputType: 'insertFromPaste', bubbles: true}));
        return n;
    }""")
    assert calls == 1
    assert len([ch for ch in p.grid_letters().values() if ch]) >= 10


def test_a_saved_state_with_foreign_letters_is_ignored(open_page):
    p = open_page("kitchen-herbs")
    key = p.page.evaluate("JSON.parse(document.getElementById('puzzle-data').textContent).storageKey")
    n = len(p.layout.cells)
    p.page.evaluate(f"""localStorage.setItem('{key}', JSON.stringify({{v: 1, letters: '<'.repeat({n}),
        revealed: '0'.repeat({n}), wrong: '0'.repeat({n}), elapsed: 5000, solved: false, cursor: null}}))""")
    p.page.reload()
    assert set(p.grid_letters().values()) == {""}
    assert p.page.inner_text(".timer") == "0:00"


def test_moving_along_an_answer_is_announced(open_page):
    p = open_page("kitchen-herbs")
    word = next(q for q in p.layout.across if len(q.answer) >= 4)
    p.page.click(f"#clue-across-{word.number}")
    p.page.keyboard.press("Home")
    p.page.keyboard.type(word.answer[0])  # the cursor moves on to letter 2
    p.page.keyboard.press("ArrowLeft")
    assert p.page.text_content("#announce") == f"Letter 1 of {len(word.answer)}, {word.answer[0]}"
    p.page.keyboard.press("ArrowRight")
    assert p.page.text_content("#announce") == f"Letter 2 of {len(word.answer)}, blank"


@pytest.mark.parametrize("key", ["Backspace", "Delete"])
def test_a_letter_erased_where_the_cursor_stays_is_announced(open_page, key):
    """Backspace or Delete on a filled square moves nothing, so nothing was said: the erasure went unheard."""
    p = open_page("kitchen-herbs")
    word = next(q for q in p.layout.across if len(q.answer) >= 4)
    p.page.click(f"#clue-across-{word.number}")
    p.page.keyboard.press("Home")
    p.page.keyboard.type(word.answer[:2])
    p.page.keyboard.press("ArrowLeft")
    assert p.page.text_content("#announce") == f"Letter 2 of {len(word.answer)}, {word.answer[1]}"
    p.page.keyboard.press(key)
    assert p.letter(*word.cells()[1]) == ""
    assert p.page.text_content("#announce") == f"Letter 2 of {len(word.answer)}, blank"


def test_every_move_is_announced_once_with_the_clue_when_the_answer_changes(open_page):
    # only an arrow along an answer said the cursor's place: typing a letter said nothing, and moving into
    # another answer (typing past its end, an arrow) said the clue without the place
    p = open_page("kitchen-herbs")
    clues = {e["id"]: e["clue"] for e in p.page.evaluate("JSON.parse(document.getElementById('puzzle-data').textContent).entries")}
    placements = {f"clue-{q.direction.value}-{q.number}": q for q in p.layout.placements}

    def expected(with_clue: bool) -> str:
        q = placements[p.active_clue()]
        rc = tuple(map(int, p.current().split("-")[1:]))
        letter = p.letter(*rc)
        place = f"Letter {q.cells().index(rc) + 1} of {len(q.answer)}, {letter or 'blank'}"
        return f"{q.number} {q.direction.value.capitalize()}: {clues[p.active_clue()]}. {place}" if with_clue else place

    p.page.evaluate("""() => { window.said = 0;
        new MutationObserver(m => { window.said += m.length; }).observe(document.getElementById('announce'), {childList: true}); }""")

    def press(key: str, with_clue: bool) -> None:
        p.page.evaluate("window.said = 0")
        p.page.keyboard.press(key)
        assert p.page.text_content("#announce") == expected(with_clue), key
        assert p.page.evaluate("window.said") == 1, key  # said once, not the clue and then the place

    word = p.layout.placements[0]
    p.page.click(f"#clue-{word.direction.value}-{word.number}")
    # the keyboard comes to the grid: the field's name says where it is, the announcer nothing more
    assert p.page.get_attribute("#grid-input", "aria-label") == expected(True) + "."
    assert p.page.text_content("#announce") == ""
    for ch in word.answer[:-1]:
        press(ch, False)
    press(word.answer[-1], True)  # on into the next answer
    assert p.active_clue() != f"clue-{word.direction.value}-{word.number}"
    press("Tab", True)
    press("Shift+Tab", True)
    press("Home", False)
    press("Backspace", True)  # back into the answer before, whose last letter it erases: said as it is now
    assert p.page.text_content("#announce").endswith(", blank")
    press("ArrowLeft" if word.direction.value == "across" else "ArrowUp", False)
    # a click on a square of another answer
    other = next(q for q in p.layout.placements[1:] if p.current() not in {cell_id(rc) for rc in q.cells()})
    p.page.click(f"#{cell_id(other.cells()[-1])}")
    if p.active_clue() != f"clue-{other.direction.value}-{other.number}":
        p.page.click(f"#{cell_id(other.cells()[-1])}")
    assert p.page.text_content("#announce") == expected(True)


def test_the_solved_news_is_not_talked_over_by_the_rest_of_the_input_that_solved(open_page):
    """A paste (or a phone's keyboard) that fills the last gap in the middle of a word, then goes on over
    the word's last letters: its later moves used to say 'Letter n of m' over 'Solved!'."""
    p = open_page()
    crossed = {rc for q in p.layout.placements for rc in q.cells()}
    crossed = {rc for rc in crossed if sum(rc in q.cells() for q in p.layout.placements) > 1}
    word, gap = next((q, i) for q in sorted(p.layout.placements, key=lambda q: -len(q.answer))
                     for i in range(1, len(q.answer) - 1) if q.cells()[i] not in crossed)
    others = [q for q in p.layout.placements if q is not word]
    dispatch_words(p, others)
    p.page.click(f"#clue-{word.direction.value}-{word.number}")
    p.page.keyboard.press("Home")
    p.page.keyboard.type(word.answer[:gap])
    p.page.keyboard.press("ArrowRight" if word.direction.value == "across" else "ArrowDown")
    p.page.keyboard.type(word.answer[gap + 1:])
    p.page.click(f"#{cell_id(word.cells()[gap])}")
    if p.active_clue() != f"clue-{word.direction.value}-{word.number}":
        p.page.click(f"#{cell_id(word.cells()[gap])}")
    assert not p.page.is_visible(".solved")
    p.page.keyboard.insert_text(word.answer[gap:])  # the gap's letter, then on over the letters after it
    assert p.page.is_visible(".solved")
    assert p.page.text_content("#announce").startswith("Solved!"), p.page.text_content("#announce")
    p.page.keyboard.press("Home")  # the next keystroke is news again
    assert p.page.text_content("#announce").startswith("Letter 1 of")


@pytest.mark.parametrize("width", [320, 390])
def test_long_unbroken_words_wrap_instead_of_widening_the_page(open_page, width):
    p = open_page("long-words", viewport={"width": width, "height": 700}, is_mobile=True, has_touch=True)
    p.page.evaluate("document.querySelector('details.notes').open = true")
    # a phone lays the page out wider than its screen when the content is wider (innerWidth grows too):
    # compare with the screen's width
    wide = p.page.evaluate("""w => [document.documentElement.scrollWidth,
        [...document.querySelectorAll('h1, .byline > *, .description, .clue-text, .notes p, .copyright')]
          .filter(el => el.getBoundingClientRect().right > w + 1).map(el => el.className || el.tagName)]""", width)
    assert wide[0] <= width and not wide[1], wide


def test_desktop_long_clue_wraps_inside_its_list(open_page):
    p = open_page("long-words", **DESKTOP)
    for q in p.layout.placements:
        clue = f"#clue-{q.direction.value}-{q.number} .clue-text"
        p.page.evaluate("sel => document.querySelector(sel).scrollIntoView({block: 'center'})", clue)
        assert seen(p, clue) is True, seen(p, clue)


def test_the_selected_clue_is_aria_current(open_page):
    p = open_page("allotment", **DESKTOP)
    p.page.focus("#grid-input")
    for q in list(p.layout.placements[1:]) + [p.layout.placements[0]]:
        p.page.keyboard.press("Tab")
        current = p.page.evaluate("[...document.querySelectorAll('[aria-current]')].map(b => b.closest('li').id)")
        assert current == [p.active_clue()], current


def test_on_a_phone_a_long_clue_shows_three_lines_until_tapped(open_page):
    p = open_page("long-words", **PHONE)
    angel = next(q for q in p.layout.placements if q.entry.answer == "ANGEL")
    other = next(q for q in p.layout.placements if q.entry.answer != "ANGEL")
    p.page.click(f"#clue-{angel.direction.value}-{angel.number}")
    line = p.page.evaluate("parseFloat(getComputedStyle(document.querySelector('.clue-bar-text')).lineHeight)")
    folded = p.page.evaluate("document.querySelector('.clue-bar').getBoundingClientRect().height")
    assert folded < 3 * line + 30, (folded, line)
    p.page.click(".clue-bar-text")
    opened = p.page.evaluate("document.querySelector('.clue-bar').getBoundingClientRect().height")
    assert opened > folded + line, (opened, folded)
    # another clue starts folded again
    p.page.click(f"#clue-{other.direction.value}-{other.number}")
    p.page.click(f"#clue-{angel.direction.value}-{angel.number}")
    assert p.page.evaluate("document.querySelector('.clue-bar').getBoundingClientRect().height") == folded


def _long_clue_in_the_bar(p):
    """ANGEL's clue selected: the placement, and the bar text's line height, shown height and whole height."""
    angel = next(q for q in p.layout.placements if q.entry.answer == "ANGEL")
    p.page.click(f"#clue-{angel.direction.value}-{angel.number}")
    return angel, p.page.evaluate("""() => {
        const el = document.querySelector('.clue-bar-text');
        return [parseFloat(getComputedStyle(el).lineHeight), el.getBoundingClientRect().height, el.scrollHeight];
    }""")


def test_on_a_wide_screen_a_long_clue_shows_four_lines_until_clicked(open_page):
    """The bar grew with its clue (857 px for 2,000 characters) and pushed the grid out of the window."""
    p = open_page("long-words", **DESKTOP)
    angel, (line, shown, whole) = _long_clue_in_the_bar(p)
    assert whole > 4 * line + 1 and abs(shown - 4 * line) <= 1, (whole, shown, line)
    assert p.page.evaluate(f"document.getElementById('{cell_id(angel.cells()[0])}').getBoundingClientRect().bottom") < 800
    p.page.click(".clue-bar-text")
    assert p.page.evaluate("document.querySelector('.clue-bar-text').getBoundingClientRect().height") >= whole - 1
    assert p.page.evaluate("document.activeElement.id") == "grid-input"  # the keys stay with the grid


def test_on_a_phone_a_folded_clue_shows_nothing_of_its_fourth_line(open_page):
    # the clamped text had its vertical padding inside its clipping box: the top of a fourth line showed
    # in the bottom padding, over the grid
    p = open_page("long-words", **PHONE)
    angel, (line, shown, whole) = _long_clue_in_the_bar(p)
    assert whole > 3 * line + 1, (whole, line)  # clamped: there is more than three lines of it
    assert abs(shown - 3 * line) <= 1, (shown, line)  # and what shows is exactly three lines, to its clipping edge


LUMINANCE = """([sel, prop]) => {
    const m = getComputedStyle(document.querySelector(sel))[prop].match(/[\\d.]+/g).map(Number);
    const lin = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(m[0]) + 0.7152 * lin(m[1]) + 0.0722 * lin(m[2]);
}"""


def contrast(a: float, b: float) -> float:
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def test_a_dark_screen_gets_a_dark_page_with_readable_letters_and_a_light_print(open_page):
    p = open_page("allotment", color_scheme="dark", **DESKTOP)
    first = p.layout.placements[0]
    p.page.click(f"#{cell_id(first.cells()[1])}")
    p.page.keyboard.type("Q")
    cell = f"#{cell_id(first.cells()[1])}"
    page_bg = p.page.evaluate(LUMINANCE, ["html", "backgroundColor"])
    for sel in (cell, f"#{cell_id(first.cells()[0])}", f"#{cell_id(first.cells()[-1])}"):
        square, letter = p.page.evaluate(LUMINANCE, [sel, "backgroundColor"]), p.page.evaluate(LUMINANCE, [sel + " .letter", "color"])
        assert square < 0.2 and contrast(square, letter) >= 4.5, (sel, square, letter)
    assert page_bg < 0.05
    clue = p.page.evaluate(LUMINANCE, [".clue-list li .clue-text", "color"])
    assert contrast(page_bg, clue) >= 7
    # a print is black on white whatever the screen
    p.page.emulate_media(media="print")
    assert p.page.evaluate(LUMINANCE, [cell, "backgroundColor"]) > 0.95
    assert p.page.evaluate(LUMINANCE, [cell + " .letter", "color"]) < 0.05
    light = open_page("allotment", **DESKTOP)
    assert light.page.evaluate(LUMINANCE, ["html", "backgroundColor"]) > 0.9  # and a light screen keeps its light page


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_marked_letters_and_numbers_stay_readable_under_the_cursor(open_page, scheme):
    # on the dark amber cursor a wrong letter was 1.99:1, a revealed one 2.77:1, the square's number 4.07:1;
    # on the light yellow one a wrong letter was 4.02:1
    p = open_page("allotment", color_scheme=scheme, **DESKTOP)
    word = p.layout.placements[0]
    first, third = (f"#{cell_id(rc)}" for rc in (word.cells()[0], word.cells()[2]))
    p.page.click(f"#clue-{word.direction.value}-{word.number}")
    p.page.keyboard.press("Home")
    p.page.keyboard.type("Q" if word.answer[0] != "Q" else "Z")
    p.page.click("summary:has-text('Check')")
    p.page.click("[data-action='check-word']")
    p.page.click(third)
    p.page.click("summary:has-text('Reveal')")
    p.page.click("[data-action='reveal-letter']")
    assert "wrong" in p.page.get_attribute(first, "class") and "revealed" in p.page.get_attribute(third, "class")

    def ratios(sel):
        square = p.page.evaluate(LUMINANCE, [sel, "backgroundColor"])
        parts = [sel + " .letter"] + ([sel + " .num"] if p.page.locator(sel + " .num").count() else [])
        return {part: round(contrast(square, p.page.evaluate(LUMINANCE, [part, "color"])), 2) for part in parts}

    looks = {}
    p.page.click(f"#clue-{word.direction.value}-{word.number}")
    for cursor, keys in ((first, ["Home"]), (third, ["ArrowRight", "ArrowRight"])):
        for key in keys:  # each marked square under the cursor, the other one in the selected word
            p.page.keyboard.press(key)
        assert p.current() == cursor[1:] and p.active_clue() == f"clue-{word.direction.value}-{word.number}"
        looks.update({f"{sel} ({'cursor' if sel == cursor else 'word'})": ratios(sel) for sel in (first, third)})
    # and both away from the selection
    away = next(q for q in p.layout.placements if not set(q.cells()) & {word.cells()[0], word.cells()[2]})
    p.page.click(f"#clue-{away.direction.value}-{away.number}")
    looks.update({f"{sel} (elsewhere)": ratios(sel) for sel in (first, third)})
    assert len(looks) == 6
    low = {where: r for where, r in looks.items() if min(r.values()) < 4.5}
    assert not low, low


def test_unfolding_the_clue_bar_keeps_the_keyboard_on_the_grid(open_page):
    p = open_page("long-words", **PHONE)
    angel = next(q for q in p.layout.placements if q.entry.answer == "ANGEL")
    p.page.click(f"#clue-{angel.direction.value}-{angel.number}")
    assert p.page.evaluate("document.activeElement.id") == "grid-input"
    p.page.tap(".clue-bar-text")
    assert p.page.evaluate("document.querySelector('.clue-bar').classList.contains('open')")
    assert p.page.evaluate("document.activeElement.id") == "grid-input"
    p.page.keyboard.type("A")
    assert p.letter(*angel.cells()[0]) == "A"


def test_scrolling_the_page_leaves_a_browsed_clue_list_where_it_is(open_page):
    p = open_page("world-capitals", viewport={"width": 1366, "height": 650})
    p.page.focus("#grid-input")
    lists = "[...document.querySelectorAll('.clue-list ol')]"
    p.page.evaluate(f"{lists}[0].scrollTop = 400")
    before = p.page.evaluate(f"{lists}[0].scrollTop")
    assert before > 0
    p.page.mouse.move(300, 400)
    p.page.mouse.wheel(0, 40)
    p.page.wait_for_timeout(150)
    p.page.mouse.wheel(0, -40)
    p.page.wait_for_timeout(150)
    assert p.page.evaluate(f"{lists}[0].scrollTop") == before


def write_archive(folder, infos) -> None:
    """The index, tag pages and feed of these puzzles, with the site's static files, into `folder`."""
    from site_builder.config import SiteConfig
    from site_builder.render.pages import site_pages

    for name, data in {**site_pages(infos, SiteConfig()), **static_files()}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode())


def test_archive_cards_keep_a_short_author_whole_and_a_long_one_inside_a_phone(browser, tmp_path):
    from site_builder.site import PuzzleInfo

    infos = []
    for slug, author in (("short", "The Crossword Press"), ("long", "Zoe.OBrien.at.example.org.crosswords.press")):
        puzzle = load_puzzle(SMALL.replace("author: Test Setter", f"author: {author}"), slug=slug)
        infos.append(PuzzleInfo(puzzle, _build(tmp_path, puzzle)))
    write_archive(tmp_path, infos)
    context = browser.new_context(viewport={"width": 320, "height": 700}, is_mobile=True)
    page = context.new_page()
    page.goto((tmp_path / "index.html").as_uri())
    rects = page.evaluate("[...document.querySelectorAll('.meta .author')].map(e => [e.textContent, e.getClientRects().length,"
                          " Math.round(e.getBoundingClientRect().right)])")
    width = page.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert width <= 320, width
    short = next(r for r in rects if r[0].startswith("The Crossword"))
    assert short[1] == 1 and all(r[2] <= 320 for r in rects), rects


# ---------------------------------------------------------------- 14. pointer, forced colours, full grid


def crossing_cells(p: Page) -> list[tuple[int, int]]:
    across = {cell for q in p.layout.across for cell in q.cells()}
    return sorted(cell for q in p.layout.down for cell in q.cells() if cell in across)


CENTRE = "(sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }"


def test_a_clicked_square_stays_under_the_pointer_so_a_second_click_turns(open_page):
    p = open_page("world-capitals", **DESKTOP)
    p.page.focus("#grid-input")
    cell = f"#{cell_id(crossing_cells(p)[len(crossing_cells(p)) // 2])}"
    # the square just inside the top of the window, where the cursor's scroll margin used to pull the page
    p.page.evaluate(f"window.scrollTo(0, document.querySelector('{cell}').getBoundingClientRect().top + scrollY - 20)")
    before = p.page.evaluate("scrollY")
    x, y = p.page.evaluate(CENTRE, cell)
    p.page.mouse.click(x, y)
    first = (p.current(), p.active_clue())
    p.page.mouse.click(x, y)
    second = (p.current(), p.active_clue())
    assert p.page.evaluate("scrollY") == before
    assert first[0] == second[0] == cell[1:]
    assert first[1] != second[1]  # the same square, the other direction
    # the keyboard still brings the cursor on screen: up to the top row, the page follows
    for _ in range(30):
        p.page.keyboard.press("ArrowUp")
    assert seen(p, ".cell.current") is True


def test_a_tapped_square_stays_under_the_finger_in_a_sideways_grid(open_page):
    p = open_page("world-capitals", **PHONE)
    assert p.page.evaluate("document.querySelector('.player').classList.contains('grid-scrolls')")
    frame = p.page.evaluate("(() => { const r = document.querySelector('.grid-scroll').getBoundingClientRect(); return [r.left, r.right]; })()")
    # a crossing square by the right edge of the part of the grid on screen
    target = max(
        (c for c in crossing_cells(p) if p.page.evaluate(CENTRE, f"#{cell_id(c)}")[0] < frame[1] - 12),
        key=lambda c: p.page.evaluate(CENTRE, f"#{cell_id(c)}")[0],
    )
    sel = f"#{cell_id(target)}"
    p.page.evaluate(f"document.querySelector('{sel}').scrollIntoView({{block: 'center', inline: 'nearest'}})")
    x, y = p.page.evaluate(CENTRE, sel)
    left = p.page.evaluate("document.querySelector('.grid-scroll').scrollLeft")
    p.page.touchscreen.tap(x, y)
    first = (p.current(), p.active_clue())
    p.page.touchscreen.tap(x, y)
    second = (p.current(), p.active_clue())
    assert p.page.evaluate("document.querySelector('.grid-scroll').scrollLeft") == left
    assert first[0] == second[0] == sel[1:] and first[1] != second[1]
    # no browser tap flash over the cursor's own colour
    assert p.page.evaluate(f"getComputedStyle(document.querySelector('{sel}')).webkitTapHighlightColor") == "rgba(0, 0, 0, 0)"


def test_a_full_grid_with_a_wrong_letter_keeps_saying_so(open_page):
    p = open_page()
    q = p.layout.across[0]
    r, c = q.cells()[0]
    notice = "Every square is filled"
    for other in p.layout.placements:
        if other is not q:
            p.solve(other)
    # the last answer with a wrong first letter, another wrong letter, then that same letter again
    for wrong in ("Q" if q.answer[0] != "Q" else "Z", "X" if q.answer[0] != "X" else "J", None):
        p.page.click(f"#clue-across-{q.number}")
        p.page.keyboard.press("Home")
        p.page.keyboard.type((wrong or p.letter(r, c)) + q.answer[1:])
        assert notice in p.page.inner_text(".status"), wrong
    p.page.click(f"#clue-across-{q.number}")
    p.page.keyboard.press("Home")
    p.page.keyboard.type(q.answer[0])
    assert "Solved" in p.page.inner_text(".solved, .status")


def test_forced_colours_still_show_the_cursor_the_word_and_the_clue(open_page):
    p = open_page("world-capitals", **DESKTOP)
    p.page.emulate_media(forced_colors="active")
    word = p.layout.across[0]
    p.page.click(f"#clue-across-{word.number}")
    style = "([sel, prop]) => getComputedStyle(document.querySelector(sel))[prop]"
    cur, other = f"#{cell_id(word.cells()[0])}", f"#{cell_id(word.cells()[1])}"
    outside = next(
        f"#{cell_id(c)}" for q in p.layout.down for c in q.cells() if c not in set(word.cells()) and q.number != word.number
    )
    plain = p.page.evaluate(style, [outside, "backgroundColor"])
    assert p.page.evaluate(style, [cur, "backgroundColor"]) != plain
    assert p.page.evaluate(style, [other, "boxShadow"]) != "none"
    assert p.page.evaluate(style, [outside, "boxShadow"]) == "none"
    active = p.page.evaluate(style, [f"#clue-across-{word.number}", "borderLeftColor"])
    rest = {p.page.evaluate(style, [f"#clue-across-{q.number}", "borderLeftColor"]) for q in p.layout.across[1:]}
    assert active not in rest


def test_menu_items_are_named_with_their_action(open_page):
    p = open_page()
    for name in ("Check letter", "Check word", "Check puzzle", "Reveal letter", "Reveal word", "Reveal puzzle", "Clear word", "Clear puzzle"):
        assert p.page.get_by_role("button", name=name, exact=True, include_hidden=True).count() == 1, name


def scroll_under_the_bar(p: Page, cell: str, lead: int) -> None:
    """Scroll the page so `cell` sits just under the phone's clue bar, stuck to the top of the screen (first
    `lead` pixels down the screen, so that the bar sticks, then up to its foot)."""
    p.page.evaluate(f"""() => {{
        const bar = document.querySelector('.clue-bar'), el = document.querySelector('{cell}');
        window.scrollBy(0, el.getBoundingClientRect().top - {lead});
        window.scrollBy(0, el.getBoundingClientRect().top - bar.getBoundingClientRect().bottom - 6);
    }}""")


def test_a_tapped_square_is_not_left_under_a_grown_clue_bar(open_page):
    p = open_page("long-words", **PHONE)
    angel = next(q for q in p.layout.placements if q.entry.answer == "ANGEL")
    short = next(q for q in p.layout.placements if q.entry.answer == "ONION")
    p.page.click(f"#clue-{short.direction.value}-{short.number}")
    others = {c for q in p.layout.placements if q is not angel for c in q.cells()}
    cell = f"#{cell_id(next(c for c in angel.cells() if c not in others))}"
    # the square just under the bar, which is stuck to the top of the screen and two lines tall
    scroll_under_the_bar(p, cell, 200)
    assert p.page.evaluate("getComputedStyle(document.querySelector('.clue-bar')).position") == "sticky"
    x, y = p.page.evaluate(CENTRE, cell)
    p.page.touchscreen.tap(x, y)
    assert p.active_clue() == f"clue-{angel.direction.value}-{angel.number}"  # its clue: three lines
    bar, top = p.page.evaluate(f"[document.querySelector('.clue-bar').getBoundingClientRect().bottom, "
                               f"document.querySelector('{cell}').getBoundingClientRect().top]")
    assert top >= bar, (top, bar)


def test_forced_colours_keep_the_cursors_letter_on_a_solved_grid(open_page):
    p = open_page()
    p.page.emulate_media(forced_colors="active", color_scheme="dark")
    for q in p.layout.placements:
        p.solve(q)
    first = p.layout.placements[0].cells()[0]
    p.page.click(f"#{cell_id(first)}")
    style = "([sel, prop]) => getComputedStyle(document.querySelector(sel))[prop]"
    sel = f"#{cell_id(first)}"
    assert p.page.evaluate(style, [sel, "backgroundColor"]) != p.page.evaluate(style, [sel + " .letter", "color"])


def test_a_phones_archive_keeps_many_tags_and_years_to_a_row_each(browser, tmp_path):
    from site_builder.site import PuzzleInfo

    infos = []
    for i in range(12):
        text = SMALL.replace("---\n", f"---\ntags: [topic-{i:02d}a, topic-{i:02d}b, topic-{i:02d}c]\n", 1)
        text = __import__("re").sub(r"date: \d{4}", f"date: {2015 + i}", text)
        puzzle = load_puzzle(text, slug=f"p{i:02d}")
        infos.append(PuzzleInfo(puzzle, _build(tmp_path, puzzle)))
    infos.sort(key=lambda info: info.puzzle.meta.date, reverse=True)
    write_archive(tmp_path, infos)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto((tmp_path / "index.html").as_uri())
    heights = page.evaluate("['.tags', '.years'].map(s => document.querySelector(s).getBoundingClientRect().height)")
    chip = page.evaluate("document.querySelector('.tags a').getBoundingClientRect().height")
    first = page.evaluate("document.querySelector('.card').getBoundingClientRect().top")
    width = page.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert all(h < 2 * chip for h in heights), (heights, chip)  # 36 tags, 12 years: a row each
    assert first < 400 and width <= 390, (first, width)  # the first puzzle on the first screen




# [right edge of the right-to-left letters, left edge of the final '(n)'] in an element
RTL_GEOMETRY = """(sel) => {
    const root = document.querySelector(sel), range = document.createRange();
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let right = -Infinity, last = null;
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
        last = node;
        [...node.textContent].forEach((ch, i) => {
            if (/[\u0590-\u08ff]/.test(ch)) { range.setStart(node, i); range.setEnd(node, i + 1);
                                              right = Math.max(right, range.getBoundingClientRect().right); }
        });
    }
    const open = last.textContent.lastIndexOf('(');
    range.setStart(last, open); range.setEnd(last, open + 1);
    return [right, range.getBoundingClientRect().left];
}"""


def test_a_right_to_left_clue_keeps_its_enumeration_after_it(browser, tmp_path):
    """Bidi would carry the '(9)' after a Hebrew or Arabic clue to its left, between number and clue."""
    for name, data in static_files().items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    layout = _build(tmp_path, load_puzzle(RTL, slug="capitals"))
    assert not layout.unplaced
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto((tmp_path / "capitals" / "index.html").as_uri())
        for p in layout.placements:
            if p.answer not in ("JERUSALEM", "CAIRO"):
                continue
            rtl_right, enum_left = page.evaluate(RTL_GEOMETRY, f"#clue-{p.direction.value}-{p.number} .clue-text")
            assert enum_left >= rtl_right - 0.5, f"{p.answer}: the enumeration shows left of the clue"
            # the clue bar above the grid too
            page.click(f"#clue-{p.direction.value}-{p.number}")
            assert page.inner_text(".clue-bar-clue").endswith(f"({len(p.answer)})")
            rtl_right, enum_left = page.evaluate(RTL_GEOMETRY, ".clue-bar-clue")
            assert enum_left >= rtl_right - 0.5, f"{p.answer}: the clue bar shows the enumeration left of the clue"
    finally:
        page.close()


# where `text` begins and ends in an element: [left, right] of its first and last character
TEXT_SPAN = """([sel, text]) => {
    const root = document.querySelector(sel), range = document.createRange();
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
        const at = node.textContent.indexOf(text);
        if (at < 0) continue;
        range.setStart(node, at); range.setEnd(node, at + 1);
        const first = range.getBoundingClientRect();
        range.setStart(node, at + text.length - 1); range.setEnd(node, at + text.length);
        const last = range.getBoundingClientRect();
        return [Math.min(first.left, last.left), Math.max(first.right, last.right)];
    }
    return null;
}"""


def test_a_clue_that_begins_in_the_other_direction_reads_in_its_own(browser, tmp_path):
    """A clue in English that begins with a Hebrew word was set right to left ("is hello world in שלום עולם"):
    its <bdi> took the first letter's direction. It takes the direction most of its letters have."""
    for name, data in static_files().items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    text = RTL + ("SHALOM | \u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd is hello world in this language\n"
                  "ORBIT | NASA \u05d4\u05d9\u05d0 \u05e1\u05d5\u05db\u05e0\u05d5\u05ea \u05d4\u05d7\u05dc\u05dc"
                  " \u05e9\u05dc \u05d0\u05e8\u05e6\u05d5\u05ea \u05d4\u05d1\u05e8\u05d9\u05ea\n")
    layout = _build(tmp_path, load_puzzle(text, slug="capitals"))
    where = {p.answer: f"#clue-{p.direction.value}-{p.number} .clue-text" for p in layout.placements}
    assert {"SHALOM", "ORBIT", "JERUSALEM"} <= set(where), layout.unplaced
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto((tmp_path / "capitals" / "index.html").as_uri())
        hebrew = page.evaluate(TEXT_SPAN, [where["SHALOM"], "\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd"])
        english = page.evaluate(TEXT_SPAN, [where["SHALOM"], "is hello"])
        assert hebrew[1] <= english[0], "left to right: the Hebrew words first, on the left"
        latin = page.evaluate(TEXT_SPAN, [where["ORBIT"], "NASA"])
        rest = page.evaluate(TEXT_SPAN, [where["ORBIT"], "\u05d4\u05d9\u05d0"])
        assert latin[0] >= rest[1], "right to left: NASA first, on the right"
        # a clue all in one direction keeps the <bdi>'s own guess, no attribute
        assert page.get_attribute(f"{where['JERUSALEM']} bdi", "dir") is None
        assert page.get_attribute(f"{where['SHALOM']} bdi", "dir") == "ltr"
    finally:
        page.close()


# ---------------------------------------------------------------- 15. phones (QA phone-s11)

# 200% text on the narrowest phone (WCAG's reflow width): root font doubled before the player starts
BIG_TEXT = "document.addEventListener('DOMContentLoaded', () => { document.documentElement.style.fontSize = '200%'; })"


@pytest.mark.parametrize("slug", ["kitchen-herbs", "world-capitals"])
def test_at_200_percent_text_nothing_is_wider_than_a_narrow_phone(open_page, slug):
    # not is_mobile: Chromium would widen the layout to the content and hide the overflow by zooming out
    p = open_page(slug, viewport={"width": 320, "height": 640}, has_touch=True)
    p.context.add_init_script(BIG_TEXT)
    p.page.reload()
    assert p.page.evaluate("getComputedStyle(document.documentElement).fontSize") == "32px"
    assert p.page.evaluate("document.documentElement.scrollWidth") <= 320
    edges = p.page.evaluate("""() => [...document.querySelectorAll('summary.btn, .clue-list')].map(el => {
        const r = el.getBoundingClientRect(); return [el.textContent.trim().slice(0, 12), r.left, r.right]; })""")
    assert all(left >= 0 and right <= 320 for _, left, right in edges), edges
    # each menu, open, is on the screen too
    for i in range(3):
        p.page.locator("summary.btn").nth(i).click()
        p.page.wait_for_timeout(50)
        box = p.page.evaluate(f"(() => {{ const r = document.querySelectorAll('.menu-items')[{i}].getBoundingClientRect(); return [r.left, r.right]; }})()")
        assert box[0] >= 0 and box[1] <= 320, (i, box)
        p.page.keyboard.press("Escape")  # it covers the next menu's button


@pytest.mark.parametrize("viewport", [{"width": 844, "height": 390}, {"width": 915, "height": 412},
                                      {"width": 512, "height": 300}, {"width": 320, "height": 568}])
def test_a_phone_does_not_show_the_keyboard_hint_and_a_narrow_window_with_keys_does(open_page, viewport):
    """512 and 320 px wide are a desktop's 1280 px at 250% and 400% zoom: its keyboard user needs the hint."""
    p = open_page("kitchen-herbs", viewport=viewport, is_mobile=True, has_touch=True)
    assert p.page.is_hidden(".hint")
    # a desktop window as narrow still shows it (its keys are there)
    q = open_page("kitchen-herbs", viewport=viewport)
    assert q.page.is_visible(".hint")


TARGETS = """(sels) => sels.map(sel => [...document.querySelectorAll(sel)].filter(el => el.getClientRects().length)
    .map(el => { const r = el.getBoundingClientRect(); return [sel, el.textContent.trim().slice(0, 12), Math.round(r.width), Math.round(r.height)]; }))
    .flat()"""


def test_a_download_note_that_wraps_keeps_its_lines_together_on_a_touch_screen(open_page):
    """The links grow to 44 px on a touch screen; a note that wraps beside one must not take that as its line height."""
    p = open_page("kitchen-herbs", viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True)
    got = p.page.evaluate("""() => {
        const li = [...document.querySelectorAll('.downloads li')].find(el => el.textContent.includes('Across Lite'));
        const note = li.querySelector('.note');
        note.textContent = 'Across Lite, Black Ink, XWord, Forkyz and most of the solving apps on a phone';
        const tops = el => { const r = document.createRange(); r.selectNodeContents(el);
            return [...new Set([...r.getClientRects()].map(b => Math.round(b.top)))].sort((a, b) => a - b); };
        return { note: tops(note), size: parseFloat(getComputedStyle(note).fontSize),
                 link: tops(li.querySelector('a')), height: li.querySelector('a').getBoundingClientRect().height };
    }""")
    lines = got["note"]
    assert len(lines) >= 2, got  # it does wrap at this width
    assert all(b - a <= 1.6 * got["size"] for a, b in zip(lines, lines[1:])), got
    assert len(got["link"]) == 1 and got["height"] >= 44, got  # the link itself on one line, still a finger's size


def test_a_touch_screen_gets_controls_a_finger_can_hit_and_a_mouse_keeps_compact_ones(open_page, browser, tmp_path):
    from site_builder.site import PuzzleInfo

    tools = [".btn.pause", "summary.btn", ".clue-step", ".menu-items button", ".downloads a", ".byline .tags a",
             ".site-footer a", ".site-title"]
    p = open_page("kitchen-herbs", viewport={"width": 412, "height": 839}, is_mobile=True, has_touch=True)
    p.page.evaluate("document.querySelectorAll('details.menu').forEach(d => { d.open = true; })")
    sizes = p.page.evaluate(TARGETS, tools)
    assert {s[0] for s in sizes} == set(tools)
    small = [s for s in sizes if s[2] < 44 or s[3] < 44]
    assert not small, small
    # the desktop is not made clumsy: a mouse keeps the compact tools
    d = open_page("kitchen-herbs", **DESKTOP)
    assert all(s[3] < 40 for s in d.page.evaluate(TARGETS, [".btn.pause", "summary.btn", ".downloads a"]))
    # the archive's card links
    puzzle = load_puzzle(SMALL.replace("---\n", "---\ntags: [garden, tv]\n", 1), slug="allotment")
    write_archive(tmp_path, [PuzzleInfo(puzzle, _build(tmp_path, puzzle))])
    for touch, smallest in ((True, 44), (False, 0)):
        context = browser.new_context(viewport={"width": 412, "height": 839}, is_mobile=touch, has_touch=touch)
        page = context.new_page()
        page.goto((tmp_path / "index.html").as_uri())
        chips = page.evaluate(TARGETS, [".tags a", ".site-footer a", ".card-title a"])
        assert len(chips) >= 5 and all(min(w, h) >= smallest for *_, w, h in chips), chips  # "tv 1" was 42 px wide
        links = page.evaluate(TARGETS, [".links > *"])
        width = page.evaluate("document.documentElement.scrollWidth")
        context.close()
        assert len(links) >= 3 and width <= 412
        assert all(min(w, h) >= smallest for _, _, w, h in links) and (touch or all(h < 30 for *_, h in links)), links


def test_the_clue_bars_arrows_keep_the_keyboard_on_the_grid(open_page):
    """A phone's keyboard closes when the field loses focus: a tap on › used to blur it and focus it again."""
    p = open_page("kitchen-herbs", **PHONE)
    word = p.layout.across[0]
    p.page.tap(f"#{cell_id(word.cells()[0])}")
    p.page.evaluate("""() => { window.focusLog = []; const input = document.getElementById('grid-input');
        ['focus', 'blur'].forEach(t => input.addEventListener(t, () => focusLog.push(t))); }""")
    before = p.active_clue()
    p.page.tap(".clue-step[data-action='next-clue']")
    p.page.tap(".clue-step[data-action='next-clue']")
    p.page.tap(".clue-step[data-action='prev-clue']")
    assert p.page.evaluate("focusLog") == []
    assert p.focused() == "grid-input"
    assert p.active_clue() != before
    # with a mouse the arrows work as before, and the keyboard goes on typing into the grid
    d = open_page("kitchen-herbs", **DESKTOP)
    d.page.click(f"#{cell_id(word.cells()[0])}")
    d.page.click(".clue-step[data-action='next-clue']")
    assert d.focused() == "grid-input" and d.active_clue() != f"clue-across-{word.number}"


def test_a_paste_or_a_two_word_suggestion_fills_its_answer_and_goes_no_further(open_page):
    """'basil leaves' into BASIL wrote LEAVES over the next answer."""
    p = open_page("kitchen-herbs", **PHONE)
    basil = next(q for q in p.layout.placements if q.answer == "BASIL")
    others = sorted(p.layout.placements, key=lambda q: -len(q.answer))
    dispatch_words(p, [q for q in others if not set(q.cells()) & set(basil.cells())][:3])  # letters a spill would overwrite
    before = p.grid_letters()

    def changed():
        now = p.grid_letters()
        return {rc: ch for rc, ch in now.items() if ch != before[rc]}

    def start():
        p.page.tap(f"#{cell_id(basil.cells()[0])}")
        if p.active_clue() != f"clue-{basil.direction.value}-{basil.number}":
            p.page.tap(f"#{cell_id(basil.cells()[0])}")
        assert p.current() == cell_id(basil.cells()[0])

    def clear():
        p.page.click(f"#clue-{basil.direction.value}-{basil.number}")  # a full answer: the cursor moved on
        p.page.click("summary:has-text('Clear')")
        p.page.click("[data-action='clear-word']")
        assert not changed()

    filled = {rc: ch for rc, ch in zip(basil.cells(), "BASIL")}
    # a keyboard's two-word suggestion, committed in one go
    start()
    p.context.new_cdp_session(p.page).send("Input.insertText", {"text": "basil leaves"})
    assert changed() == filled
    clear()
    # a paste longer than the answer
    start()
    p.page.evaluate("""() => { const input = document.getElementById('grid-input');
        input.value = 'basilxyz';
        input.dispatchEvent(new InputEvent('input', {inputType: 'insertFromPaste', data: 'basilxyz', bubbles: true})); }""")
    assert changed() == filled
    clear()
    # a suggestion taken while composing, then taken back by the keyboard: only what went in comes out
    start()
    p.page.evaluate(COMPOSE, [["start", "", ""], ["compose", "ba", "ba"], ["compose", "basil leaves", "basil leaves"]])
    assert changed() == filled
    p.page.evaluate(COMPOSE, [["compose", "basil", "basil"], ["compose", "basi", "basi"], ["end", "", "basi"]])
    assert changed() == {rc: ch for rc, ch in filled.items() if ch != "L"}


def test_a_keyboard_correcting_a_word_typed_on_into_the_next_answer_types_it_all_again(open_page):
    """Typed letter by letter past an answer's end, then corrected early on: the letters past the end go back in."""
    p = open_page("allotment", **PHONE)
    first = next(q for q in p.layout.placements if q.direction == Direction.ACROSS)
    p.page.click(f"#clue-{first.direction.value}-{first.number}")
    p.page.keyboard.press("Home")
    typo = first.answer[:-1].lower() + "w" + "xyz"  # the last letter wrong, then three more into what follows
    p.page.evaluate(COMPOSE, [["start", "", ""]] + [["compose", typo[:i + 1], typo[:i + 1]] for i in range(len(typo))])
    after = {rc: ch for rc, ch in p.grid_letters().items() if ch}
    assert len(after) == len(typo)
    fixed = first.answer.lower() + "xyz"
    p.page.evaluate(COMPOSE, [["compose", fixed, fixed]])  # the keyboard corrects W to the right letter
    now = {rc: ch for rc, ch in p.grid_letters().items() if ch}
    assert set(now) == set(after)  # the same squares hold letters: none past the answer's end was lost
    assert "".join(now[rc] for rc in first.cells()) == first.answer


# A phone's keyboard over the page, as iOS Safari and Chrome for Android (108 on) have it: the visual
# viewport loses window.__keyboard px at its foot, and its top is window.__shownTop px down the layout
# viewport (iOS pushes it down); innerHeight stays the whole screen.
KEYBOARD_OVER = """(() => {
    window.__keyboard = 0; window.__shownTop = 0;
    const proto = VisualViewport.prototype;
    const height = Object.getOwnPropertyDescriptor(proto, 'height').get;
    const offsetTop = Object.getOwnPropertyDescriptor(proto, 'offsetTop').get;
    Object.defineProperty(proto, 'height', {configurable: true, get() { return height.call(this) - window.__keyboard - window.__shownTop; }});
    Object.defineProperty(proto, 'offsetTop', {configurable: true, get() { return offsetTop.call(this) + window.__shownTop; }});
})()"""
SHOWN = """() => { const r = document.querySelector('.cell.current').getBoundingClientRect();
    const bar = document.querySelector('.clue-bar').getBoundingClientRect();
    return [r.top, r.bottom, bar.bottom, visualViewport.offsetTop + visualViewport.height]; }"""


def keyboard_over(p: Page, height: int, top: int = 0) -> None:
    p.page.evaluate(f"() => {{ window.__keyboard = {height}; window.__shownTop = {top}; visualViewport.dispatchEvent(new Event('resize')); }}")


def test_a_wide_phone_sideways_keeps_the_clue_in_sight_with_its_keyboard_up(open_page):
    """A phone 945 px wide sideways gets the clue lists beside the grid; its keyboard leaves 216 px of
    window, where neither the lists nor the bar (not stuck to the top there) showed the clue being typed."""
    p = open_page("world-capitals", viewport={"width": 945, "height": 396}, is_mobile=True, has_touch=True)
    word = max(p.layout.down, key=lambda q: q.cells()[0][0])  # the down answer that starts lowest
    first = f"#{cell_id(word.cells()[0])}"
    p.page.locator(first).scroll_into_view_if_needed()
    p.page.tap(first)
    if p.active_clue() != f"clue-down-{word.number}":
        p.page.tap(first)
    p.page.set_viewport_size({"width": 945, "height": 216})  # the keyboard up, the page resized
    p.page.keyboard.insert_text(word.answer[0])
    p.page.wait_for_timeout(100)
    bar, cell, height = p.page.evaluate("""() => [document.querySelector('.clue-bar').getBoundingClientRect().toJSON(),
        document.querySelector('.cell.current').getBoundingClientRect().toJSON(), innerHeight]""")
    assert p.page.inner_text(".clue-bar-num").startswith(f"{word.number} Down")
    assert 0 <= bar["top"] and bar["bottom"] <= height, (bar, height)
    assert bar["bottom"] <= cell["top"] and cell["bottom"] <= height, (bar, cell, height)


def test_typing_down_keeps_the_cursor_above_a_keyboard_over_the_page(open_page):
    p = open_page("world-capitals", viewport={"width": 412, "height": 839}, is_mobile=True, has_touch=True)
    p.context.add_init_script(KEYBOARD_OVER)
    p.page.reload()
    assert "interactive-widget=resizes-content" in p.page.get_attribute("meta[name=viewport]", "content")
    word = max(p.layout.down, key=lambda q: len(q.answer))
    assert len(word.answer) >= 10
    first = f"#{cell_id(word.cells()[0])}"
    keyboard_over(p, 330)
    p.page.evaluate(f"window.scrollBy(0, document.querySelector('{first}').getBoundingClientRect().top - 250)")
    p.page.tap(first)
    if p.active_clue() != f"clue-down-{word.number}":
        p.page.tap(first)
    assert p.active_clue() == f"clue-down-{word.number}"
    for i, ch in enumerate(word.answer[:-1]):
        p.page.keyboard.press(ch)
        top, bottom, bar, shown = p.page.evaluate(SHOWN)
        assert bar <= top and bottom <= shown, (i, top, bottom, bar, shown)
    # the keyboard coming up over the cursor near the foot of the screen
    keyboard_over(p, 0)
    p.page.evaluate("window.scrollBy(0, document.querySelector('.cell.current').getBoundingClientRect().bottom - 780)")
    keyboard_over(p, 330)
    top, bottom, bar, shown = p.page.evaluate(SHOWN)
    assert bar <= top and bottom <= shown, (top, bottom, bar, shown)
    # a keyboard that pushed the part that shows down the page: the clue bar sticks to its top
    keyboard_over(p, 300, 100)
    p.page.evaluate("visualViewport.dispatchEvent(new Event('scroll'))")
    assert p.page.evaluate("document.querySelector('.clue-bar').getBoundingClientRect().top") == 100
    p.page.keyboard.press("ArrowUp")
    p.page.keyboard.press("ArrowUp")
    top, bottom, bar, shown = p.page.evaluate(SHOWN)
    assert bar <= top and bottom <= shown, (top, bottom, bar, shown)


def test_without_visual_viewport_typing_down_still_follows_the_cursor(open_page):
    p = open_page("world-capitals", viewport={"width": 412, "height": 500}, is_mobile=True, has_touch=True)
    p.context.add_init_script("Object.defineProperty(window, 'visualViewport', {value: undefined})")
    p.page.reload()
    assert p.page.evaluate("window.visualViewport") is None
    word = max(p.layout.down, key=lambda q: len(q.answer))
    p.page.click(f"#clue-down-{word.number}")
    p.page.keyboard.press("Home")
    for ch in word.answer[:-1]:
        p.page.keyboard.press(ch)
        assert seen(p, ".cell.current") is True


FOCUS_LOG = """() => { window.focusLog = []; const input = document.getElementById('grid-input');
    ['focus', 'blur'].forEach(t => input.addEventListener(t, () => focusLog.push(t))); }"""


def test_a_tap_brings_back_the_keyboard_that_androids_back_hid_without_turning_the_direction(open_page):
    """Back hides the keyboard and leaves the field focused; focus() on it then asks for nothing."""
    p = open_page("kitchen-herbs", **PHONE)
    p.context.add_init_script(KEYBOARD_OVER)
    p.page.reload()
    square = f"#{cell_id(crossing_cells(p)[0])}"
    other = f"#{cell_id(next(c for c in p.layout.cells if c != crossing_cells(p)[0]))}"
    p.page.tap(square)
    assert p.focused() == "grid-input"
    keyboard_over(p, 330)  # the keyboard comes up
    p.page.evaluate(FOCUS_LOG)
    way = p.active_clue()
    p.page.tap(square)  # a second tap with the keyboard up turns the direction, and leaves the field be
    assert p.active_clue() != way and p.page.evaluate("focusLog") == []
    way = p.active_clue()
    keyboard_over(p, 0)  # Back: the keyboard goes, the field keeps the focus
    assert p.focused() == "grid-input"
    p.page.tap(square)  # asks for the keyboard again (a new focus), and keeps the direction
    assert p.page.evaluate("focusLog") == ["blur", "focus"] and p.focused() == "grid-input"
    assert p.active_clue() == way and p.current() == square[1:]
    keyboard_over(p, 330)  # back up
    p.page.tap(square)
    assert p.active_clue() != way and p.page.evaluate("focusLog") == ["blur", "focus"]
    keyboard_over(p, 0)  # Back again; a tap on another square brings the keyboard back there
    p.page.tap(other)
    assert p.page.evaluate("focusLog") == ["blur", "focus"] * 2 and p.current() == other[1:]
    p.page.keyboard.type("Q")
    assert p.page.inner_text(f"{other} .letter") == "Q"


def test_a_tap_on_another_square_mid_word_ends_the_keyboards_word_where_it_was_typed(open_page):
    """A keyboard composing a word when another square is tapped: its next delete erased the letters
    it had composed in the answer tapped away from, and took the cursor back there."""
    p = open_page("kitchen-herbs", **PHONE)
    p.context.add_init_script(KEYBOARD_OVER)
    p.page.reload()
    basil = next(q for q in p.layout.placements if q.answer == "BASIL")
    away = next(q for q in p.layout.placements if len(q.answer) >= 6 and not set(q.cells()) & set(basil.cells()))
    dispatch_words(p, [away])
    p.page.tap(f"#{cell_id(basil.cells()[0])}")
    if p.active_clue() != f"clue-{basil.direction.value}-{basil.number}":
        p.page.tap(f"#{cell_id(basil.cells()[0])}")
    keyboard_over(p, 330)  # up: a tap alone would leave the field be
    cdp = p.context.new_cdp_session(p.page)
    for text in ("b", "ba"):
        cdp.send("Input.imeSetComposition", {"text": text, "selectionStart": len(text), "selectionEnd": len(text)})
    assert [p.letter(*rc) for rc in basil.cells()[:3]] == ["B", "A", ""]
    target = away.cells()[2]
    p.page.tap(f"#{cell_id(target)}")
    assert p.current() == cell_id(target)
    # the keyboard's delete key, in the field it was given back empty
    p.page.evaluate(COMPOSE, [["deleteContentBackward", "", None]])
    assert [p.letter(*rc) for rc in basil.cells()[:2]] == ["B", "A"]
    assert p.current() == cell_id(target) and p.letter(*target) == ""


@pytest.mark.parametrize("leave", ["clue", "arrow"])
def test_a_clue_tapped_mid_word_ends_the_keyboards_word_where_it_was_typed(open_page, leave):
    """A clue tapped in the list, or the bar's arrow, keeps the keyboard up: its word went on, and its
    deletes went past the new answer's letters into those it had composed in the answer left behind."""
    p = open_page("kitchen-herbs", **PHONE)
    p.context.add_init_script(KEYBOARD_OVER)
    p.page.reload()
    first = p.layout.across[0]
    p.page.tap(f"#{cell_id(first.cells()[0])}")
    if p.active_clue() != f"clue-across-{first.number}":
        p.page.tap(f"#{cell_id(first.cells()[0])}")
    keyboard_over(p, 330)
    cdp = p.context.new_cdp_session(p.page)

    def compose(text):
        cdp.send("Input.imeSetComposition", {"text": text, "selectionStart": len(text), "selectionEnd": len(text)})

    compose("x")
    compose("xy")
    assert [p.letter(*rc) for rc in first.cells()[:2]] == ["X", "Y"]
    if leave == "clue":
        second = p.layout.across[1]
        p.page.locator(f"#clue-across-{second.number}").tap()
    else:
        p.page.locator(".clue-step").last.tap()  # ›: the next clue
        second = p.layout.across[1]
    assert p.active_clue() == f"clue-across-{second.number}"
    compose("z")  # the keyboard's next word, in the answer tapped
    assert p.letter(*second.cells()[0]) == "Z"
    assert [p.letter(*rc) for rc in first.cells()[:2]] == ["X", "Y"]
    compose("")  # and its delete
    assert p.letter(*second.cells()[0]) == ""
    assert [p.letter(*rc) for rc in first.cells()[:2]] == ["X", "Y"]
    assert p.active_clue() == f"clue-across-{second.number}"


# ---------------------------------------------------------------- 16. a solver's QA pass, session 12


def test_escape_again_reaches_the_tools_with_the_answer_still_selected(open_page):
    """Shift-Tab from the grid selects every clue on its way to the tools, so Check, Word checked the
    first clue: Escape, then Escape again from the clue, goes to Check with the solver's answer kept."""
    p = open_page("kitchen-herbs")
    word = p.layout.down[-1]
    p.page.click(f"#clue-down-{word.number}")
    p.page.keyboard.press("Home")
    wrong = "Q" if word.answer[0] != "Q" else "Z"
    p.page.keyboard.type(wrong)
    clue = p.active_clue()
    p.page.keyboard.press("Escape")
    p.page.keyboard.press("Escape")
    assert p.page.evaluate("document.activeElement.textContent") == "Check"
    assert p.active_clue() == clue
    p.page.keyboard.press("Enter")
    p.page.keyboard.press("ArrowDown")
    p.page.keyboard.press("ArrowDown")
    assert p.page.evaluate("document.activeElement.getAttribute('aria-label')") == "Check word"
    p.page.keyboard.press("Enter")
    assert p.page.locator(f"#{cell_id(word.cells()[0])}.wrong").count() == 1
    assert p.focused() == "grid-input" and p.active_clue() == clue
    assert "Escape again goes on to Check, Reveal and Clear" in p.page.inner_text(".hint")


def test_an_older_version_saved_at_the_folders_address_is_removed_at_index_html(open_page):
    """The archive links to slug/index.html and the feed to slug/: one page, whichever address saved."""
    p = open_page("kitchen-herbs")
    key = p.page.evaluate("JSON.parse(document.getElementById('puzzle-data').textContent).storageKey")
    assert p.page.evaluate("location.pathname").endswith("/kitchen-herbs/index.html")
    old = key.rsplit(":", 1)[0] + ":0123456789ab"
    p.page.evaluate("""(old) => localStorage.setItem(old, JSON.stringify({v: 1, letters: 'BASIL', revealed: '',
        wrong: '', elapsed: 5000, solved: false, cursor: null, page: location.pathname.replace(/index\\.html$/, '')}))""", old)
    p.page.reload()
    assert p.page.inner_text(".status").startswith("This puzzle was changed since you last played it")
    # and this page's own saves say the folder's address, as the feed's link opens it
    p.page.click(".cell")
    p.page.keyboard.type("A")
    assert old not in p.page.evaluate("Object.keys(localStorage)")  # gone with this version's first letter
    saved = p.page.evaluate("(k) => JSON.parse(localStorage.getItem(k)).page", key)
    assert saved.endswith("/kitchen-herbs/") and not saved.endswith("index.html")


@pytest.mark.parametrize("window", [{"width": 1280, "height": 700}, {"width": 1024, "height": 600}], ids=str)
def test_the_solved_message_does_not_cover_the_square_just_filled(open_page, window):
    """'Solved!' waits at the window's foot when the grid runs below it: it covered the grid's last rows,
    the square just filled among them. The page moves up so the grid's foot clears it."""
    p = open_page("kitchen-herbs", viewport=window)
    last = max(p.layout.placements, key=lambda q: max(r for r, _ in q.cells()))
    dispatch_words(p, [q for q in p.layout.placements if q is not last])
    p.page.evaluate("window.scrollTo(0, 0)")
    p.solve(last)
    assert p.page.inner_text(".solved").startswith("Solved!")
    covered = p.page.evaluate("""() => {
        const note = document.querySelector('.solved').getBoundingClientRect();
        return [...document.querySelectorAll('.cell')].filter(el => {
            const r = el.getBoundingClientRect();
            return r.bottom > note.top && r.top < note.bottom && r.top < innerHeight;
        }).map(el => el.id); }""")
    assert covered == [], covered
    assert seen(p, ".solved") is True and seen(p, ".cell.current") is True


def test_paused_letters_are_hidden_from_sight_and_from_screen_readers(open_page):
    p = open_page("kitchen-herbs", color_scheme="dark")
    word = p.layout.across[0]
    p.page.click(f"#clue-across-{word.number}")
    p.page.keyboard.type(word.answer)
    p.page.click("[data-action='pause']")
    cover = p.page.evaluate("getComputedStyle(document.querySelector('.pause-cover')).backgroundColor")
    assert cover.startswith("rgb(") and not cover.startswith("rgba("), cover  # no letter shows through
    tree = p.page.locator("body").aria_snapshot()
    assert "gridcell" not in tree and word.entry.clue[:20] not in tree and "Resume" in tree, tree
    p.page.click(".pause-cover button")
    tree = p.page.locator("body").aria_snapshot()
    assert "gridcell" in tree and word.entry.clue[:20] in tree and p.focused() == "grid-input"
    filled = p.page.locator(".cell.filled").count()
    p.page.keyboard.type("Q")  # the keyboard works again
    assert p.page.locator(".cell.filled").count() == filled + 1


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 360, "height": 500}])
def test_what_a_tool_says_is_in_sight_on_a_phone(open_page, viewport):
    """The status line sits under the grid: on a phone, below the window, so Check seemed to do nothing.
    What a tool says now waits at the window's foot, and a keystroke clears it."""
    p = open_page("world-capitals", **(PHONE | {"viewport": viewport}))
    word = p.layout.across[0]
    p.page.tap(f"#{cell_id(word.cells()[0])}")
    p.page.keyboard.type(word.answer)
    p.page.tap("summary:has-text('Check')")
    p.page.tap("[data-action='check-puzzle']")
    assert "mistakes" in p.page.inner_text(".status")
    assert seen(p, ".status") is True
    p.page.keyboard.press("Backspace")
    assert p.page.inner_text(".status") == ""


def test_a_tapped_clue_keeps_the_keyboard_on_the_grid(open_page):
    """A clue in the list pressed while solving took the focus off the grid's field for a moment: a phone's
    keyboard dropped and came back."""
    p = open_page("kitchen-herbs", **PHONE)
    p.page.tap(f"#{cell_id(p.layout.across[0].cells()[0])}")
    p.page.evaluate("""() => { window.focusLog = []; const input = document.getElementById('grid-input');
        ['focus', 'blur'].forEach(t => input.addEventListener(t, () => focusLog.push(t))); }""")
    target = p.layout.down[-1]
    p.page.tap(f"#clue-down-{target.number} .clue-button")
    assert p.page.evaluate("focusLog") == []
    assert p.focused() == "grid-input" and p.active_clue() == f"clue-down-{target.number}"


def test_a_phone_at_twice_the_size_keeps_archive_cards_readable(browser, tmp_path):
    """A 360-pixel phone zoomed to 200% (180 CSS pixels): the thumbnail column left a title a few letters
    wide, broken mid-word, and the date ran off the page. The card drops its thumbnail there, and wraps."""
    from site_builder.site import PuzzleInfo

    puzzle = load_puzzle(SMALL.replace("title: ", "title: Capitals ", 1), slug="allotment")
    write_archive(tmp_path, [PuzzleInfo(puzzle, _build(tmp_path, puzzle))])
    context = browser.new_context(viewport={"width": 180, "height": 370}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto((tmp_path / "index.html").as_uri())
    width = page.evaluate("document.documentElement.scrollWidth")
    title = page.evaluate("document.querySelector('.card-title').getBoundingClientRect().width")
    thumb = page.evaluate("getComputedStyle(document.querySelector('.card .thumb')).display")
    context.close()
    assert width <= 180 and thumb == "none" and title > 120, (width, thumb, title)


def test_a_tag_page_on_a_phone_shows_its_own_tag(browser, tmp_path):
    """The tags scroll sideways in one row on a phone; the tag page's own chip was out of sight at its end."""
    from site_builder.site import PuzzleInfo

    tags = ", ".join(f"topic-{i:02d}" for i in range(12))
    puzzle = load_puzzle(SMALL.replace("---\n", f"---\ntags: [{tags}]\n", 1), slug="allotment")
    write_archive(tmp_path, [PuzzleInfo(puzzle, _build(tmp_path, puzzle))])
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto((tmp_path / "tags" / "topic-11.html").as_uri())
    box = page.evaluate("""() => { const a = document.querySelector('.tags a[aria-current]').getBoundingClientRect();
        const row = document.querySelector('.tags').getBoundingClientRect();
        return [a.left >= row.left - 1 && a.right <= row.right + 1, a.left, a.right, row.left, row.right]; }""")
    context.close()
    assert box[0], box


def test_an_archive_card_counts_the_letters_revealed_in_a_solve(browser, tmp_path):
    """The player said "Solved! (1 letter revealed)"; the card said "Solved in 0:28" alone."""
    from site_builder.site import PuzzleInfo

    puzzle = load_puzzle(SMALL, slug="allotment")
    layout = _build(tmp_path, puzzle)
    write_archive(tmp_path, [PuzzleInfo(puzzle, layout)])
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto((tmp_path / "allotment" / "index.html").as_uri())
    first = layout.across[0]
    page.click(f"#{cell_id(first.cells()[0])}")
    page.click("summary:has-text('Reveal')")
    page.click("[data-action='reveal-letter']")
    dispatch_words(SimpleNamespace(page=page), layout.placements)
    assert page.is_visible(".solved") and "1 letter revealed" in page.inner_text(".solved")
    page.goto((tmp_path / "index.html").as_uri())
    badge = page.inner_text(".card .progress")
    context.close()
    assert badge.startswith("Solved") and badge.endswith("(1 letter revealed)"), badge


def _serve(folder, headers: dict[str, str] | None = None):
    """An http server of `folder` on a free port, in a thread, saying nothing: (server, its address).
    `headers` go on every response."""
    import functools
    import http.server
    import threading

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # the requests are the test's business
            pass

        def end_headers(self):
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            super().end_headers()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def _rewrite(path, text: str) -> None:
    """A file written again, as a rebuild writes it. Its time is set seconds later: a test runs within the
    second the first was written, and the server, whose times are whole seconds, would answer the browser's
    check 'not modified' (a page edited on the server, asked for past the browser's copy, came back old)."""
    import os
    import time

    path.write_text(text)
    later = time.time() + 5
    os.utime(path, (later, later))


def _rewrite_worker(worker) -> None:
    """A new version of the worker, as a rebuild writes it (`_rewrite`)."""
    _rewrite(worker, worker.read_text().replace("var VERSION = '", "var VERSION = 'next-"))


# the new version's store of the site's files in, the old one dropped
NEXT_STORE_ONLY = ("caches.keys().then(k => k.some(n => n.includes(' static ') && n.includes(' next-')) &&"
                   " !k.some(n => n.includes(' static ') && !n.includes(' next-')))")


def _until(page, expression: str, timeout: float = 20) -> None:
    """Wait until a (possibly asynchronous) expression is true in the page. wait_for_function cannot:
    it takes the promise an async expression returns for a true value, and returns at once."""
    import time

    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"not true within {timeout} s: {expression}"
        page.wait_for_timeout(100)


def test_a_page_opened_once_works_offline_over_http(browser, tmp_path):
    """Served over http, a puzzle page and the archive worked only online: reloading either offline failed.
    The build's service worker (public/sw.js) keeps the pages a reader opened, the first one too, and the
    site's files; a new version of the site's files keeps the pages."""
    from site_builder.site import build_site
    from tests.test_site import make_repo, small

    root = make_repo(tmp_path, a=small("A"), b=small("B", date="2026-01-02"))
    assert build_site(root, report=lambda line: None, quick=True).ok
    server, base = _serve(root / "public")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    controlled = "navigator.serviceWorker && navigator.serviceWorker.controller !== null"
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "a/index.html")  # the first page a reader opens: it loads before the worker is there
        page.wait_for_function(controlled, timeout=20000)
        page.click(".cell >> nth=0")
        page.keyboard.type("C")
        context.set_offline(True)
        page.reload()
        assert page.is_visible(".cell") and page.locator(".cell .letter").first.inner_text() == "C"
        page.goto(base + "index.html")  # kept at install
        assert page.locator(".card").count() == 2
        page.goto(base + "a/")  # the folder's address: the same page, kept once (so never an older copy)
        assert page.is_visible(".cell") and page.locator(".cell .letter").first.inner_text() == "C"
        keys = page.evaluate("caches.keys().then(ns => Promise.all(ns.filter(n => n.includes(' pages '))"
                             ".map(n => caches.open(n).then(c => c.keys())))).then(ls => ls.flat().map(r => r.url))")
        assert base + "a/" in keys and base + "a/index.html" not in keys, keys
        # a new version of the site's files (another hash in sw.js): the pages opened before stay kept
        context.set_offline(False)
        worker = root / "public" / "sw.js"
        _rewrite_worker(worker)
        page.goto(base + "b/index.html")
        # the new store in, the old one dropped
        _until(page, NEXT_STORE_ONLY)
        context.set_offline(True)
        page.goto(base + "a/index.html")
        assert page.is_visible(".cell")
        assert not errors, errors
    finally:
        context.close()
        server.shutdown()


def test_a_new_version_takes_the_new_files_from_a_host_that_lets_them_be_cached(browser, tmp_path):
    """GitHub Pages lets a file be cached ten minutes: a new version of the site stored the browser's copies
    of the old styles and scripts (offline, a reader had the release before until the next one), and a page
    edited on the server showed its old copy on the next visit."""
    from site_builder.site import build_site
    from tests.test_site import make_repo, small

    root = make_repo(tmp_path, a=small("A"), b=small("B", date="2026-01-02"))
    assert build_site(root, report=lambda line: None, quick=True).ok
    server, base = _serve(root / "public", {"Cache-Control": "max-age=600"})
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    script = base + "static/player.js"
    stored = ("(url) => caches.keys().then(ns => Promise.all(ns.filter(n => n.includes(' static '))"
              ".map(n => caches.open(n).then(c => c.match(url)).then(r => r ? r.text() : ''))))")
    try:
        page = _opened_under_the_worker(context, base + "a/index.html")
        page.reload()  # the script again, through the worker: the browser's cache holds it now
        page.goto(base + "b/index.html")
        player = root / "public" / "static" / "player.js"
        _rewrite(player, player.read_text() + "\n// the next release\n")  # a rebuild with a changed script
        _rewrite_worker(root / "public" / "sw.js")
        page_file = root / "public" / "a" / "index.html"
        _rewrite(page_file, page_file.read_text().replace("<title>", "<title>Edited "))
        page.goto(base + "a/index.html")
        _until(page, NEXT_STORE_ONLY)
        got = page.evaluate(stored, script)
        assert len(got) == 1 and got[0].endswith("// the next release\n"), "the new store holds the new script"
        assert page.title().startswith("Edited "), "the page asked the server, not the browser's copy"
        page.reload()  # the page's own request for the script, through the new worker, stores it again
        page.wait_for_load_state("load")
        assert page.evaluate(stored, script)[0].endswith("// the next release\n")
        context.set_offline(True)
        page.reload()
        assert page.title().startswith("Edited ") and page.is_visible(".cell")
    finally:
        context.close()
        server.shutdown()


def test_a_fonts_second_part_a_page_used_stays_offline_through_an_update(browser, tmp_path):
    """A web font comes in two parts (render/fonts.py): the second, for Greek or Cyrillic or most accented
    Latin, is not fetched at install but kept once a page uses it, and a new version of the site's files
    (whose old store goes) must carry it over, or a kept page in Greek would lose its font offline."""
    from site_builder.render.fonts import FACES, web_font
    from site_builder.site import build_site
    from tests.test_site import make_repo, small

    root = make_repo(tmp_path, a=small("A", extra="description: Ελληνικά και Ελλάδα\n"))
    assert build_site(root, report=lambda line: None, quick=True).ok
    server, base = _serve(root / "public")
    part = base + "static/fonts/" + web_font(FACES["serif"][0], "more")  # the description's face
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    stores = ("(url) => caches.keys().then(ns => Promise.all(ns.filter(n => n.includes(' static '))"
              ".map(n => caches.open(n).then(c => c.match(url)).then(r => [n, !!r]))))")
    try:
        page = context.new_page()
        page.goto(base + "a/index.html")
        page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=20000)
        page.reload()  # its fonts through the worker now (the first load's may have come before it, or after)
        page.evaluate("document.fonts.ready.then(() => true)")
        _until(page, f"({stores})({json.dumps(part)}).then(got => got.length === 1 && got[0][1])")
        worker = root / "public" / "sw.js"
        _rewrite_worker(worker)
        page.reload()
        _until(page, NEXT_STORE_ONLY)
        got = page.evaluate(stores, part)
        assert len(got) == 1 and "next-" in got[0][0] and got[0][1], got
        context.set_offline(True)
        page.reload()
        assert page.evaluate("(url) => fetch(url).then(r => r.status)", part) == 200
    finally:
        context.close()
        server.shutdown()


def test_a_message_never_covers_the_square_being_filled_and_a_move_clears_it(open_page):
    """What Check said waited at the window's foot over the current square, and stayed there through 30
    arrow presses (only letters cleared it)."""
    p = open_page("world-capitals", viewport={"width": 1280, "height": 720})
    low = max(p.layout.across, key=lambda q: q.row)  # an answer near the grid's foot, below the window
    p.page.click(f"#clue-across-{low.number}")
    p.page.keyboard.press("Escape")
    p.page.keyboard.press("Escape")  # on to the tools, the selection kept
    p.page.keyboard.press("Enter")
    p.page.keyboard.press("ArrowDown")
    p.page.keyboard.press("ArrowDown")
    p.page.keyboard.press("ArrowDown")  # Check, Puzzle
    assert "check-puzzle" == p.page.evaluate("document.activeElement.dataset.action")
    p.page.keyboard.press("Enter")
    assert p.page.inner_text(".status")
    box = "(sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return [r.top, r.bottom]; }"
    status, cell = p.page.evaluate(box, ".status"), p.page.evaluate(box, f"#{p.current()}")
    assert cell[1] <= status[0] or cell[0] >= status[1], (cell, status)
    assert seen(p, f"#{p.current()}") is True
    p.page.keyboard.press("ArrowUp")
    assert p.page.inner_text(".status") == ""
    p.page.evaluate("document.querySelector('[data-action=check-puzzle]').click()")
    assert p.page.inner_text(".status")
    p.page.click(f"#{p.current()}")  # a click on the grid is the next move too
    assert p.page.inner_text(".status") == ""


@pytest.mark.parametrize("viewport, row", [({"width": 390, "height": 844}, 0), ({"width": 360, "height": 640}, -1),
                                           ({"width": 844, "height": 390}, -1)], ids=["390-top", "360-foot", "844-foot"])
def test_a_message_after_the_solve_does_not_hide_the_solved_box(open_page, viewport, row):
    """'Puzzle revealed.' waits at the phone's foot; typing then said why nothing changes in a box of the
    same place, on top of it (and, near the grid's foot, where the box was not stuck, lifted over it)."""
    p = open_page("world-capitals", **(PHONE | {"viewport": viewport}))
    p.page.tap("summary:has-text('Reveal')")
    p.page.tap("[data-action='reveal-puzzle']")
    assert p.page.inner_text(".solved") == "Puzzle revealed."
    word = sorted(p.layout.across, key=lambda q: q.row)[row]
    p.page.locator(f"#{cell_id(word.cells()[0])}").scroll_into_view_if_needed()
    p.page.tap(f"#{cell_id(word.cells()[0])}")
    p.page.keyboard.type("Q")
    assert p.page.inner_text(".status").startswith("The puzzle is revealed")
    box = "(sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return [r.top, r.bottom]; }"
    solved, status = p.page.evaluate(box, ".solved"), p.page.evaluate(box, ".status")
    assert solved[1] <= status[0] or solved[0] >= status[1], (solved, status)
    assert seen(p, ".solved") is True and seen(p, ".status") is True


@pytest.mark.parametrize("viewport", [{"width": 844, "height": 390}, {"width": 360, "height": 640}], ids=str)
def test_on_a_phone_what_check_says_leaves_the_checked_answer_in_sight(open_page, viewport):
    """In landscape, Check, Word's message lay over the answer it had just marked: the page had moved by the
    clue bar's place before it stuck, and the grid's own scroll to the cursor came after."""
    p = open_page("world-capitals", **(PHONE | {"viewport": viewport}))
    word = sorted(p.layout.across, key=lambda q: (abs(q.row - p.layout.rows // 2), q.col))[0]
    p.page.tap(f"#{cell_id(word.cells()[0])}")
    p.page.keyboard.type("Q" * (len(word.answer) - 1))  # the cursor on the answer's last square
    p.page.evaluate("window.scrollTo(0, 0)")  # up to the tools
    p.page.tap("summary:has-text('Check')")
    p.page.tap("[data-action='check-word']")
    assert "in this word" in p.page.inner_text(".status")
    box = "(sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return [r.top, r.bottom]; }"
    notes = p.page.evaluate(box, ".notices")
    for rc in (word.cells()[0], word.cells()[-1]):
        cell = p.page.evaluate(box, f"#{cell_id(rc)}")
        assert cell[1] <= notes[0], (rc, cell, notes)
    assert seen(p, f"#{p.current()}") is True


def test_pausing_moves_no_page_and_a_tap_on_the_tools_or_the_clue_bar_clears_a_message(open_page):
    p = open_page("world-capitals", **(PHONE | {"viewport": {"width": 360, "height": 640}}))
    p.page.tap(f"#{cell_id(p.layout.across[0].cells()[0])}")
    p.page.keyboard.type("Q")
    p.page.evaluate("window.scrollTo(0, 0)")
    p.page.tap("summary:has-text('Check')")
    p.page.tap("[data-action='check-letter']")
    assert p.page.inner_text(".status")
    p.page.evaluate("window.scrollTo(0, 0)")
    p.page.tap("[data-action='pause']")
    assert p.page.evaluate("window.scrollY") == 0  # the Resume button took the focus and scrolled ~400 px
    assert p.page.inner_text(".status") == ""
    p.page.tap(".pause-cover [data-action='resume']")
    p.page.tap("summary:has-text('Check')")
    p.page.tap("[data-action='check-letter']")
    assert p.page.inner_text(".status")
    p.page.tap(".clue-bar-text")
    assert p.page.inner_text(".status") == ""


RGB = "(sel) => getComputedStyle(document.querySelector(sel)).backgroundColor.match(/[\\d.]+/g).slice(0, 3).map(Number)"


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_crossing_answer_is_marked_on_either_screen(open_page, scheme):
    """On a dark screen the crossing answer's squares were #1d2836 on #23262b squares: not marked at all."""
    p = open_page("world-capitals", color_scheme=scheme, **DESKTOP)
    word = p.layout.across[0]
    cross = next(q for q in p.layout.down if set(q.cells()) & set(word.cells()))
    at = next(rc for rc in cross.cells() if rc in set(word.cells()))
    p.page.click(f"#clue-down-{cross.number}")
    p.page.click(f"#{cell_id(at)}")  # the cursor in the down answer where the across one crosses it
    assert p.current() == cell_id(at) and p.active_clue() == f"clue-down-{cross.number}"
    marked = next(f"#{cell_id(rc)}" for rc in word.cells() if rc != at)
    plain = next(f"#{cell_id(rc)}" for q in p.layout.placements for rc in q.cells()
                 if rc not in set(word.cells()) | set(cross.cells()))
    assert "cross" in p.page.get_attribute(marked, "class")
    a, b = p.page.evaluate(RGB, marked), p.page.evaluate(RGB, plain)
    assert sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5 >= 25, (a, b)


def test_a_focused_menu_item_has_an_outline(open_page):
    """A menu item with the keyboard was marked only by the hover colour, 1.3:1 on the menu."""
    p = open_page("kitchen-herbs")
    p.page.focus("summary:has-text('Check')")
    p.page.keyboard.press("Enter")
    p.page.keyboard.press("ArrowDown")
    style = "getComputedStyle(document.activeElement)"
    assert p.page.evaluate(f"{style}.outlineStyle") != "none"
    assert float(p.page.evaluate(f"parseFloat({style}.outlineWidth)")) >= 2


def _three_puzzles(tmp_path):
    """A project of puzzles A, B and C (dated apart), quick-built: pages, no pictures."""
    from site_builder.site import build_site
    from tests.test_site import make_repo, small

    root = make_repo(tmp_path, a=small("A"), b=small("B", date="2026-01-02"), c=small("C", date="2026-01-03"))
    assert build_site(root, report=lambda line: None, quick=True).ok
    return root


def _three_puzzles_with_thumbnails(tmp_path):
    """`_three_puzzles`, each with a thumbnail of one pixel (a quick build makes no PNG)."""
    root = _three_puzzles(tmp_path)
    thumb = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAWk1v8QAAAABJRU5ErkJggg==")
    for slug in "abc":
        (root / "public" / slug / f"{slug}-thumb.png").write_bytes(thumb)
    return root


def _opened_under_the_worker(context, url):
    """A page of `url`, once the site's service worker has taken it over (and kept it)."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=20000)
    return page


def test_offline_the_archive_keeps_its_thumbnails_and_an_unopened_page_says_why_it_is_missing(browser, tmp_path):
    """Offline, most of the archive's thumbnails were broken images (they were not kept), a puzzle never
    opened gave the browser's own error page, and a folder's address typed without its slash failed even
    where the page was kept."""
    root = _three_puzzles_with_thumbnails(tmp_path)
    server, base = _serve(root / "public")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    broken = "[...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).length"
    try:
        page = _opened_under_the_worker(context, base + "a/index.html")
        page.goto(base + "index.html")
        page.wait_for_function(f"{broken} === 0")
        context.set_offline(True)
        page.reload()
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.wait_for_function(f"document.images.length === 3 && {broken} === 0", timeout=10000)
        # a thumbnail never seen online (here: dropped from the store) is an empty square, not a broken image
        page.evaluate("""(url) => caches.keys().then(names => Promise.all(names.filter(n => n.includes(' pages '))
            .map(n => caches.open(n).then(c => c.delete(url)))))""", base + "c/c-thumb.png")
        page.reload()
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.wait_for_function(f"document.images.length === 3 && {broken} === 0", timeout=10000)
        page.goto(base + "c/index.html")  # never opened
        assert "offline" in page.inner_text("h1").lower() and "not been opened" in page.inner_text("main")
        page.goto(base + "b/b.pdf")  # a download is never kept, and the page says that instead
        assert "offline" in page.inner_text("h1").lower() and "Downloads" in page.inner_text("main")
        page.goto(base + "c/index.html")
        page.click("text=Back to the archive")
        assert page.locator(".card").count() == 3
        page.goto(base + "a")  # no slash: the kept a/ at its own address
        assert page.url == base + "a/" and page.is_visible(".cell")
        assert page.evaluate("getComputedStyle(document.querySelector('.cell')).borderTopStyle") == "solid"  # styled
    finally:
        context.close()
        server.shutdown()


def test_the_thumbnails_of_the_first_visit_to_the_archive_stay_offline(browser, tmp_path):
    """The archive's first visit loads its thumbnails before the worker is there: they were not kept, and
    offline, once the browser's cache had let them go, every card showed an empty square."""
    root = _three_puzzles_with_thumbnails(tmp_path)
    server, base = _serve(root / "public")
    context = browser.new_context(viewport={"width": 1280, "height": 1600})
    shown = "[...document.images].filter(i => i.complete && i.naturalWidth === 1).length"  # the 1x1 PNG, not the empty square
    try:
        page = context.new_page()
        page.goto(base + "index.html")
        page.wait_for_function(f"{shown} === 3")
        page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=20000)
        _until(page, "caches.keys().then(ns => Promise.all(ns.filter(n => n.includes(' pages '))"
                     ".map(n => caches.open(n).then(c => c.keys())))).then(ls => ls.flat().length >= 4)")
        page.context.new_cdp_session(page).send("Network.clearBrowserCache")
        context.set_offline(True)
        page.reload()
        page.wait_for_function(f"{shown} === 3", timeout=10000)
    finally:
        context.close()
        server.shutdown()


def test_a_screen_readers_table_reading_knows_each_squares_row_and_column_and_the_cursor(open_page):
    """Rows hold only the letter squares, so table navigation said "column 1" of a square in column 4;
    and the square under the cursor was not marked as selected."""
    p = open_page("kitchen-herbs")
    word = p.layout.down[0]
    r, c = word.cells()[1]
    p.page.click(f"#{cell_id((r, c))}")
    where = p.page.evaluate("""(id) => { const el = document.getElementById(id);
        return [el.getAttribute('aria-colindex'), el.closest('[role=row]').getAttribute('aria-rowindex')]; }""",
                            cell_id((r, c)))
    assert where == [str(c + 1), str(r + 1)]
    assert p.page.get_attribute("#grid", "aria-colcount") == str(p.layout.cols)
    assert p.page.evaluate("[...document.querySelectorAll('[aria-selected=true]')].map(e => e.id)") == [cell_id((r, c))]
    p.page.keyboard.press("ArrowDown")
    assert p.page.evaluate("[...document.querySelectorAll('[aria-selected=true]')].map(e => e.id)") == [p.current()]


def test_a_reload_after_an_answer_changed_gives_the_grid_the_keyboard_back(site, open_page):
    """Watch mode reloads the page on every save; after an answer edit (a new storage key) the grid lost the
    keyboard, because the note that it had it was kept under the old key."""
    folder, layouts = site
    page_file = folder / "herbs-edited" / "index.html"
    page_file.parent.mkdir(exist_ok=True)
    text = (folder / "kitchen-herbs" / "index.html").read_text()
    page_file.write_text(text)
    layouts["herbs-edited"] = layouts["kitchen-herbs"]
    p = open_page("herbs-edited")
    key = p.page.evaluate("JSON.parse(document.getElementById('puzzle-data').textContent).storageKey")
    p.page.click(f"#{cell_id(p.layout.across[0].cells()[0])}")
    p.page.keyboard.type("Q")
    assert p.focused() == "grid-input"
    page_file.write_text(text.replace(key, key.rsplit(":", 1)[0] + ":0123456789ab"))  # the answer edit's rebuild
    p.page.reload()
    assert p.page.inner_text(".status").startswith("This puzzle was changed")
    assert p.focused() == "grid-input"


# the titles of the archive's cards marked "Not kept offline"
NOTED = ("[...document.querySelectorAll('.card')].filter(c => c.querySelector('.offline-note'))"
         ".map(c => c.querySelector('.card-title').textContent.trim())")


def _archive_with_a_kept_page(browser, tmp_path):
    """Three puzzles served, A opened under the worker, then the index: (server, context, index page)."""
    root = _three_puzzles(tmp_path)
    server, base = _serve(root / "public")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = _opened_under_the_worker(context, base + "a/index.html")
    page.goto(base + "index.html")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    return server, context, page


def test_offline_the_archive_says_which_puzzles_were_never_kept(browser, tmp_path):
    """Offline, every card looked the same, and a reader found a puzzle missing only by opening it."""
    server, context, page = _archive_with_a_kept_page(browser, tmp_path)
    noted = NOTED
    try:
        assert page.evaluate(noted) == []  # online, nothing to say
        context.set_offline(True)
        page.wait_for_function(f"{noted}.length === 2")
        assert sorted(page.evaluate(noted)) == ["B", "C"]  # the index itself and A were kept
        assert "Not kept offline" in page.inner_text(".card.unkept")
        context.set_offline(False)
        page.wait_for_function(f"{noted}.length === 0")
        # a page loaded offline says it at once (the emulated network leaves navigator.onLine true after a
        # reload, so the browser's word for it is given here)
        context.set_offline(True)
        page.add_init_script("Object.defineProperty(Navigator.prototype, 'onLine', { get: () => false })")
        page.reload()
        page.wait_for_function(f"{noted}.length === 2")
    finally:
        context.close()
        server.shutdown()


def test_the_archive_marks_the_unkept_puzzles_when_the_site_is_out_of_reach_on_a_network(browser, tmp_path):
    """The marks waited for navigator.onLine to say false, which it does only with no network at all: with
    the site's server down (or a hotel's sign-in page) the index came from the worker's copy, unmarked."""
    server, context, page = _archive_with_a_kept_page(browser, tmp_path)
    noted = NOTED
    try:
        page.reload()  # online, the site answers: nothing to say
        page.wait_for_timeout(300)
        assert page.evaluate(noted) == []
        server.shutdown()
        server.server_close()  # the server is gone; the network is not
        page.reload()
        assert page.evaluate("navigator.onLine") is True
        page.wait_for_function(f"{noted}.length === 2")
        assert sorted(page.evaluate(noted)) == ["B", "C"]
    finally:
        context.close()
        server.server_close()


def test_a_focused_sideways_grid_shows_its_frame_on_every_side_wherever_it_is_scrolled(open_page):
    """The focus frame was the grid's own outline: in a grid wider than the phone it scrolled away with the
    grid, so its left and right sides showed only at the grid's two ends. It is the scrolling window's now."""
    from io import BytesIO

    from PIL import Image

    p = open_page("world-capitals", **PHONE)
    assert p.page.evaluate("document.querySelector('.player').classList.contains('grid-scrolls')")
    word = p.layout.across[len(p.layout.across) // 2]
    p.page.tap(f"#{cell_id(word.cells()[0])}")
    p.page.evaluate("(() => { const s = document.querySelector('.grid-scroll'); s.scrollLeft = (s.scrollWidth - s.clientWidth) / 2; })()")
    assert p.page.evaluate("document.querySelector('.grid-scroll').scrollLeft") > 50  # mid-way: neither end in sight
    box = p.page.evaluate("(() => { const r = document.querySelector('.grid-scroll').getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; })()")
    left, right, top, bottom = box
    y0, y1 = max(top, 0) + 80, min(bottom, 844) - 20  # under the clue bar, in the window
    assert y1 - y0 > 100, box
    shot = Image.open(BytesIO(p.page.screenshot())).convert("RGB")
    scale = shot.width / 390
    focus = (0x1F, 0x4E, 0x8C)

    def framed(x: float) -> float:
        """The share of the column of pixels at x (page pixels) that is the focus colour."""
        xs = round(x * scale)
        pixels = [shot.getpixel((xs, round(y * scale))) for y in range(int(y0), int(y1), 4)]
        return sum(all(abs(a - b) < 30 for a, b in zip(px, focus)) for px in pixels) / len(pixels)

    assert framed(left + 1.5) > 0.95 and framed(right - 1.5) > 0.95
    # without the focus, no frame
    p.page.evaluate("document.activeElement.blur()")
    p.page.wait_for_timeout(50)
    shot = Image.open(BytesIO(p.page.screenshot())).convert("RGB")
    assert framed(left + 1.5) < 0.05


def test_newer_and_older_keep_their_words_on_a_phone_with_large_text(browser, tmp_path):
    """On a phone with its text at 150% or 200%, the links at a puzzle's foot were cut to "← N…" and "Old…"."""
    from site_builder.site import build_site
    from tests.test_site import make_repo, quiet, small

    root = make_repo(tmp_path, jan=small("January", "2026-01-01"), feb=small("February", "2026-02-01"),
                     mar=small("March", "2026-03-01"))
    build_site(root, report=quiet)
    for width, text in ((375, 24), (375, 32), (320, 32), (390, 16)):
        context = browser.new_context(viewport={"width": width, "height": 700}, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.context.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": text, "fixed": text}})
        page.goto((root / "public" / "feb" / "index.html").as_uri())
        links = page.evaluate("""[...document.querySelectorAll('.neighbours a')].map(a => {
            const r = a.getBoundingClientRect();
            return [a.innerText.replace(/\\s+/g, ' ').trim(), a.scrollWidth <= a.clientWidth + 1, r.left >= 0, r.right <= innerWidth]; })""")
        wide = page.evaluate("document.documentElement.scrollWidth")
        context.close()
        assert [t.split(":")[0].strip() for t, *_ in links] == ["← Newer", "All puzzles", "Older"], (width, text, links)
        assert all(whole and inside_left and inside_right for _, whole, inside_left, inside_right in links), (width, text, links)
        assert wide <= width


def test_a_sideways_grid_shades_the_edges_it_goes_on_past(open_page):
    """A grid wider than the phone showed only a cut square at the edge to say there was more of it."""
    p = open_page("world-capitals", **PHONE)
    classes = "document.querySelector('.grid-wrap').className.split(' ').filter(c => c.startsWith('more-')).sort().join(' ')"
    assert p.page.evaluate(classes) == "more-right"
    p.page.evaluate("(() => { const s = document.querySelector('.grid-scroll'); s.scrollLeft = 120; })()")
    p.page.wait_for_function(f"{classes} === 'more-left more-right'")
    p.page.evaluate("(() => { const s = document.querySelector('.grid-scroll'); s.scrollLeft = s.scrollWidth; })()")
    p.page.wait_for_function(f"{classes} === 'more-left'")
    # the left shade is drawn (its band 18 px wide), the right one 0
    shade = p.page.evaluate("getComputedStyle(document.querySelector('.grid-wrap'), '::before').backgroundSize")
    assert shade.startswith("18px"), shade
    # a grid that fits has nothing past its edges
    q = open_page("kitchen-herbs", **PHONE)
    assert q.page.evaluate(classes) == ""


# ---------------------------------------------------------------- a QA pass of session 19


def test_letters_with_a_spelling_of_their_own_go_in_as_the_grid_spells_them(open_page):
    """The grid spells STRAßE as STRASSE, but the player dropped a typed ß (and Ø, Æ, Ł, Þ...): the rest of
    the word went into the wrong squares."""
    p = open_page("own-letters", **DESKTOP)
    from site_builder.source import fold_letter

    words = [line.split("|")[0].strip() for line in OWN_LETTERS.split("---\n")[2].splitlines()]
    spelled = {re.sub("[^A-Z]", "", "".join(fold_letter(ch) for ch in word)): word for word in words}
    assert set(spelled) == {q.answer for q in p.layout.placements}
    for q in p.layout.placements:
        p.page.click(f"#clue-{q.direction.value}-{q.number} .clue-button")
        p.page.keyboard.press("Home")
        p.page.keyboard.type(spelled[q.answer].lower())
        assert "".join(p.letter(*cell) for cell in q.cells()) == q.answer, spelled[q.answer]
    # and pasted (a phone's suggestion comes in the same way): one input event of the whole word
    q = next(q for q in p.layout.placements if q.answer == "STRASSE")
    p.page.click(f"#clue-{q.direction.value}-{q.number} .clue-button")
    p.page.click("summary:has-text('Clear')")
    p.page.click("[data-action='clear-word']")
    p.page.keyboard.press("Home")
    p.page.keyboard.insert_text("Straße")
    assert "".join(p.letter(*cell) for cell in q.cells()) == "STRASSE"


def test_the_players_letter_table_is_the_builds():
    """player.js folds typed letters with its own copy of source.py's table: they must not drift apart."""
    from site_builder.source import _SPECIAL_FOLDS

    js = (static_files()["static/player.js"]).decode()
    table = re.search(r"var FOLDS = \{(.*?)\};", js, re.S).group(1)
    pairs = re.findall(r"'\\u([0-9a-f]{4})': '([A-Z]+)'", table)
    assert {chr(int(code, 16)): folded for code, folded in pairs} == _SPECIAL_FOLDS
    assert len(pairs) == table.count(":")  # every entry was read


@pytest.mark.parametrize("forced", [False, True], ids=["plain", "forced-colours"])
def test_paused_clues_show_no_text_and_the_menus_wait(open_page, forced):
    """A blur of 5 px left most clues readable through the pause; and Check, Reveal and Clear still opened
    while paused, their items doing nothing."""
    p = open_page("kitchen-herbs", **DESKTOP)
    if forced:
        p.page.emulate_media(forced_colors="active")
    p.page.click(f"#{cell_id(p.layout.across[0].cells()[0])}")
    p.page.click("[data-action='pause']")
    texts = ".clue-list .clue-text, .clue-list .clue-text *, .clue-bar-clue, .clue-bar-clue *"
    colours = p.page.evaluate(f"""() => [...document.querySelectorAll('{texts}')]
        .filter(el => el.textContent.trim()).map(el => getComputedStyle(el).color)""")
    assert len(colours) >= 2 * len(p.layout.placements) and set(colours) == {"rgba(0, 0, 0, 0)"}, set(colours)
    dimmed = p.page.evaluate("[...document.querySelectorAll('.clue-step')].map(b => +getComputedStyle(b).opacity)")
    assert len(dimmed) == 2 and max(dimmed) < 0.6, dimmed  # the bar's arrows, which do nothing now, look it
    for menu in ("Check", "Reveal", "Clear"):
        summary = p.page.locator(f"summary:has-text('{menu}')")
        assert summary.get_attribute("aria-disabled") == "true"
        summary.click()
        assert not p.page.evaluate(f"[...document.querySelectorAll('details.menu')].some(m => m.open)"), menu
    p.page.click(".pause-cover button")
    assert p.page.evaluate("getComputedStyle(document.querySelector('.clue-bar-clue')).color") != "rgba(0, 0, 0, 0)"
    summary = p.page.locator("summary:has-text('Check')")
    assert summary.get_attribute("aria-disabled") is None
    summary.click()
    assert p.page.evaluate("document.querySelector('details.menu').open")


def test_a_tapped_clue_arrow_does_not_stay_shaded(open_page):
    """On a touch screen the last element tapped keeps :hover: the clue bar's arrow looked pressed."""
    p = open_page("kitchen-herbs", **PHONE)
    p.page.tap(f"#{cell_id(p.layout.across[0].cells()[0])}")
    step = ".clue-step >> nth=-1"
    plain = p.page.locator(step).evaluate("el => getComputedStyle(el).backgroundColor")
    p.page.tap(step)
    assert p.page.locator(step).evaluate("el => el.matches(':hover')")  # the browser does keep it hovered
    assert p.page.locator(step).evaluate("el => getComputedStyle(el).backgroundColor") == plain


def test_backspace_in_a_solved_grid_leaves_the_cursor_where_it_is(open_page):
    p = open_page("kitchen-herbs", **DESKTOP)
    dispatch_words(p, p.layout.placements)
    assert p.page.locator(".solved").is_visible()
    where = p.current()
    p.page.keyboard.press("Backspace")
    assert p.current() == where
    assert "Clear, then Puzzle" in p.page.inner_text(".status")


def test_unfolding_a_stuck_clue_bar_keeps_the_square_in_sight(open_page):
    """On a phone, with the page scrolled so the clue bar is stuck to the top, unfolding a long clue grew
    the bar over the square about to be typed into."""
    p = open_page("long-words", **PHONE)
    angel = next(q for q in p.layout.placements if q.entry.answer == "ANGEL")
    p.page.tap(f"#clue-{angel.direction.value}-{angel.number} .clue-button")
    cell = f"#{p.current()}"
    # the square just under the stuck bar, as a solver who scrolled down a little has it
    scroll_under_the_bar(p, cell, 300)
    stuck = "document.querySelector('.clue-bar').getBoundingClientRect().top"
    assert abs(p.page.evaluate(stuck)) < 2 and p.page.evaluate("scrollY") > 0
    p.page.tap(".clue-bar-text")
    assert p.page.evaluate("document.querySelector('.clue-bar').classList.contains('open')")
    bar, top = p.page.evaluate(f"[document.querySelector('.clue-bar').getBoundingClientRect().bottom, "
                               f"document.querySelector('{cell}').getBoundingClientRect().top]")
    assert top >= bar, (top, bar)
    assert seen(p, cell) is True


def test_an_across_answer_picked_near_a_sideways_grids_edge_shows_whole(open_page):
    """A phone's sideways-scrolling grid showed only the first two squares of an answer picked from the list
    near its right edge; the rest came into view one typed letter at a time."""
    p = open_page("world-capitals", **PHONE)
    assert p.page.evaluate("document.getElementById('player').classList.contains('grid-scrolls')")
    width = p.page.evaluate("document.querySelector('.grid-scroll').clientWidth")
    cell_px = p.page.evaluate(f"document.getElementById('{cell_id(p.layout.across[0].cells()[0])}').offsetWidth")
    fits = [q for q in p.layout.across if (len(q.answer) + 2) * cell_px < width]
    q = max(fits, key=lambda q: q.cells()[-1][1])  # the one reaching furthest right
    p.page.evaluate("document.querySelector('.grid-scroll').scrollLeft = 0")
    p.page.tap(f"#clue-across-{q.number} .clue-button")
    assert p.active_clue() == f"clue-across-{q.number}"
    for cell in q.cells():
        assert seen(p, f"#{cell_id(cell)}") is True, (q.answer, cell, seen(p, f"#{cell_id(cell)}"))


def test_touch_sizes_go_to_any_touch_screen_a_laptops_too():
    """A touch laptop reports its touchpad as the main pointer (pointer: fine) and its screen as another
    (any-pointer: coarse): keyed to the main pointer, its tools stayed 31 px tall. Chromium's emulation
    cannot make that mix, so the style sheets' conditions are read: every rule that sizes for a finger
    asks whether any pointer is coarse."""
    from site_builder.site import static_files

    for name in ("static/player.css", "static/site.css"):
        css = static_files()[name].decode()
        conditions = re.findall(r"@media ([^{]*pointer[^{]*)\{", css)
        sizing = [c.strip() for c in conditions if "hover" not in c]  # (hover: none) and (pointer: coarse): a hint
        assert sizing and all(c == "(any-pointer: coarse)" for c in sizing), (name, conditions)


def test_an_enumeration_is_never_broken_at_its_hyphen(open_page):
    """At 320 px the phone's clue bar read '...across the Canadian line (3-' and '4,5)' on the next line."""
    p = open_page("own-letters", viewport={"width": 420, "height": 700}, is_mobile=True, has_touch=True)
    q = next(q for q in p.layout.placements if q.entry.enumeration == "4-2-2")
    p.page.tap(f"#clue-{q.direction.value}-{q.number} .clue-button")
    assert p.page.inner_text(".clue-bar-clue").endswith("(4-2-2)")
    # the lines the characters of '(4-2-2)' sit on, in the bar and in the list
    lines = """() => [document.querySelector('.clue-bar-clue'), document.querySelector('li.active .clue-text')].map(box => {
        const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
        let text = '', nodes = [];
        while (walk.nextNode()) { nodes.push([walk.currentNode, text.length]); text += walk.currentNode.data; }
        const at = text.lastIndexOf('(4-2-2)'), tops = new Set();
        for (let i = at; i < at + 7; i++) {
            const [node, start] = nodes.filter(([n, s]) => s <= i).pop();
            const range = document.createRange();
            range.setStart(node, i - start); range.setEnd(node, i - start + 1);
            tops.add(Math.round(range.getBoundingClientRect().top));
        }
        return tops.size;
    })"""
    for width in range(300, 421, 3):
        p.page.set_viewport_size({"width": width, "height": 700})
        assert p.page.evaluate(lines) == [1, 1], width


def test_a_down_answer_picked_from_the_list_shows_whole(open_page):
    """A Down clue tapped in the list beside the grid put the cursor on the answer's first square at the
    window's foot, the rest below it."""
    p = open_page("world-capitals", viewport={"width": 1280, "height": 700})
    top = p.page.evaluate("document.querySelector('.grid').getBoundingClientRect().top + scrollY")
    cell_px = p.page.evaluate(f"document.getElementById('{cell_id(p.layout.down[0].cells()[0])}').offsetHeight")
    fits = [q for q in p.layout.down if (len(q.answer) + 2) * cell_px < 700]
    q = max(fits, key=lambda q: q.cells()[-1][0])  # the one reaching lowest
    p.page.evaluate(f"window.scrollTo(0, {top} + {q.cells()[0][0]} * {cell_px} - 700 + {cell_px} + 20)")  # its first square at the foot
    p.page.click(f"#clue-down-{q.number} .clue-button")
    assert p.active_clue() == f"clue-down-{q.number}"
    for cell in q.cells():
        assert seen(p, f"#{cell_id(cell)}") is True, (q.answer, cell, seen(p, f"#{cell_id(cell)}"))


def test_unfolding_the_clue_bar_leaves_the_page_where_the_solver_scrolled_it(open_page):
    """Only a square in sight under the bar is kept in sight: with the square scrolled away above the screen,
    a tap on the bar (to read the clue, or to fold it again) pulled the page back to the grid."""
    p = open_page("long-words", **PHONE)
    angel = next(q for q in p.layout.placements if q.entry.answer == "ANGEL")
    p.page.tap(f"#clue-{angel.direction.value}-{angel.number} .clue-button")
    cell = f"#{p.current()}"
    p.page.evaluate(f"window.scrollBy(0, document.querySelector('{cell}').getBoundingClientRect().bottom + 60)")
    assert p.page.evaluate(f"document.querySelector('{cell}').getBoundingClientRect().bottom") < 0
    for state in (True, False):  # unfolded, then folded again
        p.page.evaluate("document.querySelector('.clue-bar-text').click()")  # in place: a tap would scroll to it
        assert p.page.evaluate("document.querySelector('.clue-bar').classList.contains('open')") is state
        # (the browser's scroll anchoring may move scrollY as the bar grows; the page stays on the clues)
        assert p.page.evaluate(f"document.querySelector('{cell}').getBoundingClientRect().bottom") < 0
