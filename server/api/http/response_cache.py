"""Whole answers to polled reads, kept per process and checked on every request.

A finalized comparison's scorecard and case pages never change, and a dashboard polls the
same page of comparisons: running ~1,000–6,500 resolvers again for an unchanged answer is
most of the read path's cost. A document qualifies when its one root field matches a rule
of `server.api.http.cached_reads` (its root field, its arguments, and only fields its stamp
covers). Every request authenticates and is rate limited as ever, then reads the rule's
stamp — cheap Core reads of every column the answer shows, scoped to the caller's
workspace — and is served the kept bytes only when the stamp is equal. Otherwise it runs
as usual and, answered without errors, its bytes are kept with the stamp read *before* it
ran (a change meanwhile moves the stamp, so the next request runs again). Keys hold the
workspace and role, the document's hash, the operation name and the variables. Memory is
bounded: least recently used first, by bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from cachetools import LRUCache
from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    Undefined,
    ValueNode,
    parse,
    value_from_ast_untyped,
)
from sqlalchemy.ext.asyncio import AsyncEngine
from strawberry.http import GraphQLRequestData
from strawberry.types import ExecutionResult

from server.api.context import Context
from server.api.http.cached_reads.shape import WHOLE, Rule, Shape, Stamp
from server.errors import ShipwiseError

MAX_DOCUMENT = 64 * 1024


@dataclass(slots=True)
class EncodedResult(ExecutionResult):
    """An answer already encoded as the response body (`{"data": …}`)."""

    body: bytes = b""


@dataclass(frozen=True, slots=True)
class Plan:
    """A cacheable document: its rule, the root field's arguments and the variables'
    declared defaults."""

    rule: Rule
    arguments: tuple[tuple[str, ValueNode], ...]
    defaults: tuple[tuple[str, Any], ...] = ()

    def resolve(self, variables: dict[str, Any] | None) -> dict[str, Any]:
        """The root field's argument values for these variables (absent ones are None)."""
        values = {**dict(self.defaults), **(variables or {})}
        resolved = {}
        for name, node in self.arguments:
            value = value_from_ast_untyped(node, values)
            resolved[name] = None if value is Undefined else value
        return resolved


def plan_for(
    document: DocumentNode, operation_name: str | None, rules: Sequence[Rule]
) -> Plan | None:
    """A plan when the operation is one root field that a rule covers, else None."""
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if len(operations) != 1:
        return None
    operation = operations[0]
    name = operation.name.value if operation.name else None
    if operation.operation != OperationType.QUERY or operation_name not in (None, name):
        return None
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    roots = _fields(operation.selection_set, fragments, set())
    root = roots[0] if len(roots) == 1 else None
    if root is None or root.selection_set is None:
        return None
    rule = next((r for r in rules if r.root == root.name.value), None)
    arguments = tuple((a.name.value, a.value) for a in root.arguments or ())
    names = {name for name, _ in arguments}
    if rule is None or not rule.required <= names <= rule.arguments:
        return None
    if not _fits(root.selection_set, rule.shape, fragments):
        return None
    defaults = tuple(
        (v.variable.name.value, value_from_ast_untyped(v.default_value))
        for v in operation.variable_definitions or ()
        if v.default_value is not None
    )
    return Plan(rule, arguments, defaults)


def _fits(
    selections: SelectionSetNode, shape: Shape, fragments: dict[str, FragmentDefinitionNode]
) -> bool:
    """Whether every field selected is allowed by `shape` (arguments only under WHOLE)."""
    for field in _fields(selections, fragments, set()):
        if field is None or field.name.value not in shape:
            return False
        allowed = shape[field.name.value]
        if allowed == WHOLE:
            continue
        if field.arguments:
            return False
        if allowed is None or isinstance(allowed, str):
            if field.selection_set is not None:
                return False
        elif field.selection_set is None or not _fits(field.selection_set, allowed, fragments):
            return False
    return True


