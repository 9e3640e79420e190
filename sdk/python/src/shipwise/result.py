"""What an evaluation answers: the run, its diff against the baseline and the decision."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Decision:
    """The ship decision over the run diff: `SHIP`, `DONT_SHIP`, `MORE_DATA` or `NO_DECISION`."""

    outcome: str
    sentence: str | None = None
    reason: str | None = None
    cases_needed: int | None = None
    criteria: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def from_api(cls, raw: dict[str, Any]) -> Decision:
        return cls(
            outcome=str(raw["outcome"]),
            sentence=raw.get("sentence"),
            reason=raw.get("reason"),
            cases_needed=raw.get("casesNeeded"),
            criteria=list(raw.get("criteria") or []),
        )


@dataclass(frozen=True)
class EvaluationResult:
    """`run_id` and `url` always; `diff` and `decision` when there was a baseline to diff
    (and, for `decision`, when the server decides run diffs)."""

    run_id: str
    experiment_id: str
    url: str
    item_count: int
    trial_count: int
    failed_trials: int
    task_calls: int
    resumed_items: int
    baseline_run_id: str | None = None
    diff: dict[str, Any] | None = None
    decision: Decision | None = None
