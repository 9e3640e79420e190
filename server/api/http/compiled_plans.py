"""A query's selection compiled from the schema into one function per field and value.

graphql-core executes a document by walking it on every request: for each field it looks
the field up, builds a path-bound `GraphQLResolveInfo`, calls the resolver through
Strawberry's wrapper, checks for awaitables twice and walks `complete_value`, and each object
of a list walks five more methods. A case page completes ~2,000 fields that way. Here a
document's selection is planned once, from the schema's own types and Strawberry's field
definitions, into closures that do only what the field needs:

- a field Strawberry resolves with `getattr` (no resolver) is read with `getattr`;
- a sync resolver of no arguments, field extensions or exception handlers is called as
  Strawberry's wrapper would call it (its `Info` built only when it asks for one);
- any other field goes through the schema's own resolver (`field_def.resolve`), with its
  arguments coerced by graphql-core and its `Info` built by the executor;
- a leaf is serialized by its type (the built-in scalars' exact values at once), a list
  item by item and an object field by field, awaiting what its fields return together.

Anything the plan would not answer exactly as graphql-core does — an exception, None for a
non-null field, a value its type refuses, an object `is_type_of` denies — raises
`GiveUp`: the caller then leaves the whole operation to the schema, which calls the same
resolvers again (queries only read) and answers errors as ever. What cannot be planned (an
abstract type, a directive, introspection, fragment variables) is not compiled at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLField,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    InlineFragmentNode,
    SelectionSetNode,
    get_argument_values,
    is_leaf_type,
)
from graphql.pyutils import Path
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.field import StrawberryField

from server.api.http.compiled_values import (
    ExecutionContext,
    Run,
    leaf,
    list_of,
    nullable,
    object_of,
    required,
    settled,
)

DEFINITION: Final = GraphQLCoreConverter.DEFINITION_BACKREF
"""Where a graphql-core field keeps its Strawberry definition."""


class NotPlannable(Exception):
    """The document holds something a plan does not cover."""


class Planner:
    """Builds the plans of one document against one schema."""

    def __init__(
        self,
        strawberry_schema: Any,
        fragments: dict[str, FragmentDefinitionNode],
    ) -> None:
        self.strawberry_schema = strawberry_schema
        self.schema = strawberry_schema._schema
        self.fragments = fragments
        converter = strawberry_schema.schema_converter
        self._handlers: Callable[[StrawberryField], Any] = converter._get_field_exception_handlers
        self._info_class: Any = strawberry_schema.config.info_class

    def selection(
        self, type_: GraphQLObjectType, selections: Sequence[SelectionSetNode]
    ) -> tuple[Run, bool]:
        """The run of an object's selection (the selection sets that select it: a field's
        nodes', or an operation's), and whether it needs its path (a resolver below takes
        `Info`)."""
        grouped: dict[str, list[FieldNode]] = {}
        for selection_set in selections:
            self._collect(type_, selection_set, grouped)
        fields = [self._field(type_, key, found) for key, found in grouped.items()]
        pathed = any(field[2] for field in fields)
        return object_of(type_, tuple(fields)), pathed

    def _collect(
        self,
        type_: GraphQLObjectType,
        selections: SelectionSetNode,
        grouped: dict[str, list[FieldNode]],
    ) -> None:
        for selection in selections.selections:
            if selection.directives:
                raise NotPlannable("a directive")
            if isinstance(selection, FieldNode):
                key = selection.alias.value if selection.alias else selection.name.value
                grouped.setdefault(key, []).append(selection)
            elif isinstance(selection, FragmentSpreadNode):
                fragment = self.fragments[selection.name.value]
                if fragment.variable_definitions:
                    raise NotPlannable("fragment variables")
                self._on(type_, fragment.type_condition.name.value)
                self._collect(type_, fragment.selection_set, grouped)
            elif isinstance(selection, InlineFragmentNode):
                if selection.type_condition is not None:
                    self._on(type_, selection.type_condition.name.value)
                self._collect(type_, selection.selection_set, grouped)
            else:
                raise NotPlannable("a selection of another kind")

    @staticmethod
    def _on(type_: GraphQLObjectType, condition: str) -> None:
        if condition != type_.name:
            raise NotPlannable("a fragment on another type")

    def _field(
        self, parent: GraphQLObjectType, key: str, nodes: list[FieldNode]
    ) -> tuple[str, Run, bool]:
        """(response key, the field's run from its parent, whether it needs its path)."""
        name = nodes[0].name.value
        if name == "__typename":
            return key, _constant(parent.name), False
        field_def = parent.fields.get(name)
        if field_def is None:
            raise NotPlannable("introspection")
        complete, pathed = self.value(field_def.type, nodes)
        field = field_def.extensions.get(DEFINITION)
        plain = type(field) is StrawberryField and not field_def.args
        if plain and getattr(field_def.resolve, "_is_default", False) and field.is_basic_field:
            return key, _read(field.default_resolver, field.python_name, complete), pathed
        call = self._direct_call(parent, field_def, field, nodes) if plain else None
        if call is not None:
            run, with_info = call
            return key, _called(run, complete), with_info or pathed
        return key, _resolved(parent, field_def, nodes, complete), True

    def value(self, type_: GraphQLOutputType, nodes: Sequence[FieldNode]) -> tuple[Run, bool]:
        """The completion of a resolved value of `type_`, and whether it needs a path."""
        non_null = isinstance(type_, GraphQLNonNull)
        inner = type_.of_type if isinstance(type_, GraphQLNonNull) else type_
        if isinstance(inner, GraphQLList):
            item, pathed = self.value(inner.of_type, nodes)
            return list_of(item, non_null, pathed), pathed
        if is_leaf_type(inner):
            return leaf(inner, non_null), False
        if not isinstance(inner, GraphQLObjectType):
            raise NotPlannable("an abstract type")
        run, pathed = self.selection(inner, [n.selection_set for n in nodes if n.selection_set])
        return (required(run) if non_null else nullable(run)), pathed

    def _direct_call(
        self,
        parent: GraphQLObjectType,
        field_def: GraphQLField,
        field: StrawberryField,
        nodes: list[FieldNode],
    ) -> tuple[Run, bool] | None:
        """A sync resolver called as Strawberry's wrapper would call it, when that wrapper
        would add nothing: no arguments, field extensions or exception handlers; and
        whether it takes `Info` (so needs its path)."""
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
        if takes_self and info_name is None and not source_names:  # most: `self` alone
            return (lambda source, _path, _executor: function(source)), False

        def call(source: Any, path: Path | None, executor: ExecutionContext) -> Any:
            kwargs = dict.fromkeys(source_names, source)
            if info_name is not None:
                raw = _info(executor, field_def, nodes, parent, path)
                kwargs[info_name] = info_class(_raw_info=raw, _field=field)
            return function(source, **kwargs) if takes_self else function(**kwargs)

        return call, info_name is not None


# --- runs -----------------------------------------------------------------------------------


def _info(
    executor: ExecutionContext,
    field_def: GraphQLField,
    nodes: list[FieldNode],
    parent: GraphQLObjectType,
    path: Path | None,
) -> Any:
    """The resolve info graphql-core would give the field (a field taking it has a path)."""
    assert path is not None
    return executor.build_resolve_info(field_def, nodes, parent, path)


def _constant(value: Any) -> Run:
    return lambda _source, _path, _executor: value


def _read(resolve: Callable[[Any, str], Any], attribute: str, complete: Run) -> Run:
    """A field Strawberry reads with its default resolver (`getattr` unless configured)."""
    if resolve is getattr:

        def run(source: Any, path: Path | None, executor: ExecutionContext) -> Any:
            return complete(getattr(source, attribute), path, executor)

        return run
    return lambda source, path, executor: complete(resolve(source, attribute), path, executor)


def _called(call: Run, complete: Run) -> Run:
    def run(source: Any, path: Path | None, executor: ExecutionContext) -> Any:
        return settled(complete, call(source, path, executor), path, executor)

    return run


def _resolved(
    parent: GraphQLObjectType, field_def: GraphQLField, nodes: list[FieldNode], complete: Run
) -> Run:
    """Through the schema's resolver, as graphql-core calls it."""
    resolve = field_def.resolve
    if resolve is None:
        raise NotPlannable("a field without a resolver")
    node = nodes[0]
    with_arguments = bool(field_def.args or node.arguments)

    def run(source: Any, path: Path | None, executor: ExecutionContext) -> Any:
        info = _info(executor, field_def, nodes, parent, path)
        arguments = (
            get_argument_values(field_def, node, executor.variable_values) if with_arguments else {}
        )
        return settled(complete, resolve(source, info, **arguments), path, executor)

    return run
