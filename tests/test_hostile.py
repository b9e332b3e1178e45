"""Hostile and odd text reaches every published format as text, never as markup or a crash.

One puzzle holds every case (a clue each, and a title, author and description
that mix them); it is built once per module with build_site, as the site
build does it, and each test reads one case back from one format.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import unicodedata
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import ipuz
import puz
import pytest
import xdformat

from site_builder.render.fonts import unseen
from site_builder.render.html import decode_solution
from site_builder.render.text import printable
from site_builder.site import build_site
from site_builder.source import one_line, read_puzzle  # one_line: what every output shows of a clue or a title

from .conftest import ROOT, SETTINGS

LONG = " ".join(f"w{i}ord" for i in range(400))[:2000].rstrip()
assert len(LONG) >= 1990

# case name -> clue text; each clue is the clue of one answer below
CASES = {
    "script": "<script>alert(1)</script>",
    "entities": "Fish &amp; chips & peas &lt;",
    "quotes": "He said \"no\" and 'yes' `ok`",
    "long": LONG,
    "emoji": "Family \U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466 flag \U0001f1eb\U0001f1f7 thumb \U0001f44d\U0001f3fd",
    "hebrew": "\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd",
    "arabic": "\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645",
    "combining": "cafe\u0301 or caf\u00e9",
    "end-title": "</title> ends it",
    "cdata": "]]> ends CDATA",
    "jinja": "{{ x }} and {% raw %} and {# c #}",
    "backslash": "C:\\temp\\n and \\",
    "control": "bell\x07 esc\x1b[31mred",
    "end-script": "</script><!-- comment",
    "pipe": "left | right",
}
ANSWERS = ["CR\u00c8ME BR\u00dbL\u00c9E", "TREE", "EERIE", "RECESS", "SECRET", "TERSE", "STEER", "RESET", "CREST",
           "TRACE", "CRATE", "REACT", "CASTER", "CARETS", "re\u0301cast"]
CLUES = dict(zip(ANSWERS, CASES.values()))
NAME_OF = dict(zip(CASES, ANSWERS))

TITLE = ("<script>alert(1)</script> </title> ]]> {{ x }} {% raw %} & &amp; \"q\" 'q' \\ \x07 </script> "
         "\u05e9\u05dc\u05d5\u05dd e\u0301 \U0001f468\u200d\U0001f469\u200d\U0001f467")
META = {
    "title": TITLE,
    "author": "O'Brien & \"Sons\" <b>x</b> \U0001f1ef\U0001f1f5",
    "description": "\u0645\u0631\u062d\u0628\u0627 \u05e9\u05dc\u05d5\u05dd e\u0301 {{ x }} </script> & \x07 end",
}
SLUG = "hostile"
SITE = "The Crossword Press"


def source_text() -> str:
    head = {**META, "date": "2026-03-01", "difficulty": "<i>hard</i>", "copyright": "\u00a9 <me> & co",
            "notes": "note {% raw %} ]]>", "tags": ["odd"], "size": 30, "seeds": 40}
    # JSON strings are YAML double-quoted strings; ensure_ascii=False keeps emoji as themselves
    lines = ["---", *(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in head.items()), "---"]
    lines += [f"{a} | {c}" for a, c in CLUES.items()]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hostile") / "repo"
    (root / "puzzles").mkdir(parents=True)
    shutil.copy(SETTINGS, root / "pyproject.toml")
    (root / "puzzles" / f"{SLUG}.txt").write_text(source_text(), encoding="utf-8")
    result = build_site(root, report=lambda line: None)
    assert result.ok and result.built == [SLUG], result.failed
    return root / "public"


@pytest.fixture(scope="module")
def puzzle(site):
    return read_puzzle(site.parent / "puzzles" / f"{SLUG}.txt")


@pytest.fixture(scope="module")
def numbers(site) -> dict[str, tuple[str, int, str]]:
    """answer letters -> (direction, number, enumeration), from the JSON export."""
    data = json.loads((site / SLUG / f"{SLUG}.json").read_text(encoding="utf-8"))
    assert all(r["orientation"] != "none" for r in data["result"]), "every hostile clue must be placed"
    return {r["answer"]: (r["orientation"], r["position"], r["enumeration"]) for r in data["result"]}


# ------------------------------------------------------------------ helpers


def letters(answer: str) -> str:
    folded = unicodedata.normalize("NFKD", answer.upper())
    return "".join(ch for ch in folded if "A" <= ch <= "Z")


def squash(text: str) -> str:
    """What a reader sees, for comparing: no controls, NFC, no whitespace at all (renders wrap lines)."""
    return "".join(unicodedata.normalize("NFC", printable(text)).split())


BIDI_AND_JOINERS = dict.fromkeys(map(ord, "\u200d\ufe0f\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


def loose(text: str) -> str:
    """squash() without bidi marks, joiners and variation selectors (PDF text extraction drops or adds them)."""
    return squash(text).translate(BIDI_AND_JOINERS)


def no_controls(text: str) -> None:
    bad = sorted({f"U+{ord(c):04X}" for c in text if unicodedata.category(c) == "Cc" and c not in "\n\t"})
    assert not bad, f"control characters in output: {bad}"


class Page(HTMLParser):
    """Scripts, the <title>, and the text of elements picked by class."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.scripts: list[tuple[dict, str]] = []
        self.title = ""
        self.texts: dict[str, list[str]] = {}
        self.all_text: list[str] = []
        self._stack: list[tuple[str, str, dict]] = []
        self.tags: list[str] = []
        self.feed(html)
        self.close()

    VOID = {"meta", "link", "img", "input", "br", "hr"}

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag in self.VOID:
            return
        a = dict(attrs)
        if tag == "script":
            self.scripts.append((a, ""))
        self._stack.append((tag, a.get("class") or "", a))
        for cls in (a.get("class") or "").split():
            self.texts.setdefault(cls, []).append("")
        if tag in ("h1", "h2", "title", "summary"):
            self.texts.setdefault(tag, []).append("")

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        assert self._stack and self._stack[-1][0] == tag, f"</{tag}> does not close {self._stack[-1:]}"
        self._stack.pop()

    def handle_data(self, data):
        self.all_text.append(data)
        if not self._stack:
            return
        tag, _, attrs = self._stack[-1]
        if tag == "script":
            self.scripts[-1] = (attrs, self.scripts[-1][1] + data)
        if tag == "title":
            self.title += data
        seen = set()
        for t, cls, _ in self._stack:
            for key in (*cls.split(), t):
                if key in self.texts and key not in seen:
                    seen.add(key)
                    self.texts[key][-1] += data


