"""Property tests (hypothesis) on the parser, the linter and the layout engine.

- Any text, and any bytes, give a Puzzle or our PuzzleError/PuzzleErrors, never another exception.
- A generated valid file parses back to the entries it was written from.
- For any list of answers, every registered strategy ends, raises only its
  documented errors, and every grid it returns obeys the placement invariant.
"""

from __future__ import annotations

import re
import string
import unicodedata
from pathlib import Path

import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from site_builder.errors import LayoutError, PuzzleError, PuzzleErrors
from site_builder.layout import STRATEGIES, layout_entries
from site_builder.lint import check_entries
from site_builder.model import Entry, LayoutParams
from site_builder.source import decode_source, load_puzzle, normalise_answer, parse_source

from .helpers import assert_valid

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Pieces a puzzle file is made of, so random text reaches past the first line.
FRAGMENTS = st.sampled_from(
    [
        "---", "\n", "\r\n", "\r", "\ufeff", "|", " | ", "*", "#", ":", "title: T", "date: 2026-01-02", "size: ",
        "tags: [", "]", "{", "}", "&a", "*a", "!!python/object:os.system", "? ", "- ", "'", '"', "COOPER", "log lady",
        "Crème", "ß", "R2D2", "-", "9" * 30, "2026-13-45", "0000-01-01", "seed: -1", "strategy: ", "\t", "\x00", "…",
    ]
)
TEXTS = st.one_of(st.text(), st.lists(st.one_of(FRAGMENTS, st.text(max_size=5)), max_size=40).map("".join))


@FAST
@given(TEXTS, st.booleans())
def test_parser_returns_a_puzzle_or_our_errors(text, require_front_matter):
    try:
        puzzle = load_puzzle(text, path="p.txt", require_front_matter=require_front_matter)
    except (PuzzleError, PuzzleErrors) as exc:
        errors = exc.errors if isinstance(exc, PuzzleErrors) else [exc]
        assert errors and all(str(e).startswith("p.txt") for e in errors)
        return
    assert puzzle.entries
    for e in puzzle.entries:
        assert e.answer.isascii() and e.answer.isalpha() and e.answer.isupper() and len(e.answer) >= 2
        assert e.clue == e.clue.strip() and e.clue


@FAST
@given(TEXTS)
def test_lint_checks_never_raise(text):
    parsed = parse_source(text, path="p.txt")
    for d in check_entries("p.txt", parsed.entries, parsed.lines):
        assert d.line is not None and d.level == "warning"


@FAST
@given(st.binary(max_size=200))
def test_any_bytes_decode_or_raise_our_error(data):
    try:
        text = decode_source(data, Path("b.txt"))
    except PuzzleError as exc:
        assert str(exc).startswith("b.txt")
        return
    assert "\r" not in text


# --------------------------------------------------------------- round trip

WORDS = st.text(alphabet=string.ascii_letters + "éÉüÑ", min_size=1, max_size=6)
ANSWERS = st.builds(
    lambda words, seps: words[0] + "".join(s + w for s, w in zip(seps, words[1:])),
    st.lists(WORDS, min_size=1, max_size=3),
    st.lists(st.sampled_from([" ", "-", "  "]), min_size=2, max_size=2),
)
# Any one-line text but the line breaks the parser splits on; it must hold something besides blanks.
# "[[" opens a reference to another answer (README, Source format): text of its own, tested in test_source
CLUES = st.text(st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",)), min_size=1,
                max_size=40).filter(lambda clue: "[[" not in clue)

def read_as(clue: str) -> str:
    """What a clue reads as, restated here as the README says it (not site_builder's code): tabs and
    line-breaking characters are spaces, other control characters go, runs of spaces are one, and
    accented letters are composed (NFC)."""
    breaks = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\u2028\u2029"
    kept = "".join(" " if ch in breaks else "" if ord(ch) < 32 or 127 <= ord(ch) < 160 else ch for ch in clue)
    # surrogates and Unicode's noncharacters (U+FDD0 to U+FDEF, the last two of every plane) are no text
    kept = "".join(ch for ch in kept if not ("\ud800" <= ch <= "\udfff" or 0xFDD0 <= ord(ch) <= 0xFDEF
                                            or ord(ch) & 0xFFFE == 0xFFFE))
    return unicodedata.normalize("NFC", re.sub(" +", " ", kept).strip())


