"""GraphQL types of comparisons: the create/preview input, the comparison and its progress.

The preview's output types live in `server.comparisons.preview_types`."""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar, cast

import strawberry
from strawberry.scalars import JSON

from server.comparisons.cohort_rates import pass_rate
from server.comparisons.inputs import CohortSpec, ComparisonSpec, PairwiseSpec, SampleSpec
from server.comparisons.models import CohortKind as CohortKindEnum
from server.comparisons.models import CohortState as CohortStateEnum
from server.comparisons.models import Comparison as ComparisonRow
from server.comparisons.models import ComparisonCohort as CohortRow
from server.comparisons.models import ComparisonStatus as ComparisonStatusEnum
from server.comparisons.models import StopReason as StopReasonEnum
from server.comparisons.progress import Progress, snapshot
from server.comparisons.stopping_types import ComparisonStopping, StoppingInput
from server.connections.types import ModelConnection
from server.context import Context
from server.datasets.models import Split as SplitEnum
from server.datasets.types import DatasetVersion, Split
from server.experiments.types import Experiment
from server.money import micros_to_cents, optional_micros_to_cents
from server.pagination import Connection
from server.prompting.variables import MissingFieldPolicy as MissingFieldPolicyEnum
from server.releases.types import BindingRole
from server.reports import resolvers as report_fields
from server.reports.types import Report
from server.spend import caps as spend_caps
from server.verdicts import resolvers as verdict_fields
from server.verdicts.types import (
    CaseFilter,
    ComparisonCase,
    Scorecard,
    SignOffVerdict,
    VerdictState,
)

ComparisonStatus = strawberry.enum(ComparisonStatusEnum, name="ComparisonStatus")
StopReason = strawberry.enum(StopReasonEnum, name="StopReason")
CohortKind = strawberry.enum(CohortKindEnum, name="CohortKind")
CohortState = strawberry.enum(CohortStateEnum, name="CohortState")
MissingFieldPolicy = strawberry.enum(
    MissingFieldPolicyEnum,
    name="MissingFieldPolicy",
    description="LEAVE_OUT runs only cases having every mapped field; REFUSE refuses any gap.",
)


# --- input ---------------------------------------------------------------------------------


@strawberry.input
class CohortOverrideInput:
    role: BindingRole  # type: ignore[valid-type]
    asset_version_id: strawberry.ID


@strawberry.input(description="RELEASE takes `releaseId`; VARIANT `baseReleaseId` + overrides.")
class ComparisonCohortInput:
    kind: CohortKind  # type: ignore[valid-type]
    release_id: strawberry.ID | None = None
    base_release_id: strawberry.ID | None = None
    overrides: list[CohortOverrideInput] | None = None
    label: str | None = None


@strawberry.input
class ComparisonSampleInput:
    size: int
    seed: int = 0


@strawberry.input
class VariableMappingInput:
    variable: str
    path: str = strawberry.field(description="`input`, `input.<field>…` or `expected…`.")


@strawberry.input
class PairwiseInput:
    rubric_version_id: strawberry.ID
    judge_model_config_version_id: strawberry.ID


