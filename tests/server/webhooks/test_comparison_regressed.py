"""Finalization announces COMPARISON_REGRESSED when a baseline's verdict is REGRESSED, and only
then; the event names the comparison and the regressed baselines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import finalized, scripted_setup
from tests.fakes.webhook_receiver import WebhookReceiver
from tests.server.webhooks.api import SECRET, create_webhook, deliveries, wait_for


@pytest.fixture(scope="module")
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver(secret=SECRET) as receiver:
        yield receiver


async def test_a_regressed_verdict_fires_comparison_regressed(
    backend: Backend, receiver: WebhookReceiver
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    hook = (
        await create_webhook(backend, ws.owner, receiver.url, ["COMPARISON_REGRESSED"])
    ).ok()["createWebhook"]

    # 30 cases, one trial: the candidate fails 15 the baseline passes (Δ = −50 points,
    # McNemar mid-p on 15 discordant cases all one way ≈ 6e-5): REGRESSED.
    tensor = [["F"] * 15 + ["P"] * 15, ["P"] * 30]
    regressing = await scripted_setup(backend.sessionmaker, ws, tensor)
    comparison_id, comparison = await finalized(backend, regressing, trialsPerCase=1)
    assert comparison["scorecard"]["verdicts"][0]["outcome"] == "REGRESSED"

    [delivery] = await wait_for(
        backend, ws.owner, hook["id"], lambda d: bool(d) and d[0]["status"] == "DELIVERED"
    )
    payload = delivery["payload"]
    assert (payload["event"], payload["comparisonId"]) == ("COMPARISON_REGRESSED", comparison_id)
    [baseline] = payload["summary"]["regressedBaselines"]
    assert baseline["baselineCohortIndex"] == 1
    assert baseline["passRateDeltaPoints"] == pytest.approx(-50.0)

    # Equal pass sets give NO_CHANGE or NO_VERDICT, never an event.
    steady = await scripted_setup(backend.sessionmaker, ws, [["P"] * 30, ["P"] * 30])
    _, comparison = await finalized(backend, steady, trialsPerCase=1)
    assert comparison["scorecard"]["verdicts"][0]["outcome"] != "REGRESSED"
    assert len(await deliveries(backend, ws.owner, hook["id"])) == 1
