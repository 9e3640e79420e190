"""`exportLink`: a signed link that downloads an export without a token (thin resolver)."""

from __future__ import annotations

from datetime import datetime
from typing import TypeAlias

import strawberry

from server.api.context import Context
from server.exports import links
from server.exports.encoding import ExportFormat as ExportFormatValue
from server.exports.links import ExportTarget as ExportTargetValue
from server.workspaces.roles import Role

strawberry.enum(
    ExportTargetValue,
    name="ExportTarget",
    description="What an export holds: COMPARISON_CASES (one row per case, cohort and trial), "
    "RUN_ITEMS (one per item and trial), RUN_DIFF (`id` the candidate run, `baselineRunId` the "
    "baseline).",
)
ExportTarget: TypeAlias = ExportTargetValue
strawberry.enum(ExportFormatValue, name="ExportFormat")
ExportFormat: TypeAlias = ExportFormatValue


@strawberry.type
class ExportLink:
    url: str = strawberry.field(description="The export's path with its signed `token`.")
    expires_at: datetime


@strawberry.type
class ExportMutation:
    @strawberry.mutation(
        description="A signed link to an export (CSV or JSON Lines), valid for the hours given "
        "(1–720). The link's token opens either format."
    )
    async def export_link(
        self,
        info: strawberry.Info[Context],
        target: ExportTarget,
        id: strawberry.ID,
        format: ExportFormat,
        baseline_run_id: strawberry.ID | None = None,
        expires_in_hours: int = links.DEFAULT_HOURS,
    ) -> ExportLink:
        actor = info.context.require(Role.MEMBER)
        async with info.context.read() as session:
            url, expires_at = await links.create_export_link(
                session=session,
                actor=actor,
                secret=info.context.settings.resolved_secret_key(),
                target=target,
                subject_id=id,
                export_format=format,
                baseline_run_id=baseline_run_id,
                expires_in_hours=expires_in_hours,
            )
        return ExportLink(url=url, expires_at=expires_at)
