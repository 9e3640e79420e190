"""One outcome from every criterion against every baseline, by docs/decision.md's order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stats.decision.criteria import Criterion
from stats.decision.vocabulary import (
    DONT_SHIP,
    INSUFFICIENT_CASES,
    JUDGE_UNCALIBRATED,
    MET,
    MORE_DATA,
    NO_BASELINE,
    NO_DECISION,
    NOT_RUN_TO_END,
    SHIP,
    UNLIKELY_TO_PASS,
    VIOLATED,
)
from stats.power import MIN_CASES


@dataclass(frozen=True, slots=True)
class Decision:
    """The outcome, its reason, `cases_needed` for MORE_DATA, usable cases and criteria."""

    outcome: str
    reason: str | None
    cases_needed: int | None
    n: int
    criteria: tuple[Criterion, ...]


def outcome_of(
    criteria: Sequence[Criterion],
    needed: Sequence[int | None],
    *,
    n: int,
    baselines: int,
    ran_to_end: bool,
) -> tuple[str, str | None, int | None]:
    """(outcome, reason, cases needed) by docs/decision.md's order."""
    if baselines == 0:
        return NO_DECISION, NO_BASELINE, None
    if not ran_to_end:
        return NO_DECISION, NOT_RUN_TO_END, None
    if n < MIN_CASES:
        return NO_DECISION, INSUFFICIENT_CASES, None
    statuses = {c.status for c in criteria}
    if VIOLATED in statuses:
        return DONT_SHIP, None, None
    if statuses == {MET}:
        return SHIP, None, None
    if any(c.reason == JUDGE_UNCALIBRATED for c in criteria):
        return MORE_DATA, JUDGE_UNCALIBRATED, None
    if any(count is None for count in needed):
        return MORE_DATA, UNLIKELY_TO_PASS, None
    counts = [count for count in needed if count is not None]
    return MORE_DATA, None, max(counts) if counts else None
