"""A canary that breaks its cost guardrail fires `live_comparison.guardrail_violated` and
`live_comparison.decided` (with the decision), signed, to a receiver on 127.0.0.1."""

from __future__ import annotations

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.waiting import eventually
from server.workspaces.roles import Role
from tests.fakes.webhook_receiver import WebhookReceiver
from tests.server.live.canary import create, post_release
from tests.server.webhooks.api import SECRET, create_webhook

PRICES = "mutation($p: [ModelPriceInput!]!) { setModelPrices(prices: $p) { model } }"


async def test_decided_and_guardrail_violated_are_sent(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    with WebhookReceiver(secret=SECRET) as receiver:
        events = ["LIVE_COMPARISON_DECIDED", "LIVE_COMPARISON_GUARDRAIL_VIOLATED"]
        (await create_webhook(backend, ws.owner, receiver.url, events)).ok()
        price = [
            {"model": m, "inputCentsPerMillionTokens": p, "outputCentsPerMillionTokens": 4 * p}
            for m, p in (("cheap", 100), ("dear", 400))
        ]
        (await backend.gql(PRICES, {"p": price}, token=ws.tokens[Role.ADMIN])).ok()
        live = await create(
            backend,
            ws,
            shipPolicy={"guardrails": [{"metric": "COST_PER_CASE", "maxIncreasePercent": 20}]},
        )
        for _ in range(4):
            await post_release(backend, ws, release="v2", passes=[True] * 50, model="dear")
            await post_release(backend, ws, release="v1", passes=[True] * 50, model="cheap")
        received = await eventually(
            lambda: [r for r in receiver.requests if r.verified],
            until=lambda found: len(found) >= 2,
            what="both live comparison events",
        )
    by_event = {r.payload["event"]: r.payload for r in received}
    assert set(by_event) == {"live_comparison.decided", "live_comparison.guardrail_violated"}
    decided = by_event["live_comparison.decided"]
    assert decided["liveComparisonId"] == live["id"] and decided["workspaceId"] == ws.id
    assert decided["summary"]["outcome"] == "DONT_SHIP"
    assert decided["summary"]["sentence"].startswith("Don't ship v2")
    violated = by_event["live_comparison.guardrail_violated"]["summary"]["criteria"]
    assert [(c["metric"], c["status"]) for c in violated] == [("COST_PER_CASE", "VIOLATED")]
