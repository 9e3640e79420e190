"""Job: finalize a DONE comparison — its scorecard, case rows and hosted runs — then queue
the hosted runs' items (`jobs/hosted_runs.py`), which follow the committed verdict.

Queued by dispatch when a run ends DONE and by `finalizeComparison` (a fresh job id each
time). Idempotent; a failure leaves the comparison NOT_FINALIZED with a bounded code.
"""

from __future__ import annotations

import logging
from typing import Any

from server import db_retry
from server.comparisons import hooks as comparison_hooks
from server.verdicts import hosted_runs, service
from server.verdicts.models import VerdictError

logger = logging.getLogger("shipwise.finalize")


async def finalize_comparison(ctx: dict[str, Any], comparison_id: str) -> str:
    """arq job: finalize one comparison; what it did (`finalized`, `already finalized`…)."""
    sessionmaker = ctx["sessionmaker"]
    try:
        done = await db_retry.retried(  # idempotent: a lost connection runs it again
            lambda: service.finalize(sessionmaker=sessionmaker, comparison_id=comparison_id),
            what="finalization",
        )
    except Exception as exc:
        # The class only: a message could quote case data.
        logger.error(
            "finalization failed",
            extra={"comparison_id": comparison_id, "error_type": type(exc).__name__},
        )
        await db_retry.retried(
            lambda: service.record_failure(
                sessionmaker=sessionmaker,
                comparison_id=comparison_id,
                error_code=VerdictError.FINALIZE_INTERNAL.value,
            ),
            what="recording a finalization failure",
        )
        return "failed"
    if done.status in ("finalized", "already finalized"):  # a repeat: its runs may be RUNNING
        await hosted_runs.queue_completion(ctx["queue"], comparison_id, suffix="finalize")
    await _announce_regressions(ctx, done)
    return done.status


async def _announce_regressions(ctx: dict[str, Any], done: service.Finalized) -> None:
    """`COMPARISON_REGRESSED` when this attempt finalized a baseline as `REGRESSED`."""
    regressed = [o for o in done.outcomes if o.outcome == "REGRESSED"]
    if done.status != "finalized" or not regressed:
        return
    await comparison_hooks.comparison_regressed(
        sessionmaker=ctx["sessionmaker"],
        queue=ctx["queue"],
        comparison_id=done.comparison_id,
        summary={
            "regressedBaselines": [
                {
                    "baselineCohortIndex": o.baseline_cohort_index,
                    "reason": o.reason,
                    "passRateDeltaPoints": o.pass_rate_delta_points,
                }
                for o in regressed
            ]
        },
    )
