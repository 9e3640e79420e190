"""RUN_REGRESSED: what `completeRun` queues once an imported run is COMPLETED."""

from __future__ import annotations

import logging

from server.runtime.interfaces import JobQueue

logger = logging.getLogger("shipwise.runs")

REGRESSION_JOB = "announce_run_regression"
"""Enqueued by name (server never imports jobs): `jobs/run_alerts.py`."""


async def queue_regression_check(*, queue: JobQueue, workspace_id: str, run_id: str) -> None:
    """Queue the diff against the previous imported run; never fails the completion."""
    try:
        await queue.enqueue(
            REGRESSION_JOB, workspace_id, run_id, job_id=f"{REGRESSION_JOB}:{run_id}"
        )
    except Exception as exc:
        logger.warning("regression check not queued", extra={"error_type": type(exc).__name__})
