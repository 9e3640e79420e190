"""Experiments: named groups of runs with an optional daily budget across their comparisons."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from server.db import Base, UTCDateTime, utcnow


class Experiment(Base):
    __tablename__ = "experiment"
    __table_args__ = (
        UniqueConstraint("workspace_id", "name", name="uq_experiment_workspace_id_name"),
        Index("ix_experiment_workspace_id_id", "workspace_id", "id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    daily_budget_micros: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    created_by_member_id: Mapped[str | None] = mapped_column(String(40))
