"""The ready-made calls the rest of shipwise makes when an event happens: RUN_REGRESSED for
completed imported runs only, COMPARISON_REGRESSED with the caller's summary."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bench.kit.factories import (
    make_comparison,
    make_comparison_setup,
    make_experiment,
    make_workspace,
)
from bench.kit.harness import Backend
from server.comparisons import hooks as comparison_hooks
from server.ids import new_id
from server.runs import hooks as run_hooks
from server.runs.models import Run, RunSource, RunStatus
from tests.fakes.webhook_receiver import WebhookReceiver
from tests.server.webhooks.api import SECRET, create_webhook, deliveries, wait_for


@pytest.fixture(scope="module")
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver(secret=SECRET) as receiver:
        yield receiver


async def _run(
    backend: Backend, workspace_id: str, experiment_id: str, source: RunSource, status: RunStatus
) -> str:
    run = Run(
        id=new_id("run"),
        workspace_id=workspace_id,
        experiment_id=experiment_id,
        source=source,
        status=status,
        item_count=0,
    )
    async with backend.sessionmaker() as session, session.begin():
        session.add(run)
    return run.id


async def test_run_regressed_fires_for_completed_imported_runs_only(
    backend: Backend, receiver: WebhookReceiver
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    nightly = await make_experiment(backend.sessionmaker, ws, name="nightly")
    other = await make_experiment(backend.sessionmaker, ws, name="other")
    hook = (
        await create_webhook(
            backend, ws.owner, receiver.url, ["RUN_REGRESSED"], experiment_id=nightly.id
        )
    ).ok()["createWebhook"]
    elsewhere = (
        await create_webhook(
            backend, ws.owner, receiver.url, ["RUN_REGRESSED"], experiment_id=other.id
        )
    ).ok()["createWebhook"]
    imported = await _run(backend, ws.id, nightly.id, RunSource.IMPORTED, RunStatus.COMPLETED)
    hosted = await _run(backend, ws.id, nightly.id, RunSource.HOSTED, RunStatus.COMPLETED)
    running = await _run(backend, ws.id, nightly.id, RunSource.IMPORTED, RunStatus.RUNNING)
    summary = {"baselineRunId": "run_before", "passRateDelta": -0.25, "significant": True}
    queue = backend.state.queue

    for run_id in (hosted, running):
        fired = await run_hooks.run_regressed(
            sessionmaker=backend.sessionmaker, queue=queue, run_id=run_id, summary=summary
        )
        assert fired == []
    fired = await run_hooks.run_regressed(
        sessionmaker=backend.sessionmaker, queue=queue, run_id=imported, summary=summary
    )
    assert len(fired) == 1

    [delivery] = await wait_for(
        backend, ws.owner, hook["id"], lambda d: bool(d) and d[0]["status"] == "DELIVERED"
    )
    payload = delivery["payload"]
    assert (payload["event"], payload["runId"], payload["experimentId"]) == (
        "RUN_REGRESSED",
        imported,
        nightly.id,
    )
    assert payload["summary"] == summary
    assert await deliveries(backend, ws.owner, elsewhere["id"]) == []


async def test_comparison_regressed_carries_the_callers_summary(
    backend: Backend, receiver: WebhookReceiver
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=3)
    comparison_id = await make_comparison(backend.sessionmaker, setup, trials=1, label="v2")
    hook = (
        await create_webhook(backend, ws.owner, receiver.url, ["COMPARISON_REGRESSED"])
    ).ok()["createWebhook"]
    summary = {"regressedBaselines": [{"baselineCohortIndex": 1, "passRateDeltaPoints": -8.0}]}
    fired = await comparison_hooks.comparison_regressed(
        sessionmaker=backend.sessionmaker,
        queue=backend.state.queue,
        comparison_id=comparison_id,
        summary=summary,
    )
    assert len(fired) == 1
    [delivery] = await wait_for(
        backend, ws.owner, hook["id"], lambda d: bool(d) and d[0]["status"] == "DELIVERED"
    )
    assert delivery["payload"]["comparisonId"] == comparison_id
    assert delivery["payload"]["summary"] == {"label": "v2", **summary}
