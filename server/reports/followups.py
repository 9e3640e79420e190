"""Follow-ups: one per (case, baseline) among that baseline's worse cases, shared by every
report version of the comparison.

They are made at the first `generateReport` (the verdict's worse cases never change once
FINALIZED, and nothing reads follow-ups before a report exists), in one bulk insert.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.audit import service as audit
from server.comparisons import service as comparison_service
from server.db import utcnow
from server.errors import Conflict, NotFound, ValidationFailed
from server.ids import new_id
from server.pagination import Page, keyset_page
from server.reports import verdict_rows
from server.reports.models import FollowUp, FollowUpState
from server.workspaces.roles import Actor, Role

NOTE_MAX = 2000
MAX_IDS = 1000
BATCH = 5000


@dataclass(frozen=True, slots=True)
class Tally:
    open: int
    resolved: int


async def create_all(
    session: AsyncSession, *, workspace_id: str, comparison_id: str, baselines: Sequence[int]
) -> int:
    """Insert every baseline's follow-ups (the caller holds the comparison's lock)."""
    now = utcnow()
    rows = []
    for baseline in baselines:
        for ordinal, item in await verdict_rows.worse_case_keys(
            session=session, comparison_id=comparison_id, baseline_cohort_index=baseline
        ):
            rows.append(
                {
                    "workspace_id": workspace_id,
                    "comparison_id": comparison_id,
                    "baseline_cohort_index": baseline,
                    "case_ordinal": ordinal,
                    "dataset_item_id": item,
                    "state": FollowUpState.OPEN,
                    "created_at": now,
                }
            )
    # Ids in (baseline, case) order: the list pages by id, so it reads in that order too
    # (ids made within one millisecond are otherwise in random order).
    for row, row_id in zip(rows, sorted(new_id("fu") for _ in rows), strict=True):
        row["id"] = row_id
    for low in range(0, len(rows), BATCH):
        await session.execute(insert(FollowUp), rows[low : low + BATCH])
    return len(rows)


async def tally(session: AsyncSession, comparison_id: str) -> dict[int, Tally]:
    """Open and resolved follow-ups per baseline."""
    rows = await session.execute(
        select(FollowUp.baseline_cohort_index, FollowUp.state, func.count())
        .where(FollowUp.comparison_id == comparison_id)
        .group_by(FollowUp.baseline_cohort_index, FollowUp.state)
    )
    counts: Counter[tuple[int, str]] = Counter()
    for baseline, state, count in rows:
        counts[(int(baseline), str(state))] = int(count)
    baselines = {baseline for baseline, _ in counts}
    return {
        b: Tally(open=counts[(b, FollowUpState.OPEN)], resolved=counts[(b, FollowUpState.RESOLVED)])
        for b in sorted(baselines)
    }


async def listed(
    session: AsyncSession, comparison_id: str, baseline_cohort_index: int, limit: int
) -> list[FollowUp]:
    """A baseline's first `limit` follow-ups in case order."""
    rows = await session.scalars(
        select(FollowUp)
        .where(
            FollowUp.comparison_id == comparison_id,
            FollowUp.baseline_cohort_index == baseline_cohort_index,
        )
        .order_by(FollowUp.case_ordinal)
        .limit(limit)
    )
    return list(rows)


async def open_items(session: AsyncSession, comparison_id: str, limit: int) -> list[FollowUp]:
    rows = await session.scalars(
        select(FollowUp)
        .where(FollowUp.comparison_id == comparison_id, FollowUp.state == FollowUpState.OPEN)
        .order_by(FollowUp.baseline_cohort_index, FollowUp.case_ordinal)
        .limit(limit)
    )
    return list(rows)


async def get_page(
    *,
    session: AsyncSession,
    comparison_id: str,
    state: FollowUpState | None,
    baseline_cohort_index: int | None,
    first: int,
    after: str | None,
) -> Page[FollowUp]:
    """A comparison's follow-ups (already scoped), keyset-paginated by id."""
    stmt = select(FollowUp).where(FollowUp.comparison_id == comparison_id)
    if state is not None:
        stmt = stmt.where(FollowUp.state == state)
    if baseline_cohort_index is not None:
        stmt = stmt.where(FollowUp.baseline_cohort_index == baseline_cohort_index)
    return await keyset_page(session, stmt, key=FollowUp.id, first=first, after=after)


def _check_note(note: str) -> str:
    cleaned = note.strip()
    if not 1 <= len(cleaned) <= NOTE_MAX:
        raise ValidationFailed(f"`note` is required: 1 to {NOTE_MAX:,} characters", field="note")
    return cleaned


async def resolve(
    *, session: AsyncSession, actor: Actor, follow_up_ids: Sequence[str], note: str
) -> list[FollowUp]:
    """Resolve open follow-ups with a note (MEMBER and up), all or none: an unknown id is
    NOT_FOUND and an already resolved one CONFLICT, and then nothing changes."""
    actor.require(Role.MEMBER)
    cleaned = _check_note(note)
    ids = list(dict.fromkeys(follow_up_ids))
    if not 1 <= len(ids) <= MAX_IDS:
        raise ValidationFailed(f"`ids` must name 1 to {MAX_IDS:,} follow-ups", field="ids")
    # Lock their comparisons first (in id order), as generation and sign-off do, so a
    # document or a sign-off never sees half of a resolution.
    comparison_ids = sorted(
        set(
            await session.scalars(
                select(FollowUp.comparison_id).where(
                    FollowUp.id.in_(ids), FollowUp.workspace_id == actor.workspace_id
                )
            )
        )
    )
    for comparison_id in comparison_ids:
        await comparison_service.get_locked(session, actor.workspace_id, comparison_id)
    rows = {
        row.id: row
        for row in await session.scalars(
            select(FollowUp)
            .where(FollowUp.id.in_(ids), FollowUp.workspace_id == actor.workspace_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    }
    missing = [i for i in ids if i not in rows]
    if missing:
        raise NotFound("follow-up not found", ids=missing[:20])
    resolved = [i for i in ids if rows[i].state == FollowUpState.RESOLVED]
    if resolved:
        raise Conflict(
            "already resolved: a follow-up keeps its first resolution",
            reason="ALREADY_RESOLVED",
            resolvedIds=resolved[:100],
        )
    now = utcnow()
    for row in rows.values():
        row.state = FollowUpState.RESOLVED
        row.note = cleaned
        row.resolved_by_member_id = actor.member_id
        row.resolved_at = now
    for comparison_id in sorted({row.comparison_id for row in rows.values()}):
        mine = [i for i in ids if rows[i].comparison_id == comparison_id]
        await audit.record(
            session=session,
            actor=actor,
            action="follow_up.resolve",
            target_type="follow_up" if len(mine) == 1 else "comparison",
            target_id=mine[0] if len(mine) == 1 else comparison_id,
            details={"comparisonId": comparison_id, "followUpIds": mine, "note": cleaned},
        )
    return [rows[i] for i in ids]
