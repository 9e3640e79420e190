"""How a compiled plan (server/api/http/compiled_plans.py) reaches a field's value: reading
its source's attribute, calling its resolver as Strawberry's wrapper would when the wrapper
would add nothing, or else through the schema's own resolver with the `Info` and arguments
graphql-core would give it. These read Strawberry's and graphql-core's internals
(pinned in pyproject.toml; `tests/server/http/test_compiled_plans_internals.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from graphql import FieldNode, GraphQLField, GraphQLObjectType, get_argument_values
from graphql.pyutils import Path
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.field import StrawberryField

from server.api.http.compiled_values import ExecutionContext

DEFINITION: Final = GraphQLCoreConverter.DEFINITION_BACKREF
"""Where a graphql-core field keeps its Strawberry definition."""

Resolve = Callable[[Any, Path | None, ExecutionContext], Any]
"""A field's resolved value from its source, its path and the request's executor."""


class FieldCalls:
    """A schema's way of calling its resolvers: its exception handlers and `Info` class."""

    def __init__(self, strawberry_schema: Any) -> None:
        converter = strawberry_schema.schema_converter
        self._handlers: Callable[[StrawberryField], Any] = converter._get_field_exception_handlers
        self._info_class: Any = strawberry_schema.config.info_class

    def direct_call(
        self,
        parent: GraphQLObjectType,
        field_def: GraphQLField,
        field: StrawberryField,
        nodes: list[FieldNode],
    ) -> tuple[Callable[..., Any], tuple[str, ...]] | tuple[Resolve, bool] | None:
        """A sync resolver called as Strawberry's wrapper would call it, when that wrapper
        would add nothing: no arguments, field extensions or exception handlers. Of `self`
        (and its parent or root) alone: the function and the names its source is passed by;
        else a call building what it takes, and whether it takes `Info` (so needs its
        path)."""
        resolver = field.base_resolver
        if resolver is None or resolver.is_async or field.extensions or field.arguments:
            return None
        if self._handlers(field):
            return None
        info_class = self._info_class
        takes_self = resolver.self_parameter is not None
        info_name = resolver.info_parameter.name if resolver.info_parameter else None
        source_names = tuple(
            parameter.name
            for parameter in (resolver.parent_parameter, resolver.root_parameter)
            if parameter is not None
        )

        function = resolver.wrapped_func  # what the resolver's `__call__` calls
        if not callable(function):
            return None
        if takes_self and info_name is None:  # most: `self` alone, or with its parent
            return function, source_names

        def call(source: Any, path: Path | None, executor: ExecutionContext) -> Any:
            kwargs = dict.fromkeys(source_names, source)
            if info_name is not None:
                raw = info(executor, field_def, nodes, parent, path)
                kwargs[info_name] = info_class(_raw_info=raw, _field=field)
            return function(source, **kwargs) if takes_self else function(**kwargs)

        return call, info_name is not None


def read_by_getattr(field_def: GraphQLField, field: Any) -> bool:
    """Whether Strawberry resolves the field by reading its source's attribute (no resolver,
    arguments or extensions: its default resolver, `getattr` unless configured)."""
    return (
        type(field) is StrawberryField
        and not field_def.args
        and getattr(field_def.resolve, "_is_default", False)
        and field.is_basic_field
        and field.default_resolver is getattr
    )


def info(
    executor: ExecutionContext,
    field_def: GraphQLField,
    nodes: list[FieldNode],
    parent: GraphQLObjectType,
    path: Path | None,
) -> Any:
    """The resolve info graphql-core would give the field (a field taking it has a path)."""
    assert path is not None
    return executor.build_resolve_info(field_def, nodes, parent, path)


def through_schema(
    parent: GraphQLObjectType, field_def: GraphQLField, nodes: list[FieldNode]
) -> Resolve | None:
    """Through the schema's resolver, as graphql-core calls it; None without one."""
    resolve = field_def.resolve
    if resolve is None:
        return None
    node = nodes[0]
    with_arguments = bool(field_def.args or node.arguments)

    def run(source: Any, path: Path | None, executor: ExecutionContext) -> Any:
        found = info(executor, field_def, nodes, parent, path)
        arguments = (
            get_argument_values(field_def, node, executor.variable_values) if with_arguments else {}
        )
        return resolve(source, found, **arguments)

    return run
