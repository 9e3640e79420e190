"""GraphQL types of comparisons: the create/preview input, the comparison and its progress.

The preview's output types live in `server.api.comparisons.preview_types`."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import fields
from datetime import datetime
from functools import cache
from typing import Any, TypeVar, cast

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
from server.datasets.models import Split as SplitEnum
from server.decisions import document as decision_document
from server.decisions import policy as ship_policy_option
from server.money import micros_to_cents, optional_micros_to_cents
from server.page_reads.cohorts import CohortRead
from server.page_reads.comparison_page import ComparisonPageRead, PageWithRows
from server.page_reads.comparisons_list import ComparisonRowRead
from server.page_reads.fields import attributes, copied
from server.spend import caps as spend_caps
from server.verdicts.models import ComparisonVerdict as VerdictRow

T = TypeVar("T")


def later(value: Awaitable[T]) -> T:
    """What a plain resolver returns when its value must still be loaded: graphql-core
    awaits an awaitable result, so a field of rows read beforehand resolves at once (no
    awaitable per field per row) and any other loads as an async resolver would."""
    return cast(T, value)


# --- comparison ----------------------------------------------------------------------------


@cache
def _read_fields(kind: type) -> tuple[str, ...]:
    """The plain fields of `Comparison` (no resolver) that a read model's value of `kind`
    carries too (its page's, or a row of the comparisons list)."""
    carried = attributes(kind)
    return tuple(
        f.name
        for f in fields(Comparison)
        if f.name in carried and getattr(f, "base_resolver", None) is None
    )


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

    @classmethod
    def from_read(cls, cohort: CohortRead) -> ComparisonCohort:
        return copied(cls, cohort, release_id=strawberry.ID(cohort.release_id))


ComparisonRead = ComparisonPageRead | ComparisonRowRead
"""What a comparison's type is made of: its page's read (`server.page_reads.comparison_page`)
or its row of the comparisons list (`server.page_reads.comparisons_list`)."""


@strawberry.type
class Comparison:
    """A comparison as its read shows it: each plain field is the read's value (the stored
    row's where the read does not carry it), and every other field reads the read, the
    rows read with it in the same statement, or a loader of its own."""

    id: strawberry.ID
    label: str | None
    status: ComparisonStatus
    stop_reason: StopReason | None
    error_code: str | None = strawberry.field(description="A bounded code (docs/errors.md).")
    split: Split
    trials_per_case: int
    case_count: int = strawberry.field(description="The frozen cases the comparison runs.")
    checks: JSON
    budget_cap_cents: float | None
    epsilon_points: float
    target_effect_points: float
    spent_cents_so_far: float
    rerun_of_id: strawberry.ID | None
    created_at: datetime
    started_at: datetime | None
    ended_at: datetime | None
    row: strawberry.Private[ComparisonRow]
    verdict_row: strawberry.Private[VerdictRow | None]
    """Its verdict row, read in the read's statement (None: not finalized yet)."""
    read: strawberry.Private[ComparisonRead]

    @classmethod
    def of_page(cls, found: PageWithRows) -> Comparison:
        """The comparison as its page's read shows it (`read_with_rows`)."""
        return cls._made(found.comparison, found.verdict, found.page)

    @classmethod
    def of_listed(
        cls, row: ComparisonRow, verdict: VerdictRow | None, listed: ComparisonRowRead
    ) -> Comparison:
        """The comparison as the list's read shows its row."""
        return cls._made(row, verdict, listed)

    @classmethod
    def _made(
        cls, row: ComparisonRow, verdict: VerdictRow | None, read: ComparisonRead
    ) -> Comparison:
        values = _row_values(row)
        kind: type = type(read)
        values.update((name, getattr(read, name)) for name in _read_fields(kind))
        return cls(**values, row=row, verdict_row=verdict, read=read)

    @strawberry.field(description="Sequential stopping: the rule, the looks and the stop.")
    def stopping(self) -> ComparisonStopping | None:
        return ComparisonStopping.from_row(self.row)

    @strawberry.field(description="The ship policy registered at creation (docs/decision.md).")
    def ship_policy(self) -> ShipPolicy:
        return ShipPolicy.from_document(
            ship_policy_option.frozen(self.row.ship_policy, self.row.created_at)
        )

    @strawberry.field(
        description="The ship decision: null until FINALIZED (NO_DECISION at once for a "
        "cancelled or failed comparison); stored, never recomputed on read."
    )
    def decision(self) -> ShipDecision | None:
        if self.row.status in decision_document.ENDED_UNDECIDED:
            cohorts = self.read.cohorts
            candidate = next((c.label for c in cohorts if c.cohort_index == 0), "the candidate")
            return ShipDecision.from_document(decision_document.not_run_to_end(candidate))
        return verdict_fields.decision_of(self.verdict_row)

    @strawberry.field(description="FINALIZED once the scorecard and hosted runs are made.")
    def verdict_state(self) -> VerdictState:
        return self.read.verdict_state

    @strawberry.field(description="Why finalization failed: a bounded code (docs/errors.md).")
    def verdict_error_code(self) -> str | None:
        return verdict_fields.verdict_error_code_of(self.verdict_row)

    @strawberry.field(description="The sign-off's decision; null until signed off.")
    def verdict(self) -> SignOffVerdict | None:
        return verdict_fields.verdict_of(self.verdict_row)

    @strawberry.field(
        description="Per judge check (JUDGE_RUBRIC), its agreement with human labels over "
        "the labelled trials it graded; empty without judge checks (docs/labels.md)."
    )
    async def judge_agreement(self, info: strawberry.Info[Context]) -> list[JudgeAgreement]:
        return await label_fields.comparison_agreement(info.context, self.row)

    @strawberry.field(description="Trials labelled of the graded ones (the review page's N of M).")
    async def review_progress(self, info: strawberry.Info[Context]) -> ReviewProgress:
        return await label_fields.review_progress(info.context, self.row.id)

    @strawberry.field(description="Its report versions, oldest first.")
    def reports(self, info: strawberry.Info[Context]) -> list[Report]:
        if not self.read.may_have_reports:
            return []  # the read saw none: nothing to load
        return later(report_fields.reports_of(info.context, self.row.id))

    @strawberry.field(description="Null until FINALIZED; stored, never recomputed on read.")
    def scorecard(self) -> Scorecard | None:
        return verdict_fields.scorecard_of(self.verdict_row)

    @strawberry.field(
        description="The case-debug view. With `baselineCohortIndex`, that baseline's worse "
        "(REGRESSIONS) or better (IMPROVEMENTS) cases by pass fraction; without it, the "
        "failure analysis classes (each case's `movement`). Empty until FINALIZED."
    )
    async def cases(
        self,
        info: strawberry.Info[Context],
        filter: CaseFilter = CaseFilter.REGRESSIONS,
        baseline_cohort_index: int | None = None,
        first: int | None = None,
        after: str | None = None,
    ) -> Connection[ComparisonCase]:
        return await verdict_fields.cases(
            info.context,
            self.row,
            case_filter=kept_cases(filter),
            baseline_cohort_index=baseline_cohort_index,
            first=first,
            after=after,
            selections=info.selected_fields[0].selections,
            cohort_count=len(self.read.cohorts),
        )

    @strawberry.field
    async def experiment(self, info: strawberry.Info[Context]) -> Experiment:
        row = await info.context.loaders.experiments.load(self.row.experiment_id)
        return Experiment.from_row(row)

    @strawberry.field(description="The dataset version frozen at creation.")
    async def dataset_version(self, info: strawberry.Info[Context]) -> DatasetVersion:
        row = await info.context.loaders.dataset_versions.load(self.row.dataset_version_id)
        return DatasetVersion.from_row(row)

    @strawberry.field(description="Cohort 0 is the candidate.")
    def cohorts(self) -> list[ComparisonCohort]:
        return [ComparisonCohort.from_read(cohort) for cohort in self.read.cohorts]

    @strawberry.field(
        description="With stopReason CONNECTION_CAP: the connections whose monthly cap was "
        "reached in the month the run ended (the stop's words name them); else empty."
    )
    def capped_connections(self, info: strawberry.Info[Context]) -> list[ModelConnection]:
        if self.row.stop_reason != StopReasonEnum.CONNECTION_CAP:
            return []
        return later(self._capped_connections(info.context))

    async def _capped_connections(self, context: Context) -> list[ModelConnection]:
        cohorts = await context.loaders.comparison_cohorts.load(self.row.id)
        async with context.read() as session:
            rows = await spend_caps.capped_connections(session, self.row, cohorts)
        return [ModelConnection.from_row(row) for row in rows]

    @strawberry.field
    def progress(self) -> ComparisonProgress:
        return ComparisonProgress.from_progress(self.read.progress_snapshot())


def _row_values(row: ComparisonRow) -> dict[str, Any]:
    """The plain fields of `Comparison` as the stored row gives them (a read's own values
    then replace those it carries)."""
    return {
        "id": strawberry.ID(row.id),
        "label": row.label,
        "status": row.status,
        "stop_reason": row.stop_reason,
        "error_code": row.error_code,
        "split": SplitEnum(row.split),
        "trials_per_case": row.trials_per_case,
        "case_count": row.case_count,
        "checks": cast(JSON, row.checks),
        "budget_cap_cents": optional_micros_to_cents(row.budget_cap_micros),
        "epsilon_points": row.epsilon_points,
        "target_effect_points": row.target_effect_points,
        "spent_cents_so_far": micros_to_cents(row.spent_micros),
        "rerun_of_id": strawberry.ID(row.rerun_of_id) if row.rerun_of_id else None,
        "created_at": row.created_at,
        "started_at": row.started_at,
        "ended_at": row.ended_at,
    }
