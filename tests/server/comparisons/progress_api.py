"""`comparisonProgress` through real graphql-transport-ws clients: a `gql` subscription,
a client that stops reading, the metrics the server keeps of its subscribers."""

from __future__ import annotations

import asyncio
import json
import socket as sockets
from collections.abc import AsyncGenerator, AsyncIterator, Iterator
from contextlib import AsyncExitStack, aclosing, asynccontextmanager, contextmanager
from typing import Any

import websockets
from gql import Client, GraphQLRequest
from gql.transport.websockets import WebsocketsTransport
from websockets.asyncio.client import ClientConnection

from bench.kit.factories import make_comparison, make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from server.comparisons.progress import CohortProgress, Progress
from server.connections.service import Simulation
from server.metrics import REGISTRY

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


async def snapshots_of(
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
        async with aclosing(snapshots_of(results)) as snapshots:
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
    return gauge(SUBSCRIPTIONS)


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


@contextmanager
def server_pings_off(backend: Backend) -> Iterator[None]:
    """Connections the server accepts meanwhile get no keep-alive pings from it. The server
    closes a connection that answers no ping for `ws_ping_interval` + `ws_ping_timeout`
    (40 s); a client that reads nothing reads no ping either, and the slow-subscriber test
    runs longer than that on a loaded host."""
    config = backend.server_config
    assert config is not None, "a backend from bench.kit.harness.start_backend"
    pings, config.ws_ping_interval = config.ws_ping_interval, None
    try:
        yield
    finally:
        config.ws_ping_interval = pings


@asynccontextmanager
async def stalled_client(backend: Backend, token: str) -> AsyncIterator[ClientConnection]:
    """A graphql-transport-ws client whose socket buffers barely anything: once it stops
    reading, the server soon cannot send it more."""
    raw = sockets.socket()
    raw.setsockopt(sockets.SOL_SOCKET, sockets.SO_RCVBUF, 4096)
    raw.setsockopt(sockets.IPPROTO_TCP, sockets.TCP_MAXSEG, 536)  # shrinks the server's send buffer
    raw.setblocking(False)
    host, _, port = backend.base_url.removeprefix("http://").partition(":")
    async with AsyncExitStack() as stack:
        with server_pings_off(backend):  # until the handshake: the server has made its side
            await asyncio.get_running_loop().sock_connect(raw, (host, int(port)))
            client = await stack.enter_async_context(
                websockets.connect(
                    backend.ws_url,
                    subprotocols=[PROTOCOL],  # type: ignore[list-item]
                    compression=None,  # compressed snapshots would take far longer to fill
                    max_queue=1,
                    sock=raw,
                    # A client that reads nothing reads no pong either: its own keep-alive
                    # pings would close the connection (1011) past their timeout.
                    ping_interval=None,
                )
            )
        init = {"Authorization": f"Bearer {token}"}
        await client.send(json.dumps({"type": "connection_init", "payload": init}))
        assert json.loads(await client.recv())["type"] == "connection_ack"
        yield client
