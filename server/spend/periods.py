"""The UTC periods spend limits count in: the calendar month and the day."""

from __future__ import annotations

from datetime import UTC, datetime


def month_start(now: datetime) -> datetime:
    return now.astimezone(UTC).replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def day_start(now: datetime) -> datetime:
    return now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def month_key(now: datetime) -> str:
    return month_start(now).date().isoformat()


def day_key(now: datetime) -> str:
    return day_start(now).date().isoformat()