def _fields(
    selections: SelectionSetNode, fragments: dict[str, FragmentDefinitionNode], seen: set[str]
) -> list[FieldNode | None]:
    """The fields of a selection set with fragments spread (`__typename` left out); None
    stands for anything this module does not follow (an unknown or recursive fragment)."""
    found: list[FieldNode | None] = []
    for selection in selections.selections:
        if isinstance(selection, FieldNode):
            if selection.name.value != "__typename":
                found.append(selection)
        elif isinstance(selection, InlineFragmentNode):
            found.extend(_fields(selection.selection_set, fragments, seen))
        elif isinstance(selection, FragmentSpreadNode):
            fragment = fragments.get(selection.name.value)
            if fragment is None or fragment.name.value in seen:
                found.append(None)
            else:
                found.extend(
                    _fields(fragment.selection_set, fragments, seen | {fragment.name.value})
                )
    return found


@dataclass(slots=True)
class CachedAnswer:
    stamp: Stamp
    body: bytes


Key = tuple[str, str, bytes, str | None, bytes]


class ResponseCache:
    """Encoded answers by (workspace, role, document, operation, variables), LRU by bytes."""

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        rules: Sequence[Rule],
        max_bytes: int,
        max_tokens: int,
        max_plans: int = 256,
    ) -> None:
        # Stamps are read as the pages are (`Context.fetch`): on PostgreSQL on the driver's
        # own connection, without SQLAlchemy's work per execution (a tenth of the API's time
        # under the soak's reads).
        self._dialect = engine.dialect.name
        self._rules = tuple(rules)
        self._max_bytes = max_bytes
        self._max_tokens = max_tokens
        self._plans: LRUCache[tuple[str, str | None], Plan | None] = LRUCache(max_plans)
        self._answers: LRUCache[Key, tuple[CachedAnswer, int]] = LRUCache(
            max(max_bytes, 1), getsizeof=lambda kept: kept[1]
        )
        """Each answer with the bytes it is counted for (`_size`); the least recent give way
        past `max_bytes` in all."""

    @property
    def size(self) -> int:
        """Bytes of the kept answers."""
        return int(self._answers.currsize)

    def __len__(self) -> int:
        return len(self._answers)

    async def answer(
        self,
        context: Context,
        request: GraphQLRequestData,
        execute: Callable[[], Awaitable[ExecutionResult]],
    ) -> ExecutionResult:
        """The kept answer when its stamp still holds, else `execute()` (kept if clean)."""
        plan = self._plan(request) if self._max_bytes > 0 else None
        if plan is None:
            return await execute()
        try:
            actor = context.require()
        except ShipwiseError:
            return await execute()  # the usual path answers the refusal
        stamp = await plan.rule.stamp(
            context.fetch,
            dialect=self._dialect,
            workspace_id=actor.workspace_id,
            arguments=plan.resolve(request.variables),
            max_page_size=context.settings.max_page_size,
        )
        if stamp is None:  # not this workspace's, not covered, or refused: as usual
            return await execute()
        key: Key = (
            actor.workspace_id,
            actor.role.value,
            hashlib.sha256((request.query or "").encode()).digest(),
            request.operation_name,
            orjson.dumps(request.variables or {}, option=orjson.OPT_SORT_KEYS),
        )
        entry = self._answers.get(key)
        kept = entry[0] if entry is not None else None
        if kept is not None and kept.stamp == stamp:
            return EncodedResult(data=None, errors=None, body=kept.body)
        result = await execute()
        if result.errors or result.extensions or result.data is None:
            return result
        try:
            body = orjson.dumps({"data": result.data})
        except (TypeError, orjson.JSONEncodeError):
            return result
        self._keep(key, CachedAnswer(stamp, body))
        return EncodedResult(data=None, errors=None, body=body)

    def _plan(self, request: GraphQLRequestData) -> Plan | None:
        text = request.query
        if not text or len(text) > MAX_DOCUMENT:
            return None
        key = (text, request.operation_name)
        if key in self._plans:
            return self._plans[key]  # (a read makes it the most recent)
        try:
            document = parse(text, no_location=True, max_tokens=self._max_tokens)
            plan = plan_for(document, request.operation_name, self._rules)
        except GraphQLError:
            plan = None
        self._plans[key] = plan
        return plan

    def _keep(self, key: Key, answer: CachedAnswer) -> None:
        size = _size(key, answer)
        if size > self._max_bytes // 4:
            return
        self._answers[key] = (answer, size)


def _size(key: Key, answer: CachedAnswer) -> int:
    """The bytes an entry is counted for: its body and its variables (the rest is small)."""
    return len(answer.body) + len(key[4])
