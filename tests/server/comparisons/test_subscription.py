"""`comparisonProgress` over a real graphql-transport-ws client, on both backends (a client
that reads nothing: `test_slow_subscriber`)."""

from __future__ import annotations

import asyncio
import json
from contextlib import aclosing
from typing import Any

import pytest
from gql import Client, GraphQLRequest
from gql.transport.exceptions import TransportConnectionFailed, TransportQueryError
from sqlalchemy import select, update
from websockets.exceptions import ConnectionClosed

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.waiting import eventually
from server.comparisons.mailbox import Mailbox
from server.comparisons.models import Comparison, ComparisonStatus
from server.metrics import REGISTRY
from server.workspaces.roles import Role
from tests.server.comparisons.progress_api import (
    CANCEL,
    START,
    SUBSCRIBE,
    assert_in_order,
    collect,
    fake_snapshot,
    open_subscriptions,
    row_progress,
    slow_setup,
    snapshots_of,
    stalled_client,
    subscription,
    transport,
)

# --- the stream ----------------------------------------------------------------------------


async def test_the_current_snapshot_comes_first_then_every_later_one_to_the_end(
    backend: Backend,
) -> None:
    ws, comparison_id = await slow_setup(backend)
    viewer = ws.tokens[Role.VIEWER]
    async with subscription(backend, viewer, comparison_id) as stream:
        first = await anext(stream)
        assert first["status"] == "SETUP" and first["doneCalls"] == 0
        assert first == await row_progress(backend, viewer, comparison_id)
        (await backend.gql(START, {"id": comparison_id}, token=ws.tokens[Role.MEMBER])).ok()
        async with asyncio.timeout(30):
            rest = [snapshot async for snapshot in stream]
    snapshots = [first, *rest]
    assert_in_order(snapshots)
    statuses = [s["status"] for s in snapshots]
    assert "RUNNING" in statuses and statuses[-1] == "DONE"
    done_calls = [s["doneCalls"] for s in snapshots]
    assert done_calls == sorted(done_calls) and len(set(done_calls)) >= 3
    final = snapshots[-1]
    assert final["doneCalls"] == final["totalCalls"] == 20 * 2 * 2
    assert final["percent"] == 100.0 and final["stopReason"] == "COMPLETED"
    assert final == await row_progress(backend, viewer, comparison_id)


async def test_reconnecting_with_the_last_seq_misses_no_state_change(backend: Backend) -> None:
    ws, comparison_id = await slow_setup(backend)
    viewer = ws.tokens[Role.VIEWER]
    before = open_subscriptions()
    seen: list[dict[str, Any]] = []
    async with subscription(backend, viewer, comparison_id) as stream:
        seen.append(await anext(stream))
        (await backend.gql(START, {"id": comparison_id}, token=ws.tokens[Role.MEMBER])).ok()
        async with asyncio.timeout(30):
            async for snapshot in stream:
                seen.append(snapshot)
                if snapshot["status"] == "RUNNING" and snapshot["doneCalls"] > 0:
                    break
    # The server lets go of a subscriber that left (its reader task and bus subscription).
    await eventually(lambda: open_subscriptions() <= before, timeout=5, what="let go")
    # The run moves on while nobody listens.
    await eventually(
        lambda: _seq(backend, comparison_id),
        until=lambda seq: seq > seen[-1]["seq"],
        what="a snapshot nobody listened to",
    )
    rest = await collect(backend, viewer, comparison_id, after_seq=seen[-1]["seq"])
    assert rest and rest[0]["seq"] > seen[-1]["seq"]
    snapshots = seen + rest
    assert_in_order(snapshots)
    statuses = [s["status"] for s in snapshots]
    assert list(dict.fromkeys(statuses)) == ["SETUP", "RUNNING", "DONE"]
    assert snapshots[-1] == await row_progress(backend, viewer, comparison_id)


async def test_an_ended_comparison_sends_its_snapshot_and_completes(backend: Backend) -> None:
    ws, comparison_id = await slow_setup(backend, cases=2)
    (await backend.gql(CANCEL, {"id": comparison_id}, token=ws.tokens[Role.MEMBER])).ok()
    viewer = ws.tokens[Role.VIEWER]
    row = await row_progress(backend, viewer, comparison_id)
    assert row["status"] == "CANCELLED"
    assert await collect(backend, viewer, comparison_id) == [row]
    assert await collect(backend, viewer, comparison_id, after_seq=row["seq"] - 1) == [row]
    assert await collect(backend, viewer, comparison_id, after_seq=row["seq"]) == []