def page(site: Path, rel: str) -> Page:
    html = (site / rel).read_text(encoding="utf-8")
    no_controls(html)
    return Page(html)


# ------------------------------------------------------------ the puzzle page

PAGES = ["index.html", "tags/odd.html", f"{SLUG}/index.html"]


@pytest.mark.parametrize("rel", PAGES)
def test_html_has_only_our_scripts_and_markup(site, rel):
    p = page(site, rel)
    srcs = sorted(a.get("src") or a.get("id") or "?" for a, _ in p.scripts)
    scripts = [t for t in p.tags if t == "script"]
    if rel == f"{SLUG}/index.html":
        assert scripts == ["script", "script"] and srcs == ["../static/player.js", "puzzle-data"]
    else:  # the archive's finder and progress: our one script, nothing from the author
        root = "../" if rel.startswith("tags/") else ""
        assert scripts == ["script"] and srcs == [f"{root}static/archive.js"]
    for tag in ("b", "i", "me"):  # markup from the author, difficulty and copyright stays text
        assert tag not in p.tags
    if rel.endswith("/index.html"):
        assert p.title == f"{one_line(TITLE)} · {SITE}"
        assert p.texts["h1"] == [one_line(TITLE)]
    else:
        assert one_line(TITLE) in p.texts["h2"]


@pytest.mark.parametrize("field", list(META))
@pytest.mark.parametrize("rel", PAGES)
def test_html_shows_meta_literally(site, rel, field):
    text = "".join(page(site, rel).all_text)
    assert one_line(META[field]) in text


@pytest.mark.parametrize("case", list(CASES))
def test_puzzle_page_clue(site, numbers, case):
    answer = NAME_OF[case]
    direction, number, enum = numbers[letters(answer)]
    p = page(site, f"{SLUG}/index.html")
    shown = [t for t in p.texts["clue-text"] if squash(t) == squash(f"{CASES[case]} ({enum})")]
    assert shown == [one_line(CASES[case]) + f"\xa0({enum})"]  # the enumeration joined to the clue's last word
    (_, data), = [(a, d) for a, d in p.scripts if a.get("id") == "puzzle-data"]
    assert "</" not in data and "<!--" not in data
    entry = next(e for e in json.loads(data)["entries"] if e["id"] == f"clue-{direction}-{number}")
    assert entry["clue"] == one_line(CASES[case]) + f" ({enum})"


