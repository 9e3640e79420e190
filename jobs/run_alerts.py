"""Job: after an imported run completes, diff it against its experiment's previous completed
imported run and fire RUN_REGRESSED when that diff is a significant regression.

A job, not the `completeRun` request: the diff of two large runs takes a moment, and the
webhook is sent by its own job anyway. Idempotent: the diff summary is cached and the
event id is derived from the run, so a redelivery sends nothing twice.
"""

from __future__ import annotations

from typing import Any

from server.runs import diff
from server.runs import hooks as run_hooks


async def announce_run_regression(ctx: dict[str, Any], workspace_id: str, run_id: str) -> str:
    """arq job: `regressed`, `steady` or `no baseline` (hosted runs and first runs)."""
    async with ctx["sessionmaker"]() as session:
        summary = await diff.diff_against_previous(
            session=session, workspace_id=workspace_id, run_id=run_id
        )
        await session.commit()  # the cached summary
    if summary is None:
        return "no baseline"
    if not summary.regression:
        return "steady"
    await run_hooks.run_regressed(
        sessionmaker=ctx["sessionmaker"],
        queue=ctx["queue"],
        run_id=run_id,
        summary={
            "baselineRunId": summary.baseline_run_id,
            "passRateDelta": summary.pass_rate_delta,
            "regressedCount": summary.regressed_count,
            "significant": summary.significant,
        },
    )
    return "regressed"
