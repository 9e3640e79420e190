"""Crashes, for real: `shipwise worker` processes killed with -9 or stopped with SIGTERM
mid-run against a fake provider that logs every request with its headers."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.kit import services
from bench.kit.openai_server import Behaviour, FakeOpenAI
from tests.conftest import require_services
from tests.jobs.crash_stack import (
    POLICIES,
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


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        server.behaviour = Behaviour(delay_seconds=0.3, reply="the answer")
        yield server


async def _start_run(
    stack: CrashStack, fake: FakeOpenAI, policy: str = "COUNT_AS_MISSING"
) -> tuple[str, str]:
    return await start_run(
        stack, fake, policy=policy, cases=CASES, trials=TRIALS, max_concurrency=4
    )


def _done_at_least(n: int) -> Any:
    return lambda c: c["progress"]["doneCalls"] >= n


def _terminal(c: dict[str, Any]) -> bool:
    return c["status"] in ("DONE", "FAILED", "CANCELLED")


@pytest.fixture
async def stack(tmp_path: Path, fernet_key: str) -> Any:
    require_services("postgres", "redis")
    async with crash_stack(services.postgres_url(), tmp_path, fernet_key) as built:
        yield built


@pytest.mark.parametrize("policy", POLICIES)
async def test_kill_9_mid_run_never_resends_and_ends_as_the_policy_says(
    stack: CrashStack, fake: FakeOpenAI, policy: str
) -> None:
    first = stack.start_worker()
    await workers_polling(stack.log_of(first))
    comparison_id, token = await _start_run(stack, fake, policy)
    await poll_status(stack.backend, token, comparison_id, until=_done_at_least(8))
    first.send_signal(signal.SIGKILL)
    first.wait()
    at_kill = await trials_of(stack.backend.sessionmaker, comparison_id)
    admitted = {t.id for t in at_kill if t.state.value == "ADMITTED"}
    assert admitted, "the crash left admitted calls as evidence"
    sent_at_kill = deliveries_per_trial(fake, comparison_id)
    stack.start_worker()
    ended = await poll_status(stack.backend, token, comparison_id, until=_terminal)
    rows = await trial_rows(stack.backend, comparison_id)
    sent = deliveries_per_trial(fake, comparison_id)
    assert sent and all(len(deliveries) == 1 for deliveries in sent.values())
    # Nothing admitted at the kill was sent again (or for the first time) afterwards.
    assert {t: sent[t] for t in sent_at_kill} == sent_at_kill
    unsent = {
        f"{comparison_id}/{t.cohort_index}/{t.case_ordinal}/{t.trial_index}"
        for t in at_kill
        if t.id in admitted
    } - set(sent_at_kill)
    assert not unsent & set(sent), "an admitted call was sent after the kill"
    if policy == "FAIL_RUN":
        assert ended["status"] == "FAILED"
        assert ended["errorCode"] == "comparison_dispatch_outcome_ambiguous"
        committed = rows.get("COMPLETED", 0) + rows.get("ERRORED", 0)
        assert committed >= 8, rows
        assert ended["progress"]["doneCalls"] == committed
        assert rows.get("ADMITTED", 0) == len(admitted)
        # Every committed trial was sent; nothing was sent without a checkpoint row.
        assert committed <= len(sent) <= committed + rows.get("ADMITTED", 0)
        return
    assert (ended["status"], ended["stopReason"], ended["errorCode"]) == ("DONE", "COMPLETED", None)
    assert rows == {"COMPLETED": TOTAL - len(admitted), "ERRORED": len(admitted)}
    progress = ended["progress"]
    assert progress["doneCalls"] == TOTAL and progress["failedCalls"] == len(admitted)
    trials = await trials_of(stack.backend.sessionmaker, comparison_id)
    assert_closed_as_missing(
        trials, admitted_at_kill=admitted, spent_cents=progress["spentCentsSoFar"]
    )
    assert TOTAL - len(admitted) <= len(sent) <= TOTAL


async def test_sigterm_mid_run_hands_over_and_completes(
    stack: CrashStack, fake: FakeOpenAI
) -> None:
    first = stack.start_worker()
    await workers_polling(stack.log_of(first))
    comparison_id, token = await _start_run(stack, fake)
    await poll_status(stack.backend, token, comparison_id, until=_done_at_least(8))
    first.send_signal(signal.SIGTERM)
    assert first.wait(timeout=40) == 0
    rows = await trial_rows(stack.backend, comparison_id)
    assert rows.get("ADMITTED", 0) == 0, "in-flight calls finished and committed"
    assert 8 <= rows.get("COMPLETED", 0) < TOTAL
    await workers_polling(stack.log_of(stack.start_worker()))
    ended = await poll_status(stack.backend, token, comparison_id, until=_terminal)
    assert (ended["status"], ended["stopReason"]) == ("DONE", "COMPLETED")
    assert ended["progress"]["doneCalls"] == TOTAL
    assert await trial_rows(stack.backend, comparison_id) == {"COMPLETED": TOTAL}
    sent = deliveries_per_trial(fake, comparison_id)
    assert len(sent) == TOTAL
    assert all(len(deliveries) == 1 for deliveries in sent.values())
    assert len(set().union(*sent.values())) >= 2, "a second delivery finished the run"
