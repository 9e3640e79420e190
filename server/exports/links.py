"""Signed links to exports (`exportLink`): who may download which export, until when.

A link names what it opens (a comparison's cases, a run's items, or a diff of two runs) and
its workspace, signed with `server.signed_links`; the format is the URL's, so one link's
token opens the CSV and the JSONL alike.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from enum import StrEnum
from urllib.parse import quote, urlencode

from sqlalchemy.ext.asyncio import AsyncSession

from server import signed_links
from server.comparisons import service as comparison_service
from server.errors import ValidationFailed
from server.exports.encoding import ExportFormat
from server.runs import service as run_service
from server.validation import check_range
from server.workspaces.roles import Actor, Role

KIND = "export"
DEFAULT_HOURS = signed_links.DEFAULT_HOURS


class ExportTarget(StrEnum):
    COMPARISON_CASES = "COMPARISON_CASES"
    RUN_ITEMS = "RUN_ITEMS"
    RUN_DIFF = "RUN_DIFF"


def subject(target: ExportTarget, subject_id: str, baseline_run_id: str | None = None) -> str:
    if target == ExportTarget.RUN_DIFF:
        return f"diff/{subject_id}/{baseline_run_id}"
    return f"{'comparison' if target == ExportTarget.COMPARISON_CASES else 'run'}/{subject_id}"


def _q(value: str) -> str:
    return quote(value, safe="")


def comparison_path(comparison_id: str, export_format: ExportFormat) -> str:
    return f"/comparisons/{_q(comparison_id)}/cases.{export_format.value}"


def run_path(run_id: str, export_format: ExportFormat) -> str:
    return f"/runs/{_q(run_id)}/items.{export_format.value}"


def diff_path(
    experiment_id: str, candidate_run_id: str, baseline_run_id: str, export_format: ExportFormat
) -> str:
    query = urlencode({"baselineRunId": baseline_run_id})
    return (
        f"/experiments/{_q(experiment_id)}/runs/{_q(candidate_run_id)}/"
        f"diff.{export_format.value}?{query}"
    )


async def _path(
    session: AsyncSession,
    actor: Actor,
    target: ExportTarget,
    subject_id: str,
    baseline_run_id: str | None,
    export_format: ExportFormat,
) -> str:
    """The export's path, once its objects are found in the actor's workspace."""
    workspace_id = actor.workspace_id
    if target == ExportTarget.COMPARISON_CASES:
        await comparison_service.get(
            session=session, workspace_id=workspace_id, comparison_id=subject_id
        )
        return comparison_path(subject_id, export_format)
    run = await run_service.get(session=session, workspace_id=workspace_id, run_id=subject_id)
    if target == ExportTarget.RUN_ITEMS:
        return run_path(run.id, export_format)
    if baseline_run_id is None:
        raise ValidationFailed("a RUN_DIFF export needs `baselineRunId`", field="baselineRunId")
    await run_service.get(
        session=session, workspace_id=workspace_id, run_id=baseline_run_id, field="baselineRunId"
    )
    return diff_path(run.experiment_id, run.id, baseline_run_id, export_format)


async def create_export_link(
    *,
    session: AsyncSession,
    actor: Actor,
    secret: str,
    target: ExportTarget,
    subject_id: str,
    export_format: ExportFormat,
    baseline_run_id: str | None = None,
    expires_in_hours: int = DEFAULT_HOURS,
) -> tuple[str, datetime]:
    """(path with `token=…`, expiry) of a link that downloads the export without a token."""
    actor.require(Role.MEMBER)
    check_range(expires_in_hours, field="expiresInHours", low=1, high=signed_links.MAX_HOURS)
    if target != ExportTarget.RUN_DIFF and baseline_run_id is not None:
        raise ValidationFailed(
            "only a RUN_DIFF export takes `baselineRunId`", field="baselineRunId"
        )
    path = await _path(session, actor, target, subject_id, baseline_run_id, export_format)
    expires_at = int(time.time()) + expires_in_hours * 3600
    token = signed_links.sign(
        secret=secret,
        kind=KIND,
        subject=subject(target, subject_id, baseline_run_id),
        workspace_id=actor.workspace_id,
        expires_at=expires_at,
    )
    joiner = "&" if "?" in path else "?"
    return f"{path}{joiner}{urlencode({'token': token})}", datetime.fromtimestamp(expires_at, UTC)
