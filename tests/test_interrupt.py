"""Killing a build (SIGINT, SIGTERM, SIGKILL) at any moment leaves public/ with whole files only.

A small repo is built in an old and a new version (every clue changed), each
into its own folder. Then `python -m site_builder build` is started and
killed again and again at fixed moments; before each run the sources are
set to whichever version public/ is further from, so every run has at least
half the changed files to write. After
each kill every file of public/ must be byte-identical to its old or its new
version, with no temporary file left (after SIGKILL one may be, until the
next build starts). A last build runs to completion and `crossword check`
must pass.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from site_builder.site import build_site

from .conftest import ROOT, SETTINGS

PUZZLE = """---
title: {title}
date: 2026-0{month}-01
author: Ann
tags: [small]
---
CAT | {word} pet that purrs
ACE | {word} top card
TEA | {word} afternoon drink
EAT | {word} way to have dinner
"""
SLUGS = {"one": 1, "two": 2, "three": 3}

# (signal, seconds after start): fixed, not random, from before the first write to late in the build
KILLS = [
    (signal.SIGINT, 0.3),
    (signal.SIGKILL, 0.7),
    (signal.SIGTERM, 1.0),
    (signal.SIGKILL, 1.4),
    (signal.SIGINT, 1.8),
    (signal.SIGTERM, 2.2),
    (signal.SIGKILL, 2.6),
]


def write_puzzles(root: Path, word: str) -> None:
    for slug, month in SLUGS.items():
        text = PUZZLE.format(title=f"Puzzle {slug}", month=month, word=word)
        (root / "puzzles" / f"{slug}.txt").write_text(text, encoding="utf-8")


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def run(*args: str, root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "site_builder", *args, "--root", str(root)],
                          capture_output=True, text=True, cwd=root, timeout=300)


def test_killed_builds_leave_only_whole_files(tmp_path):
    root = tmp_path / "repo"
    (root / "puzzles").mkdir(parents=True)
    shutil.copy(SETTINGS, root / "pyproject.toml")
    write_puzzles(root, "Old:")
    assert build_site(root, report=lambda line: None).ok
    old = snapshot(root / "public")

    write_puzzles(root, "New:")
    new_out = tmp_path / "new"
    assert build_site(root, new_out, state=tmp_path / "new-state", report=lambda line: None).ok
    new = snapshot(new_out)
    changed = {rel for rel in old if rel in new and old[rel] != new[rel]}
    assert len(changed) > 10, "the new clues must change most files, or the test shows nothing"

    outcomes = []
    for sig, delay in KILLS:
        now = snapshot(root / "public")
        done_new = sum(now.get(rel) == new[rel] for rel in changed)
        write_puzzles(root, "New:" if done_new <= len(changed) / 2 else "Old:")
        # one process, as this test was written for (the default is every core; --jobs 2 has its own test)
        proc = subprocess.Popen([sys.executable, "-m", "site_builder", "build", "--root", str(root), "--jobs", "1"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=root)
        time.sleep(delay)
        running = proc.poll() is None
        if running:
            proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
        outcomes.append((sig.name, delay, running, proc.returncode))

        files = snapshot(root / "public")
        temps = [rel for rel in files if Path(rel).name.endswith(".tmp")]
        if sig is signal.SIGKILL:
            assert all(Path(rel).name.startswith(".") for rel in temps), temps
            files = {rel: data for rel, data in files.items() if rel not in temps}
        else:
            assert temps == [], f"{sig.name} left {temps}"
        for rel, data in files.items():
            assert data == old.get(rel) or data == new.get(rel), f"after {sig.name} at {delay} s: {rel} is neither old nor new"
        assert set(new) <= set(files) | set(old), "a file was lost"

        if running and sig is not signal.SIGKILL and proc.returncode != 0:
            # stopped mid-way: a one-line message, no traceback, the conventional status
            assert proc.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[sig], (sig.name, proc.returncode, err)
            assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
            assert err.startswith(("interrupted:", "terminated:")), err

    # the next build finishes the job and cleans up whatever a SIGKILL left
    write_puzzles(root, "New:")
    done = run("build", root=root)
    assert done.returncode == 0, done.stderr
    assert snapshot(root / "public") == new, "after a full build public/ is exactly the new site"
    check = run("check", root=root)
    assert check.returncode == 0, check.stdout + check.stderr
    assert any(running for _, _, running, _ in outcomes), f"no build was ever killed mid-way: {outcomes}"


def test_build_removes_leftover_temp_files(tmp_path):
    root = tmp_path / "repo"
    (root / "puzzles").mkdir(parents=True)
    shutil.copy(SETTINGS, root / "pyproject.toml")
    write_puzzles(root, "Old:")
    (root / "public" / "one").mkdir(parents=True)
    for folder in ("layouts", "state"):
        (root / ".cache" / folder).mkdir(parents=True)
    # mkstemp's names: eight random characters
    leftovers = [root / "public" / ".index.html.abc123de.tmp", root / "public" / "one" / ".one.pdf.x_9k2m0q.tmp",
                 root / ".cache" / "layouts" / ".ab12.json.k2j3_x9q.tmp", root / ".cache" / "state" / ".one.key.0a1b2c3d.tmp"]
    for p in leftovers:
        p.write_bytes(b"half a file")
        os.utime(p, (time.time() - 600, time.time() - 600))  # a killed build's, ten minutes ago (the cache's need it)
    # a temporary file of a build running beside this one (they share .cache): new, so not touched
    running = root / ".cache" / "layouts" / ".cd34.json.r4nn1ng0.tmp"
    running.write_bytes(b"being written")
    # not the writer's name pattern: not ours to delete
    keep = [root / "public" / "one" / "notes.tmp", root / "public" / ".my.backup.tmp"]
    for p in keep:
        p.write_bytes(b"x")
    assert build_site(root, report=lambda line: None, quick=True).ok
    assert not any(p.exists() for p in leftovers)
    assert all(p.exists() for p in keep) and running.exists()


def test_sigterm_handler_is_restored_after_main():
    from site_builder.cli import main

    before = signal.getsignal(signal.SIGTERM)
    assert main(["lint", os.devnull]) in (0, 2)
    assert signal.getsignal(signal.SIGTERM) is before


def test_an_error_after_a_stop_signal_is_the_stop(monkeypatch, tmp_path):
    """A signal landing inside cairo's C callback surfaces as an OSError from the render: not a bug (exit 3)."""
    from site_builder import site, writer

    def failing_read(path):
        raise OSError("write callback failed")

    monkeypatch.setattr(site, "_read_source", failing_read)
    monkeypatch.setattr(writer, "stop_requested", True)
    with pytest.raises(KeyboardInterrupt):
        site._build_one((tmp_path / "x.txt", None, None, "engine", False))
    monkeypatch.setattr(writer, "stop_requested", False)
    _, error, _, _ = site._build_one((tmp_path / "x.txt", None, None, "engine", False))
    assert type(error).__name__ == "InternalError"  # without a stop, the same error is a bug report


