"""The fill dictionary: common English words of 3 to 8 letters, safe to print.

Built once per process (and cached) from data that installed packages ship,
so nothing is typed by hand and nothing is fetched at run time:

- `wordfreq` (English, the "best" list) gives the candidates and their
  frequency. The quality score of a word is its Zipf frequency (log10 of
  uses per billion words): 3 is a word met about once a million words
  ("acorn", "anvil"), 5 and up is everyday ("water").
- `english-words` (Webster's 2nd and GCIDE, case kept) says whether a word is
  a dictionary word rather than a name or an abbreviation: a candidate is
  kept when it, or the word it inflects (-s, -es, -ed, -d, -ing, a doubled
  consonant), is listed in lower case. That drops "john", "adidas" and "abc"
  while keeping "acres", "abused" and "adhering".
- `better_profanity`'s word list (plus the few entries of EXTRA_BLOCKED) is
  the blocklist: a blocked word and its simple inflections never become fill.
  wordfreq ranks slurs and profanity as high as any other frequent word, so
  the filter is needed.

The frequency floor (ZIPF_FLOOR) keeps fill to words a solver could know.
Words are stored in upper case, best first (highest score, then A-Z).
"""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from dataclasses import dataclass, field
from importlib import resources

MIN_LEN = 3
MAX_LEN = 8
ZIPF_FLOOR = 3.0
# Slurs missing from better_profanity 0.7.0's list (checked by hand against it).
EXTRA_BLOCKED = ("tranny", "trannies", "dago", "dagos", "gyp", "gypped", "spaz", "spazz")
BIGRAM_SHARE = 0.001  # a bigram is "frequent" when at least this share of words holds it...
BIGRAM_MIN = 3  # ...and never fewer than this many words


@dataclass(frozen=True)
class Dictionary:
    """Fill words (upper case) with their Zipf scores, and look-up indexes."""

    score: dict[str, float]
    words: tuple[str, ...]  # best first
    by_length: dict[int, tuple[str, ...]] = field(repr=False)
    # (length, position, letter) -> frozenset of words, for pattern matching
    _index: dict[tuple[int, int, str], frozenset[str]] = field(repr=False)
    bigram_counts: dict[str, int] = field(repr=False)

    def __contains__(self, word: str) -> bool:
        return word in self.score

    def __len__(self) -> int:
        return len(self.words)

    def matching(self, length: int, fixed: dict[int, str]) -> list[str]:
        """Words of `length` with letter fixed[i] at position i, best first."""
        if not fixed:
            return list(self.by_length.get(length, ()))
        sets = []
        for i, ch in fixed.items():
            s = self._index.get((length, i, ch))
            if not s:
                return []
            sets.append(s)
        sets.sort(key=len)
        found = set(sets[0])
        for s in sets[1:]:
            found &= s
            if not found:
                return []
        score = self.score
        return sorted(found, key=lambda w: (-score[w], w))


def _blocked() -> frozenset[str]:
    text = resources.files("better_profanity").joinpath("profanity_wordlist.txt").read_text(encoding="utf-8")
    base = {ln.strip().lower() for ln in text.splitlines() if ln.strip().isalpha()}
    base.update(EXTRA_BLOCKED)
    out = set(base)
    for w in base:
        out.update((w + "s", w + "es", w + "ed", w + "ing", w + "y", w + "er", w + "ers"))
    return frozenset(out)


def _known(word: str, lower: frozenset[str]) -> bool:
    """Is `word` (lower case) a dictionary word or a regular inflection of one?"""
    if word in lower:
        return True
    stems = []
    if word.endswith("s"):
        stems.append(word[:-1])
    if word.endswith("es"):
        stems.append(word[:-2])
    if word.endswith("ies"):
        stems.append(word[:-3] + "y")
    if word.endswith("ed") or word.endswith("er"):
        stems += [word[:-1], word[:-2]]
        if len(word) > 4 and word[-3] == word[-4]:
            stems.append(word[:-3])
    if word.endswith("ied"):
        stems.append(word[:-3] + "y")
    if word.endswith("ing"):
        stems += [word[:-3], word[:-3] + "e"]
        if len(word) > 5 and word[-4] == word[-5]:
            stems.append(word[:-4])
    return any(len(s) >= 3 and s in lower for s in stems)


@functools.lru_cache(maxsize=None)
def load(floor: float = ZIPF_FLOOR) -> Dictionary:
    """The fill dictionary, built on first use and cached for the process."""
    import wordfreq
    from english_words import get_english_words_set

    lower = frozenset(w for w in get_english_words_set(["web2", "gcide"], lower=False, alpha=True) if w.islower())
    blocked = _blocked()
    min_freq = 10 ** (floor - 9)
    score: dict[str, float] = {}
    for w, freq in wordfreq.get_frequency_dict("en", "best").items():
        if freq < min_freq or not MIN_LEN <= len(w) <= MAX_LEN:
            continue
        if not (w.isascii() and w.isalpha() and w.islower()):
            continue
        if w in blocked or not _known(w, lower):
            continue
        score[w.upper()] = round(math.log10(freq) + 9, 2)
    words = tuple(sorted(score, key=lambda w: (-score[w], w)))
    by_length: dict[int, list[str]] = defaultdict(list)
    index: dict[tuple[int, int, str], set[str]] = defaultdict(set)
    bigrams: dict[str, int] = defaultdict(int)
    for w in words:
        by_length[len(w)].append(w)
        for i, ch in enumerate(w):
            index[(len(w), i, ch)].add(w)
        for bg in {w[i : i + 2] for i in range(len(w) - 1)}:
            bigrams[bg] += 1
    return Dictionary(
        score=score,
        words=words,
        by_length={n: tuple(ws) for n, ws in sorted(by_length.items())},
        _index={k: frozenset(v) for k, v in index.items()},
        bigram_counts=dict(bigrams),
    )


def frequent_bigrams(dictionary: Dictionary, extra_words: tuple[str, ...] = ()) -> frozenset[str]:
    """Letter pairs held by at least max(3, 0.1%) of the dictionary plus `extra_words`."""
    counts = dict(dictionary.bigram_counts)
    for w in set(extra_words) - set(dictionary.score):
        for bg in {w[i : i + 2] for i in range(len(w) - 1)}:
            counts[bg] = counts.get(bg, 0) + 1
    total = len(dictionary) + len(set(extra_words) - set(dictionary.score))
    threshold = max(BIGRAM_MIN, math.floor(total * BIGRAM_SHARE))
    return frozenset(bg for bg, n in counts.items() if n >= threshold)
