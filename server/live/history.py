"""A live comparison's grades so far, kept between grading batches (docs/live.md).

A batch used to read every grade row of its comparison back to decide again: O(n) rows a
batch, O(n²) over a canary's life. Now the worker keeps each comparison's grades and a
batch appends its own. What is kept is what the figures read, and no more:

- each arm's columns in growing buffers (no copy of every column a batch): its quality
  values, error flags (one byte), costs, output tokens and latencies (the p95 and the ratio
  criteria need every value); when each quality value was graded as runs (a batch's grades
  share one time), so about 33 bytes a trace;
- each baseline's quality and FAILED_OR_MISSING sequences against the candidate as running
  betting sequences (`stats/live/running.py`): a batch moves them over its own pairs only,
  in memory that does not grow, where recomputing them from every pair was O(n) a batch.

The kept grades are used only while they hold exactly the `graded` rows the locked
comparison row counts (another worker's batch, or a batch that did not commit, makes them
stale and they are read again from the grade rows), so what a batch decides on is always
what the database holds. A batch takes the kept grades out (`kept`) and puts them back once
it committed (`keep`): a batch that fails leaves nothing behind.
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
from stats.live.running import RunningBets, RunningDifference, carried_sums

KEPT: Final = 64
"""Comparisons whose grades one process keeps (least recently graded dropped first)."""
MICROS_PER_CENT: Final = 10_000
FIRST_CAPACITY: Final = 1024
GROWTH: Final = 1.5


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


class Column:
    """A growing one-dimensional buffer; `values` is a view of what was appended."""

    __slots__ = ("_data", "size")

    def __init__(self, dtype: type[np.generic] = np.float64) -> None:
        self._data: npt.NDArray[np.generic] = np.empty(FIRST_CAPACITY, dtype=dtype)
        self.size = 0

    def append(self, values: npt.ArrayLike) -> None:
        new = np.asarray(values, dtype=self._data.dtype).reshape(-1)
        need = self.size + new.size
        if need > self._data.size:
            grown = np.empty(max(need, int(self._data.size * GROWTH)), dtype=self._data.dtype)
            grown[: self.size] = self._data[: self.size]
            self._data = grown
        self._data[self.size : need] = new
        self.size = need

    @property
    def values(self) -> npt.NDArray[np.generic]:
        return self._data[: self.size]

    @property
    def floats(self) -> FloatArray:
        """The values as float64 (a view when they are float64 already)."""
        return np.asarray(self.values, dtype=np.float64)


class ArmColumns:
    """One arm's grades in arrival order; `quality` only where a trace has a value."""

    __slots__ = (
        "costs", "errors", "latencies", "output_tokens", "quality", "run_starts", "run_times",
    )  # fmt: skip

    def __init__(self) -> None:
        self.quality, self.costs = Column(), Column()
        self.errors = Column(np.uint8)
        self.output_tokens, self.latencies = Column(), Column()
        self.run_starts, self.run_times = Column(np.int64), Column()  # quality values' times

    @property
    def traces(self) -> int:
        return self.errors.size

    def append(self, grades: Sequence[Grade]) -> None:
        quality = [g.passed for g in grades if g.passed is not None]
        times = np.array(
            [g.graded_at.timestamp() for g in grades if g.passed is not None], dtype=np.float64
        )
        if times.size:
            last = self.run_times.values[-1] if self.run_times.size else np.nan
            changes = np.flatnonzero(times != np.concatenate([[last], times[:-1]]))
            self.run_starts.append(self.quality.size + changes)
            self.run_times.append(times[changes])
        self.quality.append(quality)
        self.errors.append([1 if g.failed_or_missing else 0 for g in grades])
        self.costs.append([g.cost_micros / MICROS_PER_CENT for g in grades])
        self.output_tokens.append([float(g.output_tokens) for g in grades])
        self.latencies.append([float(g.duration_ms) for g in grades])

    def quality_times(self, indices: npt.NDArray[np.int64]) -> FloatArray:
        """When the quality values at these indices were graded (epoch seconds)."""
        runs = np.searchsorted(self.run_starts.values, indices, side="right") - 1
        times: FloatArray = self.run_times.floats[runs]
        return times


