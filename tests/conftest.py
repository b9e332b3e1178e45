from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The four sample puzzles, as the project ships them in puzzles/. The tests read these copies: an author
# deletes the samples from puzzles/ (README, Source format) and `make test` must still pass. Only the tests
# about the author's own archive (the drift check of public/) read ROOT / "puzzles".
SAMPLES = ROOT / "tests" / "fixtures" / "puzzles"
# The site settings ([tool.crossword]) the tests' projects are built with, as the project ships them: the
# author's own title, address or licence in ROOT / "pyproject.toml" must break no test either.
SETTINGS = ROOT / "tests" / "fixtures" / "pyproject.toml"


def make_entries(*answers: str, required: tuple[str, ...] = ()):
    from site_builder.model import Entry

    return tuple(Entry(a, f"clue for {a}", required=a in required, line=i + 1) for i, a in enumerate(answers))


@pytest.fixture
def twin_peaks():
    from site_builder.source import read_puzzle

    return read_puzzle(SAMPLES / "twin-peaks.txt")


@pytest.fixture
def python_exe() -> str:
    return sys.executable


@pytest.fixture(autouse=True)
def _fresh_build_memos():
    """Each test starts with no parsed sources and no rendered index remembered by an earlier test's build
    (a build remembers them for the next one in the same process, as watch mode wants)."""
    from site_builder import site
    from site_builder.render import pages

    site._SOURCES.clear()
    pages._last.clear()
    yield
