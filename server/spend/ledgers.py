"""Spend ledgers: per connection per UTC month and per experiment per UTC day.

A record adds to them, in its own transaction, exactly the cost of the trial rows it wrote,
so a cap check reads one row per limit instead of summing the month's trials. At lease
acquisition and at the end of a run they are recomputed from the trial rows under the
ledger row's lock (a concurrent recorder of another comparison waits for that lock, then
adds its own rows on top: nothing is counted twice or lost).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from server.spend import service as spend
from server.spend.models import ConnectionSpend, ExperimentSpend, RunJudgeSpend
from server.spend.periods import day_key, month_key


def _insert(session: AsyncSession, table: Any) -> Any:
    dialect = session.get_bind().dialect.name
    return (pg_insert if dialect == "postgresql" else sqlite_insert)(table)


async def add(
    session: AsyncSession,
    *,
    experiment_id: str,
    by_connection: Mapping[str, int],
    now: datetime,
) -> None:
    """Add recorded micro-dollars: per connection for `now`'s month, in total for its day.
    Rows are touched in a fixed order (connections by id, then the experiment), so two
    recorders never wait for each other in a cycle."""
    spent = {cid: micros for cid, micros in sorted(by_connection.items()) if micros}
    if not spent:
        return
    month = month_key(now)
    for connection_id, micros in spent.items():
        stmt = _insert(session, ConnectionSpend).values(
            connection_id=connection_id, month=month, spent_micros=micros
        )
        await session.execute(
            stmt.on_conflict_do_update(
                index_elements=["connection_id", "month"],
                set_={"spent_micros": ConnectionSpend.spent_micros + stmt.excluded.spent_micros},
            )
        )
    stmt = _insert(session, ExperimentSpend).values(
        experiment_id=experiment_id, day=day_key(now), spent_micros=sum(spent.values())
    )
    await session.execute(
        stmt.on_conflict_do_update(
            index_elements=["experiment_id", "day"],
            set_={"spent_micros": ExperimentSpend.spent_micros + stmt.excluded.spent_micros},
        )
    )


async def add_connection(
    session: AsyncSession, *, connection_id: str, micros: int, now: datetime
) -> None:
    """Add micro-dollars to one connection's ledger for `now`'s month (a Playground call:
    no experiment's day to add to)."""
    if not micros:
        return
    stmt = _insert(session, ConnectionSpend).values(
        connection_id=connection_id, month=month_key(now), spent_micros=micros
    )
    await session.execute(
        stmt.on_conflict_do_update(
            index_elements=["connection_id", "month"],
            set_={"spent_micros": ConnectionSpend.spent_micros + stmt.excluded.spent_micros},
        )
    )


async def add_run_judging(
    session: AsyncSession,
    *,
    run_id: str,
    experiment_id: str,
    by_connection: Mapping[str, tuple[int, int]],
    now: datetime,
) -> None:
    """An imported run's judge calls of one chunk, (calls, micro-dollars) per connection: a
    row each (what `resync` sums) and their cost added to the ledgers."""
    for connection_id, (calls, micros) in sorted(by_connection.items()):
        session.add(
            RunJudgeSpend(
                run_id=run_id,
                experiment_id=experiment_id,
                connection_id=connection_id,
                calls=calls,
                spent_micros=micros,
                recorded_at=now,
            )
        )
    await session.flush()
    await add(
        session,
        experiment_id=experiment_id,
        by_connection={cid: micros for cid, (_, micros) in by_connection.items()},
        now=now,
    )


async def connection_month(
    session: AsyncSession, connection_ids: Iterable[str], *, now: datetime
) -> dict[str, int]:
    """Each connection's ledger for `now`'s month (0 without a row): O(connections) rows."""
    ids = sorted(set(connection_ids))
    spend = dict.fromkeys(ids, 0)
    if ids:
        rows = await session.execute(
            select(ConnectionSpend.connection_id, ConnectionSpend.spent_micros).where(
                ConnectionSpend.connection_id.in_(ids), ConnectionSpend.month == month_key(now)
            )
        )
        spend.update({cid: int(micros) for cid, micros in rows})
    return spend


async def experiment_day(session: AsyncSession, experiment_id: str, *, now: datetime) -> int:
    """The experiment's ledger for `now`'s day (0 without a row): one row."""
    micros = (
        await session.execute(
            select(ExperimentSpend.spent_micros).where(
                ExperimentSpend.experiment_id == experiment_id,
                ExperimentSpend.day == day_key(now),
            )
        )
    ).scalar_one_or_none()
    return int(micros or 0)


async def resync(
    session: AsyncSession, *, experiment_id: str, connection_ids: Iterable[str], now: datetime
) -> None:
    """Recompute the current month's connection ledgers and today's experiment ledger from
    the rows (trials, pairwise judge calls, imported runs' judge calls), each under its row
    lock."""
    month = month_key(now)
    for connection_id in sorted(set(connection_ids)):
        await _lock_row(session, ConnectionSpend, connection_id=connection_id, month=month)
        totals = await spend.month_to_date_spend(session, [connection_id], now=now)
        await session.execute(
            update(ConnectionSpend)
            .where(ConnectionSpend.connection_id == connection_id, ConnectionSpend.month == month)
            .values(spent_micros=totals[connection_id])
        )
    day = day_key(now)
    await _lock_row(session, ExperimentSpend, experiment_id=experiment_id, day=day)
    total = await spend.experiment_spend_today(session, experiment_id, now=now)
    await session.execute(
        update(ExperimentSpend)
        .where(ExperimentSpend.experiment_id == experiment_id, ExperimentSpend.day == day)
        .values(spent_micros=total)
    )


async def _lock_row(session: AsyncSession, table: Any, **key: str) -> None:
    """Make the ledger row exist, then hold its lock for the rest of the transaction."""
    await session.execute(
        _insert(session, table).values(**key, spent_micros=0).on_conflict_do_nothing()
    )
    where = [getattr(table, name) == value for name, value in key.items()]
    await session.execute(select(table.spent_micros).where(*where).with_for_update())
