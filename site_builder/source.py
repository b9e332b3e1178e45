"""Reading puzzle source files: YAML front matter, then `ANSWER | clue` lines.

`read_puzzle(path)` takes a path; `load_puzzle(text, ...)` takes the text.
Every problem in a file is collected and raised together as `PuzzleErrors`,
each one located by line (and column where it helps).
"""

from __future__ import annotations

import datetime as _dt
import errno
import difflib
import os
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import yaml

from .errors import PuzzleError, PuzzleErrors, shown
from .model import Entry, Puzzle, PuzzleMeta

SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_SIZE = 60
MAX_SLUG = 100  # characters of a file name before .txt: it names a folder and files of public/
MAX_TAG = 60  # characters of a tag: it names a page, tags/<tag>.html
MAX_TAGS = 20  # tags of a puzzle: every tag page lists every tag, so 10,000 of them took gigabytes
PAPERS = ("letter", "a4")
# Even a 60x60 grid holds only about 400 answers (a 5,000-answer list at size 60
# places 384), so a longer list is a mistake, and it would make the seed search crawl.
MAX_ENTRIES = 1000
# A 1,000-answer file with long clues is about 150 kB; anything over 1 MB is not a puzzle.
MAX_FILE_BYTES = 1_000_000
# A clue past this is no clue (lint warns past 120): one of 950 kB took 192 s and a 17-page PDF to build.
MAX_CLUE = 2000
# characters of a front-matter text: the PDF and the pictures set the title, byline and description by
# measuring every word (a 20,000-character title took 9 s and 438 MB to print, 200,000 four minutes)
MAX_TEXT = {"title": 200, "author": 200, "difficulty": 100, "description": MAX_CLUE, "copyright": 500, "notes": 20_000}


def _strategies() -> tuple[str, ...]:
    from .layout import STRATEGIES

    return tuple(sorted(STRATEGIES))


# ---------------------------------------------------------------- answers

# Letters that do not decompose under NFKD but have a usual ASCII spelling.
# Latin letters that Unicode does not decompose to a letter and an accent, spelled as their languages spell them
# in A to Z (the upper case is looked up)
_SPECIAL_FOLDS = {"ß": "SS", "ẞ": "SS", "Æ": "AE", "Œ": "OE", "Ø": "O", "Ð": "D", "Þ": "TH", "Ł": "L", "Đ": "D", "ı": "I",
                  "Ħ": "H", "Ŧ": "T", "Ŋ": "NG", "Ə": "E", "Ɛ": "E", "ĸ": "K", "Ƒ": "F", "Ɨ": "I", "Ʉ": "U", "Ƶ": "Z",
                  "Ŀ": "L", "Ɖ": "D", "Ɔ": "O"}
# apostrophes, and what stands in for one: a backtick, the ʻokina and the modifier letter apostrophe
_DROPPED = {"'", "’", "‘", ".", "`", "ʻ", "ʼ"}
_BREAKS = {" ": ",", "-": "-", "–": "-", "‐": "-"}


def fold_letter(ch: str) -> str:
    """A character as A to Z spells it, where it has a usual spelling there (é: E, ß: SS, Æ: AE); any other
    upper-cased with its accents dropped (a digit, a mark, a letter of another script stays itself)."""
    up = ch.upper()
    if up in _SPECIAL_FOLDS:
        return _SPECIAL_FOLDS[up]
    return "".join(c for c in unicodedata.normalize("NFKD", up) if not unicodedata.combining(c))


def _as_yaml(value: Any, most: int = 60) -> str:
    """A front-matter value as the file would write it, for a message: 'true', '[2026-01-05]', 'abc' (in
    quotes), not Python's True and [datetime.date(2026, 1, 5)]; past `most` characters, cut short with '...'."""
    return _cut(_yaml_text(value), most)


def _cut(text: str, most: int, keep_end: int = 0) -> str:
    """`text`, or past `most` characters its start and '...' (and its last `keep_end`: a closing quote)."""
    if len(text) <= most:
        return text
    return text[: most - 3 - keep_end] + "..." + (text[-keep_end:] if keep_end else "")


def _yaml_text(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.isoformat(sep=" ") if isinstance(value, _dt.datetime) else value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_yaml_text(v) if not isinstance(v, str) else v for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_yaml_text(v) if not isinstance(v, str) else v}" for k, v in value.items()) + "}"
    return str(value)


def ascii_name(text: str) -> str:
    """`text` as lowercase letters, digits and single hyphens, folded as answers are ('Straße Café': strasse-cafe);
    empty when nothing of it is in A to Z or 0 to 9."""
    return re.sub(r"[^a-z0-9]+", "-", "".join(fold_letter(c) for c in text).lower()).strip("-")


@dataclass(frozen=True)
class NormalisedAnswer:
    letters: str
    display: str
    enumeration: str


class InvisibleCharacter(ValueError):
    """A character that shows nothing (a zero-width space, a control character) in an answer."""


def normalise_answer(raw: str) -> NormalisedAnswer:
    """Fold case and accents; return grid letters, display form and enumeration.

    Raises ValueError naming the first character that cannot be in an answer.
    """
    text = raw.strip()
    text = re.sub(r"\s+", " ", text)
    folded = []
    typed: list[str] = []  # the character as written that gave each character of `display`
    for ch in text:
        if unicodedata.combining(ch):  # an accent typed as its own mark (NFD text, e + U+0301) folds away too
            continue
        base = fold_letter(ch) or ch
        folded.append(base)
        typed += [ch] * len(base)
    display = "".join(folded)
    letters: list[str] = []
    parts: list[int] = []
    seps: list[str] = []
    current = 0
    for i, ch in enumerate(display):
        if "A" <= ch <= "Z":
            letters.append(ch)
            current += 1
        elif ch in _DROPPED:
            continue
        elif ch in _BREAKS:
            if current == 0 and parts:  # 'A - B', 'A . B': a space and a hyphen, or a space either side of a '.'
                fixed = _one_break_each(text)
                raise ValueError(f"two breaks in a row between words; keep one space or hyphen there"
                                 + (f" ({fixed!r})" if fixed != text and _well_formed(fixed) else ""))
            if current == 0:
                raise ValueError(f"'{ch}' must sit between letters")
            parts.append(current)
            seps.append(_BREAKS[ch])
            current = 0
        else:
            shown = repr(typed[i]) if typed[i].upper() == ch else f"{typed[i]!r} (read as {ch!r})"
            if not typed[i].isprintable() or unicodedata.category(typed[i]) == "Cf" or typed[i] in _BLANKS:
                name = unicodedata.name(typed[i], "").lower() or "a control character"
                raise InvisibleCharacter(f"an invisible character U+{ord(typed[i]):04X} ({name}) is in the answer "
                                         "(pasted with it); delete it")
            if unicodedata.category(ch).startswith("L"):  # a letter the grid cannot hold
                name = unicodedata.name(typed[i], "").lower()
                what = f"{shown}{f' ({name})' if name else ''}"
                if name.startswith("latin"):
                    raise ValueError(f"character {what} has no A to Z spelling here; spell the answer in the letters A to Z")
                raise ValueError(
                    f"character {what} is not a Latin letter; the grid holds A to Z (accented Latin letters fold to "
                    "them), so spell the answer in Latin letters (the clue may be in any script)"
                )
            if ch == "*":  # `Gruyère* | ...`, `**Cheddar | ...`: a star meant to mark the answer required
                raise ValueError("character '*' cannot be in an answer; one '*' before the answer marks it required "
                                 f"(*{_cut(text.replace('*', '').strip(), 60)} | clue)")
            raise ValueError(
                f"character {shown} cannot be in an answer (use letters; spaces, hyphens, apostrophes and full stops are allowed)"
            )
    if current == 0 and parts:
        raise ValueError("an answer cannot end with a space or hyphen")
    parts.append(current)
    enumeration = str(parts[0]) + "".join(s + str(n) for s, n in zip(seps, parts[1:]))
    return NormalisedAnswer("".join(letters), display.replace("–", "-").replace("‐", "-"), enumeration)


def _one_break_each(text: str) -> str:
    """`text` with one break between words: a space beside a hyphen goes ('A - B': 'A-B'), and a full stop
    after a space joins the word before it ('A . B': 'A. B'; an apostrophe may open the next word, 'N')."""
    out: list[str] = []
    for ch in text:
        if ch == "." and out and out[-1] == " ":
            out.pop()
        if ch in _BREAKS and out and out[-1] in _BREAKS:
            if ch != " ":
                out[-1] = ch  # a hyphen wins over a space
            continue
        out.append(ch)
    return "".join(out)


def _well_formed(text: str) -> bool:
    try:
        normalise_answer(text)
    except ValueError:
        return False
    return True


