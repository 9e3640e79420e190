"""Plain fields completed without graphql-core's per-field machinery.

A case page completes ~2,000 fields, most of them a scalar or enum attribute of a row
(`trialIndex`, `passed`, …) that Strawberry resolves with `getattr` and ignores the
resolve info of. graphql-core still builds a path-bound `GraphQLResolveInfo`, calls the
resolver through Strawberry's wrapper, checks for awaitables twice and walks
`complete_value` for each, and for each object of a list walks five more methods.

`PlainFieldExecutor` completes a *plain* selection at once. A plain field is one
Strawberry resolves with `getattr` alone, or with a sync resolver of no arguments, field
extensions or exception handlers, which is called directly with the `Info` Strawberry
would build (its path included): a comparison's `verdictState` or `cohorts`, read with
the page. A plain selection is a leaf, or an object (or list of them) whose selected
fields are all plain — the trials of a case, a page's edges and their nodes. Any value the
short path would not complete exactly as graphql-core does (None for a non-null field, an
exception, an awaitable, a failed coercion, a tuple where a list was expected) makes it
give up and take graphql-core's own path for the whole selection, so answers and errors
are unchanged; that path calls the same resolvers again, so they must only read (a
coroutine one returned is closed first). Selections with directives, deferred fragments
or `is_type_of` checks are never plain.
"""

from __future__ import annotations

from collections.abc import Callable
from inspect import iscoroutine
from typing import Any, Final

from graphql import (
    GraphQLField,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    is_leaf_type,
)
from graphql.execution.collect_fields import FieldDetailsList
from graphql.execution.executor import to_nodes
from graphql.pyutils import Path, Undefined
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.field import StrawberryField

GIVE_UP: Final = object()
"""What a short path returns where graphql-core's path must decide."""

Resolve = Callable[[Any, str], Any]
"""Strawberry's default resolver: (source, attribute) → value."""
Read = Callable[[Any, Path | None], Any]
"""A sync resolver's value from its source and the field's path (for its `Info`)."""
Complete = Callable[[Any, Path | None], Any]
"""A completed value from a resolved one (and its path), or `GIVE_UP`."""
Plan = tuple[Complete, bool]
"""A completion, and whether it needs the value's path (a resolver below asks for one)."""
FieldPlan = tuple[Resolve, str, Read | None, Complete, bool]
"""A plain field: read with (the default resolver, its attribute) or else with a direct
call of its resolver; its completion; whether either needs the field's path."""
DEFINITION: Final = GraphQLCoreConverter.DEFINITION_BACKREF


