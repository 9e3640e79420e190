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

The plans are kept across operations of the same parsed document (Strawberry's parser cache
keeps it) when it has no directives, so what a selection completes to does not depend on
the variables: a polling portal's query is planned once, not on each request.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from inspect import iscoroutine
from threading import Lock
from typing import Any, Final

from cachetools import LRUCache
from graphql import (
    FieldNode,
    FragmentSpreadNode,
    GraphQLField,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    InlineFragmentNode,
    SelectionSetNode,
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
MAX_SHARED_PLANS: Final = 4096
"""Plans kept across operations: a few dozen per document is plenty."""
DEFINITION: Final = GraphQLCoreConverter.DEFINITION_BACKREF

Resolve = Callable[[Any, str], Any]
"""Strawberry's default resolver: (source, attribute) → value."""
Read = Callable[[Any, Path | None, "PlainFieldExecutor"], Any]
"""A sync resolver's value from its source, the field's path and the operation's executor
(for its `Info`)."""
Complete = Callable[[Any, Path | None, "PlainFieldExecutor"], Any]
"""A completed value from a resolved one (and its path), or `GIVE_UP`."""
Plan = tuple[Complete, bool]
"""A completion, and whether it needs the value's path (a resolver below asks for one)."""
FieldPlan = tuple[Resolve, str, Read | None, Complete, bool]
"""A plain field: read with (the default resolver, its attribute) or else with a direct
call of its resolver; its completion; whether either needs the field's path."""

_shared: LRUCache[tuple[Any, ...], tuple[object, Any]] = LRUCache(maxsize=MAX_SHARED_PLANS)
"""Plans by (kind, schema, type, is_awaitable, field node ids), least recently used first;
each entry holds the objects its key names by id, so no id is reused while it is kept."""
_shared_lock = Lock()
"""Apps served in threads of one process (the tests') share the plans."""


class PlainFieldExecutor(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's executor, with plain selections completed at once."""

    _plans: dict[tuple[str, int, int], tuple[FieldDetailsList, Any]] | None = None
    """This operation's plans of fields and of values, by (kind, type id, details id)."""
    _shareable: bool | None = None

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
                value = _attempt(plan, source, path, self)
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
                value = plan[0](result, path, self)
                if value is not GIVE_UP:
                    return value
        return super().complete_value(
            return_type, field_details_list, info, path, result, position_context
        )

    def _field(self, parent_type: GraphQLObjectType, details: FieldDetailsList) -> FieldPlan | None:
        """The plan of a plain field (None: not plain)."""
        plan: FieldPlan | None = self._planned("field", parent_type, details, self._build_field)
        return plan

    def _completer(self, type_: GraphQLOutputType, details: FieldDetailsList) -> Plan | None:
        """The short path of a selection (None: not plain)."""
        plan: Plan | None = self._planned("value", type_, details, self._build)
        return plan

    def _planned(
        self,
        kind: str,
        type_: Any,
        details: FieldDetailsList,
        build: Callable[[Any, FieldDetailsList], Any],
    ) -> Any:
        """`build(type_, details)` once per operation, looked up by the details list's id."""
        if self._plans is None:
            self._plans = {}
        key = (kind, id(type_), id(details))
        cached = self._plans.get(key)
        if cached is None:
            # The list is kept with its entry, so its id is not reused meanwhile.
            cached = self._plans[key] = (details, self._kept(kind, type_, details, build))
        return cached[1]

    def _kept(
        self,
        kind: str,
        type_: Any,
        details: FieldDetailsList,
        build: Callable[[Any, FieldDetailsList], Any],
    ) -> Any:
        """`build(type_, details)`, or the plan an earlier operation of this document built."""
        if not self._plans_shareable():
            return build(type_, details)
        nodes = tuple(d.node for d in details)
        key = (kind, id(self.schema), id(type_), self.is_awaitable, *map(id, nodes))
        with _shared_lock:
            entry = _shared.get(key)
            if entry is not None:
                return entry[1]
        plan = build(type_, details)  # outside the lock: it plans the fields below
        with _shared_lock:
            _shared[key] = ((self.schema, type_, nodes), plan)
        return plan

    def _plans_shareable(self) -> bool:
        """Whether the operation's plans hold for every operation of its document: no
        directive anywhere (so no variable decides what is collected), no middleware."""
        if self._shareable is None:
            sets = [self.operation.selection_set]
            sets += [f.selection_set for f in self.fragment_definitions.values()]
            self._shareable = (
                not _wrapped(self)
                and not self.operation.directives
                and not any(f.directives for f in self.fragment_definitions.values())
                and not any(_has_directives(s) for s in sets)
            )
        return self._shareable

    def _build_field(
        self, parent_type: GraphQLObjectType, details: FieldDetailsList
    ) -> FieldPlan | None:
        if any(d.fragment_variable_values for d in details):
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
        info_class, nodes = strawberry_schema.config.info_class, to_nodes(details)
        takes_self = resolver.self_parameter is not None
        info_name = resolver.info_parameter.name if resolver.info_parameter else None
        source_names = tuple(
            parameter.name
            for parameter in (resolver.parent_parameter, resolver.root_parameter)
            if parameter is not None
        )

        def call(source: Any, path: Path | None, executor: PlainFieldExecutor) -> Any:
            kwargs = dict.fromkeys(source_names, source)
            if info_name is not None:
                raw = executor.build_resolve_info(field_def, nodes, parent_type, path)  # type: ignore[arg-type]
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
            plan = self._field(inner, sub_details)
            if plan is None:
                return None
            fields.append((response_name, *plan))
        pathed = any(field[5] for field in fields)
        return _object(inner.name, tuple(fields), non_null, self.is_awaitable), pathed


def _wrapped(executor: StrawberryGraphQLCoreExecutionContext) -> bool:
    """Whether middleware wraps resolvers (Strawberry passes a manager without any)."""
    manager = executor.middleware_manager
    return manager is not None and bool(manager.middlewares)


def _has_directives(selection_set: SelectionSetNode | None) -> bool:
    """Whether a selection, a fragment spread or an inline fragment in it has a directive."""
    selections: Iterable[Any] = selection_set.selections if selection_set else ()
    for selection in selections:
        if selection.directives:
            return True
        if isinstance(selection, (FieldNode, InlineFragmentNode)) and _has_directives(
            selection.selection_set
        ):
            return True
        if not isinstance(selection, (FieldNode, InlineFragmentNode, FragmentSpreadNode)):
            return True  # a kind this check does not know: assume the worst
    return False


def _called(_source: Any, _name: str) -> Any:
    """The `Resolve` of a field read by a direct call instead (never called)."""
    raise AssertionError("a directly called field has no default resolver")


def _attempt(plan: FieldPlan, source: Any, path: Path | None, executor: PlainFieldExecutor) -> Any:
    """The field read and completed, or `GIVE_UP` (a coroutine it returned closed)."""
    resolve, name, call, complete, _ = plan
    value: Any = None
    try:
        value = resolve(source, name) if call is None else call(source, path, executor)
        completed = complete(value, path, executor)
    except Exception:  # graphql-core's path raises it again, located
        completed = GIVE_UP
    if completed is GIVE_UP and iscoroutine(value):
        value.close()
    return completed


def _coerce(leaf_type: Any, non_null: bool, is_awaitable: Callable[[Any], bool]) -> Complete:
    def complete(value: Any, _path: Path | None, _executor: PlainFieldExecutor) -> Any:
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
    def complete(value: Any, path: Path | None, executor: PlainFieldExecutor) -> Any:
        if value is None or value is Undefined:
            return GIVE_UP if non_null else None
        if type(value) is not list:
            return GIVE_UP
        if pathed:
            items = [item(e, Path(path, i, None), executor) for i, e in enumerate(value)]
        else:
            items = [item(e, None, executor) for e in value]
        return GIVE_UP if GIVE_UP in items else items  # completed values never equal it

    return complete


def _object(
    type_name: str,
    fields: tuple[tuple[str, Resolve, str, Read | None, Complete, bool], ...],
    non_null: bool,
    is_awaitable: Callable[[Any], bool],
) -> Complete:
    def complete(value: Any, path: Path | None, executor: PlainFieldExecutor) -> Any:
        if value is None or value is Undefined:
            return GIVE_UP if non_null else None
        if isinstance(value, Exception) or is_awaitable(value):
            return GIVE_UP
        result = {}
        for response_name, resolve, name, call, complete_field, pathed in fields:
            field_path = Path(path, response_name, type_name) if pathed else None
            resolved: Any = None
            try:
                if call is None:
                    resolved = resolve(value, name)
                else:
                    resolved = call(value, field_path, executor)
                completed = complete_field(resolved, field_path, executor)
            except Exception:  # graphql-core's path raises it again, located
                completed = GIVE_UP
            if completed is GIVE_UP:
                if iscoroutine(resolved):
                    resolved.close()
                return GIVE_UP
            result[response_name] = completed
        return result

    return complete