def test_puzzle_page_data_folds_accented_answers(site, numbers):
    p = page(site, f"{SLUG}/index.html")
    (_, raw), = [(a, d) for a, d in p.scripts if a.get("id") == "puzzle-data"]
    data = json.loads(raw)
    grid = dict(zip(map(tuple, data["cells"]), decode_solution(SLUG, data["solution"])))
    for answer in ("CREMEBRULEE", "RECAST"):
        direction, number, _ = numbers[answer]
        e = next(e for e in data["entries"] if e["id"] == f"clue-{direction}-{number}")
        dr, dc = (0, 1) if direction == "across" else (1, 0)
        assert "".join(grid[(e["row"] + dr * i, e["col"] + dc * i)] for i in range(e["length"])) == answer


# ------------------------------------------------------------------ the feed


def test_feed_is_xml_and_round_trips_the_text(site):
    raw = (site / "feed.xml").read_text(encoding="utf-8")
    no_controls(raw)
    ns = {"a": "http://www.w3.org/2005/Atom"}
    entry = ET.fromstring(raw).find("a:entry", ns)
    assert entry.findtext("a:title", namespaces=ns) == one_line(TITLE)
    assert entry.findtext("a:author/a:name", namespaces=ns) == one_line(META["author"])
    assert entry.findtext("a:summary", namespaces=ns) == one_line(META["description"])


# ------------------------------------------------------------------- SVG


@pytest.fixture(scope="module")
def svgs(site) -> dict[str, ET.Element]:
    out = {}
    for name in (f"{SLUG}.svg", f"{SLUG}-solution.svg"):
        raw = (site / SLUG / name).read_text(encoding="utf-8")
        no_controls(raw)
        out[name] = ET.fromstring(raw)
    return out


SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("name", [f"{SLUG}.svg", f"{SLUG}-solution.svg"])
def test_svg_title_and_byline(svgs, name):
    root = svgs[name]
    assert root.findtext(f"{SVG}title").startswith(one_line(TITLE))
    title_lines = [t.text for t in root.iterfind(f".//{SVG}g[@class='title']/{SVG}text")]
    assert squash(" ".join(title_lines)) == squash(unseen(TITLE))  # drawn: less the joiners, which draw nothing
    byline = " ".join(t.text for t in root.iterfind(f".//{SVG}g[@class='byline']/{SVG}text"))
    assert squash(META["author"]) in squash(byline)


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("name", [f"{SLUG}.svg", f"{SLUG}-solution.svg"])
def test_svg_clue(svgs, numbers, name, case):
    _, number, enum = numbers[letters(NAME_OF[case])]
    clues = []
    for g in svgs[name].iterfind(f".//{SVG}g[@class='clue']"):
        # what shows: a right-to-left clue's enumeration has a left-to-right mark before it, which draws nothing
        clues.append(squash(unseen(" ".join(t.text or "" for t in g.iterfind(f"{SVG}text[@class='line']")))))
    assert squash(unseen(f"{CASES[case]} ({enum})")) in clues  # drawn: less the joiners, which draw nothing


def test_svg_solution_letters_are_folded(svgs):
    letters_drawn = [t.text for t in svgs[f"{SLUG}-solution.svg"].iterfind(f".//{SVG}g[@class='letters']/{SVG}text")]
    assert letters_drawn and all(re.fullmatch("[A-Z]", ch) for ch in letters_drawn)


# ------------------------------------------------------------- PDF and PNG


@pytest.fixture(scope="module")
def pdf_text(site) -> str:
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) is not installed")
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", str(site / SLUG / f"{SLUG}.pdf"), "-"],
                         capture_output=True, check=True)
    return out.stdout.decode("utf-8")


def in_order(needles: list[str], hay: str) -> bool:
    at = 0
    for n in needles:
        at = hay.find(n, at)
        if at < 0:
            return False
        at += len(n)
    return True


