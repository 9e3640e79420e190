"""GraphQL types of a comparison preview: what it would run and cost, and what warns or blocks."""

from __future__ import annotations

from typing import TypeAlias

import strawberry

from server.api.connections.types import ConnectionKind, ConnectionStatus
from server.api.datasets.types import Split
from server.api.ship_policy_types import ShipPolicy
from server.comparisons import preview as planning
from server.decisions import policy as ship_policy_option
from server.money import micros_to_cents, optional_micros_to_cents

strawberry.enum(planning.WarningCode, name="PreviewWarningCode")
PreviewWarningCode: TypeAlias = planning.WarningCode
strawberry.enum(planning.BlockerCode, name="PreviewBlockerCode")
PreviewBlockerCode: TypeAlias = planning.BlockerCode


@strawberry.type
class PreviewWarning:
    code: PreviewWarningCode
    message: str


@strawberry.type
class PreviewBlocker:
    code: PreviewBlockerCode
    message: str


@strawberry.type
class CohortPreview:
    cohort_index: int
    label: str
    is_candidate: bool
    calls: int = strawberry.field(description="Every call for this cohort, judge calls included.")
    judge_calls: int
    cost_bound_cents: float
    connection_id: strawberry.ID


@strawberry.type
class ConnectionSpend:
    connection_id: strawberry.ID
    name: str
    kind: ConnectionKind
    status: ConnectionStatus
    spent_cents_this_month: float
    monthly_cap_cents: float | None
    text: str = strawberry.field(description='E.g. "conn: $3.20 spent of $50.00 this month."')


@strawberry.type
class VariableCoverage:
    variable: str
    path: str
    found: int
    total: int
    text: str = strawberry.field(
        description='E.g. "question ← input.question · found in 50 of 50 cases".'
    )


@strawberry.type
class ComparisonPreview:
    dataset_version_id: strawberry.ID
    dataset_version_number: int
    split: Split
    split_case_count: int = strawberry.field(description="Cases in the split.")
    case_count: int = strawberry.field(description="Cases the comparison would run.")
    left_out_count: int
    trials_per_case: int
    total_calls: int = strawberry.field(description="Every call, judge calls included.")
    judge_calls: int
    call_limit: int
    cost_bound_cents: float = strawberry.field(
        description="If every call used its max output tokens (input: characters ÷ 4)."
    )
    cohorts: list[CohortPreview]
    connections: list[ConnectionSpend]
    variables: list[VariableCoverage]
    warnings: list[PreviewWarning]
    blockers: list[PreviewBlocker]
    can_start: bool
    may_stop_early: bool = strawberry.field(
        description="Sequential stopping is on: the run may end before its last case; the "
        "calls and the cost bound are the most it can use."
    )
    summary: str
    ship_policy: ShipPolicy = strawberry.field(
        description="The ship policy it would register: the input's, or the workspace's default."
    )

    @classmethod
    def from_preview(cls, p: planning.Preview) -> ComparisonPreview:
        resolved, selection = p.resolved, p.selection
        return cls(
            dataset_version_id=strawberry.ID(resolved.dataset_version.id),
            dataset_version_number=resolved.dataset_version.number,
            split=resolved.split,
            split_case_count=selection.split_count,
            case_count=len(selection.kept),
            left_out_count=selection.left_out,
            trials_per_case=resolved.trials_per_case,
            total_calls=p.total_calls,
            judge_calls=p.judge_calls,
            call_limit=p.call_limit,
            cost_bound_cents=micros_to_cents(p.cost_bound_micros),
            cohorts=[
                CohortPreview(
                    cohort_index=cohort.index,
                    label=cohort.label,
                    is_candidate=cohort.index == 0,
                    calls=calls.calls,
                    judge_calls=calls.judge_calls,
                    cost_bound_cents=micros_to_cents(micros),
                    connection_id=strawberry.ID(cohort.connection.id),
                )
                for cohort, calls, micros in zip(
                    resolved.cohorts, p.cohorts, p.cost_micros, strict=True
                )
            ],
            connections=[
                ConnectionSpend(
                    connection_id=strawberry.ID(s.connection.id),
                    name=s.connection.name,
                    kind=s.connection.kind,
                    status=s.connection.status,
                    spent_cents_this_month=micros_to_cents(s.spent_micros),
                    monthly_cap_cents=optional_micros_to_cents(s.connection.monthly_cap_micros),
                    text=s.text,
                )
                for s in p.connections
            ],
            variables=[
                VariableCoverage(
                    variable=c.variable,
                    path=c.path,
                    found=c.found,
                    total=c.total,
                    text=c.describe(),
                )
                for c in selection.coverage
            ],
            warnings=[
                PreviewWarning(code=planning.WarningCode(n.code), message=n.message)
                for n in p.warnings
            ],
            blockers=[
                PreviewBlocker(code=planning.BlockerCode(n.code), message=n.message)
                for n in p.blockers
            ],
            can_start=p.can_start,
            may_stop_early=resolved.stopping is not None and resolved.stopping.sequential,
            summary=p.summary,
            ship_policy=ShipPolicy.from_document(ship_policy_option.document(resolved.ship_policy)),
        )
