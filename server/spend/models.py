"""The spend ledgers dispatch writes as it records and the caps read (`ledgers`, `caps`)."""

from __future__ import annotations

from sqlalchemy import BigInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from server.db import Base


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