class PlainFieldExecutor(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's executor, with plain selections completed at once."""

    _fields: dict[tuple[int, int], tuple[FieldDetailsList, FieldPlan | None]] | None = None
    _plain: dict[tuple[int, int], tuple[FieldDetailsList, Plan | None]] | None = None

    def execute_field(
        self,
        parent_type: GraphQLObjectType,
        source: Any,
        field_details_list: FieldDetailsList,
        path: Path,
        position_context: Any,
    ) -> Any:
        if position_context is None:
            plan = self._field(parent_type, field_details_list)
            if plan is not None:
                value = _attempt(plan, source, path)
                if value is not GIVE_UP:
                    return value
        return super().execute_field(
            parent_type, source, field_details_list, path, position_context
        )

    def complete_value(
        self,
        return_type: GraphQLOutputType,
        field_details_list: FieldDetailsList,
        info: Any,
        path: Path,
        result: Any,
        position_context: Any,
    ) -> Any:
        if position_context is None and not is_leaf_type(return_type):
            plan = self._completer(return_type, field_details_list)
            if plan is not None:
                value = plan[0](result, path)
                if value is not GIVE_UP:
                    return value
        return super().complete_value(
            return_type, field_details_list, info, path, result, position_context
        )

    def _field(self, parent_type: GraphQLObjectType, details: FieldDetailsList) -> FieldPlan | None:
        """The plan of a plain field, built once per operation (None: not plain)."""
        if self._fields is None:
            self._fields = {}
        key = (id(parent_type), id(details))
        cached = self._fields.get(key)
        if cached is None:
            # The list is kept with its entry, so its id is not reused meanwhile.
            cached = self._fields[key] = (details, self._build_field(parent_type, details))
        return cached[1]

    def _completer(self, type_: GraphQLOutputType, details: FieldDetailsList) -> Plan | None:
        """The short path of a selection, built once per operation (None: not plain)."""
        if self._plain is None:
            self._plain = {}
        key = (id(type_), id(details))
        cached = self._plain.get(key)
        if cached is None:
            cached = self._plain[key] = (details, self._build(type_, details))
        return cached[1]

    def _build_field(
        self, parent_type: GraphQLObjectType, details: FieldDetailsList
    ) -> FieldPlan | None:
        if _wrapped(self):
            return None
        field_def = self.schema.get_field(parent_type, details[0].node.name.value)
        field = field_def.extensions.get(DEFINITION) if field_def is not None else None
        if field_def is None or field_def.args or type(field) is not StrawberryField:
            return None
        resolve: Resolve = _called
        call: Read | None = None
        if getattr(field_def.resolve, "_is_default", False) and field.is_basic_field:
            resolve = field.default_resolver
        else:
            call = self._direct_call(parent_type, field_def, field, details)
            if call is None:
                return None
        plan = self._completer(field_def.type, details)
        if plan is None:
            return None
        return resolve, field.python_name, call, plan[0], call is not None or plan[1]

    def _direct_call(
        self,
        parent_type: GraphQLObjectType,
        field_def: GraphQLField,
        field: StrawberryField,
        details: FieldDetailsList,
    ) -> Read | None:
        """A sync resolver called as Strawberry's wrapper would call it, when that wrapper
        would add nothing: no arguments, field extensions or exception handlers."""
        resolver = field.base_resolver
        if resolver is None or resolver.is_async or field.extensions or field.arguments:
            return None
        strawberry_schema = getattr(self.schema, "_strawberry_schema", None)
        handlers = getattr(
            getattr(strawberry_schema, "schema_converter", None),
            "_get_field_exception_handlers",
            None,
        )
        if strawberry_schema is None or handlers is None or handlers(field):
            return None
        info_class = strawberry_schema.config.info_class
        build_info, nodes = self.build_resolve_info, to_nodes(details)
        takes_self = resolver.self_parameter is not None
        info_name = resolver.info_parameter.name if resolver.info_parameter else None
        source_names = tuple(
            parameter.name
            for parameter in (resolver.parent_parameter, resolver.root_parameter)
            if parameter is not None
        )

        def call(source: Any, path: Path | None) -> Any:
            kwargs = dict.fromkeys(source_names, source)
            if info_name is not None:
                raw = build_info(field_def, nodes, parent_type, path)  # type: ignore[arg-type]
                kwargs[info_name] = info_class(_raw_info=raw, _field=field)
            return resolver(source, **kwargs) if takes_self else resolver(**kwargs)

        return call

    def _build(self, type_: GraphQLOutputType, details: FieldDetailsList) -> Plan | None:
        if _wrapped(self) or any(d.node.directives for d in details):
            return None
        non_null = isinstance(type_, GraphQLNonNull)
        inner = type_.of_type if isinstance(type_, GraphQLNonNull) else type_
        if isinstance(inner, GraphQLList):
            item = self._build(inner.of_type, details)
            return None if item is None else (_list(item[0], non_null, item[1]), item[1])
        if is_leaf_type(inner):
            return _coerce(inner, non_null, self.is_awaitable), False
        if not isinstance(inner, GraphQLObjectType) or inner.is_type_of is not None:
            return None
        grouped, defers, _ = self.collect_subfields(inner, details)
        if defers:
            return None
        fields = []
        for response_name, sub_details in grouped.items():
            plan = self._build_field(inner, sub_details)
            if plan is None:
                return None
            fields.append((response_name, *plan))
        pathed = any(field[5] for field in fields)
        return _object(inner.name, tuple(fields), non_null, self.is_awaitable), pathed


def _wrapped(executor: StrawberryGraphQLCoreExecutionContext) -> bool:
    """Whether middleware wraps resolvers (Strawberry passes a manager without any)."""
    manager = executor.middleware_manager
    return manager is not None and bool(manager.middlewares)


def _called(_source: Any, _name: str) -> Any:
    """The `Resolve` of a field read by a direct call instead (never called)."""
    raise AssertionError("a directly called field has no default resolver")


def _attempt(plan: FieldPlan, source: Any, path: Path | None) -> Any:
    """The field read and completed, or `GIVE_UP` (a coroutine it returned closed)."""
    resolve, name, call, complete, _ = plan
    value: Any = None
    try:
        value = resolve(source, name) if call is None else call(source, path)
        completed = complete(value, path)
    except Exception:  # graphql-core's path raises it again, located
        completed = GIVE_UP
    if completed is GIVE_UP and iscoroutine(value):
        value.close()
    return completed


def _coerce(leaf_type: Any, non_null: bool, is_awaitable: Callable[[Any], bool]) -> Complete:
    def complete(value: Any, _path: Path | None) -> Any:
        if value is None or value is Undefined:
            return GIVE_UP if non_null else None
        if isinstance(value, Exception) or is_awaitable(value):
            return GIVE_UP
        try:
            coerced = leaf_type.coerce_output_value(value)
        except Exception:
            return GIVE_UP
        return GIVE_UP if coerced is None or coerced is Undefined else coerced

    return complete


def _list(item: Complete, non_null: bool, pathed: bool) -> Complete:
    def complete(value: Any, path: Path | None) -> Any:
        if value is None or value is Undefined:
            return GIVE_UP if non_null else None
        if type(value) is not list:
            return GIVE_UP
        if pathed:
            items = [item(element, Path(path, i, None)) for i, element in enumerate(value)]
        else:
            items = [item(element, None) for element in value]
        return GIVE_UP if GIVE_UP in items else items  # completed values never equal it

    return complete


def _object(
    type_name: str,
    fields: tuple[tuple[str, Resolve, str, Read | None, Complete, bool], ...],
    non_null: bool,
    is_awaitable: Callable[[Any], bool],
) -> Complete:
    def complete(value: Any, path: Path | None) -> Any:
        if value is None or value is Undefined:
            return GIVE_UP if non_null else None
        if isinstance(value, Exception) or is_awaitable(value):
            return GIVE_UP
        result = {}
        for response_name, resolve, name, call, complete_field, pathed in fields:
            field_path = Path(path, response_name, type_name) if pathed else None
            resolved: Any = None
            try:
                resolved = resolve(value, name) if call is None else call(value, field_path)
                completed = complete_field(resolved, field_path)
            except Exception:  # graphql-core's path raises it again, located
                completed = GIVE_UP
            if completed is GIVE_UP:
                if iscoroutine(resolved):
                    resolved.close()
                return GIVE_UP
            result[response_name] = completed
        return result

    return complete