@strawberry.input(description="Cohort 0 is the candidate; every other cohort is a baseline.")
class CreateComparisonInput:
    cohorts: list[ComparisonCohortInput]
    experiment_id: strawberry.ID | None = None
    dataset_id: strawberry.ID | None = None
    dataset_version_id: strawberry.ID | None = None
    split: Split = SplitEnum.DEV  # type: ignore[valid-type]
    trials_per_case: int = 3
    checks: JSON | None = strawberry.field(
        default=None, description='Check specs; default `[{"kind": "CONTAINS"}]`.'
    )
    sample: ComparisonSampleInput | None = None
    variables: list[VariableMappingInput] | None = None
    missing_field_policy: MissingFieldPolicy = MissingFieldPolicyEnum.LEAVE_OUT  # type: ignore[valid-type]
    budget_cap_cents: float | None = None
    pairwise: PairwiseInput | None = None
    label: str | None = None
    epsilon_points: float = strawberry.field(
        default=1.0, description="The gate's ε: a change must exceed it (points)."
    )
    target_effect_points: float = strawberry.field(
        default=5.0, description="NO_CHANGE needs the interval for Δ within ± this (points)."
    )
    stopping: StoppingInput | None = strawberry.field(
        default=None, description="Sequential stopping; NONE (every case) by default."
    )

    def to_spec(self) -> ComparisonSpec:
        """The service's view of this input."""
        return ComparisonSpec(
            cohorts=tuple(
                CohortSpec(
                    kind=CohortKindEnum(c.kind),
                    release_id=_str(c.release_id),
                    base_release_id=_str(c.base_release_id),
                    overrides=tuple((o.role, str(o.asset_version_id)) for o in c.overrides or ()),
                    label=c.label,
                )
                for c in self.cohorts
            ),
            experiment_id=_str(self.experiment_id),
            dataset_id=_str(self.dataset_id),
            dataset_version_id=_str(self.dataset_version_id),
            split=SplitEnum(self.split),
            trials_per_case=self.trials_per_case,
            checks=self.checks,
            sample=SampleSpec(self.sample.size, self.sample.seed) if self.sample else None,
            variables=tuple((v.variable, v.path) for v in self.variables or ()),
            missing_field_policy=MissingFieldPolicyEnum(self.missing_field_policy),
            budget_cap_cents=self.budget_cap_cents,
            pairwise=(
                PairwiseSpec(
                    str(self.pairwise.rubric_version_id),
                    str(self.pairwise.judge_model_config_version_id),
                )
                if self.pairwise
                else None
            ),
            label=self.label,
            epsilon_points=self.epsilon_points,
            target_effect_points=self.target_effect_points,
            stopping=self.stopping.to_spec() if self.stopping else None,
        )


def _str(value: strawberry.ID | None) -> str | None:
    return None if value is None else str(value)


# --- comparison ----------------------------------------------------------------------------


@strawberry.type
class CohortProgress:
    cohort_index: int
    state: CohortState  # type: ignore[valid-type]


@strawberry.type(description="A snapshot derived from the comparison row; `seq` orders them.")
class ComparisonProgress:
    SHARED_EVENT: ClassVar[bool] = True
    """Plain values: one execution serves every subscriber (`server.http.shared_events`)."""

    seq: int
    status: ComparisonStatus  # type: ignore[valid-type]
    stop_reason: StopReason | None  # type: ignore[valid-type]
    done_calls: int
    total_calls: int
    failed_calls: int
    percent: float
    eta_seconds: float | None
    spent_cents_so_far: float
    cohorts: list[CohortProgress]
    updated_at: datetime | None = strawberry.field(
        description="When the comparison reached this `seq`."
    )

    @classmethod
    def from_progress(cls, progress: Progress) -> ComparisonProgress:
        return cls(
            seq=progress.seq,
            status=ComparisonStatusEnum(progress.status),
            stop_reason=StopReasonEnum(progress.stop_reason) if progress.stop_reason else None,
            done_calls=progress.done_calls,
            total_calls=progress.total_calls,
            failed_calls=progress.failed_calls,
            percent=progress.percent,
            eta_seconds=progress.eta_seconds,
            spent_cents_so_far=progress.spent_cents_so_far,
            cohorts=[
                CohortProgress(cohort_index=c.cohort_index, state=CohortStateEnum(c.state))
                for c in progress.cohorts
            ],
            updated_at=datetime.fromisoformat(progress.updated_at) if progress.updated_at else None,
        )


@strawberry.type
class ComparisonCohort:
    cohort_index: int
    kind: CohortKind  # type: ignore[valid-type]
    label: str
    release_id: strawberry.ID = strawberry.field(description="The release, or a variant's base.")
    is_candidate: bool
    pass_rate: float | None = strawberry.field(
        description="Mean over cases of passed ÷ completed trials; null until DONE."
    )

    @classmethod
    def from_row(cls, row: CohortRow, *, done: bool) -> ComparisonCohort:
        """`passRate` from the integers stored when the run ended (only once DONE)."""
        return cls(
            cohort_index=row.cohort_index,
            kind=row.kind,
            label=row.label,
            release_id=strawberry.ID(row.release_id),
            is_candidate=row.cohort_index == 0,
            pass_rate=pass_rate(
                usable_cases=row.usable_cases, pass_fraction_sum=row.pass_fraction_sum
            )
            if done
            else None,
        )


