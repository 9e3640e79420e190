"""Sending webhooks to a real receiver on 127.0.0.1: signatures, retries, FAILED after six,
redelivery, the address rule at send time, and COMPARISON_FINISHED from real comparisons."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import select

from bench.kit.factories import make_comparison, make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from jobs.webhooks import send_webhook, sweep_webhooks
from server.audit.models import AuditEvent
from server.webhooks import publishing, sender
from server.webhooks.models import WebhookEvent
from server.webhooks.publishing import publish
from server.workspaces.roles import Role
from tests.conftest import WEBHOOK_RETRY_BASE_SECONDS
from tests.fakes.webhook_receiver import WebhookReceiver
from tests.server.comparisons.documents import CANCEL, START
from tests.server.webhooks.api import REDELIVER, SECRET, create_webhook, deliveries, wait_for


@pytest.fixture(scope="module")
def _receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver(secret=SECRET) as receiver:
        yield receiver


@pytest.fixture
def receiver(_receiver: WebhookReceiver) -> WebhookReceiver:
    _receiver.reset()
    return _receiver


def settled(found: list[dict[str, Any]]) -> bool:
    return bool(found) and all(d["status"] != "PENDING" for d in found)


async def _publish_run_regressed(backend: Backend, workspace_id: str, run_id: str) -> list[str]:
    return await publish(
        sessionmaker=backend.sessionmaker,
        queue=backend.state.queue,
        workspace_id=workspace_id,
        experiment_id=None,
        event=WebhookEvent.RUN_REGRESSED,
        subject_id=run_id,
        summary={"passRateDelta": -0.2, "significant": True},
    )


async def test_a_finished_comparison_is_delivered_signed_after_two_failures(
    backend: Backend, receiver: WebhookReceiver
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=4)
    comparison_id = await make_comparison(backend.sessionmaker, setup, trials=1)
    hook = (
        await create_webhook(backend, ws.owner, receiver.url, ["COMPARISON_FINISHED"])
    ).ok()["createWebhook"]
    # Neither of these may receive anything: another experiment, another event.
    other_experiment = (
        await backend.gql(
            'mutation { createExperiment(input: {name: "elsewhere"}) { id } }', token=ws.owner
        )
    ).ok()["createExperiment"]["id"]
    elsewhere = (
        await create_webhook(
            backend,
            ws.owner,
            receiver.url,
            ["COMPARISON_FINISHED"],
            experiment_id=other_experiment,
        )
    ).ok()["createWebhook"]
    runs_only = (
        await create_webhook(backend, ws.owner, receiver.url, ["RUN_REGRESSED"])
    ).ok()["createWebhook"]
    receiver.plan(500, 302)

    started = await backend.gql(
        START, {"id": comparison_id, "background": False}, token=ws.tokens[Role.MEMBER]
    )
    assert started.ok()["startComparison"]["status"] == "DONE"
    [delivery] = await wait_for(backend, ws.owner, hook["id"], settled)

    assert delivery["status"] == "DELIVERED"
    assert delivery["event"] == "COMPARISON_FINISHED"
    assert delivery["subjectId"] == comparison_id
    assert [(a["number"], a["httpStatus"], a["errorCode"]) for a in delivery["attempts"]] == [
        (1, 500, "HTTP_STATUS"),
        (2, 302, "REDIRECT_REFUSED"),
        (3, 200, None),
    ]
    starts = [datetime.fromisoformat(a["startedAt"]) for a in delivery["attempts"]]
    gaps = [(b - a).total_seconds() for a, b in zip(starts, starts[1:], strict=False)]
    assert gaps[0] >= WEBHOOK_RETRY_BASE_SECONDS * 0.9
    assert gaps[1] >= 2 * WEBHOOK_RETRY_BASE_SECONDS * 0.9

    received = receiver.requests
    assert [r.path for r in received] == ["/hook"] * 3  # the redirect was not followed
    assert all(r.verified for r in received)
    assert len({r.body for r in received}) == 1  # every attempt signs the same body
    payload = received[0].payload
    assert payload["id"] == delivery["eventId"] == delivery["payload"]["id"]
    assert payload["event"] == "COMPARISON_FINISHED"
    assert payload["workspaceId"] == ws.id
    assert payload["comparisonId"] == comparison_id
    assert payload["experimentId"] == started.ok()["startComparison"]["experiment"]["id"]
    assert "runId" not in payload
    assert datetime.fromisoformat(payload["occurredAt"].replace("Z", "+00:00"))
    assert payload["summary"]["status"] == "DONE"
    assert payload["summary"]["stopReason"] == "COMPLETED"
    assert payload["summary"]["doneCalls"] == payload["summary"]["totalCalls"] == 8
    assert received[0].headers["content-type"] == "application/json"
    assert received[0].headers["shipwise-signature"].startswith("t=")
    assert await deliveries(backend, ws.owner, elsewhere["id"]) == []
    assert await deliveries(backend, ws.owner, runs_only["id"]) == []


async def test_a_cancelled_comparison_is_a_finished_one(
    backend: Backend, receiver: WebhookReceiver
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=3)
    comparison_id = await make_comparison(backend.sessionmaker, setup, trials=1)
    hook = (
        await create_webhook(backend, ws.owner, receiver.url, ["COMPARISON_FINISHED"])
    ).ok()["createWebhook"]
    cancelled = await backend.gql(CANCEL, {"id": comparison_id}, token=ws.tokens[Role.MEMBER])
    assert cancelled.ok()["cancelComparison"]["status"] == "CANCELLED"
    [delivery] = await wait_for(backend, ws.owner, hook["id"], settled)
    assert delivery["status"] == "DELIVERED"
    assert delivery["payload"]["summary"]["status"] == "CANCELLED"
    assert [r.payload["comparisonId"] for r in receiver.requests] == [comparison_id]


async def test_six_failures_fail_the_delivery_and_an_admin_redelivers_it(
    backend: Backend, receiver: WebhookReceiver
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    hook = (
        await create_webhook(backend, ws.owner, receiver.url, ["RUN_REGRESSED"])
    ).ok()["createWebhook"]
    receiver.default_status = 503
    [delivery_id] = await _publish_run_regressed(backend, ws.id, "run_failing")
    [failed] = await wait_for(backend, ws.owner, hook["id"], settled)
    assert failed["id"] == delivery_id
    assert failed["status"] == "FAILED"
    assert failed["attemptCount"] == 6
    assert [a["httpStatus"] for a in failed["attempts"]] == [503] * 6
    assert len(receiver.requests) == 6
    assert failed["payload"]["runId"] == "run_failing"
    assert "comparisonId" not in failed["payload"]

    listed = (
        await backend.gql("{ webhooks { edges { node { id enabled } } } }", token=ws.owner)
    ).ok()
    assert listed["webhooks"]["edges"][0]["node"] == {"id": hook["id"], "enabled": True}

    refused = await backend.gql(REDELIVER, {"id": delivery_id}, token=ws.tokens[Role.MEMBER])
    assert refused.codes == ["FORBIDDEN"]
    other = await make_workspace(backend.sessionmaker, name="other")
    hidden = await backend.gql(REDELIVER, {"id": delivery_id}, token=other.owner)
    assert hidden.codes == ["NOT_FOUND"]

    receiver.default_status = 200
    redelivered = (
        await backend.gql(REDELIVER, {"id": delivery_id}, token=ws.tokens[Role.ADMIN])
    ).ok()["redeliverWebhook"]
    assert redelivered["status"] == "PENDING"
    [done] = await wait_for(backend, ws.owner, hook["id"], settled)
    assert done["status"] == "DELIVERED"
    assert done["attemptCount"] == 7
    assert done["attempts"][-1]["httpStatus"] == 200
    received = receiver.requests
    assert len(received) == 7 and all(r.verified for r in received)
    assert received[-1].payload["id"] == received[0].payload["id"] == done["eventId"]

    async with backend.sessionmaker() as session:
        actions = (
            await session.scalars(
                select(AuditEvent.action).where(AuditEvent.target_id == delivery_id)
            )
        ).all()
    assert list(actions) == ["webhook.redeliver"]


async def test_a_delivery_being_attempted_cannot_be_redelivered(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    # Nothing listens there: should the sweep ever send it, no other test's receiver hears.
    hook = (
        await create_webhook(backend, ws.owner, "http://127.0.0.1:9/hook", ["RUN_REGRESSED"])
    ).ok()["createWebhook"]
    async with backend.sessionmaker() as session, session.begin():
        [delivery] = await publishing.record(
            session,
            workspace_id=ws.id,
            experiment_id=None,
            event=WebhookEvent.RUN_REGRESSED,
            subject_id="run_pending",
            summary={},
        )
    result = await backend.gql(REDELIVER, {"id": delivery.id}, token=ws.owner)
    assert result.codes == ["CONFLICT"]
    assert result.errors[0]["extensions"]["reason"] == "DELIVERY_PENDING"
    [still] = await deliveries(backend, ws.owner, hook["id"])
    assert (still["status"], still["attemptCount"]) == ("PENDING", 0)


async def test_publishing_an_event_twice_delivers_it_once(
    backend: Backend, receiver: WebhookReceiver
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    hook = (
        await create_webhook(backend, ws.owner, receiver.url, ["RUN_REGRESSED"])
    ).ok()["createWebhook"]
    first = await _publish_run_regressed(backend, ws.id, "run_twice")
    again = await _publish_run_regressed(backend, ws.id, "run_twice")
    assert len(first) == 1 and again == []
    [delivery] = await wait_for(backend, ws.owner, hook["id"], settled)
    assert delivery["status"] == "DELIVERED"
    assert len(receiver.requests) == 1


async def test_the_address_rule_is_checked_again_at_send_time(
    backend: Backend, receiver: WebhookReceiver
) -> None:
    """Created while private addresses were allowed, sent by a worker that refuses them."""
    ws = await make_workspace(backend.sessionmaker)
    hook = (
        await create_webhook(backend, ws.owner, receiver.url, ["RUN_REGRESSED"])
    ).ok()["createWebhook"]
    async with backend.sessionmaker() as session, session.begin():
        [delivery] = await publishing.record(
            session,
            workspace_id=ws.id,
            experiment_id=None,
            event=WebhookEvent.RUN_REGRESSED,
            subject_id="run_private",
            summary={},
        )
    strict = backend.settings.model_copy(
        update={"webhook_allow_private": False, "webhook_retry_base_seconds": 3600.0}
    )
    ctx = {"settings": strict, "sessionmaker": backend.sessionmaker, "queue": backend.state.queue}
    outcome = await send_webhook(ctx, delivery.id, 1)
    assert outcome.startswith("retry in 3600")
    [found] = await deliveries(backend, ws.owner, hook["id"])
    assert found["status"] == "PENDING"
    assert [(a["httpStatus"], a["errorCode"]) for a in found["attempts"]] == [
        (None, "PRIVATE_ADDRESS")
    ]
    assert receiver.requests == []
    # The same attempt delivered twice (at-least-once queues) does nothing the second time.
    assert await send_webhook(ctx, delivery.id, 1) == "not due"


async def test_the_sweep_resumes_a_delivery_whose_worker_died_mid_attempt(
    backend: Backend, receiver: WebhookReceiver
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    hook = (
        await create_webhook(backend, ws.owner, receiver.url, ["RUN_REGRESSED"])
    ).ok()["createWebhook"]
    async with backend.sessionmaker() as session, session.begin():
        [delivery] = await publishing.record(
            session,
            workspace_id=ws.id,
            experiment_id=None,
            event=WebhookEvent.RUN_REGRESSED,
            subject_id="run_orphaned",
            summary={},
        )
    # A worker claims attempt 1 and dies before sending; its attempt is long overdue.
    async with backend.sessionmaker() as session, session.begin():
        claimed = await sender._claim(
            session,
            delivery_id=delivery.id,
            attempt=1,
            secret_box=backend.state.secret_box,
            stale=-3600,
        )
    assert claimed is not None
    ctx = {"sessionmaker": backend.sessionmaker, "queue": backend.state.queue}
    assert await sweep_webhooks(ctx) >= 1
    [done] = await wait_for(backend, ws.owner, hook["id"], settled)
    assert done["status"] == "DELIVERED"
    assert [(a["number"], a["errorCode"]) for a in done["attempts"]] == [
        (1, "INTERRUPTED"),
        (2, None),
    ]
    assert len(receiver.requests) == 1 and receiver.requests[0].verified
