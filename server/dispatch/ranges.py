"""Case ranges: a comparison's cases split into runs of consecutive ordinals, each with its
own lease and fencing token, so several deliveries (on any hosts) dispatch one comparison.

Ranges are created at the first claim (idempotent, so a run RUNNING before ranges existed
resumes too). A delivery claims the lowest unfinished range that is free or expired; taking
an expired one over, its admitted trials without an outcome are the dead holder's ambiguous
calls (never re-sent). A range is finished once every trial of it has its outcome.

Lock order, everywhere: range rows (sorted by index) → trial rows → ledger rows → the
comparison row → cohort rows. The comparison's own lease (`lease.py`) is the finishing
lease: the one delivery that finds no range held by a live delivery takes it to end the run
(`conclusion.py`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Select, and_, bindparam, exists, func, or_, select, tuple_, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.selectable import ScalarSelect

from server.comparisons.models import (
    Comparison,
    ComparisonCase,
    ComparisonStatus,
    Trial,
    TrialState,
)
from server.db import utcnow
from server.dispatch.lease import Fenced
from server.dispatch.models import ComparisonRange
from server.workspaces.models import AmbiguousOutcomes, Workspace

FAILED_STOP = "FAILED"
"""`Comparison.pending_stop` when an ambiguous outcome fails the run (FAIL_RUN)."""


@dataclass(frozen=True, slots=True)
class Claim:
    """A range leased by one delivery: cases `first` ≤ ordinal < `end`, fenced by `token`."""

    index: int
    first: int
    end: int
    token: int

    def holds(self, ordinal: int) -> bool:
        return self.first <= ordinal < self.end


@dataclass(frozen=True, slots=True)
class RangeTrials:
    """What the rows say of a claimed range: trials with a row, and those left admitted."""

    recorded: frozenset[tuple[int, int, int]]
    orphans: int


def _free(now: datetime) -> ColumnElement[bool]:
    return or_(
        ComparisonRange.lease_owner.is_(None),
        ComparisonRange.lease_expires_at.is_(None),
        ComparisonRange.lease_expires_at < now,
    )


async def ensure(session: AsyncSession, comparison_id: str, *, size: int) -> None:
    """Create the comparison's ranges of `size` cases unless they exist (idempotent)."""
    have = await session.scalar(
        select(ComparisonRange.range_index)
        .where(ComparisonRange.comparison_id == comparison_id)
        .limit(1)
    )
    if have is not None:
        return
    ordinals = list(
        (
            await session.execute(
                select(ComparisonCase.ordinal)
                .where(ComparisonCase.comparison_id == comparison_id)
                .order_by(ComparisonCase.ordinal)
            )
        ).scalars()
    )
    rows = [
        {
            "comparison_id": comparison_id,
            "range_index": index,
            "first_ordinal": chunk[0],
            "end_ordinal": chunk[-1] + 1,
            "lease_token": 0,
        }
        for index, chunk in enumerate(
            ordinals[start : start + size] for start in range(0, len(ordinals), max(1, size))
        )
    ]
    if rows:
        postgres = session.get_bind().dialect.name == "postgresql"
        stmt = (pg_insert if postgres else sqlite_insert)(ComparisonRange).values(rows)
        await session.execute(stmt.on_conflict_do_nothing())


async def claim(
    session: AsyncSession,
    *,
    comparison_id: str,
    delivery_id: str,
    ttl: timedelta,
    range_cases: int | None,
) -> Claim | None:
    """The next free range, leased to `delivery_id`; first the ranges made, on a first claim
    (`range_cases` given)."""
    if range_cases is not None:
        await ensure(session, comparison_id, size=range_cases)
    return await claim_next(session, comparison_id=comparison_id, delivery_id=delivery_id, ttl=ttl)


async def claim_next(
    session: AsyncSession, *, comparison_id: str, delivery_id: str, ttl: timedelta
) -> Claim | None:
    """Lease the lowest unfinished range that is free or expired, of a RUNNING comparison
    with no stop pending; None when there is none (ranges being leased are skipped)."""
    now = utcnow()
    running = exists(
        select(Comparison.id).where(
            Comparison.id == comparison_id,
            Comparison.status == ComparisonStatus.RUNNING,
            Comparison.pending_stop.is_(None),
        )
    )
    row = (
        await session.execute(
            select(ComparisonRange)
            .where(
                ComparisonRange.comparison_id == comparison_id,
                ComparisonRange.finished_at.is_(None),
                _free(now),
                running,
            )
            .order_by(ComparisonRange.range_index)
            .limit(1)
            .with_for_update(skip_locked=True)
        )
    ).scalar_one_or_none()
    if row is None:
        return None
    row.lease_token += 1
    row.lease_owner = delivery_id
    row.lease_expires_at = now + ttl
    await session.flush()
    return Claim(row.range_index, row.first_ordinal, row.end_ordinal, row.lease_token)


async def free_count(session: AsyncSession, comparison_id: str) -> int:
    """Unfinished ranges no live delivery holds."""
    count: int | None = await session.scalar(
        select(func.count())
        .select_from(ComparisonRange)
        .where(
            ComparisonRange.comparison_id == comparison_id,
            ComparisonRange.finished_at.is_(None),
            _free(utcnow()),
        )
    )
    return int(count or 0)


async def found_in(
    session: AsyncSession, comparison_id: str, claim: Claim
) -> tuple[RangeTrials, AmbiguousOutcomes]:
    """The claimed range's trials, and the workspace's rule for the ambiguous ones among
    them (`ambiguousOutcomes`)."""
    return await trials_in(session, comparison_id, claim), await _policy(session, comparison_id)


