"""SVG render: valid XML, every clue and number, escaping, and wrapping measured with the real font."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import xml.etree.ElementTree as ET

import pytest
from fontTools.ttLib import TTFont

from site_builder.layout import layout_entries
from site_builder.model import Entry, LayoutParams, Puzzle, PuzzleMeta
from site_builder.render.fonts import FONTS_DIR, unseen
from site_builder.render.svg import render_svg
from site_builder.render.text import clue_text

NS = {"s": "http://www.w3.org/2000/svg"}

TRICKY = (
    Entry("CAT", 'Tom & Jerry\'s "rival" <feline> (no tags!)', line=1),
    Entry("TAR", "Ωμέγα, Москва and 東京 with emoji 🐈‍⬛ 👍🏽", line=2),
    Entry("ACE", "A" * 80 + " unbreakable run, then normal words to wrap across the column", line=3),
    Entry("RAT", "", line=4, fill=True),
)


def tricky_puzzle() -> tuple[Puzzle, object]:
    meta = PuzzleMeta('Cats & <Dogs> "Quoted" \'Title\'', dt.date(2026, 3, 1), author="O'Brien & Sons")
    puzzle = Puzzle("tricky", meta, TRICKY)
    return puzzle, layout_entries(TRICKY, LayoutParams(seeds=4))


@pytest.fixture(scope="module")
def tp(request):
    from site_builder.layout import layout_puzzle, params_for
    from site_builder.source import read_puzzle
    from tests.conftest import SAMPLES

    puzzle = read_puzzle(SAMPLES / "twin-peaks.txt")
    return puzzle, layout_puzzle(puzzle, params_for(puzzle, seed=0))


def clue_texts(root) -> dict[int, list[str]]:
    """Clue number -> the joined text of each clue group (Across first)."""
    out: dict[int, list[str]] = {}
    for g in root.iterfind(".//s:g[@class='clue']", NS):
        lines = [t.text or "" for t in g.iterfind("s:text[@class='line']", NS)]
        out.setdefault(int(g.get("data-number")), []).append(" ".join(lines))
    return out


def test_svg_parses_and_holds_every_clue_and_number(tp):
    puzzle, layout = tp
    for solution in (False, True):
        root = ET.fromstring(render_svg(puzzle, layout, solution=solution))
        texts = clue_texts(root)
        for p in layout.placements:
            assert clue_text(p) in texts[p.number], p
        numbers = [int(t.text) for t in root.iterfind(".//s:g[@class='numbers']/s:text", NS)]
        assert sorted(numbers) == sorted(set(layout.numbers.values()))
        headings = [t.text for t in root.iterfind(".//s:text[@class='heading']", NS)]
        assert headings == ["ACROSS", "DOWN"]
        assert root.find("s:title", NS).text.startswith("Twin Peaks")


def test_grid_draws_letter_cells_shaded_holes_and_solution_letters(tp):
    puzzle, layout = tp
    root = ET.fromstring(render_svg(puzzle, layout))
    paths = root.findall(".//s:g[@class='grid']/s:path", NS)
    holes = [p for p in paths if p.get("class") == "holes"]
    cells = [p for p in paths if p.get("class") != "holes"]
    assert len(cells) == 2  # the black outline squares, then the white cell faces
    for path in cells:
        assert path.get("d").count("M") == layout.letter_cells
    assert sum(p.get("d").count("M") for p in holes) == len(layout.holes)  # shaded, under the outline
    assert root.find(".//s:g[@class='letters']", NS) is None
    sol = ET.fromstring(render_svg(puzzle, layout, solution=True))
    letters = "".join(t.text for t in sol.iterfind(".//s:g[@class='letters']/s:text", NS))
    assert letters == "".join(ch for _, ch in sorted(layout.cells.items()))


def test_escaping_non_latin_and_emoji():
    puzzle, layout = tricky_puzzle()
    svg = render_svg(puzzle, layout, solution=True)
    root = ET.fromstring(svg)  # valid XML whatever the clue holds
    assert root.find("s:title", NS).text == 'Cats & <Dogs> "Quoted" \'Title\' (solution)'
    title = " ".join(t.text for t in root.iterfind(".//s:g[@class='title']/s:text", NS))
    assert title == 'Cats & <Dogs> "Quoted" \'Title\''
    texts = clue_texts(root)
    by_answer = {p.entry.answer: p for p in layout.placements}
    for answer, p in by_answer.items():
        joined = texts[p.number]
        if answer == "ACE":  # the 80-letter run is split by characters: compare without spaces
            assert any(j.replace(" ", "") == clue_text(p).replace(" ", "") for j in joined)
        else:
            assert unseen(clue_text(p)) in joined  # less the joiner in the black cat, which draws nothing
    if "RAT" in by_answer:
        assert "(no clue yet) (3)" in texts[by_answer["RAT"].number]
    assert "<feline>" not in svg and "&lt;feline&gt;" in svg
    assert "🐈" in svg and "東京" in svg


def test_invisible_characters_draw_no_box_in_the_pictures():
    """An emoji's variation selector, a joiner or a soft hyphen draws nothing; the shipped fonts lack
    them, and cairo would draw each as a box. They are left out of the SVG (and so the PNG)."""
    from site_builder.render.fonts import metrics

    clue = "Hot pepper \U0001f336\ufe0f, soft\u00adhyphen, zero\u200bwidth, family \U0001f468\u200d\U0001f469"
    entries = (Entry("CHILE", clue, line=1), Entry("LIME", "Citrus", line=2))
    layout = layout_entries(entries, LayoutParams(seeds=2))
    svg = render_svg(Puzzle("pep", PuzzleMeta("Pep\ufe0f", dt.date(2026, 1, 1)), entries), layout)
    drawn = "".join(t.text or "" for t in ET.fromstring(svg).iterfind(".//s:text", NS))
    assert drawn and not any(ch in drawn for ch in "\ufe0f\u00ad\u200b\u200d")
    assert ET.fromstring(svg).find("s:title", NS).text == "Pep\ufe0f"  # the title, which is not drawn, keeps it
    assert "Hot pepper \U0001f336, softhyphen, zerowidth, family \U0001f468\U0001f469 (5)" in " ".join(
        t for texts in clue_texts(ET.fromstring(svg)).values() for t in texts)
    serif = metrics("serif")
    assert serif.width("pepper\ufe0f\u00ad", 12) == serif.width("pepper", 12)  # the wrap measures what is drawn


def test_an_enumeration_after_a_right_to_left_word_stays_at_the_clues_end():
    """A browser's bidi set "(6)" before a Hebrew last word: 'capital (6) ירושלים'. A left-to-right mark
    keeps it after; the PNG's SVG goes without (cairo draws the mark as a box)."""
    hebrew = "\u05d9\u05e8\u05d5\u05e9\u05dc\u05d9\u05dd"
    entries = (Entry("ISRAEL", f"On the map, capital {hebrew}", line=1), Entry("SALAMI", "A sausage", line=2),
               Entry("LIME", "A fruit", line=3))
    layout = layout_entries(entries, LayoutParams(seeds=2))
    puzzle = Puzzle("rtl", PuzzleMeta("RTL", dt.date(2026, 1, 1)), entries)
    svg = render_svg(puzzle, layout)
    lines = [t for texts in clue_texts(ET.fromstring(svg)).values() for t in texts]
    assert f"On the map, capital {hebrew}\u200e (6)" in lines and "A sausage (6)" in lines
    assert svg.count("\u200e") == 1  # only where a right-to-left word comes before the enumeration
    assert "\u200e" not in render_svg(puzzle, layout, fonts=False)


