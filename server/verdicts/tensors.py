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


def build(data: FinalizeInput) -> Tensors:
    """Count matrices from the trial rows (every ERRORED trial alike: failed or missing)."""
    shape = (len(data.cohorts), len(data.cases))
    kinds = sorted({str(spec.get("kind")) for spec in data.checks})
    judge_slots = [
        (index, str(spec["rubricVersionId"]))
        for index, spec in enumerate(data.checks)
        if spec.get("kind") == CheckKind.JUDGE_RUBRIC
        and spec["rubricVersionId"] in data.score_rubrics
    ]
    rows = np.zeros(shape, dtype=np.int64)
    completed = np.zeros(shape, dtype=np.int64)
    passed = np.zeros(shape, dtype=np.int64)
    cost = np.zeros(shape)
    latency = np.zeros(shape)
    tokens = np.zeros(shape)
    score = np.zeros(shape)
    kind_passed = {kind: np.zeros(shape, dtype=np.int64) for kind in kinds}
    judge_sum = {rubric: np.zeros(shape) for _, rubric in judge_slots}
    judge_count = {rubric: np.zeros(shape, dtype=np.int64) for _, rubric in judge_slots}
    done: list[TrialInfo] = []
    for trial in data.trials:
        at = (trial.cohort_index, trial.case_ordinal)
        rows[at] += 1
        cost[at] += trial.cost_micros
        if not trial.completed:
            continue
        done.append(trial)
        completed[at] += 1
        passed[at] += bool(trial.passed)
        latency[at] += trial.latency_ms
        tokens[at] += trial.output_tokens
        score[at] += trial.score if trial.score is not None else float(bool(trial.passed))
        results = trial.check_results or []
        for kind in kinds:
            kind_passed[kind][at] += all(r.get("passed") for r in results if r.get("kind") == kind)
        for index, rubric in judge_slots:
            if index < len(results) and results[index].get("score") is not None:
                judge_sum[rubric][at] += float(results[index]["score"])
                judge_count[rubric][at] += 1
    return Tensors(
        cohorts=shape[0],
        cases=shape[1],
        scheduled=data.trials_per_case,
        rows=rows,
        completed=completed,
        passed=passed,
        cost_micros=cost,
        latency_ms=latency,
        output_tokens=tokens,
        score=score,
        kind_passed=kind_passed,
        judge_sum=judge_sum,
        judge_count=judge_count,
        trial_cohort=np.fromiter((t.cohort_index for t in done), np.int64, len(done)),
        trial_case=np.fromiter((t.case_ordinal for t in done), np.int64, len(done)),
        trial_latency=np.fromiter((t.latency_ms for t in done), np.float64, len(done)),
    )
