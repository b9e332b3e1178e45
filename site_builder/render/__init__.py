"""Renderers: a Puzzle and its Layout in, text or bytes out. No file I/O here."""
