"""The ``mapzoo`` command installed by the wheel: the Rust command line, run in-process."""

from __future__ import annotations

import signal
import sys


def main() -> int:
    """Runs ``mapzoo`` with ``sys.argv``; returns its exit code (0 ok, 1 a track or check
    failed, 2 bad usage or input)."""
    from mapzoo._mapzoo import run_cli

    # Ctrl-C ends the command as it ends the native binary (the work runs without the GIL).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.stdout.flush()
    sys.stderr.flush()
    return run_cli(["mapzoo", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
