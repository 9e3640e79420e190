"""Which checks of a comparison are judges, and a trial's grade by them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from server.checks import CheckKind, judge_key


def check_key(spec: Mapping[str, Any]) -> str:
    """A judge check's key: its rubric version and judge model config version ids."""
    rubric, judge = judge_key(spec)
    return f"{rubric}/{judge}"


def judge_checks(checks: Sequence[Mapping[str, Any]]) -> list[tuple[int, str]]:
    """(position in the check list, check key) of each distinct JUDGE_RUBRIC check."""
    found: dict[str, int] = {}
    for index, spec in enumerate(checks):
        if spec.get("kind") == CheckKind.JUDGE_RUBRIC:
            found.setdefault(check_key(spec), index)
    return [(index, key) for key, index in found.items()]


def judge_passed(results: Sequence[Mapping[str, Any]] | None) -> bool | None:
    """Whether every JUDGE_RUBRIC result of a trial passed; None without one."""
    judged = [
        bool(r.get("passed")) for r in results or [] if r.get("kind") == CheckKind.JUDGE_RUBRIC
    ]
    return all(judged) if judged else None
