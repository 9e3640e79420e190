"""A trial's checks: specs validated at comparison creation, and run on each answer."""

from server.checks.evaluate import CheckReason, CheckResult, run_check, run_checks
from server.checks.spec import (
    DEFAULT_CHECKS,
    CheckKind,
    calls_per_trial,
    judge_key,
    validate_check_spec,
    validate_check_specs,
)

__all__ = [
    "DEFAULT_CHECKS",
    "CheckKind",
    "CheckReason",
    "CheckResult",
    "calls_per_trial",
    "judge_key",
    "run_check",
    "run_checks",
    "validate_check_spec",
    "validate_check_specs",
]
