"""Comparisons: cohorts over frozen cases, each trial's private checkpoint and outcome, and
each hosted pairwise judge call.

The comparison row is the truth for progress: its counters and spend are recomputed from
committed `trial` rows (never incremented blindly) and every change bumps `seq`.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Final

from sqlalchemy import (
    BigInteger,
    Boolean,
    Enum,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from server.db import AutoIncrementBigInt, Base, PortableJSON, UTCDateTime, utcnow


class ComparisonStatus(StrEnum):
    SETUP = "SETUP"
    RUNNING = "RUNNING"
    DONE = "DONE"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"


TERMINAL_STATUSES = frozenset(
    {ComparisonStatus.DONE, ComparisonStatus.FAILED, ComparisonStatus.CANCELLED}
)


class StopReason(StrEnum):
    COMPLETED = "COMPLETED"
    BUDGET_CAP = "BUDGET_CAP"
    CONNECTION_CAP = "CONNECTION_CAP"
    DAILY_BUDGET = "DAILY_BUDGET"
    DECIDED_EARLY = "DECIDED_EARLY"
    """Sequential stopping: every baseline's confidence sequence decided (docs/statistics.md)."""


class CohortKind(StrEnum):
    RELEASE = "RELEASE"
    VARIANT = "VARIANT"


class CohortState(StrEnum):
    QUEUED = "QUEUED"
    RUNNING = "RUNNING"
    DONE = "DONE"
    STOPPED = "STOPPED"
    """Unfinished when its run ended cancelled, capped or failed."""


class TrialState(StrEnum):
    ADMITTED = "ADMITTED"
    """Checkpointed before the provider call; no outcome committed yet."""
    COMPLETED = "COMPLETED"
    """The call answered; checks ran (`passed` set)."""
    ERRORED = "ERRORED"
    """Retries ran out or the call could not be made: failed-or-missing, never a quality fail."""


def _enum(enum: type[StrEnum], name: str, length: int = 16) -> Enum:
    return Enum(enum, name=name, native_enum=False, length=length)


