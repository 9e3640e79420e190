"""The rows finalization writes: one hosted run per cohort (RUNNING until its items are
written), its items and evaluator scores (the shape `server/runs/models.py` documents,
written by `server.verdicts.hosted_runs` after the verdict), and the case rows."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

import stats
from server.ids import new_id
from server.runs.models import RunSource, RunStatus
from server.verdicts.inputs import CaseInfo, FinalizeInput, TrialInfo
from server.verdicts.scorecard import Scored
from server.verdicts.tensors import Tensors, evaluator_names


@dataclass(frozen=True, slots=True)
class HostedItems:
    items: list[dict[str, Any]]
    scores: list[dict[str, Any]]


def _trial_json(trial: TrialInfo, names: list[str]) -> dict[str, Any]:
    evaluators: dict[str, float] = {}
    if trial.completed:
        for name, score in zip(names, trial.check_scores, strict=False):
            if score is not None:
                evaluators[name] = score
    return {
        "trialIndex": trial.trial_index,
        "passed": trial.passed if trial.completed else None,
        "evaluators": evaluators,
        "output": trial.output,
        "metrics": {
            "tokens": trial.input_tokens + trial.output_tokens,
            "turns": 1,
            "toolCalls": trial.tool_calls,
            "wallMs": trial.latency_ms,
            "errors": 0 if trial.completed else 1,
            "costUsd": trial.cost_micros / 1_000_000,
            "outputTokens": trial.output_tokens,
        },
        "errorCode": trial.error_code,
        "latencyMs": trial.latency_ms,
        "inputTokens": trial.input_tokens,
        "outputTokens": trial.output_tokens,
        "costMicros": trial.cost_micros,
    }


def run_rows(data: FinalizeInput, now: datetime) -> list[dict[str, Any]]:
    """One hosted run per cohort, RUNNING and without items: the verdict's transaction writes
    these, and `server.verdicts.hosted_runs` adds the items and completes them."""
    return [
        {
            "id": new_id("run"),
            "workspace_id": data.workspace_id,
            "experiment_id": data.experiment_id,
            "source": RunSource.HOSTED,
            "status": RunStatus.RUNNING,
            "item_count": 0,
            "metadata": {
                "comparisonId": data.comparison_id,
                "cohortIndex": cohort.index,
                "label": cohort.label,
                "releaseId": cohort.release_id,
                "isCandidate": cohort.index == 0,
                "datasetVersionId": data.dataset_version_id,
                "split": data.split,
                "trialsPerCase": data.trials_per_case,
                "checks": data.checks,
            },
            "comparison_id": data.comparison_id,
            "cohort_index": cohort.index,
            "created_by_member_id": data.started_by_member_id,
            "created_at": now,
            "completed_at": None,
        }
        for cohort in data.cohorts
    ]


def hosted_items(
    data: FinalizeInput,
    cases: Sequence[CaseInfo],
    trials: Sequence[TrialInfo],
    ran: frozenset[int],
    run_ids: dict[int, str],
) -> HostedItems:
    """For a slice of cases and their trials: an item per case that ran (position = its
    ordinal) in each cohort's run (`run_ids` by cohort index) with its trials, and each
    item's mean score per evaluator."""
    names = evaluator_names(data.checks)
    grouped: dict[tuple[int, int], list[TrialInfo]] = defaultdict(list)
    for trial in trials:
        if trial.case_ordinal in ran:
            grouped[(trial.cohort_index, trial.case_ordinal)].append(trial)
    items: list[dict[str, Any]] = []
    scores: list[dict[str, Any]] = []
    for cohort in data.cohorts:
        run_id = run_ids[cohort.index]
        for case in cases:
            if case.ordinal not in ran:
                continue
            trials = grouped[(cohort.index, case.ordinal)]
            documents = [_trial_json(trial, names) for trial in trials]
            graded = [d for d in documents if d["passed"] is not None]
            items.append(
                {
                    "run_id": run_id,
                    "position": case.ordinal,
                    "dataset_item_id": case.dataset_item_id,
                    "input": case.input,
                    "trials": documents,
                    "trial_count": len(documents),
                    "graded_count": len(graded),
                    "passed_count": sum(1 for d in graded if d["passed"]),
                }
            )
            scores.extend(_scores(run_id, case.ordinal, graded))
    return HostedItems(items, scores)


