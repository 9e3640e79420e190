"""One job run as both adapters do it: timeout, outcome count, a log line without secrets."""

from __future__ import annotations

import asyncio
import logging
import traceback
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final

from server.runtime.interfaces import JobFunction

logger = logging.getLogger("shipwise.jobs")

COMPLETE: Final = "complete"
FAILED: Final = "failed"

RecordOutcome = Callable[[str, str], Awaitable[None]]
"""`await record(job_name, outcome)` — counts one finished run."""


class JobFailed(Exception):
    """Stands in for a job's exception: carries the job and class names, never the message."""


class RunAgain(Exception):
    """The job stopped for a passing reason (its broker went away), not a failure of its own:
    the queue runs it again and it is not counted."""


async def run_counted(
    name: str,
    function: JobFunction,
    ctx: dict[str, Any],
    args: tuple[Any, ...],
    kwargs: Mapping[str, Any],
    *,
    timeout_seconds: float | None,
    record: RecordOutcome,
) -> Any:
    """Run `function(ctx, *args, **kwargs)` and count its outcome.

    A failure (including the timeout) is logged by class name and re-raised as `JobFailed`
    so that neither our log nor the queue's stored result holds the exception text.
    Cancellation is not an outcome: the job will run again (arq) or the process is stopping.
    """
    try:
        # asyncio.timeout keeps the job in its own task (wait_for would wrap it in another).
        async with asyncio.timeout(timeout_seconds):
            result = await function(ctx, *args, **kwargs)
    except (asyncio.CancelledError, RunAgain):
        raise
    except Exception as exc:
        kind = type(exc).__name__
        _log_failure(name, ctx.get("job_id"), exc)
        await _record_safely(record, name, FAILED)
        raise JobFailed(f"job {name} failed: {kind}") from None
    await _record_safely(record, name, COMPLETE)
    return result


def _log_failure(name: str, job_id: object, exc: BaseException) -> None:
    # Frames name code locations only; `str(exc)` could quote a credential or a prompt.
    frames = "".join(traceback.format_tb(exc.__traceback__))
    logger.error("job %s (id %s) failed: %s\n%s", name, job_id, type(exc).__name__, frames.rstrip())


async def _record_safely(record: RecordOutcome, name: str, outcome: str) -> None:
    # A lost count must not turn a finished job into a failed (and re-run) one.
    try:
        await record(name, outcome)
    except Exception as exc:
        logger.warning("could not count job %s as %s: %s", name, outcome, type(exc).__name__)
