"""Job: a finalized comparison's hosted runs get their items and complete.

Queued by `finalize_comparison` once the verdict is committed, and by the verdict sweep for
hosted runs left RUNNING (a lost job). Idempotent: a second run finds nothing to do.
"""

from __future__ import annotations

from typing import Any

from server import db_retry
from server.verdicts import hosted_runs


async def complete_hosted_runs(ctx: dict[str, Any], comparison_id: str) -> str:
    """arq job: `completed` or `nothing to do` (complete already); a failure is raised, and
    the sweep queues the job again."""
    return await db_retry.retried(  # idempotent: a lost connection runs it again
        lambda: hosted_runs.complete(sessionmaker=ctx["sessionmaker"], comparison_id=comparison_id),
        what="hosted runs",
    )