def shows(text: str) -> bool:
    """Whether text shows anything, as the README says: not only spaces and invisible characters
    (format characters such as a zero-width space or a soft hyphen, Hangul fillers, the blank Braille
    pattern, variation selectors)."""
    blanks = "\u115f\u1160\u3164\uffa0\u2800\ufe0e\ufe0f"
    return any(not ch.isspace() and unicodedata.category(ch) != "Cf" and ch not in blanks for ch in text)



@FAST
@given(
    st.lists(st.tuples(ANSWERS, CLUES, st.booleans()), min_size=1, max_size=8),
    st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=20),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.booleans(),
)
def test_valid_files_round_trip(rows, title, newline, bom):
    rows = [(a, c, r) for a, c, r in rows if shows(read_as(c)) and len(normalise_answer(a).letters) >= 2]
    letters = [normalise_answer(a).letters for a, _, _ in rows]
    assume(rows and len(set(letters)) == len(letters) and all(len(x) <= 23 for x in letters))
    assume(shows(read_as(title)))
    head = yaml.safe_dump({"title": title, "date": "2026-01-02"}, allow_unicode=True, width=10**6)
    assume("---" not in head and "..." not in head)
    lines = ["---", *head.strip().split("\n"), "---", "# entries"]
    lines += [("*" if req else "") + f"{a} | {c}" for a, c, req in rows]
    text = ("\ufeff" if bom else "") + newline.join(lines) + newline
    puzzle = load_puzzle(text, path="r.txt", slug="r")
    assert puzzle.meta.title == read_as(title)  # a title is one line, as a clue is
    got = [(e.answer, e.display, e.enumeration, e.clue, e.required) for e in puzzle.entries]
    want = []
    for a, c, req in rows:
        n = normalise_answer(a)
        want.append((n.letters, n.display, n.enumeration, read_as(c), req))
    assert got == want
    first = len(lines) - len(rows) + 1
    assert [e.line for e in puzzle.entries] == list(range(first, first + len(rows)))


# ------------------------------------------------------------------- layout

# Strategies whose layouts add fill words or word fragments do not keep
# "every run is one listed answer"; they are checked by their own tests.
SKIP = {"adjacency"}
ANSWER_LISTS = st.lists(st.text(alphabet="ABCDELNORST", min_size=2, max_size=9), min_size=1, max_size=12)


def _entries(answers: list[str], required: list[bool]) -> tuple[Entry, ...]:
    return tuple(Entry(a, f"clue {i}", required=r, line=i + 1) for i, (a, r) in enumerate(zip(answers, required)))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ANSWER_LISTS,
    st.lists(st.booleans(), min_size=12, max_size=12),
    st.integers(3, 12),
    st.integers(1, 3),
    st.integers(0, 2**32 - 1) | st.none(),
)
def test_every_strategy_ends_and_keeps_the_invariant(answers, required, size, seeds, seed):
    # The engine's precondition, which the parser and `generate --size` enforce: no answer exceeds the cap.
    answers = [a for a in answers if len(a) <= size]
    assume(answers)
    entries = _entries(answers, required)
    for name in sorted(STRATEGIES):
        if name in SKIP:
            continue
        params = LayoutParams(size=size, seeds=seeds, seed=seed, strategy=name, effort=1)
        try:
            layout = layout_entries(entries, params)
        except LayoutError:
            continue
        assert_valid(layout)
        assert layout.rows <= size and layout.cols <= size
        placed = sorted(p.entry.line for p in layout.placements)
        assert sorted(placed + [e.line for e in layout.unplaced]) == [e.line for e in entries]
        assert layout.placements, "a list whose answers all fit places at least one"


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(), st.text(alphabet=" ~abcXYZ019|'\t\u00a0\u2028\x07e\u0301\u00e9", max_size=12)))
def test_one_lines_fast_path_gives_what_the_full_reading_gives(text):
    """A plain ASCII clue skips the character-by-character reading (a no-op build of 50 puzzles read
    1,300 clues that way); any text comes out as that reading gives it."""
    from site_builder.source import one_line, one_line_positions

    assert one_line(text) == one_line_positions(text)[0]
