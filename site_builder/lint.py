"""`crossword lint`: every parser error plus editorial warnings, compiler style.

`lint_file(path)` returns Diagnostics for one file; `lint_paths(paths)` for
many, sorted by file, then line, then column. Errors are what the parser
rejects (the build would fail); warnings are things a puzzle editor would
query: a clue that gives its answer away, a clue too long to read, two
identical clues, two answers that give each other away, an enumeration typed
by hand. The library never prints; cli.py does.
"""

from __future__ import annotations

import math
import os
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from .errors import PuzzleError, shown
from .model import Entry, letter_groups, lone_answers
from .source import REFERENCE, fold_letter, one_line_positions, parse_source, puzzle_sources, read_source, slug_for

ERROR = "error"
WARNING = "warning"

# A printed clue list is set in columns of about 40 characters, so 120
# characters is three full lines for one clue; the longest clue in the
# Twin Peaks puzzle is 75. Past that a clue reads like a paragraph.
LONG_CLUE = 120
# A title is set in 22 pt on the PDF's masthead, where 80 characters fill about two lines of a page.
LONG_TITLE = 80
# A word of an answer this long (or longer) counts as a give-away when it shows
# up in its own clue or in another answer. Three-letter words (THE, AND, BOB)
# repeat harmlessly.
MIN_WORD = 4
# Common words of MIN_WORD+ letters that may sit in an answer and its clue without giving anything away.
STOPWORDS = frozenset(
    "ABOUT AFTER AGAIN ALSO BEEN BEFORE BEING DOES DOWN EACH FROM HAVE HERE INTO JUST LIKE MADE MAKE MORE MOST "
    "MUCH ONLY OVER SOME SUCH THAN THAT THEIR THEM THEN THERE THESE THEY THIS THOSE UPON VERY WERE WHAT WHEN "
    "WHERE WHICH WHILE WHOM WITH WOULD YOUR".split()
)
# "12-Across", "4 Down": a clue pointing at another by a number the author cannot know before the layout ("7A"
# is left alone: "3D film" reads the same)
NUMBERED = re.compile(r"\b\d+(?:-(?i:across|down)|\s*(?:Across|Down|ACROSS|DOWN))\b")  # "count 10 down": not one
_ENUM_AT_END = re.compile(r"\(\s*(\d+(?:\s*[,\-]\s*\d+)*)\s*\)\s*[.!?]?\s*$")


@dataclass(frozen=True)
class Diagnostic:
    path: str
    line: int | None
    col: int | None
    level: str
    message: str
    code: str = ""
    count: int = 1  # problems it reports: more for the line that counts the errors not listed

    def sort_key(self) -> tuple:
        return (self.path, self.line or 0, self.col or 0, self.level != ERROR, self.message)

    def __str__(self) -> str:
        loc = shown(self.path)
        if self.line is not None:
            loc += f":{self.line}"
            if self.col is not None:
                loc += f":{self.col}"
        tail = f" [{self.code}]" if self.code else ""
        return f"{loc}: {self.level}: {self.message}{tail}"


def _from_error(e: PuzzleError) -> Diagnostic:
    return Diagnostic(e.path, e.line, e.col, ERROR, e.message, count=e.count)


# ------------------------------------------------------------------ words


def words_with_columns(text: str, start: int = 0) -> list[tuple[str, int, int]]:
    """Words of `text` folded to A-Z, each with the 0-based [start, end) it spans in `text`.

    Apostrophes are dropped inside a word (Cooper's -> COOPERS), as in answers.
    """
    out: list[tuple[str, int, int]] = []
    word: list[str] = []
    at = end = 0
    for i, ch in enumerate(text[start:], start):
        folded = fold_letter(ch)
        if folded and all("A" <= c <= "Z" for c in folded):
            if not word:
                at = i
            word.append(folded)
            end = i + 1
        elif ch in "'’" and word:
            continue
        elif word:
            out.append(("".join(word), at, end))
            word = []
    if word:
        out.append(("".join(word), at, end))
    return out


