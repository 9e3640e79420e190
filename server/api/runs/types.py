"""GraphQL types of runs, their items and trials (run diffs: `diff_types`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeAlias, cast

import strawberry
from strawberry.scalars import JSON

from server.api.context import Context
from server.api.experiments.types import Experiment
from server.api.labels import resolvers as label_fields
from server.api.labels.types import JudgeAgreement, TrialLabel
from server.api.relay import Connection
from server.api.runs.trajectory_types import TrajectoryStep, trajectory_of
from server.labels.service import JUDGE_PASS_SCORE
from server.money import micros_to_cents, optional_micros_to_cents
from server.pagination import check_page_size
from server.runs import service
from server.runs.models import Run as RunRow
from server.runs.models import RunItem as RunItemRow
from server.runs.models import RunSource as RunSourceEnum
from server.runs.models import RunStatus as RunStatusEnum

strawberry.enum(RunSourceEnum, name="RunSource")
RunSource: TypeAlias = RunSourceEnum
strawberry.enum(RunStatusEnum, name="RunStatus", description="Only COMPLETED runs can be diffed.")
RunStatus: TypeAlias = RunStatusEnum


@strawberry.type
class EvaluatorScore:
    name: str
    score: float


@strawberry.type
class TrialMetrics:
    tokens: float | None
    turns: float | None
    tool_calls: float | None
    wall_ms: float | None
    errors: float | None
    cost_usd: float | None = strawberry.field(default=None, description="US dollars.")
    output_tokens: float | None = None


@strawberry.type
class RunTrial:
    run_id: strawberry.Private[str]
    position: strawberry.Private[int]
    trial_index: strawberry.Private[int]
    judge_passed: strawberry.Private[bool | None]
    passed: bool | None
    evaluators: list[EvaluatorScore]
    output: JSON | None
    metrics: TrialMetrics | None
    stored_trajectory: strawberry.Private[list[TrajectoryStep] | None] = None
    trace_id: str | None = strawberry.field(
        default=None, description="The ingested trace this trial names, as sent."
    )

    @strawberry.field(
        description="The steps the agent took, in start order as sent (docs/domain.md); a "
        "trial sent with a `traceId` and no trajectory reads the steps of that ingested trace "
        "of this workspace; null without either (or when the trace is not there)."
    )
    async def trajectory(self, info: strawberry.Info[Context]) -> list[TrajectoryStep] | None:
        if self.stored_trajectory is not None or self.trace_id is None:
            return self.stored_trajectory
        info.context.require()
        steps = await info.context.loaders.trace_trajectories.load(self.trace_id)
        return None if steps is None else [TrajectoryStep.from_json(step) for step in steps]

    @strawberry.field(description="Human labels on this trial, newest first (docs/labels.md).")
    async def labels(self, info: strawberry.Info[Context]) -> list[TrialLabel]:
        return await label_fields.trial_labels(
            info.context,
            target_id=self.run_id,
            position=self.position,
            cohort_index=0,
            trial_index=self.trial_index,
            judge_passed=self.judge_passed,
        )

    @classmethod
    def from_json(
        cls, trial: dict[str, Any], *, row: RunItemRow, index: int, judge: str | None
    ) -> RunTrial:
        metrics = trial.get("metrics")
        score = (trial.get("evaluators") or {}).get(judge) if judge is not None else None
        return cls(
            run_id=row.run_id,
            position=row.position,
            trial_index=index,
            judge_passed=None
            if not isinstance(score, int | float)
            else float(score) >= JUDGE_PASS_SCORE,
            passed=trial.get("passed"),
            evaluators=[
                EvaluatorScore(name=name, score=float(score))
                for name, score in (trial.get("evaluators") or {}).items()
            ],
            output=trial.get("output"),
            metrics=None
            if not isinstance(metrics, dict)
            else TrialMetrics(
                tokens=metrics.get("tokens"),
                turns=metrics.get("turns"),
                tool_calls=metrics.get("toolCalls"),
                wall_ms=metrics.get("wallMs"),
                errors=metrics.get("errors"),
                cost_usd=metrics.get("costUsd"),
                output_tokens=metrics.get("outputTokens"),
            ),
            stored_trajectory=trajectory_of(trial),
            trace_id=trial.get("traceId"),
        )


@strawberry.type
class RunItem:
    dataset_item_id: str | None
    position: int
    input: JSON
    trials: list[RunTrial]
    trial_count: int
    graded_count: int = strawberry.field(description="Trials with a pass/fail grade.")
    passed_count: int
    pass_fraction: float | None = strawberry.field(description="passed ÷ graded, if graded.")

    @classmethod
    def from_row(cls, row: RunItemRow, judge: str | None = None) -> RunItem:
        """The item; `judge`: its run's judge evaluator, if the import named one."""
        return cls(
            dataset_item_id=row.dataset_item_id,
            position=row.position,
            input=row.input,
            trials=[
                RunTrial.from_json(trial, row=row, index=index, judge=judge)
                for index, trial in enumerate(row.trials)
            ],
            trial_count=row.trial_count,
            graded_count=row.graded_count,
            passed_count=row.passed_count,
            pass_fraction=row.passed_count / row.graded_count if row.graded_count else None,
        )


