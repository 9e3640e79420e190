"""`comparisonProgress` over a real graphql-transport-ws client, on both backends."""

from __future__ import annotations

import asyncio
import fcntl
import json
import socket as sockets
import struct
import termios
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing, asynccontextmanager
from typing import Any

import pytest
import websockets
from gql import Client, GraphQLRequest
from gql.transport.exceptions import TransportConnectionFailed, TransportQueryError
from gql.transport.websockets import WebsocketsTransport
from sqlalchemy import select, update
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from server.comparisons import progress as progress_events
from server.comparisons.mailbox import Mailbox
from server.comparisons.models import Comparison, ComparisonStatus
from server.comparisons.progress import CohortProgress, Progress
from server.connections.service import Simulation
from server.metrics import REGISTRY
from server.runtime.interfaces import EventBus
from server.workspaces.roles import Role
from tests.factories import make_comparison, make_comparison_setup, make_workspace
from tests.harness import Backend
from tests.waiting import eventually

SUBSCRIBE = """
subscription($id: ID!, $afterSeq: Int) {
  comparisonProgress(id: $id, afterSeq: $afterSeq) {
    seq status stopReason doneCalls totalCalls failedCalls percent etaSeconds spentCentsSoFar
    cohorts { cohortIndex state }
  }
}
"""
START = "mutation($id: ID!) { startComparison(id: $id) { id status } }"
CANCEL = "mutation($id: ID!) { cancelComparison(id: $id) { id status } }"
PROGRESS = """
query($id: ID!) { comparison(id: $id) { progress {
  seq status stopReason doneCalls totalCalls failedCalls percent etaSeconds spentCentsSoFar
  cohorts { cohortIndex state } } } }
"""
TERMINAL = {"DONE", "FAILED", "CANCELLED"}
PROTOCOL = "graphql-transport-ws"
PENDING = "shipwise_progress_pending_snapshots"
COALESCED = "shipwise_progress_coalesced_snapshots_total"
SUBSCRIPTIONS = "shipwise_progress_subscriptions"


def transport(backend: Backend, token: str) -> WebsocketsTransport:
    return WebsocketsTransport(
        url=backend.ws_url,
        init_payload={"Authorization": f"Bearer {token}"},
        subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL],
    )


async def _progress(
    results: AsyncGenerator[dict[str, Any], None],
) -> AsyncGenerator[dict[str, Any], None]:
    async with aclosing(results):
        async for result in results:
            yield result["comparisonProgress"]


@asynccontextmanager
async def subscription(
    backend: Backend, token: str, comparison_id: str, after_seq: int | None = None
) -> AsyncIterator[AsyncIterator[dict[str, Any]]]:
    """The snapshots of one subscription through the `gql` client; leaving unsubscribes."""
    variables = {"id": comparison_id, "afterSeq": after_seq}
    async with Client(transport=transport(backend, token)) as session:
        results = session.subscribe(GraphQLRequest(SUBSCRIBE, variable_values=variables))
        async with aclosing(_progress(results)) as snapshots:
            yield snapshots


async def collect(
    backend: Backend, token: str, comparison_id: str, after_seq: int | None = None
) -> list[dict[str, Any]]:
    """Every snapshot until the server completes the subscription."""
    async with subscription(backend, token, comparison_id, after_seq) as stream:
        async with asyncio.timeout(30):
            return [snapshot async for snapshot in stream]


async def row_progress(backend: Backend, token: str, comparison_id: str) -> dict[str, Any]:
    data = (await backend.gql(PROGRESS, {"id": comparison_id}, token=token)).ok()
    result: dict[str, Any] = data["comparison"]["progress"]
    return result


def open_subscriptions() -> float:
    return REGISTRY.get_sample_value("shipwise_progress_subscriptions") or 0.0


async def slow_setup(backend: Backend, *, cases: int = 20) -> tuple[Any, str]:
    """A workspace and a SETUP comparison whose run takes about a second."""
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(
        backend.sessionmaker, ws, cases=cases, simulation=Simulation(latency_ms=80)
    )
    comparison_id = await make_comparison(backend.sessionmaker, setup, trials=2)
    return ws, comparison_id


def assert_in_order(snapshots: list[dict[str, Any]]) -> None:
    seqs = [s["seq"] for s in snapshots]
    assert seqs == sorted(set(seqs)), seqs
    assert snapshots[-1]["status"] in TERMINAL
    assert all(s["status"] not in TERMINAL for s in snapshots[:-1])


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


# --- slow subscribers ----------------------------------------------------------------------


def fake_snapshot(seq: int, *, status: str = "RUNNING", cohorts: int = 2) -> Progress:
    return Progress(
        seq=seq,
        status=status,
        stop_reason="COMPLETED" if status == "DONE" else None,
        done_calls=seq,
        total_calls=10_000,
        failed_calls=0,
        percent=seq / 100,
        eta_seconds=None,
        spent_cents_so_far=0.0,
        cohorts=tuple(CohortProgress(i, "RUNNING") for i in range(cohorts)),
    )


def gauge(name: str) -> float:
    return REGISTRY.get_sample_value(name) or 0.0


def unread_bytes(client: ClientConnection) -> int:
    """What waits in the client's kernel receive buffer: the bytes it has not read."""
    sock = client.transport.get_extra_info("socket")
    unread = fcntl.ioctl(sock.fileno(), termios.FIONREAD, b"\0\0\0\0")
    return int(struct.unpack("i", unread)[0])


