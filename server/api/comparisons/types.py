"""GraphQL types of comparisons: the create/preview input, the comparison and its progress.

The preview's output types live in `server.api.comparisons.preview_types`."""

from __future__ import annotations

from collections.abc import Awaitable
from datetime import datetime
from typing import TypeVar, cast

import strawberry
from strawberry.scalars import JSON

from server.api.comparisons.input_types import CohortKind
from server.api.comparisons.progress_types import ComparisonProgress, ComparisonStatus, StopReason
from server.api.connections.types import ModelConnection
from server.api.context import Context
from server.api.datasets.types import DatasetVersion, Split
from server.api.experiments.types import Experiment
from server.api.labels import resolvers as label_fields
from server.api.labels.types import JudgeAgreement, ReviewProgress
from server.api.movement import CaseFilter, kept_cases
from server.api.relay import Connection
from server.api.reports import resolvers as report_fields
from server.api.reports.types import Report
from server.api.ship_policy_types import ShipDecision, ShipPolicy
from server.api.stopping_types import ComparisonStopping
from server.api.verdicts import resolvers as verdict_fields
from server.api.verdicts.types import (
    ComparisonCase,
    Scorecard,
    SignOffVerdict,
    VerdictState,
)
from server.comparisons.models import Comparison as ComparisonRow
from server.comparisons.models import StopReason as StopReasonEnum
from server.decisions import document as decision_document
from server.decisions import policy as ship_policy_option
from server.page_reads.comparison_page import ComparisonPageRead
from server.page_reads.comparisons_list import ComparisonRowRead
from server.page_reads.scorecard import scorecard_of
from server.spend import caps as spend_caps
from server.verdicts.models import VerdictState as VerdictStateEnum

T = TypeVar("T")


def later(value: Awaitable[T]) -> T:
    """What a plain resolver returns when its value must still be loaded: graphql-core
    awaits an awaitable result, so a field of rows read beforehand resolves at once (no
    awaitable per field per row) and any other loads as an async resolver would."""
    return cast(T, value)


# --- comparison ----------------------------------------------------------------------------


@strawberry.type
class ComparisonCohort:
    cohort_index: int
    kind: CohortKind
    label: str
    release_id: strawberry.ID = strawberry.field(description="The release, or a variant's base.")
    is_candidate: bool
    pass_rate: float | None = strawberry.field(
        description="Mean over cases of passed ÷ completed trials; null until DONE."
    )


ComparisonRead = ComparisonPageRead | ComparisonRowRead
"""What a comparison's type is made of: its page's read (`server.page_reads.comparison_page`)
or its row of the comparisons list (`server.page_reads.comparisons_list`), which carry the
same attributes (the page's read besides knows whether it has reports)."""


