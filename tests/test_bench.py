from __future__ import annotations

import json

from site_builder import bench
from site_builder.layout import STRATEGIES, dictionary, freeform
from site_builder.model import Entry

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
    text = capsys.readouterr().out
    assert "late-comer" in text and "best x" in text
    # every registered strategy by default
    monkeypatch.setattr(bench, "corpus", lambda root, sizes: [("tiny", make_entries("CAT", "ARE"), 10)])
    bench.main(["--quick", "--no-external"])
    shown = capsys.readouterr().out
    assert all(name in shown for name in STRATEGIES)
