"""Every job function by name, and the periodic jobs; both runners use this registry."""

from __future__ import annotations

from datetime import timedelta

from jobs.heartbeat import record_heartbeat
from server.runtime.interfaces import JobRegistry, PeriodicJob


def build_registry(*, timeout_seconds: int = 300) -> JobRegistry:
    return JobRegistry(
        functions={"record_heartbeat": record_heartbeat},
        periodic=(PeriodicJob("record_heartbeat", timedelta(minutes=1), run_at_startup=True),),
        timeout_seconds=timeout_seconds,
    )
