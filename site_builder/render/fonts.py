"""The fonts every render uses, and their metrics.

We ship Source Serif Pro and Source Sans Pro (SIL Open Font License, in
`site_builder/fonts/`) and point fontconfig at a pinned config file that lists
only that folder. Importing this module sets FONTCONFIG_FILE, so it must be
imported before cairo, cairosvg or WeasyPrint load fontconfig; svg.py, png.py
and pdf.py import it first. cairosvg takes only the first name of a
`font-family` list and ignores @font-face, so fontconfig is what steers it;
WeasyPrint also gets @font-face rules (site_builder/static/pdf.css).

Metrics come from the font files themselves (fontTools, loaded once), so the
SVG's line wrapping is measured with the glyphs cairo will draw. Characters the
font lacks are measured as its .notdef box, which is what cairo draws for them.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

FONTS_DIR = Path(__file__).resolve().parent.parent / "fonts"
FONTS_CONF = FONTS_DIR / "fonts.conf"

SERIF = "Source Serif Pro"
SANS = "Source Sans Pro"

# face key -> (file, family, CSS weight, CSS style)
FACES: dict[str, tuple[str, str, int, str]] = {
    "serif": ("SourceSerifPro-Regular.ttf", SERIF, 400, "normal"),
    "serif-bold": ("SourceSerifPro-Bold.ttf", SERIF, 700, "normal"),
    "serif-italic": ("SourceSerifPro-It.ttf", SERIF, 400, "italic"),
    "sans": ("SourceSansPro-Regular.ttf", SANS, 400, "normal"),
    "sans-bold": ("SourceSansPro-Semibold.ttf", SANS, 600, "normal"),
}


# The web pages' copy of a face comes in two parts, as WOFF2 (tools/webfonts writes them into
# site_builder/static/fonts/, outside FONTS_DIR, so fontconfig never sees two copies). static/fonts.css
# declares each for the characters it holds (unicode-range), and a browser fetches a part only for a page
# whose text uses one of them: "latin" holds what nearly every page needs (Google Fonts' latin subset, and
# the arrows and marks the pages draw), "more" the rest of the font (Greek, Cyrillic, Vietnamese, the rest
# of Latin, ...). Five faces whole are 343 KB; their latin parts, 147 KB.
WEB_PARTS = ("latin", "more")
WEB_LATIN = (
    "U+0000-00FF, U+0131, U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308, U+0329, "
    "U+2000-206F, U+20AC, U+2122, U+2190-2193, U+2212, U+2215, U+25B4-25BF, U+2713, U+FEFF, U+FFFD"
)


def web_font(file: str, part: str) -> str:
    """The name of one part (WEB_PARTS) of a face's web font, for its TrueType file's name."""
    return f"{file.removesuffix('.ttf')}-{part}.woff2"


def code_points(ranges: str) -> set[int]:
    """The code points of a CSS unicode-range value ('U+0000-00FF, U+0131')."""
    out: set[int] = set()
    for item in ranges.split(","):
        first, _, last = item.strip().removeprefix("U+").partition("-")
        out.update(range(int(first, 16), int(last or first, 16) + 1))
    return out


def unicode_range(points) -> str:
    """The shortest CSS unicode-range value for a set of code points, runs as ranges, in order."""
    runs: list[list[int]] = []
    for cp in sorted(points):
        if runs and cp == runs[-1][1] + 1:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp])
    return ", ".join(f"U+{a:04X}" if a == b else f"U+{a:04X}-{b:04X}" for a, b in runs)


def _fontconfig_loaded() -> bool:
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as fh:
            return "libfontconfig" in fh.read()
    except OSError:
        return False


def configure() -> None:
    """Point fontconfig at our pinned config (idempotent).

    If fontconfig was already loaded by something else in this process, its
    current configuration is rebuilt from our file as well.
    """
    wanted = str(FONTS_CONF)
    _writable_font_cache()  # also when a parent process set FONTCONFIG_FILE: its cache may not be ours
    if os.environ.get("FONTCONFIG_FILE") == wanted:
        return
    loaded = _fontconfig_loaded()
    os.environ["FONTCONFIG_FILE"] = wanted
    os.environ.pop("FONTCONFIG_PATH", None)
    if loaded:
        name = ctypes.util.find_library("fontconfig")
        if name:
            try:
                ctypes.CDLL(name).FcInitReinitialize()
            except (OSError, AttributeError):
                pass


def _writable_font_cache() -> None:
    """fonts.conf caches under $XDG_CACHE_HOME (~/.cache); where that cannot be written (a service user
    whose HOME is /nonexistent), fontconfig prints "No writable cache directories" on every run. It
    rescans the fonts either way, so the outputs are the same: the cache goes to a folder of this user's
    own under the temporary folder instead, and the warning with it."""
    import tempfile

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "crossword-press", "fontconfig")
    try:
        os.makedirs(folder, exist_ok=True)
        if os.access(folder, os.W_OK | os.X_OK):
            return
    except OSError:
        pass
    private = os.path.join(tempfile.gettempdir(), f"crossword-press-cache-{os.getuid()}")
    try:
        os.makedirs(private, mode=0o700, exist_ok=True)
    except OSError:
        return  # nowhere to cache: fontconfig warns, and the renders are the same
    if os.stat(private).st_uid == os.getuid() and os.access(private, os.W_OK | os.X_OK):
        os.environ["XDG_CACHE_HOME"] = private


configure()


@dataclass(frozen=True)
class FaceMetrics:
    """Horizontal advances and vertical metrics of one font file, in font units."""

    units_per_em: int
    advances: dict[int, int]
    notdef: int
    cap_height: int
    ascender: int
    descender: int

    def width(self, text: str, size: float) -> float:
        """Advance width of `text` at `size` (no kerning, as cairo's toy text API draws it); the
        invisible characters `unseen` drops take none."""
        adv = self.advances
        nd = self.notdef
        return sum(adv.get(ord(ch), nd) for ch in unseen(text)) * size / self.units_per_em


# Unicode's default-ignorable code points (DerivedCoreProperties.txt): a soft hyphen, joiners, bidi
# marks, variation selectors (the U+FE0F of an emoji), tags. They draw nothing, but cairo draws a
# character the font lacks as a box, so the pictures drop them (the PDF's Pango skips them itself).
_IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)


def unseen(text: str) -> str:
    """`text` without the default-ignorable characters, which no picture should draw."""
    return _IGNORABLE.sub("", text)


@lru_cache(maxsize=None)
def metrics(face: str) -> FaceMetrics:
    from fontTools.ttLib import TTFont

    file = FACES[face][0]
    font = TTFont(FONTS_DIR / file, lazy=True)
    hmtx = font["hmtx"]
    advances = {cp: hmtx[name][0] for cp, name in font.getBestCmap().items()}
    os2 = font["OS/2"]
    hhea = font["hhea"]
    out = FaceMetrics(
        units_per_em=font["head"].unitsPerEm,
        advances=advances,
        notdef=hmtx[".notdef"][0],
        cap_height=getattr(os2, "sCapHeight", 0) or 650,
        ascender=hhea.ascent,
        descender=hhea.descent,
    )
    font.close()
    return out


def text_width(text: str, face: str, size: float) -> float:
    return metrics(face).width(text, size)



# ------------------------------------------------------------ embedding

# The standalone SVG carries the glyphs it draws (a viewer has no Source Serif: it fell back to its own
# face, wider or narrower than the one the lines were wrapped for, and two-digit clue numbers ran into
# their clues). HarfBuzz cuts each face down to the characters drawn (about a millisecond a face; fontTools'
# subsetter took 200 ms), and fontTools packs the cut font as WOFF (zlib, 3 ms; WOFF2's Brotli took 30 to
# 90 ms for 20% less). The same library WeasyPrint subsets the PDF's fonts with (libharfbuzz-subset0).
_HB_DROP = ("GSUB", "DSIG", "BASE", "JSTF", "LTSH", "PCLT", "EBDT", "EBLC", "EBSC", "SVG ")
_HB_NO_HINTING = 0x1
_HB_SETS_DROP_TABLE_TAG = 3


@lru_cache(maxsize=1)
def _harfbuzz():
    """(libharfbuzz, libharfbuzz-subset) through ctypes, their signatures set; None where either is missing."""
    try:
        hb = ctypes.CDLL(ctypes.util.find_library("harfbuzz") or "libharfbuzz.so.0")
        hbs = ctypes.CDLL(ctypes.util.find_library("harfbuzz-subset") or "libharfbuzz-subset.so.0")
    except OSError:
        return None
    p, u = ctypes.c_void_p, ctypes.c_uint
    try:
        for lib, name, res, args in (
            (hb, "hb_blob_create", p, [ctypes.c_char_p, u, ctypes.c_int, p, p]),
            (hb, "hb_face_create", p, [p, u]),
            (hb, "hb_face_reference_blob", p, [p]),
            (hb, "hb_blob_get_data", p, [p, ctypes.POINTER(u)]),
            (hb, "hb_blob_destroy", None, [p]),
            (hb, "hb_face_destroy", None, [p]),
            (hb, "hb_set_add", None, [p, u]),
            (hbs, "hb_subset_input_create_or_fail", p, []),
            (hbs, "hb_subset_input_unicode_set", p, [p]),
            (hbs, "hb_subset_input_set", p, [p, ctypes.c_int]),
            (hbs, "hb_subset_input_set_flags", None, [p, u]),
            (hbs, "hb_subset_or_fail", p, [p, p]),
            (hbs, "hb_subset_input_destroy", None, [p]),
        ):
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args
    except AttributeError:  # a HarfBuzz older than 2.9
        return None
    return hb, hbs


@lru_cache(maxsize=None)
def _font_bytes(face: str) -> bytes:
    return (FONTS_DIR / FACES[face][0]).read_bytes()


def _subset(data: bytes, text: str) -> bytes | None:
    """The TrueType font `data` cut down to the characters of `text`, no hinting; None where HarfBuzz cannot."""
    libs = _harfbuzz()
    if libs is None:
        return None
    hb, hbs = libs
    blob = hb.hb_blob_create(data, len(data), 1, None, None)  # read-only: `data` outlives the call
    face = hb.hb_face_create(blob, 0)
    plan = hbs.hb_subset_input_create_or_fail()
    try:
        if not plan:
            return None
        chars = hbs.hb_subset_input_unicode_set(plan)
        for cp in sorted({ord(ch) for ch in text}):
            hb.hb_set_add(chars, cp)
        drop = hbs.hb_subset_input_set(plan, _HB_SETS_DROP_TABLE_TAG)
        for tag in _HB_DROP:
            hb.hb_set_add(drop, int.from_bytes(tag.encode("ascii"), "big"))
        hbs.hb_subset_input_set_flags(plan, _HB_NO_HINTING)
        cut = hbs.hb_subset_or_fail(face, plan)
        if not cut:
            return None
        out = hb.hb_face_reference_blob(cut)
        size = ctypes.c_uint()
        where = hb.hb_blob_get_data(out, ctypes.byref(size))
        font = ctypes.string_at(where, size.value) if where and size.value else None
        hb.hb_blob_destroy(out)
        hb.hb_face_destroy(cut)
        return font
    finally:
        if plan:
            hbs.hb_subset_input_destroy(plan)
        hb.hb_face_destroy(face)
        hb.hb_blob_destroy(blob)


def embedded_font(face: str, text: str) -> bytes | None:
    """The face (a FACES key) as a WOFF file holding only the characters of `text` (and a space), the same
    bytes on every run; None where the system's HarfBuzz has no subsetter (the SVG then names the faces
    alone, as before it carried them)."""
    import io

    from fontTools.ttLib import TTFont

    cut = _subset(_font_bytes(face), " " + unseen(text))
    if cut is None:
        return None
    font = TTFont(io.BytesIO(cut), recalcBBoxes=False, recalcTimestamp=False)
    font.flavor = "woff"
    packed = io.BytesIO()
    font.save(packed, reorderTables=True)
    return packed.getvalue()
