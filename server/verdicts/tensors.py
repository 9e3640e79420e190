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


def build(data: FinalizeInput) -> Tensors:
    """Count matrices from the trial rows (every ERRORED trial alike: failed or missing)."""
    shape = (len(data.cohorts), len(data.cases))
    column = _columns(data.trials)
    count = len(data.trials)
    cohort = np.array(column["cohort_index"], dtype=np.int64).reshape(count)
    case = np.array(column["case_ordinal"], dtype=np.int64).reshape(count)
    done = np.array(column["completed"], dtype=np.bool_).reshape(count)

    def total(values: npt.NDArray[Any], dtype: Any, only_done: bool = True) -> npt.NDArray[Any]:
        out = np.zeros(shape, dtype=dtype)
        keep = done if only_done else np.ones(count, dtype=np.bool_)
        np.add.at(out, (cohort[keep], case[keep]), values[keep])
        return out

    ones = np.ones(count, dtype=np.int64)
    # bool(None) is False: an ungraded trial does not pass.
    passed = np.array(column["passed"], dtype=np.bool_).reshape(count).astype(np.int64)
    given = _floats(column["score"])
    score = np.where(np.isnan(given), passed, given)
    checks = len(data.checks)
    check_passed = np.array(
        [row[:checks] for row in column["check_passed"]], dtype=np.bool_
    ).reshape(count, checks)
    kinds: dict[str, list[int]] = {}
    for index, spec in enumerate(data.checks):
        kinds.setdefault(str(spec.get("kind")), []).append(index)
    kind_passed = {
        kind: total(np.all(check_passed[:, indices], axis=1).astype(np.int64), np.int64)
        for kind, indices in sorted(kinds.items())
    }
    judge_sum: dict[str, FloatMatrix] = {}
    judge_count: dict[str, IntMatrix] = {}
    for index, spec in enumerate(data.checks):
        rubric = str(spec.get("rubricVersionId"))
        if spec.get("kind") != CheckKind.JUDGE_RUBRIC or rubric not in data.score_rubrics:
            continue
        values = _floats(tuple(row[index] for row in column["check_scores"]))
        graded = ~np.isnan(values)
        judge_sum[rubric] = total(np.where(graded, values, 0.0), np.float64)
        judge_count[rubric] = total(graded.astype(np.int64), np.int64)
    latency = _floats(column["latency_ms"])
    return Tensors(
        cohorts=shape[0],
        cases=shape[1],
        scheduled=data.trials_per_case,
        rows=total(ones, np.int64, only_done=False),
        completed=total(ones, np.int64),
        passed=total(passed, np.int64),
        cost_micros=total(_floats(column["cost_micros"]), np.float64, False),
        latency_ms=total(latency, np.float64),
        output_tokens=total(_floats(column["output_tokens"]), np.float64),
        score=total(score, np.float64),
        kind_passed=kind_passed,
        judge_sum=judge_sum,
        judge_count=judge_count,
        trial_cohort=cohort[done],
        trial_case=case[done],
        trial_latency=latency[done],
    )
