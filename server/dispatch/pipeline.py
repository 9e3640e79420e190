"""One slice of a delivery: admission, `window` callers, the recorder and upkeep, concurrent.

Admission checkpoints trials (in case-major order) ahead of the callers: up to `window` in
flight plus `prefetch` (a window) admitted and waiting, so a caller that finishes finds its
next trial ready while the database admits the following ones (batches grow with the load;
the first is one window, so the callers start while the prefetch is admitted).
Callers put outcomes on the recorder's queue: every admitted trial ends as one, whatever its
call does (a call that breaks records `comparison_dispatch_internal`). A cap or a cancel
found at admission ends admission; what was admitted before it is still sent (admission is
the decision to call, as the checkpoint says) — unless calls wait for a slot then: upkeep
ends those waits and refuses new ones, and the rest go back unsent (a sequential decision's
calls wait on, so its cases stay whole). SIGTERM or an error also drops what is admitted but
not yet taken by a caller: never sent, it goes back as unsent (its checkpoint is deleted,
nothing ambiguous).
Once every pending trial is admitted, `refill` (the next range's trials) feeds more into
the same window.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from server.comparisons.models import ComparisonStatus, StopReason
from server.dispatch.outcomes import TrialOutcome
from server.dispatch.plan import WorkItem
from server.dispatch.recorder import FLUSH_EVERY, Recorder
from server.providers.base import DispatchError
from server.runtime.slots import SlotWaitAbandoned

logger = logging.getLogger("shipwise.dispatch")

Stop = StopReason | ComparisonStatus
Admit = Callable[[list[WorkItem]], Awaitable[tuple[list[int], Stop | None]]]
Call = Callable[[WorkItem, int], Awaitable[TrialOutcome]]
Upkeep = Callable[[Stop | None], Awaitable[Stop | None]]
Refill = Callable[[], Awaitable[tuple[list[WorkItem], Stop | None]]]

MAX_ADMIT = 256
"""The most trials one admission checkpoints."""
UPKEEP_S = 0.1


@dataclass
class SliceResult:
    stop: Stop | None = None
    exhausted: bool = False
    """Every pending trial was admitted and sent (none came back unsent)."""


@dataclass
class _State:
    outstanding: int = 0
    """Admitted, not yet recorded."""
    unsent: int = 0
    dropping: bool = False
    """Admitted trials not yet taken are given back unsent (a stop)."""
    room: asyncio.Event = field(default_factory=asyncio.Event)


def _whole_cases(pending: deque[WorkItem], size: int) -> int:
    """`size` grown to the end of its last case: an admission never splits a case, so a stop
    found at admission (a cap, a sequential decision) leaves whole cases only."""
    while size < len(pending) and pending[size].case_ordinal == pending[size - 1].case_ordinal:
        size += 1
    return size


class Pipeline:
    def __init__(
        self,
        *,
        comparison_id: str,
        pending: deque[WorkItem],
        window: int,
        admit: Admit,
        call: Call,
        recorder: Recorder,
        upkeep: Upkeep,
        abandon: Callable[[], None],
        stopping: asyncio.Event,
        slice_seconds: float,
        prefetch: int | None = None,
        refill: Refill | None = None,
    ) -> None:
        self.comparison_id = comparison_id
        self.pending = pending
        self._refill = refill
        self.dry = refill is None
        """No more trials to come once `pending` is empty."""
        self.window = max(1, window)
        # Batches of two windows (at most FLUSH_EVERY): fewer, larger record transactions,
        # each holding the comparison's row lock that admission waits for.
        recorder.flush_every = min(FLUSH_EVERY, 2 * self.window)
        recorder.on_recorded = self._recorded
        self.capacity = (
            self.window + (self.window if prefetch is None else prefetch) + recorder.flush_every
        )
        """Admitted and not yet recorded, at most: in flight, waiting for a caller, and one
        batch filling. It bounds how far admission runs ahead of recorded spend, so a cap
        (checked post hoc at admission) overshoots by at most this many calls."""
        self._admit = admit
        self._call = call
        self.recorder = recorder
        self._upkeep = upkeep
        self._abandon = abandon
        self.stopping = stopping
        self.slice_seconds = slice_seconds
        self.calls: asyncio.Queue[tuple[WorkItem, int] | None] = asyncio.Queue()
        self.state = _State()
        self.result = SliceResult()
        self.error: BaseException | None = None
        self._halt = asyncio.Event()

    async def run(self) -> SliceResult:
        """Admit and call until done, stopped, the slice ends or SIGTERM; every outcome is
        recorded before this returns (or raises)."""
        callers = [asyncio.create_task(self._caller()) for _ in range(self.window)]
        recorder = asyncio.create_task(self.recorder.run())
        recorder.add_done_callback(self._watch_recorder)
        upkeep: asyncio.Task[None] = asyncio.create_task(self._upkeep_loop())
        try:
            await self._admission()
        except BaseException as exc:
            self.error = self.error or exc
        if self.error is not None or self.stopping.is_set():
            self._drop()
        for _ in callers:
            self.calls.put_nowait(None)
        # Every admitted trial ends as an outcome (sent or not) and every outcome is recorded,
        # even when this task is cancelled meanwhile (a job timeout): asyncio.wait, unlike
        # gather, leaves the tasks it waits for running, and a cancel only drops what is
        # not sent yet.
        await self._settle(set(callers))
        upkeep.cancel()
        await self._settle({upkeep})
        self.recorder.queue.put_nowait(None)
        await self._settle({recorder})
        if not recorder.cancelled() and (failure := recorder.exception()) is not None:
            self.error = self.error or failure
        if self.error is not None:
            raise self.error
        self.result.exhausted = self.dry and not self.pending and self.state.unsent == 0
        return self.result

    async def _settle(self, tasks: set[asyncio.Task[None]]) -> None:
        while tasks:
            try:
                _, tasks = await asyncio.wait(tasks)
            except asyncio.CancelledError as exc:
                self.error = self.error or exc
                self._drop()

    def _drop(self) -> None:
        """Nothing more is sent: waits for slots end, queued trials go back unsent."""
        self.state.dropping = True
        self._abandon()
        ends = 0
        while not self.calls.empty():
            job = self.calls.get_nowait()
            if job is None:
                ends += 1  # a caller's end: it goes back
            else:
                self._finished(TrialOutcome.unsent(job[1]))
        for _ in range(ends):
            self.calls.put_nowait(None)

    def _halt_with(self, stop: Stop | None = None, error: BaseException | None = None) -> None:
        if stop is not None and self.result.stop is None:
            self.result.stop = stop
        if error is not None and self.error is None:
            self.error = error
        self._halt.set()
        self.state.room.set()
        if error is not None:
            self._drop()  # broken: nothing more is sent

    def _watch_recorder(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and (exc := task.exception()) is not None:
            self._halt_with(error=exc)

    async def _admission(self) -> None:
        started = time.monotonic()
        state = self.state
        admitted = False
        while not self._halt.is_set():
            if self.stopping.is_set() or time.monotonic() - started > self.slice_seconds:
                return
            if not self.pending:
                if self._refill is None:
                    return
                more, stop = await self._refill()
                if stop is not None:
                    self._halt_with(stop)
                    return
                if not more:
                    self.dry = True
                    return
                self.pending.extend(more)
                continue
            room = self.capacity - state.outstanding
            if room < 1:
                state.room.clear()
                # asyncio.wait, not asyncio.timeout: on Python 3.11 an inner timeout expiring
                # with an outer cancel (the job's timeout) in one loop turn swallows the cancel.
                waiter = asyncio.ensure_future(state.room.wait())
                try:
                    await asyncio.wait({waiter}, timeout=UPKEEP_S)
                finally:
                    waiter.cancel()
                continue
            # The first admission fills the window only, so the callers start while the
            # prefetch is admitted; later ones take whatever room there is.
            most = MAX_ADMIT if admitted else self.window
            size = _whole_cases(self.pending, min(room, len(self.pending), most))
            batch = [self.pending.popleft() for _ in range(size)]
            ids, stop = await self._admit(batch)
            if stop is not None:
                self.pending.extendleft(reversed(batch))
                self._halt_with(stop)
                return
            admitted = True
            state.outstanding += len(ids)
            for item, trial_id in zip(batch, ids, strict=True):
                self.calls.put_nowait((item, trial_id))

    async def _caller(self) -> None:
        while (job := await self.calls.get()) is not None:
            item, trial_id = job
            if self.state.dropping:
                outcome = TrialOutcome.unsent(trial_id)
            else:
                outcome = await self._outcome(item, trial_id)
            self._finished(outcome)

    async def _outcome(self, item: WorkItem, trial_id: int) -> TrialOutcome:
        """The trial called: its outcome, whatever happens. A wait for a slot abandoned goes
        back unsent; a call that breaks (a bug, not a provider fault) records
        `comparison_dispatch_internal` for that trial: raising would lose the outcomes of its
        batch and leave admitted rows that fail the whole run as ambiguous."""
        try:
            return await self._call(item, trial_id)
        except SlotWaitAbandoned:
            return TrialOutcome.unsent(trial_id)
        except Exception as exc:
            # The class only: the text could quote a prompt, an output or provider text.
            logger.error(
                "trial runner failed",
                extra={"comparison_id": self.comparison_id, "error_type": type(exc).__name__},
            )
            return TrialOutcome.failed(trial_id, DispatchError.DISPATCH_INTERNAL.value)

    def _finished(self, outcome: TrialOutcome) -> None:
        if not outcome.sent:
            self.state.unsent += 1
        self.recorder.queue.put_nowait(outcome)

    def _recorded(self, count: int) -> None:
        self.state.outstanding -= count
        self.state.room.set()

    async def _upkeep_loop(self) -> None:
        while True:
            await asyncio.sleep(UPKEEP_S)
            if self.stopping.is_set() and not self.state.dropping:
                self._drop()  # SIGTERM: what is not sent yet is handed over
            try:
                stop = await self._upkeep(self.result.stop)
            except Exception as exc:
                self._halt_with(error=exc)
                return
            if stop is not None and self.result.stop is None:
                self._halt_with(stop)
