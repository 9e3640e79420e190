"""Dispatch through the API: every trial runs once, counters come from rows."""

from __future__ import annotations

from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import FakeOpenAI
from server.comparisons.models import TrialState
from server.workspaces.roles import Role
from tests.conftest import PROVIDER_KEY
from tests.server.dispatch.api import (
    chat_requests,
    create,
    deliveries_per_trial,
    openai_setup,
    start,
    trial_rows,
)


async def test_a_simulated_comparison_runs_every_trial_once(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=24)
    member = ws.tokens[Role.MEMBER]
    comparison_id = await create(backend, member, setup.input(trialsPerCase=2))
    started = await start(backend, member, comparison_id, background=False)
    assert started["status"] == "DONE" and started["stopReason"] == "COMPLETED"
    progress = started["progress"]
    assert progress["totalCalls"] == progress["doneCalls"] == 24 * 2 * 2
    assert progress["percent"] == 100.0
    assert [c["state"] for c in progress["cohorts"]] == ["DONE", "DONE"]
    rows = await trial_rows(backend, comparison_id)
    assert sum(rows.values()) == 96 and rows.get("ADMITTED", 0) == 0
    assert progress["failedCalls"] == rows.get(TrialState.ERRORED.value, 0)


async def test_an_openai_compatible_comparison_sends_each_trial_once_with_its_headers(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await openai_setup(backend, fake_openai, ws, cases=6, max_concurrency=4)
    member = ws.tokens[Role.MEMBER]
    comparison_id = await create(backend, member, setup.input(trialsPerCase=2))
    started = await start(backend, member, comparison_id, background=False)
    assert (started["status"], started["stopReason"]) == ("DONE", "COMPLETED")
    sent = deliveries_per_trial(fake_openai, comparison_id)
    expected = {
        f"{comparison_id}/{cohort}/{case}/{trial}"
        for case in range(6)
        for cohort in range(2)
        for trial in range(2)
    }
    assert set(sent) == expected
    assert all(len(deliveries) == 1 for deliveries in sent.values())
    requests = chat_requests(fake_openai, comparison_id)
    assert len(requests) == len(expected)
    assert all(r.headers["authorization"] == f"Bearer {PROVIDER_KEY}" for r in requests)
    assert {r.body["model"] for r in requests} == {"model-0", "model-1"}
    assert await trial_rows(backend, comparison_id) == {"COMPLETED": 24}