def stem(word: str) -> str:
    """A crude English stem, enough to see that DANCE, DANCES, DANCED, DANCING are one word."""
    w = word
    for suffix in ("ING", "ED", "ES", "S"):
        if w.endswith(suffix) and not w.endswith("SS") and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    if w.endswith("E") and len(w) > 3:
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "AEIOUSL":
        w = w[:-1]
    return w


def answer_words(entry: Entry) -> list[str]:
    """The words of an answer as letters, from its display form (spaces and hyphens split)."""
    return [w for w, _, _ in words_with_columns(entry.display)]


def _significant(word: str) -> bool:
    return len(word) >= MIN_WORD and word not in STOPWORDS


# --------------------------------------------------------------- warnings


def _clue_start(line: str) -> int:
    """0-based index of the first character of the clue on an entry line."""
    bar = line.index("|") + 1
    return bar + len(line[bar:]) - len(line[bar:].lstrip())


def _clue_columns(line: str, clue: str) -> list[int]:
    """The 1-based column on `line` of each character of `clue`, the clue as read (see source.one_line:
    line breaks are spaces, other control characters gone, runs of spaces one); a warning about the
    clue's Nth character points at column [N] of the line as written."""
    start = _clue_start(line)
    text, at = one_line_positions(line[start:])
    return [start + 1 + i for i in (at if text == clue else range(len(clue)))]


def _unreferenced(text: str) -> str:
    """`text` with each [[reference]] blanked, column for column: it prints as a number, not these words."""
    return REFERENCE.sub(lambda m: " " * len(m.group(0)), text)


def _answer_in_clue(entry: Entry, line: str) -> tuple[int, str] | None:
    start = _clue_start(line)
    tokens = words_with_columns(line, start)
    answer = entry.answer
    # the whole answer, as one clue word or as consecutive clue words (LOG LADY in "the log lady")
    for i, (token, at, end) in enumerate(tokens):
        joined = ""
        for j in range(i, len(tokens)):  # by index: a slice copied the rest of a long clue's words every word
            word, _, end = tokens[j]
            joined += word
            if len(joined) >= len(answer):
                break
        if joined == answer or (len(answer) >= 3 and stem(token) == stem(answer)):
            if joined != answer:
                end = tokens[i][2]
            return at, f"the clue contains the answer {entry.display} ('{line[at:end]}'); solvers can read it off"
    words = answer_words(entry)
    if len(words) > 1:
        for word in words:
            if not _significant(word):
                continue
            for token, at, _ in tokens:
                if token == word or stem(token) == stem(word):
                    return at, (
                        f"the clue contains {word}, part of the answer {entry.display}; "
                        "reword the clue so it does not give the word away"
                    )
    return None


