"""`crossword lint` and the handling of odd files.

Each tests/fixtures/bad/NAME.txt has a sidecar NAME.expect holding the exact
lint output for it (paths relative to that folder). Every file in
tests/fixtures/good/ must lint clean and parse.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from site_builder.errors import PuzzleError, PuzzleErrors
from site_builder.lint import ERROR, WARNING, lint_file, lint_paths, stem, summary
from site_builder.source import MAX_ENTRIES, MAX_FILE_BYTES, read_puzzle

from .conftest import SAMPLES

FIXTURES = Path(__file__).parent / "fixtures"
BAD = sorted((FIXTURES / "bad").glob("*.txt"))
GOOD = sorted((FIXTURES / "good").glob("*.txt"))
HEAD = "---\ntitle: T\ndate: 2026-01-02\n---\n"


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "site_builder", *args], capture_output=True, text=True, cwd=cwd)


def lint_lines(path: Path) -> list[str]:
    prefix = str(path.parent) + os.sep
    return [str(d).removeprefix(prefix) for d in lint_file(path)]


# ---------------------------------------------------------------- fixtures


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_bad_fixture_gives_its_expected_messages(path):
    expected = path.with_suffix(".expect").read_text(encoding="utf-8").splitlines()
    assert expected, f"{path.name} needs a non-empty {path.stem}.expect"
    assert lint_lines(path) == expected


@pytest.mark.parametrize("path", GOOD, ids=[p.stem for p in GOOD])
def test_good_fixture_is_clean_and_parses(path):
    assert lint_file(path) == []
    assert read_puzzle(path).entries


def test_every_warning_kind_has_a_fixture():
    codes = {d.code for p in BAD for d in lint_file(p) if d.level == WARNING}
    assert codes == {"answer-in-clue", "long-clue", "duplicate-clue", "shared-word", "enumeration-in-clue", "missing-glyph",
                     "puz-utf8", "too-many-letters", "numbered-reference"}


def test_twin_peaks_is_clean():
    assert lint_file(SAMPLES / "twin-peaks.txt") == []


# ---------------------------------------------------------------- warnings


def warnings_for(tmp_path, body: str) -> list[str]:
    f = tmp_path / "w.txt"
    f.write_text(HEAD + body, encoding="utf-8")
    diags = lint_file(f)
    assert all(d.level == WARNING for d in diags), diags
    return [f"{d.line}:{d.code}" for d in diags]


@pytest.mark.parametrize(
    "body, expected",
    [
        # the whole answer, any case, accents folded, possessive
        ("COOPER | Cooper's partner\nDIANE | x\n", ["5:answer-in-clue"]),
        ("CAFE | A café\nDIANE | x\n", ["5:answer-in-clue"]),
        # a two-letter answer only as a whole word
        ("OX | An ox\nDONNA | x\n", ["5:answer-in-clue"]),
        ("OX | Boxing beast\nDONNA | x\n", []),
        # the stem: DANCED / DANCING, RUN / RUNNING
        ("DANCED | He dancing\nDIANE | x\n", ["5:answer-in-clue"]),
        ("RUNNING | Run fast\nDIANE | x\n", ["5:answer-in-clue"]),
        # a 4+ letter word of a multi-word answer, not a 3-letter one or a stopword
        ("RED ROOM | A room with curtains\nDIANE | x\n", ["5:answer-in-clue"]),
        ("RED ROOM | A red place\nDIANE | x\n", []),
        ("FIRE WALK WITH ME | Said with a wink\nDIANE | x\n", []),
        # a word inside a longer clue word is not the answer
        ("OWL | Bowling night\nDONNA | x\n", []),
    ],
)
def test_answer_in_clue(tmp_path, body, expected):
    assert warnings_for(tmp_path, body) == expected


def test_long_clue_limit(tmp_path):
    assert warnings_for(tmp_path, "COOPER | " + "x" * 120 + "\nDIANE | y\n") == []
    assert warnings_for(tmp_path, "COOPER | " + "x" * 121 + "\nDIANE | y\n") == ["5:long-clue"]


def test_duplicate_clue_ignores_case_space_and_punctuation(tmp_path):
    got = warnings_for(tmp_path, "COOPER | Agent, FBI\nDIANE | agent  fbi!\nALBERT | Agent\n")
    assert got == ["6:duplicate-clue"]


@pytest.mark.parametrize(
    "body, expected",
    [
        ("LAURA PALMER | a\nDIANE | b\nLELAND PALMER | c\n", ["7:shared-word"]),
        ("DANCES | a\nDIANE | b\nDANCING | c\n", ["7:shared-word"]),  # shared stem
        ("HORNET | a\nDIANE | b\nHORNE | c\n", ["7:shared-word"]),  # one inside the other
        ("BOB | a\nBOBBY | b\n", []),  # three letters is not a give-away
        ("RED ROOM | a\nRED ROSE | b\n", []),
    ],
)
def test_shared_word(tmp_path, body, expected):
    assert warnings_for(tmp_path, body) == expected


@pytest.mark.parametrize(
    "clue, expected",
    [("FBI agent (6)", "'(6)' but"), ("FBI agent (7).", "and it is wrong: COOPER is (6)"), ("Agent (3, 3)", "'(3,3)'")],
)
def test_enumeration_in_clue(tmp_path, clue, expected):
    f = tmp_path / "e.txt"
    f.write_text(HEAD + f"COOPER | {clue}\nDIANE | x\n")
    [d] = lint_file(f)
    assert d.code == "enumeration-in-clue" and expected in d.message
    assert warnings_for(tmp_path, "COOPER | Agent (in Philadelphia)\nDIANE | x\n") == []


def test_stem():
    assert stem("DANCE") == stem("DANCES") == stem("DANCED") == stem("DANCING")
    assert stem("RUN") == stem("RUNNING")
    assert stem("GLASS") == "GLASS" and stem("BUS") == "BUS"


def test_errors_and_warnings_in_one_pass(tmp_path):
    f = tmp_path / "mixed.txt"
    f.write_text(HEAD + "COOPER | Dale Cooper\nR2D2 | droid\n")
    assert [(d.line, d.level) for d in lint_file(f)] == [(5, WARNING), (6, ERROR)]


# --------------------------------------------------------------------- CLI


def test_cli_sorted_by_file_then_line_with_summary(tmp_path):
    (tmp_path / "b.txt").write_text(HEAD + "COOPER | x\nCOOPER | y\nDIANE | Diane\n")
    (tmp_path / "a.txt").write_text(HEAD + "R2D2 | x\nDIANE | y\n")
    r = run("lint", str(tmp_path / "b.txt"), str(tmp_path / "a.txt"))
    assert r.returncode == 2
    lines = r.stdout.splitlines()
    assert [line.split(": ")[0].rsplit("/", 1)[1] for line in lines] == ["a.txt:5:2", "b.txt:6:1", "b.txt:7:9"]
    assert lines[1].endswith("error: duplicate answer COOPER (first on line 5); remove one")
    assert ": warning: " in lines[2] and lines[2].endswith("[answer-in-clue]")
    assert r.stderr.strip() == "2 errors, 1 warning in 2 files"
    assert "Traceback" not in r.stderr


def test_cli_warnings_exit_0_and_strict_exit_2():
    f = str(FIXTURES / "bad" / "answer-in-clue.txt")
    r = run("lint", f)
    assert r.returncode == 0 and ": warning: " in r.stdout
    assert r.stderr.strip() == "0 errors, 1 warning in 1 file"
    r = run("lint", "--strict", f)
    assert r.returncode == 2 and ": error: " in r.stdout and ": warning: " not in r.stdout
    assert r.stderr.strip() == "1 error, 0 warnings in 1 file"


def test_cli_default_is_puzzles_dir(tmp_path):
    (tmp_path / "puzzles").mkdir()
    (tmp_path / "puzzles" / "ok.txt").write_text(HEAD + "COOPER | Agent\nDIANE | Listener\n")
    (tmp_path / "notes.md").write_text("not a puzzle")
    r = run("lint", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == "" and r.stderr.strip() == "0 errors, 0 warnings in 1 file"
    (tmp_path / "puzzles" / "bad.txt").write_text(HEAD + "X | y\n")
    r = run("lint", cwd=tmp_path)
    assert r.returncode == 2 and r.stdout.startswith("puzzles/bad.txt:5:1: error:")


def test_cli_no_puzzles_is_an_error(tmp_path):
    r = run("lint", cwd=tmp_path)
    assert r.returncode == 2 and "no puzzles/*.txt" in r.stderr


def test_cli_directory_argument_lints_its_txt_files():
    r = run("lint", str(FIXTURES / "good"))
    assert r.returncode == 0 and r.stderr.strip() == f"0 errors, 0 warnings in {len(GOOD)} files"


def test_summary_wording():
    assert summary([], 0) == "0 errors, 0 warnings in 0 files"


def test_strict_turns_warnings_to_errors():
    diags = lint_paths([FIXTURES / "bad" / "long-clue.txt"], strict=True)
    assert [d.level for d in diags] == [ERROR]


# -------------------------------------------------------------- odd files


def _generate(path: Path, *extra: str) -> subprocess.CompletedProcess:
    return run("generate", "--words", str(path), *extra)


def assert_clear_failure(path: Path, fragment: str) -> None:
    """lint names the file and says what is wrong; read_puzzle raises our error; generate exits 2, no traceback."""
    diags = lint_file(path)
    assert diags and diags[0].level == ERROR and diags[0].path == str(path)
    assert any(fragment in d.message for d in diags), diags
    with pytest.raises((PuzzleError, PuzzleErrors), match=re.escape(fragment)):
        read_puzzle(path)
    r = _generate(path)
    assert r.returncode == 2 and str(path) in r.stderr and fragment in r.stderr
    assert "Traceback" not in r.stderr


def test_binary_file(tmp_path):
    f = tmp_path / "pic.txt"
    f.write_bytes(bytes(range(256)) * 4)
    assert_clear_failure(f, "not a text file")


def test_latin1_file(tmp_path):
    f = tmp_path / "cafe.txt"
    f.write_bytes(HEAD.encode() + "CAFÉ | Coffee shop\n".encode("latin-1"))
    assert_clear_failure(f, "not UTF-8 text (it looks like Latin-1")
    assert str(lint_file(f)[0]).startswith(f"{f}:5:4: error:")  # the column in the place, for an editor to jump to


def test_a_file_cut_short_or_with_encoded_surrogates_is_not_called_latin1(tmp_path):
    cut = tmp_path / "cut.txt"
    cut.write_bytes(HEAD.encode() + "CAFÉ | Coffee €".encode()[:-1])
    assert_clear_failure(cut, "not UTF-8 text (it ends inside a character: the file was cut short)")
    assert str(lint_file(cut)[0]).startswith(f"{cut}:5:15: error:")
    notepad = tmp_path / "notepad.txt"  # Latin-1 whose one accented letter ends the file: not cut short
    notepad.write_bytes(HEAD.encode() + "CAFE | Le café".encode("latin-1"))
    assert_clear_failure(notepad, "not UTF-8 text (it looks like Latin-1 or Windows-1252)")
    cesu = tmp_path / "cesu.txt"
    cesu.write_bytes(HEAD.encode() + b"CAFE | Coffee \xed\xa0\xbd\xed\xb8\x80\n")
    assert_clear_failure(cesu, "not UTF-8 text (an encoded surrogate: CESU-8 or Java's modified UTF-8)")


@pytest.mark.parametrize(
    "name, data",
    [
        ("bom.txt", b"\xef\xbb\xbf" + HEAD.encode() + b"COOPER | Agent\nDIANE | Listener\n"),
        ("windows.txt", (HEAD + "COOPER | Agent\nDIANE | Listener\n").replace("\n", "\r\n").encode()),
        ("old-mac.txt", (HEAD + "COOPER | Agent\nDIANE | Listener\n").replace("\n", "\r").encode()),
    ],
)
def test_bom_and_line_ends_work(tmp_path, name, data):
    f = tmp_path / name
    f.write_bytes(data)
    p = read_puzzle(f)
    assert [(e.answer, e.clue, e.line) for e in p.entries] == [("COOPER", "Agent", 5), ("DIANE", "Listener", 6)]
    assert lint_file(f) == []
    r = _generate(f, "--seeds", "1")
    assert r.returncode == 0, r.stderr


def test_ten_megabyte_file(tmp_path):
    f = tmp_path / "huge.txt"
    line = b"COOPER | Special agent with a taste for pie and a habit of dictating\n"
    f.write_bytes(HEAD.encode() + line * (10_000_000 // len(line)))
    assert f.stat().st_size > MAX_FILE_BYTES
    assert_clear_failure(f, "larger than 1 MB")


def test_five_thousand_answers(tmp_path):
    words = _distinct_words(5000)
    f = tmp_path / "big.txt"
    f.write_text("".join(f"{w} | clue {i}\n" for i, w in enumerate(words)))
    r = _generate(f, "--seeds", "1")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{f}:{MAX_ENTRIES + 1}:1: error: more than 1,000 answers" in r.stderr
    assert sum(1 for d in lint_file(f) if d.level == ERROR) == 2  # no front matter, too many answers


def test_a_thousand_answers_lay_out(tmp_path):
    f = tmp_path / "thousand.txt"
    f.write_text("".join(f"{w} | clue {i}\n" for i, w in enumerate(_distinct_words(MAX_ENTRIES))))
    r = _generate(f, "--seeds", "1")
    assert r.returncode == 0, r.stderr
    assert f"of {MAX_ENTRIES} answers placed" in r.stderr


def _distinct_words(n: int) -> list[str]:
    """n distinct pronounceable-ish words, deterministic."""
    cons, vows = "BCDFGHKLMNPRSTVW", "AEIOU"
    out = []
    i = 0
    while len(out) < n:
        k, word = i, ""
        for _ in range(3):
            word += cons[k % len(cons)] + vows[(k // len(cons)) % len(vows)]
            k //= len(cons) * len(vows)
        out.append(word.rstrip("AEIOU") if i % 2 else word)
        i += 1
    assert len(set(out)) == n
    return out


def test_directory_named_like_a_puzzle(tmp_path):
    d = tmp_path / "folder.txt"
    d.mkdir()
    assert_clear_failure(d, "is a directory")


def test_missing_file(tmp_path):
    assert_clear_failure(tmp_path / "nope.txt", "no such file")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file(tmp_path):
    f = tmp_path / "secret.txt"
    f.write_text(HEAD + "COOPER | Agent\n")
    f.chmod(0)
    try:
        assert_clear_failure(f, "permission denied")
    finally:
        f.chmod(0o644)


def test_unreadable_file_in_process(tmp_path, monkeypatch):
    """The same as above, for root (CI runs as root): opening fails with EACCES."""
    f = tmp_path / "secret.txt"
    f.write_text(HEAD + "COOPER | Agent\n")
    real_open = Path.open

    def deny(self, *a, **kw):
        if self == f:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *a, **kw)

    monkeypatch.setattr(Path, "open", deny)
    [d] = lint_file(f)
    assert str(d) == f"{f}: error: cannot read the file: permission denied; make it readable (chmod u+r)"
    with pytest.raises(PuzzleError, match="permission denied"):
        read_puzzle(f)


def test_empty_file(tmp_path):
    f = tmp_path / "empty.txt"
    f.write_bytes(b"")
    assert_clear_failure(f, "the file is empty")
    g = tmp_path / "blank.txt"
    g.write_text("\n  \n\t\n")
    assert_clear_failure(g, "the file is empty")


def test_front_matter_only(tmp_path):
    f = tmp_path / "only.txt"
    f.write_text(HEAD)
    assert_clear_failure(f, "no entries")


def test_deeply_nested_front_matter(tmp_path):
    f = tmp_path / "deep.txt"
    f.write_text("---\ntitle: " + "[" * 300 + "]" * 300 + "\ndate: 2026-01-01\n---\nCOOPER | x\n")
    # too deep for Python's stack ("nested too deeply") or, on a shallow stack, a list ("must be text")
    assert [(d.line, d.col, d.level) for d in lint_file(f)] == [(2, 8, ERROR)]


def test_front_matter_the_prints_show_is_checked_for_missing_glyphs(tmp_path):
    f = tmp_path / "glyph.txt"
    f.write_text("---\ntitle: 日本の鳥 Birds\ndate: 2026-01-01\nauthor: Ann 🎵\ndescription: Plain text\n"
                 "difficulty: ★★★☆☆\n---\nCAT | Pet\nACE | Top card\n")
    got = [(d.line, d.col, d.message.split(":")[0]) for d in lint_file(f) if d.code == "missing-glyph"]
    assert got == [(2, 8, "title"), (4, 13, "author"), (6, 13, "difficulty")]  # the byline prints the difficulty


def test_clue_warnings_point_at_the_line_as_written(tmp_path):
    # the clue is read with runs of spaces as one and control characters gone; columns are the file's
    f = tmp_path / "cols.txt"
    f.write_text(HEAD + "GARDEN | Place    with     many    spaces      (6)\nNOTES | Bell\x07\x07\x07\x07 then \U0001f6f8 ship\n")
    got = {d.code: d.col for d in lint_file(f)}
    line = "GARDEN | Place    with     many    spaces      (6)"
    assert got["enumeration-in-clue"] == line.index("(6)") + 1
    assert got["missing-glyph"] == len("NOTES | Bell\x07\x07\x07\x07 then ") + 1


def test_an_answer_sharing_no_letter_and_a_long_title_are_warned_of(tmp_path):
    title = "A " + "very " * 20 + "long title"
    f = tmp_path / "p.txt"
    f.write_text(f"---\ntitle: {title}\ndate: 2026-05-06\n---\nBASIL | Herb\nTHYME | Herb too\nMYTH | Legend\n*QUZ | Q\n")
    found = [(d.line, d.col, d.code) for d in lint_file(f) if d.level == "warning"]
    assert found == [(2, None, "long-title"), (5, 1, "no-crossing"), (8, 2, "no-crossing")], found
    messages = [d.message for d in lint_file(f)]
    assert any("QUZ shares no letter" in m and "the build fails, as it is starred" in m for m in messages)
    f.write_text("---\ntitle: Fine\ndate: 2026-05-06\n---\nBASIL | Herb\nLIBS | Freedoms\n")
    assert not [d for d in lint_file(f) if d.level == "warning"]
    # dictionary fill may cross a lone answer under adjacency
    f.write_text("---\ntitle: Fill\ndate: 2026-05-06\nstrategy: adjacency\n---\nBASIL | Herb\nTHYME | Herb too\n")
    assert not [d for d in lint_file(f) if d.level == "warning"]
    # no two answers share a letter: one of them is placed, alone; said once
    f.write_text("---\ntitle: None\ndate: 2026-05-06\n---\nBASIL | Herb\nTHYME | Herb too\n")
    (only,) = [d for d in lint_file(f) if d.level == "warning"]
    assert only.code == "no-crossing" and only.line == 5 and "the grid holds one answer alone" in only.message
    # one answer alone in the file: said too (it was published without a word)
    f.write_text("---\ntitle: One\ndate: 2026-05-06\n---\nWHISK | Wire tool\n")
    (only,) = [d for d in lint_file(f) if d.level == "warning"]
    assert only.code == "no-crossing" and only.line == 5 and "the puzzle has one answer" in only.message
    f.write_text("---\ntitle: One\ndate: 2026-05-06\nstrategy: adjacency\n---\nWHISK | Wire tool\n")
    assert not [d for d in lint_file(f) if d.level == "warning"]


def test_a_shared_stem_names_both_words_not_the_longer_as_shared(tmp_path):
    """FEATURES then FEATURE: the warning said they 'share the word FEATURES', which FEATURE does not hold."""
    f = tmp_path / "p.txt"
    f.write_text("---\ntitle: T\ndate: 2026-01-01\n---\nFEATURES | Traits\nDIANE | b\nFEATURE | Trait\n"
                 "LAURA PALMER | c\nLELAND PALMER | d\n")
    messages = [d.message for d in lint_paths([f])]
    assert any("FEATURE and FEATURES (line 5) share a stem (FEATURES, FEATURE)" in m for m in messages), messages
    assert any("LELAND PALMER and LAURA PALMER (line 8) share the word PALMER" in m for m in messages), messages



def test_two_groups_of_answers_sharing_no_letter_are_named(tmp_path):
    """CAT, ACT, TACT and DOG, GOD, GOOD, DOGGO: each crosses its own, so no answer is lone, but one grid
    can hold one group only; lint said nothing, and the build's error advised a larger size."""
    f = tmp_path / "g.txt"
    f.write_text("---\ntitle: G\ndate: 2026-01-01\n---\n*CAT | a\nACT | b\nTACT | c\n*DOG | d\nGOD | e\nGOOD | f\n"
                 "DOGGO | g\n")
    found = [d for d in lint_paths([f]) if d.code == "no-crossing"]
    assert len(found) == 1 and found[0].line == 5 and found[0].level == WARNING, found
    assert found[0].message.startswith("CAT, ACT, TACT share no letter with the other answers (DOG, GOD, GOOD, DOGGO)")
    from site_builder.errors import LayoutError
    from site_builder.layout import layout_puzzle

    with pytest.raises(LayoutError) as err:
        layout_puzzle(read_puzzle(f))
    assert "CAT shares no letter with the answers in the grid" in str(err.value) and "larger" not in str(err.value)
    # one group: nothing said
    f.write_text("---\ntitle: G\ndate: 2026-01-01\n---\nCAT | a\nACT | b\nTACT | c\nTOGA | d\nGOD | e\n")
    assert not [d for d in lint_paths([f]) if d.code == "no-crossing"]