def test_control_characters_never_break_the_xml():
    entries = (Entry("CAT", "bell\x07 and form\x0cfeed", line=1), Entry("TAR", "ok", line=2))
    meta = PuzzleMeta("Ctl\x01", dt.date(2026, 1, 1))
    layout = layout_entries(entries, LayoutParams(seeds=2))
    ET.fromstring(render_svg(Puzzle("ctl", meta, entries), layout))


class _Measure:
    """Advance widths straight from a font file, independent of the renderer's own tables."""

    def __init__(self, file: str):
        font = TTFont(FONTS_DIR / file)
        self.upem = font["head"].unitsPerEm
        self.cmap = font.getBestCmap()
        self.hmtx = font["hmtx"]

    def width(self, text: str, size: float) -> float:
        units = sum(self.hmtx[self.cmap.get(ord(ch), ".notdef")][0] for ch in text)
        return units * size / self.upem


def _check_columns(svg: str) -> int:
    serif = _Measure("SourceSerifPro-Regular.ttf")
    root = ET.fromstring(svg)
    checked = 0
    width = float(root.get("width"))
    columns = root.findall(".//s:g[@class='column']", NS)
    assert len(columns) == 2
    rights = []
    for col in columns:
        right = float(col.get("data-right"))
        rights.append((float(col.get("data-left")), right))
        for t in col.iterfind(".//s:text[@class='line']", NS):
            assert t.get("font-family").split(",")[0].strip("' ") == "Source Serif Pro"  # what cairosvg draws with
            end = float(t.get("x")) + serif.width(t.text or "", float(t.get("font-size")))
            assert end <= right + 1e-6, f"{t.text!r} ends at {end:.1f}, past the column edge {right}"
            checked += 1
        assert right <= width
    assert rights[0][1] < rights[1][0], "columns overlap"
    return checked


