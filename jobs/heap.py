"""A worker gives the heap its jobs freed back to the system (glibc's `malloc_trim`).

glibc keeps memory freed in the middle of its heap for the process's next allocations, so a
worker that once ran a burst of deliveries kept that burst's high-water mark for good: in
bench/soak.py the worker that took over a killed worker's comparisons stayed 77–121 MB
higher to the end. After a job ends the worker trims, at most once every `every_seconds`
(a trim of a few hundred fragmented megabytes takes ~30 ms, and it holds the loop).
Elsewhere than glibc there is no `malloc_trim` and nothing is done.
"""

from __future__ import annotations

import ctypes
import time
from collections.abc import Callable

TRIM_EVERY_SECONDS = 10.0


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):
        return None
    return trim


class HeapTrim:
    """Calls `malloc_trim(0)` after a job, at most once every `every_seconds`."""

    def __init__(
        self,
        every_seconds: float = TRIM_EVERY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._trim = _malloc_trim()
        self._every = every_seconds
        self._clock = clock
        self._last: float | None = None

    @property
    def available(self) -> bool:
        return self._trim is not None

    def after_job(self) -> bool:
        """Trim unless one ran within `every_seconds`; whether this call trimmed."""
        now = self._clock()
        if self._trim is None or (self._last is not None and now - self._last < self._every):
            return False
        self._last = now
        self._trim(0)
        return True
