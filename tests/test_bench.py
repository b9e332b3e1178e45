from __future__ import annotations

import json
from pathlib import Path

import pytest

from site_builder import bench
from site_builder.layout import STRATEGIES, dictionary, freeform

from .conftest import make_entries


def test_generated_lists_are_real_words_and_deterministic():
    a = bench.generated_entries(40)
    assert a == bench.generated_entries(40)
    assert len({e.answer for e in a}) == 40
    dic = dictionary.load()
    assert all(e.answer in dic for e in a)
    assert bench.generated_entries(40, seed=2) != a


def test_runs_differ_by_entry_order_only():
    entries = make_entries("ONE", "TWO", "THREE", "FOUR", "FIVE")
    assert bench.run_order(entries, 0) == entries
    assert sorted(e.answer for e in bench.run_order(entries, 1)) == sorted(e.answer for e in entries)
    assert bench.run_order(entries, 1) != entries


def _external(result):
    return {"result": result}


def test_external_grids_are_checked_strictly():
    entries = make_entries("CAT", "ARE", "TO")
    good = [
        {"answer": "CAT", "orientation": "across", "startx": 1, "starty": 1},
        {"answer": "ARE", "orientation": "down", "startx": 2, "starty": 1},
    ]
    layout, why = bench.to_layout(_external(good), entries)
    assert layout is not None and why == "" and len(layout.unplaced) == 1
    clash = good + [{"answer": "TO", "orientation": "down", "startx": 2, "starty": 1}]
    assert bench.to_layout(_external(clash), entries)[0] is None  # T over A
    touching = good + [{"answer": "TO", "orientation": "down", "startx": 3, "starty": 1}]
    layout, why = bench.to_layout(_external(touching), entries)
    assert layout is None and "no answer" in why  # R and O side by side make "RO"
    apart = good + [{"answer": "TO", "orientation": "across", "startx": 5, "starty": 5}]
    layout, why = bench.to_layout(_external(apart), entries)
    assert layout is None and "piece" in why


def test_bench_runs_every_registered_strategy_and_writes_json(tmp_path, monkeypatch, capsys):
    (tmp_path / "puzzles").mkdir()
    (tmp_path / "puzzles" / "small.txt").write_text(
        "---\ntitle: Small\ndate: 2026-01-01\n---\n" + "".join(f"{w} | c\n" for w in ("PYTHON", "JAVA", "RUST", "SCALA")),
        encoding="utf-8",
    )
    calls = []

    def late(entries, params):  # a strategy registered after bench was imported
        calls.append(params.seeds)
        return freeform.search(entries, params)

    monkeypatch.setitem(STRATEGIES, "late-comer", late)
    monkeypatch.setattr(bench, "QUICK_SIZES", (10,))
    out = tmp_path / "b.json"
    assert bench.main(["--root", str(tmp_path), "--quick", "--no-external", "--strategies", "freeform,late-comer", "--json", str(out)]) == 0
    assert calls and set(calls) == {bench.ATTEMPTS}
    data = json.loads(out.read_text())
    assert {(r["list"], r["strategy"]) for r in data["rows"]} == {
        ("small", "freeform"), ("small", "late-comer"), ("generated-10", "freeform"), ("generated-10", "late-comer")
    }
    row = data["rows"][0]
    assert row["placed"] <= row["answers"] and row["fragments"] == 0 and row["fill"] == 0
    width, height = map(int, row["grid"].split("x"))  # the best layout's box
    assert max(width, height) <= 23 and width * height / row["placed"] == pytest.approx(row["compactness"], abs=0.01)
    text = capsys.readouterr().out
    assert "late-comer" in text and "best x" in text
    # every registered strategy by default
    monkeypatch.setattr(bench, "corpus", lambda root, sizes: [("tiny", make_entries("CAT", "ARE"), 10)])
    bench.main(["--quick", "--no-external"])
    shown = capsys.readouterr().out
    assert all(name in shown for name in STRATEGIES)
    calls.clear()  # --attempts: as many seeds a run (the builder's own search is 200)
    assert bench.main(["--root", str(tmp_path), "--quick", "--no-external", "--strategies", "late-comer",
                       "--attempts", "3", "--json", str(tmp_path / "a.json")]) == 0
    assert calls and set(calls) == {3} and json.loads((tmp_path / "a.json").read_text())["attempts_per_run"] == 3
    with pytest.raises(SystemExit) as info:
        bench.main(["--attempts", "0"])
    assert info.value.code == 2 and "out of range; give 1 to 100000" in capsys.readouterr().err


