"""The spend ledgers dispatch writes as it records and the caps read (`ledgers`, `caps`), and
the Playground's calls (`PlaygroundCall`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from server.db import AutoIncrementBigInt, Base, UTCDateTime, utcnow


class ConnectionSpend(Base):
    """A connection's recorded spend in one UTC month: the ledger its monthly cap reads."""

    __tablename__ = "connection_spend"

    connection_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    month: Mapped[str] = mapped_column(String(10), primary_key=True, comment="YYYY-MM-01 (UTC)")
    spent_micros: Mapped[int] = mapped_column(BigInteger, default=0)


class ExperimentSpend(Base):
    """An experiment's recorded spend in one UTC day: the ledger its daily budget reads."""

    __tablename__ = "experiment_spend"

    experiment_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    day: Mapped[str] = mapped_column(String(10), primary_key=True, comment="YYYY-MM-DD (UTC)")
    spent_micros: Mapped[int] = mapped_column(BigInteger, default=0)


class RunJudgeSpend(Base):
    """What an imported run's judge calls cost one connection in one appended chunk: the
    rows the ledgers are resynced from, beside trials and pairwise judgements."""

    __tablename__ = "run_judge_spend"
    __table_args__ = (
        Index("ix_run_judge_spend_connection_id_recorded_at", "connection_id", "recorded_at"),
        Index("ix_run_judge_spend_experiment_id_recorded_at", "experiment_id", "recorded_at"),
    )

    id: Mapped[int] = mapped_column(AutoIncrementBigInt, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"), index=True)
    experiment_id: Mapped[str] = mapped_column(String(40))
    connection_id: Mapped[str] = mapped_column(String(40))
    calls: Mapped[int] = mapped_column(Integer)
    spent_micros: Mapped[int] = mapped_column(BigInteger)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class PlaygroundCall(Base):
    """One Playground call (`server.playground`): what it cost one connection, the rows the
    ledgers are resynced from beside trials and judge calls. No prompt text, no output."""

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