def test_wrapped_lines_stay_inside_their_column(tp):
    puzzle, layout = tp
    assert _check_columns(render_svg(puzzle, layout)) > len(layout.placements)
    puzzle, layout = tricky_puzzle()
    assert _check_columns(render_svg(puzzle, layout)) >= 4


def test_columns_are_balanced(tp):
    puzzle, layout = tp
    root = ET.fromstring(render_svg(puzzle, layout))
    bottoms = []
    for col in root.findall(".//s:g[@class='column']", NS):
        ys = [float(t.get("y")) for t in col.iter("{http://www.w3.org/2000/svg}text")]
        bottoms.append(max(ys))
    assert abs(bottoms[0] - bottoms[1]) <= 3 * 20 + 30  # within a tall clue or so


def test_svg_is_deterministic_in_process(tp):
    puzzle, layout = tp
    assert render_svg(puzzle, layout) == render_svg(puzzle, layout)
    assert not re.search(r"20\d\d-\d\d-\d\dT", render_svg(puzzle, layout))


def test_a_short_list_puts_across_and_down_in_their_own_columns():
    """Split 'Across 1 | 3, Down 2' the second column opened mid-list with no heading; a near tie goes to the lists."""
    from site_builder.render.svg import Block, balance

    blocks = [Block("heading", "Across"), Block("clue", "Top card", 1, ("Top card (3)",)),
              Block("clue", "Faucet", 3, ("Faucet (3)",)), Block("heading", "Down"),
              Block("clue", "Feline pet", 2, ("Feline pet (3)",))]
    assert [[b.text for b in col] for col in balance(blocks)] == [["Across", "Top card", "Faucet"], ["Down", "Feline pet"]]
    # but a long Across list still shares its columns evenly
    many = [Block("heading", "Across")] + [Block("clue", f"c{i}", i, ("x",)) for i in range(20)] + \
           [Block("heading", "Down"), Block("clue", "d", 99, ("x",))]
    left, right = balance(many)
    assert right[0].kind == "clue" and abs(sum(b.height for b in left) - sum(b.height for b in right)) < 40


def test_the_answer_key_opens_fewer_columns_for_a_short_list(tp):
    from site_builder.render.pdf import key_columns, sheet_for

    puzzle, layout = tp
    paper = sheet_for(puzzle, layout)
    assert key_columns(layout, paper) == 4
    assert key_columns(dataclasses.replace(layout, placements=layout.placements[:3]), paper) == 1
    assert key_columns(dataclasses.replace(layout, placements=layout.placements[:12]), paper) == 2


