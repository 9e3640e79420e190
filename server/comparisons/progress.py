"""Progress snapshots: derived from the comparison row (the truth), published as events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Protocol

from server.comparisons.models import TERMINAL_STATUSES, CohortState, ComparisonStatus, StopReason
from server.db import utcnow
from server.money import micros_to_cents
from server.runtime.interfaces import EventBus


@dataclass(frozen=True, slots=True)
class CohortProgress:
    cohort_index: int
    state: str


@dataclass(frozen=True, slots=True)
class Progress:
    seq: int
    status: str
    stop_reason: str | None
    done_calls: int
    total_calls: int
    failed_calls: int
    percent: float
    eta_seconds: float | None
    spent_cents_so_far: float
    cohorts: tuple[CohortProgress, ...]
    updated_at: str | None = None
    """ISO time the row reached this `seq`, so clients can measure delivery delay."""

    def as_payload(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> Progress:
        cohorts = tuple(CohortProgress(**c) for c in payload["cohorts"])
        return cls(**{**payload, "cohorts": cohorts})

    @property
    def terminal(self) -> bool:
        return self.status in {s.value for s in TERMINAL_STATUSES}


class Counted(Protocol):
    """What a snapshot reads of a comparison: its row, or the columns a page read of it."""

    @property
    def seq(self) -> int: ...
    @property
    def status(self) -> ComparisonStatus: ...
    @property
    def stop_reason(self) -> StopReason | None: ...
    @property
    def done_calls(self) -> int: ...
    @property
    def total_calls(self) -> int: ...
    @property
    def failed_calls(self) -> int: ...
    @property
    def spent_micros(self) -> int: ...
    @property
    def started_at(self) -> datetime | None: ...
    @property
    def progress_at(self) -> datetime | None: ...


def eta_seconds(comparison: Counted, now: datetime) -> float | None:
    """Remaining calls at the throughput observed since the start; None before any call."""
    if comparison.status in TERMINAL_STATUSES:
        return 0.0
    if not comparison.started_at or comparison.done_calls <= 0:
        return None
    elapsed = (now - comparison.started_at).total_seconds()
    remaining = max(comparison.total_calls - comparison.done_calls, 0)
    return round(remaining * elapsed / comparison.done_calls, 1)


def shown_state(comparison: Counted, state: CohortState) -> CohortState:
    """A cohort unfinished when its run ended (cancelled, capped or failed) is STOPPED."""
    if comparison.status in TERMINAL_STATUSES and state != CohortState.DONE:
        return CohortState.STOPPED
    return state


def snapshot(comparison: Counted, cohort_states: Sequence[tuple[int, CohortState]]) -> Progress:
    total = comparison.total_calls
    return Progress(
        seq=comparison.seq,
        status=comparison.status.value,
        stop_reason=comparison.stop_reason.value if comparison.stop_reason else None,
        done_calls=comparison.done_calls,
        total_calls=total,
        failed_calls=comparison.failed_calls,
        percent=round(100.0 * comparison.done_calls / total, 2) if total else 0.0,
        eta_seconds=eta_seconds(comparison, utcnow()),
        spent_cents_so_far=micros_to_cents(comparison.spent_micros),
        cohorts=tuple(
            CohortProgress(index, shown_state(comparison, state).value)
            for index, state in cohort_states
        ),
        updated_at=comparison.progress_at.isoformat() if comparison.progress_at else None,
    )


def topic(comparison_id: str) -> str:
    return f"comparison:{comparison_id}"


async def publish(events: EventBus, comparison_id: str, progress: Progress) -> None:
    await events.publish(topic(comparison_id), progress.seq, progress.as_payload())
