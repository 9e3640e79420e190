"""A subscriber that reads nothing: the server keeps one snapshot for it, the latest, and the
terminal one always reaches it."""

from __future__ import annotations

import asyncio
import fcntl
import json
import struct
import termios
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import update
from websockets.asyncio.client import ClientConnection

from bench.kit.harness import Backend
from bench.kit.waiting import eventually
from server.comparisons import progress as progress_events
from server.comparisons.models import Comparison, ComparisonStatus
from server.runtime.interfaces import EventBus
from server.workspaces.roles import Role
from tests.server.comparisons.progress_api import (
    COALESCED,
    PENDING,
    SUBSCRIBE,
    SUBSCRIPTIONS,
    fake_snapshot,
    gauge,
    slow_setup,
    stalled_client,
    subscription,
)


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
