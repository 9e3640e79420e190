"""Signed links to a run diff's page (`diffLink`), checked by the page itself."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from urllib.parse import quote, urlencode

from sqlalchemy.ext.asyncio import AsyncSession

from server import signed_links
from server.runs import service as run_service
from server.validation import check_range
from server.workspaces.roles import Actor, Role

KIND = "run_diff"
DEFAULT_HOURS = signed_links.DEFAULT_HOURS
MAX_HOURS = signed_links.MAX_HOURS


def subject(candidate_run_id: str, baseline_run_id: str) -> str:
    return f"{candidate_run_id}/{baseline_run_id}"


def diff_path(experiment_id: str, candidate_run_id: str, baseline_run_id: str) -> str:
    """The diff page's path (without a token)."""
    query = urlencode({"baselineRunId": baseline_run_id})
    return (
        f"/experiments/{quote(experiment_id, safe='')}/runs/"
        f"{quote(candidate_run_id, safe='')}/diff?{query}"
    )


async def create_diff_link(
    *,
    session: AsyncSession,
    actor: Actor,
    secret: str,
    candidate_run_id: str,
    baseline_run_id: str,
    expires_in_hours: int = DEFAULT_HOURS,
) -> tuple[str, datetime]:
    """(path with `token=…`, expiry) of a link that opens this diff's page without a token."""
    actor.require(Role.MEMBER)
    check_range(expires_in_hours, field="expiresInHours", low=1, high=MAX_HOURS)
    candidate = await run_service.get(
        session=session,
        workspace_id=actor.workspace_id,
        run_id=candidate_run_id,
        field="candidateRunId",
    )
    await run_service.get(
        session=session,
        workspace_id=actor.workspace_id,
        run_id=baseline_run_id,
        field="baselineRunId",
    )
    expires_at = int(time.time()) + expires_in_hours * 3600
    token = signed_links.sign(
        secret=secret,
        kind=KIND,
        subject=subject(candidate.id, baseline_run_id),
        workspace_id=actor.workspace_id,
        expires_at=expires_at,
    )
    path = diff_path(candidate.experiment_id, candidate.id, baseline_run_id)
    return f"{path}&{urlencode({'token': token})}", datetime.fromtimestamp(expires_at, UTC)
