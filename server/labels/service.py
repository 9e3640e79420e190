"""Labelling a trial and reading its labels (docs/labels.md).

A MEMBER labels a graded trial of a finalized comparison or a completed imported run;
labelling the same trial again replaces that labeller's label. A trial's human label,
where labellers disagree, is the latest one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.audit import service as audit
from server.comparisons import service as comparison_service
from server.comparisons.models import ComparisonCase, Trial, TrialState
from server.datasets.models import DatasetCase
from server.db import utcnow
from server.errors import Conflict, NotFound, ValidationFailed
from server.labels import judge_checks
from server.labels.models import LabelTarget, TrialLabel
from server.runs import service as run_service
from server.runs.models import RunItem, RunSource, RunStatus
from server.workspaces.models import Member
from server.workspaces.roles import Actor, Role

NOTE_MAX = 2000
JUDGE_PASS_SCORE = 0.5
"""An imported run's judge evaluator passes a trial at or above this score."""

TrialKey = tuple[int, int, int]
"""(cohort index, position, trial index) within one comparison or run."""


@dataclass(frozen=True, slots=True)
class TrialRef:
    """A trial as the API names it: `comparison_id` or `run_id`, never both."""

    comparison_id: str | None
    run_id: str | None
    cohort_index: int
    dataset_item_id: str
    trial_index: int


@dataclass(frozen=True, slots=True)
class ResolvedTrial:
    target: LabelTarget
    target_id: str
    cohort_index: int
    position: int
    dataset_item_id: str
    trial_index: int
    judge_passed: bool | None
    """The judge's grade of the trial (None: no judge graded it)."""


@dataclass(frozen=True, slots=True)
class Labelled:
    """A label just given, with the judge's grade it was hidden from until now."""

    label: TrialLabel
    labeller_name: str
    judge_passed: bool | None


async def label_trial(
    *, session: AsyncSession, actor: Actor, ref: TrialRef, passed: bool, note: str | None
) -> Labelled:
    """Record the caller's label on a trial (replacing their earlier one), audited."""
    actor.require(Role.MEMBER)
    cleaned = _check_note(note)
    trial = await resolve(session=session, workspace_id=actor.workspace_id, ref=ref)
    label = await session.scalar(
        select(TrialLabel)
        .where(
            TrialLabel.target_id == trial.target_id,
            TrialLabel.cohort_index == trial.cohort_index,
            TrialLabel.position == trial.position,
            TrialLabel.trial_index == trial.trial_index,
            TrialLabel.labeller_member_id == actor.member_id,
        )
        .with_for_update()
    )
    if label is None:
        label = TrialLabel(
            workspace_id=actor.workspace_id,
            target=trial.target,
            target_id=trial.target_id,
            cohort_index=trial.cohort_index,
            position=trial.position,
            dataset_item_id=trial.dataset_item_id,
            trial_index=trial.trial_index,
            labeller_member_id=actor.member_id,
        )
        session.add(label)
    label.passed = passed
    label.note = cleaned
    label.created_at = utcnow()
    await session.flush()
    await audit.record(
        session=session,
        actor=actor,
        action="trial.label",
        target_type=trial.target.value.lower(),
        target_id=trial.target_id,
        details={
            "cohortIndex": trial.cohort_index,
            "datasetItemId": trial.dataset_item_id,
            "trialIndex": trial.trial_index,
            "passed": passed,
            "note": cleaned,
        },
    )
    name = await session.scalar(select(Member.name).where(Member.id == actor.member_id))
    return Labelled(label, str(name or ""), trial.judge_passed)


def _check_note(note: str | None) -> str | None:
    if note is None or not note.strip():
        return None
    cleaned = note.strip()
    if len(cleaned) > NOTE_MAX:
        raise ValidationFailed(f"`note` must be at most {NOTE_MAX:,} characters", field="note")
    return cleaned


async def resolve(*, session: AsyncSession, workspace_id: str, ref: TrialRef) -> ResolvedTrial:
    """The labellable trial `ref` names in the workspace; NOT_FOUND when there is none."""
    if (ref.comparison_id is None) == (ref.run_id is None):
        raise ValidationFailed(
            "`trial` names a comparisonId or a runId, exactly one", field="trial"
        )
    if ref.comparison_id is not None:
        return await _comparison_trial(session, workspace_id, ref.comparison_id, ref)
    assert ref.run_id is not None
    return await _run_trial(session, workspace_id, ref.run_id, ref)


