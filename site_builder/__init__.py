"""Crossword press: themed word lists in, freeform crosswords and an archive site out."""

__version__ = "0.1.0"
