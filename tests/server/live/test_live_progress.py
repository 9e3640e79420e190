"""`liveComparisonProgress` over graphql-transport-ws: the state now, then each change as
traces are graded, ending after the decision; another workspace's id is NOT_FOUND."""

from __future__ import annotations

import asyncio
from contextlib import aclosing
from typing import Any

import pytest
from gql import Client, GraphQLRequest
from gql.transport.exceptions import TransportQueryError

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.comparisons.progress_api import transport
from tests.server.live.canary import create, pattern, post_release

SUBSCRIBE = """
subscription($id: ID!) {
  liveComparisonProgress(id: $id) {
    id status seq arms { release graded } decision { outcome }
  }
}
"""


async def test_progress_follows_grading_until_the_decision(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    live = await create(backend, ws)
    seen: list[dict[str, Any]] = []
    async with Client(transport=transport(backend, ws.tokens[Role.VIEWER])) as session:
        results = session.subscribe(GraphQLRequest(SUBSCRIBE, variable_values={"id": live["id"]}))
        async with aclosing(results):
            async with asyncio.timeout(60):
                async for result in results:
                    snapshot = result["liveComparisonProgress"]
                    seen.append(snapshot)
                    if len(seen) == 1:  # the state now: then the canary's traffic
                        assert snapshot["status"] == "RUNNING" and snapshot["decision"] is None
                        for _ in range(4):
                            await post_release(backend, ws, release="v2", passes=pattern(0.5, 50))
                            await post_release(backend, ws, release="v1", passes=[True] * 50)
    assert seen[-1]["status"] == "DECIDED"
    assert seen[-1]["decision"]["outcome"] == "DONT_SHIP"
    seqs = [s["seq"] for s in seen]
    assert seqs == sorted(set(seqs)) and len(seqs) >= 2


async def test_another_workspace_cannot_follow_it(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    live = await create(backend, ws)
    async with Client(transport=transport(backend, other.owner)) as session:
        with pytest.raises(TransportQueryError) as refused:
            async for _ in session.subscribe(
                GraphQLRequest(SUBSCRIBE, variable_values={"id": live["id"]})
            ):
                pass
    assert refused.value.errors and refused.value.errors[0]["extensions"]["code"] == "NOT_FOUND"