async def test_a_cancelled_runs_terminal_snapshot_shows_unfinished_cohorts_stopped(
    backend: Backend,
) -> None:
    ws, comparison_id = await slow_setup(backend)
    viewer, member = ws.tokens[Role.VIEWER], ws.tokens[Role.MEMBER]
    async with subscription(backend, viewer, comparison_id) as stream:
        await anext(stream)
        (await backend.gql(START, {"id": comparison_id}, token=member)).ok()
        async with asyncio.timeout(30):
            async for snapshot in stream:
                if snapshot["doneCalls"] > 0:
                    assert {c["state"] for c in snapshot["cohorts"]} <= {"QUEUED", "RUNNING"}
                    break
        (await backend.gql(CANCEL, {"id": comparison_id}, token=member)).ok()
        async with asyncio.timeout(30):
            rest = [snapshot async for snapshot in stream]
    terminal = rest[-1]
    assert terminal["status"] == "CANCELLED"
    assert terminal["doneCalls"] < terminal["totalCalls"]
    assert [c["state"] for c in terminal["cohorts"]] == ["STOPPED", "STOPPED"]
    row = await row_progress(backend, viewer, comparison_id)
    assert [c["state"] for c in row["cohorts"]] == ["STOPPED", "STOPPED"]


async def test_a_lost_terminal_event_is_read_from_the_row(backend: Backend) -> None:
    ws, comparison_id = await slow_setup(backend, cases=2)
    viewer = ws.tokens[Role.VIEWER]
    async with subscription(backend, viewer, comparison_id) as stream:
        first = await anext(stream)
        # The row ends without any event published, as if the bus had dropped it.
        async with backend.sessionmaker() as session, session.begin():
            await session.execute(
                update(Comparison)
                .where(Comparison.id == comparison_id)
                .values(status=ComparisonStatus.CANCELLED, seq=Comparison.seq + 1)
            )
        async with asyncio.timeout(10):
            rest = [snapshot async for snapshot in stream]
    assert [s["status"] for s in rest] == ["CANCELLED"]
    assert rest[0]["seq"] == first["seq"] + 1
    assert [c["state"] for c in rest[0]["cohorts"]] == ["STOPPED", "STOPPED"]


# --- access --------------------------------------------------------------------------------


@pytest.mark.parametrize("role", list(Role))
async def test_every_role_may_watchsnapshots_of(backend: Backend, role: Role) -> None:
    ws, comparison_id = await slow_setup(backend, cases=2)
    (await backend.gql(CANCEL, {"id": comparison_id}, token=ws.tokens[Role.MEMBER])).ok()
    snapshots = await collect(backend, ws.tokens[role], comparison_id)
    assert [s["status"] for s in snapshots] == ["CANCELLED"]


async def test_another_workspaces_comparison_is_not_found(backend: Backend) -> None:
    _, comparison_id = await slow_setup(backend, cases=2)
    other = await make_workspace(backend.sessionmaker)
    for target in (comparison_id, "cmp_unknown"):
        with pytest.raises(TransportQueryError) as failure:
            await collect(backend, other.owner, target)
        assert [e["extensions"]["code"] for e in failure.value.errors or []] == ["NOT_FOUND"]
    # On the wire (Strawberry): a `next` carrying the error, then `complete`.
    async with stalled_client(backend, other.owner) as client:
        message = {"query": SUBSCRIBE, "variables": {"id": comparison_id}}
        await client.send(json.dumps({"id": "1", "type": "subscribe", "payload": message}))
        frames = [json.loads(await client.recv()) for _ in range(2)]
    error = {"message": "comparison not found", "extensions": {"code": "NOT_FOUND"}}
    assert frames == [
        {"id": "1", "type": "next", "payload": {"data": None, "errors": [error]}},
        {"id": "1", "type": "complete"},
    ]


async def test_a_negative_after_seq_is_refused(backend: Backend) -> None:
    ws, comparison_id = await slow_setup(backend, cases=2)
    with pytest.raises(TransportQueryError) as failure:
        await collect(backend, ws.owner, comparison_id, after_seq=-1)
    errors = failure.value.errors or []
    assert [e["extensions"]["code"] for e in errors] == ["VALIDATION_FAILED"]
    assert errors[0]["extensions"]["field"] == "afterSeq"


async def test_a_bad_token_is_refused_with_4403(backend: Backend) -> None:
    _, comparison_id = await slow_setup(backend, cases=2)
    for token in ("sw_wrong", ""):
        with pytest.raises(TransportConnectionFailed) as failure:
            await collect(backend, token, comparison_id)
        closed = failure.value.__cause__
        assert isinstance(closed, ConnectionClosed) and closed.rcvd is not None
        assert closed.rcvd.code == 4403


# --- the mailbox ---------------------------------------------------------------------------