def _scores(run_id: str, position: int, graded: list[dict[str, Any]]) -> list[dict[str, Any]]:
    sums: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for document in graded:
        for name, value in document["evaluators"].items():
            sums[name] += value
            counts[name] += 1
    return [
        {
            "run_id": run_id,
            "position": position,
            "evaluator": name,
            "mean": sums[name] / counts[name],
            "count": counts[name],
        }
        for name in sums
    ]


def _listed(values: np.ndarray[Any, Any]) -> list[list[Any]]:
    """A matrix as nested lists of Python numbers, NaN as None (one `tolist`, where indexing
    numpy scalars one by one took 0.2 s over 5,000 cases)."""
    return [[None if v != v else v for v in row] for row in values.tolist()]


CASE_ROWS_CHUNK = 5000
"""Case rows built and written at a time (`case_row_chunks`)."""


def case_row_chunks(
    data: FinalizeInput, t: Tensors, scored: Scored
) -> Iterator[list[dict[str, Any]]]:
    """The case rows, `CASE_ROWS_CHUNK` cases at a time: one slice's rows exist at once."""
    size = CASE_ROWS_CHUNK
    ran = np.asarray(scored.ran, dtype=np.bool_)
    before = np.concatenate(([0], np.cumsum(ran)))  # cases that ran before each ordinal
    for low in range(0, len(data.cases), size):
        high = min(low + size, len(data.cases))
        rows = case_rows(data, t, scored, low, high, ran_before=int(before[low]))
        if rows:
            yield rows


def _slice(values: np.ndarray[Any, Any], low: int, high: int) -> list[list[Any]]:
    return _listed(values[:, low:high])


def case_rows(
    data: FinalizeInput,
    t: Tensors,
    scored: Scored,
    low: int = 0,
    high: int | None = None,
    *,
    ran_before: int = 0,
) -> list[dict[str, Any]]:
    """A row per case that ran among cases `low` ≤ ordinal < `high` (`ran_before`: how many
    ran below `low`): its class, its relation bits per baseline, cohort summaries."""
    high = len(data.cases) if high is None else high
    fraction = _slice(stats.case_means(t.passed, t.completed), low, high)
    score = _slice(stats.case_means(t.score, t.completed), low, high)
    latency = _slice(stats.case_means(t.latency_ms, t.completed), low, high)
    tokens = _slice(stats.case_means(t.output_tokens, t.completed), low, high)
    cost = _slice(stats.case_means(t.cost_micros, t.rows), low, high)
    trials = t.rows[:, low:high].tolist()
    completed = t.completed[:, low:high].tolist()
    passed = t.passed[:, low:high].tolist()
    ran = scored.ran.tolist()
    count = sum(ran[low:high])
    relations = scored.relations.T[ran_before : ran_before + count].tolist()
    rows: list[dict[str, Any]] = []
    ran_index = ran_before
    for case in data.cases[low:high]:
        i = case.ordinal
        if not ran[i]:
            continue
        j = i - low
        worse = better = 0
        for offset, relation in enumerate(relations[ran_index - ran_before]):
            bit = 1 << (offset + 1)
            worse |= bit if relation < 0 else 0
            better |= bit if relation > 0 else 0
        rows.append(
            {
                "comparison_id": data.comparison_id,
                "ordinal": i,
                "dataset_case_id": case.dataset_case_id,
                "dataset_item_id": case.dataset_item_id,
                "classification": scored.classifications[ran_index],
                "worse_mask": worse,
                "better_mask": better,
                "cohorts": [
                    {
                        "cohortIndex": c,
                        "trials": trials[c][j],
                        "completed": completed[c][j],
                        "passed": passed[c][j],
                        "passFraction": fraction[c][j],
                        "score": score[c][j],
                        "latencyMs": latency[c][j],
                        "outputTokens": tokens[c][j],
                        "costMicros": cost[c][j],
                    }
                    for c in range(t.cohorts)
                ],
            }
        )
        ran_index += 1
    return rows
