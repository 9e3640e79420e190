"""Runs and their items: the shape every run diff reads, hosted and imported alike.

An item keeps its trials as one JSON list (for display, export and pairwise judging) and,
beside them, the integer counts and per-evaluator means a diff needs, so per-item
differences are computed in SQL without reading the trials.

A trial in `RunItem.trials`: `{passed?, evaluators {name: score}, output?, metrics {tokens,
turns, toolCalls, wallMs, errors}}` — hosted runs add `{trialIndex, errorCode?, latencyMs,
inputTokens, outputTokens, costMicros}` inside `metrics`/beside it as they have them.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    ARRAY,
    JSON,
    BigInteger,
    Enum,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from server.db import AutoIncrementBigInt, Base, PortableJSON, UTCDateTime, utcnow


class RunSource(StrEnum):
    HOSTED = "HOSTED"
    IMPORTED = "IMPORTED"


class RunStatus(StrEnum):
    RUNNING = "RUNNING"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"


def _enum(enum: type[StrEnum], name: str) -> Enum:
    return Enum(enum, name=name, native_enum=False, length=16)


class Run(Base):
    __tablename__ = "run"
    __table_args__ = (
        Index("ix_run_workspace_id_id", "workspace_id", "id"),
        Index(
            "ix_run_experiment_id_status_completed_at", "experiment_id", "status", "completed_at"
        ),
        Index("ix_run_workspace_id_idempotency_key", "workspace_id", "idempotency_key"),
        UniqueConstraint("comparison_id", "cohort_index", name="uq_run_comparison_id_cohort_index"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    experiment_id: Mapped[str] = mapped_column(ForeignKey("experiment.id"))
    source: Mapped[RunSource] = mapped_column(_enum(RunSource, "run_source"))
    status: Mapped[RunStatus] = mapped_column(_enum(RunStatus, "run_status"))
    item_count: Mapped[int] = mapped_column(Integer, default=0)
    metadata_: Mapped[dict[str, Any]] = mapped_column("metadata", PortableJSON, default=dict)
    idempotency_key: Mapped[str | None] = mapped_column(
        String(200), comment="imported runs: the key given to startRunImport"
    )
    items_digest: Mapped[str | None] = mapped_column(
        String(64), comment="imported runs: a running hash of the appended items, for idempotency"
    )
    error_code: Mapped[str | None] = mapped_column(String(64))
    judge_evaluator: Mapped[str | None] = mapped_column(
        String(200), comment="imported runs: the evaluator that is an LLM judge's grade"
    )
    checks: Mapped[list[dict[str, Any]] | None] = mapped_column(
        PortableJSON, comment="imported runs: the checks the server grades each trial with"
    )
    budget_cap_micros: Mapped[int | None] = mapped_column(
        BigInteger, comment="imported runs: the cap on what its judge calls may spend"
    )
    judge_spent_micros: Mapped[int] = mapped_column(
        BigInteger, default=0, server_default="0", comment="imported runs: its judge calls' cost"
    )
    judge_call_count: Mapped[int] = mapped_column(
        Integer, default=0, server_default="0", comment="imported runs: judge calls made"
    )
    stop_reason: Mapped[str | None] = mapped_column(
        String(32), comment="imported runs: the spend limit that stopped its judge calls"
    )
    comparison_id: Mapped[str | None] = mapped_column(
        ForeignKey("comparison.id", ondelete="CASCADE"), comment="hosted runs: the comparison"
    )
    cohort_index: Mapped[int | None] = mapped_column(Integer, comment="hosted runs: the cohort")
    created_by_member_id: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class RunItem(Base):
    """One item of a run, with the integer counts a diff computes on in SQL."""

    __tablename__ = "run_item"
    __table_args__ = (
        UniqueConstraint("run_id", "position", name="uq_run_item_run_id_position"),
        Index("ix_run_item_run_id_dataset_item_id", "run_id", "dataset_item_id"),
    )

    id: Mapped[int] = mapped_column(AutoIncrementBigInt, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    dataset_item_id: Mapped[str | None] = mapped_column(String(200))
    input: Mapped[Any] = mapped_column(PortableJSON)
    trials: Mapped[list[dict[str, Any]]] = mapped_column(PortableJSON)
    trial_count: Mapped[int] = mapped_column(Integer)
    graded_count: Mapped[int] = mapped_column(
        Integer, comment="trials with a pass/fail grade (`passed` not null)"
    )
    passed_count: Mapped[int] = mapped_column(Integer)


class RunItemScore(Base):
    """One evaluator's mean over an item's trials: what a diff compares per evaluator."""

    __tablename__ = "run_item_score"

    run_id: Mapped[str] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    evaluator: Mapped[str] = mapped_column(String(200), primary_key=True)
    mean: Mapped[float] = mapped_column(Float)
    count: Mapped[int] = mapped_column(Integer)


class RunDiffSummary(Base):
    """A run diff's summary, cached per (candidate, baseline, ε): completed runs never change."""

    __tablename__ = "run_diff_summary"

    candidate_run_id: Mapped[str] = mapped_column(
        ForeignKey("run.id", ondelete="CASCADE"), primary_key=True
    )
    baseline_run_id: Mapped[str] = mapped_column(
        ForeignKey("run.id", ondelete="CASCADE"), primary_key=True
    )
    epsilon: Mapped[str] = mapped_column(String(32), primary_key=True, comment="repr(float(ε))")
    summary: Mapped[dict[str, Any]] = mapped_column(PortableJSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


_INTS = ARRAY(Integer).with_variant(JSON(), "sqlite")


class RunVector(Base):
    """PostgreSQL: a completed run's items as parallel arrays in pairing-key order.

    Built once per completed run (`server.runs.vectors`), so a diff of two runs over the
    same items zips two rows' arrays in SQL instead of joining 2 × n item and score rows.
    `keyed_by` is DATASET_ITEM_ID (sorted by `keys`) when every item carries one, else
    POSITIONAL (sorted by position); `means[e][k]` is evaluator `evaluators[e]`'s mean of
    the k-th item, NULL where that item has no score of it.
    """

    __tablename__ = "run_vector"

    run_id: Mapped[str] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"), primary_key=True)
    keyed_by: Mapped[str] = mapped_column(String(16))
    keys: Mapped[list[str] | None] = mapped_column(ARRAY(Text).with_variant(JSON(), "sqlite"))
    positions: Mapped[list[int]] = mapped_column(_INTS)
    passed: Mapped[list[int]] = mapped_column(_INTS)
    graded: Mapped[list[int]] = mapped_column(_INTS)
    evaluators: Mapped[list[str]] = mapped_column(ARRAY(Text).with_variant(JSON(), "sqlite"))
    means: Mapped[list[list[float | None]] | None] = mapped_column(
        ARRAY(Float, dimensions=2).with_variant(JSON(), "sqlite")
    )
