"""The review queue: a comparison's graded trials in a seeded random order (docs/labels.md).

The order is fixed at the first call: a seed is stored, and the queue is the permutation
it draws over the graded trials in (cohort, case, trial) order; a finalized comparison's
trials never change, so the order never does. Each call hands out the first unlabelled
trials and moves `issued_through`; the labelled trials up to it are a simple random sample
of the graded ones, which is what the corrected Δ needs (`queue_sample`).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy import Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons import service as comparison_service
from server.comparisons.models import ComparisonCase, Trial, TrialState
from server.datasets.models import DatasetCase
from server.errors import Conflict
from server.labels import service as labels
from server.labels.models import ReviewQueue, TrialLabel
from server.validation import check_range
from server.workspaces.roles import Actor, Role

MAX_FIRST = 100


@dataclass(frozen=True, slots=True)
class ReviewItem:
    comparison_id: str
    cohort_index: int
    case_ordinal: int
    dataset_item_id: str
    trial_index: int
    input: Any
    expected: Any
    output: str | None


@dataclass(frozen=True, slots=True)
class QueueProgress:
    """How far the queue is: `labelled` of `graded` trials carry a label."""

    labelled: int
    graded: int


_GRADED = (Trial.state == TrialState.COMPLETED, Trial.passed.is_not(None))
"""A graded trial: completed, with a pass/fail."""


def _graded(comparison_id: str) -> Select[int, int, int]:
    return select(Trial.cohort_index, Trial.case_ordinal, Trial.trial_index).where(
        Trial.comparison_id == comparison_id, *_GRADED
    )


async def graded_trials(session: AsyncSession, comparison_id: str) -> list[labels.TrialKey]:
    """The comparison's graded trials (completed, with a pass/fail) in a fixed order."""
    rows = await session.execute(
        _graded(comparison_id).order_by(Trial.cohort_index, Trial.case_ordinal, Trial.trial_index)
    )
    return [(int(c), int(o), int(t)) for c, o, t in rows]


def queue_order(trials: list[labels.TrialKey], seed: int) -> list[labels.TrialKey]:
    """The trials in the queue's order: the permutation `seed` draws (numpy PCG64)."""
    permutation = np.random.default_rng(seed).permutation(len(trials))
    return [trials[int(i)] for i in permutation]


async def next_items(
    *, session: AsyncSession, actor: Actor, comparison_id: str, first: int
) -> list[ReviewItem]:
    """Up to `first` trials nobody has labelled, in the queue's order (MEMBER and up)."""
    actor.require(Role.MEMBER)
    check_range(first, field="first", low=1, high=MAX_FIRST)
    comparison = await comparison_service.get_locked(session, actor.workspace_id, comparison_id)
    if comparison.finalized_at is None:
        raise Conflict("only a finalized comparison is reviewed", reason="NOT_FINALIZED")
    queue = await session.get(ReviewQueue, comparison_id, with_for_update=True)
    if queue is None:
        queue = ReviewQueue(
            comparison_id=comparison_id, seed=secrets.randbits(62), issued_through=-1
        )
        session.add(queue)
    order = queue_order(await graded_trials(session, comparison_id), queue.seed)
    labelled = set(await labels.labels_of(session=session, target_id=comparison_id))
    picked = [(at, key) for at, key in enumerate(order) if key not in labelled][:first]
    if picked:
        queue.issued_through = max(queue.issued_through, picked[-1][0])
    await session.flush()
    return await _items(session, comparison_id, [key for _, key in picked])


async def progress(*, session: AsyncSession, comparison_id: str) -> QueueProgress:
    """Labelled and graded trials of a comparison (already scoped by the caller), counted by
    the database: the comparison page asks on every load, and a big comparison's graded
    trials are too many to read (900,000 held the API's loop for seconds, bench/scale.py)."""
    graded = _graded(comparison_id)
    labelled_keys = (
        select(TrialLabel.cohort_index, TrialLabel.position, TrialLabel.trial_index)
        .join(
            Trial,
            (Trial.comparison_id == TrialLabel.target_id)
            & (Trial.cohort_index == TrialLabel.cohort_index)
            & (Trial.case_ordinal == TrialLabel.position)
            & (Trial.trial_index == TrialLabel.trial_index),
        )
        .where(TrialLabel.target_id == comparison_id, *_GRADED)
        .distinct()
        .subquery()
    )
    row = (
        await session.execute(
            select(
                select(func.count()).select_from(graded.subquery()).scalar_subquery(),
                select(func.count()).select_from(labelled_keys).scalar_subquery(),
            )
        )
    ).one()
    return QueueProgress(labelled=int(row[1]), graded=int(row[0]))


async def queue_sample(session: AsyncSession, comparison_id: str) -> set[labels.TrialKey]:
    """The trials the queue has handed out so far (a prefix of its random order)."""
    queue = await session.get(ReviewQueue, comparison_id)
    if queue is None or queue.issued_through < 0:
        return set()
    order = queue_order(await graded_trials(session, comparison_id), queue.seed)
    return set(order[: queue.issued_through + 1])


async def _items(
    session: AsyncSession, comparison_id: str, keys: list[labels.TrialKey]
) -> list[ReviewItem]:
    if not keys:
        return []
    ordinals = sorted({key[1] for key in keys})
    rows = await session.execute(
        select(
            Trial.cohort_index,
            Trial.case_ordinal,
            Trial.trial_index,
            Trial.output,
            DatasetCase.dataset_item_id,
            DatasetCase.input,
            DatasetCase.expected,
        )
        .join(
            ComparisonCase,
            (ComparisonCase.comparison_id == Trial.comparison_id)
            & (ComparisonCase.ordinal == Trial.case_ordinal),
        )
        .join(DatasetCase, DatasetCase.id == ComparisonCase.dataset_case_id)
        .where(Trial.comparison_id == comparison_id, Trial.case_ordinal.in_(ordinals))
    )
    found = {(int(r.cohort_index), int(r.case_ordinal), int(r.trial_index)): r for r in rows}
    return [
        ReviewItem(
            comparison_id=comparison_id,
            cohort_index=key[0],
            case_ordinal=key[1],
            dataset_item_id=found[key].dataset_item_id,
            trial_index=key[2],
            input=found[key].input,
            expected=found[key].expected,
            output=found[key].output,
        )
        for key in keys
    ]
