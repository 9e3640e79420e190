"""Job: judge a pairwise job (two COMPLETED runs, every pair in both orders)."""

from __future__ import annotations

import logging
from typing import Any

from server.run_pairs import execute
from server.security import SecretBox

logger = logging.getLogger("shipwise.pairwise")


async def judge_run_pair(ctx: dict[str, Any], pairwise_job_id: str) -> str:
    """arq job: judge one pairwise job; what it did (`done`, `failed`, `already finished`)."""
    settings = ctx["settings"]
    try:
        return await execute.judge_job(
            sessionmaker=ctx["sessionmaker"],
            queue=ctx["queue"],
            secrets=SecretBox(settings.resolved_secret_key()),
            job_id=pairwise_job_id,
            timeout_seconds=settings.provider_timeout_seconds,
            # Hand over well before arq's timeout: a slice's calls may still take a while.
            budget_seconds=settings.job_timeout_seconds / 3,
        )
    except Exception as exc:
        # The class only: a message could quote run data.
        logger.error(
            "pairwise judging failed",
            extra={"pairwise_job_id": pairwise_job_id, "error_type": type(exc).__name__},
        )
        await execute.record_failure(sessionmaker=ctx["sessionmaker"], job_id=pairwise_job_id)
        return "failed"
