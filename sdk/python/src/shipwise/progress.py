"""A one-line progress bar on stderr, drawn only when stderr is a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO

WIDTH = 30
REDRAW_SECONDS = 0.1


class Progress:
    def __init__(self, total: int, *, enabled: bool | None = None, stream: TextIO | None = None):
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.total = total
        self.done = 0
        self.failed = 0
        self._drawn = 0.0

    def advance(self, *, failed: bool) -> None:
        self.done += 1
        self.failed += failed
        now = time.monotonic()
        if self.enabled and (now - self._drawn >= REDRAW_SECONDS or self.done == self.total):
            self._drawn = now
            self._draw()

    def _draw(self) -> None:
        share = self.done / self.total if self.total else 1.0
        bar = "#" * round(share * WIDTH)
        failed = f", {self.failed} failed" if self.failed else ""
        self.stream.write(
            f"\rshipwise [{bar:<{WIDTH}}] {self.done}/{self.total} trials {share:4.0%}{failed}"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self._drawn:
            self.stream.write("\n")
            self.stream.flush()
