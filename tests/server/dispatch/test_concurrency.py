"""Per-connection concurrency: never more than `maxConcurrency` calls in flight, and reached."""

from __future__ import annotations

import asyncio

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import Behaviour, FakeOpenAI
from bench.kit.waiting import eventually
from server.workspaces.roles import Role
from tests.server.dispatch.api import (
    chat_requests,
    create,
    deliveries_per_trial,
    openai_setup,
    start,
    wait_terminal,
)

CASES, TRIALS, COHORTS = 15, 2, 2
CALLS = CASES * TRIALS * COHORTS


async def _quiet(fake: FakeOpenAI) -> None:
    """Forget earlier requests (the connection check) once none is in flight, so the peak
    counts this test's calls only (an earlier test's abandoned slow request would count)."""
    await eventually(lambda: not fake.in_flight, timeout=10, what="no request in flight")
    fake.reset()


async def test_a_run_keeps_its_connection_at_max_concurrency_and_never_above(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await openai_setup(backend, fake_openai, ws, cases=CASES, max_concurrency=3)
    await _quiet(fake_openai)
    fake_openai.behaviour = Behaviour(delay_seconds=0.1)
    member = ws.tokens[Role.MEMBER]
    comparison_id = await create(backend, member, setup.input(trialsPerCase=TRIALS))
    started = await start(backend, member, comparison_id, background=False)
    assert (started["status"], started["stopReason"]) == ("DONE", "COMPLETED")
    assert len(chat_requests(fake_openai, comparison_id)) == CALLS
    assert fake_openai.peak_concurrency == 3


async def test_two_runs_on_one_connection_share_its_limit(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await openai_setup(backend, fake_openai, ws, cases=CASES, max_concurrency=3)
    await _quiet(fake_openai)
    fake_openai.behaviour = Behaviour(delay_seconds=0.1)
    member = ws.tokens[Role.MEMBER]
    first = await create(backend, member, setup.input(trialsPerCase=TRIALS))
    second = await create(backend, member, setup.input(trialsPerCase=1, label="second"))
    await start(backend, member, first)
    await start(backend, member, second)
    ended = await asyncio.gather(*(wait_terminal(backend, member, c) for c in (first, second)))
    assert [c["status"] for c in ended] == ["DONE", "DONE"]
    assert fake_openai.peak_concurrency == 3
    for comparison_id, trials in ((first, TRIALS), (second, 1)):
        sent = deliveries_per_trial(fake_openai, comparison_id)
        assert len(sent) == CASES * trials * COHORTS
        assert all(len(d) == 1 for d in sent.values())
