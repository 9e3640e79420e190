"""Judge checks on a live comparison's traces (docs/live.md): a seeded sample of the traces
(`judgeSampleRate`, the same trace in or out on every worker) graded by the judge code hosted
comparisons use (`server.judges.rubric_grade`), while the day's judge spend stays under
`judgeDailyCapCents` (UTC days)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.checks.spec import CheckKind
from server.connections.models import ModelConnection
from server.db import utcnow
from server.judges.rubric_grade import Call, RubricJudge, load_judges
from server.live.models import LiveComparison, LiveGrade
from server.providers.base import CallResult, ModelCall
from server.providers.registry import ProviderPool
from server.spend import ledgers


def sampled(live_id: str, trace_id: str, rate: float) -> bool:
    """Whether the trace is in the judge's sample: a hash of (comparison, trace) below rate."""
    digest = hashlib.sha256(f"{live_id}:{trace_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64 < rate


@dataclass(slots=True)
class Judging:
    """The judges of one batch, how to call them, and the day's spend so far."""

    live_id: str
    judges: dict[tuple[str, str], RubricJudge]
    call: Call
    rate: float
    cap_micros: int | None
    spent_micros: int
    by_connection: dict[str, int] = field(default_factory=dict)
    """Micro-dollars the batch's judge calls cost, per connection (for the spend ledgers)."""

    def count(self, spent: dict[str, tuple[int, int]]) -> None:
        """Add one trace's judge calls, `{connection: (calls, micro-dollars)}`."""
        for connection_id, (_, micros) in spent.items():
            self.spent_micros += micros
            self.by_connection[connection_id] = self.by_connection.get(connection_id, 0) + micros

    async def record(self, session: AsyncSession) -> None:
        """The batch's judge spend in the connections' monthly ledgers (their caps read it)."""
        now = utcnow()
        for connection_id, micros in self.by_connection.items():
            await ledgers.add_connection(
                session, connection_id=connection_id, micros=micros, now=now
            )

    def may_call(self) -> bool:
        return self.cap_micros is None or self.spent_micros < self.cap_micros

    def takes(self, trace_id: str) -> bool:
        return sampled(self.live_id, trace_id, self.rate) and self.may_call()


async def spent_today(session: AsyncSession, live_id: str) -> int:
    """What this comparison's judge calls cost since 00:00 UTC (micro-dollars)."""
    now = utcnow()
    midnight = now - timedelta(hours=now.hour, minutes=now.minute, seconds=now.second,
                               microseconds=now.microsecond)  # fmt: skip
    total = await session.scalar(
        select(func.coalesce(func.sum(LiveGrade.judge_cost_micros), 0)).where(
            LiveGrade.live_comparison_id == live_id, LiveGrade.graded_at >= midnight
        )
    )
    return int(total or 0)


def has_judges(checks: list[dict[str, Any]]) -> bool:
    return any(c.get("kind") == CheckKind.JUDGE_RUBRIC.value for c in checks)


async def open_judging(
    session: AsyncSession, row: LiveComparison, providers: ProviderPool | None
) -> Judging | None:
    """The batch's judging, or None when no check is a judge's (or no providers here)."""
    if providers is None or not has_judges(row.checks) or row.judge_sample_rate <= 0:
        return None
    judges = await load_judges(session, row.checks)

    async def call(connection: ModelConnection, model_call: ModelCall) -> CallResult:
        provider = providers.get(connection)
        async with providers.limit(connection.id):
            return await provider.call(model_call)

    return Judging(
        live_id=row.id,
        judges=judges,
        call=call,
        rate=row.judge_sample_rate,
        cap_micros=row.judge_daily_cap_micros,
        spent_micros=await spent_today(session, row.id),
    )
