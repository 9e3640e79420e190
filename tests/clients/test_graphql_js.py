"""graphql-js's own introspection query, every option on (as GraphQL Code Generator, Apollo,
Altair, Insomnia and Postman build theirs), answered by a live server with the whole schema."""

from __future__ import annotations

import json

import pytest
from graphql import build_client_schema, build_schema, lexicographic_sort_schema, print_schema

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from tests.clients import node
from tests.server.http.test_introspection import SDL


@pytest.mark.parametrize("with_token", [True, False], ids=["token", "anonymous"])
async def test_graphql_js_introspection_gives_the_whole_schema(
    sqlite_backend: Backend, with_token: bool
) -> None:
    executable = node.require_packages("graphql")
    url = f"{sqlite_backend.base_url}/graphql"
    args = ["scripts/introspect.mjs", url]
    if with_token:
        args.append((await make_workspace(sqlite_backend.sessionmaker)).owner)
    answer = json.loads(await node.run(executable, *args))
    assert answer["query"].count("ofType") == 9 and "isOneOf" in answer["query"]
    assert answer["status"] == 200, answer["body"]
    assert answer["contentType"].startswith("application/graphql-response+json")
    assert "errors" not in answer["body"]
    introspected = build_client_schema(answer["body"]["data"])
    expected = build_schema(SDL)
    assert print_schema(lexicographic_sort_schema(introspected)) == print_schema(
        lexicographic_sort_schema(expected)
    )