def test_genxword_grids_are_checked_strictly():
    entries = make_entries("CAT", "ARE", "TO", "CATS")
    good = [["CAT", 0, 0, 0], ["ARE", 0, 1, 1]]  # [answer, row, col, vertical], 0-based
    layout, why = bench.genxword_layout(good, entries)
    assert layout is not None and why == "" and layout.crossings == 1
    assert {(p.entry.answer, p.row, p.col, p.direction.value) for p in layout.placements} == {
        ("CAT", 0, 0, "across"), ("ARE", 0, 1, "down")
    }
    assert layout.placements[0].entry.clue == "clue for CAT"  # our entries, not theirs
    assert bench.genxword_layout(good + [["TO", 0, 1, 1]], entries)[0] is None  # T over A
    layout, why = bench.genxword_layout(good + [["TO", 0, 2, 1]], entries)
    assert layout is None and "no answer" in why  # RO
    layout, why = bench.genxword_layout(good + [["TO", 4, 4, 0]], entries)
    assert layout is None and "piece" in why
    # an answer inside a longer one: every run starts at an answer, yet CAT is not a whole run
    layout, why = bench.genxword_layout(good + [["CATS", 0, 0, 0]], entries)
    assert layout is None and "CAT is part of a longer run" in why


def _genxword_or_skip(monkeypatch):
    """genxword from the project's .cache/bench/py/ (installed once with pip), or skip the test."""
    from .conftest import ROOT

    monkeypatch.setattr(bench, "CACHE", ROOT / ".cache" / "bench")
    messages = []
    if not bench.genxword_ready(messages.append):
        import pytest

        pytest.skip("genxword cannot be installed here (no pip or no PyPI): " + "; ".join(messages))


def test_genxword_runs_in_its_own_process_and_gives_valid_or_reported_grids(monkeypatch):
    _genxword_or_skip(monkeypatch)
    monkeypatch.setattr(bench, "GENXWORD_SECONDS", 0.5)
    entries = bench.generated_entries(10)
    layout, seconds, why = bench.external_layout("pypi:genxword", entries, 15, 0)
    assert seconds <= 5
    if layout is None:  # genxword's rules are looser than ours: a bad grid is reported, not raised
        assert why
    else:
        assert why == "" and layout.rows <= 15 and layout.cols <= 15
        assert {p.entry for p in layout.placements} <= set(entries)
        assert len(layout.placements) + len(layout.unplaced) == 10
        if not layout.unplaced:  # it stopped on its first complete grid: the seed decides it
            again, _s, _w = bench.external_layout("pypi:genxword", entries, 15, 0)
            assert again == layout
    # no GTK in our process: genxword ran in a subprocess with stubs
    import sys

    assert "genxword" not in sys.modules and "gi" not in sys.modules


def test_bench_shows_genxword_as_a_row(monkeypatch, tmp_path, capsys):
    _genxword_or_skip(monkeypatch)
    monkeypatch.setattr(bench, "GENXWORD_SECONDS", 0.3)
    monkeypatch.setattr(bench, "npm_ready", lambda log: [])
    monkeypatch.setattr(bench, "corpus", lambda root, sizes: [("small", bench.generated_entries(10), 15)])
    out = tmp_path / "b.json"
    assert bench.main(["--quick", "--strategies", "freeform", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["external"] == ["pypi:genxword"]
    text = capsys.readouterr().out
    assert "pypi:genxword" in text
    rows = [r for r in data["rows"] if r["strategy"] == "pypi:genxword"]
    if rows:  # else the table says it found no valid grid
        assert rows[0]["placed"] <= 10 and rows[0]["fragments"] == 0
    else:
        assert "no valid grid" in text


def test_the_markdown_table_has_the_readmes_headings():
    """The README's table is `bench --markdown`'s: its headings were the terminal table's short ones."""
    from site_builder.bench import markdown

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    head = markdown([]).splitlines()[0]
    assert head in readme.splitlines(), head


def test_the_watch_bench_edits_the_archives_largest_puzzle_or_a_generated_one(tmp_path):
    """`make bench` in an author's archive: the samples deleted, the watch bench found no twin-peaks.txt."""
    from site_builder.source import load_puzzle
    from site_builder.watch import bench_subject

    (tmp_path / "puzzles").mkdir()
    slug, text = bench_subject(tmp_path)
    assert slug == "generated-40" and len(load_puzzle(text, slug=slug).entries) == 40
    head = "---\ntitle: {0}\ndate: 2026-01-01\n---\n"
    (tmp_path / "puzzles" / "small.txt").write_text(head.format("Small") + "CAT | Pet\nACT | Deed\n")
    (tmp_path / "puzzles" / "big.txt").write_text(head.format("Big") + "CAT | Pet\nACT | Deed\nTAB | Key\n")
    (tmp_path / "puzzles" / "broken.txt").write_text("no front matter\n" * 9)
    (tmp_path / "puzzles" / "draft.txt").write_text(  # the most answers, but never built: a watch build never ends
        "---\ntitle: Draft\ndate: 2026-01-01\ndraft: true\n---\nCAT | Pet\nACT | Deed\nTAB | Key\nBAT | Club\n")
    assert bench_subject(tmp_path) == ("big", (tmp_path / "puzzles" / "big.txt").read_text())
