"""Several `shipwise worker` processes share one comparison: its cases split into ranges,
each with its own lease, against a fake provider that logs every request's headers."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.kit import services
from bench.kit.openai_server import Behaviour, FakeOpenAI
from bench.kit.waiting import eventually
from tests.conftest import require_services
from tests.jobs.crash_stack import (
    WORKER_PROCESS_TESTS,
    CrashStack,
    assert_closed_as_missing,
    crash_stack,
    poll_status,
    start_run,
    trials_of,
    workers_polling,
)
from tests.server.dispatch.api import deliveries_per_trial, trial_rows

pytestmark = WORKER_PROCESS_TESTS

CASES, TRIALS = 30, 2
TOTAL = CASES * TRIALS * 2
RANGE_CASES = 3
"""Ten ranges of three cases (12 trials each)."""
MAX_CONCURRENCY = 8


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        server.behaviour = Behaviour(delay_seconds=0.25, reply="the answer")
        yield server


@pytest.fixture
async def stack(tmp_path: Path, fernet_key: str) -> Any:
    require_services("postgres", "redis")
    async with crash_stack(services.postgres_url(), tmp_path, fernet_key) as built:
        built.env["SHIPWISE_DISPATCH_RANGE_CASES"] = str(RANGE_CASES)
        yield built


def _pid(delivery: str) -> int:
    """The worker process a delivery id names (`dlv_<pid>_<random>`)."""
    return int(delivery.split("_")[1])


async def _start_run(stack: CrashStack, fake: FakeOpenAI, policy: str) -> tuple[str, str]:
    return await start_run(
        stack, fake, policy=policy, cases=CASES, trials=TRIALS, max_concurrency=MAX_CONCURRENCY
    )


def _terminal(c: dict[str, Any]) -> bool:
    return c["status"] in ("DONE", "FAILED", "CANCELLED")


def _senders(fake: FakeOpenAI, comparison_id: str) -> set[int]:
    sent = deliveries_per_trial(fake, comparison_id)
    return {_pid(d) for deliveries in sent.values() for d in deliveries}


async def _until_every_slot_holds_a_call(fake: FakeOpenAI, comparison_id: str) -> set[int]:
    """With the fake holding every call: wait until the connection's `max_concurrency` slots
    are all out, so the worker killed next surely has calls in flight; the senders' pids."""
    await eventually(
        lambda: fake.held, until=lambda held: held == MAX_CONCURRENCY, timeout=60, what="slots"
    )
    return _senders(fake, comparison_id)


async def test_two_worker_processes_dispatch_one_comparison_sending_each_trial_once(
    stack: CrashStack, fake: FakeOpenAI
) -> None:
    workers = [stack.start_worker(), stack.start_worker()]
    await workers_polling(*map(stack.log_of, workers))  # both poll before the run starts
    comparison_id, token = await _start_run(stack, fake, "COUNT_AS_MISSING")
    ended = await poll_status(stack.backend, token, comparison_id, until=_terminal)

    assert (ended["status"], ended["stopReason"], ended["errorCode"]) == ("DONE", "COMPLETED", None)
    assert ended["progress"]["doneCalls"] == TOTAL
    assert await trial_rows(stack.backend, comparison_id) == {"COMPLETED": TOTAL}
    sent = deliveries_per_trial(fake, comparison_id)
    assert len(sent) == TOTAL and all(len(d) == 1 for d in sent.values()), "each trial once"
    assert _senders(fake, comparison_id) == {w.pid for w in workers}, "both processes sent"
    rows = await trials_of(stack.backend.sessionmaker, comparison_id)
    assert {_pid(t.delivery_id) for t in rows} == {w.pid for w in workers}
    # Case-major within each range: a delivery's trials of a range are admitted in order.
    by_delivery: dict[str, list[Any]] = {}
    for trial in sorted(rows, key=lambda t: t.id):
        by_delivery.setdefault(trial.delivery_id, []).append(trial)
    for trials in by_delivery.values():
        for start in range(0, CASES, RANGE_CASES):
            ordinals = [t.case_ordinal for t in trials if start <= t.case_ordinal < start + 3]
            assert ordinals == sorted(ordinals)


async def test_kill_9_of_one_of_two_workers_costs_only_its_ambiguous_trials(
    stack: CrashStack, fake: FakeOpenAI
) -> None:
    workers = [stack.start_worker(), stack.start_worker()]
    await workers_polling(*map(stack.log_of, workers))
    fake.hold = lambda request: request.path.endswith("/chat/completions")  # until the kill
    comparison_id, token = await _start_run(stack, fake, "COUNT_AS_MISSING")
    holders = await _until_every_slot_holds_a_call(fake, comparison_id)
    assert len(holders) == 1, "one delivery reserves the connection's slots as a block"
    victim = next(w for w in workers if w.pid in holders)
    survivor = next(w for w in workers if w is not victim)
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    fake.release_held()
    at_kill = await trials_of(stack.backend.sessionmaker, comparison_id)
    lost = {
        t.id for t in at_kill if t.state.value == "ADMITTED" and _pid(t.delivery_id) == victim.pid
    }
    assert lost, "the kill left the victim's in-flight calls admitted"
    sent_at_kill = deliveries_per_trial(fake, comparison_id)

    ended = await poll_status(stack.backend, token, comparison_id, until=_terminal)

    assert survivor.poll() is None, "no new worker: the survivor finished the run"
    assert (ended["status"], ended["stopReason"], ended["errorCode"]) == ("DONE", "COMPLETED", None)
    assert await trial_rows(stack.backend, comparison_id) == {
        "COMPLETED": TOTAL - len(lost),
        "ERRORED": len(lost),
    }
    progress = ended["progress"]
    assert progress["doneCalls"] == TOTAL and progress["failedCalls"] == len(lost)
    trials = await trials_of(stack.backend.sessionmaker, comparison_id)
    assert_closed_as_missing(trials, admitted_at_kill=lost, spent_cents=progress["spentCentsSoFar"])
    sent = deliveries_per_trial(fake, comparison_id)
    assert all(len(d) == 1 for d in sent.values()), "nothing was sent twice"
    assert {t: sent[t] for t in sent_at_kill} == sent_at_kill
    lost_keys = {
        f"{comparison_id}/{t.cohort_index}/{t.case_ordinal}/{t.trial_index}"
        for t in at_kill
        if t.id in lost
    }
    assert not (lost_keys - set(sent_at_kill)) & set(sent), "a lost call was sent after the kill"
    after = {_pid(d) for t, ds in sent.items() if t not in sent_at_kill for d in ds}
    assert after == {survivor.pid}
