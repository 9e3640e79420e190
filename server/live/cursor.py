"""Which traces a live comparison's next grading batch grades (docs/live.md): a keyset cursor
on the traces' ingest order, so a batch reads the rows written since the last one, not every
watched trace since the start.

Every ingest write of a trace (its first spans, and any that arrive later) sets its
`updated_at`; the order is (updated_at, trace id), read by the index
`ix_trace_workspace_id_service_updated_at_id`. A comparison keeps two positions in it:

- `scanned`: a batch takes the watched traces after it with no grade row, in that order (a
  trace whose late spans write it again comes after it once more and is found graded). An
  ingest transaction stamps `updated_at` before it commits, so concurrent exports commit
  out of stamp order: the cursor stays `LAG` behind the clock, and each batch reads the
  traces of the last `LAG` again. A batch costs O(batch + traces written in `LAG`).
- `settled`: a trace committed more than `LAG` after its stamp is behind the cursor when it
  becomes visible. Each batch checks the traces between `settled` and min(`scanned`, now −
  `SETTLE`) for a missing grade, each trace once; after traffic stops, the grading job's
  settle check (server/live/hooks.py) runs that batch.

Both move in the batch's transaction, with its grade rows: a worker killed mid-batch moves
neither, and the next batch grades the same traces. The clock is the worker's, the stamps
the API's: their hosts' clocks must agree within `LAG` (NTP does).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import ColumnElement, exists, func, literal, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from server.db import UTCDateTime
from server.live.models import LiveComparison, LiveGrade
from server.traces.models import Trace

LAG: Final = timedelta(seconds=2)
"""How far behind the clock the cursor stays: longer than an ingest transaction takes, as a
rule, from stamping a trace to committing it (each batch reads this much again)."""
SETTLE: Final = timedelta(seconds=60)
"""When a trace whose ingest committed more than `LAG` after its stamp is looked for."""


@dataclass(frozen=True, slots=True)
class Key:
    """A position in the ingest order; `trace_id` None stands after every trace of `at`."""

    at: datetime
    trace_id: str | None

    def sort_key(self) -> tuple[datetime, bool, str]:
        return (self.at, self.trace_id is None, self.trace_id or "")


def _earlier(a: Key, b: Key) -> Key:
    return a if a.sort_key() <= b.sort_key() else b


def _later(a: Key, b: Key) -> Key:
    return b if a.sort_key() <= b.sort_key() else a


def _order() -> Any:
    return tuple_(Trace.updated_at, Trace.id)


def _bound(key: Key) -> Any:
    return tuple_(literal(key.at, UTCDateTime()), literal(key.trace_id))


def _after(key: Key) -> ColumnElement[bool]:
    if key.trace_id is None:
        return Trace.updated_at > key.at
    later: ColumnElement[bool] = _order() > _bound(key)
    return later


def _up_to(key: Key) -> ColumnElement[bool]:
    if key.trace_id is None:
        return Trace.updated_at <= key.at
    up_to: ColumnElement[bool] = _order() <= _bound(key)
    return up_to


def scanned(row: LiveComparison) -> Key:
    if row.scanned_at is None:
        return Key(row.started_at, None)
    return Key(row.scanned_at, row.scanned_trace_id)


def settled(row: LiveComparison) -> Key:
    if row.settled_at is None:
        return Key(row.started_at, None)
    return Key(row.settled_at, row.settled_trace_id)


def _releases(row: LiveComparison) -> list[str]:
    return [row.candidate_release, *row.baseline_releases]


def _service(row: LiveComparison) -> list[ColumnElement[bool]]:
    return [Trace.workspace_id == row.workspace_id, Trace.service == row.service]


def _graded(row: LiveComparison) -> ColumnElement[bool]:
    return exists().where(LiveGrade.live_comparison_id == row.id, LiveGrade.trace_id == Trace.id)


def _watched(row: LiveComparison) -> list[ColumnElement[bool]]:
    return [Trace.release.in_(_releases(row)), Trace.started_at >= row.started_at]


@dataclass(frozen=True, slots=True)
class Picked:
    """A batch's traces to grade, and whether more may be waiting after them."""

    traces: list[Trace]
    backlog: bool


async def pick(session: AsyncSession, row: LiveComparison, *, batch: int, now: datetime) -> Picked:
    """Up to `batch` traces to grade, the late commits first, with both positions moved on
    the (locked) row."""
    late = await _late(session, row, batch=batch, now=now)
    room = batch - len(late)
    position = scanned(row)
    fresh: list[Trace] = []
    if room:
        fresh = list(
            await session.scalars(
                select(Trace)
                .where(*_service(row), _after(position), *_watched(row), ~_graded(row))
                .order_by(Trace.updated_at, Trace.id)
                .limit(room)
            )
        )
    # Every trace after `position` was read (up to the last one taken when the batch is
    # full), but the cursor stays `LAG` behind the clock: a trace stamped meanwhile and
    # committed after this read is still after it.
    lagging = Key(now - LAG, None)
    if not room:  # the late ones filled the batch: nothing after `position` was read
        moved = position
    elif len(fresh) == room:  # read up to the last one taken
        moved = _later(position, _earlier(Key(fresh[-1].updated_at, fresh[-1].id), lagging))
    else:
        moved = _later(position, lagging)
    row.scanned_at, row.scanned_trace_id = moved.at, moved.trace_id
    return Picked(late + fresh, backlog=not room or len(fresh) == room)


async def _late(
    session: AsyncSession, row: LiveComparison, *, batch: int, now: datetime
) -> list[Trace]:
    """Watched traces with no grade row between `settled` and min(`scanned`, now − SETTLE):
    committed after the scan passed their stamp (none, as a rule)."""
    start, end = settled(row), _earlier(scanned(row), Key(now - SETTLE, None))
    if end.sort_key() <= start.sort_key():
        return []
    found = list(
        await session.scalars(
            select(Trace)
            .where(
                *_service(row),
                _after(start),
                _up_to(end),
                *_watched(row),
                ~_graded(row),
            )
            .order_by(Trace.updated_at, Trace.id)
            .limit(batch)
        )
    )
    if len(found) == batch:
        end = Key(found[-1].updated_at, found[-1].id)
    row.settled_at, row.settled_trace_id = end.at, end.trace_id
    return found


async def waiting(session: AsyncSession, row: LiveComparison) -> dict[str, int]:
    """The watched traces after `scanned` with no grade row, an arm: the backlog."""
    counts = await session.execute(
        select(Trace.release, func.count())
        .where(
            *_service(row),
            _after(scanned(row)),
            *_watched(row),
            ~_graded(row),
        )
        .group_by(Trace.release)
    )
    return {str(release): int(n) for release, n in counts.all()}