async def fill_until_stuck(
    events: EventBus,
    comparison_id: str,
    stalled: ClientConnection,
    clock: AsyncIterator[dict[str, Any]],
    pending: float,
) -> int:
    """Publish fat snapshots until the server cannot send the stalled client more; the last
    seq published. `clock`, a subscriber that reads everything, is handed each snapshot at
    the same time: once it has read one, the stalled subscriber's server side has had as long
    to take it. Stuck, twice in a row: the stalled one left the previous snapshot untaken
    (this one replaced it), left this one too, and its socket took no byte meanwhile: the
    client's buffer is full and the server's are, so little more moves until it reads."""
    seq = untaken = 0
    unread = unread_bytes(stalled)
    while untaken < 2:
        seq += 1
        assert seq < 1_000, "the server never stopped sending"
        coalesced = gauge(COALESCED)
        await progress_events.publish(events, comparison_id, fake_snapshot(seq, cohorts=200))
        while (await anext(clock))["seq"] < seq:
            pass
        replaced = gauge(COALESCED) > coalesced  # the stalled one had not taken seq - 1
        waiting = gauge(PENDING) > pending  # nor seq: `clock` holds none, it read seq
        now = unread_bytes(stalled)
        untaken = untaken + 1 if replaced and waiting and now == unread else 0
        unread = now
    return seq


@asynccontextmanager
async def stalled_client(backend: Backend, token: str) -> AsyncIterator[ClientConnection]:
    """A graphql-transport-ws client whose socket buffers barely anything: once it stops
    reading, the server soon cannot send it more."""
    raw = sockets.socket()
    raw.setsockopt(sockets.SOL_SOCKET, sockets.SO_RCVBUF, 4096)
    raw.setsockopt(sockets.IPPROTO_TCP, sockets.TCP_MAXSEG, 536)  # shrinks the server's send buffer
    raw.setblocking(False)
    host, _, port = backend.base_url.removeprefix("http://").partition(":")
    await asyncio.get_running_loop().sock_connect(raw, (host, int(port)))
    async with websockets.connect(
        backend.ws_url,
        subprotocols=[PROTOCOL],  # type: ignore[list-item]
        compression=None,  # compressed snapshots would take far longer to fill the buffers
        max_queue=1,
        sock=raw,
        # A client that reads nothing reads no pong either: its own keep-alive pings would
        # close the connection (1011) once the test runs past their timeout on a slow host.
        ping_interval=None,
    ) as client:
        init = {"Authorization": f"Bearer {token}"}
        await client.send(json.dumps({"type": "connection_init", "payload": init}))
        assert json.loads(await client.recv())["type"] == "connection_ack"
        yield client


async def test_a_subscriber_that_reads_nothing_gets_the_latest_and_the_terminal_snapshot(
    backend: Backend,
) -> None:
    ws, comparison_id = await slow_setup(backend, cases=2)
    events = backend.state.events
    pending_before = gauge(PENDING)
    coalesced_before = gauge(COALESCED)
    async with stalled_client(backend, ws.tokens[Role.VIEWER]) as client:
        variables = {"id": comparison_id}
        message = {"query": SUBSCRIBE, "variables": variables}
        await client.send(json.dumps({"id": "1", "type": "subscribe", "payload": message}))
        frames = [json.loads(await client.recv())]
        # The client reads nothing from here on. Fat snapshots fill the socket buffers until
        # the server cannot send more: then one snapshot stays pending in the mailbox.
        subscribed = gauge(SUBSCRIPTIONS)
        async with subscription(backend, ws.tokens[Role.VIEWER], comparison_id) as clock:
            await anext(clock)  # the current snapshot
            probes = await fill_until_stuck(
                events, comparison_id, client, clock, pending_before
            )
        await eventually(
            lambda: gauge(SUBSCRIPTIONS), until=lambda n: n == subscribed, what="clock gone"
        )
        most_pending = 0.0
        for seq in range(probes + 1, probes + 10_001):
            status = "DONE" if seq == probes + 10_000 else "RUNNING"
            await progress_events.publish(events, comparison_id, fake_snapshot(seq, status=status))
            if seq % 50 == 0:
                most_pending = max(most_pending, gauge(PENDING) - pending_before)
        async with backend.sessionmaker() as session, session.begin():
            await session.execute(
                update(Comparison)
                .where(Comparison.id == comparison_id)
                .values(status=ComparisonStatus.DONE, seq=seq)
            )
        async with asyncio.timeout(20):
            while frames[-1]["type"] == "next":
                frames.append(json.loads(await client.recv()))
    assert frames[-1] == {"id": "1", "type": "complete"}
    snapshots = [f["payload"]["data"]["comparisonProgress"] for f in frames[:-1]]
    seqs = [s["seq"] for s in snapshots]
    assert seqs == sorted(set(seqs))
    # Of the 10,000 published while nothing was read, the terminal one reaches the client and
    # few others do: the server takes a snapshot only when the socket takes the last one's
    # bytes, and the kernel may still take some after `fill_until_stuck` (its send buffer
    # grows), so "the terminal alone" would judge the kernel, not the server.
    later = [s for s in snapshots if s["seq"] > probes]
    assert later[-1] == snapshots[-1] and len(later) <= 1_000, len(later)
    assert snapshots[-1]["seq"] == probes + 10_000 and snapshots[-1]["status"] == "DONE"
    assert most_pending <= 1
    assert gauge(COALESCED) - coalesced_before >= 900
    assert gauge(PENDING) == pending_before


# --- access --------------------------------------------------------------------------------


@pytest.mark.parametrize("role", list(Role))
async def test_every_role_may_watch_progress(backend: Backend, role: Role) -> None:
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
            async with aclosing(_progress(results)) as stream, asyncio.timeout(30):
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
