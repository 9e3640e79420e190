"""One trial's outcome as dispatch hands it to recording (`store`, `recording`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from server.comparisons.models import TrialState


@dataclass(frozen=True, slots=True)
class TrialOutcome:
    trial_id: int
    state: TrialState
    output: str | None
    tool_calls: list[dict[str, Any]] | None
    input_tokens: int
    output_tokens: int
    cost_micros: int
    latency_ms: int
    attempts: int
    error_code: str | None
    passed: bool | None
    score: float | None
    check_results: list[dict[str, Any]] | None
    sent: bool = True
    """False: the call never left (its wait for a slot was abandoned); the checkpoint goes."""

    @classmethod
    def unsent(cls, trial_id: int) -> TrialOutcome:
        """Nothing was sent: recording deletes the checkpoint, so the trial is pending again."""
        return replace(cls.failed(trial_id, ""), error_code=None, sent=False)

    @classmethod
    def failed(cls, trial_id: int, code: str) -> TrialOutcome:
        """Failed-or-missing with `code` and nothing else known (no call result to keep)."""
        return cls(
            trial_id=trial_id,
            state=TrialState.ERRORED,
            output=None,
            tool_calls=None,
            input_tokens=0,
            output_tokens=0,
            cost_micros=0,
            latency_ms=0,
            attempts=0,
            error_code=code,
            passed=None,
            score=None,
            check_results=None,
        )
