"""RUN_REGRESSED end to end: an imported run that completes with a significant regression
against its experiment's previous completed imported run fires it; a steady run and reading
a diff fire nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from server.workspaces.roles import Role
from tests.factories import make_workspace
from tests.fakes.webhook_receiver import WebhookReceiver
from tests.harness import Backend
from tests.server.runs.api import diff, experiment, import_run, item
from tests.server.webhooks.api import SECRET, create_webhook, deliveries, wait_for


@pytest.fixture(scope="module")
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver(secret=SECRET) as receiver:
        yield receiver


def _items(failing: int, total: int = 30) -> list[dict[str, object]]:
    return [item(n >= failing, item_id=f"q{n}") for n in range(total)]


async def test_an_imported_regression_fires_run_regressed_once(
    backend: Backend, receiver: WebhookReceiver
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    exp = await experiment(backend, member)
    hook = (
        await create_webhook(backend, ws.owner, receiver.url, ["RUN_REGRESSED"], experiment_id=exp)
    ).ok()["createWebhook"]

    first = await import_run(backend, member, exp, _items(0), key="night-1")
    steady = await import_run(backend, member, exp, _items(0), key="night-2")
    # 15 of 30 cases flip from pass to fail: McNemar mid-p ≈ 6e-5, Δ = −50 points.
    regressed = await import_run(backend, member, exp, _items(15), key="night-3")

    [delivery] = await wait_for(
        backend, ws.owner, hook["id"], lambda d: bool(d) and d[0]["status"] == "DELIVERED"
    )
    payload = delivery["payload"]
    assert (payload["event"], payload["runId"], payload["experimentId"]) == (
        "RUN_REGRESSED",
        regressed,
        exp,
    )
    assert payload["summary"]["baselineRunId"] == steady
    assert payload["summary"]["passRateDelta"] == pytest.approx(-0.5)
    assert payload["summary"]["regressedCount"] == 15

    # Reading diffs (either way round) fires nothing more.
    await diff(backend, member, regressed, first)
    await diff(backend, member, first, regressed)
    await asyncio.sleep(0.5)
    assert len(await deliveries(backend, ws.owner, hook["id"])) == 1
