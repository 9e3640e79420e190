"""A pairwise job: two COMPLETED runs judged pair by pair, in both orders, by one judge."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import BigInteger, Enum, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from server.db import Base, PortableJSON, UTCDateTime, utcnow


class PairwiseJobStatus(StrEnum):
    QUEUED = "QUEUED"
    RUNNING = "RUNNING"
    DONE = "DONE"
    FAILED = "FAILED"


class PairwiseJob(Base):
    __tablename__ = "pairwise_job"
    __table_args__ = (
        Index("ix_pairwise_job_workspace_id_id", "workspace_id", "id"),
        Index("ix_pairwise_job_connection_id_completed_at", "connection_id", "completed_at"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    candidate_run_id: Mapped[str] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"))
    baseline_run_id: Mapped[str] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"))
    rubric_version_id: Mapped[str] = mapped_column(String(40))
    judge_model_config_version_id: Mapped[str] = mapped_column(String(40))
    connection_id: Mapped[str] = mapped_column(
        ForeignKey("model_connection.id"), comment="the judge's connection"
    )
    status: Mapped[PairwiseJobStatus] = mapped_column(
        Enum(PairwiseJobStatus, name="pairwise_job_status", native_enum=False, length=16)
    )
    judged_pairs: Mapped[int] = mapped_column(Integer, default=0)
    total_pairs: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(PortableJSON)
    error_code: Mapped[str | None] = mapped_column(String(64))
    cost_micros: Mapped[int] = mapped_column(
        BigInteger, default=0, comment="the judge calls' cost, estimated from characters ÷ 4"
    )
    created_by_member_id: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class PairState(StrEnum):
    ADMITTED = "ADMITTED"
    """Checkpointed before its judge calls: on redelivery it is never re-sent."""
    DONE = "DONE"


class PairwisePair(Base):
    """One matched pair of a job (its index in pairing order) and how it was judged."""

    __tablename__ = "pairwise_pair"

    job_id: Mapped[str] = mapped_column(
        ForeignKey("pairwise_job.id", ondelete="CASCADE"), primary_key=True
    )
    pair_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    state: Mapped[PairState] = mapped_column(
        Enum(PairState, name="pairwise_pair_state", native_enum=False, length=16)
    )
    forward: Mapped[float | None] = mapped_column(Float, comment="the candidate's score as B")
    reverse: Mapped[float | None] = mapped_column(Float, comment="the candidate's score as A")
    failure: Mapped[dict[str, Any] | None] = mapped_column(PortableJSON)
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
