"""GraphQL types of verdicts: the scorecard (from its stored document) and the case view."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, TypeAlias, cast

import strawberry
from strawberry.scalars import JSON

from server.api.context import Context
from server.api.labels import resolvers as label_fields
from server.api.labels.types import TrialLabel
from server.api.movement import Movement, VerdictOutcome, verdict_outcome
from server.api.run_pairs.types import PairwiseResult
from server.api.runs.trajectory_types import TrajectoryStep
from server.api.stopping_types import ComparisonStopping
from server.checks import CheckKind as CheckKindEnum
from server.errors import NotFound
from server.labels import judge_checks
from server.money import micros_to_cents
from server.page_reads import scorecard as scorecard_read
from server.page_reads.case_page import CaseRead, CaseTrialRead
from server.page_reads.fields import copied
from server.page_reads.scorecard import BaselineVerdictRead, ScorecardRead
from server.trajectories.hosted import one_call
from server.verdicts.cases import CaseTrialRow
from server.verdicts.models import CaseClass as CaseClassEnum
from server.verdicts.models import SignOffVerdict as SignOffVerdictEnum
from server.verdicts.models import VerdictState as VerdictStateEnum

strawberry.enum(
    VerdictStateEnum, name="VerdictState", description="FINALIZED once the scorecard is made."
)
VerdictState: TypeAlias = VerdictStateEnum
strawberry.enum(SignOffVerdictEnum, name="SignOffVerdict", description="The sign-off's decision.")
SignOffVerdict: TypeAlias = SignOffVerdictEnum
strawberry.enum(
    CaseClassEnum,
    name="CaseClassification",
    description="Failure analysis on majority outcomes (seed 000); INCOMPLETE: not usable.",
)
CaseClassification: TypeAlias = CaseClassEnum
strawberry.enum(CheckKindEnum, name="CheckKind")
CheckKind: TypeAlias = CheckKindEnum


@strawberry.enum
class MetricDirection(StrEnum):
    HIGHER_IS_BETTER = "HIGHER_IS_BETTER"
    LOWER_IS_BETTER = "LOWER_IS_BETTER"


@strawberry.enum
class SignificanceMethod(StrEnum):
    Z_TEST = "Z_TEST"
    MCNEMAR_MID_P = "MCNEMAR_MID_P"
    SIGN_FLIP_PERMUTATION = "SIGN_FLIP_PERMUTATION"
    PAIRED_T = "PAIRED_T"
    CONFIDENCE_SEQUENCE = "CONFIDENCE_SEQUENCE"


@strawberry.enum
class Adequacy(StrEnum):
    INSUFFICIENT = "INSUFFICIENT"
    UNDERPOWERED = "UNDERPOWERED"
    ADEQUATE = "ADEQUATE"


@strawberry.type
class MetricValue:
    cohort_index: int
    value: float | None


@strawberry.type(description="One scorecard row; only pass rates and judge scores vote.")
class MetricRow:
    name: str
    direction: MetricDirection
    values: list[MetricValue]
    winners: list[int] = strawberry.field(
        description="The best cohort plus every cohort not significantly different from it."
    )


@strawberry.type
class OverallWinner:
    cohort_index: int | None
    reason: str | None = strawberry.field(description="TIED_VOTES or NO_VOTES when null.")
    votes: list[int]


@strawberry.type
class Staleness:
    days: int
    note: str


@strawberry.type
class SignificanceRow:
    baseline_cohort_index: int
    method: SignificanceMethod
    p_value: float
    exact_p_value: float | None
    adjusted_p_value: float = strawberry.field(description="Holm across the baselines.")
    significant: bool
    decides: bool = strawberry.field(description="The paired test decides; Z_TEST is shown.")
    reason: str | None


@strawberry.type(description="Rates in rate units (0.01 = 1 point); mde too.")
class CohortConfidence:
    cohort_index: int
    pass_rate: float
    low: float
    high: float
    n: int
    adequacy: Adequacy
    mde: float
    interval_method: str


@strawberry.type
class TrialSummary:
    cohort_index: int
    k: int
    pass_hat_k: float
    pass_at_k: float
    flips: int
    failed_or_missing_trials: int = strawberry.field(
        description="Over every case that ran (what MISSING_DATA compares)."
    )


@strawberry.type
class FailureAnalysis:
    improved: int
    regressed: int
    both_wrong: int
    agree: int


@strawberry.type(description="Deltas, interval and mde in points (1 point = 0.01).")
class BaselineVerdict:
    baseline_cohort_index: int
    outcome: VerdictOutcome
    movement: Movement = strawberry.field(description="`outcome` in the shared vocabulary.")
    reason: str
    pass_rate_delta_points: float
    delta_low: float
    delta_high: float
    outside_noise: bool
    mde: float
    worse_count: int
    better_count: int
    same_count: int
    sensitivity_delta_points: float = strawberry.field(
        description="Δ with every failed-or-missing trial counted as a failure."
    )
    pairwise: PairwiseResult | None = strawberry.field(
        description="Pairwise judging against this baseline (null without the option)."
    )
    summary: str = strawberry.field(
        description='The chip, e.g. "Regressed vs v1: −11.7 points, outside the noise".'
    )
    decided_early_at_cases: int | None = strawberry.field(
        default=None,
        description="Sequential stopping: the deciding look's cases (the sequence decides).",
    )

    @classmethod
    def from_read(cls, v: BaselineVerdictRead) -> BaselineVerdict:
        return copied(
            cls,
            v,
            outcome=verdict_outcome(v.outcome),
            movement=v.outcome,
            pairwise=PairwiseResult.from_json(v.pairwise),
        )


@strawberry.type
class Scorecard:
    usable_cases: int = strawberry.field(description="Every row is over these cases.")
    cases_not_run: int = strawberry.field(description="Never dispatched: the run stopped.")
    finalized_at: datetime
    metrics: list[MetricRow]
    overall_winner: OverallWinner
    staleness: Staleness | None = strawberry.field(description="Once the verdict is 7 days old.")
    significance: list[SignificanceRow]
    confidence: list[CohortConfidence]
    trials: list[TrialSummary]
    failure_analysis: FailureAnalysis
    verdicts: list[BaselineVerdict]
    stopping: ComparisonStopping | None = strawberry.field(
        description="Sequential stopping: where it stopped (null without the option)."
    )
    document: JSON = strawberry.field(description="The stored scorecard document, as is.")

    @classmethod
    def from_document(cls, doc: dict[str, Any], finalized_at: datetime) -> Scorecard:
        return cls.from_read(scorecard_read.card_of(doc, finalized_at))

    @classmethod
    def from_read(cls, card: ScorecardRead) -> Scorecard:
        """The scorecard's read model's value (`server.page_reads.scorecard`) as its type:
        its rows are shown as read (each carries its type's fields under their names, an
        enum by its name); a baseline's verdict and the stopping are made from theirs."""
        return cls(
            usable_cases=card.usable_cases,
            cases_not_run=card.cases_not_run,
            finalized_at=card.finalized_at,
            metrics=cast(list[MetricRow], card.metrics),
            overall_winner=cast(OverallWinner, card.overall_winner),
            staleness=cast(Staleness | None, card.staleness),
            significance=cast(list[SignificanceRow], card.significance),
            confidence=cast(list[CohortConfidence], card.confidence),
            trials=cast(list[TrialSummary], card.trials),
            failure_analysis=cast(FailureAnalysis, card.failure_analysis),
            verdicts=[BaselineVerdict.from_read(v) for v in card.verdicts],
            stopping=ComparisonStopping.from_document(card.stopping),
            document=cast(JSON, card.document),
        )