def test_the_letter_groups_hint_is_not_given_under_adjacency(tmp_path):
    """The dictionary's fill words may join two groups (or cross a lone answer): 'no grid holds both' is
    not so there, and the usual advice stands."""
    from site_builder.errors import LayoutError
    from site_builder.layout import layout_puzzle

    f = tmp_path / "g.txt"
    f.write_text("---\ntitle: G\ndate: 2026-01-01\nstrategy: adjacency\nsize: 5\nseeds: 1\n---\nCAT | a\nACT | b\n"
                 "*TACT | c\nDOG | d\nGOD | e\nGOOD | f\n*DOGGO | g\n")
    with pytest.raises(LayoutError) as err:
        layout_puzzle(read_puzzle(f))
    assert "shares no letter" not in str(err.value) and "larger 'size'" in str(err.value), str(err.value)


def test_text_a_puz_cannot_spell_in_latin1_is_warned_of_once(tmp_path):
    """One character outside ISO-8859-1 makes the .puz UTF-8 (version 2.0), which older apps misread: the
    first is named, at its line and column; the typographic ones that have a plain spelling are not."""
    f = tmp_path / "puz.txt"
    f.write_text("---\ntitle: Caf\u00e9 \u2020 Notes\ndate: 2026-01-01\nauthor: Fran\u00e7ois\n---\n"
                 "CAT | Pet \u2014 \u20ac5, \u2030, \u2122\nACE | Top card, \u03b1 or \u03c9\nTEA | Brew \u05e9\n")
    got = [(d.line, d.col, d.message) for d in lint_file(f) if d.code == "puz-utf8"]
    assert len(got) == 1 and got[0][:2] == (7, len("ACE | Top card, ") + 1), got
    assert "'\u03b1' (U+03B1)" in got[0][2] and "ACE" in got[0][2]
    f.write_text("---\ntitle: Caf\u00e9 \u2020 Notes\ndate: 2026-01-01\n---\nCAT | Pet \u2014 \u20ac5\nACE | Top card\n")
    assert [d for d in lint_file(f) if d.code == "puz-utf8"] == []