def test_the_crossword_command_handles_signals_as_python_m_does():
    """The console script runs `__main__.run`, not `cli.main`: a stop signal that lands after the work is
    done is ignored there too, instead of ending a finished `make site` by the signal."""
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"crossword": "site_builder.__main__:run"}
    installed = Path(sys.executable).parent / "crossword"
    if installed.exists():  # the venv's launcher, as `make` runs it
        r = subprocess.run([str(installed), "lint", "--help"], capture_output=True, text=True)
        assert r.returncode == 0 and "usage: crossword lint" in r.stdout, r.stderr


PARALLEL_STOP = r"""
import multiprocessing.pool, os, signal, sys
from pathlib import Path
from site_builder import site

def collect(*args, **kw):
    raise KeyboardInterrupt  # the first Ctrl-C, while the workers build

terminate = multiprocessing.pool.Pool.terminate
def terminate_with_a_second_ctrl_c(self):
    os.kill(os.getpid(), signal.SIGINT)  # the second, landing inside terminate()
    terminate(self)

site._collect = collect
multiprocessing.pool.Pool.terminate = terminate_with_a_second_ctrl_c
try:
    site.build_site(Path(sys.argv[1]), jobs=2, force=True, report=lambda line: None)
except KeyboardInterrupt:
    print("stopped")
"""