@strawberry.type(description="A run's pass rate: the mean pass fraction over its graded items.")
class RunPassRate:
    value: float
    low: float = strawberry.field(description="95% interval (docs/statistics.md).")
    high: float
    n: int = strawberry.field(description="Items with a pass/fail grade.")
    method: str = strawberry.field(
        description="WILSON (one graded trial per item), CLUSTERED_CR1 or WILSON_EFFECTIVE_N."
    )


@strawberry.type
class Run:
    id: strawberry.ID
    source: RunSource
    status: RunStatus
    item_count: int
    metadata: JSON
    error_code: str | None
    idempotency_key: str | None
    comparison_id: strawberry.ID | None
    cohort_index: int | None
    created_at: datetime
    completed_at: datetime | None
    experiment_id: strawberry.ID
    judge_evaluator: str | None = strawberry.field(
        description="The evaluator that is an LLM judge's grade (named at import)."
    )
    budget_cap_cents: float | None = strawberry.field(
        default=None, description="Imported runs: the cap on what its judge calls may spend."
    )
    judge_spent_cents: float = strawberry.field(
        default=0.0, description="Imported runs: what its JUDGE_RUBRIC checks' calls cost."
    )
    judge_call_count: int = strawberry.field(
        default=0, description="Imported runs: the judge calls its JUDGE_RUBRIC checks made."
    )
    stop_reason: str | None = strawberry.field(
        default=None,
        description="Imported runs: BUDGET_CAP once its judge calls reached its cap.",
    )

    @strawberry.field
    async def experiment(self, info: strawberry.Info[Context]) -> Experiment:
        row = await info.context.loaders.experiments.load(str(self.experiment_id))
        return Experiment.from_row(row)

    @strawberry.field(
        description="Hosted runs: the label of the comparison cohort it holds; null for an "
        "imported run."
    )
    def cohort_label(self) -> str | None:
        label = _hosted(self).get("label")
        return label if isinstance(label, str) else None

    @strawberry.field(
        description="Hosted runs: the name of the release its cohort ran (a variant's base "
        "release); null for an imported run or a release no longer there."
    )
    async def release_name(self, info: strawberry.Info[Context]) -> str | None:
        release_id = _hosted(self).get("releaseId")
        if not isinstance(release_id, str):
            return None
        return await info.context.loaders.release_names.load(release_id)

    @strawberry.field(description="Null until an item has a pass/fail grade.")
    async def pass_rate(self, info: strawberry.Info[Context]) -> RunPassRate | None:
        found = await info.context.loaders.run_pass_rates.load(str(self.id))
        if found is None:
            return None
        return RunPassRate(
            value=found.estimate, low=found.low, high=found.high, n=found.n, method=found.method
        )

    @strawberry.field(description="The run's items by position.")
    async def items(
        self, info: strawberry.Info[Context], first: int | None = None, after: str | None = None
    ) -> Connection[RunItem]:
        info.context.require()
        size = check_page_size(first, info.context.settings.max_page_size)
        async with info.context.read() as session:
            page = await service.get_items_page(
                session=session, run_id=str(self.id), first=size, after=after
            )
        return Connection.of(page, lambda row: RunItem.from_row(row, self.judge_evaluator))

    @strawberry.field(
        description="The run's item at this position (a run diff case's `position` or "
        "`baselinePosition`), with its trials and their trajectories; null when there is none."
    )
    async def item(self, info: strawberry.Info[Context], position: int) -> RunItem | None:
        info.context.require()
        async with info.context.read() as session:
            row = await service.get_item(session=session, run_id=str(self.id), position=position)
        return None if row is None else RunItem.from_row(row, self.judge_evaluator)

    @strawberry.field(
        description="The judge evaluator's agreement with human labels on this run's trials "
        "(empty unless the import named a judge evaluator; docs/labels.md)."
    )
    async def judge_agreement(self, info: strawberry.Info[Context]) -> list[JudgeAgreement]:
        actor = info.context.require()
        async with info.context.read() as session:
            row = await service.get(
                session=session, workspace_id=actor.workspace_id, run_id=str(self.id)
            )
        return await label_fields.run_agreement(info.context, row)

    @classmethod
    def from_row(cls, row: RunRow) -> Run:
        return cls(
            id=strawberry.ID(row.id),
            source=row.source,
            status=row.status,
            item_count=row.item_count,
            metadata=cast(JSON, row.metadata_),
            error_code=row.error_code,
            idempotency_key=row.idempotency_key,
            comparison_id=None if row.comparison_id is None else strawberry.ID(row.comparison_id),
            cohort_index=row.cohort_index,
            created_at=row.created_at,
            completed_at=row.completed_at,
            experiment_id=strawberry.ID(row.experiment_id),
            judge_evaluator=row.judge_evaluator,
            budget_cap_cents=optional_micros_to_cents(row.budget_cap_micros),
            judge_spent_cents=micros_to_cents(row.judge_spent_micros or 0),
            judge_call_count=row.judge_call_count or 0,
            stop_reason=row.stop_reason,
        )


def _hosted(run: Run) -> dict[str, Any]:
    """A hosted run's metadata (its cohort's label and release); {} for an imported run."""
    if run.source != RunSourceEnum.HOSTED or not isinstance(run.metadata, dict):
        return {}
    return cast(dict[str, Any], run.metadata)


@strawberry.type
class AppendedRunItems:
    appended_count: int = strawberry.field(description="New items written (0 for a repeat).")
    item_count: int
    run: Run
