"""The same layout on every Python we support (3.11 to 3.13), where those interpreters are installed.

The engine is stdlib-only plus our own PRNG, so it runs from the source tree
on a bare interpreter; adjacency (which needs the wordfreq dictionary) is
left out here and covered by its own determinism tests.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

SCRIPT = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from site_builder.layout import layout_entries
from site_builder.model import Entry, LayoutParams
answers = json.loads(sys.argv[2])
entries = tuple(Entry(a, "c", required=i < 4, line=i + 1) for i, a in enumerate(answers))
out = {}
for strategy in ("freeform", "scored", "optimize"):
    layout = layout_entries(entries, LayoutParams(seeds=4, strategy=strategy))
    out[strategy] = [layout.rows, layout.cols, layout.seed,
                     [[p.answer, p.row, p.col, p.direction.value, p.number] for p in layout.placements]]
print(json.dumps(out, sort_keys=True))
"""


def interpreters() -> list[str]:
    found = {}
    for version in ("3.11", "3.12", "3.13"):
        candidates = [shutil.which(f"python{version}")]
        base = Path(sys.base_prefix).parent  # pyenv: ~/.pyenv/versions/<x.y.z>
        candidates += sorted(str(p) for p in base.glob(f"{version}.*/bin/python{version}"))
        for c in candidates:
            if c and subprocess.run([c, "-c", "import sys"], capture_output=True).returncode == 0:
                found[version] = c
                break
    return sorted(found.values())


def test_same_layout_on_every_installed_python(twin_peaks):
    pythons = interpreters()
    if len(pythons) < 2:
        pytest.skip(f"fewer than two of Python 3.11-3.13 installed here ({pythons})")
    answers = json.dumps([e.answer for e in twin_peaks.entries])
    results = {}
    for exe in pythons:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        env["PYTHONHASHSEED"] = "random"
        proc = subprocess.run([exe, "-c", SCRIPT, str(ROOT), answers], capture_output=True, text=True, env=env)
        assert proc.returncode == 0, proc.stderr
        results[exe] = proc.stdout
    assert len(set(results.values())) == 1, f"layouts differ between {list(results)}"
