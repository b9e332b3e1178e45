"""The errors the library raises. The CLI turns them into one-line messages."""

from __future__ import annotations

import errno
import os
import re
import tempfile

from pathlib import Path

_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def shown(text: str) -> str:
    """`text` as a terminal or a CI log may print it: control and direction characters escaped (`\\n`,
    `\\x1b`, `\\u202e`), so a file or key name cannot forge a line, colour the log or reverse it."""
    return _UNPRINTABLE.sub(lambda m: m[0].encode("unicode_escape").decode("ascii"), text)


def _rebuild(cls: type, args: tuple, state: dict) -> "CrosswordError":
    """Unpickle an error without its __init__ (whose arguments are not its `args`)."""
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class CrosswordError(Exception):
    """Base class of every error this package raises on purpose.

    Picklable whatever a subclass's __init__ takes: `build --jobs N` sends a worker's error to the
    parent process (the default pickling would call __init__ with the message alone, fail in the
    pool's result thread, and leave the build waiting for ever).
    """

    exit_status = 2
    where = ""  # the file (and line) the error is about, when it is about one
    what = ""  # the message without `where`

    def diagnostic(self) -> str:
        """The error as one compiler-style line, as lint prints it: `file:line: error: message`.

        Editors and terminals turn the leading `file:line` into a link.
        """
        if self.where:
            return f"{self.where}: error: {self.what}"
        return f"error: {self}"

    def _located(self, where: str, what: str) -> str:
        self.where, self.what = where, what
        return f"{where}: {what}"

    def __reduce__(self):
        return _rebuild, (type(self), self.args, dict(self.__dict__))


class PuzzleError(CrosswordError):
    """A problem in a puzzle source file, located by line (and column where known)."""

    def __init__(self, path: str | Path | None, line: int | None, message: str, col: int | None = None):
        self.path = str(path) if path is not None else "<input>"
        self.line = line
        self.col = col
        self.message = message
        self.count = 1  # errors this one reports (more than one for the line that counts those not listed)
        super().__init__(self._located(self.location(), message))

    def location(self) -> str:
        """`file`, `file:line` or `file:line:col` (the file's name `shown`)."""
        loc = shown(self.path)
        if self.line is not None:
            loc += f":{self.line}"
            if self.col is not None:
                loc += f":{self.col}"
        return loc


class PuzzleErrors(CrosswordError):
    """Several problems found in one pass over a file; each is a PuzzleError."""

    def __init__(self, errors: list[PuzzleError]):
        self.errors = list(errors)
        super().__init__("\n".join(str(e) for e in self.errors))

    def diagnostic(self) -> str:
        """A compiler-style line for each problem."""
        return "\n".join(e.diagnostic() for e in self.errors)


class LayoutError(CrosswordError):
    """The layout search could not satisfy the puzzle (a required answer never placed)."""

    exit_status = 1

    def __init__(self, path: str | Path | None, message: str, missing: tuple[str, ...] = (), line: int | None = None):
        self.path = str(path) if path is not None else "<input>"
        self.missing = missing
        self.line = line  # the first missing answer's line, when known
        super().__init__(self._located(self.path if line is None else f"{self.path}:{line}", message))


class InternalError(CrosswordError):
    """A bug of ours met while building one puzzle: reported against that puzzle, the others go on.

    `detail` holds the traceback, for the bug report.
    """

    exit_status = 3

    def __init__(self, path: str | Path | None, exc: BaseException, detail: str = ""):
        self.path = str(path) if path is not None else "<input>"
        self.detail = detail
        super().__init__(self._located(
            self.path,
            f"internal error while building it ({type(exc).__name__}: {exc}); "
            "this is a bug in the crossword press, please report it with this file",
        ))


class MissingPackageError(CrosswordError):
    """A package the crossword press needs cannot be imported: the command runs under a Python it was
    never installed into (the system's `python3 -m site_builder`, not `.venv/bin/crossword`)."""

    def __init__(self, exc: ModuleNotFoundError):
        import sys

        self.package = exc.name or str(exc)  # weasyprint.text.fonts: a version without that module
        super().__init__(
            f"this Python ({sys.executable}) has no '{self.package}', which the crossword press needs; run "
            "`make site` (it installs every package into .venv) and then `.venv/bin/crossword`, or activate "
            "the environment first (`. .venv/bin/activate`)"
        )


def unexpected(path: str | Path | None, exc: BaseException, detail: str = "") -> CrosswordError:
    """The error to report for an exception no code of ours raised on purpose: a missing package is the
    set-up's (MissingPackageError), anything else a bug (InternalError)."""
    if isinstance(exc, ModuleNotFoundError) and exc.name and exc.name.partition(".")[0] != __package__.partition(".")[0]:
        return MissingPackageError(exc)  # (a module of ours missing is a bug)
    return InternalError(path, exc, detail)


