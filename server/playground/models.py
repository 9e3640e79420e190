"""The Playground's calls: one row per provider call, what it cost and whom it was for.

A row is what the connection's monthly cap and the workspace's spend count
(`server.spend`), beside trials and judge calls. No prompt text, no output: those live only
in the run's in-memory snapshots (`server.playground.runs`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from server.db import AutoIncrementBigInt, Base, UTCDateTime, utcnow


class PlaygroundCall(Base):
    __tablename__ = "playground_call"
    __table_args__ = (
        Index("ix_playground_call_connection_id_recorded_at", "connection_id", "recorded_at"),
        Index("ix_playground_call_workspace_id_recorded_at", "workspace_id", "recorded_at"),
    )

    id: Mapped[int] = mapped_column(AutoIncrementBigInt, primary_key=True, autoincrement=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    run_id: Mapped[str] = mapped_column(String(40), comment="the playgroundRun it belonged to")
    connection_id: Mapped[str] = mapped_column(String(40))
    member_id: Mapped[str | None] = mapped_column(String(40))
    input_tokens: Mapped[int] = mapped_column(Integer, default=0)
    output_tokens: Mapped[int] = mapped_column(Integer, default=0)
    cost_micros: Mapped[int] = mapped_column(BigInteger, default=0)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
