"""Checks and inputs shared by the tests: the runs-equal-answers invariant, a right-to-left puzzle."""

from __future__ import annotations

from site_builder.model import Layout


def runs(layout: Layout) -> list[tuple[int, int, str, str]]:
    """Every maximal run of 2+ letters as (row, col, 'across'|'down', letters)."""
    cells = layout.cells
    out = []
    for (r, c) in sorted(cells):
        if (r, c - 1) not in cells and (r, c + 1) in cells:
            word, cc = [], c
            while (r, cc) in cells:
                word.append(cells[(r, cc)])
                cc += 1
            out.append((r, c, "across", "".join(word)))
        if (r - 1, c) not in cells and (r + 1, c) in cells:
            word, rr = [], r
            while (rr, c) in cells:
                word.append(cells[(rr, c)])
                rr += 1
            out.append((r, c, "down", "".join(word)))
    return out


def assert_valid(layout: Layout, *, connected: bool = True) -> None:
    """Every run is exactly one placed answer, and every answer is one run."""
    got = sorted(runs(layout))
    want = sorted((p.row, p.col, p.direction.value, p.entry.answer) for p in layout.placements)
    assert got == want, f"runs {got} != placements {want}"
    for p in layout.placements:
        for r, c in p.cells():
            assert 0 <= r < layout.rows and 0 <= c < layout.cols
    if layout.placements:
        rows = {r for r, _ in layout.cells}
        cols = {c for _, c in layout.cells}
        assert min(rows) == 0 and min(cols) == 0
        assert max(rows) == layout.rows - 1 and max(cols) == layout.cols - 1
    if connected and len(layout.placements) > 1:
        # every word crosses another, and the crossing graph is connected
        seen = {0}
        stack = [0]
        cellsets = [set(p.cells()) for p in layout.placements]
        while stack:
            i = stack.pop()
            for j, cs in enumerate(cellsets):
                if j not in seen and cs & cellsets[i]:
                    seen.add(j)
                    stack.append(j)
        assert len(seen) == len(layout.placements), "grid is not connected"


# Clues in Hebrew and Arabic beside Latin ones: where bidi would carry an enumeration to the clue's left
RTL = """---
title: Capitals
date: 2026-01-01
---
JERUSALEM | \u05d9\u05e8\u05d5\u05e9\u05dc\u05d9\u05dd
CAIRO | \u0627\u0644\u0642\u0627\u0647\u0631\u0629 \u0639\u0627\u0635\u0645\u0629
ROME | Eternal city
PARIS | City of light
OSLO | Norwegian capital
LIMA | Peruvian capital
"""
