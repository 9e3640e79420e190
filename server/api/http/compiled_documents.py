"""The portal's persisted documents, each compiled once per hash and answered from its plan.

A persisted document (`server.api.http.persisted`) is known before any request names it,
so its work is done once: parsed, validated against the schema with every limit's rule
(`document_limits.limit_rules`), and its query's selection planned from the schema's own
types (`compiled_plans`). A request naming the hash then costs its variables' coercion, the
resolvers, and the plan's completion of their values: no parse, no validation, no
extension hooks, none of graphql-core's per-field machinery.

Only a query is compiled; a mutation, a subscription, a document that fails validation or
holds what a plan does not cover is left to the schema (`None` kept for its hash). A
request is answered here only when everything goes as planned: variables the schema would
refuse (or text a column cannot store), an error raised by any resolver, a null where the
type says never — each leaves the whole request to the schema, which answers it with its
errors as ever. Nothing here knows a page: any persisted query is compiled the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from copy import copy
from dataclasses import dataclass, field
from typing import Any, Final, cast

from graphql import (
    DocumentNode,
    FragmentDefinitionNode,
    GraphQLError,
    OperationDefinitionNode,
    OperationType,
    parse,
    specified_rules,
)
from graphql.execution.values import get_variable_values
from prometheus_client import Counter
from strawberry.execution.is_awaitable import optimized_is_awaitable
from strawberry.http import GraphQLRequestData
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext, validate_document
from strawberry.types import ExecutionResult

from server.api.context import Context
from server.api.http.compiled_plans import NotPlannable, Planner
from server.api.http.compiled_values import (
    Complete,
    ExecutionContext,
    Later,
    close_all,
    finish,
)
from server.api.http.document_limits import limit_rules
from server.api.http.input_text import problem_in_value
from server.api.http.persisted import persisted_hash
from server.metrics import REGISTRY
from server.settings import Settings

ANSWERS = Counter(
    "shipwise_compiled_answers",
    "Requests naming a persisted query, by whether its compiled plan answered (`plan`) or "
    "left it to the schema (`schema`)",
    ["by"],
    registry=REGISTRY,
)
_PLAN, _SCHEMA = ANSWERS.labels("plan"), ANSWERS.labels("schema")

MAX_COERCION_ERRORS: Final = 50
"""As graphql-core's `Executor.build` coerces variables (its default)."""


@dataclass(frozen=True, slots=True)
class CompiledDocument:
    """A persisted query, parsed, validated and planned."""

    document: DocumentNode
    operation: OperationDefinitionNode
    run: Complete
    """The operation's root selection, from the root value (None): its generated
    function (`compiled_plans`)."""
    executor: list[ExecutionContext] = field(default_factory=list)
    """Its first request's executor, without a context (`_executor` copies it)."""

    @property
    def name(self) -> str | None:
        return self.operation.name.value if self.operation.name else None


def compile_document(
    strawberry_schema: Any, text: str, settings: Settings
) -> CompiledDocument | None:
    """The document's plan; None when the schema must answer it (not one query, refused by
    a rule, or holding what a plan does not cover)."""
    try:
        document = parse(text, no_location=False, max_tokens=settings.max_query_tokens)
    except GraphQLError:
        return None
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if len(operations) != 1 or operations[0].operation != OperationType.QUERY:
        return None
    rules = (
        *specified_rules,
        *limit_rules(max_depth=settings.max_query_depth, max_aliases=settings.max_aliases),
    )
    if validate_document(strawberry_schema._schema, document, rules):
        return None
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    operation = operations[0]
    root = strawberry_schema._schema.query_type
    try:
        run = Planner(strawberry_schema, fragments).root(root, operation.selection_set)
    except NotPlannable:
        return None
    return CompiledDocument(document, operation, run)


class CompiledDocuments:
    """The persisted documents by hash, each compiled on its first request."""

    def __init__(
        self, strawberry_schema: Any, documents: Mapping[str, str], settings: Settings
    ) -> None:
        self._schema = strawberry_schema
        self._documents = documents
        self._settings = settings
        self._compiled: dict[str, CompiledDocument | None] = {}

    def compiled(self, found: str) -> CompiledDocument | None:
        """The compiled document of a hash (None: unknown, or the schema's to answer)."""
        if found not in self._compiled:
            text = self._documents.get(found)
            self._compiled[found] = (
                compile_document(self._schema, text, self._settings) if text is not None else None
            )
        return self._compiled[found]

    async def answer(self, context: Context, request: GraphQLRequestData) -> ExecutionResult | None:
        """The answer to a request naming a compiled document by its hash, when its plan
        answers it as the schema would; else None (the schema answers)."""
        found = persisted_hash(request.extensions)
        compiled = self.compiled(found) if found is not None else None
        if compiled is None or request.operation_name not in (None, compiled.name):
            return None
        variables = request.variables or {}
        if variables and problem_in_value(variables) is not None:
            _SCHEMA.inc()
            return None
        context.operations += 1  # as `OperationScope` does for the schema's operations
        try:
            answered = await execute(self._schema, compiled, context, variables)
            (_SCHEMA if answered is None else _PLAN).inc()
            return answered
        finally:
            context.operations -= 1
            if context.operations == 0:
                await context.end_operation()


async def execute(
    strawberry_schema: Any,
    compiled: CompiledDocument,
    context: object,
    variables: dict[str, Any],
) -> ExecutionResult | None:
    """The compiled document's answer with these variables and context; None when the
    schema must answer instead (a variable it refuses, an error, a value off the plan)."""
    executor = _executor(strawberry_schema, compiled, context, variables)
    if executor is None:  # variables the schema refuses: it answers with its errors
        return None
    waiting: list[Later] = []
    try:
        data = compiled.run(None, None, executor, waiting)
        if waiting:
            await finish(executor, waiting)
    except Exception:  # the schema answers it again, errors and all
        close_all(waiting)
        return None
    return ExecutionResult(data=data, errors=None)


def _executor(
    strawberry_schema: Any, compiled: CompiledDocument, context: object, variables: dict[str, Any]
) -> ExecutionContext | None:
    """The request's executor (what a resolver's `Info` is built from): the document's
    first one as Strawberry builds it, kept without a context; after it, a copy of that one
    with the request's context and variables, coerced as `build` coerces them (its other
    work, finding the operation and its fragments, is the document's). None: variables the
    schema refuses."""
    template = compiled.executor
    if not template:
        built = StrawberryGraphQLCoreExecutionContext.build(
            strawberry_schema._schema,
            compiled.document,
            None,
            None,
            variables,
            compiled.name,
            is_awaitable=cast(Any, optimized_is_awaitable),  # Strawberry passes it so too
        )
        if isinstance(built, list):
            return None
        template.append(built)
    coerced = get_variable_values(
        strawberry_schema._schema,
        compiled.operation.variable_definitions or (),
        variables,
        max_errors=MAX_COERCION_ERRORS,
    )
    if isinstance(coerced, list):
        return None
    executor = copy(template[0])
    executor.variable_values = coerced
    executor.context_value = context
    return executor