def test_a_second_ctrl_c_while_a_parallel_build_stops_its_workers_is_ignored(tmp_path):
    """It was raised inside the pool's terminate(), which left the pool half stopped and join() waiting for
    good (2 runs in 16 of a double SIGINT hung)."""
    root = tmp_path / "repo"
    (root / "puzzles").mkdir(parents=True)
    shutil.copy(SETTINGS, root / "pyproject.toml")
    write_puzzles(root, "Old:")
    r = subprocess.run([sys.executable, "-c", PARALLEL_STOP, str(root)], capture_output=True, text=True, cwd=ROOT,
                       timeout=60)
    assert r.returncode == 0 and r.stdout == "stopped\n", r.stderr


@pytest.mark.skipif(not any(Path("/proc/self/task").glob("*/children")),
                    reason="reads a process's children from Linux's /proc/PID/task/*/children")
def test_the_workers_of_a_killed_build_end_quietly(tmp_path):
    """`--jobs 2` and the builder SIGKILLed (the out-of-memory killer): its worker processes ran on, and each
    printed a BrokenPipeError traceback when it next reported. They now end with it, saying nothing."""
    root = tmp_path / "repo"
    (root / "puzzles").mkdir(parents=True)
    shutil.copy(SETTINGS, root / "pyproject.toml")
    write_puzzles(root, "Old:")
    proc = subprocess.Popen([sys.executable, "-m", "site_builder", "build", "--root", str(root), "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=root)

    def children() -> list[int]:
        found = []
        for task in Path(f"/proc/{proc.pid}/task").glob("*/children"):
            found += [int(pid) for pid in task.read_text().split()]
        return found

    deadline = time.monotonic() + 60
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
        workers = children()
        time.sleep(0.02)
    assert len(workers) >= 2, "the build ended before its workers were seen: nothing to kill"
    proc.kill()
    _, err = proc.communicate(timeout=60)
    deadline = time.monotonic() + 20
    while any(Path(f"/proc/{pid}").exists() and "Z" not in _state_of(pid) for pid in workers):
        assert time.monotonic() < deadline, "a worker outlived its killed builder"
        time.sleep(0.05)
    time.sleep(0.5)  # a worker that wrote would have written by now
    assert "Traceback" not in err, err


def _state_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_build_leaves_no_copies_of_the_fonts_behind(tmp_path, jobs):
    """WeasyPrint copies the PDF's fonts into a folder of /tmp (1.1 MB) that it deletes only when collected:
    each worker of a parallel build left one, every build, and so did a build stopped by Ctrl-C."""
    root = tmp_path / "repo"
    (root / "puzzles").mkdir(parents=True)
    shutil.copy(SETTINGS, root / "pyproject.toml")
    write_puzzles(root, "Old:")
    for n in range(4, 12):  # enough work left when the stop comes
        (root / "puzzles" / f"more-{n}.txt").write_text(PUZZLE.format(title=f"More {n}", month=n % 9 + 1, word="More:"))
    temp = tmp_path / "tmp"
    temp.mkdir()
    # the font cache in a folder of the test's own: where ~/.cache cannot be written it goes under TMPDIR
    env = {**os.environ, "TMPDIR": str(temp), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "site_builder", "build", "-q", "--jobs", jobs, "--root", str(root)],
                          capture_output=True, text=True, cwd=root, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (root / "public" / "one" / "one.pdf").exists()
    assert list(temp.iterdir()) == []
    write_puzzles(root, "New:")  # stopped while it renders: the stop's way out cleans up too
    proc = subprocess.Popen([sys.executable, "-m", "site_builder", "build", "--jobs", jobs, "--root", str(root)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=root, env=env)
    for line in proc.stdout:
        if line.startswith("build "):  # one puzzle done: WeasyPrint has its fonts
            proc.send_signal(signal.SIGINT)
            break
    proc.communicate(timeout=120)
    assert proc.returncode == 130, "the build ended before the stop: nothing of the stop's way out was tested"
    assert list(temp.iterdir()) == []
