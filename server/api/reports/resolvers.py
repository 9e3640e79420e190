"""Thin resolvers: `report(id)`, `comparison.reports` and the report mutations."""

from __future__ import annotations

import strawberry

from server.api.context import Context
from server.api.reports.types import FollowUp, Report, ReportLink, SignOff, SignOffDecision
from server.reports import followups, service, signoff
from server.reports.links import DEFAULT_HOURS
from server.reports.models import Decision as DecisionEnum
from server.workspaces.roles import Role


async def reports_of(context: Context, comparison_id: str) -> list[Report]:
    """`Comparison.reports`: every version, oldest first."""
    rows = await context.loaders.reports.load(comparison_id)
    return [Report.from_row(row) for row in rows]


@strawberry.type
class ReportQuery:
    @strawberry.field(description="A report version of the workspace.")
    async def report(self, info: strawberry.Info[Context], id: strawberry.ID) -> Report:
        actor = info.context.require()
        async with info.context.read() as session:
            row = await service.get(
                session=session, workspace_id=actor.workspace_id, report_id=str(id)
            )
        return Report.from_row(row)


@strawberry.type
class ReportMutation:
    @strawberry.mutation(
        description="Freeze version n+1 of a FINALIZED comparison's report (CONFLICT otherwise)."
    )
    async def generate_report(
        self, info: strawberry.Info[Context], comparison_id: strawberry.ID
    ) -> Report:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await service.generate(
                session=session, actor=actor, comparison_id=str(comparison_id)
            )
        return Report.from_row(row)

    @strawberry.mutation(
        description="A signed link to the report page, valid 1 to 720 hours. Asked again by "
        "the same member for the same hours while more than half of them are left, it is the "
        "same link (and no new `report.link` audit event)."
    )
    async def report_link(
        self,
        info: strawberry.Info[Context],
        id: strawberry.ID,
        expires_in_hours: int = DEFAULT_HOURS,
    ) -> ReportLink:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            signed = await service.link(
                session=session,
                actor=actor,
                secret=info.context.settings.resolved_secret_key(),
                report_id=str(id),
                expires_in_hours=expires_in_hours,
            )
        request = info.context.request
        base = str(request.base_url).rstrip("/") if request is not None else ""
        return ReportLink(url=base + signed.path, path=signed.path, expires_at=signed.expires_at)

    @strawberry.mutation(description="Resolve an open follow-up with a note (1–2,000 chars).")
    async def resolve_follow_up(
        self, info: strawberry.Info[Context], id: strawberry.ID, note: str
    ) -> FollowUp:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            rows = await followups.resolve(
                session=session, actor=actor, follow_up_ids=[str(id)], note=note
            )
        return FollowUp.from_row(rows[0])

    @strawberry.mutation(
        description="Resolve up to 1,000 open follow-ups with one note: all or none."
    )
    async def resolve_follow_ups(
        self, info: strawberry.Info[Context], ids: list[strawberry.ID], note: str
    ) -> list[FollowUp]:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            rows = await followups.resolve(
                session=session, actor=actor, follow_up_ids=[str(i) for i in ids], note=note
            )
        return [FollowUp.from_row(row) for row in rows]

    @strawberry.mutation(
        description="Sign off the latest report version (ADMIN and up); writes the "
        "comparison's verdict and never changes a release."
    )
    async def sign_off(
        self,
        info: strawberry.Info[Context],
        report_id: strawberry.ID,
        decision: SignOffDecision,
        override: bool = False,
        override_justification: str | None = None,
    ) -> SignOff:
        actor = info.context.require(Role.ADMIN)
        async with info.context.write() as session:
            row = await signoff.sign_off(
                session=session,
                actor=actor,
                report_id=str(report_id),
                decision=DecisionEnum(decision),
                override=override,
                override_justification=override_justification,
            )
        return SignOff.from_row(row)
