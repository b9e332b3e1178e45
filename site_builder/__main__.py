"""`python -m site_builder` and the `crossword` command (pyproject's console script calls `run`).

Both go through `run`, so both handle a stop signal the same way: before the
CLI has loaded, after it has finished, and while it works (`cli.main`).
"""

import os
import signal
import sys


def _stop_early(signum, frame):
    # Ctrl-C or SIGTERM while Python is still importing: nothing is written yet, so stop at once
    # with one line instead of a traceback from whatever module was loading. main() replaces this.
    name = "terminated" if signum == signal.SIGTERM else "interrupted"
    print(f"{name}: stopped before starting; nothing was written", file=sys.stderr, flush=True)
    os._exit(128 + signum)


def run() -> None:
    signal.signal(signal.SIGINT, _stop_early)
    signal.signal(signal.SIGTERM, _stop_early)

    try:
        from site_builder.cli import _stopped, main
    except ModuleNotFoundError as exc:  # `python3 -m site_builder` under a Python it was never installed into
        from site_builder.errors import MissingPackageError, unexpected

        if not isinstance(unexpected(None, exc), MissingPackageError):
            raise  # a module of ours missing: a bug, with its traceback
        print(f"error: {MissingPackageError(exc)}", file=sys.stderr)
        sys.exit(2)

    interrupted = False
    try:
        status = main()
    except KeyboardInterrupt:  # a signal raised again while main() was already stopping: its message is out
        interrupted = True
        status = 128 + (_stopped[0] if _stopped else signal.SIGINT)
    if _stopped or interrupted:
        # stopped by a signal: leave now with its status, skipping the interpreter's shutdown
        # (where a late KeyboardInterrupt would end the process by the signal itself)
        sys.stdout.flush()
        sys.stderr.flush()
        pdf = sys.modules.get("site_builder.render.pdf")
        if pdf is not None:  # WeasyPrint's copies of the fonts, which its own clean-up at exit would delete
            pdf.release_fonts()
        os._exit(status)
    # Done: a stop signal from here on finds nothing left to stop. Ignored, not left to the interpreter's
    # shutdown, which puts back the default action (the process would end by the signal, not with `status`).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sys.exit(status)


if __name__ == "__main__":
    run()