def baseline_verdict(v: dict[str, Any]) -> BaselineVerdict:
    """One baseline's verdict from the stored scorecard's `verdicts` entry."""
    return BaselineVerdict.from_read(scorecard_read.verdict_of(v))


# --- the case view -------------------------------------------------------------------------


@strawberry.type
class CaseCheck:
    kind: CheckKind
    passed: bool
    score: float


@strawberry.type
class CaseTrial:
    """A trial as the case view shows it: the case page's read of it (`CaseTrialRead`)
    itself, the fields the page shows read off it; what no page shows (its checks,
    latency, tokens, cost, trajectory, labels) from its row, loaded by its keys when asked
    for (one statement for the page's trials: `loaders.case_trials`)."""

    trial_index: int
    passed: bool | None = strawberry.field(description="Null when the trial errored.")
    output: str | None
    error_code: str | None

    @strawberry.field
    async def checks(
        self, info: strawberry.Info[Context], read: strawberry.Parent[CaseTrialRead]
    ) -> list[CaseCheck]:
        row = await _trial_row(info.context, read)
        return [
            CaseCheck(
                kind=CheckKindEnum(c["kind"]), passed=bool(c["passed"]), score=float(c["score"])
            )
            for c in row.check_results or []
        ]

    @strawberry.field
    async def latency_ms(
        self, info: strawberry.Info[Context], read: strawberry.Parent[CaseTrialRead]
    ) -> int:
        return (await _trial_row(info.context, read)).latency_ms

    @strawberry.field
    async def input_tokens(
        self, info: strawberry.Info[Context], read: strawberry.Parent[CaseTrialRead]
    ) -> int:
        return (await _trial_row(info.context, read)).input_tokens

    @strawberry.field
    async def output_tokens(
        self, info: strawberry.Info[Context], read: strawberry.Parent[CaseTrialRead]
    ) -> int:
        return (await _trial_row(info.context, read)).output_tokens

    @strawberry.field
    async def cost_cents(
        self, info: strawberry.Info[Context], read: strawberry.Parent[CaseTrialRead]
    ) -> float:
        return micros_to_cents((await _trial_row(info.context, read)).cost_micros)

    @strawberry.field(
        description='The trial as a trajectory (docs/domain.md, "Trajectories in runs"): its '
        "one model call, with the tool calls the model asked for (nobody ran them), as "
        "trajectory checks and the pairwise judge read it; null while it has no answer or "
        "when it errored."
    )
    async def trajectory(
        self, info: strawberry.Info[Context], read: strawberry.Parent[CaseTrialRead]
    ) -> list[TrajectoryStep] | None:
        row = await _trial_row(info.context, read)
        if row.error_code is not None or (row.output is None and not row.tool_calls):
            return None
        steps = one_call(
            model=None,
            output=row.output,
            tool_calls=row.tool_calls or (),
            input_tokens=row.input_tokens,
            output_tokens=row.output_tokens,
            latency_ms=row.latency_ms,
        )
        return [TrajectoryStep.from_json(step) for step in steps]

    @strawberry.field(description="Human labels on this trial, newest first (docs/labels.md).")
    async def labels(
        self, info: strawberry.Info[Context], read: strawberry.Parent[CaseTrialRead]
    ) -> list[TrialLabel]:
        row = await _trial_row(info.context, read)
        return await label_fields.trial_labels(
            info.context,
            target_id=row.comparison_id,
            position=row.case_ordinal,
            cohort_index=row.cohort_index,
            trial_index=row.trial_index,
            judge_passed=judge_checks.judge_passed(row.check_results),
        )


