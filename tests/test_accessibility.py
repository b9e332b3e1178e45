"""An accessibility audit of every kind of page the site publishes, by axe-core in Chromium.

axe-core (Deque's rules engine, shipped in the axe-playwright-python package) checks the
rendered page: names for every control, contrast of text against what is behind it, landmarks,
headings, ARIA roles and states, duplicate ids, the size of touch targets. It runs on the index, a
puzzle page, a tag page and the 404 page, light and dark, on a desktop and a phone, served over http
as a host serves them (the 404 page's links start from the site's root), and on the player in the
states a solver puts it in (letters typed, a menu open, wrong letters marked, paused, revealed),
which show controls and states the fresh page does not. Every rule axe runs by default must pass
(WCAG 2.0 and 2.1 A and AA, and its best practices), and the ones it leaves off by default that
apply here: WCAG 2.2's target size, and duplicate ids.

What axe cannot judge it leaves "incomplete", not failed: the contrast of a one-letter text (the
grid's letters) or of text over a layered background (the pause cover). Those colours are
measured in tests/test_player_more.py.
"""

from __future__ import annotations

import shutil

import pytest

from site_builder.site import build_site

from .conftest import SAMPLES, SETTINGS
from .test_player import CHROMIUM, SMALL
from .test_player import browser  # noqa: F401  (the fixture: Debian's Chromium, one per module)
from .test_player_more import _serve

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="browser tests need Debian's Chromium at /usr/bin/chromium (apt-get install -y chromium)"
)

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LOOKS = [
    pytest.param(DESKTOP, "light", id="desktop-light"),
    pytest.param(DESKTOP, "dark", id="desktop-dark"),
    pytest.param(PHONE, "light", id="phone-light"),
    pytest.param(PHONE, "dark", id="phone-dark"),
]
# rules axe-core leaves off by default, which these pages must pass too
RULES = {"target-size": {"enabled": True}, "duplicate-id": {"enabled": True}, "duplicate-id-active": {"enabled": True}}


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    root = tmp_path_factory.mktemp("a11y")
    (root / "puzzles").mkdir()
    shutil.copy(SETTINGS, root / "pyproject.toml")
    (root / "puzzles" / "allotment.txt").write_text(SMALL, encoding="utf-8")
    shutil.copy(SAMPLES / "kitchen-herbs.txt", root / "puzzles" / "kitchen-herbs.txt")
    # a year apart: the index has its years bar, with the year being read marked
    (root / "puzzles" / "older.txt").write_text(
        SMALL.replace("2026-05-01", "2025-05-01").replace("Allotment", "An Older One"), encoding="utf-8")
    result = build_site(root, report=lambda line: None)
    assert result.ok and len(result.built) == 3
    server, base = _serve(root / "public")
    yield root / "public", base
    server.shutdown()


def audit(page) -> list[str]:
    """axe's violations on the page as it is now, one line per rule, naming the first elements."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, options={"resultTypes": ["violations"], "rules": RULES}).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        + (f" and {len(v['nodes']) - 3} more" if len(v["nodes"]) > 3 else "")
        for v in found
    ]


def opened(browser, url: str, device: dict, scheme: str):
    context = browser.new_context(color_scheme=scheme, service_workers="block", **device)
    page = context.new_page()
    page.goto(url)
    return context, page


@pytest.mark.parametrize("device,scheme", LOOKS)
def test_every_kind_of_page_passes_the_audit(archive, browser, device, scheme):
    folder, base = archive
    tag = sorted((folder / "tags").glob("*.html"))[0].name
    pages = {"index": "index.html", "puzzle": "kitchen-herbs/index.html", "tag": f"tags/{tag}", "404": "404.html"}
    problems = {}
    for name, path in pages.items():
        context, page = opened(browser, base + path, device, scheme)
        try:
            if name == "index":
                assert page.locator("nav.years a[aria-current]").count() == 1
            # every stylesheet came (the 404 page's links start from the root, as a host serves it)
            assert page.evaluate("""() => document.querySelectorAll('link[rel=stylesheet]').length ===
                [...document.styleSheets].filter(s => s.href && s.cssRules.length > 0).length"""), name
            found = audit(page)
        finally:
            context.close()
        if found:
            problems[name] = found
    assert not problems, problems


@pytest.mark.parametrize("device,scheme", [LOOKS[1], LOOKS[2]])
def test_the_player_passes_the_audit_in_every_state(archive, browser, device, scheme):
    context, page = opened(browser, archive[1] + "allotment/index.html", device, scheme)
    page.on("dialog", lambda d: d.accept())  # "Reveal the whole puzzle?"
    problems = {}

    def check(state: str) -> None:
        found = audit(page)
        if found:
            problems[state] = found

    try:
        page.click(".clue-list li")  # the first clue: its word selected, the cursor in the grid
        page.keyboard.type("ZQX")  # letters that are wrong in any answer
        check("letters typed")
        page.click("summary:has-text('Check')")
        check("menu open")
        page.click("[data-action=check-puzzle]")
        assert page.locator(".cell.wrong").count() == 3, "the audit must see the wrong marks' colours"
        check("wrong letters marked")
        page.click("[data-action=pause]")
        check("paused")
        page.click("[data-action=resume]")
        page.click("summary:has-text('Reveal')")
        page.click("[data-action=reveal-puzzle]")
        assert page.locator(".cell.revealed").count() > 0
        check("revealed")
    finally:
        context.close()
    assert not problems, problems
