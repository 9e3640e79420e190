"""GraphQL types of live comparisons (docs/live.md)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, TypeAlias, cast

import strawberry
from strawberry.scalars import JSON

from server.api.ship_policy_types import ShipDecision, ShipPolicy, ShipPolicyInput
from server.live.models import LiveComparison as LiveComparisonRow
from server.live.models import LiveStatus
from server.live.service import LiveSpec

strawberry.enum(
    LiveStatus,
    name="LiveComparisonStatus",
    description="RUNNING until SHIP or DONT_SHIP (DECIDED), maxDays (EXPIRED) or a cancel.",
)
LiveComparisonStatus: TypeAlias = LiveStatus


@strawberry.input(description="A canary to decide while it runs (docs/live.md).")
class CreateLiveComparisonInput:
    service: str = strawberry.field(description="The traces' `service.name`.")
    candidate_release: str = strawberry.field(
        description="The release attribute (`shipwise.release`, else `service.version`)."
    )
    baseline_releases: list[str]
    label: str | None = None
    checks: JSON | None = strawberry.field(
        default=None,
        description='Output or trajectory check specs; default `[{"kind": "CONTAINS"}]`.',
    )
    judge_sample_rate: float = strawberry.field(
        default=0.1, description="The share of traces judge checks grade (0 to 1)."
    )
    judge_daily_cap_cents: float | None = None
    ship_policy: ShipPolicyInput | None = None
    max_days: int = 14

    def to_spec(self) -> LiveSpec:
        extra: dict[str, Any] = {}
        if self.ship_policy is not None:
            extra["ship_policy"] = self.ship_policy.to_spec()
        return LiveSpec(
            service=self.service,
            candidate_release=self.candidate_release,
            baseline_releases=list(self.baseline_releases),
            label=self.label,
            checks=self.checks,
            judge_sample_rate=self.judge_sample_rate,
            judge_daily_cap_cents=self.judge_daily_cap_cents,
            max_days=self.max_days,
            **extra,
        )


@strawberry.type(description="One release's traces counted by a live comparison.")
class LiveArm:
    release: str
    is_candidate: bool
    traces: int = strawberry.field(description="Traces seen since the start.")
    graded: int
    pass_rate: float | None = strawberry.field(description="Over graded traces with an output.")
    cost_per_trace: float | None = strawberry.field(description="Cents.")
    latency_p95_ms: float | None
    error_rate: float | None = strawberry.field(description="Failed or without output.")


@strawberry.type(
    description="The quality sequence (candidate − first baseline, points) after `traces` "
    "traces an arm."
)
class LiveSequencePoint:
    at: datetime | None
    traces: int
    estimate: float
    low: float
    high: float


@strawberry.type(description="A canary decided while it runs, from its traces (docs/live.md).")
class LiveComparison:
    id: strawberry.ID
    label: str | None
    service: str
    candidate_release: str
    baseline_releases: list[str]
    checks: JSON
    judge_sample_rate: float
    judge_daily_cap_cents: float | None
    ship_policy: ShipPolicy
    max_days: int
    status: LiveComparisonStatus
    seq: int
    arms: list[LiveArm]
    decision: ShipDecision | None = strawberry.field(
        description="Null until a trace is graded; DONT_SHIP is final."
    )
    traces_needed: int | None = strawberry.field(
        description="MORE_DATA: traces an arm that would decide quality with 80% power."
    )
    margin_points: float = strawberry.field(description="The policy's δ, for the sequence.")
    sequence: list[LiveSequencePoint] = strawberry.field(description="At most 500 points.")
    started_at: datetime
    decided_at: datetime | None
    ended_at: datetime | None
    expires_at: datetime

    @classmethod
    def from_row(cls, row: LiveComparisonRow) -> LiveComparison:
        policy = ShipPolicy.from_document(row.ship_policy)
        decision = row.decision or None
        return cls(
            id=strawberry.ID(row.id),
            label=row.label,
            service=row.service,
            candidate_release=row.candidate_release,
            baseline_releases=list(row.baseline_releases),
            checks=cast(JSON, list(row.checks)),
            judge_sample_rate=row.judge_sample_rate,
            judge_daily_cap_cents=None
            if row.judge_daily_cap_micros is None
            else row.judge_daily_cap_micros / 10_000,
            ship_policy=policy,
            max_days=row.max_days,
            status=LiveStatus(row.status),
            seq=row.seq,
            arms=[
                LiveArm(
                    release=str(a["release"]),
                    is_candidate=index == 0,
                    traces=int(a.get("traces") or 0),
                    graded=int(a.get("graded") or 0),
                    pass_rate=a.get("passRate"),
                    cost_per_trace=a.get("costPerTrace"),
                    latency_p95_ms=a.get("latencyP95Ms"),
                    error_rate=a.get("errorRate"),
                )
                for index, a in enumerate(row.arms)
            ],
            decision=ShipDecision.from_document(decision),
            traces_needed=decision.get("tracesNeeded") if decision else None,
            margin_points=policy.quality_margin_points,
            sequence=[
                LiveSequencePoint(
                    at=datetime.fromisoformat(p["at"]) if p.get("at") else None,
                    traces=int(p["traces"]),
                    estimate=float(p["estimate"]),
                    low=float(p["low"]),
                    high=float(p["high"]),
                )
                for p in row.sequence
            ],
            started_at=row.started_at,
            decided_at=row.decided_at,
            ended_at=row.ended_at,
            expires_at=row.started_at + timedelta(days=row.max_days),
        )
