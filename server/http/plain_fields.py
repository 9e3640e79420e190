"""Plain leaf fields completed without graphql-core's per-field machinery.

A case page completes ~2,000 fields, most of them a scalar or enum attribute of a row
(`trialIndex`, `passed`, …) that Strawberry resolves with `getattr` and ignores the
resolve info of. graphql-core still builds a path-bound `GraphQLResolveInfo`, calls the
resolver through Strawberry's wrapper, checks for awaitables twice and walks
`complete_value` for each. `PlainFieldExecutor` reads such a field's attribute and coerces
it directly; any value the short path would not complete exactly as graphql-core does
(None for a non-null field, an exception, an awaitable, a failed coercion) takes
graphql-core's own path, so answers and errors are unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from graphql import (
    GraphQLField,
    GraphQLLeafType,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
    is_leaf_type,
)
from graphql.execution.collect_fields import FieldDetailsList
from graphql.pyutils import Path, Undefined
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.schema.schema_converter import GraphQLCoreConverter

_PLANS: Final = "shipwise-plain-fields"
"""The key of each object type's `extensions` entry: its fields' plans, built once."""

Plan = tuple[Callable[[Any, str], Any], str, GraphQLLeafType, bool] | None
"""(the default resolver, the attribute, the leaf type, non-null) of a plain leaf field."""

_NOT_READ: Final = object()


def _plan(field_def: GraphQLField) -> Plan:
    """How to read a field with Strawberry's basic resolver and a leaf type; else None."""
    if not getattr(field_def.resolve, "_is_default", False) or field_def.args:
        return None
    strawberry_field = field_def.extensions.get(GraphQLCoreConverter.DEFINITION_BACKREF)
    if strawberry_field is None or not strawberry_field.is_basic_field:
        return None
    leaf_type, non_null = field_def.type, isinstance(field_def.type, GraphQLNonNull)
    if isinstance(leaf_type, GraphQLNonNull):
        leaf_type = leaf_type.of_type
    if not is_leaf_type(leaf_type):
        return None
    return strawberry_field.default_resolver, strawberry_field.python_name, leaf_type, non_null


def plan_of(schema: GraphQLSchema, parent_type: GraphQLObjectType, field_name: str) -> Plan:
    plans: dict[str, Plan] = parent_type.extensions.setdefault(_PLANS, {})
    try:
        return plans[field_name]
    except KeyError:
        field_def = schema.get_field(parent_type, field_name)
        plan = plans[field_name] = _plan(field_def) if field_def is not None else None
        return plan


class PlainFieldExecutor(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's executor, with plain leaf fields completed at once."""

    def execute_field(
        self,
        parent_type: GraphQLObjectType,
        source: Any,
        field_details_list: FieldDetailsList,
        path: Path,
        position_context: Any,
    ) -> Any:
        plan = plan_of(self.schema, parent_type, field_details_list[0].node.name.value)
        if plan is not None and not _wrapped(self):
            value = _complete(plan, source, self.is_awaitable)
            if value is not _NOT_READ:
                return value
        return super().execute_field(
            parent_type, source, field_details_list, path, position_context
        )


def _wrapped(executor: StrawberryGraphQLCoreExecutionContext) -> bool:
    """Whether middleware wraps resolvers (Strawberry passes a manager without any)."""
    manager = executor.middleware_manager
    return manager is not None and bool(manager.middlewares)


def _complete(plan: tuple[Any, ...], source: Any, is_awaitable: Callable[[Any], bool]) -> Any:
    """The completed value, or `_NOT_READ` where graphql-core's path must decide."""
    resolve, name, leaf_type, non_null = plan
    try:
        value = resolve(source, name)
    except Exception:  # graphql-core's path raises it again, located
        return _NOT_READ
    if value is None or value is Undefined:
        return _NOT_READ if non_null else None
    if isinstance(value, Exception) or is_awaitable(value):
        return _NOT_READ
    try:
        coerced = leaf_type.coerce_output_value(value)
    except Exception:
        return _NOT_READ
    return _NOT_READ if coerced is None or coerced is Undefined else coerced
