"""GraphQL types of reports: versions, follow-ups, sign-offs and signed links."""

from __future__ import annotations

from datetime import datetime
from typing import Final, TypeAlias

import strawberry
from strawberry.types.lazy_type import LazyType

from server.api.context import Context
from server.api.relay import Connection
from server.api.verdicts.types import SignOffVerdict
from server.errors import NotFound
from server.page_reads import comparison_page
from server.pagination import check_page_size
from server.reports import followups, links, signoff_reads
from server.reports.models import Decision as DecisionEnum
from server.reports.models import FollowUp as FollowUpRow
from server.reports.models import FollowUpState as FollowUpStateEnum
from server.reports.models import Report as ReportRow
from server.reports.models import SignOff as SignOffRow
from server.reports.models import SignOffFollowUp as SignOffFollowUpRow
from server.verdicts.models import SignOffVerdict as SignOffVerdictEnum

COMPARISON: Final[LazyType[str, str]] = LazyType("Comparison", "server.api.comparisons.types")
"""The schema's one loop (Comparison → Report → SignOff → Comparison) closes here by name:
strawberry finds the type when the schema is built, and no import points back up."""

strawberry.enum(FollowUpStateEnum, name="FollowUpState")
FollowUpState: TypeAlias = FollowUpStateEnum
strawberry.enum(
    DecisionEnum,
    name="SignOffDecision",
    description="APPROVE → PROMOTE, HOLD → HOLD, REQUEST_CHANGES → INCONCLUSIVE.",
)
SignOffDecision: TypeAlias = DecisionEnum


@strawberry.type(description="A (case, baseline) among that baseline's worse cases.")
class FollowUp:
    id: strawberry.ID
    comparison_id: strawberry.ID
    baseline_cohort_index: int
    case_ordinal: int
    dataset_item_id: str
    state: FollowUpState
    note: str | None
    resolved_by_member_id: strawberry.ID | None
    resolved_at: datetime | None
    created_at: datetime

    @classmethod
    def from_row(cls, row: FollowUpRow) -> FollowUp:
        return cls(
            id=strawberry.ID(row.id),
            comparison_id=strawberry.ID(row.comparison_id),
            baseline_cohort_index=row.baseline_cohort_index,
            case_ordinal=row.case_ordinal,
            dataset_item_id=row.dataset_item_id,
            state=row.state,
            note=row.note,
            resolved_by_member_id=(
                strawberry.ID(row.resolved_by_member_id) if row.resolved_by_member_id else None
            ),
            resolved_at=row.resolved_at,
            created_at=row.created_at,
        )


@strawberry.type(description="A follow-up's state when the sign-off was made.")
class FollowUpAtSigning:
    follow_up_id: strawberry.ID
    state: FollowUpState
    resolved_at: datetime | None

    @classmethod
    def from_row(cls, row: SignOffFollowUpRow) -> FollowUpAtSigning:
        return cls(
            follow_up_id=strawberry.ID(row.follow_up_id), state=row.state,
            resolved_at=row.resolved_at,
        )  # fmt: skip


@strawberry.type
class SignOff:
    id: strawberry.ID
    report_id: strawberry.ID
    comparison_id: strawberry.ID
    decision: SignOffDecision
    verdict: SignOffVerdict
    override: bool
    override_justification: str | None
    open_follow_ups: int = strawberry.field(description="Open when signed.")
    resolved_follow_ups: int = strawberry.field(description="Resolved when signed.")
    signer_member_id: strawberry.ID
    signer_role: str
    created_at: datetime

    @strawberry.field(
        description="The comparison signed off, its `verdict` now this sign-off's (a client "
        "cache that refreshes by type sees the new verdict).",
        graphql_type=COMPARISON,
    )
    async def comparison(self, info: strawberry.Info[Context]) -> object:
        context = info.context
        page = await comparison_page.read(
            context.fetch,
            dialect=context.app.engine.dialect.name,
            workspace_id=context.require().workspace_id,
            comparison_id=str(self.comparison_id),
        )
        if page is None:
            raise NotFound("comparison not found")
        return COMPARISON.resolve_type().of(page)

    @strawberry.field(description="Every follow-up's state when signed.")
    async def follow_up_states(
        self, info: strawberry.Info[Context], first: int | None = None, after: str | None = None
    ) -> Connection[FollowUpAtSigning]:
        size = check_page_size(first, info.context.settings.max_page_size)
        async with info.context.read() as session:
            page = await signoff_reads.get_states_page(
                session=session, sign_off_id=str(self.id), first=size, after=after
            )
        return Connection.of(page, FollowUpAtSigning.from_row)

    @classmethod
    def from_row(cls, row: SignOffRow) -> SignOff:
        return cls(
            id=strawberry.ID(row.id),
            report_id=strawberry.ID(row.report_id),
            comparison_id=strawberry.ID(row.comparison_id),
            decision=row.decision,
            verdict=SignOffVerdictEnum(row.verdict),
            override=row.override,
            override_justification=row.override_justification,
            open_follow_ups=row.open_follow_ups,
            resolved_follow_ups=row.resolved_follow_ups,
            signer_member_id=strawberry.ID(row.signer_member_id),
            signer_role=row.signer_role,
            created_at=row.created_at,
        )


@strawberry.type(description="A frozen version of a finalized comparison's report.")
class Report:
    id: strawberry.ID
    comparison_id: strawberry.ID
    version: int
    document: str = strawberry.field(
        description="The frozen JSON document, as stored (sorted keys): byte-stable."
    )
    document_sha256: str
    created_by_member_id: strawberry.ID | None
    created_at: datetime
    page_path: str = strawberry.field(description="The HTML page (a bearer token or a link).")

    @strawberry.field(description="Whether this is the comparison's newest version.")
    async def is_latest(self, info: strawberry.Info[Context]) -> bool:
        versions = await info.context.loaders.reports.load(str(self.comparison_id))
        return bool(versions) and versions[-1].version == self.version

    @strawberry.field(description="This version's sign-off; null until signed.")
    async def sign_off(self, info: strawberry.Info[Context]) -> SignOff | None:
        row = await info.context.loaders.sign_offs.load(str(self.id))
        return SignOff.from_row(row) if row is not None else None

    @strawberry.field(description="The comparison's follow-ups as they are now (shared).")
    async def follow_ups(
        self,
        info: strawberry.Info[Context],
        state: FollowUpState | None = None,
        baseline_cohort_index: int | None = None,
        first: int | None = None,
        after: str | None = None,
    ) -> Connection[FollowUp]:
        size = check_page_size(first, info.context.settings.max_page_size)
        async with info.context.read() as session:
            page = await followups.get_page(
                session=session,
                comparison_id=str(self.comparison_id),
                state=FollowUpStateEnum(state) if state is not None else None,
                baseline_cohort_index=baseline_cohort_index,
                first=size,
                after=after,
            )
        return Connection.of(page, FollowUp.from_row)

    @classmethod
    def from_row(cls, row: ReportRow) -> Report:
        return cls(
            id=strawberry.ID(row.id),
            comparison_id=strawberry.ID(row.comparison_id),
            version=row.version,
            document=row.document,
            document_sha256=row.document_sha256,
            created_by_member_id=(
                strawberry.ID(row.created_by_member_id) if row.created_by_member_id else None
            ),
            created_at=row.created_at,
            page_path=links.page_path(row.id),
        )


@strawberry.type(description="A signed, expiring link to a report page.")
class ReportLink:
    url: str
    path: str
    expires_at: datetime