def test_lint_of_a_folder_with_no_puzzles_says_so_and_fails(tmp_path):
    """`crossword lint .` in a folder with no .txt said "0 errors, 0 warnings in 0 files" and passed."""
    (tmp_path / "notes.md").write_text("not a puzzle")
    r = run("lint", str(tmp_path))
    assert r.returncode == 2 and f"no *.txt puzzle files in {tmp_path}" in r.stderr, r.stderr


def test_warnings_of_one_kind_stop_at_twenty_and_one_line_counts_the_rest(tmp_path):
    """300 answers with one clue copied down gave 299 duplicate-clue lines; errors already stopped at 20."""
    words = [a + b + c + "E" for a in "BCDFGHJKLMNPRSTV" for b in "AEIOU" for c in "RSTLN"][:300]
    path = tmp_path / "copied.txt"
    path.write_text("---\ntitle: T\ndate: 2026-01-01\nsize: 60\n---\n" + "".join(f"{w} | Same clue\n" for w in words))
    found = lint_file(path)
    dup = [d for d in found if d.code == "duplicate-clue"]
    assert len(dup) == 21 and dup[-1].count == 279 and "279 more duplicate-clue warnings" in dup[-1].message
    assert dup[-1].line == 27 and "up to line 305" in dup[-1].message
    assert summary(found, 1).startswith("0 errors, 299 warnings")


def test_text_only_the_pdf_prints_is_warned_of_only_for_a_glyph_no_shipped_face_has(tmp_path):
    """The description is set in italic, which has no Greek; the PDF takes Greek from the upright face, so
    only a character no shipped face draws (日) gets the warning, and it names the PDF alone."""
    f = tmp_path / "greek.txt"
    f.write_text("---\ntitle: Birds\ndate: 2026-01-01\ndescription: Letters αβγ and 日\nnotes: Also αβγ\n---\n"
                 "CAT | Pet\nACE | Top card\n")
    got = [d for d in lint_file(f) if d.code == "missing-glyph"]
    assert [(d.line, d.message.split(":")[0]) for d in got] == [(4, "description")]
    assert "'日'" in got[0].message and "the PDF shows an empty box" in got[0].message
