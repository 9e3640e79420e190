"""The demo's traced agent (server/cli/demo_agent.py): its OTLP exports fill `/traces`, and
the demo's live comparison of `capitals v2` against `capitals v1` reaches DONT_SHIP within
a minute."""

from __future__ import annotations

import asyncio

from bench.kit.factories import actor_for, make_workspace
from bench.kit.harness import Backend
from bench.kit.waiting import API_POLL_SECONDS, eventually
from server.cli import demo_agent
from server.workspaces.roles import Role

READ = """query($id: ID!) { liveComparison(id: $id) {
  status arms { release graded } decision { outcome sentence } } }"""
TRACES = 'query { traces(first: 1, filter: {service: "capitals-agent"}) { totalCount } }'


async def test_the_demo_canary_is_dont_ship_within_a_minute(sqlite_backend: Backend) -> None:
    backend = sqlite_backend
    ws = await make_workspace(backend.sessionmaker)
    async with backend.sessionmaker() as session, session.begin():
        live_id = await demo_agent.seed_live(session=session, actor=actor_for(ws, Role.OWNER))
    async with backend.sessionmaker() as session, session.begin():
        again = await demo_agent.seed_live(session=session, actor=actor_for(ws, Role.OWNER))
    assert again == live_id  # a later start watches the same running canary
    agent = asyncio.create_task(demo_agent.run_agent(backend.base_url, ws.owner, total=800))
    try:
        found = await eventually(
            lambda: backend.gql(READ, {"id": live_id}, token=ws.owner),
            until=lambda r: r.ok()["liveComparison"]["status"] != "RUNNING",
            timeout=60,
            interval=API_POLL_SECONDS,
            what="the demo canary's decision",
        )
    finally:
        agent.cancel()
    live = found.ok()["liveComparison"]
    assert live["decision"]["outcome"] == "DONT_SHIP", live
    assert live["decision"]["sentence"].startswith("Don't ship capitals v2")
    traces = (await backend.gql(TRACES, token=ws.owner)).ok()["traces"]["totalCount"]
    assert traces >= 40
