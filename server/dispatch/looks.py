"""Sequential looks during dispatch (docs/statistics.md, "Sequential stopping").

The cases of a sequential comparison are frozen in a seeded random order (their ordinals,
`server.comparisons.stopping`). The sequence of a baseline is, over the *complete prefix*
— the cases 0 … L−1 in ordinal order whose every trial of every cohort has its outcome —
the usable cases' paired differences of pass fractions (candidate − baseline, each in
[−1, 1]). A look is due at `minCases`, then every `lookEveryCases` cases of that prefix
(never at the last case: a run that gets there ends as usual). At a look each baseline's
hedged betting sequence (`stats.sequential`, level α ÷ baselines) is read at the look's
case count; when every baseline is decided the run's pending stop becomes DECIDED_EARLY,
which every delivery sees at its next admission, as it sees a cap.

The looks depend only on the recorded trials of the prefix, never on when a delivery
happens to look, so every delivery (and the test) finds the same stop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.checks import calls_per_trial
from server.comparisons import stopping as stopping_option
from server.comparisons.look_state import BaselineLook, LookState
from server.comparisons.models import Comparison, ComparisonStatus, StopReason, Trial, TrialState
from server.comparisons.stopping import StoppingSpec
from stats.sequential import betting_cs, look_at

logger = logging.getLogger("shipwise.dispatch")


def due_points(spec: StoppingSpec, *, after: int, upto: int, case_count: int) -> list[int]:
    """Look points p (minCases + k · lookEveryCases) with after < p ≤ upto and p < case_count."""
    points = []
    p = next_point(spec, after)
    while p <= upto and p < case_count:
        points.append(p)
        p += spec.look_every_cases
    return points


def next_point(spec: StoppingSpec, after: int) -> int:
    """The first look point (minCases + k · lookEveryCases) beyond `after` cases."""
    if after < spec.min_cases:
        return spec.min_cases
    return spec.min_cases + ((after - spec.min_cases) // spec.look_every_cases + 1) * (
        spec.look_every_cases
    )


@dataclass(frozen=True, slots=True)
class Prefix:
    """The complete prefix: its length and each cohort's per-case pass fractions there."""

    length: int
    fractions: npt.NDArray[np.float64]
    """Cohorts × cases; NaN where a cohort has no completed trial of the case."""


def complete_prefix(
    rows: Sequence[tuple[int, int, str, bool | None]], *, cohorts: int, trials: int, upto: int
) -> Prefix:
    """From (case ordinal, cohort, state, passed) rows of cases < `upto`: the longest run of
    cases from 0 with every trial recorded, and the pass fractions over it."""
    size = max(upto, 0)
    recorded = np.zeros(size, dtype=np.int64)
    completed = np.zeros((cohorts, size), dtype=np.int64)
    passed = np.zeros((cohorts, size), dtype=np.int64)
    for ordinal, cohort, state, ok in rows:
        if ordinal >= size or state == TrialState.ADMITTED:
            continue
        recorded[ordinal] += 1
        if state == TrialState.COMPLETED:
            completed[cohort, ordinal] += 1
            passed[cohort, ordinal] += int(bool(ok))
    short = np.flatnonzero(recorded < cohorts * trials)
    length = int(short[0]) if short.size else size
    with np.errstate(invalid="ignore", divide="ignore"):
        fractions = np.where(
            completed[:, :length] > 0, passed[:, :length] / completed[:, :length], np.nan
        )
    return Prefix(length, fractions)


