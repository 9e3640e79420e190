"""`gql`, the Python GraphQL client, against a live server: it loads the schema by
introspection (`fetch_schema_from_transport`) over HTTP and over graphql-transport-ws,
checks its documents against it, runs a query and follows `comparisonProgress` to its end."""

from __future__ import annotations

import asyncio
from contextlib import aclosing
from typing import Any

import pytest
from gql import Client, GraphQLRequest
from gql.transport.aiohttp import AIOHTTPTransport
from gql.transport.websockets import WebsocketsTransport
from graphql import GraphQLError, build_schema, lexicographic_sort_schema, print_schema

from bench.kit.factories import make_comparison, make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from server.connections.service import Simulation
from server.workspaces.roles import Role
from tests.server.http.test_introspection import SDL

EVERY_OPTION = {
    "descriptions": True,
    "specified_by_url": True,
    "directive_is_repeatable": True,
    "schema_description": True,
    "input_value_deprecation": True,
    "input_object_one_of": True,
}
"""`gql.utilities.get_introspection_query_ast`'s options, all on."""

ME = "{ me { role member { name } workspace { settings { allowHostedRuns } } } }"
START = "mutation($id: ID!) { startComparison(id: $id) { id status } }"
SUBSCRIBE = """
subscription($id: ID!) { comparisonProgress(id: $id) {
  seq status stopReason doneCalls totalCalls percent cohorts { cohortIndex state } } }
"""


def _http(backend: Backend, token: str | None) -> AIOHTTPTransport:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    return AIOHTTPTransport(url=f"{backend.base_url}/graphql", headers=headers)


@pytest.mark.parametrize("options", [{}, EVERY_OPTION], ids=["default", "every-option"])
async def test_gql_loads_the_schema_and_runs_a_query(
    backend: Backend, options: dict[str, Any]
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    anonymous = Client(
        transport=_http(backend, None), fetch_schema_from_transport=True, introspection_args=options
    )
    async with anonymous:
        assert anonymous.schema is not None
        loaded = print_schema(lexicographic_sort_schema(anonymous.schema))
    if options:
        assert loaded == print_schema(lexicographic_sort_schema(build_schema(SDL)))
    else:  # without `specifiedByURL` the JSON scalar loses its @specifiedBy
        assert set(anonymous.schema.type_map) == set(build_schema(SDL).type_map)
    owner = Client(
        transport=_http(backend, ws.owner),
        fetch_schema_from_transport=True,
        introspection_args=options,
    )
    async with owner as session:
        assert owner.schema is not None and owner.schema.subscription_type is not None
        assert "comparisonProgress" in owner.schema.subscription_type.fields
        result = await session.execute(GraphQLRequest(ME))
        with pytest.raises(GraphQLError, match="Cannot query field 'nope'"):
            await session.execute(GraphQLRequest("{ me { nope } }"))  # checked by the client
    assert result == {
        "me": {
            "role": "OWNER",
            "member": {"name": "owner"},
            "workspace": {"settings": {"allowHostedRuns": True}},
        }
    }


async def test_gql_follows_comparison_progress_to_its_end(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(
        backend.sessionmaker, ws, cases=10, simulation=Simulation(latency_ms=20)
    )
    comparison_id = await make_comparison(backend.sessionmaker, setup, trials=2)
    websocket = WebsocketsTransport(
        url=backend.ws_url,
        init_payload={"Authorization": f"Bearer {ws.tokens[Role.VIEWER]}"},
        subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL],
    )
    viewer = Client(transport=websocket, fetch_schema_from_transport=True)
    member = Client(transport=_http(backend, ws.tokens[Role.MEMBER]))
    snapshots: list[dict[str, Any]] = []
    async with viewer as watching, member as acting:
        assert viewer.schema is not None  # introspected over the websocket
        request = GraphQLRequest(SUBSCRIBE, variable_values={"id": comparison_id})
        async with asyncio.timeout(30), aclosing(watching.subscribe(request)) as results:
            async for result in results:
                snapshots.append(result["comparisonProgress"])
                if len(snapshots) == 1:
                    started = await acting.execute(
                        GraphQLRequest(START, variable_values={"id": comparison_id})
                    )
                    assert started["startComparison"]["id"] == comparison_id
    statuses = [s["status"] for s in snapshots]
    assert statuses[0] == "SETUP" and statuses[-1] == "DONE" and "RUNNING" in statuses
    seqs = [s["seq"] for s in snapshots]
    assert seqs == sorted(set(seqs))
    final = snapshots[-1]
    assert final["doneCalls"] == final["totalCalls"] == 10 * 2 * 2
    assert final["percent"] == 100.0 and final["stopReason"] == "COMPLETED"
