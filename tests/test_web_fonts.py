"""The web pages use the fonts the prints use: shipped with the site, declared relatively, no more than used."""

from __future__ import annotations

import re

import pytest

from site_builder.config import SiteConfig
from site_builder.render.fonts import FACES, FONTS_DIR, web_font
from site_builder.site import STATIC, write_site_files

from .conftest import ROOT

FONT_FACE = re.compile(r"@font-face\s*{([^}]*)}")


@pytest.fixture(scope="module")
def static(tmp_path_factory):
    out = tmp_path_factory.mktemp("public")
    write_site_files(out, [], SiteConfig())
    return out / "static"


def test_font_files_and_licences_are_published(static):
    published = sorted(p.name for p in (static / "fonts").iterdir() if not p.name.startswith("OFL-"))
    assert published == sorted(web_font(file) for file, *_ in FACES.values())  # no TrueType: a third the bytes
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
    assert declared == {(fam, w, st, web_font(file)) for file, fam, w, st in FACES.values()}
    assert all('format("woff2")' in body for body in faces)


@pytest.mark.parametrize("face", sorted(FACES))
def test_each_web_font_is_its_print_font(face):
    """The WOFF2 copies (tools/webfonts) hold the print fonts' every character and glyph, outline for
    outline: a page shows what the PDF prints, and a font changed without re-running the tool fails."""
    from fontTools.ttLib import TTFont

    file = FACES[face][0]
    ttf, woff2 = TTFont(FONTS_DIR / file), TTFont(STATIC / "fonts" / web_font(file))
    assert woff2.flavor == "woff2"
    assert woff2.getBestCmap() == ttf.getBestCmap()
    assert woff2.getGlyphOrder() == ttf.getGlyphOrder()
    for table in ("glyf", "hmtx", "kern", "GPOS", "GSUB", "name", "OS/2"):
        if table in ttf:
            assert woff2[table].compile(woff2) == ttf[table].compile(ttf), f"{web_font(file)}: {table} differs"


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
