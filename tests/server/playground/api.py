"""What the Playground's tests share: its operations, and a subscription's snapshots."""

from __future__ import annotations

import asyncio
from typing import Any

from gql import Client, GraphQLRequest
from gql.transport.websockets import WebsocketsTransport

from bench.kit.harness import Backend

CELL = (
    "paneIndex caseId status output errorCode error inputTokens outputTokens costCents "
    "latencyMs passed checks { kind passed }"
)
RUN = f"""mutation($input: PlaygroundRunInput!) {{
  playgroundRun(input: $input) {{ id seq status cells {{ {CELL} }} }}
}}"""
STOP = f"mutation($id: ID!) {{ stopPlaygroundRun(id: $id) {{ id status cells {{ {CELL} }} }} }}"
PROGRESS = f"""subscription($id: ID!) {{
  playgroundRunProgress(id: $id) {{ id seq status cells {{ {CELL} }} }}
}}"""
CONNECTION = """mutation($input: CreateModelConnectionInput!) {
  createModelConnection(input: $input) { id status }
}"""
EVENTS = "{ auditEvents(first: 100) { edges { node { action targetId details } } } }"


def transport(backend: Backend, token: str) -> WebsocketsTransport:
    return WebsocketsTransport(
        url=backend.ws_url,
        init_payload={"Authorization": f"Bearer {token}"},
        subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL],
    )


async def snapshots(backend: Backend, token: str, run_id: str) -> list[dict[str, Any]]:
    """Every snapshot of the run until the server ends the subscription."""
    seen: list[dict[str, Any]] = []
    async with Client(transport=transport(backend, token)) as session, asyncio.timeout(30):
        request = GraphQLRequest(PROGRESS, variable_values={"id": run_id})
        async for result in session.subscribe(request):
            seen.append(result["playgroundRunProgress"])
    return seen


async def connection(backend: Backend, token: str, **fields: Any) -> str:
    result = await backend.gql(CONNECTION, {"input": {"name": "conn", **fields}}, token=token)
    created = result.ok()["createModelConnection"]
    assert created["status"] == "READY"
    return str(created["id"])


def pane(connection_id: str, **fields: Any) -> dict[str, Any]:
    return {
        "connectionId": connection_id,
        "model": "fake-1",
        "maxTokens": 64,
        "messages": [{"role": "user", "content": "Say hello to {{ name }}."}],
        **fields,
    }