def test_a_clue_wraps_with_its_enumeration_on_its_last_words_line():
    from site_builder.render.fonts import text_width
    from site_builder.render.svg import wrap

    text = "Capital near the ruins (8)"
    width = text_width("Capital near the ruins", "serif", 16) + 2  # room for the clue, not its enumeration
    assert wrap(text, "serif", 16, width)[-1] == "(8)"
    assert wrap(text, "serif", 16, width, keep_last=True) == ["Capital near the", "ruins (8)"]
    # a last word and enumeration wider than the line still wrap apart, never by characters
    assert wrap("Go Supercalifragilistic (20)", "serif", 16, text_width("Supercalifragilistic", "serif", 16) + 1,
                keep_last=True) == ["Go", "Supercalifragilistic", "(20)"]


def test_a_word_too_long_for_its_line_breaks_after_a_hyphen_where_one_fits():
    """A long hyphenated title was cut mid-letters ('Antidisestabli' / 'shmentarianism-') in the pictures,
    where the PDF breaks after its hyphens."""
    from site_builder.render.svg import wrap

    title = "Supercalifragilisticexpialidocious-Antidisestablishmentarianism-Floccinaucinihilipilification"
    assert wrap(title, "serif-bold", 32, 720) == [
        "Supercalifragilisticexpialidocious-", "Antidisestablishmentarianism-", "Floccinaucinihilipilification"]
    # without one, by characters, every line filled
    lines = wrap("Antidisestablishmentarianism" * 2, "serif-bold", 32, 300)
    assert "".join(lines) == "Antidisestablishmentarianism" * 2 and len(lines) == 4


def test_without_a_subsetter_the_svg_names_its_fonts_alone(tp, monkeypatch):
    from site_builder.render import fonts

    monkeypatch.setattr(fonts, "_harfbuzz", lambda: None)
    root = ET.fromstring(render_svg(*tp))
    assert root.find("s:style", NS) is None and root.findall(".//s:text[@class='line']", NS)


def test_the_svg_carries_the_glyphs_it_draws(tp):
    """A viewer without Source Serif drew the clues in its own, wider face, and two-digit numbers ran into
    their clues: the SVG embeds each face it draws with, cut to the characters drawn, and the clue numbers
    end at the gutter whatever face draws them."""
    import base64
    import io

    from site_builder.render.fonts import _harfbuzz

    if _harfbuzz() is None:
        pytest.skip("this system's HarfBuzz has no subsetter (libharfbuzz-subset0, which tools/system-deps installs)")
    puzzle, layout = tp
    for solution in (False, True):
        svg = render_svg(puzzle, layout, solution=solution)
        root = ET.fromstring(svg)
        faces = {}
        for rule in re.findall(r"@font-face\{([^}]*)\}", root.find("s:style", NS).text):
            family = re.search(r'font-family:"([^"]+)"', rule).group(1)
            weight = int(re.search(r"font-weight:(\d+)", rule).group(1))
            data = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)\)", rule).group(1))
            assert data[:4] == b"wOFF"
            faces[(family, weight)] = set(TTFont(io.BytesIO(data)).getBestCmap())
        drawn = {("Source Serif Pro", 700): root.iterfind(".//s:g[@class='title']/s:text", NS),
                 ("Source Serif Pro", 400): root.iterfind(".//s:text[@class='line']", NS),
                 ("Source Sans Pro", 700): [*root.iterfind(".//s:text[@class='number']", NS),
                                            *root.iterfind(".//s:text[@class='heading']", NS),
                                            *root.iterfind(".//s:g[@class='letters']/s:text", NS)],
                 ("Source Sans Pro", 400): [*root.iterfind(".//s:g[@class='byline']/s:text", NS),
                                            *root.iterfind(".//s:g[@class='numbers']/s:text", NS)]}
        assert set(faces) == set(drawn)
        for face, texts in drawn.items():
            chars = {ord(ch) for t in texts for ch in t.text or ""}
            assert chars and chars <= faces[face], (face, sorted(chr(c) for c in chars - faces[face]))
            assert faces[face] - chars <= {ord(" ")}, face  # cut to what is drawn
        numbers = root.findall(".//s:text[@class='number']", NS)
        assert numbers and {t.get("text-anchor") for t in numbers} == {"end"}
        assert len({t.get("x") for t in numbers}) == 2  # one right edge a column
        assert len(svg) < 3 * 28_000  # cut to what is drawn: the faces whole are a megabyte
