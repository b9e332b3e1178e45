from __future__ import annotations

import datetime as dt
import re

import pytest

from site_builder.errors import PuzzleError, PuzzleErrors
from site_builder.source import load_puzzle, normalise_answer, read_puzzle, slug_for

HEAD = "---\ntitle: T\ndate: 2026-01-02\n---\n"


def errors_of(text: str, **kw) -> list[str]:
    with pytest.raises(PuzzleErrors) as info:
        load_puzzle(text, path="p.txt", **kw)
    return [str(e) for e in info.value.errors]


@pytest.mark.parametrize(
    "raw, letters, enum",
    [
        ("LOG LADY", "LOGLADY", "3,4"),
        ("ONE-EYED", "ONEEYED", "3-4"),
        ("ONE-EYED JACKS", "ONEEYEDJACKS", "3-4,5"),
        ("O'BRIEN", "OBRIEN", "6"),
        ("L`AMOUR", "LAMOUR", "6"),  # a backtick typed for the apostrophe
        ("Hawaiʻi", "HAWAII", "6"),  # the ʻokina
        ("Oʼahu", "OAHU", "4"),
        ("st. elmo", "STELMO", "2,4"),
        ("Crème brûlée", "CREMEBRULEE", "5,6"),
        ("Straße", "STRASSE", "7"),
        ("  two   spaces ", "TWOSPACES", "3,6"),
    ],
)
def test_normalise_answer(raw, letters, enum):
    n = normalise_answer(raw)
    assert (n.letters, n.enumeration) == (letters, enum)


@pytest.mark.parametrize("raw", ["R2D2", "A&B", "-AB", "AB-", "HI!", "日本"])
def test_normalise_rejects(raw):
    with pytest.raises(ValueError):
        normalise_answer(raw)


def test_parse_full_front_matter():
    text = (
        "---\ntitle: Birds\ndate: 2026-03-04\nauthor: Ann\ndescription: d\ndifficulty: easy\n"
        "tags: [nature, Birds]\ndraft: true\npaper: a4\nsize: 15\nseeds: 20\nseed: 7\nstrategy: freeform\n---\n"
        "# comment\n\n*ROBIN | Red breast\nWREN | Tiny brown bird\n"
    )
    p = load_puzzle(text, path="birds.txt", slug="birds")
    m = p.meta
    assert (m.title, m.date, m.author, m.difficulty) == ("Birds", dt.date(2026, 3, 4), "Ann", "easy")
    assert m.tags == ("nature", "birds") and m.draft and m.paper == "a4"
    assert (m.size, m.seeds, m.seed, m.strategy) == (15, 20, 7, "freeform")
    assert [e.answer for e in p.entries] == ["ROBIN", "WREN"]
    assert p.entries[0].required and not p.entries[1].required
    assert [e.line for e in p.entries] == [17, 18]


def test_clue_may_contain_pipe():
    p = load_puzzle(HEAD + "ABC | a | b\n")
    assert p.entries[0].clue == "a | b"


def test_bom_and_crlf(tmp_path):
    f = tmp_path / "x.txt"
    f.write_bytes(b"\xef\xbb\xbf---\r\ntitle: T\r\ndate: 2026-01-02\r\n---\r\nABC | clue\r\n")
    p = read_puzzle(f)
    assert p.entries[0].clue == "clue" and p.meta.title == "T"


