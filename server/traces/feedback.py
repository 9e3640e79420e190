"""Feedback on a trace (`scoreTrace`): a named score, audited."""

from __future__ import annotations

import math

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.audit import service as audit
from server.errors import NotFound, ValidationFailed
from server.traces.models import Trace, TraceFeedback
from server.validation import clean_name
from server.workspaces.roles import Actor, Role

MAX_COMMENT_CHARS = 10_000


async def score(
    *,
    session: AsyncSession,
    actor: Actor,
    trace_id: str,
    name: str,
    value: float,
    comment: str | None,
) -> TraceFeedback:
    """Record a score on one of the workspace's traces (MEMBER)."""
    actor.require(Role.MEMBER)
    name = clean_name(name)
    if not math.isfinite(value):
        raise ValidationFailed("`value` must be a finite number", field="value")
    if comment is not None and len(comment) > MAX_COMMENT_CHARS:
        raise ValidationFailed(f"`comment` is over {MAX_COMMENT_CHARS} characters", field="comment")
    found = await session.scalar(
        select(Trace.id).where(
            Trace.workspace_id == actor.workspace_id,
            Trace.id == trace_id.lower(),
            Trace.step_count > 0,
        )
    )
    if found is None:
        raise NotFound("no such trace")
    row = TraceFeedback(
        workspace_id=actor.workspace_id,
        trace_id=found,
        name=name,
        value=value,
        comment=comment,
        member_id=actor.member_id,
    )
    session.add(row)
    await session.execute(
        update(Trace)
        .where(Trace.workspace_id == actor.workspace_id, Trace.id == found)
        .values(has_feedback=True)
    )
    await session.flush()
    await audit.record(
        session=session,
        actor=actor,
        action="trace.score",
        target_type="trace",
        target_id=found,
        details={"name": name, "value": value},
    )
    return row
