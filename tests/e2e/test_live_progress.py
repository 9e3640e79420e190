"""Live progress end to end: a worker process publishes to Redis, API processes relay it to a
real graphql-transport-ws client (`gql`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from contextlib import aclosing
from typing import Any

import httpx
import psutil
import pytest
from gql import Client, GraphQLRequest
from gql.transport.websockets import WebsocketsTransport
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bench.kit.factories import (
    WorkspaceFixture,
    make_comparison,
    make_comparison_setup,
    make_workspace,
)
from bench.kit.waiting import eventually
from server.connections.service import Simulation
from server.workspaces.roles import Role
from tests.e2e.conftest import Deployment

pytestmark = pytest.mark.slow

SUBSCRIBE = """
subscription($id: ID!) { comparisonProgress(id: $id) {
  seq status stopReason doneCalls totalCalls failedCalls percent spentCentsSoFar
  cohorts { cohortIndex state } } }
"""
START = "mutation($id: ID!) { startComparison(id: $id) { id status } }"
PROGRESS = """
query($id: ID!) { comparison(id: $id) { progress {
  seq status stopReason doneCalls totalCalls failedCalls percent spentCentsSoFar
  cohorts { cohortIndex state } } } }
"""
CASES, TRIALS, COHORTS = 50, 2, 2  # 200 calls


async def gql_http(
    base_url: str, query: str, variables: dict[str, Any], token: str
) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        response = await client.post(
            "/graphql",
            json={"query": query, "variables": variables},
            headers={"Authorization": f"Bearer {token}"},
        )
    body: dict[str, Any] = response.json()
    assert not body.get("errors"), body
    data: dict[str, Any] = body["data"]
    return data


async def a_comparison(
    postgres_sessionmaker: async_sessionmaker[AsyncSession],
) -> tuple[WorkspaceFixture, str]:
    """A SETUP comparison of 200 SIMULATED calls at 40 ms, 8 at a time: about a second."""
    ws = await make_workspace(postgres_sessionmaker)
    setup = await make_comparison_setup(
        postgres_sessionmaker,
        ws,
        cases=CASES,
        cohorts=COHORTS,
        simulation=Simulation(latency_ms=40),
        max_concurrency=8,
    )
    return ws, await make_comparison(postgres_sessionmaker, setup, trials=TRIALS)


async def watch_while_starting(
    *, subscribe_url: str, start_url: str, ws: WorkspaceFixture, comparison_id: str
) -> list[dict[str, Any]]:
    """Subscribe on one API process, start the run on another (or the same), and collect
    every snapshot until the server completes the subscription."""
    transport = WebsocketsTransport(
        url=subscribe_url.replace("http://", "ws://") + "/graphql",
        init_payload={"Authorization": f"Bearer {ws.tokens[Role.VIEWER]}"},
        subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL],
    )
    request = GraphQLRequest(SUBSCRIBE, variable_values={"id": comparison_id})
    snapshots: list[dict[str, Any]] = []
    async with Client(transport=transport) as session:
        results: AsyncGenerator[dict[str, Any], None] = session.subscribe(request)
        async with aclosing(results), asyncio.timeout(60):
            snapshots.append((await anext(results))["comparisonProgress"])
            member = ws.tokens[Role.MEMBER]
            await gql_http(start_url, START, {"id": comparison_id}, member)
            snapshots.extend([result["comparisonProgress"] async for result in results])
    return snapshots


def assert_a_whole_run(snapshots: list[dict[str, Any]]) -> None:
    seqs = [s["seq"] for s in snapshots]
    assert seqs == sorted(set(seqs)), seqs
    statuses = [s["status"] for s in snapshots]
    assert list(dict.fromkeys(statuses)) == ["SETUP", "RUNNING", "DONE"], statuses
    done_calls = [s["doneCalls"] for s in snapshots]
    assert done_calls == sorted(done_calls)
    final = snapshots[-1]
    assert final["doneCalls"] == final["totalCalls"] == CASES * TRIALS * COHORTS
    assert final["stopReason"] == "COMPLETED" and final["percent"] == 100.0
    # The idle re-read of the row runs every 2 s: this many snapshots within a ~1 s run
    # came through the event stream.
    assert statuses.count("RUNNING") >= 4, statuses


async def test_a_client_follows_a_run_from_the_worker_process(
    deployment: Deployment, postgres_sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    deployment.start_worker()  # its start overlaps the API's
    api = await deployment.start_api()
    ws, comparison_id = await a_comparison(postgres_sessionmaker)
    snapshots = await watch_while_starting(
        subscribe_url=api, start_url=api, ws=ws, comparison_id=comparison_id
    )
    assert_a_whole_run(snapshots)
    row = await gql_http(api, PROGRESS, {"id": comparison_id}, ws.tokens[Role.VIEWER])
    assert snapshots[-1] == row["comparison"]["progress"]


async def test_a_subscriber_on_another_api_process_sees_the_run(
    deployment: Deployment, postgres_sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    deployment.start_worker()  # its start overlaps the APIs'
    starter, watcher = await asyncio.gather(deployment.start_api(), deployment.start_api())
    ws, comparison_id = await a_comparison(postgres_sessionmaker)
    snapshots = await watch_while_starting(
        subscribe_url=watcher, start_url=starter, ws=ws, comparison_id=comparison_id
    )
    assert_a_whole_run(snapshots)
    for api in (starter, watcher):
        row = await gql_http(api, PROGRESS, {"id": comparison_id}, ws.tokens[Role.VIEWER])
        assert snapshots[-1] == row["comparison"]["progress"]


async def test_serve_with_two_workers_relays_a_run_from_either_process(
    deployment: Deployment, postgres_sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    deployment.start_worker()  # its start overlaps the API's
    api = await deployment.start_api(workers=2)
    served = psutil.Process(deployment.processes[-1].pid)

    def api_processes() -> int:  # uvicorn's workers (not multiprocessing's resource tracker)
        return sum("spawn_main" in " ".join(child.cmdline()) for child in served.children())

    await eventually(api_processes, until=lambda n: n >= 2, timeout=30, what="two API processes")
    assert api_processes() == 2  # two API processes accept on the one port
    ws, comparison_id = await a_comparison(postgres_sessionmaker)
    # The subscription and the start may land on either process: events go through Redis.
    snapshots = await watch_while_starting(
        subscribe_url=api, start_url=api, ws=ws, comparison_id=comparison_id
    )
    assert_a_whole_run(snapshots)
    rows = [
        await gql_http(api, PROGRESS, {"id": comparison_id}, ws.tokens[Role.VIEWER])
        for _ in range(6)  # new connections land on either process
    ]
    assert all(row["comparison"]["progress"] == snapshots[-1] for row in rows)


async def test_served_websockets_are_not_compressed(deployment: Deployment) -> None:
    """Snapshots are small frames sent to every subscriber: per-message deflate would cost
    each of them CPU on both ends, so `shipwise serve` declines the client's offer (one
    set of uvicorn options serves `--workers N` too)."""
    import websockets

    api = await deployment.start_api()
    url = api.replace("http://", "ws://") + "/graphql"
    async with websockets.connect(url, subprotocols=["graphql-transport-ws"]) as ws:  # type: ignore[list-item]
        assert ws.request is not None and ws.response is not None
        assert "permessage-deflate" in ws.request.headers["Sec-WebSocket-Extensions"]
        assert "Sec-WebSocket-Extensions" not in ws.response.headers
        assert ws.subprotocol == "graphql-transport-ws"