@pytest.mark.parametrize(
    "body, line, fragment",
    [
        ("ABC clue\n", 5, "no '|'"),
        (" | clue\n", 5, "answer is empty"),
        ("ABC | \n", 5, "clue for ABC is empty"),
        ("R2D2 | droid\n", 5, "'2' cannot be in an answer"),
        ("\u0391\u0398\u0397\u039d\u0391 | goddess\n", 5, "'\u0391' (greek capital letter alpha) is not a Latin letter"),
        ("\u6771\u4eac | city\n", 5, "is not a Latin letter; the grid holds A to Z"),
        ("ABC | x\nabc | y\n", 6, "duplicate answer ABC (first on line 5)"),
        ("A | x\n", 5, "one letter"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZ | long\n", 5, "more than the grid cap of 23"),
    ],
)
def test_bad_lines(body, line, fragment):
    errs = errors_of(HEAD + body)
    assert any(e.startswith(f"p.txt:{line}") and fragment in e for e in errs), errs


def test_a_file_that_is_no_puzzle_gets_a_page_of_errors_not_one_per_line():
    """A README linted by mistake: the first errors, then one line that counts the rest and asks."""
    from site_builder.source import MAX_ERRORS, parse_source

    text = "# Notes\n\n" + "".join(f"Some prose, line {i}.\n" for i in range(300))
    errors = parse_source(text, path="notes.txt").errors
    assert len(errors) == MAX_ERRORS + 1
    assert "starts with a front-matter block" in errors[0].message
    last = errors[-1]
    assert last.line == errors[-2].line + 1 and "281 more errors after these (up to line 302)" in last.message
    assert "is it a puzzle file? it has no front matter" in last.message
    assert last.count == 281 and sum(e.count for e in errors) == 301  # lint's total counts them all
    # a puzzle with one bad line past the limit gets every one of them: a line saying '1 more' would hide nothing
    few = HEAD + "".join(f"BAD{i} | x\n" for i in range(MAX_ERRORS + 1))
    assert len(parse_source(few, path="p.txt").errors) == MAX_ERRORS + 1
    # the errors kept are the first by line, whatever order they were found in
    lacking = "---\ndate: 2026-01-02\n---\n" + "".join(f"BAD{i} | x\n" for i in range(30))
    errors = parse_source(lacking, path="p.txt").errors
    assert "lacks 'title'" in errors[0].message and "(up to line 33)" in errors[-1].message


def test_lint_counts_the_errors_it_does_not_list(tmp_path):
    from site_builder.lint import lint_paths, summary

    f = tmp_path / "notes.txt"
    f.write_text("".join(f"prose {i}\n" for i in range(100)), encoding="utf-8")
    diagnostics = lint_paths([f])
    assert len(diagnostics) == 21 and summary(diagnostics, 1) == "101 errors, 0 warnings in 1 file"


def test_latin_letters_without_an_accent_to_drop_fold_as_their_languages_spell_them():
    assert normalise_answer("\u0126amrun").letters == "HAMRUN"  # Maltese
    assert normalise_answer("\u014aaa").letters == "NGAA" and normalise_answer("\u018flas").letters == "ELAS"
    with pytest.raises(ValueError, match=r"'\u01f7' \(latin capital letter wynn\) has no A to Z spelling"):
        normalise_answer("\u01f7YN")


@pytest.mark.parametrize(
    "front, line, fragment",
    [
        ("autor: Ann\n", 4, "unknown front-matter key 'autor' (did you mean 'author'?)"),
        ("paper: legal\n", 4, "'paper' must be one of letter, a4"),
        ("size: big\n", 4, "'size' must be a whole number"),
        ("size: 2\n", 4, "'size' must be between 3 and 60"),
        ("draft: maybe\n", 4, "'draft' must be true or false"),
        ('draft: "True"\n', 4, "'draft' must be true or false without quotes (draft: true)"),
        ("strategy: freefrom\n", 4, "did you mean 'freeform'"),
        ("tags: 5\n", 4, "'tags' must be a list"),
        ("title: U\n", 4, "given twice"),
    ],
)
def test_bad_front_matter(front, line, fragment):
    errs = errors_of("---\ntitle: T\ndate: 2026-01-02\n" + front + "---\nABC | x\n")
    assert any(e.startswith(f"p.txt:{line}:") and fragment in e for e in errs), errs


def test_bad_date_and_missing_title():
    errs = errors_of("---\ndate: 2026-13-45\n---\nABC | x\n")
    assert any("p.txt:2:" in e and "ISO date" in e for e in errs), errs
    assert any("lacks 'title'" in e for e in errs), errs


def test_every_problem_reported_at_once():
    errs = errors_of("---\ntitle: T\ndate: 2026-01-02\nautor: x\n---\nABC\nD3F | y\n")
    assert len(errs) == 3


def test_unclosed_front_matter_and_yaml_error():
    assert "never closed" in errors_of("---\ntitle: T\nABC | x\n")[0]
    errs = errors_of("---\ntitle: [unclosed\ndate: 2026-01-01\n---\nABC | x\n")
    assert "not valid YAML" in errs[0]


@pytest.mark.parametrize(
    "front, col, fragment",
    [
        ("tags: [a, b\nauthor: x\n", 7, "'[' here is never closed"),
        ("notes: \"half a note\nauthor: x\n", 8, "quote here is never closed"),
        ("extra: {a: 1\nauthor: x\n", 8, "'{' here is never closed"),
    ],
)
def test_unclosed_bracket_or_quote_points_at_where_it_opened(front, col, fragment):
    # YAML only notices on a later line; the error names the line the bracket or quote opened on
    errs = errors_of("---\ntitle: T\ndate: 2026-01-02\n" + front + "---\nABC | x\n")
    assert errs[0].startswith(f"p.txt:4:{col}: front matter is not valid YAML: "), errs
    assert fragment in errs[0] and "line 5" in errs[0], errs


@pytest.mark.parametrize("front, col, fragment", [("tags: [tv, mystery\n", 7, "'[' here is never closed"),
                                                  ("extra: {a: 1\n", 8, "'{' here is never closed")])
def test_an_unclosed_bracket_on_the_front_matters_last_line_is_named(front, col, fragment):
    # the README's own example with its ']' dropped: YAML stops on the bracket's own line, at the block's end
    errs = errors_of("---\ntitle: T\ndate: 2026-01-02\n" + front + "---\nABC | x\n")
    assert errs[0].startswith(f"p.txt:4:{col}: front matter is not valid YAML: "), errs
    assert fragment in errs[0] and "the end of the front matter" in errs[0], errs


def test_no_entries_names_the_file():
    errs = errors_of(HEAD + "# nothing\n")
    assert errs == ["p.txt: no entries; add lines like 'ANSWER | clue' after the front matter"]


def test_plain_list_without_front_matter():
    p = load_puzzle("ABC | x\nDEF | y\n", path="list.txt", slug="list", require_front_matter=False)
    assert len(p.entries) == 2 and p.meta.title == "List"
    with pytest.raises(PuzzleErrors, match="front-matter block"):
        load_puzzle("ABC | x\n", path="list.txt")


def test_not_utf8(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_bytes(b"---\ntitle: T\ndate: 2026-01-01\n---\nCAF\xe9 | x\n")
    with pytest.raises(PuzzleError, match=r"bad.txt:5:4: this file is not UTF-8"):
        read_puzzle(f)
    # behind a BOM (Notepad's "UTF-8 with BOM"), the same byte and column, counted from after the BOM
    f.write_bytes(b"\xef\xbb\xbf---\ntitle: Caf\xe9\ndate: 2026-01-01\n---\nCAFE | x\n")
    with pytest.raises(PuzzleError, match=r"bad.txt:2:11: this file is not UTF-8 text \(it looks like Latin-1.*byte 0xe9 in column 11"):
        read_puzzle(f)
    f.write_bytes(b"\xef\xbb\xbfT\xc3\xa9\x00 | x\n")
    with pytest.raises(PuzzleError) as info:
        read_puzzle(f)
    assert (info.value.line, info.value.col) == (1, 3) and "NUL" in info.value.message  # characters, not bytes
    g = tmp_path / "bin.txt"
    g.write_bytes(b"\x00\x01\x02")
    with pytest.raises(PuzzleError, match="not a text file"):
        read_puzzle(g)


@pytest.mark.parametrize("name, ok", [("twin-peaks.txt", True), ("a1.txt", True), ("Twin.txt", False), ("a_b.txt", False), ("-a.txt", False)])
def test_slug(name, ok):
    if ok:
        assert slug_for(name) == name[:-4]
    else:
        with pytest.raises(PuzzleError, match="lowercase letters, digits and single hyphens"):
            slug_for(name)


def test_twin_peaks_source(twin_peaks):
    assert len(twin_peaks.entries) == 39
    assert sum(len(e.answer) for e in twin_peaks.entries) == 256
    starred = sorted((e.answer for e in twin_peaks.required), key=len, reverse=True)
    longest = sorted((e.answer for e in twin_peaks.entries), key=len, reverse=True)[:4]
    assert len(starred) == 4 and set(starred[:3]) == set(longest[:3])
    assert all(len(e.answer) >= 11 for e in twin_peaks.required)


def test_clue_control_characters_and_separators_become_one_space():
    # a word processor's line break (vertical tab), form feed, bell, escape, NEL, U+2028/2029, tabs, double
    # spaces: every output must show the same one-line clue, so the source reads it that way once
    clue = "form\x0cfeed and\x0bvtab\x07 bell\x1b[31mred\x85nel\u2028line\u2029para\tand  two\u00a0kept"
    p = load_puzzle(HEAD + f"ABC | {clue}\n", path="p.txt")
    assert p.entries[0].clue == "form feed and vtab bell[31mred nel line para and two\u00a0kept"


def test_a_yaml_tag_in_the_front_matter_is_an_error_that_says_so():
    """`title: !Important news` published "news" alone; a !!python tag's refusal ran to three lines of
    the YAML loader's own, with a line number that was not the file's."""
    errs = errors_of("---\ntitle: !Important news\ndate: 2026-01-02\n---\nABC | x\n")
    assert errs == ["p.txt:2:8: 'title' starts with '!Important', which YAML reads as a tag and drops; "
                    "put the value in quotes: title: \"!Important news\""], errs
    errs = errors_of("---\ntitle: ! hello\ndate: 2026-01-02\n---\nABC | x\n")  # the bare '!' too
    assert len(errs) == 1 and "starts with '!', which YAML reads as a tag" in errs[0], errs
    assert load_puzzle("---\ntitle: '!Important news'\ndate: 2026-01-02\n---\nABC | x\n").meta.title == "!Important news"
    errs = errors_of("---\ntitle: !!python/object/apply:os.system ['echo hi']\ndate: 2026-01-02\n---\nABC | x\n")
    assert len(errs) == 1 and errs[0].startswith("p.txt:2:8: 'title' has a YAML tag "
                                                 "('!!python/object/apply:os.system')"), errs
    assert "\n" not in errs[0]


def test_a_reference_written_wrong_is_an_error_at_its_place():
    """`[[ABC` and `ABC]]` printed as written; the same missing name twice was pointed at twice at the first."""
    head = "---\ntitle: T\ndate: 2026-01-02\n---\nCAT | Pet\n"
    errs = errors_of(head + "ACT | Do, as [[cat without an end\n")
    assert errs == ["p.txt:6:14: the clue has '[[' with no ']]' to match; a reference to another answer is "
                    "written [[ANSWER]]"], errs
    # a lone ']]' is text: "]]>" ends an XML CDATA section
    assert load_puzzle(head + "ACT | Ends a CDATA section, before >: ]]\n", path="p.txt").entries[1].clue.endswith("]]")
    errs = errors_of(head + "ACT | [[Dog]] and [[Dog]]\n")
    assert [e.split(": ")[0] for e in errs] == ["p.txt:6:7", "p.txt:6:19"], errs


def test_unicode_noncharacters_are_dropped_from_clues_and_the_title():
    """U+FDD0 or U+10FFFF in a clue passed lint, then cairo refused the string and the build failed with an
    internal error (exit 3). Like U+FFFE, they are no text: dropped."""
    text = "---\ntitle: Non\ufdd0chars\ndate: 2026-01-02\n---\nABC | x\ufdefy \U0001ffff z\U0010ffff\nCAB | Taxi\n"
    p = load_puzzle(text, path="p.txt")
    assert p.meta.title == "Nonchars" and p.entries[0].clue == "xy z"


@pytest.mark.parametrize("line", ["size: 015", "seed: 1:30", "seeds: 1_000", "effort: 0x2"])
def test_yaml_11_number_forms_are_errors_not_other_numbers(line):
    # YAML 1.1 reads 015 as 13, 1:30 as 90: an author meant neither
    errs = errors_of("---\ntitle: T\ndate: 2026-01-02\n" + line + "\n---\nABC | x\n")
    assert errs and errs[0].startswith("p.txt:4:") and "plain whole number" in errs[0], errs


def test_tags_are_kept_as_written():
    p = load_puzzle("---\ntitle: T\ndate: 2026-01-02\ntags: [010, 2026, tv]\n---\nABC | x\n", path="p.txt")
    assert p.meta.tags == ("010", "2026", "tv")  # YAML alone would make the first 8


@pytest.mark.parametrize("line, fragment", [
    ("date: 20261130", "ISO date like 2026-11-30"),   # fromisoformat would take these two
    ("date: 2026-W05-3", "ISO date like 2026-11-30"),
    ("draft:", "'draft' is empty; write a value after 'draft:'"),
    ("size:", "'size' is empty; write a value after 'size:'"),
    ("date: 2026-01-02 10:00:00", "without a time"),
    ("title:\tX", "YAML takes no tabs here: use spaces"),
    ("description: one\u2028two", "invisible LINE SEPARATOR (U+2028)"),
])
def test_front_matter_slips_are_named_on_their_line(line, fragment):
    errs = errors_of("---\ntitle: T\n" + ("" if line.startswith("date") else "date: 2026-01-02\n") + line + "\n---\nABC | x\n")
    at = 3 if line.startswith("date") else 4
    assert any(e.startswith(f"p.txt:{at}:") and fragment in e for e in errs), errs


def test_empty_tags_are_no_tags():
    assert load_puzzle("---\ntitle: T\ndate: 2026-01-02\ntags:\n---\nABC | x\n", path="p.txt").meta.tags == ()


def test_a_bad_character_is_named_as_typed():
    # NFKD makes a circled one a plain 1: the message names what the author wrote
    with pytest.raises(ValueError, match=r"character '\u2460' \(read as '1'\) cannot be in an answer"):
        normalise_answer("\u2460X")
    with pytest.raises(ValueError, match=r"character '3' cannot be in an answer"):
        normalise_answer("AB3")


def test_a_closed_bracket_or_quote_with_a_slip_inside_keeps_yamls_place():
    errs = errors_of('---\ntitle: T\ndate: 2026-01-02\nnotes: "first line\n  second \\q line"\n---\nABC | x\n')
    assert errs[0].startswith("p.txt:5:") and "never closed" not in errs[0] and "escape" in errs[0], errs


def test_a_plain_list_of_comments_is_told_to_add_entries_without_front_matter_talk():
    errs = errors_of("# just a comment\n", require_front_matter=False)
    assert errs == ["p.txt: no entries; add lines like 'ANSWER | clue'"], errs


def test_an_unclosed_bracket_before_a_quoted_bracket_is_still_named():
    # the ']' inside the title's quotes closes nothing
    errs = errors_of('---\ntags: [a, b\ntitle: "x [y]"\ndate: 2026-01-02\n---\nABC | x\n')
    assert errs[0].startswith("p.txt:2:7:") and "'[' here is never closed" in errs[0], errs


def test_an_empty_required_key_is_not_told_to_remove_its_line():
    errs = errors_of("---\ntitle: T\ndate:\n---\nABC | x\n")
    assert any("'date' is empty; write a value after 'date:'" in e and "remove" not in e for e in errs), errs


def test_a_lower_case_letter_outside_a_z_is_named_without_read_as():
    with pytest.raises(ValueError) as info:
        normalise_answer("\u0434\u0430")  # Cyrillic: upper-casing is no fold
    assert "character '\u0434' (cyrillic small letter de) is not a Latin letter" in str(info.value)
    assert "read as" not in str(info.value)


def test_an_indented_fence_inside_a_notes_block_is_notes_text():
    puzzle = load_puzzle("---\ntitle: T\ndate: 2026-01-02\nnotes: |\n  Part one\n  ---\n  Part two\n---\nCAT | Pet\nACT | Do\n")
    assert puzzle.meta.notes.splitlines() == ["Part one", "---", "Part two"]
    assert [e.answer for e in puzzle.entries] == ["CAT", "ACT"]
    # an indented fence with no other closing one is named on its own line
    (err,) = errors_of("---\ntitle: T\ndate: 2026-01-02\n  ---\nCAT | Pet\n")
    assert err.startswith("p.txt:4:1:") and "never closed" in err and "this one is indented" in err


@pytest.mark.parametrize("invisible", ["\u200b", "\u00ad", "\u2060 \ufeff"])
def test_a_clue_or_title_of_invisible_characters_is_empty(invisible):
    (err,) = errors_of(HEAD + f"CAT | {invisible}\nACT | Do\n")
    assert err.startswith("p.txt:5:") and "clue for CAT is empty" in err and "invisible" in err
    (err,) = errors_of(f'---\ntitle: "{invisible}"\ndate: 2026-01-02\n---\nCAT | Pet\nACT | Do\n')
    assert err.startswith("p.txt:2:") and "'title' must not be empty" in err
    # an invisible character inside a real clue is kept
    assert load_puzzle(HEAD + "CAT | Pet\u00adlike\nACT | Do\n").entries[0].clue == "Pet\u00adlike"
    # the answer side too: said empty, not shown as Python's escape ('\\u200b')
    (err,) = errors_of(HEAD + f"{invisible} | Pet\nACT | Do\n")
    assert err.startswith("p.txt:5:1:") and "the answer is empty (it holds only invisible characters" in err, err


def test_an_invisible_character_inside_an_answer_is_named_where_it_is():
    (err,) = errors_of(HEAD + "LOG\u200bLADY | Margaret\nACT | Do\n")
    assert err == "p.txt:5:4: an invisible character U+200B (zero width space) is in the answer (pasted with it); delete it"
    (err,) = errors_of(HEAD + "CA\x01T | Pet\nACT | Do\n")
    assert err.startswith("p.txt:5:3: an invisible character U+0001") and "\\x01" not in err
    # a Hangul filler is a letter to Unicode, but shows nothing: named as invisible too, not as a letter
    (err,) = errors_of(HEAD + "CA\u3164T | Pet\nACT | Do\n")
    assert err == "p.txt:5:3: an invisible character U+3164 (hangul filler) is in the answer (pasted with it); delete it", err


def test_text_is_composed_and_front_matter_text_is_one_line():
    source = '---\ntitle: |\n  Multi\n  line\nauthor: "A\\tB"\ndate: 2026-01-02\nnotes: |\n  Cafe\u0301\n\n  two\n---\nCAT | Cafe\u0301 au lait\nACT | Do\n'
    puzzle = load_puzzle(source)
    assert puzzle.meta.title == "Multi line" and puzzle.meta.author == "A B"
    assert puzzle.entries[0].clue == "Caf\u00e9 au lait"
    assert puzzle.meta.notes == "Caf\u00e9\n\ntwo"  # the notes keep their paragraphs


def test_an_invisible_optional_value_is_no_value_and_lint_columns_survive_composition():
    puzzle = load_puzzle('---\ntitle: T\ndate: 2026-01-02\nauthor: "\u200b"\n---\nCAT | Pet\nACT | Do\n')
    assert puzzle.meta.author == ""  # so the site's default author stands in
    from site_builder.source import one_line_positions

    text = "  Cafe\u0301  au\x07 lait  "
    shown, at = one_line_positions(text)
    assert shown == "Caf\u00e9 au lait" and len(at) == len(shown)
    assert [text[i] for i in at] == ["C", "a", "f", "e", " ", "a", "u", " ", "l", "a", "i", "t"]


@pytest.mark.parametrize(
    "front, where, says",
    [
        # YAML gives up a line or more later than these slips: the error names the slip's own line
        ("title:Twin Peaks\ndate: 2026-11-02", "p.txt:2:7:", "put a space after 'title:' (title: Twin Peaks)"),
        ("title: T\ndate: 2026-11-02\nauthor Jane Doe\ntags: [tv]", "p.txt:4:1:", "'author Jane Doe' has no ':'"),
        ("title: T\nauthor:Jane\ntags: [a]\ndate: 2026-01-01", "p.txt:3:8:", "put a space after 'author:'"),
        ("title = Foo\ndate: 2026-01-01", "p.txt:2:7:", "write 'title: value' with a colon"),
        ("title: T\ndate:2026-01-01\nsize:15", "p.txt:3:6:", "put a space after 'date:'"),
        ("title:Foo", "p.txt:2:7:", "put a space after 'title:'"),
        # values YAML cannot read: the fix is the value in quotes, spelt out
        ("title: Star Wars: A New Hope\ndate: 2026-01-01", "p.txt:2:8:",
         "the value holds ': ', which YAML reads as another key; put the value in quotes: title: \"Star Wars: A New Hope\""),
        ("title: T\nauthor: @jane\ndate: 2026-01-01", "p.txt:3:9:", "cannot start with '@' in YAML; put the value in quotes: author: \"@jane\""),
        ("title: T\ndescription: 'Quote' then more\ndate: 2026-01-01", "p.txt:3:14:",
         "text follows the closing quote; put the value in quotes: description: \"'Quote' then more\""),
        ("title: T\ndescription: | pipe first\ndate: 2026-01-01", "p.txt:3:14:", "cannot start with '|'"),
        ("title: Foo\n  date: 2026-01-01", "p.txt:3:7:", "this line is indented, so YAML reads it as more of the value above"),
        # a list over several lines is no slip: the value after it is the one to quote
        ("title: T\ndate: 2026-01-01\ntags: [\n  a, b\n]\ndescription: x\nauthor: Star Wars: A New Hope", "p.txt:8:9:",
         "put the value in quotes: author: \"Star Wars: A New Hope\""),
        ("title: -5 degrees: cold\ndate: 2026-01-01", "p.txt:2:8:", "the value holds ': '"),
    ],
)
def test_a_front_matter_slip_is_named_on_its_line_with_its_fix(front, where, says):
    (error,) = errors_of(f"---\n{front}\n---\nBASIL | Herb\nLIBS | Freedoms\n")
    assert error.startswith(where) and says in error, error


def test_a_hash_against_a_word_is_not_taken_as_a_comment_silently():
    errors = errors_of("---\ntitle: Puzzle #12\ndate: 2026-01-01\ncopyright: (c) 2026 #1 Crosswords\n"
                       "difficulty: Easy  # a comment, as YAML has them\ndescription: #1 in the series\n"
                       "notes: # to do\n---\nBASIL | Herb\nLIBS | Freedoms\n")
    assert errors == [
        "p.txt:2:15: 'title' stops before '#12': YAML reads ' #' and what follows as a comment; "
        "put the value in quotes: title: \"Puzzle #12\" (or, if it is a comment, put a space after the '#')",
        "p.txt:4:21: 'copyright' stops before '#1 Crosswords': YAML reads ' #' and what follows as a comment; "
        "put the value in quotes: copyright: \"(c) 2026 #1 Crosswords\" (or, if it is a comment, put a space after the '#')",
        "p.txt:6:14: 'description' is empty: YAML reads '#1 in the series' as a comment; put the value in quotes: "
        "description: \"#1 in the series\" (or, if it is a comment, put a space after the '#')",
    ]
    quoted = load_puzzle("---\ntitle: \"Puzzle #12\"\ndate: 2026-01-01\n---\nBASIL | Herb\nLIBS | Freedoms\n", path="p.txt")
    assert quoted.meta.title == "Puzzle #12"


def test_every_bad_tag_is_named_at_once_as_written():
    (error,) = errors_of('---\ntitle: T\ndate: 2026-01-01\ntags: [ok, "A b", c/d, e_f, TV]\n---\nBASIL | Herb\nLIBS | Freedoms\n')
    assert error == ("p.txt:4:7: tags 'A b' (say a-b), 'c/d' (say c-d), 'e_f' (say e-f) must be lowercase letters, "
                     "digits and single hyphens between them")


def test_a_bad_tags_suggestion_folds_letters_as_answers_and_the_finder_do():
    # 'straße' was told to say 'strae'; the finder matches 'strasse', as an answer spells it
    (error,) = errors_of('---\ntitle: T\ndate: 2026-01-01\ntags: [straße, Æsir rocks, Łódź]\n---\nBASIL | Herb\nLIBS | Freedoms\n')
    assert "'straße' (say strasse), 'Æsir rocks' (say aesir-rocks), 'Łódź' (say lodz)" in error


@pytest.mark.parametrize(
    "text, expected",
    [
        ("---\ntitle: T\ndate: 2026-01-01\n--- end\nBASIL | Herb\nLIBS | Freedoms\n",
         ["p.txt:4:1: front matter opened with '---' is never closed: this line is '--- end', and the closing line "
          "is '---' alone; make it '---'"]),
        ("----\ntitle: T\ndate: 2026-01-01\n----\nBASIL | Herb\nLIBS | Freedoms\n",
         ["p.txt:1:1: '----' does not open the front matter; the front matter opens and closes with a line of "
          "exactly '---', and holds 'key: value' lines"]),
        # a '----' among the entries is theirs: the missing closing line is not blamed on it
        ("---\ntitle: T\ndate: 2026-01-01\nBASIL | Herb\n----\nLIBS | Freedoms\n",
         ["p.txt:1:1: front matter opened with '---' is never closed; add a '---' line after it"]),
        ('+++\ntitle = "T"\n+++\nBASIL | Herb\nLIBS | Freedoms\n',
         ["p.txt:1:1: front matter in '+++' (TOML) is not read; the front matter opens and closes with a line of "
          "exactly '---', and holds 'key: value' lines"]),
    ],
)
def test_a_near_miss_fence_is_one_error_that_names_it(text, expected):
    assert errors_of(text) == expected


def test_comment_lines_may_come_before_the_front_matter():
    puzzle = load_puzzle("# Herbs, for the May issue\n\n---\ntitle: T\ndate: 2026-01-01\n---\nBASIL | Herb\nLIBS | Freedoms\n",
                         path="p.txt")
    assert puzzle.meta.title == "T" and [e.answer for e in puzzle.entries] == ["BASIL", "LIBS"]


def test_a_broken_link_a_utf32_file_and_a_fullwidth_bar_say_what_they_are(tmp_path):
    from site_builder.source import decode_source, read_source

    link = tmp_path / "gone.txt"
    link.symlink_to(tmp_path / "nowhere" / "x.txt")
    with pytest.raises(PuzzleError, match=r"this is a link to .*nowhere/x.txt, which does not exist; point it"):
        read_source(link)
    with pytest.raises(PuzzleError, match=r"this file is UTF-32 text; save it as UTF-8"):
        decode_source("---\ntitle: T\n---\n".encode("utf-32"), "p.txt")
    assert errors_of(f"{HEAD}BASIL \uff5c Herb\nLIBS | Freedoms\n") == [
        "p.txt:5:7: expected 'ANSWER | clue'; this line has '\uff5c' (fullwidth vertical line) where the plain '|' "
        "goes: type '|'"]


@pytest.mark.parametrize("text, expect", [
    # an entry line without its bar: the separator the author used instead is named
    (HEAD + "CAT | Pet\nFeta - Brined cheese\n", ":6:1: expected 'ANSWER | clue'; this line has no '|': put ' | ' where '-' separates"),
    (HEAD + "CAT | Pet\nFeta: Brined cheese\n", "put ' | ' where ':' separates the answer from its clue, or start the line with '#'"),
    (HEAD + "CAT | Pet\nFeta\tBrined cheese\n", "put ' | ' where a tab separates"),
    (HEAD + "CAT | Pet\nFeta Brined cheese\n", "this line has no '|': write ' | ' between the answer and its clue, or start"),
    # a star after the answer, or two: one goes before it
    (HEAD + "CAT | Pet\nGruyère* | Swiss\n", "character '*' cannot be in an answer; one '*' before the answer marks it required (*Gruyère | clue)"),
    (HEAD + "CAT | Pet\n**Cheddar | English\n", "(*Cheddar | clue)"),
    # tags in the wrong separator: two tags, not one named food-france
    ("---\ntitle: T\ndate: 2026-01-01\ntags: food; france\n---\nCAT | Pet\nACT | Deed\n",
     ":4:7: 'tags' are separated by commas, not ';': tags: [food, france]"),
    # a list item indented unlike its neighbours: indentation, not quoting
    ("---\ntitle: T\ndate: 2026-01-01\ntags:\n  - food\n - france\n---\nCAT | Pet\nACT | Deed\n",
     ":6:2: front matter is not valid YAML: expected <block end>, but found '<block sequence start>'; this line is indented unlike"),
    # one indented more: YAML joins it to the item above ('food - france'), which is no slip of naming
    ("---\ntitle: T\ndate: 2026-01-01\ntags:\n  - food\n   - france\n---\nCAT | Pet\nACT | Deed\n",
     ":6:4: this '- ' line is indented more than the one above it, so YAML reads them as one tag ('food - france'); indent"),
    # a blank line between them: the '- ' line is named, not the blank one
    ("---\ntitle: T\ndate: 2026-01-01\ntags:\n  - food\n\n   - france\n---\nCAT | Pet\nACT | Deed\n",
     ":7:4: this '- ' line is indented more than the one above it, so YAML reads them as one tag ('food - france'); indent"),
    # a tag wrapped onto a second line, with a hyphen in it: no list item there, the tag's own error
    ("---\ntitle: T\ndate: 2026-01-01\ntags:\n  - food and\n    drink - wine\n---\nCAT | Pet\nACT | Deed\n",
     ":5:3: tag 'food and drink - wine' (say food-and-drink-wine) must be"),
    # a quote opened on the block's last line and never closed: not "text follows the closing quote"
    ('---\ntitle: T\ndate: 2026-01-01\nauthor: "unterminated\n---\nCAT | Pet\nACT | Deed\n',
     ':4:9: front matter is not valid YAML: the quote here is never closed; end the value with the same quote mark (")'),
    # a reference one letter off an answer
    (HEAD + "THESEUS | Hero\nMINOTAUR | Killed by [[Thesus]]\n", "names no answer of this puzzle (did you mean [[THESEUS]]?)"),
    # characters that look like the plain ones, which the message itself would show unchanged
    ("---\ntitle: T\ndate: 2026\u201111\u201120\n---\nCAT | Pet\nACT | Deed\n",
     ":3:7: 'date' must be an ISO date like 2026-11-30, not '2026\u201111\u201120'; it has '\u2011' (non-breaking hyphen) "
     "where '-' goes: type the plain one"),
    ("---\ntitle: T\ndate: \uff12\uff10\uff12\uff16-01-01\n---\nCAT | Pet\nACT | Deed\n",
     "it has '\uff12' (fullwidth digit two) where '2' goes"),
    ("---\ntitle: T\ndate\uff1a 2026-11-20\n---\nCAT | Pet\nACT | Deed\n",
     ":3:5: front matter is not valid YAML: 'date' is followed by '\uff1a' (fullwidth colon) where ':' goes; type the plain ':'"),
])
def test_an_authors_slips_are_told_what_was_meant(text, expect):
    assert any(expect in e for e in errors_of(text)), errors_of(text)


def test_front_matter_without_its_opening_line_is_one_error_not_one_per_key():
    errors = errors_of("# my puzzle\ntitle: T\n\ndate: 2026-01-01\n---\nCAT | Pet\nACT - Deed\n")
    assert errors == [
        "p.txt:1:1: the front matter (lines 1 to 4) has a closing '---' but no opening one: add a line '---' before line 1",
        "p.txt:7:1: expected 'ANSWER | clue'; this line has no '|': put ' | ' where '-' separates the answer from its "
        "clue, or start the line with '#' to keep it as a note",
    ], errors


@pytest.mark.parametrize("name, fix", [("new four.txt", "new-four.txt"), ("cheese_board2.txt", "cheese-board2.txt"),
                                       ("東京.txt", "e.g. twin-peaks.txt"),
                                       # a second extension, from a system that hides them, is dropped
                                       ("draft-three.txt.txt", "rename it draft-three.txt"),
                                       ("notes.md.txt", "rename it notes.txt"), ("a.b.txt", "rename it a-b.txt")])
def test_a_bad_file_name_is_given_one_that_would_do(name, fix):
    with pytest.raises(PuzzleError, match=re.escape(fix)):
        slug_for(name)


@pytest.mark.parametrize("ch, name", [("\x0b", "U+000B (line tabulation)"), ("\x1b", "U+001B (escape)"),
                                      ("\x7f", "U+007F (delete)"), ("\x9b", "U+009B (a control character)")])
def test_a_control_character_in_the_front_matter_is_named_at_its_place(ch, name):
    """YAML's own message named line 2 for any of them, with no column and no fix."""
    errors = errors_of(f"---\ntitle: T\ndate: 2026-01-01\nauthor: A{ch}B\n---\nCAT | Pet\nACT | Deed\n")
    assert errors == [f"p.txt:4:10: an invisible character {name} is in this line; delete it"], errors


def test_a_line_typed_above_the_front_matter_is_told_to_go_not_that_the_front_matter_has_no_opening():
    errors = errors_of("Sunday special: a theme puzzle\n---\ntitle: T\ndate: 2026-01-01\n---\nCAT | Pet\nACT | Deed\n")
    assert errors == ["p.txt:1:1: a puzzle file starts with its front matter's '---' (line 2); delete what comes before "
                      "it, or start that line with '#'"], errors


# ---------------------------------------------------------------- a hostile file (QA hostile-s20)

FRONT = "---\ntitle: T\ndate: 2026-01-01\n"
BODY = "---\nBASIL | Herb\nLAMB | Meat\n"


def test_a_yaml_alias_is_refused_before_it_grows():
    """Aliases nested ten deep ("billion laughs") made a value of 10^n words: a 1 kB file took gigabytes, and
    the error quoted the whole value (5 MB for six levels)."""
    levels = ["&a [" + ",".join(["lol"] * 10) + "]"] + [
        f"&{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 10) + "]" for i in range(5)]
    text = FRONT + f"description: [{', '.join(levels)}]\npaper: *f\n" + BODY
    errors = errors_of(text)
    assert len(errors) == 2 and all("uses a YAML alias" in e and len(e) < 300 for e in errors), errors
    assert errors[0].startswith("p.txt:4:1: 'description'") and errors[1].startswith("p.txt:5:1: 'paper'")
    # one key's value repeated under another is an alias too, said at the key that repeats it
    errors = errors_of(FRONT + "author: &a Ann\ndescription: *a\n" + BODY)
    assert errors == ["p.txt:5:1: 'description' uses a YAML alias ('*' and a name): write the value out in full "
                      "(in quotes if it starts with '*' or '&')"], errors
    # a plain value that only looks like one stays what it says
    assert load_puzzle(FRONT + "description: '*the* best & brightest'\n" + BODY, path="p.txt").meta.description \
        == "*the* best & brightest"


def test_a_front_matter_slip_is_looked_for_within_a_bounded_number_of_readings(monkeypatch):
    """Each line that looked like a slip was tried with every fix of the lines after it, each a parse of the
    whole block: 30 such lines took 166 s. Past SLIP_TRIALS readings YAML's own message stands."""
    import yaml

    from site_builder import source

    calls = [0]
    real = yaml.compose

    def counted(*args, **kw):
        calls[0] += 1
        return real(*args, **kw)

    monkeypatch.setattr(yaml, "compose", counted)
    text = FRONT + "tags: [a,\n" + "".join(f"k{i}=v,\n" for i in range(14)) + "z]\n  - x: y\n" + BODY
    errors = errors_of(text)
    assert len(errors) == 1 and "not valid YAML" in errors[0], errors
    assert calls[0] <= source.SLIP_TRIALS + 5, calls[0]
    calls[0] = 0
    errors_of(FRONT + "author= Ann\n" + BODY)  # an everyday slip is still found and named
    assert "with a colon and a space" in errors_of(FRONT + "author= Ann\n" + BODY)[0]


def test_limits_on_tags_clues_and_numbers_name_the_line():
    """10,000 tags built for ten minutes and 11.6 GB (every tag page lists every tag); a clue of 950 kB took
    192 s; a seed of 5,000 digits got Python's own words about int_max_str_digits."""
    from site_builder.source import MAX_CLUE, MAX_TAGS

    tags = ", ".join(f"t{i}" for i in range(MAX_TAGS + 1))
    assert errors_of(FRONT + f"tags: [{tags}]\n" + BODY) == [
        f"p.txt:4:7: 'tags' lists {MAX_TAGS + 1} tags; keep a puzzle to {MAX_TAGS} (each gets a page, and every tag "
        "page lists them all)"]
    assert load_puzzle(FRONT + f"tags: [{', '.join(f't{i}' for i in range(MAX_TAGS))}]\n" + BODY, path="p.txt")
    long = "word " * (MAX_CLUE // 5 + 1)
    errors = errors_of(FRONT + "---\nBASIL | Herb\nLAMB | " + long + "\n")
    assert len(errors) == 1 and errors[0].startswith(f"p.txt:6:8: the clue for LAMB is {len(long.strip()):,} characters")
    assert f"keep a clue to {MAX_CLUE:,}" in errors[0]
    errors = errors_of(FRONT + "seed: " + "9" * 5000 + "\n" + BODY)
    assert errors == ["p.txt:4:7: 'seed' must be between 0 and 4294967295, not a number of 5000 characters"]
    for key in ("paper", "draft", "strategy"):  # any key: not Python's words about int_max_str_digits
        errors = errors_of(FRONT + f"{key}: " + "9" * 5000 + "\n" + BODY)
        assert errors == [f"p.txt:4:{len(key) + 3}: bad value for '{key}', not a number of 5000 characters"], errors
    # values quoted in a message are cut short
    for line in ("description: !" + "x" * 50_000, "tags: [a, b_" + "c" * 50_000 + "]"):
        errors = errors_of(FRONT + line + "\n" + BODY)
        assert len(errors) == 1 and len(errors[0]) < 400, (len(errors[0]), errors[0][:200])
    errors = errors_of(FRONT + "seed: 99999999999999\n" + BODY)
    assert errors == ["p.txt:4:7: 'seed' must be between 0 and 4294967295, not 99999999999999"], errors


@pytest.mark.parametrize("answer, col, fix", [("A . B", 4, "'A. B'"), ("C - D", 3, "'C-D'"), ("E  -F", 4, "'E-F'"),
                                              ("G -'- H", 3, None), ("ROCK 'N' - ROLL", 10, "\"ROCK 'N'-ROLL\"")])
def test_two_breaks_in_a_row_are_pointed_at_with_the_answer_mended(answer, col, fix):
    """'A . B' was 'bad answer: ' ' must sit between letters' at column 1, beside a letter."""
    errs = errors_of(f"---\ntitle: T\ndate: 2026-01-02\n---\n{answer} | x\nSAGE | herb\n")
    assert len(errs) == 1 and errs[0].startswith(f"p.txt:5:{col}: bad answer {answer!r}: two breaks in a row"), errs
    assert (f"keep one space or hyphen there ({fix})" in errs[0]) if fix else errs[0].endswith("there"), errs


def test_front_matter_text_has_a_most_length_and_no_control_characters():
    """A 200,000-character title was only lint's warning, and printing it took four minutes; a NUL in the
    notes (a YAML escape) stayed in the .json and .ipuz while the other outputs dropped it."""
    head = "---\ntitle: {}\ndate: 2026-01-01\n{}---\nCAT | Pet\nACT | Deed\n"
    with pytest.raises(PuzzleErrors, match=r"2:8: 'title' is 201 characters long; keep it to 200 \(the description holds the rest\)"):
        load_puzzle(head.format("T" * 201, ""))
    assert load_puzzle(head.format("T" * 200, "")).meta.title == "T" * 200
    with pytest.raises(PuzzleErrors, match=r"'notes' is 20,001 characters long; keep it to 20,000$"):
        load_puzzle(head.format("T", f"notes: {'n' * 20_001}\n"))
    notes = load_puzzle(head.format("T", 'notes: "one\\x00two\\n\\nthree\\tfour  \\x07five"\n')).meta.notes
    assert notes == "onetwo\n\nthree\tfour  five"  # every output shows this; the notes' own spacing is kept
    notes = load_puzzle(head.format("T", 'notes: "form\\ffeed\\x85next\\u2028line \\uFFFE end"\n')).meta.notes
    assert notes == "form\nfeed\nnext\nline  end"  # a line's other breaks are line breaks; a noncharacter goes


def test_the_name_offered_for_a_misnamed_file_is_a_free_one(tmp_path):
    """`Cats.txt` beside `cats.txt` was told "rename it cats.txt": following it with `mv` lost a puzzle."""
    from site_builder.source import slug_for, unread_sources

    (tmp_path / "Cats.txt").write_text("x")
    with pytest.raises(PuzzleError, match=r"; rename it cats\.txt$"):
        slug_for(tmp_path / "Cats.txt")
    (tmp_path / "cats.txt").write_text("x")
    (tmp_path / "cats-2.txt").write_text("x")
    if (tmp_path / "cats.txt").samefile(tmp_path / "Cats.txt"):
        pytest.skip("a case-blind file system: Cats.txt is cats.txt")
    with pytest.raises(PuzzleError, match=r"; rename it cats-3\.txt \(cats\.txt is taken\)$"):
        slug_for(tmp_path / "Cats.txt")
    long = "a" * 100  # the name offered stays within the 100 characters a name may have
    (tmp_path / f"{long}.txt").write_text("x")
    with pytest.raises(PuzzleError, match=rf"; rename it {'a' * 98}-2\.txt \({long}\.txt is taken\)$"):
        slug_for(tmp_path / f"{long.upper()}.txt")
    (tmp_path / "DOGS.TXT").write_text("---\n")
    (tmp_path / "dogs.txt").write_text("x")
    assert any("rename it dogs-2.txt (dogs.txt is taken)" in note for note in unread_sources(tmp_path))


def test_a_second_front_matter_block_is_one_error_that_says_so():
    """Its 'title: Bar' lines were each told to become 'TITLE | Bar' entries."""
    text = "---\ntitle: Foo\ndate: 2026-01-01\n---\n\n---\ntitle: Bar\ndate: 2026-01-02\n---\nCAT | Pet\nACT | Deed\n"
    with pytest.raises(PuzzleErrors) as info:
        load_puzzle(text)
    assert [str(e) for e in info.value.errors] == [
        "<input>:6:1: a second front-matter block (lines 6 to 9): a puzzle has one; move the lines you want into "
        "the first (lines 1 to 4) and delete this one"]


def test_a_yaml_directive_in_the_front_matter_is_named():
    """`%YAML 1.1` was "expected '<document start>', but found '<stream end>'", at a column past the line."""
    with pytest.raises(PuzzleErrors, match=r"<input>:3:1: a line starting with '%' is a YAML directive"):
        load_puzzle("---\ntitle: T\n%YAML 1.1\ndate: 2026-01-01\n---\nCAT | Pet\nACT | Deed\n")
    assert load_puzzle("---\ntitle: T\nnotes: |\n  %100 sure\ndate: 2026-01-01\n---\nCAT | Pet\nACT | Deed\n").meta.notes == "%100 sure"


# ---------------------------------------------------------------- a fourth hostile-input pass


@pytest.mark.parametrize("value, col", [('"\\U00110000"', 9), ('["\\UFFFFFFFF"]', 9)])
def test_an_escape_past_the_last_character_is_an_error_on_its_line(value, col):
    """PyYAML raises a plain ValueError (or OverflowError) for it: every command crashed with exit 3, and a
    build stopped for one bad file, its other puzzles unbuilt."""
    key = "tags" if value.startswith("[") else "title"
    title = "" if key == "title" else "title: T\n"
    errors = errors_of(f"---\n{title}{key}: {value}\ndate: 2026-01-02\n---\nCAT | x\nACT | y\n")
    line = 3 if title else 2
    assert len(errors) == 1 and errors[0].startswith(f"p.txt:{line}:{col}: the escape \\U") and "names no character" in errors[0]


@pytest.mark.parametrize("front, key", [
    ("title: !!set {alpha, beta, gamma}", "title"),  # a Python set's repr, in another order on every run
    ("title: T\nsize: !!int \"0x15\"", "size"),  # past the plain-number rule: read as 21
    ("title: T\ndraft: !!bool \"yes\"", "draft"),
    ("title: T\ntags: [news, !!str b]", "tags"),
    # unquoted: the quotes the advice for a text key gives would not mend these ('!!int 15' is no number)
    ("title: T\nsize: !!int 15", "size"),
    ("title: T\ndraft: !!bool yes", "draft"),
    ("title: T\ntags: !!str a", "tags"),
])
def test_a_yaml_tag_in_the_front_matter_is_an_error(front, key):
    errors = errors_of(f"---\n{front}\ndate: 2026-01-02\n---\nCAT | Feline\nACT | Deed\n")
    assert len(errors) == 1 and f"'{key}' has a YAML tag ('!!" in errors[0], errors
    assert "delete the tag" in errors[0] and "put the value in quotes:" not in errors[0], errors


def test_control_characters_in_a_file_or_key_name_are_escaped_in_messages():
    """A key or file name with a line break forged a second error line in the log; an escape sequence set
    the terminal's colours or title."""
    errors = errors_of('---\ntitle: T\ndate: 2026-01-02\n"x\\np.txt:1:1: error: forged\\e]0;PWNED\\a": 1\n---\nCAT | x\nACT | y\n')
    assert len(errors) == 1 and "\n" not in errors[0] and "\x1b" not in errors[0] and "\x07" not in errors[0]
    assert "'x\\np.txt:1:1: error: forged\\x1b]0;PWNED\\x07'" in errors[0]
    with pytest.raises(PuzzleError) as info:
        slug_for("puzzles/b\nfake\x1b[31m\u202e.txt")
    assert str(info.value).startswith("puzzles/b\\nfake\\x1b[31m\\u202e.txt: file name 'b\\nfake\\x1b[31m\\u202e.txt'")


@pytest.mark.parametrize("front, line", [("title: T\nCAT | x\ndate: 2026-01-02", 3), ("CAT | x\ntitle: T\ndate: 2026-01-02", 2)])
def test_an_entry_inside_the_front_matter_is_named_on_its_line(front, line):
    """YAML's message pointed at the line after it, or at the good `title:` line with advice to quote it."""
    errors = errors_of(f"---\n{front}\n---\nACT | y\nTACT | z\n")
    assert errors == [f"p.txt:{line}:1: this line looks like an entry ('ANSWER | clue') inside the front matter; "
                      "end the front matter with a '---' line before the entries"]


@pytest.mark.parametrize("answer", ["A" * 900_000, "SA" + "-" * 300_000 + "GE", "1" * 500_000, "A" * 900_000 + "*"])
def test_a_huge_answer_is_not_echoed_whole_in_its_error(answer):
    """A 900,000-letter answer made one error line of 900 kB on the terminal."""
    text = f"---\ntitle: T\ndate: 2026-01-02\n---\n{answer} | x\n{answer} | y\nCAT | z\nACT | w\n"
    errors = errors_of(text)
    assert errors and all(len(e) < 400 for e in errors), [e[:200] for e in errors]
    assert errors[0].startswith("p.txt:5:") and "..." in errors[0], errors[0][:200]


def test_front_matter_too_deep_for_the_reader_names_the_line_of_the_value():
    """Nested 600 deep, the YAML reader itself gives up: the error named the front matter's first line."""
    text = "---\ntitle: T\ndate: 2026-01-01\ndifficulty: easy\n\nauthor: " + "[" * 600 + "]" * 600 + "\n---\nCAT | x\nACT | y\n"
    assert errors_of(text) == ["p.txt:6:9: front matter is nested too deeply; use plain 'key: value' lines"]


def test_front_matter_too_deep_is_named_on_the_deepest_value_not_the_first_deep_one():
    text = ("---\ntitle: '" + "[" * 120 + "'\ndate: 2026-01-01\ndescription: " + "[" * 150 + "]" * 150
            + "\nauthor: " + "[" * 600 + "]" * 600 + "\n---\nCAT | x\nACT | y\n")
    assert errors_of(text) == ["p.txt:5:9: front matter is nested too deeply; use plain 'key: value' lines"]