def _bad_char_index(raw: str) -> int:
    """Index in `raw` of the character that makes normalise_answer fail (best effort)."""
    fine: set[str] = set()  # each character tried once: an answer of 900,000 A's then a '*' took 16 s
    for i, ch in enumerate(raw):
        if ch in fine:
            continue
        try:
            normalise_answer("A" + ch + "A")
        except ValueError:
            return i
        fine.add(ch)
    last = ""  # two breaks in a row ('A - B'): the second one
    for i, ch in enumerate(raw):
        if ch in _DROPPED or (ch.isspace() and i and raw[i - 1].isspace()):
            continue
        kind = "break" if ch in _BREAKS or ch.isspace() else "letter"
        if kind == last == "break" and raw[:i].strip():
            return i
        last = kind
    breaks = [i for i, ch in enumerate(raw) if ch in _BREAKS and ch != " "]
    if breaks:
        lead = len(raw) - len(raw.lstrip())
        return breaks[0] if breaks[0] == lead else breaks[-1]
    return 0


# ------------------------------------------------------------ front matter


@dataclass(frozen=True)
class _Key:
    kind: str
    required: bool = False


KEYS: dict[str, _Key] = {
    "title": _Key("text", required=True),
    "date": _Key("date", required=True),
    "author": _Key("text"),
    "description": _Key("text"),
    "difficulty": _Key("text"),
    "tags": _Key("tags"),
    "draft": _Key("bool"),
    "paper": _Key("paper"),
    "size": _Key("size"),
    "seeds": _Key("seeds"),
    "seed": _Key("seed"),
    "strategy": _Key("strategy"),
    "effort": _Key("effort"),
    "copyright": _Key("text"),
    "notes": _Key("text"),
}


# the whole-number keys' allowed values, inclusive (the command line's overrides use the same)
RANGES = {"size": (3, MAX_SIZE), "seeds": (1, 100_000), "seed": (0, 2**32 - 1), "effort": (1, 10)}


def _check_value(key: str, value: Any) -> Any:
    """Return the validated value or raise ValueError saying what is allowed."""
    kind = KEYS[key].kind
    if value is None and kind not in ("text", "tags"):  # `size:` with nothing after it
        remove = "" if KEYS[key].required else " or remove the line"
        raise ValueError(f"'{key}' is empty; write a value after '{key}:'{remove}")
    if kind == "text":
        if isinstance(value, bool) or value is None or isinstance(value, (list, dict, set, frozenset, tuple, bytes)):
            raise ValueError(f"'{key}' must be text")
        text = str(value).strip()
        if any("\ud800" <= ch <= "\udfff" for ch in text):
            # YAML's \\u escapes can spell UTF-16 surrogates: join a pair (JSON's way of writing
            # an emoji) into its character; a lone one is not a character and cannot be written.
            try:
                text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
            except UnicodeDecodeError:
                bad = next(ch for ch in text if "\ud800" <= ch <= "\udfff")
                raise ValueError(
                    f"'{key}' holds a lone surrogate (\\u{ord(bad):04x}), which is not a character; "
                    "write the character itself, or an emoji as one \\U escape"
                ) from None
        # one form of each accented letter (text pasted from macOS comes decomposed), and one line for all
        # but the notes, whose blank lines part paragraphs: every output then shows the same text
        text = unicodedata.normalize("NFC", text)
        if key != "notes":
            text = one_line(text)
        else:  # a NUL or a bell (a YAML escape) goes, as from a clue; line breaks, spaces and tabs stay
            text = re.sub("[\v\f\x85\u2028\u2029]", "\n", text)
            text = "".join(ch for ch in text if ch in "\n\t" or unicodedata.category(ch) != "Cc"
                           and not (0xFDD0 <= ord(ch) <= 0xFDEF or ord(ch) & 0xFFFE == 0xFFFE))  # noncharacters
        if len(text) > MAX_TEXT[key]:
            where = {"title": " (the description holds the rest)", "description": " (the notes hold the rest)"}.get(key, "")
            raise ValueError(f"'{key}' is {len(text):,} characters long; keep it to {MAX_TEXT[key]:,}{where}")
        if not visible(text):
            if KEYS[key].required:
                raise ValueError(f"'{key}' must not be empty" + (" (it holds only invisible characters)" if text else ""))
            return ""  # an author of zero-width spaces is no author: the site's default stands in
        return text
    if kind == "date":
        if isinstance(value, _dt.datetime):  # YAML reads `2026-01-02 10:00:00` as a time of day too
            raise ValueError(f"'date' must be a date like 2026-11-30, without a time, not '{value.isoformat(sep=' ')}'")
        if isinstance(value, _dt.date):
            return value
        text = str(value).strip()
        try:
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):  # fromisoformat takes 20261130 and 2026-W05-3 too
                raise ValueError(text)
            return _dt.date.fromisoformat(text)
        except ValueError:
            raise ValueError(f"'date' must be an ISO date like 2026-11-30, not {_as_yaml(value)}"
                             + _lookalikes(text, r"\d{4}-\d{2}-\d{2}")) from None
    if kind == "tags":
        if value is None:  # `tags:` with nothing after it: no tags
            return ()
        if isinstance(value, str):
            if ";" in value:  # `tags: food; france`: two tags, in the wrong separator
                shown = ", ".join(t.strip() for t in value.replace(";", ",").split(",") if t.strip())
                raise ValueError(f"'tags' are separated by commas, not ';': tags: [{shown}]")
            value = [t.strip() for t in value.split(",") if t.strip()]
        if not isinstance(value, list) or not all(isinstance(t, (str, int)) and not isinstance(t, bool) for t in value):
            raise ValueError("'tags' must be a list of words, like [tv, mystery]")
        if len(value) > MAX_TAGS:
            raise ValueError(f"'tags' lists {len(value)} tags; keep a puzzle to {MAX_TAGS} (each gets a page, "
                             "and every tag page lists them all)")
        tags = []
        bad = [str(t).strip() for t in value if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", str(t).strip().lower())]
        if bad:  # every bad tag at once, as written, each with a name that would do
            fixes = [ascii_name(t) for t in bad]
            said = ", ".join(_as_yaml(t) + (f" (say {_cut(f, 60)})" if f else "")
                             for t, f in zip(bad, fixes))
            raise ValueError(f"tag{'s' if len(bad) > 1 else ''} {said} must be lowercase letters, digits and single "
                             "hyphens between them")
        for t in value:
            t = str(t).strip().lower()
            if len(t) > MAX_TAG:
                raise ValueError(f"tag {t[:20]!r}... is {len(t)} characters long; keep a tag to {MAX_TAG} (it names a page)")
            if t not in tags:
                tags.append(t)
        return tuple(tags)
    if kind == "bool":
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):  # draft: "true"
            raise ValueError(f"'{key}' must be true or false without quotes ({key}: {value.strip().lower()}); "
                             "in quotes it is a piece of text")
        if not isinstance(value, bool):
            raise ValueError(f"'{key}' must be true or false, not {_as_yaml(value)}")
        return value
    if kind == "paper":
        v = str(value).strip().lower() if isinstance(value, str) else ""
        if v not in PAPERS:
            raise ValueError(f"'paper' must be one of {', '.join(PAPERS)}, not {_as_yaml(value)}")
        return v
    if kind == "strategy":
        names = _strategies()
        v = str(value).strip() if isinstance(value, str) else ""
        if v not in names:
            hint = difflib.get_close_matches(v, names, n=1) if v else []
            extra = f" (did you mean '{hint[0]}'?)" if hint else ""
            raise ValueError(f"unknown strategy {_as_yaml(value)}{extra}; choose one of {', '.join(names)}")
        return v
    # integers
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"'{key}' must be a whole number, not {_as_yaml(value)}")
    low, high = RANGES[kind]
    if not low <= value <= high:
        raise ValueError(f"'{key}' must be between {low} and {high}, not {_as_yaml(value)}")
    return value


def one_line(text: str) -> str:
    """A clue as every output shows it: the control characters that break lines or space words (a tab,
    a word processor's vertical tab or form feed, NEL, Unicode's line and paragraph separators) become
    a space, other control characters (a bell, an escape) and what no file may hold (a lone surrogate)
    go, and runs of spaces become one space. Every output's one-line text (a clue, a title, a byline)
    is this, so they all agree. Accented letters are composed (NFC): an é typed as e and a combining
    accent, as macOS pastes it, is the one character é, which Latin-1 (the .puz) can spell."""
    plain = text.strip(" ")
    if _PLAIN_LINE.fullmatch(plain) and "  " not in plain:
        return plain  # printable ASCII and single spaces: as every output shows it once the ends are trimmed
    return one_line_positions(text)[0]


_PLAIN_LINE = re.compile(r"[!-~](?:[ -~]*[!-~])?")