async def test_the_mailbox_keeps_the_newest_snapshot_and_never_replaces_a_terminal_one() -> None:
    mailbox = Mailbox()
    assert await mailbox.take(0.01) is None
    for seq in (3, 5, 4):
        mailbox.put(fake_snapshot(seq))
    assert mailbox.pending == 1 and mailbox.coalesced == 2
    taken = await mailbox.take(0.01)
    assert taken is not None and taken.seq == 5
    mailbox.put(fake_snapshot(6, status="DONE"))
    mailbox.put(fake_snapshot(7))
    taken = await mailbox.take(0.01)
    assert taken is not None and (taken.seq, taken.status) == (6, "DONE")
    assert mailbox.pending == 0


# --- one shared reader ---------------------------------------------------------------------


async def test_many_subscriptions_to_one_comparison_share_one_stream_reader(
    backend: Backend,
) -> None:
    from server.comparisons.progress_hub import hub_for

    ws, comparison_id = await slow_setup(backend, cases=30)
    token = ws.tokens[Role.MEMBER]
    hub = hub_for(backend.state.events)
    seen: list[list[dict[str, Any]]] = [[] for _ in range(8)]
    first = [asyncio.Event() for _ in seen]

    async def watch(index: int) -> None:
        async with subscription(backend, token, comparison_id) as stream:
            async with asyncio.timeout(30):
                async for snapshot in stream:
                    seen[index].append(snapshot)
                    first[index].set()

    watchers = [asyncio.create_task(watch(i)) for i in range(len(seen))]
    async with asyncio.timeout(10):
        await asyncio.gather(*(event.wait() for event in first))
    await backend.gql(START, {"id": comparison_id}, token=token)
    readers = []
    for _ in range(10):
        await asyncio.sleep(0.05)
        readers.append(hub.readers())
    assert hub.reading(comparison_id)
    assert max(readers) == 1, "one reader for the comparison, however many subscribe"
    await asyncio.gather(*watchers)
    for snapshots in seen:
        assert_in_order(snapshots)
        assert snapshots[-1]["status"] == "DONE"
        assert len(snapshots) > 2, "each subscription got the progress, not just the end"
    assert not hub.reading(comparison_id), "the reader stops with its last subscription"


def subscription_events(execution: str) -> float:
    return REGISTRY.get_sample_value(
        "shipwise_subscription_events_total", {"execution": execution}
    ) or 0.0


async def test_subscribers_asking_the_same_share_each_snapshots_execution(
    backend: Backend,
) -> None:
    """Six subscriptions of one query: each snapshot is executed once and lent to the rest;
    a seventh with other fields gets its own execution, with exactly its fields."""
    ws, comparison_id = await slow_setup(backend, cases=30)
    token = ws.tokens[Role.VIEWER]
    narrow = "subscription($id: ID!) { comparisonProgress(id: $id) { seq doneCalls } }"
    seen: list[list[dict[str, Any]]] = [[] for _ in range(7)]
    first = [asyncio.Event() for _ in seen]
    own_before, shared_before = subscription_events("own"), subscription_events("shared")

    async def watch(index: int) -> None:
        query = narrow if index == 6 else SUBSCRIBE
        async with Client(transport=transport(backend, token)) as session:
            results = session.subscribe(
                GraphQLRequest(query, variable_values={"id": comparison_id})
            )
            async with aclosing(snapshots_of(results)) as stream, asyncio.timeout(30):
                async for snapshot in stream:
                    seen[index].append(snapshot)
                    first[index].set()

    watchers = [asyncio.create_task(watch(i)) for i in range(len(seen))]
    async with asyncio.timeout(10):
        await asyncio.gather(*(event.wait() for event in first))
    (await backend.gql(START, {"id": comparison_id}, token=ws.tokens[Role.MEMBER])).ok()
    await asyncio.gather(*watchers)
    final = await row_progress(backend, token, comparison_id)
    for snapshots in seen[:6]:
        assert_in_order(snapshots)
        assert snapshots[-1] == final
    narrow_seen = seen[6]
    assert all(set(s) == {"seq", "doneCalls"} for s in narrow_seen)
    assert narrow_seen[-1] == {"seq": final["seq"], "doneCalls": final["doneCalls"]}
    assert [s["seq"] for s in narrow_seen] == sorted({s["seq"] for s in narrow_seen})
    shared = subscription_events("shared") - shared_before
    own = subscription_events("own") - own_before
    # Snapshots off the event stream are one object for all: 5 of every 6 borrow; the narrow
    # query and the first, row-read snapshot of each subscription run their own.
    assert shared >= 5 * (len(seen[0]) - 2), (shared, own)
    assert own >= len(narrow_seen) - 1


async def _seq(backend: Backend, comparison_id: str) -> int:
    """The comparison row's progress `seq`, the truth subscribers catch up to."""
    async with backend.sessionmaker() as session:
        seq = await session.scalar(select(Comparison.seq).where(Comparison.id == comparison_id))
    return int(seq or 0)
