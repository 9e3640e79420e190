"""Plain fields completed without graphql-core's per-field machinery.

A case page completes ~2,000 fields, most of them a scalar or enum attribute of a row
(`trialIndex`, `passed`, …) that Strawberry resolves with `getattr` and ignores the
resolve info of. graphql-core still builds a path-bound `GraphQLResolveInfo`, calls the
resolver through Strawberry's wrapper, checks for awaitables twice and walks
`complete_value` for each, and for each object of a list walks five more methods.

`PlainFieldExecutor` completes a *plain* selection at once: a leaf read with Strawberry's
basic resolver, or an object (or list of them) whose selected fields are all plain — the
trials of a case, a case's cohorts, a page's edges. Any value the short path would not
complete exactly as graphql-core does (None for a non-null field, an exception, an
awaitable, a failed coercion, a tuple where a list was expected) makes it give up and take
graphql-core's own path for the whole selection, so answers and errors are unchanged.
Selections with directives, deferred fragments or `is_type_of` checks are never plain.
"""

from __future__ import annotations

from collections.abc import Callable
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
from graphql.pyutils import Path, Undefined
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.schema.schema_converter import GraphQLCoreConverter

GIVE_UP: Final = object()
"""What a short path returns where graphql-core's path must decide."""

Resolve = Callable[[Any, str], Any]
Complete = Callable[[Any], Any]
"""A completed value from a resolved one, or `GIVE_UP`."""

Leaf = tuple[Resolve, str, Complete]
"""(the default resolver, the attribute, its completion) of a plain leaf field."""


def _basic(field_def: GraphQLField) -> tuple[Resolve, str] | None:
    """(resolver, attribute) of a field Strawberry resolves with `getattr` alone."""
    if not getattr(field_def.resolve, "_is_default", False) or field_def.args:
        return None
    strawberry_field = field_def.extensions.get(GraphQLCoreConverter.DEFINITION_BACKREF)
    if strawberry_field is None or not strawberry_field.is_basic_field:
        return None
    return strawberry_field.default_resolver, strawberry_field.python_name


class PlainFieldExecutor(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's executor, with plain selections completed at once."""

    _leaves: dict[tuple[int, str], Leaf | None] | None = None
    _plain: dict[tuple[int, int], tuple[FieldDetailsList, Complete | None]] | None = None

    def execute_field(
        self,
        parent_type: GraphQLObjectType,
        source: Any,
        field_details_list: FieldDetailsList,
        path: Path,
        position_context: Any,
    ) -> Any:
        leaf = self._leaf(parent_type, field_details_list[0].node.name.value)
        if leaf is not None:
            resolve, name, complete = leaf
            try:
                value = complete(resolve(source, name))
            except Exception:  # graphql-core's path raises it again, located
                value = GIVE_UP
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
            complete = self._completer(return_type, field_details_list)
            if complete is not None:
                value = complete(result)
                if value is not GIVE_UP:
                    return value
        return super().complete_value(
            return_type, field_details_list, info, path, result, position_context
        )

    def _leaf(self, parent_type: GraphQLObjectType, field_name: str) -> Leaf | None:
        """The plan of a plain leaf field, built once per operation (None: not plain)."""
        if self._leaves is None:
            self._leaves = {}
        key = (id(parent_type), field_name)
        try:
            return self._leaves[key]
        except KeyError:
            plan = self._leaves[key] = self._build_leaf(parent_type, field_name)
            return plan

    def _build_leaf(self, parent_type: GraphQLObjectType, field_name: str) -> Leaf | None:
        field_def = self.schema.get_field(parent_type, field_name)
        basic = _basic(field_def) if field_def is not None else None
        if field_def is None or basic is None or _wrapped(self):
            return None
        leaf_type = field_def.type
        non_null = isinstance(leaf_type, GraphQLNonNull)
        if isinstance(leaf_type, GraphQLNonNull):
            leaf_type = leaf_type.of_type
        if not is_leaf_type(leaf_type):
            return None
        return basic[0], basic[1], _coerce(leaf_type, non_null, self.is_awaitable)

    def _completer(self, type_: GraphQLOutputType, details: FieldDetailsList) -> Complete | None:
        """The short path of a selection, built once per operation (None: not plain)."""
        if self._plain is None:
            self._plain = {}
        key = (id(type_), id(details))
        cached = self._plain.get(key)
        if cached is None:
            # The list is kept with its entry, so its id is not reused meanwhile.
            cached = self._plain[key] = (details, self._build(type_, details))
        return cached[1]

    def _build(self, type_: GraphQLOutputType, details: FieldDetailsList) -> Complete | None:
        if _wrapped(self) or any(d.node.directives for d in details):
            return None
        non_null = isinstance(type_, GraphQLNonNull)
        inner = type_.of_type if isinstance(type_, GraphQLNonNull) else type_
        if isinstance(inner, GraphQLList):
            item = self._build(inner.of_type, details)
            return None if item is None else _list(item, non_null)
        if is_leaf_type(inner):
            return _coerce(inner, non_null, self.is_awaitable)
        if not isinstance(inner, GraphQLObjectType) or inner.is_type_of is not None:
            return None
        grouped, defers, _ = self.collect_subfields(inner, details)
        if defers:
            return None
        fields = []
        for response_name, sub_details in grouped.items():
            field_def = self.schema.get_field(inner, sub_details[0].node.name.value)
            basic = _basic(field_def) if field_def is not None else None
            complete = self._build(field_def.type, sub_details) if field_def and basic else None
            if basic is None or complete is None:
                return None
            fields.append((response_name, basic[0], basic[1], complete))
        return _object(tuple(fields), non_null, self.is_awaitable)


def _wrapped(executor: StrawberryGraphQLCoreExecutionContext) -> bool:
    """Whether middleware wraps resolvers (Strawberry passes a manager without any)."""
    manager = executor.middleware_manager
    return manager is not None and bool(manager.middlewares)


def _coerce(leaf_type: Any, non_null: bool, is_awaitable: Callable[[Any], bool]) -> Complete:
    def complete(value: Any) -> Any:
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


def _list(item: Complete, non_null: bool) -> Complete:
    def complete(value: Any) -> Any:
        if value is None or value is Undefined:
            return GIVE_UP if non_null else None
        if type(value) is not list:
            return GIVE_UP
        items = [item(element) for element in value]
        return GIVE_UP if GIVE_UP in items else items  # completed values never equal it

    return complete


def _object(
    fields: tuple[tuple[str, Resolve, str, Complete], ...],
    non_null: bool,
    is_awaitable: Callable[[Any], bool],
) -> Complete:
    def complete(value: Any) -> Any:
        if value is None or value is Undefined:
            return GIVE_UP if non_null else None
        if isinstance(value, Exception) or is_awaitable(value):
            return GIVE_UP
        result = {}
        for response_name, resolve, name, complete_field in fields:
            try:
                completed = complete_field(resolve(value, name))
            except Exception:  # graphql-core's path raises it again, located
                return GIVE_UP
            if completed is GIVE_UP:
                return GIVE_UP
            result[response_name] = completed
        return result

    return complete