async def _trial_row(context: Context, read: CaseTrialRead) -> CaseTrialRow:
    """The trial's stored row: its case's trials, loaded with the page's others."""
    by_cohort = await context.loaders.case_trials.load((read.comparison_id, read.case_ordinal))
    for row in by_cohort.get(read.cohort_index, ()):
        if row.trial_index == read.trial_index:
            return row
    raise NotFound("trial not found")  # erased since the page was read


@strawberry.type
class CaseCohort:
    cohort_index: int
    passed: bool | None = strawberry.field(
        description="More than half of the completed trials passed; null with none completed."
    )
    pass_fraction: float | None
    score: float | None = strawberry.field(description="Mean of the completed trials' scores.")
    trials: list[CaseTrial]


@strawberry.type
class ComparisonCase:
    ordinal: int
    dataset_item_id: str
    classification: CaseClassification
    movement: Movement = strawberry.field(
        description="Against `baselineCohortIndex` when asked for, by pass fraction; else by "
        "the failure analysis (AGREE and BOTH_WRONG: NO_CHANGE, INCOMPLETE: NO_VERDICT). "
        "What `cases(filter:)` selects on."
    )
    baseline_cohort_index: int = strawberry.field(
        description="The baseline the deltas compare with (the one asked for, else cohort 1)."
    )
    latency_delta_ms: float | None = strawberry.field(
        description="Candidate − baseline mean latency over completed trials."
    )
    cost_delta_cents: float | None = strawberry.field(
        description="Candidate − baseline mean cost per trial."
    )
    cohorts: list[CaseCohort]

    @strawberry.field
    async def input(
        self, info: strawberry.Info[Context], case: strawberry.Parent[CaseRead]
    ) -> JSON:
        return cast(JSON, (await info.context.loaders.dataset_cases.load(case.dataset_case_id))[0])

    @strawberry.field
    async def expected(
        self, info: strawberry.Info[Context], case: strawberry.Parent[CaseRead]
    ) -> JSON | None:
        found = await info.context.loaders.dataset_cases.load(case.dataset_case_id)
        return cast(JSON | None, found[1])

    @staticmethod
    def from_read(read: CaseRead) -> ComparisonCase:
        """A case as the case page's read makes it (`server.page_reads.case_page`): the
        `CaseRead` itself, which carries each field under its name (its cohorts as
        `CaseCohortRead`s, their trials as `CaseTrialRead`s)."""
        return cast(ComparisonCase, read)