async def _policy(session: AsyncSession, comparison_id: str) -> AmbiguousOutcomes:
    value = (
        await session.execute(
            select(Workspace.ambiguous_outcomes)
            .join(Comparison, Comparison.workspace_id == Workspace.id)
            .where(Comparison.id == comparison_id)
        )
    ).scalar_one()
    return AmbiguousOutcomes(value)


async def trials_in(session: AsyncSession, comparison_id: str, claim: Claim) -> RangeTrials:
    rows = (
        await session.execute(
            select(Trial.case_ordinal, Trial.cohort_index, Trial.trial_index, Trial.state).where(
                Trial.comparison_id == comparison_id,
                Trial.case_ordinal >= claim.first,
                Trial.case_ordinal < claim.end,
            )
        )
    ).all()
    return RangeTrials(
        recorded=frozenset((int(a), int(b), int(c)) for a, b, c, _ in rows),
        orphans=sum(1 for *_, state in rows if state == TrialState.ADMITTED),
    )


def _lock_statement(*, shared: bool) -> Select[int, int]:
    rows = (
        select(ComparisonRange.range_index, ComparisonRange.lease_token)
        .where(
            ComparisonRange.comparison_id == bindparam("comparison_id"),
            ComparisonRange.range_index.in_(bindparam("indexes", expanding=True)),
        )
        .order_by(ComparisonRange.range_index)
    )
    return rows.with_for_update(read=shared)


_LOCK = _lock_statement(shared=False)
_LOCK_SHARED = _lock_statement(shared=True)


async def lock(
    session: AsyncSession, comparison_id: str, claims: Iterable[Claim], *, shared: bool = False
) -> None:
    """Lock the claimed range rows (sorted by index); `Fenced` unless each token holds.

    `shared` (admission and recording): `FOR SHARE`, so a delivery's admission and its
    record do not wait for each other; a claim, a renewal or a release changes the row, so
    it still waits for both (and they for it): the token read stays the token until commit.
    """
    wanted = {c.index: c.token for c in claims}
    if not wanted:
        return
    rows = (
        await session.execute(
            _LOCK_SHARED if shared else _LOCK,
            {"comparison_id": comparison_id, "indexes": sorted(wanted)},
        )
    ).all()
    if {int(i): int(t) for i, t in rows} != wanted:
        raise Fenced(comparison_id)


def holding(comparison_id: str, claims: Collection[Claim]) -> ColumnElement[bool]:
    """The claims' range rows, while their fencing tokens hold."""
    return and_(
        ComparisonRange.comparison_id == comparison_id,
        tuple_(ComparisonRange.range_index, ComparisonRange.lease_token).in_(
            [(c.index, c.token) for c in claims]
        ),
    )


async def release(
    session: AsyncSession, comparison_id: str, claims: Collection[Claim], *, finished: bool
) -> None:
    """Give the claims up (marked finished when every trial of them has its outcome)."""
    if not claims:
        return
    values: dict[str, object] = {"lease_owner": None, "lease_expires_at": None}
    if finished:
        values["finished_at"] = utcnow()
    await session.execute(
        update(ComparisonRange)
        .where(holding(comparison_id, claims))
        .values(**values)
        .execution_options(synchronize_session=False)
    )


async def release_finished(session: AsyncSession, comparison_id: str, claim: Claim) -> None:
    """Give up a range with nothing left to send, as finished."""
    await lock(session, comparison_id, [claim])
    await release(session, comparison_id, [claim], finished=True)


async def fail_pending(session: AsyncSession, comparison_id: str, claim: Claim) -> None:
    """FAIL_RUN: an ambiguous outcome found in `claim` stops every delivery; the finishing
    delivery fails the run. The range is given up untouched (its orphans stay admitted)."""
    await lock(session, comparison_id, [claim])
    await release(session, comparison_id, [claim], finished=False)
    await session.execute(
        update(Comparison)
        .where(Comparison.id == comparison_id, Comparison.status == ComparisonStatus.RUNNING)
        .values(pending_stop=FAILED_STOP)
    )


async def expire_all_running(session: AsyncSession) -> None:
    """Embedded start-up: no other process can hold a range of a RUNNING comparison."""
    running = select(Comparison.id).where(Comparison.status == ComparisonStatus.RUNNING)
    await session.execute(
        update(ComparisonRange)
        .where(ComparisonRange.comparison_id.in_(running))
        .values(lease_owner=None, lease_expires_at=None)
        .execution_options(synchronize_session=False)
    )


def unattended(now: datetime) -> ColumnElement[bool]:
    """A RUNNING comparison nothing works on: its finishing lease is free and an unfinished
    range is free, or no range is held (all finished, a stop pending, or none made yet)."""
    finishing_free = or_(
        Comparison.lease_owner.is_(None),
        Comparison.lease_expires_at.is_(None),
        Comparison.lease_expires_at < now,
    )
    of_it = ComparisonRange.comparison_id == Comparison.id
    free_range = exists(
        select(ComparisonRange.range_index).where(
            of_it, ComparisonRange.finished_at.is_(None), _free(now)
        )
    )
    live_range = exists(
        select(ComparisonRange.range_index).where(
            of_it,
            ComparisonRange.lease_owner.is_not(None),
            ComparisonRange.lease_expires_at >= now,
        )
    )
    return and_(
        Comparison.status == ComparisonStatus.RUNNING,
        finishing_free,
        or_(and_(free_range, Comparison.pending_stop.is_(None)), ~live_range),
    )


def tokens_sum() -> ScalarSelect[int]:
    """Σ range tokens of the comparison: a sweep's job id moves when a range is claimed."""
    return (
        select(func.coalesce(func.sum(ComparisonRange.lease_token), 0))
        .where(ComparisonRange.comparison_id == Comparison.id)
        .scalar_subquery()
    )