@strawberry.type
class Comparison:
    """A comparison as its read shows it: the read itself (`of`), each plain field its
    attribute of that name, read off it; the others computed from it as their parent, or
    from a loader of their own for what no page shows (the stored row's settings, its cases
    and reports)."""

    id: strawberry.ID
    label: str | None
    status: ComparisonStatus
    stop_reason: StopReason | None
    error_code: str | None = strawberry.field(description="A bounded code (docs/errors.md).")
    split: Split
    trials_per_case: int
    case_count: int = strawberry.field(description="The frozen cases the comparison runs.")
    budget_cap_cents: float | None
    spent_cents_so_far: float
    created_at: datetime
    started_at: datetime | None
    ended_at: datetime | None
    verdict_state: VerdictState = strawberry.field(
        description="FINALIZED once the scorecard and hosted runs are made."
    )
    verdict_error_code: str | None = strawberry.field(
        description="Why finalization failed: a bounded code (docs/errors.md)."
    )
    verdict: SignOffVerdict | None = strawberry.field(
        description="The sign-off's decision; null until signed off."
    )
    cohorts: list[ComparisonCohort] = strawberry.field(description="Cohort 0 is the candidate.")
    progress: ComparisonProgress

    @staticmethod
    def of(read: ComparisonRead) -> Comparison:
        """The comparison its read shows (a page's, or a row of the list): the read itself,
        which carries each plain field under its name."""
        return cast(Comparison, read)

    @strawberry.field
    async def checks(
        self, info: strawberry.Info[Context], read: strawberry.Parent[ComparisonRead]
    ) -> JSON:
        return cast(JSON, (await _row(info.context, read)).checks)

    @strawberry.field
    async def epsilon_points(
        self, info: strawberry.Info[Context], read: strawberry.Parent[ComparisonRead]
    ) -> float:
        return (await _row(info.context, read)).epsilon_points

    @strawberry.field
    async def target_effect_points(
        self, info: strawberry.Info[Context], read: strawberry.Parent[ComparisonRead]
    ) -> float:
        return (await _row(info.context, read)).target_effect_points

    @strawberry.field
    async def rerun_of_id(
        self, info: strawberry.Info[Context], read: strawberry.Parent[ComparisonRead]
    ) -> strawberry.ID | None:
        rerun_of = (await _row(info.context, read)).rerun_of_id
        return strawberry.ID(rerun_of) if rerun_of else None

    @strawberry.field(description="Sequential stopping: the rule, the looks and the stop.")
    async def stopping(
        self, info: strawberry.Info[Context], read: strawberry.Parent[ComparisonRead]
    ) -> ComparisonStopping | None:
        return ComparisonStopping.from_row(await _row(info.context, read))

    @strawberry.field(description="The ship policy registered at creation (docs/decision.md).")
    async def ship_policy(
        self, info: strawberry.Info[Context], read: strawberry.Parent[ComparisonRead]
    ) -> ShipPolicy:
        row = await _row(info.context, read)
        return ShipPolicy.from_document(ship_policy_option.frozen(row.ship_policy, row.created_at))

    @strawberry.field(
        description="The ship decision: null until FINALIZED (NO_DECISION at once for a "
        "cancelled or failed comparison); stored, never recomputed on read."
    )
    def decision(self, read: strawberry.Parent[ComparisonRead]) -> ShipDecision | None:
        if read.status in decision_document.ENDED_UNDECIDED:
            cohorts = read.cohorts
            candidate = next((c.label for c in cohorts if c.cohort_index == 0), "the candidate")
            return ShipDecision.from_document(decision_document.not_run_to_end(candidate))
        document = read.scorecard_document
        if read.verdict_state != VerdictStateEnum.FINALIZED or document is None:
            return None
        return ShipDecision.from_document(document.get("decision"))

    @strawberry.field(
        description="Per judge check (JUDGE_RUBRIC), its agreement with human labels over "
        "the labelled trials it graded; empty without judge checks (docs/labels.md)."
    )
    async def judge_agreement(
        self, info: strawberry.Info[Context], read: strawberry.Parent[ComparisonRead]
    ) -> list[JudgeAgreement]:
        row = await _row(info.context, read)
        return await label_fields.comparison_agreement(info.context, row)

    @strawberry.field(description="Trials labelled of the graded ones (the review page's N of M).")
    async def review_progress(
        self, info: strawberry.Info[Context], read: strawberry.Parent[ComparisonRead]
    ) -> ReviewProgress:
        return await label_fields.review_progress(info.context, read.id)

    @strawberry.field(description="Its report versions, oldest first.")
    def reports(
        self, info: strawberry.Info[Context], read: strawberry.Parent[ComparisonRead]
    ) -> list[Report]:
        if not read.may_have_reports:
            return []  # the read saw none: nothing to load
        return later(report_fields.reports_of(info.context, read.id))

    @strawberry.field(description="Null until FINALIZED; stored, never recomputed on read.")
    def scorecard(self, read: strawberry.Parent[ComparisonRead]) -> Scorecard | None:
        card = scorecard_of(read.verdict_state, read.scorecard_document, read.verdict_finalized_at)
        return Scorecard.from_read(card) if card is not None else None

    @strawberry.field(
        description="The case-debug view. With `baselineCohortIndex`, that baseline's worse "
        "(REGRESSIONS) or better (IMPROVEMENTS) cases by pass fraction; without it, the "
        "failure analysis classes (each case's `movement`). Empty until FINALIZED."
    )
    async def cases(
        self,
        info: strawberry.Info[Context],
        read: strawberry.Parent[ComparisonRead],
        filter: CaseFilter = CaseFilter.REGRESSIONS,
        baseline_cohort_index: int | None = None,
        first: int | None = None,
        after: str | None = None,
    ) -> Connection[ComparisonCase]:
        return await verdict_fields.cases(
            info.context,
            read.id,
            case_filter=kept_cases(filter),
            baseline_cohort_index=baseline_cohort_index,
            first=first,
            after=after,
            selected=lambda: info.selected_fields[0].selections,
            cohort_count=len(read.cohorts),
        )

    @strawberry.field
    def experiment(
        self, info: strawberry.Info[Context], read: strawberry.Parent[ComparisonRead]
    ) -> Experiment:
        found = read.experiment
        if found is None:  # not the workspace's: its loader says so
            return later(_experiment(info.context, read))
        return Experiment.from_read(found)

    @strawberry.field(description="The dataset version frozen at creation.")
    def dataset_version(
        self, info: strawberry.Info[Context], read: strawberry.Parent[ComparisonRead]
    ) -> DatasetVersion:
        found = read.dataset_version
        if found is None:  # not visible to the workspace: its loader says so
            return later(_dataset_version(info.context, read))
        return DatasetVersion.from_read(found)

    @strawberry.field(
        description="With stopReason CONNECTION_CAP: the connections whose monthly cap was "
        "reached in the month the run ended (the stop's words name them); else empty."
    )
    def capped_connections(
        self, info: strawberry.Info[Context], read: strawberry.Parent[ComparisonRead]
    ) -> list[ModelConnection]:
        if read.stop_reason != StopReasonEnum.CONNECTION_CAP:
            return []
        return later(_capped_connections(info.context, read))


async def _row(context: Context, read: ComparisonRead) -> ComparisonRow:
    """The stored row, for the fields no page shows."""
    return await context.loaders.comparisons.load(read.id)


async def _experiment(context: Context, read: ComparisonRead) -> Experiment:
    row = await context.loaders.experiments.load((await _row(context, read)).experiment_id)
    return Experiment.from_row(row)


async def _dataset_version(context: Context, read: ComparisonRead) -> DatasetVersion:
    version_id = (await _row(context, read)).dataset_version_id
    return DatasetVersion.from_row(await context.loaders.dataset_versions.load(version_id))


async def _capped_connections(context: Context, read: ComparisonRead) -> list[ModelConnection]:
    row = await _row(context, read)
    cohorts = await context.loaders.comparison_cohorts.load(row.id)
    async with context.read() as session:
        rows = await spend_caps.capped_connections(session, row, cohorts)
    return [ModelConnection.from_row(row) for row in rows]