def visible(text: str) -> bool:
    """Whether the text shows anything: not only spaces and invisible format characters (a zero-width
    space, a soft hyphen, a word joiner, a byte-order mark)."""
    return any(not ch.isspace() and unicodedata.category(ch) != "Cf" and ch not in _BLANKS for ch in text)


# characters that are letters or symbols to Unicode but show nothing: Hangul fillers, the blank Braille
# pattern, variation selectors
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\ufe0e\ufe0f")


def _noncharacter(ch: str) -> bool:
    """Unicode's noncharacters (U+FDD0 to U+FDEF, and the last two of every plane, U+FFFE, U+10FFFF):
    never text, and cairo refuses a string holding one."""
    code = ord(ch)
    return 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE


def one_line_positions(text: str) -> tuple[str, list[int]]:
    """`one_line(text)`, and for each of its characters the index in `text` it comes from (lint points
    its warnings at the line as written)."""
    kept: list[str] = []
    at: list[int] = []
    for i, ch in enumerate(text):
        if ch in LINE_BREAKS:
            ch = " "
        elif unicodedata.category(ch) == "Cc" or "\ud800" <= ch <= "\udfff" or _noncharacter(ch):
            continue
        if ch == " " and kept and kept[-1] == " ":
            continue
        kept.append(ch)
        at.append(i)
    lo, hi = 0, len(kept)
    while lo < hi and kept[lo].isspace():
        lo += 1
    while hi > lo and kept[hi - 1].isspace():
        hi -= 1
    return _composed(kept[lo:hi], at[lo:hi])


def _composed(chars: list[str], at: list[int]) -> tuple[str, list[int]]:
    """The text in NFC, each composed character at the place of the first character it comes from.
    Composition joins a letter with the marks after it, so each letter and its marks are composed
    apart (Hangul's conjoining letters, which join each other, fall back to the whole text)."""
    text = "".join(chars)
    whole = unicodedata.normalize("NFC", text)
    if whole == text:
        return text, at
    out: list[str] = []
    where: list[int] = []
    i = 0
    while i < len(chars):
        j = i + 1
        while j < len(chars) and unicodedata.combining(chars[j]):
            j += 1
        piece = unicodedata.normalize("NFC", "".join(chars[i:j]))
        out.append(piece)
        where += [at[i]] * len(piece)
        i = j
    if "".join(out) != whole:
        return whole, (at + at[-1:] * len(whole))[: len(whole)]
    return whole, where


LINE_BREAKS = frozenset("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\u2028\u2029")


_UNCLOSED = {
    "flow sequence": "the '[' here is never closed; end the list with ']' on this line",
    "flow mapping": "the '{' here is never closed; end it with '}' on this line",
    "quoted scalar": "the quote here is never closed; end the value with the same quote mark",
}


def _unclosed(exc: yaml.YAMLError, text: str) -> tuple[str, Any] | None:
    """(advice, mark) when the error is a bracket or quote opened on an earlier line and never closed:
    no closing character anywhere after it (a closed one with a slip inside keeps YAML's own place)."""
    context = getattr(exc, "context", None) or ""
    ctx, mark = getattr(exc, "context_mark", None), getattr(exc, "problem_mark", None)
    if ctx is None or mark is None or ctx.line > mark.line:
        return None
    if ctx.line == mark.line and (text[mark.index:].strip() or "flow" not in context):
        # YAML stopped on the opening line itself: a slip there, at YAML's place, unless a bracket runs to
        # the end of the block (a quote left open on the last line is a slip `_slip` names)
        return None
    for kind, advice in _UNCLOSED.items():
        if kind in context:
            opener = text[ctx.index] if ctx.index < len(text) else ""
            closer = {"[": "]", "{": "}", '"': '"', "'": "'"}.get(opener)
            # a quote closed anywhere later was closed (the slip is inside it); a bracket must close before
            # the place YAML stopped (a later ']' may sit in a quoted value)
            after = text[ctx.index + 1:] if opener in "\"'" else text[ctx.index + 1 : mark.index]
            if closer is None or closer in after:
                return None
            return advice, ctx
    return None


# what an input method or a word processor puts where ':' and '-' go, looking much the same
_COLONS = "\uff1a\ufe55\ufe13\u2236\ua789"
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2212\ufe63\uff0d"


def _lookalikes(text: str, pattern: str) -> str:
    """'; it has ... where ... goes' for a value that would match `pattern` but for characters that look like
    the plain ones (a non-breaking hyphen, full-width digits): the value reads right, so say which; else ''."""
    plain = "".join("-" if ch in _DASHES else ch for ch in unicodedata.normalize("NFKC", text))
    if plain == text or not re.fullmatch(pattern, plain):
        return ""
    odd = next(ch for ch in text if not ch.isascii())
    meant = "-" if odd in _DASHES else unicodedata.normalize("NFKC", odd)
    return f"; it has '{odd}' ({unicodedata.name(odd, 'U+%04X' % ord(odd)).lower()}) where '{meant}' goes: type the plain one"


# characters YAML reads as syntax at the start of a plain value (`@` and the backtick are reserved)
_VALUE_STARTS = {"@": "'@'", "`": "a backtick", "%": "'%'", "|": "'|'", ">": "'>'", "-": "'-'", "?": "'?'",
                 "!": "'!'", "&": "'&'", "*": "'*'"}


# YAML's problems that quoting the value mends (its others are brackets and structure)
_QUOTING_FIXES = ("mapping values are not allowed", "cannot start any token", "expected <block end>",
                  "expected a comment or a line break", "sequence entries are not allowed", "mapping keys are not allowed")