@pytest.mark.parametrize("case", list(CASES))
def test_pdf_text_holds_clue(pdf_text, case):
    # word by word: a long clue runs over a page break, RTL text may come out before its enumeration
    words = [loose(w) for w in one_line(CASES[case]).split()]
    assert in_order([w for w in words if w], loose(pdf_text)) or in_order(
        [w for w in words if w], "".join(loose(pdf_text.replace("\n", " ")))
    ), f"{case} not in the PDF text"


def test_pdf_text_holds_title_meta_and_folded_answers(pdf_text):
    flat = loose(pdf_text)
    for value in (TITLE, *META.values()):
        assert in_order([loose(w) for w in one_line(value).split() if loose(w)], flat)
    assert "CREME BRULEE" in pdf_text and "RECAST" in pdf_text
    assert "\u05e9\u05dc\u05d5\u05dd" in pdf_text.translate(BIDI_AND_JOINERS)  # Hebrew in logical order
    assert "caf\u00e9" in unicodedata.normalize("NFC", pdf_text)
    no_controls(pdf_text.replace("\f", ""))


@pytest.mark.parametrize("name", [f"{SLUG}.png", f"{SLUG}-solution.png", f"{SLUG}-thumb.png"])
def test_png_rendered(site, name):
    data = (site / SLUG / name).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000


# ---------------------------------------------------------------- exports


@pytest.fixture(scope="module")
def exported(site) -> dict:
    folder = site / SLUG
    text = {ext: (folder / f"{SLUG}.{ext}").read_text(encoding="utf-8") for ext in ("json", "ipuz", "xd", "txt", "md")}
    for ext in ("ipuz", "xd", "txt", "md"):
        no_controls(text[ext])
    return {
        **text,
        "json-data": json.loads(text["json"]),
        "ipuz-data": ipuz.read(text["ipuz"]),
        "puz-data": puz.load((folder / f"{SLUG}.puz").read_bytes()),
        "xd-data": xdformat.xdfile(text["xd"]),
    }


@pytest.mark.parametrize("case", list(CASES))
def test_json_round_trips_exactly(exported, case):
    answer = letters(NAME_OF[case])
    (row,) = [r for r in exported["json-data"]["result"] if r["answer"] == answer]
    # JSON escapes what it must, so the clue is the source's as read: a bell and an escape go
    assert row["clue"] == ("bell esc[31mred" if case == "control" else one_line(CASES[case]))


@pytest.mark.parametrize("case", list(CASES))
def test_ipuz_clue(exported, numbers, case):
    direction, number, enum = numbers[letters(NAME_OF[case])]
    clues = exported["ipuz-data"]["clues"]["Across" if direction == "across" else "Down"]
    (clue,) = [c for c in clues if c["number"] == number]
    assert squash(html.unescape(clue["clue"])) == squash(CASES[case]) and clue["enumeration"] == enum  # HTML text
    assert "<" not in exported["ipuz"] and "&" not in exported["ipuz"]  # escaped, safe to paste into HTML


@pytest.mark.parametrize("case", list(CASES))
def test_puz_clue(exported, numbers, case):
    p = exported["puz-data"]
    direction, number, enum = numbers[letters(NAME_OF[case])]
    numbering = p.clue_numbering()
    index = {(c["num"], "across"): c["clue_index"] for c in numbering.across}
    index.update({(c["num"], "down"): c["clue_index"] for c in numbering.down})
    assert squash(p.clues[index[(number, direction)]]) == squash(f"{CASES[case]} ({enum})")


def test_puz_meta_and_grid(exported, numbers):
    p = exported["puz-data"]
    assert squash(p.title) == squash(TITLE) and squash(p.author) == squash(META["author"])
    assert set(p.solution) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ.")
    rows = [p.solution[r * p.width:(r + 1) * p.width] for r in range(p.height)]
    cols = ["".join(row[c] for row in rows) for c in range(p.width)]
    assert any("CREMEBRULEE" in line.split(".") for line in rows + cols)


@pytest.mark.parametrize("case", list(CASES))
def test_xd_clue_one_line(exported, numbers, case):
    direction, number, enum = numbers[letters(NAME_OF[case])]
    answer = letters(NAME_OF[case])
    line = f"{direction[0].upper()}{number}. "
    (hit,) = [ln for ln in exported["xd"].split("\n") if ln.startswith(line)]
    assert hit.endswith(f" ~ {answer}")
    assert squash(hit[len(line): -len(f" ~ {answer}")]) == squash(f"{CASES[case]} ({enum})".replace("\\", "\u29f5"))
    clues = {(d, n): (c, a) for (d, n), c, a in exported["xd-data"].clues}
    assert clues[(direction[0].upper(), number)][1] == answer


