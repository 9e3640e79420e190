"""Trial rows as cohorts × cases count matrices: the integer counts `stats/` works on.

A case *ran* when every cohort dispatched all its trials (a stopped run leaves the cases it
never reached, and at most a few half-dispatched ones, which are not run: the balanced set).
A case is *usable* when it ran and every cohort completed at least one trial of it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from server.checks import CheckKind
from server.verdicts.inputs import FinalizeInput, TrialInfo

IntMatrix = npt.NDArray[np.int64]
FloatMatrix = npt.NDArray[np.float64]


def evaluator_names(checks: list[dict[str, Any]]) -> list[str]:
    """Each check's evaluator name in a run item: its kind, or `judge_score.<rubric>`;
    a repeated name gets `#2`, `#3`…"""
    names: list[str] = []
    seen: Counter[str] = Counter()
    for spec in checks:
        kind = str(spec.get("kind"))
        base = f"judge_score.{spec['rubricVersionId']}" if kind == CheckKind.JUDGE_RUBRIC else kind
        seen[base] += 1
        names.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return names


@dataclass(frozen=True, slots=True)
class Tensors:
    cohorts: int
    cases: int
    scheduled: int
    rows: IntMatrix
    """Trial rows (dispatched trials) per cohort and case."""
    completed: IntMatrix
    passed: IntMatrix
    cost_micros: FloatMatrix
    """Summed over every dispatched trial (an errored call may still have cost)."""
    latency_ms: FloatMatrix
    """Summed over completed trials, as are `output_tokens` and `score`."""
    output_tokens: FloatMatrix
    score: FloatMatrix
    kind_passed: dict[str, IntMatrix]
    """Per check kind: completed trials whose checks of that kind all passed."""
    judge_sum: dict[str, FloatMatrix]
    """Per SCORE_0_1 rubric: the judge scores of completed trials, summed."""
    judge_count: dict[str, IntMatrix]
    trial_cohort: npt.NDArray[np.int64]
    """Completed trials, flat: cohort, case ordinal and latency of each."""
    trial_case: npt.NDArray[np.int64]
    trial_latency: FloatMatrix

    @property
    def ran(self) -> npt.NDArray[np.bool_]:
        return np.asarray(np.all(self.rows >= self.scheduled, axis=0), dtype=np.bool_)

    @property
    def usable(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.ran & np.all(self.completed > 0, axis=0), dtype=np.bool_)


def _columns(trials: list[TrialInfo]) -> dict[str, tuple[Any, ...]]:
    """Each field of the trial rows as one tuple, by transposing the rows once: a lambda
    per trial and field over 45,000 rows took 0.3 s here."""
    columns = list(zip(*trials, strict=True)) if trials else [()] * len(TrialInfo._fields)
    return dict(zip(TrialInfo._fields, columns, strict=True))


def _floats(values: tuple[Any, ...]) -> npt.NDArray[np.float64]:
    """Numbers as float64, None as NaN."""
    return np.array(values, dtype=np.float64).reshape(len(values))


class Accumulator:
    """The count matrices, summed a slice of trial rows at a time (`add`): what it holds is
    the matrices (cohorts × cases) and three numbers per completed trial in numpy, never the
    rows themselves."""

    def __init__(self, data: FinalizeInput) -> None:
        self.data = data
        shape = (len(data.cohorts), len(data.cases))
        self.shape = shape
        self.rows = np.zeros(shape, dtype=np.int64)
        self.completed = np.zeros(shape, dtype=np.int64)
        self.passed = np.zeros(shape, dtype=np.int64)
        self.cost_micros = np.zeros(shape, dtype=np.float64)
        self.latency_ms = np.zeros(shape, dtype=np.float64)
        self.output_tokens = np.zeros(shape, dtype=np.float64)
        self.score = np.zeros(shape, dtype=np.float64)
        self.kinds: dict[str, list[int]] = {}
        for index, spec in enumerate(data.checks):
            self.kinds.setdefault(str(spec.get("kind")), []).append(index)
        self.kind_passed = {kind: np.zeros(shape, dtype=np.int64) for kind in sorted(self.kinds)}
        self.judged = {
            index: str(spec.get("rubricVersionId"))
            for index, spec in enumerate(data.checks)
            if spec.get("kind") == CheckKind.JUDGE_RUBRIC
            and str(spec.get("rubricVersionId")) in data.score_rubrics
        }
        self.judge_sum = {r: np.zeros(shape, dtype=np.float64) for r in self.judged.values()}
        self.judge_count = {r: np.zeros(shape, dtype=np.int64) for r in self.judged.values()}
        self._cohort: list[npt.NDArray[np.int64]] = []
        self._case: list[npt.NDArray[np.int64]] = []
        self._latency: list[FloatMatrix] = []

    def add(self, trials: list[TrialInfo]) -> None:
        """Sum a slice of trial rows into the matrices (every ERRORED trial alike: failed or
        missing)."""
        if not trials:
            return
        column = _columns(trials)
        count = len(trials)
        cohort = np.array(column["cohort_index"], dtype=np.int64).reshape(count)
        case = np.array(column["case_ordinal"], dtype=np.int64).reshape(count)
        done = np.array(column["completed"], dtype=np.bool_).reshape(count)
        at, at_done = (cohort, case), (cohort[done], case[done])

        def add_done(out: npt.NDArray[Any], values: npt.NDArray[Any]) -> None:
            np.add.at(out, at_done, values[done])

        np.add.at(self.rows, at, 1)
        np.add.at(self.completed, at_done, 1)
        # bool(None) is False: an ungraded trial does not pass.
        passed = np.array(column["passed"], dtype=np.bool_).reshape(count).astype(np.int64)
        add_done(self.passed, passed)
        given = _floats(column["score"])
        add_done(self.score, np.where(np.isnan(given), passed, given))
        np.add.at(self.cost_micros, at, _floats(column["cost_micros"]))
        latency = _floats(column["latency_ms"])
        add_done(self.latency_ms, latency)
        add_done(self.output_tokens, _floats(column["output_tokens"]))
        checks = len(self.data.checks)
        check_passed = np.array(
            [row[:checks] for row in column["check_passed"]], dtype=np.bool_
        ).reshape(count, checks)
        for kind, indices in self.kinds.items():
            add_done(
                self.kind_passed[kind],
                np.all(check_passed[:, indices], axis=1).astype(np.int64),
            )
        for index, rubric in self.judged.items():
            values = _floats(tuple(row[index] for row in column["check_scores"]))
            graded = ~np.isnan(values)
            add_done(self.judge_sum[rubric], np.where(graded, values, 0.0))
            add_done(self.judge_count[rubric], graded.astype(np.int64))
        self._cohort.append(cohort[done])
        self._case.append(case[done])
        self._latency.append(latency[done])

    def result(self) -> Tensors:
        def joined(parts: list[npt.NDArray[Any]], dtype: Any) -> npt.NDArray[Any]:
            return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)

        return Tensors(
            cohorts=self.shape[0],
            cases=self.shape[1],
            scheduled=self.data.trials_per_case,
            rows=self.rows,
            completed=self.completed,
            passed=self.passed,
            cost_micros=self.cost_micros,
            latency_ms=self.latency_ms,
            output_tokens=self.output_tokens,
            score=self.score,
            kind_passed=self.kind_passed,
            judge_sum=self.judge_sum,
            judge_count=self.judge_count,
            trial_cohort=joined(self._cohort, np.int64),
            trial_case=joined(self._case, np.int64),
            trial_latency=joined(self._latency, np.float64),
        )


def build(data: FinalizeInput, trials: list[TrialInfo]) -> Tensors:
    """The count matrices of `trials` in one slice."""
    accumulator = Accumulator(data)
    accumulator.add(trials)
    return accumulator.result()