def _quoted(value: str) -> str:
    """The value as a double-quoted YAML string."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _deep_point(lines: list[str]) -> tuple[int, int | None]:
    """(line index, column) of the flow value (`[[[...`) whose brackets nest deepest (brackets inside quotes
    not counted): the value a front matter too deep for the YAML reader holds; (0, None), its first line,
    when no value nests."""
    depth, deepest, opened, where = 0, 0, (0, None), (0, None)
    for i, line in enumerate(lines):
        quote, before = "", ":"
        for j, ch in enumerate(line):
            if quote:
                quote = "" if ch == quote else quote
                continue
            if ch in "'\"" and before in ":[{,-":  # a quoted value or item (an apostrophe in a word is no quote)
                quote = ch
            elif ch in "[{":
                if depth <= 0:
                    depth, opened = 0, (i, j + 1)
                depth += 1
                if depth > deepest:
                    deepest, where = depth, opened
            elif ch in "]}":
                depth -= 1
            if not ch.isspace():
                before = ch
    return where


def _quote_advice(key: str, value: str) -> str:
    return f"put the value in quotes: {key}: {_cut(_quoted(value), 80, keep_end=1)}"


SLIP_TRIALS = 300  # readings of the front matter `_slip` may try: each a parse, and it tries fixes of fixes


def _slip(lines: list[str], start: int, end: int, stop: int, depth: int = 0, first: int | None = None,
          trials: list[int] | None = None) -> tuple[int, int, str] | None:
    """(file line, column, advice) for the first everyday slip in the front matter (lines start..end-1,
    0-based) at or before `stop`, the line YAML stopped on; None when there is none.

    YAML names the line where it gave up, often the one after the slip. Structural slips (no ':' after a
    key, no space after it, '=' for ':') make it read on and fail a line or two later, so every line up to
    `stop` is looked at; a value it cannot read (one holding ': ', one starting with '@', text after a
    closing quote) fails on its own line, so only `stop` is. A slip counts only when its fix mends the
    block: with that one line fixed, YAML reads past `stop` (or all of it, as 'key: value' lines), or
    stops at a later slip of its own (two lines without their space). So a line inside a list or quoted
    value running over several lines is never blamed. At most SLIP_TRIALS readings in all (`trials`, shared
    with the searches for a later slip): past them YAML's own message stands (a block of 30 lines that each
    looked like a slip took minutes, each fix tried with every fix of the lines after it).
    """
    trials = [SLIP_TRIALS] if trials is None else trials

    def mends(i: int, fixed: str) -> bool:
        if trials[0] <= 0:
            return False
        trials[0] -= 1
        trial = list(lines)
        trial[i] = fixed
        try:
            node = yaml.compose("\n".join(trial[start:end]), Loader=yaml.SafeLoader)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            if mark is None:
                return False
            later = start + mark.line
            return later > stop or (depth < 3 and _slip(trial, start, end, later, depth + 1, i + 1, trials) is not None)
        except (RecursionError, ValueError, OverflowError):  # a `\U` escape past the last character, say
            return False
        return node is None or isinstance(node, yaml.MappingNode)

    for i in range(start if first is None else first, min(stop, end - 1) + 1):
        line = lines[i]
        text = line.strip()
        if not text or text.startswith("#") or line[0] in " \t" or text.startswith("- "):
            continue  # a comment, a value's indented next line, a list item
        m = re.match(r"([^\s:=#]+)([ \t]*)([:=]?)(.*)", line)
        if m is None:
            continue
        key, space, sep, rest = m.groups()
        if sep == "=":
            if mends(i, f"{key}: {rest.strip()}"):
                return i + 1, len(key) + len(space) + 1, f"write '{key}: value' with a colon and a space after it"
            continue
        if not sep:
            colon = next((ch for ch in _COLONS if ch in key), None)
            if colon and mends(i, line.replace(colon, ": ", 1)):
                return i + 1, line.index(colon) + 1, (
                    f"'{key.partition(colon)[0]}' is followed by '{colon}' ({unicodedata.name(colon).lower()}) where "
                    "':' goes; type the plain ':'")
            if mends(i, f"{key}: {rest}"):
                return i + 1, 1, (f"'{text[:40]}' has no ':' after its key; write 'key: value', like "
                                  "'author: Jane Doe' (a value that goes on over more lines needs them indented)")
            continue
        if rest and not rest[0].isspace():
            if mends(i, f"{key}{space}: {rest}"):
                return i + 1, len(key) + len(space) + 2, f"put a space after '{key}:' ({key}: {rest.strip()})"
            continue
        value = rest.strip()
        if i != stop or not value:
            continue
        col = len(line) - len(rest.lstrip()) + 1
        if not mends(i, f"{key}{space}: {_quoted(value)}"):
            continue
        if value[0] in "\"'":
            if value[0] not in value[1:]:  # `author: "unterminated` on the block's last line
                return i + 1, col, f"the quote here is never closed; end the value with the same quote mark ({value[0]})"
            return i + 1, col, f"text follows the closing quote; {_quote_advice(key, value)}"
        if ": " in value.split(" #")[0] or value.endswith(":"):
            return i + 1, col, f"the value holds ': ', which YAML reads as another key; {_quote_advice(key, value)}"
        if value[0] in _VALUE_STARTS:
            return i + 1, col, f"a value cannot start with {_VALUE_STARTS[value[0]]} in YAML; {_quote_advice(key, value)}"
    return None


# what YAML cannot hold in a document (its reader's list): C0 controls but tab and line ends, DEL, C1 controls
# but NEL (said on its own above), surrogates, and U+FFFE/U+FFFF
_YAML_REFUSES = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")


_ENTRY_IN_FRONT = re.compile(r"[^\s:#\-'\"\[{!&*|>%@`][^:|]*\|")  # `ANSWER | clue`: text, then a '|' before any ':'


def _nodes(node: yaml.Node):
    """`node` and every node inside it (aliases are refused before this is asked)."""
    yield node
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _nodes(item)
    elif isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            yield from _nodes(k)
            yield from _nodes(v)


def _parse_front_matter(path: str, lines: list[str], start: int, end: int, errors: list[PuzzleError]) -> dict[str, Any] | None:
    """Parse lines[start:end] (0-based) as a YAML mapping; line numbers in errors are the file's.

    None when the block is not a mapping at all (the error says why).
    """
    text = "\n".join(lines[start:end])
    offset = start + 1  # file line of the block's first line
    # YAML ends a line at these too, which would put every later line number out by one
    for number, line in enumerate(lines[start:end], offset):
        for col, ch in enumerate(line, 1):
            if ch in "\x85\u2028\u2029":
                name = {"\x85": "NEL (U+0085)", "\u2028": "LINE SEPARATOR (U+2028)", "\u2029": "PARAGRAPH SEPARATOR (U+2029)"}[ch]
                errors.append(PuzzleError(
                    path, number, f"an invisible {name} is in this line (pasted from a word processor); delete it, "
                    "or use a plain line break", col=col))
                return None
            if _YAML_REFUSES.match(ch):  # YAML's own message would give no line, and the wrong one
                name = unicodedata.name(ch, "") or {"\x0b": "LINE TABULATION", "\x0c": "FORM FEED", "\x1b": "ESCAPE",
                                                   "\x7f": "DELETE"}.get(ch, "a control character")
                errors.append(PuzzleError(
                    path, number, f"an invisible character U+{ord(ch):04X} ({name.lower()}) is in this line; delete it",
                    col=col))
                return None
    directive = next((n for n, line in enumerate(lines[start:end], offset) if line.startswith("%")), None)
    if directive is not None:  # `%YAML 1.1`: a directive heads a YAML stream, not the lines of a mapping
        errors.append(PuzzleError(path, directive, "a line starting with '%' is a YAML directive, which a front matter "
                                  "cannot hold; delete the line, or put the value it belongs to in quotes", col=1))
        return None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        entry = next((n for n, line in enumerate(lines[start:end], offset)
                      if _ENTRY_IN_FRONT.match(line) and (mark is None or n <= offset + mark.line + 1)), None)
        if entry is not None:
            # `CAT | Feline` before the closing `---`: YAML's own message named another line, or a quoting fix
            errors.append(PuzzleError(
                path, entry, "this line looks like an entry ('ANSWER | clue') inside the front matter; end the "
                "front matter with a '---' line before the entries", col=1))
            return None
        opened = _unclosed(exc, text)
        if opened is not None and mark is not None:
            # YAML notices an unclosed bracket or quote only on a later line: point at where it opened
            what, ctx = opened
            reads = "the end of the front matter" if ctx.line == mark.line else f"line {offset + mark.line}"
            errors.append(
                PuzzleError(
                    path,
                    offset + ctx.line,
                    f"front matter is not valid YAML: {what} (YAML reads on to {reads}: {problem})",
                    col=ctx.column + 1,
                )
            )
            return None
        line = offset + mark.line if mark is not None else offset
        col = mark.column + 1 if mark is not None else None
        if "'\\t'" in problem:
            problem += "; YAML takes no tabs here: use spaces"
        elif mark is not None:
            slip = _slip(lines, start, end, start + mark.line)
            if slip is not None:
                at, at_col, advice = slip
                errors.append(PuzzleError(path, at, f"front matter is not valid YAML: {advice}", col=at_col))
                return None
            if lines[start + mark.line][:1] == " " and "expected <block end>" in problem:
                problem += ("; this line is indented unlike the lines above it: indent the items of one list alike "
                            "(like '  - food'), and start each key at the start of its line")
            elif lines[start + mark.line][:1] in (" ", "\t") and "mapping values" in problem:
                problem += ("; this line is indented, so YAML reads it as more of the value above, where ': ' cannot "
                            "be: start a key at the start of its line, or put the whole value in quotes")
            elif any(kind in problem for kind in _QUOTING_FIXES):
                problem += "; a value holding ': ' or ' #', or starting with a quote or one of @ ` | > - ?, goes in quotes"
        errors.append(PuzzleError(path, line, f"front matter is not valid YAML: {problem}", col=col))
        return None
    except RecursionError:
        line, col = _deep_point(lines[start:end])
        errors.append(PuzzleError(path, offset + line, "front matter is nested too deeply; use plain 'key: value' "
                                  "lines", col=col))
        return None
    except (ValueError, OverflowError) as exc:
        # PyYAML's scanner raises these, not a YAMLError, for a `\U` escape past the last character
        for number, line in enumerate(lines[start:end], offset):
            for m in re.finditer(r"\\U([0-9A-Fa-f]{8})", line):
                if int(m[1], 16) > 0x10FFFF:
                    errors.append(PuzzleError(
                        path, number, f"the escape {m[0]} names no character (the last is \\U0010FFFF); write "
                        "the character itself", col=m.start() + 1))
                    return None
        errors.append(PuzzleError(path, offset, f"front matter is not valid YAML: {exc}"))
        return None
    if node is None:
        return {}
    if not isinstance(node, yaml.MappingNode):
        slip = _slip(lines, start, end, end - 1)  # `title:Foo` alone is one plain value, not a mapping
        if slip is not None:
            errors.append(PuzzleError(path, slip[0], f"front matter is not valid YAML: {slip[2]}", col=slip[1]))
        else:
            errors.append(PuzzleError(path, offset, "front matter must be 'key: value' lines"))
        return None
    constructor = yaml.SafeLoader(text)
    values: dict[str, Any] = {}
    met: set[int] = set()  # the value nodes read so far: an alias is one met again (`_has_alias`)
    for key_node, value_node in node.value:
        line = offset + key_node.start_mark.line
        col = key_node.start_mark.column + 1
        if not isinstance(key_node, yaml.ScalarNode):
            errors.append(PuzzleError(path, line, "a front-matter key must be a plain word like 'title'", col=col))
            continue
        key = str(key_node.value)
        if key not in KEYS:
            hint = difflib.get_close_matches(key, list(KEYS), n=1)
            extra = f" (did you mean '{hint[0]}'?)" if hint else f" (known keys: {', '.join(KEYS)})"
            errors.append(PuzzleError(path, line, f"unknown front-matter key '{shown(key)}'{extra}", col=col))
            continue
        if key in values:
            errors.append(PuzzleError(path, line, f"front-matter key '{key}' is given twice; keep one", col=col))
            continue
        vline = offset + value_node.start_mark.line
        vcol = value_node.start_mark.column + 1
        if _has_alias(value_node, met):
            # `*name` repeats what `&name` marked: ten of them nested ten deep made a value of 10^10 words
            # (said on the key's line: an alias's node is the one its anchor marked, maybe lines above)
            errors.append(PuzzleError(path, line, f"'{key}' uses a YAML alias ('*' and a name): write the "
                                      "value out in full (in quotes if it starts with '*' or '&')", col=col))
            continue
        written = lines[start + value_node.start_mark.line][value_node.start_mark.column:]
        tagged = next((n for n in _nodes(value_node)
                       if lines[start + n.start_mark.line][n.start_mark.column:].startswith("!")
                       and not (n is value_node and isinstance(n, yaml.ScalarNode) and n.style is None)), None)
        if tagged is not None:
            # `title: !!set {a, b}` published a Python set, in another order each run; `size: !!int "0x15"` got
            # past the plain-number rule: a front matter's values are plain, so no tag is needed
            at = lines[start + tagged.start_mark.line][tagged.start_mark.column:]
            errors.append(PuzzleError(
                path, offset + tagged.start_mark.line, f"'{key}' has a YAML tag ({_as_yaml(at.split()[0])}); a front "
                "matter takes plain values: delete the tag (and put the value in quotes if it starts with '!')",
                col=tagged.start_mark.column + 1))
            continue
        if isinstance(value_node, yaml.ScalarNode) and value_node.style is None and written.startswith("!"):
            # `title: !Important news`: YAML takes `!Important` for a tag, and the value would drop it
            rest = lines[start + value_node.start_mark.line][value_node.start_mark.column:].strip()
            tag = written.split()[0] if written.split() else "!"
            if KEYS[key].kind != "text":  # `size: !!int 15`: quoted, '!!int 15' is no number either
                errors.append(PuzzleError(
                    path, vline, f"'{key}' has a YAML tag ({_as_yaml(tag)}); a front matter takes plain values: "
                    "delete the tag", col=vcol))
                continue
            errors.append(PuzzleError(
                path, vline, f"'{key}' starts with {_as_yaml(tag)}, which YAML reads as a tag and drops; "
                f"{_quote_advice(key, rest)}", col=vcol))
            continue
        if KEYS[key].kind == "text" and isinstance(value_node, yaml.ScalarNode):
            # text as written: YAML would read `007` as 7, `1.10` as 1.1, `Yes` as true, `12:30` as 750
            raw = value_node.value
            end = value_node.end_mark
            after = lines[start + end.line][end.column:] if start + end.line < len(lines) else ""
            cut = re.match(r"\s+#\S", after) if value_node.style is None and raw.strip() else None
            if cut:
                # `title: Puzzle #12`: YAML reads ' #12' on as a comment; '#' against a word is meant as text
                whole = (raw + after.rstrip()) if end.line == value_node.start_mark.line else raw + " " + after.strip()
                errors.append(PuzzleError(
                    path, offset + end.line, f"'{key}' stops before '{after.strip()[:20]}': YAML reads ' #' and what "
                    f"follows as a comment; {_quote_advice(key, whole)} (or, if it is a comment, put a space after "
                    "the '#')", col=end.column + len(after) - len(after.lstrip()) + 1))
                continue
            rest = lines[start + value_node.start_mark.line][value_node.start_mark.column:]
            if not raw.strip() and not KEYS[key].required and re.match(r"\s*#\S", rest) and value_node.style is None:
                # `description: #1 in the series` would publish no description, without a word
                errors.append(PuzzleError(
                    path, vline, f"'{key}' is empty: YAML reads '{rest.strip()[:20]}' as a comment; "
                    f"{_quote_advice(key, rest.strip())} (or, if it is a comment, put a space after the '#')",
                    col=vcol + len(rest) - len(rest.lstrip())))
                continue
            if not raw.strip() and KEYS[key].required:
                hint = " (a value starting with '#' is a comment in YAML: put it in quotes)" if "#" in rest else ""
                errors.append(PuzzleError(path, vline, f"'{key}' must not be empty{hint}", col=vcol))
                continue
        elif KEYS[key].kind == "tags" and isinstance(value_node, yaml.SequenceNode) and all(
            isinstance(item, yaml.ScalarNode) for item in value_node.value
        ):
            raw = [item.value for item in value_node.value]  # as written: YAML reads `010` as 8, `1:00` as 60
            deeper = next(((item, n) for item in value_node.value if item.style is None
                           for n in range(item.start_mark.line + 1, item.end_mark.line + 1)
                           if re.match(r"\s*-\s", lines[start + n])), None)
            if deeper is not None:  # `  - a` then `   - b`: YAML reads the deeper item as more of the one above
                item, n = deeper
                line = lines[start + n]
                errors.append(PuzzleError(
                    path, offset + n, "this '- ' line is indented more than the one above it, so YAML reads them "
                    f"as one tag ({' '.join(item.value.split())!r}); indent every '- ' alike",
                    col=len(line) - len(line.lstrip()) + 1))
                continue
        elif (
            isinstance(value_node, yaml.ScalarNode)
            and value_node.tag == "tag:yaml.org,2002:int"
            and len(value_node.value) > 20
        ):
            # a number of thousands of digits: Python would refuse to read it, in words of its own
            kind = KEYS[key].kind
            errors.append(PuzzleError(path, vline, (
                f"'{key}' must be between {RANGES[kind][0]} and {RANGES[kind][1]}" if kind in RANGES
                else f"bad value for '{key}'") + f", not a number of {len(value_node.value)} characters", col=vcol))
            continue
        elif (
            KEYS[key].kind in RANGES
            and isinstance(value_node, yaml.ScalarNode)
            and value_node.style is None
            and value_node.tag == "tag:yaml.org,2002:int"
            and not re.fullmatch(r"[+-]?(0|[1-9][0-9]*)", value_node.value)
        ):
            # YAML 1.1 reads `015` as octal 13, `1:30` as 90 and `1_000` as 1000: say so rather than guess
            errors.append(PuzzleError(
                path, vline, f"'{key}' must be a plain whole number like 15, not {value_node.value!r} "
                "(YAML would read it as another number)", col=vcol))
            continue
        else:
            try:
                raw = constructor.construct_object(value_node, deep=True)
            except RecursionError:
                errors.append(PuzzleError(path, vline, f"the value of '{key}' is nested too deeply", col=vcol))
                continue
            except yaml.constructor.ConstructorError as exc:
                # a YAML tag the safe loader refuses (!!python/object...): its own message runs to three lines
                # of the loader's view of the string, with a line number that is not the file's
                tag = getattr(value_node, "tag", "") or ""
                errors.append(PuzzleError(path, vline, (
                    f"bad value for '{key}': the YAML tag {tag.replace('tag:yaml.org,2002:', '!!')!r} is not "
                    "allowed here; write the value as plain text (in quotes if it starts with '!')"
                    if exc.problem and "constructor" in exc.problem else f"bad value for '{key}': {exc.problem}"),
                    col=vcol))
                continue
            except (yaml.YAMLError, ValueError, TypeError, OverflowError) as exc:
                allowed = " (an ISO date like 2026-11-30)" if key == "date" else ""
                errors.append(PuzzleError(path, vline, f"bad value for '{key}': {exc}{allowed}", col=vcol))
                continue
        try:
            values[key] = _check_value(key, raw)
        except ValueError as exc:
            errors.append(PuzzleError(path, vline, str(exc), col=vcol))
    return values


def _has_alias(node: Any, seen: set[int]) -> bool:
    """Whether a composed YAML value repeats a node, within itself or of `seen` (the values read before it,
    which it joins): an alias (`*name`) is the node its anchor marked, met again (the composer makes a new
    node of everything else). Each node is visited once, so a value aliases would make huge is checked in a
    moment."""
    stack = [node]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            return True
        seen.add(id(item))
        if isinstance(item, yaml.SequenceNode):
            stack.extend(item.value)
        elif isinstance(item, yaml.MappingNode):
            stack.extend(n for pair in item.value for n in pair)
    return False


# ------------------------------------------------------------------ files


# the site's own folders beside the puzzles' (a puzzle's folder is public/<slug>/)
RESERVED_SLUGS = {"static": "holds the site's styles, script and fonts", "tags": "holds the tag pages"}


SWAP_SUFFIXES = (".swp", ".swo", ".swx", ".swn", ".tmp", ".temp", ".bak", ".orig", ".part", ".crdownload",
                 "___jb_tmp___", "___jb_old___")


def is_ignored(name: str) -> bool:
    """Editor and tool droppings: they never trigger a rebuild (watch), are never published (static
    files) and never count as code (the build's fingerprint)."""
    return (
        not name
        or name.startswith(".")  # .#lock (emacs), .x.swp (vim), .goutputstream-* (gedit), our own .tmp files
        or name.endswith("~")  # backups (emacs, vim, kate)
        or (name.startswith("#") and name.endswith("#"))  # emacs auto-save
        or name.lower().endswith(SWAP_SUFFIXES)
        or name.isdigit()  # vim's "can I write here" probe: 4913, 5036, ...
        or re.fullmatch(r"sed[A-Za-z0-9]{6}", name) is not None  # `sed -i`'s file before it takes the name
    )


def puzzle_sources(folder: Path) -> list[Path]:
    """The puzzle files of a folder: every `*.txt` but hidden ones (an editor's lock or backup file,
    `.#name.txt`, or macOS's `._name.txt`), which are no one's puzzle.

    A folder that does not exist holds none; one that cannot be listed is a PuzzleError (read as empty,
    it would have had the build take down every published puzzle)."""
    folder = Path(folder)
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return []
    except NotADirectoryError:
        raise PuzzleError(folder, None, "this is a file, not a folder; puzzles/ is the folder of puzzle files") from None
    except OSError as exc:
        raise PuzzleError(folder, None, f"cannot list the folder's files: {exc.strerror or exc}; make it readable "
                          f"(chmod u+rx {folder})") from None
    return sorted(folder / name for name in names if name.endswith(".txt") and not name.startswith("."))


def unread_sources(folder: Path) -> list[str]:
    """What in a puzzles folder looks like a puzzle but is never read, each with why: a name ending in
    '.TXT' or '.Txt', a file with no extension that opens with front matter, a subfolder holding .txt
    files. (Other files, a README.md say, are an author's own business.)"""
    out = []
    try:
        children = sorted(folder.iterdir())
    except OSError:
        return out
    for p in children:
        if p.name.startswith("."):
            continue
        try:
            if p.is_dir():
                if p.is_symlink():  # a link to a folder (perhaps this very one) is no subfolder of puzzles
                    continue
                if any(q.suffix.lower() == ".txt" for q in p.iterdir()):
                    out.append(f"{p}/: a subfolder's files are not read; move its puzzles up into {folder}/")
            elif p.suffix.lower() == ".txt" and p.suffix != ".txt":
                out.append(f"{p}: not read: puzzle files end in '.txt', lowercase; {_rename_to(p, _loose_slug(p))}")
            elif not p.suffix and p.is_file():
                with open(p, "rb") as fh:
                    if fh.read(6).removeprefix(b"\xef\xbb\xbf").startswith(b"---"):  # a BOM is 3 bytes
                        out.append(f"{p}: not read: puzzle files end in '.txt'; {_rename_to(p, _loose_slug(Path(p.name + '.txt')))}")
        except OSError:
            continue
    return out


def _rename_to(path: Path, slug: str) -> str:
    """'rename it <slug>.txt', or, where another puzzle has that name (`Cats.txt` beside `cats.txt`), a free one:
    following the advice with `mv` would have put one puzzle over the other."""
    taken = path.with_name(f"{slug}.txt")
    try:
        free = not taken.exists() or path.exists() and taken.samefile(path)  # one file on a case-blind disk
    except OSError:
        free = True
    if free:
        return f"rename it {slug}.txt"
    n = 2
    while path.with_name(f"{slug[:MAX_SLUG - 1 - len(str(n))].rstrip('-')}-{n}.txt").exists():
        n += 1
    return f"rename it {slug[:MAX_SLUG - 1 - len(str(n))].rstrip('-')}-{n}.txt ({slug}.txt is taken)"


_DOCUMENT_EXTENSIONS = re.compile(r"(\.(txt|text|md|markdown|yaml|yml|rtf|docx?|odt|pages))+$", re.I)


def slug_for(path: str | Path) -> str:
    p = Path(path)
    slug = p.stem if p.suffix == ".txt" else p.name
    if not SLUG_RE.match(slug):
        # a second extension (`draft.txt.txt`, which a system hiding extensions makes; `notes.md.txt`) is dropped
        base = _DOCUMENT_EXTENSIONS.sub("", slug) or slug
        raise PuzzleError(
            path, None, f"file name '{shown(p.name)}' must be lowercase letters, digits and single hyphens between them, "
            "ending in .txt" + (f"; {_rename_to(p, fix)}" if (fix := ascii_name(base)[:MAX_SLUG].strip("-")) and fix != slug
                                and fix not in RESERVED_SLUGS else " (e.g. twin-peaks.txt)")
        )
    if len(slug) > MAX_SLUG:
        raise PuzzleError(
            path, None, f"file name '{shown(p.name)}' is {len(slug)} characters long before '.txt', past the {MAX_SLUG} a web "
            "address and every file system take; shorten it"
        )
    if slug in RESERVED_SLUGS:
        raise PuzzleError(
            path, None, f"file name '{p.name}' is taken: public/{slug}/ {RESERVED_SLUGS[slug]}; rename the file (e.g. {slug}-puzzle.txt)"
        )
    return slug


def decode_source(data: bytes, path: str | Path) -> str:
    """Bytes -> text: UTF-8 (a BOM is accepted); Windows and old Mac line ends become '\n'."""
    if data.startswith(b"\xef\xbb\xbf"):  # a UTF-8 BOM: no part of the text, and counted in no column
        data = data[3:]
    nul = data.find(b"\x00")
    if nul >= 0:
        head = data[:2048]
        even, odd = head[0::2], head[1::2]
        # UTF-16: a byte-order mark, or (ASCII text without one) a NUL in every other byte and in no other
        utf16 = head[:2] in (b"\xff\xfe", b"\xfe\xff") or len(head) >= 8 and any(
            zeros.count(0) >= 0.9 * len(zeros) and not text.count(0) for zeros, text in ((even, odd), (odd, even))
        )
        if head[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"):
            raise PuzzleError(path, None, "this file is UTF-32 text; save it as UTF-8")
        if utf16:
            raise PuzzleError(
                path, None, "this file is UTF-16 text (Notepad's 'Unicode'); save it as UTF-8 (in Notepad: Save as, Encoding: UTF-8)"
            )
        controls = any(bytes([b]) in data for b in range(1, 32) if b not in (9, 10, 12, 13))
        if controls or data.count(b"\x00") > 3:  # an image, a word-processor file: NULs and control bytes
            raise PuzzleError(
                path, None, "this is not a text file (it holds NUL bytes); a puzzle file is UTF-8 text, one 'ANSWER | clue' a line"
            )
        line = data.count(b"\n", 0, nul) + 1  # a stray one in a text file: say where
        col = len(data[data.rfind(b"\n", 0, nul) + 1 : nul].decode("utf-8", "replace")) + 1  # characters, as editors count
        raise PuzzleError(path, line, "a NUL byte (character 0) is in this line; delete it", col=col)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        line = data[: exc.start].count(b"\n") + 1
        col = len(data[line_start : exc.start].decode("utf-8", "replace")) + 1
        byte = data[exc.start]
        if exc.reason == "unexpected end of data" and any(b >= 0x80 for b in data[: exc.start]):
            # the last character's bytes cut short, in a file whose letters before it read as UTF-8 (a Latin-1
            # file whose one accented letter ends it, as Notepad saves it with no last newline, is Latin-1)
            hint = " (it ends inside a character: the file was cut short)"
        elif byte == 0xED and 0xA0 <= data[exc.start + 1 : exc.start + 2][:1].ljust(1, b"\0")[0] <= 0xBF:
            hint = " (an encoded surrogate: CESU-8 or Java's modified UTF-8)"
        else:
            hint = " (it looks like Latin-1 or Windows-1252)" if byte >= 0x80 else ""
        raise PuzzleError(
            path, line, f"this file is not UTF-8 text{hint}: byte 0x{byte:02x} in column {col}; save it as UTF-8", col=col
        ) from exc
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_source(path: str | Path) -> str:
    """The text of a puzzle file, or PuzzleError saying plainly why it cannot be read."""
    path = Path(path)
    try:
        if path.is_dir():
            raise PuzzleError(path, None, "this is a directory, not a puzzle file; name a .txt file")
        if path.exists() and not path.is_file():
            # a named pipe or a device: reading it could wait forever
            raise PuzzleError(path, None, "this is not a regular file (a pipe or a device); name a .txt file")
        with path.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except PuzzleError:
        raise
    except FileNotFoundError as exc:
        if path.is_symlink():  # `ls` lists it, so "no such file" would puzzle: say where it leads
            raise PuzzleError(path, None, f"this is a link to {os.readlink(path)}, which does not exist; "
                              "point it at the puzzle file, or remove it") from exc
        raise PuzzleError(path, None, "cannot read the file: no such file; check the name") from exc
    except PermissionError as exc:
        raise PuzzleError(path, None, "cannot read the file: permission denied; make it readable (chmod u+r)") from exc
    except OSError as exc:
        fix = ("a chain of symbolic links leads back to itself: point the link at the puzzle file, or remove it"
               if exc.errno == errno.ELOOP else "check the file, and the disk it is on")
        raise PuzzleError(path, None, f"cannot read the file: {exc.strerror or exc}; {fix}") from exc
    if len(data) > MAX_FILE_BYTES:
        raise PuzzleError(
            path, None, f"the file is larger than {MAX_FILE_BYTES // 1_000_000} MB; a puzzle file is a few kB, so this is not one"
        )
    return decode_source(data, path)


def read_puzzle(path: str | Path, *, require_front_matter: bool = True, size: int | None = None) -> Puzzle:
    """Read and validate a puzzle file. Raises PuzzleError / PuzzleErrors. `size`: see `parse_source`."""
    path = Path(path)
    text = read_source(path)
    slug = slug_for(path) if require_front_matter else _loose_slug(path)
    return load_puzzle(text, path=path, slug=slug, require_front_matter=require_front_matter, size=size)


def _fence(line: str) -> bool:
    """A line meant as a front-matter fence: '---', or a near miss ('----', '--- end', TOML's '+++')."""
    return bool(re.match(r"(-{3,}|\+{3,})(\s.*)?$", line.rstrip()))


def _plain_title(slug: str, path: str | Path | None) -> str:
    """A plain list's title, from its file name: `my-list.txt` is "My List", `Crème.txt` "Crème", `東京.txt`
    "東京"; a name of no letters or digits, "Puzzle"."""
    stem = Path(path).stem if path is not None else slug
    words = " ".join(w for w in re.split(r"[\W_]+", stem) if w)
    return words.title() if words else "Puzzle"


def _loose_slug(path: Path) -> str:
    """A slug for a plain list's output names: its file name's letters and digits, accents dropped
    (`Crème.txt` gives `creme`, `Straße.txt` `strasse`); a name with none (`東京.txt`) gets `puzzle-` and a short hash of the name,
    so two such lists written to one folder do not overwrite each other."""
    slug = ascii_name(path.stem)
    if slug:
        return slug
    import hashlib

    return "puzzle-" + hashlib.sha256(path.stem.encode("utf-8", "surrogatepass")).hexdigest()[:8]


@dataclass(frozen=True)
class ParsedSource:
    """Everything one pass over a file finds: the entries that parsed and every error.

    `lines` are the file's lines (line N is lines[N-1]); `front_matter` says
    whether a front-matter block was found; `meta` holds its valid values.
    """

    lines: tuple[str, ...]
    meta: dict[str, Any]
    entries: tuple[Entry, ...]
    errors: tuple[PuzzleError, ...]
    front_matter: bool


MAX_ERRORS = 20  # errors shown for one file; past them, one line counts the rest


def parse_source(
    text: str,
    *,
    path: str | Path | None = None,
    require_front_matter: bool = True,
    max_size: int | None = None,
    size: int | None = None,
) -> ParsedSource:
    """Parse puzzle text without raising: the caller decides what the errors mean.

    `size` (a command line's --size) overrides the front matter's cap for the answers' length.
    """
    shown = str(path) if path is not None else "<input>"
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    errors: list[PuzzleError] = []
    meta_values: dict[str, Any] = {}
    body_start = 0
    first = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if first is not None and lines[first].lstrip().startswith("#"):
        # comment lines may come before the front matter, as they may anywhere in the entries
        opening = next((i for i in range(first, len(lines)) if lines[i].strip() and not lines[i].lstrip().startswith("#")), None)
        if opening is not None and _fence(lines[opening]):
            first = opening
    has_front = first is not None and lines[first].strip() == "---"

    def result(entries: list[Entry]) -> ParsedSource:
        shown_errors = errors
        if len(errors) > MAX_ERRORS + 1:  # a file that is no puzzle (a README linted by mistake) gives a page, not 400 lines
            in_order = sorted(errors, key=lambda e: e.line or 0)
            rest = in_order[MAX_ERRORS:]
            hint = "" if has_front else "; is it a puzzle file? it has no front matter"
            more = PuzzleError(shown, rest[0].line, f"{len(rest)} more errors after these (up to line {rest[-1].line}); "
                               f"fix these first{hint}")
            more.count = len(rest)  # the errors it stands for (lint's total counts them)
            shown_errors = in_order[:MAX_ERRORS] + [more]
        return ParsedSource(tuple(lines), meta_values, tuple(entries), tuple(shown_errors), has_front)

    if first is None:
        errors.append(PuzzleError(shown, None, "the file is empty; " + (
            "a puzzle starts with '---', 'title: ...', 'date: YYYY-MM-DD', '---', then 'ANSWER | clue' lines"
            if require_front_matter else "add lines like 'ANSWER | clue'")))
        return result([])
    if not has_front and _fence(lines[first]):
        # '----', '--- yaml' or TOML's '+++': one error for the fence, not one per front-matter line
        fence = lines[first].strip()
        how = "front matter in '+++' (TOML) is not read" if fence.startswith("+") else f"'{fence[:20]}' does not open the front matter"
        errors.append(PuzzleError(shown, first + 1, f"{how}; the front matter opens and closes with a line of "
                                  "exactly '---', and holds 'key: value' lines", col=1))
        close = next((i for i in range(first + 1, len(lines)) if _fence(lines[i])), None)
        if close is None:
            return result([])
        body_start = close + 1
    elif has_front:
        # the closing fence starts its line: an indented '---' belongs to a value (a `notes: |` block)
        close = next((i for i in range(first + 1, len(lines)) if lines[i].rstrip() == "---"), None)
        if close is None:
            indented = next((i for i in range(first + 1, len(lines)) if lines[i].strip() == "---"), None)
            # a near-miss closing line before the entries start (a '----' among the entries is theirs)
            entries_at = next((i for i in range(first + 1, len(lines)) if "|" in lines[i]), len(lines))
            near = next((i for i in range(first + 1, entries_at) if _fence(lines[i]) or lines[i].rstrip() == "..."), None)
            if near is not None and (indented is None or near < indented):
                errors.append(PuzzleError(
                    shown, near + 1, f"front matter opened with '---' is never closed: this line is "
                    f"'{lines[near].strip()[:20]}', and the closing line is '---' alone; make it '---'", col=1))
            elif indented is not None:
                errors.append(PuzzleError(
                    shown, indented + 1,
                    "front matter opened with '---' is never closed; a closing '---' starts its line, and this one "
                    "is indented: remove its spaces if it closes the front matter, or add a '---' line after the "
                    "front matter if it belongs to a value",
                    col=1,
                ))
            else:
                errors.append(PuzzleError(shown, first + 1, "front matter opened with '---' is never closed; add a '---' line after it", col=1))
            return result([])
        parsed_meta = _parse_front_matter(shown, lines, first + 1, close, errors)
        meta_values = parsed_meta or {}
        body_start = close + 1
        for key, spec in KEYS.items():
            if parsed_meta is not None and spec.required and key not in meta_values and not any(e.message.find(f"'{key}'") >= 0 for e in errors):
                errors.append(PuzzleError(shown, first + 1, f"front matter lacks '{key}'; add a line like " + (
                    "'title: My puzzle'" if key == "title" else "'date: 2026-11-30'")))
    elif require_front_matter:
        # 'title: ...' lines closed by a '---' that never opened: one error for the block, not one per line
        fences = [i for i in range(first, len(lines)) if lines[i].strip() == "---"]

        def keys_only(block: list[str]) -> bool:
            return all(":" in line and "|" not in line for line in block if line.strip() and not line.lstrip().startswith("#"))

        if len(fences) > 1 and keys_only(lines[fences[0] + 1 : fences[1]]):
            # a front matter that opens below a stray line or two (a heading typed above it)
            a, b = fences[0], fences[1]
            errors.append(PuzzleError(
                shown, first + 1, f"a puzzle file starts with its front matter's '---' (line {a + 1}); delete what comes "
                f"before it, or start {'that line' if a == first + 1 else 'those lines'} with '#'", col=1))
            body_start = b + 1
        elif fences and keys_only(lines[first : fences[0]]):
            close = fences[0]
            errors.append(PuzzleError(
                shown, first + 1, f"the front matter (lines {first + 1} to {close}) has a closing '---' but no opening "
                f"one: add a line '---' before line {first + 1}", col=1))
            body_start = close + 1
        else:
            errors.append(PuzzleError(
                shown, first + 1, "a puzzle file starts with a front-matter block: '---', 'title: ...', 'date: YYYY-MM-DD', '---'", col=1
            ))

    # a plain list has no front matter to put 'size' in: generate's --size is its only cap
    cap_hint = "raise --size" if size is not None or not has_front else "raise 'size'"
    size = size if size is not None else meta_values.get("size", max_size or 23)
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    too_many = False
    skip_to = body_start
    for index in range(body_start, len(lines)):
        lineno = index + 1
        raw = lines[index]
        stripped = raw.strip()
        if not stripped or stripped.startswith("#") or index < skip_to:
            continue
        if stripped == "---" and has_front and not entries and not any(e.line and e.line > body_start for e in errors):
            # a second front-matter block (two files pasted together, a template's): one error for it, not
            # one per 'key: value' line telling the author to make each an entry
            end = next((i for i in range(index + 1, len(lines)) if lines[i].strip() == "---"), None)
            if end is not None and all("|" not in lines[i] for i in range(index + 1, end)):
                errors.append(PuzzleError(shown, lineno, f"a second front-matter block (lines {lineno} to {end + 1}): a "
                                          f"puzzle has one; move the lines you want into the first (lines {first + 1} to "
                                          f"{body_start}) and delete this one", col=1))
                skip_to = end + 1
                continue
        lead = len(raw) - len(raw.lstrip()) + 1
        if "|" not in raw:
            lookalike = next((ch for ch in "\uff5c\u2223\u01c0\u00a6\u2502\u2758" if ch in raw), None)
            if lookalike:  # a full-width bar from an Asian input method, a divides sign, a box-drawing line
                errors.append(PuzzleError(
                    shown, lineno, f"expected 'ANSWER | clue'; this line has '{lookalike}' "
                    f"({unicodedata.name(lookalike, 'a bar').lower()}) where the plain '|' goes: type '|'",
                    col=raw.index(lookalike) + 1))
                continue
            m = re.search(r"\t|\s*[:=]\s|\s[-–—]\s", raw.strip())  # what the author may have meant for the bar
            sep = None if m is None else f"'{m.group(0).strip()}'" if m.group(0).strip() else "a tab"
            errors.append(PuzzleError(shown, lineno, "expected 'ANSWER | clue'; this line has no '|': " + (
                f"put ' | ' where {sep} separates the answer from its clue" if sep else
                "write ' | ' between the answer and its clue") + ", or start the line with '#' to keep it as a note",
                col=lead))
            continue
        answer_part, clue = raw.split("|", 1)
        clue = one_line(clue)
        answer_raw = answer_part.strip()
        required = answer_raw.startswith("*")
        if required:
            answer_raw = answer_raw[1:].strip()
        col = answer_part.find(answer_raw) + 1 if answer_raw else lead
        if not visible(answer_raw):
            hidden = " (it holds only invisible characters, such as a zero-width space)" if answer_raw else ""
            errors.append(PuzzleError(shown, lineno, f"the answer is empty{hidden}; write it before the '|'", col=col))
            continue
        quoted = _cut(repr(answer_raw), 60, keep_end=1)  # a 900,000-letter answer is not echoed whole
        try:
            norm = normalise_answer(answer_raw)
        except ValueError as exc:
            bad = col + _bad_char_index(answer_raw)
            why = str(exc) if isinstance(exc, InvisibleCharacter) else f"bad answer {quoted}: {exc}"
            errors.append(PuzzleError(shown, lineno, why, col=bad))
            continue
        named = _cut(norm.display, 60)
        if not norm.letters:
            errors.append(PuzzleError(shown, lineno, f"the answer {quoted} has no letters; spell it in letters", col=col))
            continue
        if len(norm.letters) < 2:
            errors.append(PuzzleError(shown, lineno, f"the answer {quoted} is one letter; answers need at least two", col=col))
            continue
        if not visible(clue):
            hidden = " (it holds only invisible characters, such as a zero-width space)" if clue else ""
            errors.append(PuzzleError(
                shown, lineno, f"the clue for {named} is empty{hidden}; write it after the '|'", col=len(raw.rstrip()) + 1
            ))
            continue
        if len(clue) > MAX_CLUE:
            errors.append(PuzzleError(
                shown, lineno, f"the clue for {named} is {len(clue):,} characters; keep a clue to {MAX_CLUE:,} "
                "(a note that long belongs in the front matter's 'notes')",
                col=len(raw) - len(raw.split("|", 1)[1].lstrip()) + 1))
            continue
        if len(norm.letters) > size:
            errors.append(PuzzleError(
                shown, lineno,
                f"{named} has {len(norm.letters)} letters, more than the grid cap of {size}; " + (
                    f"shorten it or {cap_hint} to {len(norm.letters)} or more" if len(norm.letters) <= MAX_SIZE
                    else f"shorten it: no grid is wider than {MAX_SIZE}"),
                col=col,
            ))
            continue
        if norm.letters in seen:
            errors.append(PuzzleError(shown, lineno, f"duplicate answer {named} (first on line {seen[norm.letters]}); remove one", col=col))
            continue
        seen[norm.letters] = lineno
        if len(entries) >= MAX_ENTRIES:
            if not too_many:
                errors.append(PuzzleError(
                    shown, lineno,
                    f"more than {MAX_ENTRIES:,} answers; even a 60x60 grid holds only about 400, so split the list into several puzzles",
                    col=col,
                ))
                too_many = True
            continue
        entries.append(Entry(norm.letters, clue, norm.display, norm.enumeration, required, lineno))

    errors.extend(reference_errors(shown, entries, lines))
    if not entries and not errors:
        after = " after the front matter" if has_front else ""
        errors.append(PuzzleError(shown, None, f"no entries; add lines like 'ANSWER | clue'{after}"))
    return result(entries)


# A clue's reference to another answer, by the answer as the list writes it: "Wife of [[King Lear]]". The
# number is not known until the layout; every output prints "Wife of 12-Across" (layout.with_references).
REFERENCE = re.compile(r"\[\[([^\[\]]*)\]\]")


def reference_errors(shown: str, entries: Sequence[Entry], lines: Sequence[str]) -> list[PuzzleError]:
    """A reference to no answer of the list, or to the clue's own answer."""
    by_letters = {e.answer: e for e in entries}
    out = []
    for e in entries:
        line = lines[e.line - 1] if 0 < e.line <= len(lines) else ""
        at = line.find("|") + 1
        # a reference begun and never closed; a lone ']]' is text ("]]>" in a clue about XML)
        rest = REFERENCE.sub(lambda m: " " * len(m.group(0)), e.clue)
        if "[[" in rest:
            col = line.find("[[", at)
            out.append(PuzzleError(shown, e.line, (
                "the clue has '[[' with no ']]' to match; a reference to another answer is written [[ANSWER]]"),
                col=col + 1 if col >= 0 else None))
        for m in REFERENCE.finditer(e.clue):
            try:
                letters = normalise_answer(m.group(1)).letters
            except ValueError:
                letters = ""
            target = by_letters.get(letters)
            if target is e:
                problem = "refers to its own answer"
            elif target is None:
                problem = "names no answer of this puzzle"
                near = difflib.get_close_matches(letters, [a for a in by_letters if a != e.answer], n=1, cutoff=0.75)
                if near:
                    problem += f" (did you mean [[{by_letters[near[0]].display}]]?)"
            else:
                continue
            where = line.find(m.group(0), at)
            at = where + len(m.group(0)) if where >= 0 else at  # the same name twice: each at its own place
            out.append(PuzzleError(shown, e.line, (
                f"the clue's {m.group(0)} {problem}; between [[ and ]] write another answer as the list spells "
                "it, and every output prints its number (like 12-Across)"), col=where + 1 if where >= 0 else None))
    return out


def load_puzzle(
    text: str,
    *,
    path: str | Path | None = None,
    slug: str = "puzzle",
    require_front_matter: bool = True,
    max_size: int | None = None,
    size: int | None = None,
) -> Puzzle:
    """Parse puzzle text. With require_front_matter=False a plain list is accepted; `size` overrides the cap."""
    parsed = parse_source(text, path=path, require_front_matter=require_front_matter, max_size=max_size, size=size)
    if parsed.errors:
        raise PuzzleErrors(list(parsed.errors))
    meta_values = parsed.meta or {"title": _plain_title(slug, path), "date": None}
    meta = PuzzleMeta(**meta_values)
    return Puzzle(slug=slug, meta=meta, entries=parsed.entries, path=Path(path) if path is not None else None,
                  has_front_matter=parsed.front_matter)
