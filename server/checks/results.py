"""A check's result: passed or not, a score, and why not as a short bounded code
(`CheckReason`, docs/errors.md "Check reasons"), never output text."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from server.checks.spec import CheckKind


class CheckReason(StrEnum):
    MISMATCH = "mismatch"
    NOT_CONTAINED = "not_contained"
    EXPECTED_MISSING = "expected_missing"
    OUTPUT_MISSING = "output_missing"
    OUTPUT_NOT_JSON = "output_not_json"
    SCHEMA_MISMATCH = "schema_mismatch"
    SCHEMA_UNUSABLE = "schema_unusable"
    TOOL_NOT_CALLED = "tool_not_called"
    ARGUMENTS_MISMATCH = "arguments_mismatch"
    OUT_OF_ORDER = "out_of_order"
    TOOL_CALLED = "tool_called"
    TOO_MANY_STEPS = "too_many_steps"
    TOO_MANY_LLM_CALLS = "too_many_llm_calls"
    TRAJECTORY_MISSING = "trajectory_missing"


@dataclass(frozen=True, slots=True)
class CheckResult:
    kind: CheckKind
    passed: bool
    score: float
    reason: CheckReason | None = None

    def as_json(self) -> dict[str, Any]:
        """The stored shape (`trial.check_results`)."""
        reason = None if self.reason is None else self.reason.value
        return {
            "kind": self.kind.value,
            "passed": self.passed,
            "score": self.score,
            "reason": reason,
        }


def passed(kind: CheckKind) -> CheckResult:
    return CheckResult(kind, True, 1.0)


def failed(kind: CheckKind, reason: CheckReason) -> CheckResult:
    return CheckResult(kind, False, 0.0, reason)
