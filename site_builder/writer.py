"""The only code that writes output files: atomically, temp file then rename."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path


# Set by the command's SIGINT/SIGTERM handler. From then on nothing is written: a render the signal
# interrupted inside a C callback (cairo, pango) can come back looking complete but wrong.
stop_requested = False


def make_folder(folder: Path) -> None:
    """Create `folder` and its missing parents, readable by all (755) as the files are (644): under a umask
    of 077 they came out 700, and a web server's user could not read public/."""
    if folder.is_dir():
        return
    missing = []
    at = folder
    while not at.exists() and not at.is_symlink() and at != at.parent:
        missing.append(at)
        at = at.parent
    folder.mkdir(parents=True, exist_ok=True)
    for made in missing:
        os.chmod(made, 0o755)


def write_atomic(path: Path, data: str | bytes) -> bool:
    """Write `data` to `path` via a temporary file in the same folder and a rename.

    Returns False (and writes nothing) when the file already holds exactly
    these bytes, so unchanged outputs keep their modification times.
    """
    return bool(write_together([(Path(path), data)]))


def write_together(items: list[tuple[Path, str | bytes]]) -> list[Path]:
    """Write several files all or none: each to a temporary file beside it, and only once every one is
    written (and synced), all renamed into place. A full disk, a file size limit or a stop while they are
    written leaves every file as it was, where writing them one by one left a puzzle's page new and its PDF
    old. A folder where one of them goes fails before any is written; a rename needs no room, and a stop
    that lands among the renames waits for the last of them.

    Returns the files that changed; one that already holds exactly its bytes is not written again, so it
    keeps its modification time.
    """
    for path, _ in items:
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    staged: list[tuple[str, Path]] = []
    try:
        for path, data in items:
            if stop_requested:
                raise KeyboardInterrupt
            raw = data.encode("utf-8") if isinstance(data, str) else data
            try:
                if path.read_bytes() == raw:
                    continue
            except OSError:
                pass
            make_folder(path.parent)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            staged.append((tmp, path))
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(raw)
                    fh.flush()
                    os.fsync(fh.fileno())
                os.chmod(tmp, 0o644)
            except OSError as exc:
                if not exc.filename and exc.errno:
                    # a write or fsync says no file (a full disk, a file size limit): name the one it was writing
                    raise type(exc)(exc.errno, exc.strerror or str(exc), str(path)) from exc
                raise
        if stop_requested:
            raise KeyboardInterrupt
        stopped = None
        for tmp, path in staged:
            while True:
                try:
                    if os.path.lexists(tmp):  # not yet renamed (the stop may land just after it was)
                        os.replace(tmp, path)
                    break
                except KeyboardInterrupt as exc:  # Ctrl-C between two renames: the rest go in first
                    stopped = exc
        if stopped is not None:
            raise stopped
    except BaseException:
        for tmp, _ in staged:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise
    return [path for _, path in staged]


def write_files(folder: Path, files: dict[str, str | bytes]) -> list[Path]:
    """Write every file (names relative to folder, no '..'), all or none (`write_together`); return those
    that changed."""
    folder = Path(folder)
    for name in sorted(files):
        rel = Path(name)
        if rel.is_absolute() or ".." in rel.parts:
            raise ValueError(f"refusing to write outside {folder}: {name}")
    return write_together([(folder / name, files[name]) for name in sorted(files)])
