"""RUN_REGRESSED end to end: an imported run that completes with a significant regression
against its experiment's previous completed imported run fires it; a steady run and reading
a diff fire nothing (a later regression's delivery is the only one after it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.fakes.webhook_receiver import WebhookReceiver
from tests.server.runs.api import diff, experiment, import_run, item
from tests.server.webhooks.api import SECRET, create_webhook, wait_for


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

    # Reading diffs (either way round) fires nothing more: a regression imported after them
    # fires (its alert job queued after anything the reads could have queued), and its
    # delivery is the only one besides the first.
    await diff(backend, member, regressed, first)
    await diff(backend, member, first, regressed)
    later = await import_run(backend, member, exp, _items(30), key="night-4")
    found = await wait_for(
        backend,
        ws.owner,
        hook["id"],
        lambda d: any(x["payload"]["runId"] == later and x["status"] == "DELIVERED" for x in d),
    )
    assert sorted(d["payload"]["runId"] for d in found) == sorted([regressed, later])
    assert {d["payload"]["summary"]["baselineRunId"] for d in found} == {steady, regressed}