def evaluate(
    prefix: Prefix,
    *,
    spec: StoppingSpec,
    state: LookState,
    case_count: int,
    epsilon: float,
    target_effect: float,
) -> LookState:
    """The looks due over `prefix` after `state`, in order, up to the first that decides
    every baseline (pure; CPU)."""
    points = due_points(
        spec, after=state.last_look_cases, upto=prefix.length, case_count=case_count
    )
    if not points or state.decided:
        return state
    baselines = prefix.fractions.shape[0] - 1
    level = spec.alpha / max(1, baselines)
    usable = ~np.isnan(prefix.fractions).any(axis=0)
    positions = np.cumsum(usable)  # usable cases among the first k+1
    sequences = []
    for b in range(1, baselines + 1):
        x = (prefix.fractions[0] - prefix.fractions[b])[usable]
        low, high = betting_cs(np.clip(x, -1.0, 1.0), level)
        sequences.append((x, low, high))
    looks, seen = state.looks, state.baselines
    for point in points:
        n = int(positions[point - 1]) if point > 0 else 0
        looks += 1
        found = [
            look_at(x, low, high, n, alpha=level, epsilon=epsilon, target_effect=target_effect)
            for x, low, high in sequences
        ]
        seen = tuple(
            BaselineLook(b + 1, d.outcome, d.low, d.high, n, p) for b, (d, p) in enumerate(found)
        )
        if all(look.outcome is not None for look in seen):
            return LookState(looks, point, True, point, seen)
    return LookState(looks, points[-1], False, None, seen)


class Looks:
    """One delivery's looks: after each record, look if a look may be due."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        comparison: Comparison,
        *,
        cohorts: int,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.comparison_id = comparison.id
        self.spec = stopping_option.from_stored(comparison.stopping, comparison.case_order_seed)
        self.cohorts = cohorts
        self.trials = comparison.trials_per_case
        self.per_trial = calls_per_trial(comparison.checks)
        self.case_count = comparison.case_count
        self.epsilon = comparison.epsilon_points / 100.0
        self.target_effect = comparison.target_effect_points / 100.0
        self.state = LookState.from_json(comparison.looks)
        self.active = self.spec is not None and self.spec.sequential and not self.state.decided
        self.retry_at = 0
        """Recorded trials before looking again at a prefix found short (in-flight calls)."""

    async def after_record(self, *, done_calls: int) -> None:
        """Look when the recorded trials could complete the next look's prefix; a failed
        look is logged and tried again at a later record."""
        if not self.active or self.spec is None:
            return
        try:
            await self._look(done_calls // self.per_trial)
        except Exception as exc:
            logger.warning("sequential look failed", extra={"error_type": type(exc).__name__})

    async def _look(self, recorded_trials: int) -> None:
        assert self.spec is not None
        per_case = self.cohorts * self.trials
        due = next_point(self.spec, self.state.last_look_cases) * per_case
        if recorded_trials < max(due, self.retry_at):
            return
        self.retry_at = recorded_trials + per_case * max(1, self.spec.look_every_cases // 5)
        upto = min(self.case_count, recorded_trials // per_case)
        async with self.sessionmaker() as session:
            rows = (
                await session.execute(
                    select(Trial.case_ordinal, Trial.cohort_index, Trial.state, Trial.passed).where(
                        Trial.comparison_id == self.comparison_id, Trial.case_ordinal < upto
                    )
                )
            ).all()
        loop = asyncio.get_running_loop()
        found = await loop.run_in_executor(None, self._evaluate, rows, upto)
        if found is self.state:
            return
        async with self.sessionmaker() as session, session.begin():
            self.state = await self._store(session, found)
        self.active = not self.state.decided

    def _evaluate(self, rows: Sequence[Any], upto: int) -> LookState:
        assert self.spec is not None
        prefix = complete_prefix(
            [tuple(row) for row in rows], cohorts=self.cohorts, trials=self.trials, upto=upto
        )
        return evaluate(
            prefix,
            spec=self.spec,
            state=self.state,
            case_count=self.case_count,
            epsilon=self.epsilon,
            target_effect=self.target_effect,
        )

    async def _store(self, session: AsyncSession, found: LookState) -> LookState:
        """Keep the furthest looks (another delivery may have looked meanwhile); a decision
        becomes the pending stop unless another stop came first."""
        comparison = (
            await session.execute(
                select(Comparison)
                .where(Comparison.id == self.comparison_id)
                .with_for_update()
                .execution_options(populate_existing=True)
            )
        ).scalar_one()
        current = LookState.from_json(comparison.looks)
        if current.decided or current.last_look_cases >= found.last_look_cases:
            return current
        if found.decided and (
            comparison.status != ComparisonStatus.RUNNING or comparison.pending_stop is not None
        ):
            found = LookState(found.looks, found.last_look_cases, False, None, found.baselines)
        comparison.looks = found.to_json()
        if found.decided:
            comparison.pending_stop = StopReason.DECIDED_EARLY.value
        return found
