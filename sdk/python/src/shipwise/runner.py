"""The evaluation loop: cases in, task calls with bounded concurrency, items streamed out.

Workers take (case, trial) jobs from a bounded queue fed page by page; an item is sent once
all its trials are in, in chunks of what is ready. The run is started only when the first
item is ready, so a task that returns the wrong type changes nothing on the server. A run
found under the same idempotency key is resumed: its stored positions are not run again.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from shipwise import api, tracing, trial
from shipwise.errors import ShipwiseError, ValidationError
from shipwise.progress import Progress
from shipwise.transport import Transport

log = logging.getLogger("shipwise")

CHUNK = 500
"""Items per `appendRunItems` at most (the server takes 5,000)."""
SDK_VERSION = "0.1.0"


@dataclass(frozen=True)
class Plan:
    task: trial.Task
    scorers: Mapping[str, trial.Scorer]
    trials: int
    concurrency: int
    graded_by_server: bool
    send_tool_calls: bool
    send_trajectory: bool = False


@dataclass
class RunState:
    """The run being written: started lazily, or found under the key."""

    experiment: str
    key: str
    metadata: dict[str, Any]
    checks: list[dict[str, Any]] | None
    experiment_id: str | None = None
    run_id: str | None = None
    status: str | None = None
    stored: set[int] = field(default_factory=set)


@dataclass
class Counters:
    calls: int = 0
    failed: int = 0
    items: int = 0


def check_arguments(trials: int, concurrency: int, sample: int | None, split: str | None) -> None:
    if not 1 <= trials <= 100:
        raise ValidationError("trials must be 1 to 100", extensions={"field": "trials"})
    if not 1 <= concurrency <= 1000:
        raise ValidationError("concurrency must be 1 to 1000", extensions={"field": "concurrency"})
    if sample is not None and sample < 1:
        raise ValidationError("sample must be at least 1", extensions={"field": "sample"})
    if split not in (None, "DEV", "HOLDOUT"):
        raise ValidationError("split must be DEV, HOLDOUT or None", extensions={"field": "split"})


async def resume_point(transport: Transport, state: RunState, explicit_key: bool) -> None:
    """Find the experiment and, for a key given by the caller, the live run it started."""
    state.experiment_id = await api.find_experiment(transport, state.experiment)
    if state.experiment_id is None or not explicit_key:
        return
    async for run in api.runs(transport, state.experiment_id):
        if run["idempotencyKey"] == state.key and run["status"] in ("RUNNING", "COMPLETED"):
            state.run_id, state.status = str(run["id"]), str(run["status"])
            state.stored = await api.stored_positions(transport, state.run_id)
            log.info("shipwise: resuming run %s: %d items stored", state.run_id, len(state.stored))
            return


async def ensure_started(transport: Transport, state: RunState) -> str:
    if state.run_id is None:
        if state.experiment_id is None:
            state.experiment_id = await api.create_experiment(transport, state.experiment)
        run = await api.start_run(
            transport, state.experiment_id, state.key, state.metadata, state.checks
        )
        state.run_id, state.status = str(run["id"]), str(run["status"])
        log.info("shipwise: run %s started (idempotency key %s)", state.run_id, state.key)
    return state.run_id


async def _one_trial(
    plan: Plan, case: dict[str, Any], executor: ThreadPoolExecutor, counters: Counters
) -> dict[str, Any]:
    counters.calls += 1
    started = time.perf_counter()
    try:
        with tracing.trial() as spans:
            answer, wall_ms = await trial.call(plan.task, case["input"], executor)
    except Exception as exc:  # any failure of the user's task is a failed trial
        wall_ms = (time.perf_counter() - started) * 1000
        return trial.failed(exc, wall_ms, graded_by_server=plan.graded_by_server)
    if plan.send_trajectory:
        answer = trial.traced(answer, spans.steps())
    try:
        return trial.build(
            answer, wall_ms, case, plan.scorers,
            graded_by_server=plan.graded_by_server, send_tool_calls=plan.send_tool_calls,
            send_trajectory=plan.send_trajectory,
        )  # fmt: skip
    except trial.ScorerFailed as exc:
        return trial.failed(exc, wall_ms, graded_by_server=plan.graded_by_server)


class _Loop:
    """Producer → workers → flusher for one evaluation."""

    def __init__(self, transport: Transport, plan: Plan, state: RunState, progress: Progress):
        self.transport, self.plan, self.state, self.progress = transport, plan, state, progress
        self.counters = Counters()
        self.jobs: asyncio.Queue[tuple[int, dict[str, Any], int] | None] = asyncio.Queue(
            maxsize=plan.concurrency * 2
        )
        self.done: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.slots: dict[int, list[dict[str, Any] | None]] = {}
        self.live_workers = plan.concurrency
        self.executor = ThreadPoolExecutor(
            max_workers=plan.concurrency, thread_name_prefix="shipwise"
        )

    async def produce(self, cases: AsyncIterator[tuple[int, dict[str, Any]]]) -> None:
        async for position, case in cases:
            if position in self.state.stored:
                continue
            self.slots[position] = [None] * self.plan.trials
            for index in range(self.plan.trials):
                await self.jobs.put((position, case, index))
        for _ in range(self.plan.concurrency):
            await self.jobs.put(None)

    async def work(self) -> None:
        while (job := await self.jobs.get()) is not None:
            position, case, index = job
            result = await _one_trial(self.plan, case, self.executor, self.counters)
            failed = result.get("metrics", {}).get("errors", 0) > 0
            self.counters.failed += failed
            self.progress.advance(failed=failed)
            slot = self.slots[position]
            slot[index] = result
            if all(t is not None for t in slot):
                del self.slots[position]
                item = {"datasetItemId": case["datasetItemId"], "position": position,
                        "input": case["input"], "trials": slot}  # fmt: skip
                if self.plan.graded_by_server:  # the server's checks read the expected
                    item["expected"] = case.get("expected")
                self.done.put_nowait(item)
        self.live_workers -= 1
        if self.live_workers == 0:
            self.done.put_nowait(None)

    def _ready(self, first: dict[str, Any]) -> tuple[list[dict[str, Any]], bool]:
        """The first item and whatever else is ready, up to CHUNK; and whether that's all."""
        batch = [first]
        while len(batch) < CHUNK and not self.done.empty():
            nxt = self.done.get_nowait()
            if nxt is None:
                return batch, True
            batch.append(nxt)
        return batch, False

    async def flush(self) -> None:
        while (first := await self.done.get()) is not None:
            batch, finished = self._ready(first)
            run_id = await ensure_started(self.transport, self.state)
            await api.append(self.transport, run_id, batch)
            self.counters.items += len(batch)
            if finished:
                return


async def run_cases(
    transport: Transport,
    plan: Plan,
    state: RunState,
    cases: AsyncIterator[tuple[int, dict[str, Any]]],
    progress: Progress,
) -> Counters:
    """Run every (case, trial) not stored yet and append the items as they complete."""
    loop = _Loop(transport, plan, state, progress)
    try:
        async with asyncio.TaskGroup() as group:
            group.create_task(loop.produce(cases))
            for _ in range(plan.concurrency):
                group.create_task(loop.work())
            group.create_task(loop.flush())
    except* Exception as errors:  # one error, not an ExceptionGroup, reaches the caller
        first = next((e for e in errors.exceptions if isinstance(e, ShipwiseError)), None)
        raise (first or errors.exceptions[0]) from None
    finally:
        loop.executor.shutdown(wait=False, cancel_futures=True)
        progress.close()
    return loop.counters


def new_key() -> str:
    return f"sdk-{uuid.uuid4().hex}"
