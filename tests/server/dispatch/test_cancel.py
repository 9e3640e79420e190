"""Cancelling a RUNNING comparison: no call admitted after the cancel commits, in-flight
calls finish into the checkpoint, and the API shows the status and factual counters only."""

from __future__ import annotations

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import Behaviour, FakeOpenAI
from bench.kit.waiting import eventually
from server.workspaces.roles import Role
from tests.server.comparisons.documents import CANCEL, GET, LIST
from tests.server.dispatch.api import (
    create,
    deliveries_per_trial,
    openai_setup,
    start,
    status,
    trial_rows,
    wait_terminal,
)

CASES, TRIALS, COHORTS = 30, 2, 2
MAX_CONCURRENCY = 4


async def test_cancel_stops_admitting_and_in_flight_calls_finish_into_the_checkpoint(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await openai_setup(
        backend, fake_openai, ws, cases=CASES, max_concurrency=MAX_CONCURRENCY
    )
    fake_openai.behaviour = Behaviour(delay_seconds=0.5)
    member = ws.tokens[Role.MEMBER]
    comparison_id = await create(backend, member, setup.input(trialsPerCase=TRIALS))
    await start(backend, member, comparison_id)
    await eventually(
        lambda: status(backend, member, comparison_id),
        until=lambda c: c["progress"]["doneCalls"] >= 4,
        what="four calls done",
    )

    # Sent while calls are in flight. Read after the answer, as before, a cancel slowed past
    # the calls' 0.5 s on a loaded host found them all answered; they stay under the tests'
    # 1 s provider timeout, so they cannot be made to outlast any cancel.
    await eventually(lambda: fake_openai.in_flight, until=lambda n: n > 0, what="calls in flight")
    cancelled = (await backend.gql(CANCEL, {"id": comparison_id}, token=member)).ok()
    admitted_at_cancel = sum((await trial_rows(backend, comparison_id)).values())
    assert cancelled["cancelComparison"]["status"] == "CANCELLED"

    # Terminal, and no delivery holds a lease: a dispatcher that missed the cancel would
    # have to hold its range's lease to admit more.
    ended = await wait_terminal(backend, member, comparison_id)
    rows = await trial_rows(backend, comparison_id)
    # Admission happens under the comparison's row lock and sees the committed cancel.
    assert sum(rows.values()) == admitted_at_cancel < CASES * TRIALS * COHORTS
    assert rows.get("ADMITTED", 0) == 0, "in-flight calls finished into the checkpoint"
    assert ended["status"] == "CANCELLED"
    assert ended["progress"]["doneCalls"] == admitted_at_cancel
    assert ended["progress"]["failedCalls"] == rows.get("ERRORED", 0) == 0
    sent = deliveries_per_trial(fake_openai, comparison_id)
    assert len(sent) == admitted_at_cancel
    assert all(len(deliveries) == 1 for deliveries in sent.values())

    # Status and factual counters only: no pass rate for a cancelled comparison.
    shown = (await backend.gql(GET, {"id": comparison_id}, token=member)).ok()["comparison"]
    assert (shown["status"], shown["stopReason"], shown["errorCode"]) == ("CANCELLED", None, None)
    assert [c["passRate"] for c in shown["cohorts"]] == [None, None]
    assert shown["progress"]["status"] == "CANCELLED"
    assert shown["progress"]["etaSeconds"] == 0
    assert [c["state"] for c in shown["progress"]["cohorts"]] == ["STOPPED"] * COHORTS
    listed = (await backend.gql(LIST, {"status": "CANCELLED"}, token=member)).ok()
    nodes = [e["node"] for e in listed["comparisons"]["edges"]]
    assert [n["id"] for n in nodes] == [comparison_id]
    assert [c["passRate"] for c in nodes[0]["cohorts"]] == [None, None]


async def test_a_cancelled_comparison_cannot_be_cancelled_or_started_again(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await openai_setup(backend, fake_openai, ws, cases=4, max_concurrency=2)
    fake_openai.behaviour = Behaviour(delay_seconds=0.3)
    member = ws.tokens[Role.MEMBER]
    comparison_id = await create(backend, member, setup.input(trialsPerCase=TRIALS))
    await start(backend, member, comparison_id)
    (await backend.gql(CANCEL, {"id": comparison_id}, token=member)).ok()
    await wait_terminal(backend, member, comparison_id)
    again = await backend.gql(CANCEL, {"id": comparison_id}, token=member)
    assert again.codes == ["CONFLICT"]
    restart = await backend.gql(
        "mutation($id: ID!) { startComparison(id: $id) { status } }",
        {"id": comparison_id},
        token=member,
    )
    assert restart.codes == ["CONFLICT"]
    assert (await trial_rows(backend, comparison_id)).get("ADMITTED", 0) == 0
