"""GraphQL types of sequential stopping: the input and what a comparison (and its scorecard)
shows of it."""

from __future__ import annotations

from typing import Any, TypeAlias

import strawberry

from server.comparisons import look_state
from server.comparisons.models import Comparison as ComparisonRow
from server.comparisons.models import StopReason
from server.comparisons.stopping import StoppingRule as StoppingRuleEnum
from server.comparisons.stopping import StoppingSpec

strawberry.enum(
    StoppingRuleEnum,
    name="StoppingRule",
    description="ANYTIME_VALID: stop once every baseline's confidence sequence decides.",
)
StoppingRule: TypeAlias = StoppingRuleEnum


@strawberry.input(description="Sequential stopping (docs/statistics.md); NONE runs every case.")
class StoppingInput:
    rule: StoppingRule = StoppingRuleEnum.NONE
    alpha: float = strawberry.field(
        default=0.05, description="Error rate over all looks, split across the baselines."
    )
    min_cases: int = strawberry.field(default=100, description="The first look, in cases.")
    look_every_cases: int = strawberry.field(
        default=50, description="Cases completed in every cohort between looks."
    )
    case_order_seed: int | None = strawberry.field(
        default=None, description="Fixes the random case order; drawn when not given."
    )

    def to_spec(self) -> StoppingSpec:
        return StoppingSpec(
            rule=StoppingRuleEnum(self.rule),
            alpha=self.alpha,
            min_cases=self.min_cases,
            look_every_cases=self.look_every_cases,
            case_order_seed=self.case_order_seed,
        )


@strawberry.type(description="How a sequential comparison looked, and where it stopped.")
class ComparisonStopping:
    rule: StoppingRule
    alpha: float
    min_cases: int
    look_every_cases: int
    case_order_seed: int = strawberry.field(description="The seed of the random case order.")
    looks: int = strawberry.field(description="Looks taken so far.")
    decided_early: bool
    stopped_at_cases: int | None = strawberry.field(
        description="Cases (in case order) the deciding look saw; null unless decided early."
    )
    calls_saved: int | None = strawberry.field(
        description="Planned calls not made because it stopped early; null unless it did."
    )
    case_count: int
    note: str = strawberry.field(
        description='E.g. "Decided early at 150 of 2,000 cases." or "Ran to the end …".'
    )

    @classmethod
    def from_row(cls, row: ComparisonRow) -> ComparisonStopping | None:
        if not row.stopping or row.case_order_seed is None:
            return None
        state = look_state.LookState.from_json(row.looks)
        decided = row.stop_reason == StopReason.DECIDED_EARLY
        saved = max(0, row.total_calls - row.done_calls) if decided else None
        return cls.from_document(
            {
                **look_state.stopping_document(
                    row.stopping,
                    seed=row.case_order_seed,
                    state=state,
                    case_count=row.case_count,
                    decided=decided,
                    ended=row.ended_at is not None,
                ),
                "callsSaved": saved,
            }
        )

    @classmethod
    def from_document(cls, doc: dict[str, Any] | None) -> ComparisonStopping | None:
        if not doc:
            return None
        return cls(
            rule=StoppingRuleEnum(doc["rule"]),
            alpha=float(doc["alpha"]),
            min_cases=int(doc["minCases"]),
            look_every_cases=int(doc["lookEveryCases"]),
            case_order_seed=int(doc["caseOrderSeed"]),
            looks=int(doc["looks"]),
            decided_early=bool(doc["decidedEarly"]),
            stopped_at_cases=doc.get("stoppedAtCases"),
            calls_saved=doc.get("callsSaved"),
            case_count=int(doc["caseCount"]),
            note=str(doc["note"]),
        )
