"""What `server/api/http/plain_fields.py` relies on inside Strawberry and graphql-core,
pinned: the releases (exact in pyproject.toml), the executor methods it overrides or calls
and their signatures, and the private members it reads, each exercised on a real schema.
An upgrade of either library fails here first, naming what moved (as
tests/jobs/test_arq_adapter.py does for arq)."""

from __future__ import annotations

import inspect
import tomllib
from enum import Enum
from importlib.metadata import version
from pathlib import Path
from typing import Any

import strawberry
from graphql import (
    FieldNode,
    GraphQLEnumType,
    GraphQLObjectType,
    GraphQLString,
    get_named_type,
)
from graphql.execution.collect_fields import FieldDetails, FieldDetailsList
from graphql.execution.executor import to_nodes
from graphql.pyutils import Path as ResponsePath
from graphql.pyutils import Undefined
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.field import StrawberryField

from server.api.http import plain_fields
from server.api.http.plain_fields import PlainFieldExecutor

STRAWBERRY = "0.341.3"
GRAPHQL_CORE = "3.3.2"
PYPROJECT = Path(__file__).resolve().parents[3] / "pyproject.toml"

METHODS = {
    "execute_field": [
        "self", "parent_type", "source", "field_details_list", "path", "position_context",
    ],
    "complete_value": [
        "self", "return_type", "field_details_list", "info", "path", "result", "position_context",
    ],
    "collect_subfields": ["self", "return_type", "field_details_list"],
    "build_resolve_info": ["self", "field_def", "field_nodes", "parent_type", "path"],
}  # fmt: skip
"""Each executor method PlainFieldExecutor overrides or calls, with its parameters."""


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
    for name in ("execute_field", "complete_value"):
        assert name in vars(PlainFieldExecutor), name  # still overridden, so still called
    assert plain_fields.DEFINITION == GraphQLCoreConverter.DEFINITION_BACKREF


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
    """Graphql-core's executor, reading at the `leaves` field what PlainFieldExecutor reads."""

    seen: dict[str, Any]

    def execute_field(
        self,
        parent_type: Any,
        source: Any,
        field_details_list: FieldDetailsList,
        path: ResponsePath,
        position_context: Any,
    ) -> Any:
        if field_details_list[0].node.name.value == "leaves":
            Probe.seen = self._read(parent_type, field_details_list, path)
        return super().execute_field(
            parent_type, source, field_details_list, path, position_context
        )

    def _read(self, parent_type: Any, details: FieldDetailsList, path: ResponsePath) -> Any:
        field_def = self.schema.get_field(parent_type, "leaves")
        assert field_def is not None
        leaf_type = get_named_type(field_def.type)  # [Leaf!]!
        assert isinstance(leaf_type, GraphQLObjectType)
        grouped, defers, *rest = self.collect_subfields(leaf_type, details)
        strawberry_schema = self.schema._strawberry_schema  # type: ignore[attr-defined]
        label_def = leaf_type.fields["label"]
        where_def = leaf_type.fields["where"]
        where = where_def.extensions[GraphQLCoreConverter.DEFINITION_BACKREF]
        label = label_def.extensions[GraphQLCoreConverter.DEFINITION_BACKREF]
        info = self.build_resolve_info(
            where_def, to_nodes(grouped["where"]), leaf_type, ResponsePath(path, 0, None)
        )
        return {
            "details": details,
            "field": field_def.extensions[GraphQLCoreConverter.DEFINITION_BACKREF],
            "grouped": grouped,
            "defers": defers,
            "rest": rest,
            "label": label,
            "label_default": getattr(label_def.resolve, "_is_default", None),
            "where": where,
            "handlers": strawberry_schema.schema_converter._get_field_exception_handlers(where),
            "info_class": strawberry_schema.config.info_class,
            "info": info,
            "middleware": self.middleware_manager,
            "awaitable": self.is_awaitable(object()),
            "operation": self.operation,
            "fragments": self.fragment_definitions,
        }


def test_the_private_members_read_are_there_and_mean_the_same() -> None:
    schema = strawberry.Schema(query=Query, execution_context_class=Probe)
    result = schema.execute_sync("{ leaves { label shade where } }")
    assert result.errors is None and result.data == {
        "leaves": [{"label": "a", "shade": "DARK", "where": "['leaves', 0, 'where']"}]
    }
    seen = Probe.seen
    [detail] = seen["details"]
    assert isinstance(detail, FieldDetails) and isinstance(detail.node, FieldNode)
    assert detail.fragment_variable_values is None
    assert to_nodes(seen["details"]) == [detail.node]
    assert list(seen["grouped"]) == ["label", "shade", "where"] and not seen["defers"]
    assert len(seen["rest"]) == 1  # collect_subfields answers a triple
    assert type(seen["field"]) is StrawberryField and seen["field"].python_name == "leaves"
    label: StrawberryField = seen["label"]
    assert label.is_basic_field and seen["label_default"] is True
    assert label.default_resolver(Leaf(label="b", shade=Shade.DARK), label.python_name) == "b"
    assert label.base_resolver is None and not label.extensions and not label.arguments
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
    assert seen["operation"].selection_set is not None and seen["fragments"] == {}


def test_the_leaf_coercion_and_paths_used_behave_as_planned() -> None:
    assert GraphQLString.coerce_output_value("x") == "x"
    shade = strawberry.Schema(query=Query)._schema.get_type("Shade")
    assert isinstance(shade, GraphQLEnumType)
    assert shade.coerce_output_value(Shade.DARK) == "DARK"
    assert Undefined is not None and not Undefined
    path = ResponsePath(ResponsePath(None, "leaves", "Query"), 0, None)
    assert path.as_list() == ["leaves", 0] and path.typename is None
