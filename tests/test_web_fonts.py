"""The web pages use the fonts the prints use: shipped with the site, declared relatively, no more than used."""

from __future__ import annotations

import json
import re

import pytest
from fontTools.ttLib import TTFont

from site_builder.config import SiteConfig
from site_builder.render.fonts import FACES, FONTS_DIR, WEB_LATIN, WEB_PARTS, code_points, unicode_range, web_font
from site_builder.site import STATIC, service_worker, write_site_files

from .conftest import ROOT

FONT_FACE = re.compile(r"@font-face\s*{([^}]*)}")


@pytest.fixture(scope="module")
def static(tmp_path_factory):
    out = tmp_path_factory.mktemp("public")
    write_site_files(out, [], SiteConfig())
    return out / "static"


def test_font_files_and_licences_are_published(static):
    published = sorted(p.name for p in (static / "fonts").iterdir() if not p.name.startswith("OFL-"))
    # no TrueType (WOFF2 is a third the bytes), each face in its parts
    assert published == sorted(web_font(file, part) for file, *_ in FACES.values() for part in WEB_PARTS)
    for name in published:
        assert (static / "fonts" / name).read_bytes() == (STATIC / "fonts" / name).read_bytes()
    licences = sorted(p.name for p in (static / "fonts").glob("OFL-*.txt"))
    assert licences == sorted(p.name for p in FONTS_DIR.glob("OFL-*.txt")) and licences
    assert not (static / "fonts" / "fonts.conf").exists()


def test_fonts_css_declares_the_shipped_faces_relatively(static):
    sheet = "fonts.css"
    css = (static / sheet).read_text(encoding="utf-8")
    faces = FONT_FACE.findall(css)
    declared = set()
    for body in faces:
        url = re.search(r'url\("([^"]+)"\)', body).group(1)
        assert not re.match(r"[a-z]+:|/", url), f"{sheet}: {url} must be relative (offline, file://)"
        assert (static / url).is_file(), f"{sheet}: {url} is not published"
        family = re.search(r'font-family:\s*"([^"]+)"', body).group(1)
        weight = int(re.search(r"font-weight:\s*(\d+)", body).group(1))
        style = re.search(r"font-style:\s*(\w+)", body).group(1)
        declared.add((family, weight, style, url.rsplit("/", 1)[-1]))
        # each part is declared for exactly the characters it holds: a browser fetches it for no other
        held = set(TTFont(static / url).getBestCmap())
        assert code_points(re.search(r"unicode-range:\s*([^;]+);", body).group(1)) == held, url
    assert declared == {(fam, w, st, web_font(file, part)) for file, fam, w, st in FACES.values() for part in WEB_PARTS}
    assert all('format("woff2")' in body for body in faces)


@pytest.mark.parametrize("face", sorted(FACES))
def test_each_web_font_is_its_print_font_in_two_parts(face):
    """The WOFF2 parts (tools/webfonts) hold the print font's every character between them, drawn outline
    for outline at the same advance: a page shows what the PDF prints, and a font changed without re-running
    the tool fails. The first part holds the Latin characters nearly every page needs, the second the rest."""
    from fontTools.pens.recordingPen import DecomposingRecordingPen

    file = FACES[face][0]
    ttf = TTFont(FONTS_DIR / file)
    parts = {part: TTFont(STATIC / "fonts" / web_font(file, part)) for part in WEB_PARTS}
    assert all(font.flavor == "woff2" for font in parts.values())
    whole = ttf.getBestCmap()
    held = {part: font.getBestCmap() for part, font in parts.items()}
    assert set(held["latin"]) == set(whole) & code_points(WEB_LATIN) and set(held["more"]) == set(whole) - set(held["latin"])

    glyphs = {id(font): font.getGlyphSet() for font in (ttf, *parts.values())}

    def drawn(font, name):
        pen = DecomposingRecordingPen(glyphs[id(font)])
        glyphs[id(font)][name].draw(pen)
        return pen.value, font["hmtx"][name][0]

    for part, font in parts.items():
        for cp, name in held[part].items():
            assert drawn(font, name) == drawn(ttf, whole[cp]), f"{web_font(file, part)}: U+{cp:04X} differs"
        # kerning and the other layout features come along
        for table in ("GPOS", "GSUB"):
            assert (table in font) == (table in ttf), f"{web_font(file, part)}: {table}"
    # the pairs of Latin letters kern in the Latin part as in the print font (its GPOS pair adjustments)
    letters = [chr(c) for c in (*range(ord("A"), ord("Z") + 1), *range(ord("a"), ord("z") + 1))]
    latin = parts["latin"]
    pairs = [(a, b) for a in letters for b in letters]
    theirs = [kerning(ttf, whole[ord(a)], whole[ord(b)]) for a, b in pairs]
    assert any(theirs), "no kerning found in the print font: the check below would prove nothing"
    ours = [kerning(latin, held["latin"][ord(a)], held["latin"][ord(b)]) for a, b in pairs]
    assert ours == theirs


