"""A live comparison's grades so far as columns, kept between grading batches (docs/live.md).

A batch used to read every grade row of its comparison back to decide again: O(n) rows a
batch, O(n²) over a canary's life. Now the worker keeps each comparison's columns and a
batch appends its own grades. The kept columns are used only while they hold exactly the
`graded` rows the locked comparison row counts (another worker's batch, or a batch that did
not commit, makes them stale and they are read again from the grade rows), so what a batch
decides on is always what the database holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

import numpy as np
import numpy.typing as npt
from cachetools import LRUCache

from stats._arrays import FloatArray

KEPT: Final = 64
"""Comparisons whose columns one process keeps (least recently graded dropped first)."""
MICROS_PER_CENT: Final = 10_000


@dataclass(frozen=True, slots=True)
class Grade:
    """One graded trace, in arrival order."""

    release: str
    passed: float | None
    failed_or_missing: bool
    cost_micros: int
    output_tokens: int
    duration_ms: float
    graded_at: datetime


@dataclass(frozen=True, slots=True)
class History:
    """Every grade so far in arrival order: `arm` is the index in (candidate, *baselines),
    `passed` NaN where a trace has no quality value, `graded_at` in epoch seconds."""

    releases: tuple[str, ...]
    arm: npt.NDArray[np.int16]
    passed: FloatArray
    failed: FloatArray
    cost_cents: FloatArray
    output_tokens: FloatArray
    duration_ms: FloatArray
    graded_at: FloatArray

    @property
    def graded(self) -> int:
        return int(self.arm.size)

    @classmethod
    def empty(cls, releases: Sequence[str]) -> History:
        none = np.empty(0, dtype=np.float64)
        return cls(tuple(releases), np.empty(0, dtype=np.int16), none, none, none, none, none, none)

    def extended(self, grades: Sequence[Grade]) -> History:
        """These columns with `grades` appended (a new value; this one is unchanged)."""
        if not grades:
            return self
        index = {release: n for n, release in enumerate(self.releases)}
        new = (
            np.array([index.get(g.release, -1) for g in grades], dtype=np.int16),
            np.array([np.nan if g.passed is None else g.passed for g in grades], dtype=np.float64),
            np.array([1.0 if g.failed_or_missing else 0.0 for g in grades], dtype=np.float64),
            np.array([g.cost_micros / MICROS_PER_CENT for g in grades], dtype=np.float64),
            np.array([float(g.output_tokens) for g in grades], dtype=np.float64),
            np.array([float(g.duration_ms) for g in grades], dtype=np.float64),
            np.array([g.graded_at.timestamp() for g in grades], dtype=np.float64),
        )
        old = (
            self.arm, self.passed, self.failed, self.cost_cents, self.output_tokens,
            self.duration_ms, self.graded_at,
        )  # fmt: skip
        arm, passed, failed, cost, tokens, duration, at = (
            np.concatenate([o, n]) for o, n in zip(old, new, strict=True)
        )
        return History(self.releases, arm, passed, failed, cost, tokens, duration, at)


_kept: LRUCache[str, History] = LRUCache(maxsize=KEPT)


def kept(live_id: str, *, graded: int, releases: Sequence[str]) -> History | None:
    """The kept columns when they hold exactly `graded` rows of these arms, else None."""
    found = _kept.get(live_id)
    if found is None or found.graded != graded or found.releases != tuple(releases):
        return None
    return found


def keep(live_id: str, history: History) -> None:
    """Keep the columns after the batch that made them committed."""
    _kept[live_id] = history


def forget(live_id: str) -> None:
    """Drop a comparison's columns (it ended: no batch will read them)."""
    _kept.pop(live_id, None)
