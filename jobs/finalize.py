"""Job: finalize a DONE comparison — its scorecard, hosted runs and case rows.

Queued by dispatch when a run ends DONE and by `finalizeComparison` (a fresh job id each
time). Idempotent; a failure leaves the comparison NOT_FINALIZED with a bounded code.
"""

from __future__ import annotations

import logging
from typing import Any

from server.runtime.interfaces import JobQueue
from server.verdicts import service
from server.verdicts.models import VerdictError

logger = logging.getLogger("shipwise.finalize")


async def finalize_comparison(ctx: dict[str, Any], comparison_id: str) -> str:
    """arq job: finalize one comparison; what it did (`finalized`, `already finalized`…)."""
    sessionmaker = ctx["sessionmaker"]
    try:
        done = await service.finalize(sessionmaker=sessionmaker, comparison_id=comparison_id)
    except Exception as exc:
        # The class only: a message could quote case data.
        logger.error(
            "finalization failed",
            extra={"comparison_id": comparison_id, "error_type": type(exc).__name__},
        )
        await service.record_failure(
            sessionmaker=sessionmaker,
            comparison_id=comparison_id,
            error_code=VerdictError.FINALIZE_INTERNAL.value,
        )
        return "failed"
    return done.status


async def queue_finalization(queue: JobQueue, comparison_id: str) -> None:
    """Dispatch's hook once a run ended DONE; never raises (the verdict sweep catches a lost
    job: a DONE comparison nobody tried to finalize)."""
    try:
        await queue.enqueue(
            service.FINALIZE_JOB,
            comparison_id,
            job_id=service.finalize_job_id(comparison_id, "dispatch"),
        )
    except Exception as exc:
        logger.warning("finalization not queued", extra={"error_type": type(exc).__name__})
