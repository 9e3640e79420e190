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

from collections.abc import Callable, Coroutine, Generator, Sequence
from inspect import iscoroutine
from math import isfinite
from typing import Any, Final, TypeAlias, cast

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLBoolean,
    GraphQLEnumType,
    GraphQLField,
    GraphQLFloat,
    GraphQLID,
    GraphQLInt,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLString,
    InlineFragmentNode,
    SelectionSetNode,
    get_argument_values,
    is_leaf_type,
)
from graphql.execution import Executor
from graphql.pyutils import Path, Undefined, gather_with_cancel
from strawberry.execution.is_awaitable import optimized_is_awaitable
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.field import StrawberryField

DEFINITION: Final = GraphQLCoreConverter.DEFINITION_BACKREF
"""Where a graphql-core field keeps its Strawberry definition."""
INT_RANGE: Final = range(-(2**31), 2**31)

ExecutionContext: TypeAlias = Executor[Any]
"""The request's executor: its coerced variables, and the `Info` it builds for a resolver."""
Run = Callable[[Any, Path | None, ExecutionContext], Any]
"""A value from its source (or a resolved value), its path and the request's executor:
the completed value, or an awaitable of it."""


class GiveUp(Exception):
    """The plan cannot answer this request as graphql-core would: the schema answers."""


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
        return _object(type_, tuple(fields)), pathed

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
            return _list(item, non_null, pathed), pathed
        if is_leaf_type(inner):
            return _leaf(inner, non_null), False
        if not isinstance(inner, GraphQLObjectType):
            raise NotPlannable("an abstract type")
        run, pathed = self.selection(inner, [n.selection_set for n in nodes if n.selection_set])
        return _nullable(run) if not non_null else _non_null(run), pathed

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


class _Pending:
    """A value still to come: awaited once, or closed with its unstarted parts (a resolver's
    coroutine under it never runs, and never warns that it was not awaited)."""

    __slots__ = ("_parts", "_start")

    def __init__(self, start: Callable[[], Coroutine[Any, Any, Any]], parts: list[Any]) -> None:
        self._start = start
        self._parts = parts

    def __await__(self) -> Generator[Any, None, Any]:
        return self._start().__await__()

    def close(self) -> None:
        _close(self._parts)


def _settled(complete: Run, value: Any, path: Path | None, executor: ExecutionContext) -> Any:
    """`value` completed, awaited first when a resolver returned an awaitable."""
    if optimized_is_awaitable(value):

        async def later() -> Any:
            done = complete(await value, path, executor)
            return await done if optimized_is_awaitable(done) else done

        return _Pending(later, [value])
    return complete(value, path, executor)


def _called(call: Run, complete: Run) -> Run:
    def run(source: Any, path: Path | None, executor: ExecutionContext) -> Any:
        return _settled(complete, call(source, path, executor), path, executor)

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
        return _settled(complete, resolve(source, info, **arguments), path, executor)

    return run


_EXACT: Final[dict[Any, type]] = {
    GraphQLString: str,
    GraphQLID: str,
    GraphQLBoolean: bool,
    GraphQLInt: int,
    GraphQLFloat: float,
}
"""Built-in scalars whose value of this exact type is its own serialization (an Int in
range, a finite Float): anything else goes through the type's own coercion."""


def _leaf(leaf_type: Any, non_null: bool) -> Run:
    coerce = leaf_type.coerce_output_value
    exact = _EXACT.get(leaf_type)
    # An enum's serialization is a function of the value alone, and its values are few:
    # each one is coerced once and then looked up.
    memo: dict[Any, Any] | None = {} if isinstance(leaf_type, GraphQLEnumType) else None

    def complete(value: Any, _path: Path | None, _executor: ExecutionContext) -> Any:
        if value is None or value is Undefined:
            if non_null:
                raise GiveUp
            return None
        kind = type(value)
        if kind is exact and (
            (kind is not int or value in INT_RANGE) and (kind is not float or isfinite(value))
        ):
            return value
        if memo is not None:
            try:
                return memo[value]
            except (KeyError, TypeError):
                pass
        coerced = coerce(value)
        if coerced is None or coerced is Undefined:
            raise GiveUp
        if memo is not None and len(memo) < _MEMO:
            try:
                memo[value] = coerced
            except TypeError:  # unhashable: coerced each time
                pass
        return coerced

    return complete


_MEMO: Final = 1024
"""Enum values kept serialized per type (an enum has a few dozen at most)."""


def _list(item: Run, non_null: bool, pathed: bool) -> Run:
    def complete(value: Any, path: Path | None, executor: ExecutionContext) -> Any:
        if value is None or value is Undefined:
            if non_null:
                raise GiveUp
            return None
        if type(value) not in (list, tuple):
            raise GiveUp  # another iterable: graphql-core's to judge
        items: list[Any] = []
        try:
            if pathed:
                items.extend(item(v, Path(path, i, None), executor) for i, v in enumerate(value))
            else:
                items.extend(item(v, None, executor) for v in value)
        except BaseException:
            _close(items)
            raise
        return _gathered_list(items)

    return complete


def _nullable(run: Run) -> Run:
    def complete(value: Any, path: Path | None, executor: ExecutionContext) -> Any:
        if value is None or value is Undefined:
            return None
        return run(value, path, executor)

    return complete


def _non_null(run: Run) -> Run:
    def complete(value: Any, path: Path | None, executor: ExecutionContext) -> Any:
        if value is None or value is Undefined:
            raise GiveUp
        return run(value, path, executor)

    return complete


def _object(type_: GraphQLObjectType, fields: tuple[tuple[str, Run, bool], ...]) -> Run:
    is_type_of = type_.is_type_of
    name = type_.name

    def complete(value: Any, path: Path | None, executor: ExecutionContext) -> Any:
        if is_type_of is not None and not is_type_of(value, cast(Any, None)):  # info unread
            raise GiveUp
        result: dict[str, Any] = {}
        pending: list[str] | None = None
        try:
            for key, run, pathed in fields:
                done = run(value, Path(path, key, name) if pathed else None, executor)
                result[key] = done
                if optimized_is_awaitable(done):
                    if pending is None:
                        pending = []
                    pending.append(key)
        except BaseException:
            _close(result[key] for key in pending or ())
            raise
        if pending is None:
            return result
        return _Pending(lambda: _gathered_object(result, pending), [result[key] for key in pending])

    return complete


async def _gathered_object(result: dict[str, Any], pending: list[str]) -> dict[str, Any]:
    if len(pending) == 1:
        result[pending[0]] = await result[pending[0]]
        return result
    done = await gather_with_cancel(*(result[key] for key in pending))
    result.update(zip(pending, done, strict=True))
    return result


def _gathered_list(items: list[Any]) -> Any:
    waiting = [i for i, item in enumerate(items) if optimized_is_awaitable(item)]
    if not waiting:
        return items

    async def later() -> list[Any]:
        done = await gather_with_cancel(*(items[i] for i in waiting))
        for i, value in zip(waiting, done, strict=True):
            items[i] = value
        return items

    return _Pending(later, [items[i] for i in waiting])


def _close(awaitables: Any) -> None:
    """Coroutines never to be awaited, closed (no warning, nothing left running)."""
    for awaitable in awaitables:
        if iscoroutine(awaitable) or isinstance(awaitable, _Pending):
            awaitable.close()
