"""The shape of a run item (docs/domain.md), checked without I/O by the API and by the importer.

An item is `{datasetItemId?, position?, input, expected?, trials: [{passed?, evaluators
{name: score}, output?, toolCalls?: [{name, arguments}], metrics {tokens, turns, toolCalls,
wallMs, errors, costUsd, outputTokens}, trajectory?: [step], traceId?}]}`; `expected`,
`toolCalls` and `trajectory` are what a run's server-graded checks read
(`server.runs.grading`), and `expected` is not stored; `costUsd` and `outputTokens` feed a
run diff's ship decision (docs/decision.md). A trajectory (docs/domain.md, checked by
`server.trajectories.steps`) fills each metric the trial does not give
(`server.trajectories.reading.metrics`). Checking turns it into
the column values of one `run_item` row and its `run_item_score` rows (one per evaluator,
the mean over the trials that scored it). Only the standard library, `server.errors` and
what checks the values are imported, so the command-line importer starts quickly.
"""

from __future__ import annotations

import json
import math
from typing import Any, TypedDict

from server.datasets.cases import MAX_JSON_DEPTH, CaseError, bad_text, check_json
from server.errors import ValidationFailed
from server.trajectories.reading import metrics as trajectory_metrics
from server.trajectories.steps import check_trace_id, check_trajectory

MAX_ITEMS_PER_CHUNK = 5_000
MAX_ITEMS_PER_RUN = 100_000
MAX_EVALUATORS_PER_ITEM = 50
MAX_OUTPUT_CHARS = 100_000
MAX_TRIALS_PER_ITEM = 100
MAX_NAME_LENGTH = 200
MAX_POSITION = 2**31 - 1
ITEM_FIELDS = frozenset({"datasetItemId", "position", "input", "expected", "trials"})
TRIAL_FIELDS = frozenset(
    {"passed", "evaluators", "output", "toolCalls", "metrics", "trajectory", "traceId"}
)
MAX_TOOL_CALLS = 100
METRICS = frozenset({"tokens", "turns", "toolCalls", "wallMs", "errors", "costUsd", "outputTokens"})

__all__ = ["MAX_JSON_DEPTH", "CaseError", "ItemRow", "check_chunk", "check_item"]


class ScoreRow(TypedDict):
    evaluator: str
    mean: float
    count: int


class ItemRow(TypedDict):
    """A checked item: its `run_item` column values and its evaluator means."""

    position: int
    dataset_item_id: str | None
    input: Any
    trials: list[dict[str, Any]]
    trial_count: int
    graded_count: int
    passed_count: int
    scores: list[ScoreRow]
    expected: Any


def check_item(raw: object, position: int) -> ItemRow:
    """The row of one item, or CaseError naming the first problem.

    The item lands at its own `position` when it gives one, else at `position`.
    """
    if not isinstance(raw, dict):
        raise CaseError("an item must be a JSON object", "")
    unknown = raw.keys() - ITEM_FIELDS
    if unknown:
        name = sorted(unknown)[0]
        raise CaseError(f"unknown field `{name}` (allowed: {', '.join(sorted(ITEM_FIELDS))})", name)
    item_id = raw.get("datasetItemId")
    if item_id is not None and (
        not isinstance(item_id, str) or not 1 <= len(item_id) <= MAX_NAME_LENGTH
    ):
        raise CaseError(
            f"`datasetItemId` must be a string of 1 to {MAX_NAME_LENGTH} characters",
            "datasetItemId",
        )
    check_json(item_id, "datasetItemId", 0)
    given = raw.get("position")
    if given is not None:
        if type(given) is not int or not 0 <= given <= MAX_POSITION:
            raise CaseError(
                f"`position` must be a whole number from 0 to {MAX_POSITION}", "position"
            )
        position = given
    if "input" not in raw:
        raise CaseError("`input` is required", "input")
    check_json(raw["input"], "input", 0)
    check_json(raw.get("expected"), "expected", 0)
    trials = raw.get("trials")
    if not isinstance(trials, list) or not 1 <= len(trials) <= MAX_TRIALS_PER_ITEM:
        raise CaseError(f"`trials` must be a list of 1 to {MAX_TRIALS_PER_ITEM} trials", "trials")
    graded = passed = 0
    sums: dict[str, list[float]] = {}
    for index, trial in enumerate(trials):
        grade = _check_trial(trial, index, sums)
        if grade is not None:
            graded += 1
            passed += grade
    if len(sums) > MAX_EVALUATORS_PER_ITEM:
        raise CaseError(
            f"{len(sums)} evaluators; at most {MAX_EVALUATORS_PER_ITEM} per item", "trials"
        )
    return {
        "position": position,
        "dataset_item_id": item_id,
        "input": raw["input"],
        "trials": trials,
        "trial_count": len(trials),
        "graded_count": graded,
        "passed_count": passed,
        "scores": [
            {"evaluator": name, "mean": total / count, "count": int(count)}
            for name, (total, count) in sums.items()
        ],
        "expected": raw.get("expected"),
    }