async def _comparison_trial(
    session: AsyncSession, workspace_id: str, comparison_id: str, ref: TrialRef
) -> ResolvedTrial:
    comparison = await comparison_service.get(
        session=session, workspace_id=workspace_id, comparison_id=comparison_id
    )
    if comparison.finalized_at is None:
        raise Conflict("only a finalized comparison's trials are labelled", reason="NOT_FINALIZED")
    row = (
        await session.execute(
            select(Trial.case_ordinal, Trial.state, Trial.passed, Trial.check_results)
            .join(
                ComparisonCase,
                (ComparisonCase.comparison_id == Trial.comparison_id)
                & (ComparisonCase.ordinal == Trial.case_ordinal),
            )
            .join(DatasetCase, DatasetCase.id == ComparisonCase.dataset_case_id)
            .where(
                Trial.comparison_id == comparison_id,
                DatasetCase.dataset_item_id == ref.dataset_item_id,
                Trial.cohort_index == ref.cohort_index,
                Trial.trial_index == ref.trial_index,
            )
        )
    ).first()
    if row is None:
        raise NotFound("trial not found", field="trial")
    if row.state != TrialState.COMPLETED or row.passed is None:
        raise Conflict("the trial errored: it has no graded output", reason="TRIAL_NOT_GRADED")
    return ResolvedTrial(
        LabelTarget.COMPARISON,
        comparison_id,
        ref.cohort_index,
        int(row.case_ordinal),
        ref.dataset_item_id,
        ref.trial_index,
        judge_checks.judge_passed(row.check_results),
    )


async def _run_trial(
    session: AsyncSession, workspace_id: str, run_id: str, ref: TrialRef
) -> ResolvedTrial:
    run = await run_service.get(session=session, workspace_id=workspace_id, run_id=run_id)
    if run.source != RunSource.IMPORTED:
        raise ValidationFailed(
            "a hosted run's trials are labelled through its comparison", field="trial.runId"
        )
    if run.status != RunStatus.COMPLETED:
        raise Conflict("only a completed run's trials are labelled", reason="RUN_NOT_COMPLETED")
    item = (
        await session.execute(
            select(RunItem.position, RunItem.trials)
            .where(RunItem.run_id == run_id, RunItem.dataset_item_id == ref.dataset_item_id)
            .order_by(RunItem.position)
            .limit(1)
        )
    ).first()
    trials: list[Any] = list(item.trials) if item is not None else []
    if ref.cohort_index != 0 or item is None or not 0 <= ref.trial_index < len(trials):
        raise NotFound("trial not found", field="trial")
    score = (trials[ref.trial_index].get("evaluators") or {}).get(run.judge_evaluator or "")
    judged = None if not isinstance(score, int | float) else float(score) >= JUDGE_PASS_SCORE
    return ResolvedTrial(
        LabelTarget.RUN, run_id, 0, int(item.position), ref.dataset_item_id, ref.trial_index, judged
    )


async def labels_of(
    *, session: AsyncSession, target_id: str, keys: Iterable[TrialKey] | None = None
) -> dict[TrialKey, list[TrialLabel]]:
    """Each trial's labels, newest first; every labelled trial of the target without `keys`."""
    stmt = select(TrialLabel).where(TrialLabel.target_id == target_id)
    wanted = None if keys is None else set(keys)
    if wanted is not None:
        if not wanted:
            return {}
        stmt = stmt.where(TrialLabel.position.in_(sorted({key[1] for key in wanted})))
    found: dict[TrialKey, list[TrialLabel]] = defaultdict(list)
    for label in await session.scalars(
        stmt.order_by(TrialLabel.created_at.desc(), TrialLabel.id.desc())
    ):
        key = (label.cohort_index, label.position, label.trial_index)
        if wanted is None or key in wanted:
            found[key].append(label)
    return dict(found)


def human_labels(labels: dict[TrialKey, list[TrialLabel]]) -> dict[TrialKey, bool]:
    """Each labelled trial's human label: its latest (the lists are newest first)."""
    return {key: rows[0].passed for key, rows in labels.items() if rows}


async def labels_by_case(
    *, session: AsyncSession, keys: Sequence[tuple[str, int]]
) -> dict[tuple[str, int], list[tuple[TrialLabel, str]]]:
    """The labels (with the labeller's name) of each (target id, position), newest first."""
    if not keys:
        return {}
    by_target: dict[str, set[int]] = defaultdict(set)
    for target_id, position in keys:
        by_target[target_id].add(position)
    condition = or_(
        *(
            (TrialLabel.target_id == target_id) & TrialLabel.position.in_(sorted(positions))
            for target_id, positions in by_target.items()
        )
    )
    rows = await session.execute(
        select(TrialLabel, Member.name)
        .join(Member, Member.id == TrialLabel.labeller_member_id)
        .where(condition)
        .order_by(TrialLabel.created_at.desc(), TrialLabel.id.desc())
    )
    found: dict[tuple[str, int], list[tuple[TrialLabel, str]]] = defaultdict(list)
    for label, name in rows:
        found[(label.target_id, label.position)].append((label, str(name)))
    return dict(found)