class OutputError(CrosswordError):
    """An output folder that cannot be written: a file in its place, no permission, a full disk."""

    def __init__(self, path: str | Path, exc: OSError | None = None, reason: str = "",
                 fix: str = "name a folder you can write to"):
        self.path = str(path)
        why = reason or (exc.strerror if exc is not None and exc.strerror else str(exc))
        if exc is not None and getattr(exc, "filename", None) not in (None, self.path):
            why += f" ({exc.filename})"
        super().__init__(self._located(self.path, f"cannot write the outputs there: {why}; {fix}"))


# errors of the disk as a whole, not of one file or folder: a build cannot go on to the next puzzle past them
DISK_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS})


FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})  # a write with no room left (or allowed)
SCRATCH_PREFIX = "crossword-build-"  # the folder a parallel build's workers take for their temporary files


def temporary_folder() -> str:
    """The temporary folder, as the user sets it (TMPDIR): a parallel build's worker writes into a folder of
    its own inside it, which is gone by the time the error is read."""
    folder = tempfile.gettempdir()
    return os.path.dirname(folder) if os.path.basename(folder).startswith(SCRATCH_PREFIX) else folder


def render_disk_error(exc: OSError) -> "FileSystemError | None":
    """A full disk a render hit with no file named (WeasyPrint writes each font it loads into the temporary
    folder, and says only "No space left on device"), as the user's to fix: the temporary folder named, not
    a bug reported. None for any other error."""
    if exc.filename or exc.errno not in FULL_ERRNOS:
        return None
    return FileSystemError(type(exc)(exc.errno, exc.strerror or str(exc), temporary_folder()))


class FileSystemError(CrosswordError):
    """A file or folder the build must read or write and cannot: no permission, a file where a folder
    goes, a name too long, a full disk. The user's to fix, not a bug: said as such, exit status 2."""

    def __init__(self, exc: OSError, fallback: str | Path = "."):
        self.path = str(exc.filename) if getattr(exc, "filename", None) else str(fallback)
        name = Path(self.path).name
        if name.startswith(".") and name.endswith(".tmp"):
            # the writer's temporary file: renaming it onto the output failed (a folder in the way), so the output
            # is the one to name; otherwise the temporary file's folder is
            target = getattr(exc, "filename2", None)
            self.path = str(target) if target else str(Path(self.path).parent)
        parts = Path(self.path).parts
        in_cache = any(a == ".cache" and b in ("layouts", "state", "outs") for a, b in zip(parts, parts[1:]))
        if Path(self.path).is_symlink():
            fix = "the build writes only into a real folder, never through a link: remove the link"
        elif isinstance(exc, PermissionError):
            fix = "make .cache writable, or delete it (it is rebuilt)" if in_cache else \
                "check its permissions (the build reads the sources and pyproject.toml, and writes the outputs), " \
                "or build somewhere else (--out)"
        elif isinstance(exc, (NotADirectoryError, FileExistsError)):
            # name the file in the way: the first part of the path that exists and is no folder
            blocker = next((p for p in reversed(Path(self.path).parents) if p.exists() and not p.is_dir()), None)
            if blocker is not None:
                self.path = str(blocker)
            fix = "a file stands where a folder must go: move it away"
        elif isinstance(exc, IsADirectoryError):
            fix = "a folder stands where a file must go: move it away"
        elif exc.errno == errno.ENAMETOOLONG:
            fix = "shorten the puzzle's file name or tags"
        elif exc.errno in (errno.ENOSPC, errno.EDQUOT):
            fix = "free some disk space" + (" (or raise the disk quota)" if exc.errno == errno.EDQUOT else "")
        elif exc.errno == errno.EFBIG:
            fix = "a limit on file size stops it (`ulimit -f`): raise it"
        elif exc.errno == errno.EROFS:
            fix = "the file system is mounted read-only: " + (
                "move .cache somewhere writable, or delete it" if in_cache else "build somewhere else (--out)")
        else:
            fix = "check the folder exists and can be written"
        if self.path == temporary_folder() and exc.errno in FULL_ERRNOS:
            fix += " (the renders write fonts to the temporary folder: TMPDIR may name another)"
        why = exc.strerror or str(exc)
        super().__init__(self._located(self.path, f"cannot write or read this: {why}; {fix}"))


class TemplateError(CrosswordError):
    """A Jinja2 template that does not parse, or fails as it renders (`{{ nosuch.attr }}`): the site's own
    to fix, located by file and line."""

    def __init__(self, filename: str | None, line: int | None, message: str, parsed: bool = False):
        self.path = filename or "templates"
        where = f"{self.path}:{line}" if line else self.path
        what = "the template fails as it renders" if parsed else "the template does not parse"
        super().__init__(self._located(where, f"{what}: {message}; fix the template"))
