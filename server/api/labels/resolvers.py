"""Thin resolvers: `labelTrial`, `reviewQueue`, and the label fields of other types."""

from __future__ import annotations

import strawberry

from server.api.context import Context
from server.api.labels.types import (
    JudgeAgreement,
    ReviewItem,
    ReviewProgress,
    TrialLabel,
    TrialRefInput,
)
from server.comparisons.models import Comparison as ComparisonRow
from server.labels import agreement, queue
from server.runs.models import Run as RunRow
from server.verdicts import ship_inputs
from server.workspaces.roles import Role


async def trial_labels(
    context: Context,
    *,
    target_id: str,
    position: int,
    cohort_index: int,
    trial_index: int,
    judge_passed: bool | None,
) -> list[TrialLabel]:
    """A trial's labels, newest first (the target is the caller's, already scoped)."""
    found = await context.loaders.trial_labels.load((target_id, position))
    return [
        TrialLabel.from_row(label, name, judge_passed)
        for label, name in found
        if label.cohort_index == cohort_index and label.trial_index == trial_index
    ]


async def comparison_agreement(context: Context, row: ComparisonRow) -> list[JudgeAgreement]:
    async with context.read() as session:
        found = await agreement.comparison_agreement(session=session, comparison=row)
    return [JudgeAgreement.from_value(value) for value in found]


async def run_agreement(context: Context, row: RunRow) -> list[JudgeAgreement]:
    async with context.read() as session:
        found = await agreement.run_agreement(session=session, run=row)
    return [JudgeAgreement.from_value(value) for value in found]


async def review_progress(context: Context, comparison_id: str) -> ReviewProgress:
    async with context.read() as session:
        found = await queue.progress(session=session, comparison_id=comparison_id)
    return ReviewProgress.from_value(found)


@strawberry.type
class LabelQuery:
    @strawberry.field(
        description="Up to `first` (1–100) graded trials nobody has labelled, in the "
        "comparison's seeded random order, fixed at the first call (MEMBER and up). Never "
        "the judge's grade."
    )
    async def review_queue(
        self,
        info: strawberry.Info[Context],
        comparison_id: strawberry.ID,
        first: int | None = 20,
    ) -> list[ReviewItem]:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            rows = await queue.next_items(
                session=session,
                actor=actor,
                comparison_id=str(comparison_id),
                first=20 if first is None else first,
            )
        return [ReviewItem.from_row(row) for row in rows]


@strawberry.type
class LabelMutation:
    @strawberry.mutation(
        description="Label a graded trial of a finalized comparison or a completed imported "
        "run (MEMBER and up); labelling again replaces the caller's label. Audited."
    )
    async def label_trial(
        self,
        info: strawberry.Info[Context],
        trial: TrialRefInput,
        passed: bool,
        note: str | None = None,
    ) -> TrialLabel:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            done = await ship_inputs.label_trial(
                session=session, actor=actor, ref=trial.to_value(), passed=passed, note=note
            )
        return TrialLabel.from_row(done.label, done.labeller_name, done.judge_passed)
