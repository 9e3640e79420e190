"""Operational state: when each worker last ran its heartbeat job."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from server.db import Base, UTCDateTime, utcnow


class WorkerHeartbeat(Base):
    __tablename__ = "worker_heartbeat"

    worker_name: Mapped[str] = mapped_column(String(200), primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
