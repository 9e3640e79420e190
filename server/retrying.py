"""The service's one retry policy: tenacity, with waits that double up to a cap.

Every loop that tries again (a provider call, a judge call, a unit of database work, the
broker's probe) is a `tenacity.AsyncRetrying` built from these pieces, so "how long after
the n-th failure" is written once: `first · 2ⁿ` seconds (n = 0, 1, …), at most `cap`, and
at least what the other side asked for (`Retry-After`) where it asked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import count

from tenacity import RetryCallState
from tenacity.wait import wait_base

__all__ = ["Doubling", "RetryCallState", "doubling_delay"]


def doubling_delay(failures: int, first: float, cap: float) -> float:
    """The wait after the `failures`-th failure in a row (1, 2, …): first · 2^(failures−1),
    at most `cap` (the exponent is capped too, so a long outage never overflows)."""
    return min(first * 2.0 ** min(failures - 1, 32), cap)


class Doubling(wait_base):
    """tenacity's wait: `doubling_delay`, raised to `asked(state)` seconds when that names
    one (a `Retry-After` read from the failed attempt), never above `cap`."""

    def __init__(
        self,
        first: float,
        cap: float,
        asked: Callable[[RetryCallState], float | None] | None = None,
    ) -> None:
        self.first = first
        self.cap = cap
        self._asked = asked

    def __call__(self, retry_state: RetryCallState) -> float:
        delay = doubling_delay(retry_state.attempt_number, self.first, self.cap)
        wanted = self._asked(retry_state) if self._asked is not None else None
        if wanted is not None:
            delay = max(delay, wanted)
        return min(delay, self.cap)

    def delays(self) -> Iterator[float]:
        """The waits after the 1st, 2nd, … failure when nobody asks for more (for logs)."""
        for failures in count(1):
            yield doubling_delay(failures, self.first, self.cap)