def test_xd_structure(exported, numbers):
    xd = exported["xd-data"]
    clue_lines = [ln for ln in exported["xd"].split("\n") if re.match(r"[AD]\d+\. ", ln)]
    assert len(clue_lines) == len(xd.clues) == len(CASES)
    assert squash(xd.get_header("Title")) == squash(TITLE)
    assert squash(xd.get_header("Author")) == squash(META["author"])
    cols = ["".join(row[c] for row in xd.grid) for c in range(len(xd.grid[0]))]
    assert any("CREMEBRULEE" in line for line in list(xd.grid) + cols)


def txt_clues(text: str) -> list[str]:
    """The clue lines of a .txt, each with the lines it wraps onto (indented under its text) joined on."""
    out: list[str] = []
    for ln in text.split("\n"):
        if re.match(r" *\d+\. ", ln):
            out.append(ln)
        elif out and ln.startswith(" " * 5) and ln.strip():
            out[-1] += " " + ln.strip()
        elif out and out[-1] is not None:
            out.append(None)  # anything else ends the clue
    return [c for c in out if c is not None]


@pytest.mark.parametrize("case", list(CASES))
def test_txt_clue_one_line(exported, numbers, case):
    # one clue each (a long one wraps onto lines indented under its text, within 80 columns)
    _, number, enum = numbers[letters(NAME_OF[case])]
    want = squash(f"{CASES[case]} ({enum})")
    hits = [ln for ln in txt_clues(exported["txt"]) if re.match(rf" *{number}\. ", ln) and squash(ln.split(". ", 1)[1]) == want]
    assert len(hits) == 1
    assert all(len(ln) <= 80 for ln in exported["txt"].split("\n") if re.match(r" *\d+\. ", ln))


def test_txt_structure(exported):
    lines = exported["txt"].split("\n")
    assert lines[0] == " ".join(one_line(TITLE).split()) and "\x1b" not in exported["txt"]
    clue_lines = [ln for ln in lines if re.match(r" *\d+\. ", ln)]
    assert len(clue_lines) == 2 * len(CASES)  # the clues, then the answers under "Solution"
    assert "CREME BRULEE" in exported["txt"] and "RECAST" in exported["txt"]


MD_ESCAPE = re.compile(r"\\(.)")


@pytest.mark.parametrize("case", list(CASES))
def test_markdown_clue_one_item(exported, numbers, case):
    _, number, enum = numbers[letters(NAME_OF[case])]
    items = [ln for ln in exported["md"].split("\n") if ln.startswith(f"- **{number}.** ")]
    shown = [loose(MD_ESCAPE.sub(r"\1", ln.split("** ", 1)[1])) for ln in items]
    assert loose(f"{CASES[case]} ({enum})") in shown
    for ln in items:  # every character Markdown or HTML could act on is escaped
        bare = MD_ESCAPE.sub("", ln.split("** ", 1)[1])
        assert not set(bare) & set("<>&*_`[]|#\\")


def test_markdown_structure(exported):
    lines = exported["md"].split("\n")
    assert lines[0].startswith("# ")
    raw_tags = re.findall(r"(?<!\\)<(/?[a-z]+)", exported["md"])  # only our <details> fold is HTML
    assert set(raw_tags) == {"details", "/details", "summary", "/summary"}
    assert [ln for ln in lines if ln.startswith("#")] == [lines[0], "## Across", "## Down"]
    assert len([ln for ln in lines if ln.startswith("- **")]) == len(CASES)
    assert "CREME BRULEE" in exported["md"]


# ------------------------------------------------------------- folding


def test_accented_answers_fold_to_grid_letters(puzzle, exported):
    by_letters = {e.answer: e for e in puzzle.entries}
    assert by_letters["CREMEBRULEE"].display == "CREME BRULEE" and by_letters["CREMEBRULEE"].enumeration == "5,6"
    assert by_letters["RECAST"].display == "RECAST"
    ipuz_sol = exported["ipuz-data"]["solution"]
    assert {ch for row in ipuz_sol for ch in row if ch} <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    table = exported["json-data"]["table_string"]
    assert "CREMEBRULEE" in table.replace("-", " ").split() or "CREMEBRULEE" in "".join(
        "".join(col) for col in zip(*table.split("\n")))
