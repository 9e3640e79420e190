"""Dispatch's own table: the ranges a comparison's cases are dispatched in, each under its
lease and fencing token (`ranges`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from server.db import Base, UTCDateTime


class ComparisonRange(Base):
    """A run of consecutive cases dispatched under its own lease and fencing token, so
    several deliveries (on any hosts) share one comparison (server/dispatch/ranges.py)."""

    __tablename__ = "comparison_range"

    comparison_id: Mapped[str] = mapped_column(
        ForeignKey("comparison.id", ondelete="CASCADE"), primary_key=True
    )
    range_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    first_ordinal: Mapped[int] = mapped_column(Integer)
    end_ordinal: Mapped[int] = mapped_column(Integer, comment="exclusive")
    lease_token: Mapped[int] = mapped_column(BigInteger, default=0)
    lease_owner: Mapped[str | None] = mapped_column(String(80))
    lease_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime, comment="every trial of the range has its outcome"
    )