def _clue_key(clue: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", clue.casefold()).split())


def check_entries(path: str, entries: Sequence[Entry], lines: Sequence[str], strategy: str = "") -> list[Diagnostic]:
    """The editorial warnings for a parsed list of entries (`strategy`: the front matter's, if any)."""
    out: list[Diagnostic] = []

    def warn(entry: Entry, col: int | None, message: str, code: str) -> None:
        out.append(Diagnostic(path, entry.line, col, WARNING, message, code))

    clue_seen: dict[str, Entry] = {}
    word_seen: dict[str, tuple[Entry, str]] = {}
    by_answer = {e.answer: e for e in entries}
    # a lone answer: one that shares no letter with any other. Under `adjacency` the dictionary's fill words
    # may cross it; where no two answers share a letter, the grid holds one of them alone (a warning each
    # would say every one is left out)
    lone = [] if strategy == "adjacency" or len(entries) < 2 else list(lone_answers(entries))
    if lone and len(lone) == len(entries):
        out.append(Diagnostic(path, entries[0].line, None, WARNING, (
            "no two answers share a letter, so nothing can cross: the grid holds one answer alone; "
            "add answers that share letters with these"), "no-crossing"))
        lone = []
    # groups of answers that share letters among themselves but none with the rest: one grid holds one group
    # (the lone answers, groups of one, are said above); a warning on the first answer of each smaller group
    groups = [] if strategy == "adjacency" else [g for g in letter_groups(entries) if len(g) > 1]
    apart = {g[0].line: g for g in groups[1:]} if len(groups) > 1 else {}
    for entry in entries:
        line = lines[entry.line - 1]
        clue_col = _clue_start(line) + 1
        group = apart.get(entry.line)
        if group is not None and group[0] is entry:
            names = ", ".join(e.display for e in group[:6]) + (f" and {len(group) - 6} more" if len(group) > 6 else "")
            main = ", ".join(e.display for e in groups[0][:4]) + (", ..." if len(groups[0]) > 4 else "")
            warn(entry, len(line) - len(line.lstrip().lstrip("*").lstrip()) + 1, (
                f"{names} share no letter with the other answers ({main}), so no grid holds both groups: one "
                "is left out (the build fails if both hold a starred answer); add answers that share letters "
                "with both, or make them a puzzle of their own"
            ), "no-crossing")
        cols = _clue_columns(line, entry.clue)  # the column of each character of the clue as read
        answer_col = len(line) - len(line.lstrip().lstrip("*").lstrip()) + 1

        if entry in lone:
            fate = "the build fails, as it is starred" if entry.required else "the grid leaves it out"
            warn(entry, answer_col, (
                f"{entry.display} shares no letter with any other answer, so nothing can cross it and {fate}; "
                "add an answer that shares a letter with it, or drop it"
            ), "no-crossing")

        # a reference, "[[RED ROOM]]", prints as a number: its words give nothing away
        hit = _answer_in_clue(entry, _unreferenced(line))
        if hit is not None:
            warn(entry, hit[0] + 1, hit[1], "answer-in-clue")

        number = NUMBERED.search(_unreferenced(entry.clue))
        if number:
            warn(entry, cols[number.start()], (
                f"the clue names {number.group(0)}, but numbers come from the layout and change with it; write "
                "the answer it means between [[ and ]], as the list spells it (\"see [[ANSWER]]\"), and every "
                "output prints that answer's number"
            ), "numbered-reference")

        if len(entry.clue) > LONG_CLUE:
            warn(entry, cols[LONG_CLUE], (
                f"the clue is {len(entry.clue)} characters, over {LONG_CLUE}; "
                "a long clue is hard to read in a printed clue list, so shorten it"
            ), "long-clue")

        key = _clue_key(entry.clue)
        if key and key in clue_seen:
            first = clue_seen[key]
            warn(entry, clue_col, (
                f"the clue for {entry.display} is the same as the clue for {first.display} (line {first.line}); "
                "give each answer its own clue"
            ), "duplicate-clue")
        else:
            clue_seen.setdefault(key, entry)

        m = _ENUM_AT_END.search(entry.clue)
        if m:
            typed = re.sub(r"\s+", "", m.group(1))
            note = "" if typed == entry.enumeration else f", and it is wrong: {entry.display} is ({entry.enumeration})"
            warn(entry, cols[m.start()], (
                f"the clue ends with '({typed})' but the enumeration is added from the answer{note}; remove it"
            ), "enumeration-in-clue")

        missing = _missing_glyphs(entry.clue)
        if missing:
            warn(entry, cols[entry.clue.index(missing[0])], _glyph_message(missing), "missing-glyph")

        # two answers that give each other away: a shared word, or one inside the other
        flagged = False
        for word in answer_words(entry):
            if not _significant(word):
                continue
            other = word_seen.get(stem(word))
            if other is not None and other[0] is not entry:
                # the stem may be all they share: DANCES and DANCING, FEATURES and FEATURE
                shared = f"the word {word}" if word == other[1] else f"a stem ({other[1]}, {word})"
                warn(entry, answer_col, (
                    f"{entry.display} and {other[0].display} (line {other[0].line}) share {shared}; "
                    "one answer gives the other away, so change one"
                ), "shared-word")
                flagged = True
                break
        if not flagged:
            inside = _contained_answer(entry, by_answer)
            if inside is not None:
                outer, inner = (entry, inside) if len(entry.answer) > len(inside.answer) else (inside, entry)
                warn(entry, answer_col, (
                    f"{outer.display} contains {inner.display} (the other is on line {inside.line}); "
                    "one answer gives the other away, so change one"
                ), "shared-word")
        for word in answer_words(entry):
            if _significant(word):
                word_seen.setdefault(stem(word), (entry, word))
    return out


def _glyph_message(missing: list[str], pictures: bool = True) -> str:
    """The warning for characters the print fonts cannot draw. `pictures`: text the SVG and PNG show too,
    in one face (cairo draws a box for a glyph that face lacks, where the PDF takes it from another of the
    shipped faces); else text the PDF alone prints, which only a glyph no shipped face has leaves empty."""
    first = missing[0]
    more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
    where = "the PDF" if not pictures else "the PDF and the pictures" if not _drawn_by_any(first) else "the pictures"
    return (
        f"the print fonts have no glyph for {first!r} ({unicodedata.name(first, 'U+%04X' % ord(first))}){more}: "
        f"{where} show{'s' if where == 'the PDF' else ''} an empty box there (the web page uses the reader's fonts); "
        "spell it in Latin letters if it must print"
    )


# front-matter text the prints show: with the face the pictures set it in, or None where only the PDF prints it
PRINTED_KEYS = {"title": "serif-bold", "author": "sans", "difficulty": "sans", "description": None, "notes": None,
                "copyright": None}


def check_front_matter(path: str, meta: dict, lines: Sequence[str]) -> list[Diagnostic]:
    """missing-glyph for the front matter's printed text (the title above all: it heads every picture),
    and long-title."""
    out: list[Diagnostic] = []
    title = meta.get("title")
    if isinstance(title, str) and len(title) > LONG_TITLE:
        lineno = next((i + 1 for i, ln in enumerate(lines) if re.match(r"title\s*:", ln)), None)
        out.append(Diagnostic(path, lineno, None, WARNING, (
            f"the title is {len(title)} characters, over {LONG_TITLE}; it heads the page, the index card, the "
            "PDF and the pictures in large type, so shorten it (the description holds the rest)"), "long-title"))
    for key, face in PRINTED_KEYS.items():
        value = meta.get(key)
        if not isinstance(value, str) or not value:
            continue
        missing = _missing_glyphs(value, face) if face else [ch for ch in _missing_glyphs(value) if not _drawn_by_any(ch)]
        if not missing:
            continue
        # the key's line, and the character's column on it (the first line when a block value spans several)
        lineno = next((i + 1 for i, ln in enumerate(lines) if re.match(rf"{key}\s*:", ln)), None)
        col = None
        if lineno is not None:
            at = lines[lineno - 1].find(missing[0])
            col = at + 1 if at >= 0 else None
        out.append(Diagnostic(path, lineno, col, WARNING, f"{key}: " + _glyph_message(missing, pictures=bool(face)),
                              "missing-glyph"))
    return out


def check_plain_title(path: str, title: str) -> list[Diagnostic]:
    """missing-glyph for a plain list's title, which `generate` takes from the file name (`東京.txt`)."""
    missing = _missing_glyphs(title, PRINTED_KEYS["title"])
    if not missing:
        return []
    return [Diagnostic(path, None, None, WARNING, f"the title {title!r}, from the file name: "
                       + _glyph_message(missing) + " (rename the file, or give the list a front matter with a title)",
                       "missing-glyph")]


def _missing_glyphs(text: str, face: str = "serif") -> list[str]:
    """The distinct characters of `text` that a shipped print face cannot draw, in order.

    Spaces and invisible format characters (joiners, variation selectors, a soft hyphen) draw nothing
    anyway and are not counted.
    """
    from .render.fonts import metrics

    drawn = metrics(face).advances
    out: list[str] = []
    for ch in text:
        if ord(ch) in drawn or ch in out or ch.isspace() or unicodedata.category(ch) in ("Cf", "Mn", "Cc"):
            continue
        out.append(ch)
    return out


def _drawn_by_any(ch: str) -> bool:
    """Whether any shipped print face has a glyph for `ch` (the PDF's Pango takes it from that face)."""
    from .render.fonts import FACES, metrics

    return any(ord(ch) in metrics(face).advances for face in FACES)


def _contained_answer(entry: Entry, by_answer: dict[str, Entry]) -> Entry | None:
    """An earlier answer of MIN_WORD+ letters inside this one, or this one inside an earlier one."""
    a = entry.answer
    for length in range(len(a) - 1, MIN_WORD - 1, -1):
        for i in range(len(a) - length + 1):
            other = by_answer.get(a[i : i + length])
            if other is not None and other.line < entry.line:
                return other
    if len(a) >= MIN_WORD:
        for other in by_answer.values():
            if other.line < entry.line and len(other.answer) > len(a) and a in other.answer:
                return other
    return None


# ------------------------------------------------------------------ files


def lint_file(path: str | Path) -> list[Diagnostic]:
    """Every error and warning for one puzzle file, sorted. Never raises for bad content."""
    shown = str(path)
    try:
        text = read_source(path)
    except PuzzleError as e:
        return [_from_error(e)]
    out: list[Diagnostic] = []
    try:
        slug_for(path)
    except PuzzleError as e:
        out.append(_from_error(e))
    parsed = parse_source(text, path=shown)
    out.extend(_from_error(e) for e in parsed.errors)
    strategy = str(parsed.meta.get("strategy") or "")
    out.extend(check_entries(shown, parsed.entries, parsed.lines, strategy))
    if len(parsed.entries) == 1 and not parsed.errors and strategy != "adjacency":  # (adjacency's fill may cross it)
        out.append(Diagnostic(shown, parsed.entries[0].line, None, WARNING, (
            "the puzzle has one answer, so nothing can cross it: the grid holds that word alone; add answers "
            "that share letters with it"), "no-crossing"))
    out.extend(check_front_matter(shown, parsed.meta, parsed.lines))
    out.extend(check_puz_text(shown, parsed.meta, parsed.entries, parsed.lines))
    out.extend(check_room(shown, parsed.meta, parsed.entries, parsed.lines))
    return _cap_warnings(sorted(out, key=Diagnostic.sort_key))


MAX_SAME_WARNINGS = 20  # warnings of one kind shown for one file; past them, one line counts the rest


def _cap_warnings(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The first MAX_SAME_WARNINGS warnings of each kind, and one more line counting the rest of that kind:
    a list of 1,000 answers with one clue copied down gave 1,000 duplicate-clue lines (the summary still
    counts every one)."""
    seen: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        if d.level != ERROR:
            seen.setdefault(d.code, []).append(d)
    rest = {code: ds[MAX_SAME_WARNINGS:] for code, ds in seen.items() if len(ds) > MAX_SAME_WARNINGS + 1}
    if not rest:
        return diagnostics
    dropped = {id(d) for ds in rest.values() for d in ds}
    out = [d for d in diagnostics if id(d) not in dropped]
    for code, ds in rest.items():
        out.append(Diagnostic(ds[0].path, ds[0].line, None, WARNING, (
            f"{len(ds)} more {code} warnings after these (up to line {ds[-1].line}); "
            "fix the ones above, and lint again"), code, count=len(ds)))
    return sorted(out, key=Diagnostic.sort_key)


# The densest layouts measured hold answers whose letters come to about 0.58 of the grid's squares (twin-peaks
# in 21x21, every answer placed). Past CROWDED answers are likely left out: 50 five-letter words at 0.69 left
# two out, 100 three-letter words (which pack tighter) one at 0.75 and none at 0.68. It is the share past which
# the layout search treats a list as too long for its box (optimize.FULL), so the two always agree.
CROWDED = 0.6
ROOMY = 0.5  # the share the suggested size gives them


def roomy_size(letters: int) -> int:
    """The grid size whose squares the answers' letters fill to ROOMY: the size lint and the build suggest."""
    return math.ceil(math.sqrt(letters / ROOMY))


def check_room(path: str, meta: dict, entries: Sequence[Entry], lines: Sequence[str]) -> list[Diagnostic]:
    """too-many-letters: more answer letters than a size x size grid holds, so the build leaves answers out."""
    from .source import MAX_SIZE

    size = meta.get("size")
    size = size if isinstance(size, int) and not isinstance(size, bool) and 3 <= size <= MAX_SIZE else 23
    letters = sum(len(e.answer) for e in entries if len(e.answer) <= size)
    if len(entries) < 2 or letters <= CROWDED * size * size:
        return []
    lineno = next((i + 1 for i, ln in enumerate(lines) if re.match(r"size\s*:", ln)), None)
    lineno = lineno or entries[0].line
    wanted = roomy_size(letters)
    fix = (f"raise 'size' to {wanted}, or split the list" if wanted <= MAX_SIZE
           else f"split the list: even a {MAX_SIZE}x{MAX_SIZE} grid holds too few")
    said = f"'size: {meta['size']}'" if "size" in meta else "the default size, 23"
    return [Diagnostic(path, lineno, None, WARNING, (
        f"the {len(entries)} answers have {letters} letters, {letters / (size * size):.2f} of the {size * size} "
        f"squares of {said}; the densest grids hold about 0.6, so the build is likely to leave answers out; {fix}"),
        "too-many-letters")]


PUZ_KEYS = ("title", "author", "copyright", "description", "notes")  # the front matter a .puz carries


def check_puz_text(path: str, meta: dict, entries: Sequence[Entry], lines: Sequence[str]) -> list[Diagnostic]:
    """puz-utf8: the first character (in the front matter the .puz carries, or a clue) that ISO-8859-1 cannot
    spell, even plainly: the .puz export is then version 2.0, in UTF-8, where older solving apps misread every
    accent in the file. One warning a file: a puzzle in another script would have one a clue."""
    from .render.exports import to_latin1

    found: tuple[int | None, int | None, str, str] | None = None  # (line, column, character, where)
    for key in PUZ_KEYS:
        value = meta.get(key)
        if isinstance(value, str) and to_latin1(value) is None:
            ch = next(c for c in value if to_latin1(c) is None)
            lineno = next((i + 1 for i, ln in enumerate(lines) if re.match(rf"{key}\s*:", ln)), None)
            at = lines[lineno - 1].find(ch) if lineno is not None else -1
            found = (lineno, at + 1 if at >= 0 else None, ch, f"the {key}")
            break
    if found is None:
        for entry in entries:
            if to_latin1(entry.clue) is None:
                ch = next(c for c in entry.clue if to_latin1(c) is None)
                line = lines[entry.line - 1] if entry.line and entry.line <= len(lines) else ""
                at = line.find(ch, _clue_start(line)) if line else -1
                found = (entry.line, at + 1 if at >= 0 else None, ch, f"the clue of {entry.display}")
                break
    if found is None:
        return []
    lineno, col, ch, where = found
    return [Diagnostic(path, lineno, col, WARNING, (
        f"{where} holds {ch!r} (U+{ord(ch):04X}), which a .puz file's Latin-1 text cannot spell: the .puz is "
        "written in UTF-8 (version 2.0), and Across Lite and older apps show all its text past ASCII garbled; "
        "spell it another way if the puzzle is meant for them"), "puz-utf8")]


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files to lint: each named file, and the *.txt files of each named directory; a file named twice
    (`x.txt ./x.txt`, or by name and in its folder) once, as named first."""
    out: list[Path] = []
    seen: set[str] = set()
    for p in paths:
        p = Path(p)
        for f in puzzle_sources(p) if p.is_dir() and p.suffix != ".txt" else [p]:
            key = os.path.abspath(f)  # not where a link leads: two links to one file are two puzzles
            if key not in seen:
                seen.add(key)
                out.append(f)
    return out


def lint_paths(paths: Iterable[str | Path], *, strict: bool = False) -> list[Diagnostic]:
    """Diagnostics for many files, sorted by file then line. `strict` makes warnings errors."""
    out: list[Diagnostic] = []
    for p in paths:
        out.extend(lint_file(p))
    if strict:
        out = [Diagnostic(d.path, d.line, d.col, ERROR, d.message, d.code, d.count) for d in out]
    return sorted(out, key=Diagnostic.sort_key)


def summary(diagnostics: Sequence[Diagnostic], files: int) -> str:
    errors = sum(d.count for d in diagnostics if d.level == ERROR)
    warnings = sum(d.count for d in diagnostics if d.level != ERROR)

    def n(count: int, word: str) -> str:
        return f"{count} {word}" + ("" if count == 1 else "s")

    return f"{n(errors, 'error')}, {n(warnings, 'warning')} in {n(files, 'file')}"