@strawberry.type
class Comparison:
    id: strawberry.ID
    label: str | None
    status: ComparisonStatus  # type: ignore[valid-type]
    stop_reason: StopReason | None  # type: ignore[valid-type]
    error_code: str | None = strawberry.field(description="A bounded code (docs/errors.md).")
    split: Split  # type: ignore[valid-type]
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

    @strawberry.field(description="Sequential stopping: the rule, the looks and the stop.")
    def stopping(self) -> ComparisonStopping | None:
        return ComparisonStopping.from_row(self.row)

    @strawberry.field(description="FINALIZED once the scorecard and hosted runs are made.")
    async def verdict_state(self, info: strawberry.Info[Context]) -> VerdictState:  # type: ignore[valid-type]
        return await verdict_fields.verdict_state(info.context, self.row.id)

    @strawberry.field(description="Why finalization failed: a bounded code (docs/errors.md).")
    async def verdict_error_code(self, info: strawberry.Info[Context]) -> str | None:
        return await verdict_fields.verdict_error_code(info.context, self.row.id)

    @strawberry.field(description="The sign-off's decision; null until signed off.")
    async def verdict(self, info: strawberry.Info[Context]) -> SignOffVerdict | None:  # type: ignore[valid-type]
        return await verdict_fields.verdict(info.context, self.row.id)

    @strawberry.field(description="Its report versions, oldest first.")
    async def reports(self, info: strawberry.Info[Context]) -> list[Report]:
        return await report_fields.reports_of(info.context, self.row.id)

    @strawberry.field(description="Null until FINALIZED; stored, never recomputed on read.")
    async def scorecard(self, info: strawberry.Info[Context]) -> Scorecard | None:
        return await verdict_fields.scorecard(info.context, self.row.id)

    @strawberry.field(
        description="The case-debug view. With `baselineCohortIndex`, that baseline's worse "
        "(REGRESSIONS) or better (IMPROVEMENTS) cases by pass fraction; without it, the "
        "failure analysis classes. Empty until FINALIZED."
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
            case_filter=filter,
            baseline_cohort_index=baseline_cohort_index,
            first=first,
            after=after,
            selections=info.selected_fields[0].selections,
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
    async def cohorts(self, info: strawberry.Info[Context]) -> list[ComparisonCohort]:
        rows = await info.context.loaders.comparison_cohorts.load(self.row.id)
        done = self.row.status == ComparisonStatusEnum.DONE
        return [ComparisonCohort.from_row(row, done=done) for row in rows]

    @strawberry.field(
        description="With stopReason CONNECTION_CAP: the connections whose monthly cap was "
        "reached in the month the run ended (the stop's words name them); else empty."
    )
    async def capped_connections(self, info: strawberry.Info[Context]) -> list[ModelConnection]:
        if self.row.stop_reason != StopReasonEnum.CONNECTION_CAP:
            return []
        cohorts = await info.context.loaders.comparison_cohorts.load(self.row.id)
        async with info.context.read() as session:
            rows = await spend_caps.capped_connections(session, self.row, cohorts)
        return [ModelConnection.from_row(row) for row in rows]

    @strawberry.field
    async def progress(self, info: strawberry.Info[Context]) -> ComparisonProgress:
        rows = await info.context.loaders.comparison_cohorts.load(self.row.id)
        states = [(row.cohort_index, row.state) for row in rows]
        return ComparisonProgress.from_progress(snapshot(self.row, states))

    @classmethod
    def from_row(cls, row: ComparisonRow) -> Comparison:
        return cls(
            id=strawberry.ID(row.id),
            label=row.label,
            status=row.status,
            stop_reason=row.stop_reason,
            error_code=row.error_code,
            split=SplitEnum(row.split),
            trials_per_case=row.trials_per_case,
            case_count=row.case_count,
            checks=cast(JSON, row.checks),
            budget_cap_cents=optional_micros_to_cents(row.budget_cap_micros),
            epsilon_points=row.epsilon_points,
            target_effect_points=row.target_effect_points,
            spent_cents_so_far=micros_to_cents(row.spent_micros),
            rerun_of_id=strawberry.ID(row.rerun_of_id) if row.rerun_of_id else None,
            created_at=row.created_at,
            started_at=row.started_at,
            ended_at=row.ended_at,
            row=row,
        )
