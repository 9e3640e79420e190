"""What `server/api/http/compiled_plans.py`, `compiled_resolvers.py`, `compiled_values.py` and
`compiled_documents.py` rely on inside Strawberry and graphql-core, pinned: the releases
(exact in pyproject.toml), the executor methods they call and their signatures, and the
private members they read, each exercised on a real schema. An upgrade of either library
fails here first, naming what moved (as tests/jobs/test_arq_adapter.py does for arq)."""

from __future__ import annotations

import inspect
import tomllib
from enum import Enum
from importlib.metadata import version
from pathlib import Path
from typing import Any

import strawberry
from graphql import (
    GraphQLEnumType,
    GraphQLObjectType,
    GraphQLString,
    get_argument_values,
    get_named_type,
)
from graphql.execution.values import get_variable_values
from graphql.pyutils import Path as ResponsePath
from graphql.pyutils import Undefined
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext, validate_document
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.field import StrawberryField

from server.api.http import compiled_documents, compiled_resolvers

STRAWBERRY = "0.341.3"
GRAPHQL_CORE = "3.3.2"
PYPROJECT = Path(__file__).resolve().parents[3] / "pyproject.toml"

METHODS = {
    "build_resolve_info": ["self", "field_def", "field_nodes", "parent_type", "path"],
}
"""Each executor method the plans call, with its parameters."""
BUILD = [
    "schema", "document", "root_value", "context_value", "raw_variable_values", "operation_name",
]  # fmt: skip
"""The leading parameters of the executor's `build`, passed by position."""


def test_strawberry_and_graphql_core_are_the_pinned_releases() -> None:
    dependencies = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    assert f"strawberry-graphql=={STRAWBERRY}" in dependencies
    assert f"graphql-core=={GRAPHQL_CORE}" in dependencies
    assert version("strawberry-graphql") == STRAWBERRY
    assert version("graphql-core") == GRAPHQL_CORE


def test_the_executor_methods_keep_their_signatures() -> None:
    for name, parameters in METHODS.items():
        method = getattr(StrawberryGraphQLCoreExecutionContext, name)
        assert list(inspect.signature(method).parameters) == parameters, name
        assert not inspect.iscoroutinefunction(method), name
    build = inspect.signature(StrawberryGraphQLCoreExecutionContext.build).parameters
    assert list(build)[: len(BUILD)] == BUILD and "is_awaitable" in build
    validate = inspect.signature(validate_document).parameters
    assert list(validate) == ["schema", "document", "validation_rules"]
    arguments = inspect.signature(get_argument_values).parameters
    assert list(arguments)[:3] == ["type_def", "node", "variable_values"]
    coercion = inspect.signature(get_variable_values).parameters  # as `build` coerces
    assert list(coercion)[:3] == ["schema", "var_def_nodes", "inputs"] and "max_errors" in coercion
    assert build["max_coercion_errors"].default == compiled_documents.MAX_COERCION_ERRORS
    assert compiled_resolvers.DEFINITION == GraphQLCoreConverter.DEFINITION_BACKREF


@strawberry.enum
class Shade(Enum):
    DARK = "DARK"


@strawberry.type
class Leaf:
    label: str
    shade: Shade

    @strawberry.field
    def where(self, info: strawberry.Info) -> str:
        return str(info.path.as_list())


@strawberry.type
class Query:
    @strawberry.field
    def leaves(self) -> list[Leaf]:
        return [Leaf(label="a", shade=Shade.DARK)]


class Probe(StrawberryGraphQLCoreExecutionContext):
    """Graphql-core's executor, reading at the `leaves` field what the plans read."""

    seen: dict[str, Any]

    def build_resolve_info(
        self, field_def: Any, field_nodes: Any, parent_type: Any, path: ResponsePath
    ) -> Any:
        if field_nodes[0].name.value == "leaves":
            Probe.seen = self._read(parent_type, field_nodes, path)
        return super().build_resolve_info(field_def, field_nodes, parent_type, path)

    def _read(self, parent_type: Any, nodes: Any, path: ResponsePath) -> Any:
        field_def = parent_type.fields["leaves"]
        leaf_type = get_named_type(field_def.type)  # [Leaf!]!
        assert isinstance(leaf_type, GraphQLObjectType)
        strawberry_schema = self.schema._strawberry_schema  # type: ignore[attr-defined]
        label_def = leaf_type.fields["label"]
        where_def = leaf_type.fields["where"]
        where = where_def.extensions[GraphQLCoreConverter.DEFINITION_BACKREF]
        label = label_def.extensions[GraphQLCoreConverter.DEFINITION_BACKREF]
        where_node = nodes[0].selection_set.selections[2]
        info = self.build_resolve_info(
            where_def, [where_node], leaf_type, ResponsePath(path, 0, None)
        )
        return {
            "field": field_def.extensions[GraphQLCoreConverter.DEFINITION_BACKREF],
            "label": label,
            "label_default": getattr(label_def.resolve, "_is_default", None),
            "where": where,
            "handlers": strawberry_schema.schema_converter._get_field_exception_handlers(where),
            "info_class": strawberry_schema.config.info_class,
            "info": info,
            "middleware": self.middleware_manager,
            "awaitable": self.is_awaitable(object()),
            "variables": self.variable_values,
        }


def test_the_private_members_read_are_there_and_mean_the_same() -> None:
    schema = strawberry.Schema(query=Query, execution_context_class=Probe)
    result = schema.execute_sync("{ leaves { label shade where } }")
    assert result.errors is None and result.data == {
        "leaves": [{"label": "a", "shade": "DARK", "where": "['leaves', 0, 'where']"}]
    }
    seen = Probe.seen
    assert type(seen["field"]) is StrawberryField and seen["field"].python_name == "leaves"
    label: StrawberryField = seen["label"]
    assert label.is_basic_field and seen["label_default"] is True
    assert label.python_name == "label" and label.base_resolver is None
    assert not label.extensions and not label.arguments
    where: StrawberryField = seen["where"]
    resolver = where.base_resolver
    assert resolver is not None and not resolver.is_async
    assert resolver.self_parameter is not None and resolver.info_parameter is not None
    assert resolver.info_parameter.name == "info"
    assert resolver.parent_parameter is None and resolver.root_parameter is None
    assert seen["handlers"] == ()
    info = seen["info"]
    assert info.field_name == "where" and info.path.as_list() == ["leaves", 0]
    wrapped = seen["info_class"](_raw_info=info, _field=where)
    assert wrapped.path.as_list() == ["leaves", 0] and wrapped.field_name == "where"
    assert seen["middleware"] is None or not seen["middleware"].middlewares
    assert seen["awaitable"] is False
    assert seen["variables"] is not None  # what `get_argument_values` is given


def test_the_leaf_coercion_and_paths_used_behave_as_planned() -> None:
    assert GraphQLString.coerce_output_value("x") == "x"
    shade = strawberry.Schema(query=Query)._schema.get_type("Shade")
    assert isinstance(shade, GraphQLEnumType)
    assert shade.coerce_output_value(Shade.DARK) == "DARK"
    assert Undefined is not None and not Undefined
    path = ResponsePath(ResponsePath(None, "leaves", "Query"), 0, None)
    assert path.as_list() == ["leaves", 0] and path.typename is None