def _check_trial(trial: object, index: int, sums: dict[str, list[float]]) -> int | None:
    """Check one trial, add its evaluator scores to `sums`; 1/0 for passed/failed, None ungraded.

    This runs for every trial of up to 5,000 items a request: exact type tests, and the
    error text is built only on an error.
    """
    if type(trial) is not dict:
        raise CaseError("a trial must be a JSON object", f"trials[{index}]")
    if not trial.keys() <= TRIAL_FIELDS:
        where = f"trials[{index}]"
        unknown = trial.keys() - TRIAL_FIELDS
        name = sorted(unknown)[0]
        raise CaseError(
            f"unknown field `{name}` (allowed: {', '.join(sorted(TRIAL_FIELDS))})",
            f"{where}.{name}",
        )
    grade = trial.get("passed")
    if grade is not None and type(grade) is not bool:
        raise CaseError("`passed` must be true, false or null", f"trials[{index}].passed")
    evaluators = trial.get("evaluators")
    if evaluators:
        _add_scores(evaluators, index, sums)
    if "output" in trial:
        _check_output(trial["output"], f"trials[{index}]")
    if "toolCalls" in trial:
        _check_tool_calls(trial["toolCalls"], f"trials[{index}].toolCalls")
    metrics = trial.get("metrics")
    if metrics is not None:
        _check_metrics(metrics, f"trials[{index}]")
    if trial.get("traceId") is not None:
        check_trace_id(trial["traceId"], f"trials[{index}].traceId")
    steps = trial.get("trajectory")
    if steps is not None:
        check_trajectory(steps, f"trials[{index}].trajectory")
        given = {k: v for k, v in (metrics or {}).items() if v is not None}
        trial["metrics"] = {**trajectory_metrics(steps), **given}
    return None if grade is None else int(grade)


def _add_scores(evaluators: object, index: int, sums: dict[str, list[float]]) -> None:
    where = f"trials[{index}].evaluators"
    if type(evaluators) is not dict:
        raise CaseError("`evaluators` must be an object {name: score}", where)
    for name, score in evaluators.items():
        if not 1 <= len(name) <= MAX_NAME_LENGTH or bad_text(name):
            raise CaseError(
                f"an evaluator name must be a string of 1 to {MAX_NAME_LENGTH} characters", where
            )
        kind = type(score)
        if not (kind is int or (kind is float and math.isfinite(score))):
            raise CaseError(f"evaluator {name!r} must score a finite number", where)
        entry = sums.get(name)
        if entry is None:
            sums[name] = [float(score), 1]
        else:
            entry[0] += score
            entry[1] += 1


def _check_output(output: object, where: str) -> None:
    check_json(output, f"{where}.output", 1)
    size = len(output) if isinstance(output, str) else len(json.dumps(output))
    if size > MAX_OUTPUT_CHARS:
        raise CaseError(
            f"`output` has {size:,} characters; at most {MAX_OUTPUT_CHARS:,}", f"{where}.output"
        )


def _check_tool_calls(calls: object, where: str) -> None:
    if type(calls) is not list or len(calls) > MAX_TOOL_CALLS:
        raise CaseError(f"`toolCalls` must be a list of at most {MAX_TOOL_CALLS} calls", where)
    for call in calls:
        if type(call) is not dict or type(call.get("name")) is not str or not call["name"]:
            raise CaseError("a tool call must be an object with a `name`", where)
    check_json(calls, where, 1)


def _check_metrics(metrics: object, where: str) -> None:
    if not isinstance(metrics, dict):
        raise CaseError("`metrics` must be an object", f"{where}.metrics")
    for name, value in metrics.items():
        if name not in METRICS:
            raise CaseError(
                f"unknown metric `{name}` (allowed: {', '.join(sorted(METRICS))})",
                f"{where}.metrics",
            )
        if value is not None and not (_finite_number(value) and value >= 0):
            raise CaseError(f"metric `{name}` must be a non-negative number", f"{where}.metrics")


def _finite_number(value: object) -> bool:
    return (type(value) is int) or (type(value) is float and math.isfinite(value))


def check_chunk(raw: object, *, start: int) -> list[ItemRow]:
    """The rows of a chunk whose items without a `position` land at start, start + 1, …;
    VALIDATION_FAILED names the item's index."""
    if not isinstance(raw, list):
        raise ValidationFailed("`items` must be a list of items", field="items")
    if not raw:
        raise ValidationFailed("`items` must not be empty", field="items")
    if len(raw) > MAX_ITEMS_PER_CHUNK:
        raise ValidationFailed(
            f"`items` holds {len(raw)} items; at most {MAX_ITEMS_PER_CHUNK} per call",
            field="items",
        )
    rows: list[ItemRow] = []
    seen: set[str] = set()
    positions: set[int] = set()
    for index, item in enumerate(raw):
        try:
            row = check_item(item, start + index)
        except CaseError as error:
            raise item_error(index, error.reason, error.field) from None
        if row["position"] in positions:
            reason = f"`position` {row['position']} appears more than once"
            raise item_error(index, reason, "position", position=row["position"])
        positions.add(row["position"])
        item_id = row["dataset_item_id"]
        if item_id is not None:
            if item_id in seen:
                reason = f"`datasetItemId` {item_id!r} appears more than once"
                raise item_error(index, reason, "datasetItemId", datasetItemId=item_id)
            seen.add(item_id)
        rows.append(row)
    return rows


def item_error(index: int, reason: str, field: str, **extra: Any) -> ValidationFailed:
    """VALIDATION_FAILED about item `index` of a chunk; `reason` alone is in extensions."""
    path = f"items[{index}].{field}" if field else f"items[{index}]"
    return ValidationFailed(f"{path}: {reason}", field=path, index=index, reason=reason, **extra)