def _unit(values: FloatArray) -> FloatArray:
    clipped: FloatArray = np.clip(values, 0.0, 1.0)
    return clipped


class History:
    """Every grade so far: `releases` are the arms (candidate, *baselines); `alpha` the
    level of the running sequences (1 − alpha, the policy's 2α)."""

    __slots__ = (
        "alpha", "arms", "error_sums", "errors", "graded", "quality", "quality_sums", "releases",
    )  # fmt: skip

    def __init__(self, releases: Sequence[str], alpha: float) -> None:
        self.releases = tuple(releases)
        self.alpha = alpha
        self.graded = 0
        self.arms = [ArmColumns() for _ in self.releases]
        baselines = range(len(self.releases) - 1)
        self.quality = [RunningBets(alpha) for _ in baselines]
        self.errors = [RunningBets(alpha) for _ in baselines]
        # The running sums of the matched differences: every one for the drawn quality
        # sequence's estimates, the last one for FAILED_OR_MISSING.
        self.quality_sums = [Column() for _ in baselines]
        self.error_sums = [0.0 for _ in baselines]

    @classmethod
    def empty(cls, releases: Sequence[str], alpha: float) -> History:
        return cls(releases, alpha)

    def extend(self, grades: Sequence[Grade]) -> History:
        """Append `grades` (in arrival order; a grade of no arm is counted only) and move
        the running sequences over the new pairs; returns this history."""
        index = {release: n for n, release in enumerate(self.releases)}
        mine: list[list[Grade]] = [[] for _ in self.releases]
        for grade in grades:
            arm = index.get(grade.release)
            if arm is not None:
                mine[arm].append(grade)
        for columns, found in zip(self.arms, mine, strict=True):
            if found:
                columns.append(found)
        self.graded += len(grades)
        candidate = self.arms[0]
        for n, baseline in enumerate(self.arms[1:]):
            new = _pair(self.quality[n], candidate.quality, baseline.quality)
            if new.size:
                so_far = self.quality_sums[n]
                last = float(so_far.values[-1]) if so_far.size else 0.0
                so_far.append(carried_sums(last, new))
            new = _pair(self.errors[n], candidate.errors, baseline.errors)
            if new.size:
                self.error_sums[n] = float(carried_sums(self.error_sums[n], new)[-1])
        return self

    def running(self, n: int) -> tuple[RunningDifference, RunningDifference]:
        """Baseline n's quality and FAILED_OR_MISSING sequences against the candidate."""
        quality = RunningDifference(self.quality[n], self.quality_sums[n].floats)
        errors = RunningDifference(self.errors[n], np.array([self.error_sums[n]]))
        return quality, errors


def _pair(bets: RunningBets, candidate: Column, baseline: Column) -> FloatArray:
    """Move `bets` over the new pairs (the i-th candidate value against the i-th baseline
    value) and return their differences."""
    pairs = min(candidate.size, baseline.size)
    new = slice(bets.count, max(pairs, bets.count))
    cand = np.asarray(candidate.values[new], dtype=np.float64)
    base = np.asarray(baseline.values[new], dtype=np.float64)
    differences = _unit(cand) - _unit(base)
    bets.extend(differences)
    return differences


_kept: LRUCache[str, History] = LRUCache(maxsize=KEPT)


def kept(live_id: str, *, graded: int, releases: Sequence[str], alpha: float) -> History | None:
    """The kept grades, taken out, when they hold exactly `graded` rows of these arms at
    this level, else None."""
    found = _kept.pop(live_id, None)
    if found is None or found.graded != graded or found.releases != tuple(releases):
        return None
    return found if found.alpha == alpha else None


def keep(live_id: str, history: History) -> None:
    """Keep the grades after the batch that made them committed."""
    _kept[live_id] = history


def forget(live_id: str) -> None:
    """Drop a comparison's grades (it ended: no batch will read them)."""
    _kept.pop(live_id, None)