def kerning(font, left: str, right: str) -> int:
    """The horizontal adjustment of a pair of glyphs, summed over the font's pair-positioning lookups."""
    total = 0
    for lookup in font["GPOS"].table.LookupList.Lookup:
        for sub in lookup.SubTable:
            kind = lookup.LookupType
            if kind == 9:  # an extension: the real subtable inside
                kind, sub = sub.ExtensionLookupType, sub.ExtSubTable
            if kind != 2 or left not in sub.Coverage.glyphs:
                continue
            value = None
            if sub.Format == 1:
                pairs = sub.PairSet[sub.Coverage.glyphs.index(left)].PairValueRecord
                value = next((r.Value1 for r in pairs if r.SecondGlyph == right), None)
            else:
                first, second = sub.ClassDef1.classDefs.get(left, 0), sub.ClassDef2.classDefs.get(right, 0)
                value = sub.Class1Record[first].Class2Record[second].Value1
            if value is not None:
                total += getattr(value, "XAdvance", 0) or 0
                break  # a shaper applies a lookup's first subtable that covers the pair
    return total
    for table in ("name", "OS/2"):  # the licence and the metrics a browser lays lines out by
        if table == "name":
            assert {(n.nameID, n.toUnicode()) for n in parts["latin"]["name"].names} == \
                {(n.nameID, n.toUnicode()) for n in ttf["name"].names}
        else:
            for attr in ("sTypoAscender", "sTypoDescender", "sTypoLineGap", "usWinAscent", "usWinDescent"):
                assert getattr(parts["latin"]["OS/2"], attr) == getattr(ttf["OS/2"], attr), attr


def test_the_service_worker_keeps_a_fonts_second_part_only_when_a_page_uses_it():
    static = {"static/site.css": b"a", "static/fonts/X-latin.woff2": b"b", "static/fonts/X-more.woff2": b"c"}
    files = json.loads(re.search(r"var FILES = (\[[^\]]*\]);", service_worker(static)).group(1))
    assert files == ["static/fonts/X-latin.woff2", "static/site.css"]


def test_unicode_range_values_read_back_as_written():
    points = {0x20, 0x21, 0x22, 0x41, 0x2190, 0x2191, 0x10FFFF}
    assert unicode_range(points) == "U+0020-0022, U+0041, U+2190-2191, U+10FFFF"
    assert code_points(unicode_range(points)) == points
    assert code_points("U+0000-00FF, U+0131") == set(range(256)) | {0x131}


@pytest.mark.parametrize("sheet, template", [("site.css", "base.html"), ("player.css", "puzzle.html")])
def test_every_page_loads_the_fonts_and_names_them_first(static, sheet, template):
    css = (static / sheet).read_text(encoding="utf-8")
    # serif and sans lead their stacks, so an installed font of another name never wins
    assert re.search(r'--serif:\s*"Source Serif Pro"', css) and re.search(r'--sans:\s*"Source Sans Pro"', css)
    page = (ROOT / "templates" / template).read_text(encoding="utf-8")
    assert page.index('static/fonts.css"') < page.index(f'static/{sheet}"')


def test_every_published_stylesheet_points_at_published_files(static):
    """A stylesheet on the site links only files the site has (pdf.css, whose fonts live in the package, stays out)."""
    assert not (static / "pdf.css").exists()
    for sheet in sorted(static.glob("*.css")):
        for url in re.findall(r'url\("?([^")]+)"?\)', sheet.read_text(encoding="utf-8")):
            if not url.startswith("data:"):
                assert (sheet.parent / url).is_file(), f"{sheet.name}: {url} is not published"


def test_standalone_svgs_fall_back_to_a_generic_family():
    from site_builder.render.svg import render_svg
    from tests.test_render_svg import tricky_puzzle

    families = set(re.findall(r'font-family="([^"]+)"', render_svg(*tricky_puzzle())))
    assert families == {"'Source Sans Pro', sans-serif", "'Source Serif Pro', serif"}
