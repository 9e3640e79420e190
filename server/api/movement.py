"""The GraphQL names of how a case or a run moved: one internal vocabulary (`stats.movement`)
mapped, here and only here, to the names each part of the API published.

The API only grows (docs/graphql.md "The API only grows"): the names the contract published
stay — `CaseFilter {REGRESSIONS IMPROVEMENTS DIVERGED ALL}` on a comparison's cases,
`DiffCaseFilter` and `DiffCaseStatus` (with `UNCHANGED`) on a run diff's, `EvaluatorStatus`
on its evaluators, `VerdictOutcome` on a baseline's verdict — and `Movement`, the shared
reading, is offered beside them under new field names (`movement`). Names added after the
release that duplicate a published one are kept, deprecated.
"""

from __future__ import annotations

from enum import Enum, StrEnum
from typing import Final

import strawberry

from stats.movement import CaseFilter as Kept
from stats.movement import Movement

strawberry.enum(
    Movement,
    name="Movement",
    description="Candidate against baseline. NO_VERDICT: nothing to compare (no grade or "
    "score on a side) or, for a verdict, too little evidence (its `reason`).",
)

_RENAMED = "The published name is {0}: use it (the API only grows, docs/graphql.md)."


@strawberry.enum(
    name="CaseFilter",
    description="A comparison's cases by their movement: REGRESSIONS (the "
    "default), IMPROVEMENTS, DIVERGED (either), ALL.",
)
class CaseFilter(Enum):
    REGRESSIONS = "REGRESSIONS"
    IMPROVEMENTS = "IMPROVEMENTS"
    DIVERGED = "DIVERGED"
    ALL = "ALL"
    REGRESSED = strawberry.enum_value("REGRESSED", deprecation_reason=_RENAMED.format("REGRESSIONS"))  # noqa: E501
    IMPROVED = strawberry.enum_value("IMPROVED", deprecation_reason=_RENAMED.format("IMPROVEMENTS"))
    CHANGED = strawberry.enum_value("CHANGED", deprecation_reason=_RENAMED.format("DIVERGED"))


@strawberry.enum(
    description="A run diff's cases by their status (seed 001): CHANGED = REGRESSED or IMPROVED."
)
class DiffCaseFilter(StrEnum):
    ALL = "ALL"
    REGRESSED = "REGRESSED"
    IMPROVED = "IMPROVED"
    CHANGED = "CHANGED"


@strawberry.enum(
    description="A run-diff case's status (seed 001): its movement by pass flip, pass "
    "fraction or score beyond ε, else UNCHANGED; or ADDED/REMOVED: on one side only."
)
class DiffCaseStatus(Enum):
    REGRESSED = "REGRESSED"
    IMPROVED = "IMPROVED"
    UNCHANGED = "UNCHANGED"
    ADDED = "ADDED"
    REMOVED = "REMOVED"
    NO_CHANGE = strawberry.enum_value(
        "NO_CHANGE", deprecation_reason=_RENAMED.format("UNCHANGED") + " Never answered."
    )


@strawberry.enum(description="One evaluator on one run-diff case (seed 001).")
class EvaluatorStatus(StrEnum):
    REGRESSED = "REGRESSED"
    IMPROVED = "IMPROVED"
    UNCHANGED = "UNCHANGED"


@strawberry.enum(description="A baseline's verdict; its `movement` is the same reading.")
class VerdictOutcome(StrEnum):
    REGRESSED = "REGRESSED"
    IMPROVED = "IMPROVED"
    NO_CHANGE = "NO_CHANGE"
    NO_VERDICT = "NO_VERDICT"


_CASE_FILTERS: Final[dict[str, Kept]] = {
    "REGRESSIONS": Kept.REGRESSED,
    "IMPROVEMENTS": Kept.IMPROVED,
    "DIVERGED": Kept.CHANGED,
    **{kept.value: kept for kept in Kept},
}

_DIFF_STATUSES: Final[dict[str, DiffCaseStatus]] = {
    Movement.REGRESSED: DiffCaseStatus.REGRESSED,
    Movement.IMPROVED: DiffCaseStatus.IMPROVED,
    Movement.NO_CHANGE: DiffCaseStatus.UNCHANGED,
    Movement.NO_VERDICT: DiffCaseStatus.UNCHANGED,
    "ADDED": DiffCaseStatus.ADDED,
    "REMOVED": DiffCaseStatus.REMOVED,
}

_EVALUATOR_STATUSES: Final[dict[str, EvaluatorStatus]] = {
    Movement.REGRESSED: EvaluatorStatus.REGRESSED,
    Movement.IMPROVED: EvaluatorStatus.IMPROVED,
    Movement.NO_CHANGE: EvaluatorStatus.UNCHANGED,
    Movement.NO_VERDICT: EvaluatorStatus.UNCHANGED,
}


def kept_cases(value: CaseFilter | DiffCaseFilter | str) -> Kept:
    """The cases a `CaseFilter` or a `DiffCaseFilter` (or its name) keeps."""
    return _CASE_FILTERS[value.value if isinstance(value, Enum) else value]


def diff_case_status(status: str) -> DiffCaseStatus:
    """A run-diff case's published status from its movement, ADDED or REMOVED."""
    return _DIFF_STATUSES[status]


def evaluator_status(movement: str) -> EvaluatorStatus:
    """One evaluator's published status: without a score on a side it did not move."""
    return _EVALUATOR_STATUSES[movement]


def verdict_outcome(movement: str) -> VerdictOutcome:
    return VerdictOutcome(Movement(movement).value)


__all__ = [
    "CaseFilter",
    "DiffCaseFilter",
    "DiffCaseStatus",
    "EvaluatorStatus",
    "Movement",
    "VerdictOutcome",
    "diff_case_status",
    "evaluator_status",
    "kept_cases",
    "verdict_outcome",
]
