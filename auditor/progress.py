"""A progress line on a terminal: a cold run of a whole engine takes seconds, and silence for
that long reads as a hang. Only on a TTY (never in CI logs, pipes or pre-commit's captured
output), only once a run has taken a second, and erased before anything else is printed.

The stages bump plain counters (cheap enough for the hot paths); a daemon thread redraws the
line a few times a second.
"""

from __future__ import annotations

import os
import threading
from typing import TextIO

DELAY_SECONDS = 1.0  # runs shorter than this never show the line
REDRAW_SECONDS = 0.2


class Counters:
    """What the run has got through so far."""

    def __init__(self) -> None:
        self.files = 0
        self.pools = 0
        self.pairs = 0
        self.points = 0

    def line(self) -> str:
        return (
            f"layout-audit: {self.files} files · {self.pools} pools · {self.pairs} pairs · "
            f"{self.points} config points"
        )


COUNTERS = Counters()


class ProgressLine:
    """Draws `COUNTERS` on `stream` from a background thread while the audit runs."""

    def __init__(self, stream: TextIO, delay: float = DELAY_SECONDS) -> None:
        self.stream = stream
        self.delay = delay
        self.shown = False
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @staticmethod
    def wanted(stream: TextIO) -> bool:
        try:
            return stream.isatty() and os.environ.get("TERM") != "dumb"
        except (AttributeError, ValueError, OSError):
            return False

    def start(self) -> ProgressLine:
        COUNTERS.__init__()  # a new run (tests run several in one process)
        if self.wanted(self.stream):
            self._thread = threading.Thread(target=self._run, name="layout-audit-progress")
            self._thread.daemon = True
            self._thread.start()
        return self

    def _run(self) -> None:
        if self._stop.wait(self.delay):
            return
        while not self._stop.is_set():
            with self._lock:
                if self._stop.is_set():
                    return
                self._write("\r" + COUNTERS.line() + "\x1b[K")
                self.shown = True
            self._stop.wait(REDRAW_SECONDS)

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self._stop.set()

    def stop(self) -> None:
        """Stop drawing and erase the line, so the next output starts on a clean line."""
        self._stop.set()
        with self._lock:
            if self.shown:
                self._write("\r\x1b[K")
                self.shown = False
