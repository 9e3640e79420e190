"""The introspection queries that the standard tools send are answered, with or without a
token, and describe the schema in `schema.graphql`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from graphql import (
    GraphQLSchema,
    build_client_schema,
    build_schema,
    get_introspection_query,
    is_interface_type,
    is_object_type,
    lexicographic_sort_schema,
    print_schema,
)

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend

SDL = (Path(__file__).resolve().parents[3] / "schema.graphql").read_text()

EVERY_OPTION: dict[str, Any] = {
    "descriptions": True,
    "specified_by_url": True,
    "directive_is_repeatable": True,
    "schema_description": True,
    "input_value_deprecation": True,
    "one_of": True,
}
"""graphql-js `getIntrospectionQuery()` with each of its options on prints the same document
as graphql-core's with these (graphql 16.15): nine `ofType` levels in `TypeRef`."""


def _printed(schema: GraphQLSchema) -> str:
    return print_schema(lexicographic_sort_schema(schema))


@pytest.mark.parametrize("with_token", [True, False], ids=["token", "anonymous"])
@pytest.mark.parametrize("options", [{}, EVERY_OPTION], ids=["default", "every-option"])
async def test_the_standard_introspection_query_gives_the_whole_schema(
    backend: Backend, options: dict[str, Any], with_token: bool
) -> None:
    token = (await make_workspace(backend.sessionmaker)).owner if with_token else None
    result = await backend.gql(get_introspection_query(**options), token=token)
    assert result.status == 200
    introspected = build_client_schema(result.ok())
    expected = build_schema(SDL)
    if not options:  # without `specifiedByURL` the JSON scalar loses its @specifiedBy
        assert set(introspected.type_map) == set(expected.type_map)
        return
    assert _printed(introspected) == _printed(expected)
    schema = result.data["__schema"]
    assert {t["isOneOf"] for t in schema["types"]} == {False}  # no @oneOf input of ours
    assert {d["name"]: d["isRepeatable"] for d in schema["directives"]}["oneOf"] is False


def test_no_type_of_ours_has_a_field_named_of_type() -> None:
    """The depth rule counts any field named `ofType` as introspection's."""
    schema = build_schema(SDL)
    for name, named in schema.type_map.items():
        if (is_object_type(named) or is_interface_type(named)) and not name.startswith("__"):
            assert "ofType" not in named.fields, name