class Comparison(Base):
    __tablename__ = "comparison"
    __table_args__ = (
        Index("ix_comparison_workspace_id_id", "workspace_id", "id"),
        Index("ix_comparison_workspace_id_status", "workspace_id", "status"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    experiment_id: Mapped[str] = mapped_column(ForeignKey("experiment.id"))
    dataset_version_id: Mapped[str] = mapped_column(ForeignKey("asset_version.id"))
    label: Mapped[str | None] = mapped_column(String(200))
    status: Mapped[ComparisonStatus] = mapped_column(
        _enum(ComparisonStatus, "comparison_status"), default=ComparisonStatus.SETUP
    )
    stop_reason: Mapped[StopReason | None] = mapped_column(_enum(StopReason, "stop_reason"))
    error_code: Mapped[str | None] = mapped_column(String(64))
    split: Mapped[str] = mapped_column(String(8))
    trials_per_case: Mapped[int] = mapped_column(Integer)
    checks: Mapped[list[dict[str, Any]]] = mapped_column(PortableJSON)
    sample: Mapped[dict[str, Any] | None] = mapped_column(PortableJSON)
    variables: Mapped[dict[str, str]] = mapped_column(PortableJSON, default=dict)
    missing_field_policy: Mapped[str] = mapped_column(String(16))
    pairwise: Mapped[dict[str, Any] | None] = mapped_column(PortableJSON)
    budget_cap_micros: Mapped[int | None] = mapped_column(BigInteger)
    epsilon_points: Mapped[float] = mapped_column(
        Float, default=1.0, server_default="1", comment="the gate's ε, in points"
    )
    target_effect_points: Mapped[float] = mapped_column(
        Float, default=5.0, server_default="5", comment="the gate's target effect, in points"
    )
    stopping: Mapped[dict[str, Any] | None] = mapped_column(
        PortableJSON, comment="sequential stopping {rule, alpha, minCases, lookEveryCases}"
    )
    case_order_seed: Mapped[int | None] = mapped_column(
        BigInteger, comment="the seed of the random case order (sequential stopping)"
    )
    looks: Mapped[dict[str, Any] | None] = mapped_column(
        PortableJSON, comment="sequential looks so far and the decision (dispatch/looks.py)"
    )
    ship_policy: Mapped[dict[str, Any] | None] = mapped_column(
        PortableJSON,
        comment="the ship policy frozen at creation, with registeredAt (docs/decision.md)",
    )
    case_count: Mapped[int] = mapped_column(Integer, comment="frozen cases in comparison_case")
    total_calls: Mapped[int] = mapped_column(Integer, comment="planned calls, judge calls included")
    # Progress, recomputed from trial rows under the lease; `seq` orders snapshots.
    seq: Mapped[int] = mapped_column(BigInteger, default=0)
    progress_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime, comment="when `seq` last moved: the time of the latest snapshot"
    )
    done_calls: Mapped[int] = mapped_column(Integer, default=0)
    failed_calls: Mapped[int] = mapped_column(Integer, default=0)
    spent_micros: Mapped[int] = mapped_column(BigInteger, default=0)
    # The finishing lease: the one delivery that ends the run (pairwise stage, finish)
    # holds it; cases are dispatched under the leases of their ranges (`ComparisonRange`).
    lease_token: Mapped[int] = mapped_column(BigInteger, default=0)
    lease_owner: Mapped[str | None] = mapped_column(String(80))
    lease_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    pending_stop: Mapped[str | None] = mapped_column(
        String(40),
        comment="a stop found at admission (a StopReason, or FAILED): every delivery stops",
    )
    created_by_member_id: Mapped[str | None] = mapped_column(String(40))
    started_by_member_id: Mapped[str | None] = mapped_column(String(40))
    rerun_of_id: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finalized_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ComparisonCohort(Base):
    __tablename__ = "comparison_cohort"

    comparison_id: Mapped[str] = mapped_column(
        ForeignKey("comparison.id", ondelete="CASCADE"), primary_key=True
    )
    cohort_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[CohortKind] = mapped_column(_enum(CohortKind, "cohort_kind"))
    release_id: Mapped[str] = mapped_column(
        ForeignKey("release.id"), comment="the release, or a variant's base release"
    )
    overrides: Mapped[dict[str, str]] = mapped_column(
        PortableJSON, default=dict, comment="role → asset version id"
    )
    bindings: Mapped[dict[str, str]] = mapped_column(
        PortableJSON, comment="resolved role → asset version id, frozen at creation"
    )
    label: Mapped[str] = mapped_column(String(200))
    # The pass rate settled when the run ends (server/comparisons/cohort_rates.py): integers,
    # so identical pass sets give identical rates and reads never aggregate trial rows.
    usable_cases: Mapped[int] = mapped_column(
        Integer, default=0, server_default="0", comment="cases with a completed trial"
    )
    pass_fraction_sum: Mapped[int] = mapped_column(
        BigInteger, default=0, server_default="0", comment="Σ passed × PASS_SCALE ÷ completed"
    )

    state: Mapped[CohortState] = mapped_column(
        _enum(CohortState, "cohort_state"), default=CohortState.QUEUED
    )
    # Counters of this cohort's recorded trials: each record adds exactly the rows it wrote;
    # recomputed from the rows at lease acquisition and at the end.
    done_trials: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    failed_trials: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    spent_micros: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")


class ComparisonCase(Base):
    """The frozen selection: which dataset cases the comparison runs, in case-major order."""

    __tablename__ = "comparison_case"

    comparison_id: Mapped[str] = mapped_column(
        ForeignKey("comparison.id", ondelete="CASCADE"), primary_key=True
    )
    ordinal: Mapped[int] = mapped_column(Integer, primary_key=True)
    dataset_case_id: Mapped[int] = mapped_column(ForeignKey("dataset_case.id"))


class Trial(Base):
    """One model call: admitted (checkpoint) before the call, its outcome committed after."""

    __tablename__ = "trial"
    __table_args__ = (
        UniqueConstraint(
            "comparison_id",
            "case_ordinal",
            "cohort_index",
            "trial_index",
            name="uq_trial_comparison_case_cohort_trial",
        ),
        Index("ix_trial_comparison_id_state", "comparison_id", "state"),
        Index("ix_trial_connection_id_completed_at", "connection_id", "completed_at"),
    )

    id: Mapped[int] = mapped_column(AutoIncrementBigInt, primary_key=True, autoincrement=True)
    comparison_id: Mapped[str] = mapped_column(ForeignKey("comparison.id", ondelete="CASCADE"))
    case_ordinal: Mapped[int] = mapped_column(Integer)
    cohort_index: Mapped[int] = mapped_column(Integer)
    trial_index: Mapped[int] = mapped_column(Integer)
    connection_id: Mapped[str] = mapped_column(String(40))
    state: Mapped[TrialState] = mapped_column(_enum(TrialState, "trial_state"))
    delivery_id: Mapped[str] = mapped_column(String(80), comment="the dispatch delivery")
    lease_token: Mapped[int] = mapped_column(BigInteger)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    output: Mapped[str | None] = mapped_column(Text)
    tool_calls: Mapped[list[dict[str, Any]] | None] = mapped_column(PortableJSON)
    input_tokens: Mapped[int] = mapped_column(Integer, default=0)
    output_tokens: Mapped[int] = mapped_column(Integer, default=0)
    cost_micros: Mapped[int] = mapped_column(BigInteger, default=0)
    cost_estimated: Mapped[bool] = mapped_column(
        Boolean,
        default=False,
        server_default=false(),
        comment="cost is the bound (max output tokens), not measured: an ambiguous outcome",
    )
    latency_ms: Mapped[int] = mapped_column(Integer, default=0)
    error_code: Mapped[str | None] = mapped_column(String(64))
    passed: Mapped[bool | None] = mapped_column(Boolean)
    score: Mapped[float | None] = mapped_column(comment="mean of the checks' scores")
    check_results: Mapped[list[dict[str, Any]] | None] = mapped_column(PortableJSON)
    admitted_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


FORWARD: Final = "FORWARD"
"""A hosted pairwise judgment's order: the baseline's output is A."""
REVERSE: Final = "REVERSE"
"""Swapped: the treatment's output is A."""


class JudgmentState(StrEnum):
    ADMITTED = "ADMITTED"
    """Checkpointed before the call: on redelivery it is never re-sent."""
    DONE = "DONE"
    ERRORED = "ERRORED"
    SKIPPED = "SKIPPED"
    """Not called: a side's trial failed, so there is nothing to compare (a settled call)."""


class ComparisonPairJudgment(Base):
    """One pairwise judge call of a hosted comparison: (baseline, case, trial, order). Its
    calls count in the comparison's progress and spend like its trials'."""

    __tablename__ = "comparison_pair_judgment"

    comparison_id: Mapped[str] = mapped_column(
        ForeignKey("comparison.id", ondelete="CASCADE"), primary_key=True
    )
    baseline_cohort_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_ordinal: Mapped[int] = mapped_column(Integer, primary_key=True)
    trial_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    order: Mapped[str] = mapped_column(
        String(8), primary_key=True, comment="FORWARD: the baseline as A; REVERSE: swapped"
    )
    state: Mapped[JudgmentState] = mapped_column(
        Enum(JudgmentState, name="judgment_state", native_enum=False, length=16)
    )
    connection_id: Mapped[str] = mapped_column(String(40))
    score: Mapped[float | None] = mapped_column(Float, comment="the candidate's score")
    failure: Mapped[dict[str, Any] | None] = mapped_column(
        PortableJSON, comment="the pair's failure diagnostics (seed 004), on both orders"
    )
    cost_micros: Mapped[int] = mapped_column(BigInteger, default=0)
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
