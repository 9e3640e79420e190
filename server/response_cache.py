"""Whole answers to reads of frozen data, kept per process and checked on every request.

A finalized comparison's scorecard (one stored document) and its case rows never change, so
a repeated `comparison(id) { scorecard … cases … }` need not run ~6,500 resolvers again.
A document qualifies when its one root field is `comparison(id)` and every field it selects
on the comparison is in `server.frozen_reads.COMPARISON_FIELDS` (`scorecard` and `cases` in
full). Each answer is kept with the comparison's stamp (`server.frozen_reads.read_stamp`);
every request authenticates as ever, then reads the stamp — one primary-key read, which
also scopes the comparison to the caller's workspace — and is served the kept bytes only
when the stamp is unchanged. Otherwise it runs as usual and, answered without errors, its
bytes are kept with the stamp read *before* it ran (a change meanwhile moves the stamp, so
the next request runs again). Memory is bounded: least recently used first, by bytes.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson
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
    StringValueNode,
    VariableNode,
    parse,
)
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from strawberry.http import GraphQLRequestData
from strawberry.types import ExecutionResult

from server.context import Context
from server.errors import ShipwiseError
from server.frozen_reads import COMPARISON_FIELDS, FROZEN_SUBTREES, Stamp, read_stamp

MAX_DOCUMENT = 64 * 1024


@dataclass(slots=True)
class EncodedResult(ExecutionResult):
    """An answer already encoded as the response body (`{"data": …}`)."""

    body: bytes = b""


@dataclass(frozen=True, slots=True)
class Plan:
    """How to find the comparison id of a cacheable document: a variable or a literal."""

    id_variable: str | None
    id_literal: str | None

    def comparison_id(self, variables: dict[str, Any] | None) -> str | None:
        value = (
            self.id_literal if self.id_variable is None else (variables or {}).get(self.id_variable)
        )
        return value if isinstance(value, str) else None


def plan_for(document: DocumentNode, operation_name: str | None) -> Plan | None:
    """A plan when the operation reads only a comparison's frozen fields, else None."""
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
    roots = [f for f in _fields(operation.selection_set, fragments, set()) if f is not None]
    if len(roots) != 1 or roots[0].name.value != "comparison":
        return None
    root = roots[0]
    arguments = {a.name.value: a.value for a in root.arguments or ()}
    if set(arguments) != {"id"} or root.selection_set is None:
        return None
    for field in _fields(root.selection_set, fragments, set()):
        if field is None or field.name.value not in COMPARISON_FIELDS:
            return None
        if field.name.value not in FROZEN_SUBTREES and field.selection_set is not None:
            return None
    value = arguments["id"]
    if isinstance(value, VariableNode):
        return Plan(id_variable=value.name.value, id_literal=None)
    if isinstance(value, StringValueNode):
        return Plan(id_variable=None, id_literal=value.value)
    return None


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
class _Answer:
    stamp: Stamp
    body: bytes


Key = tuple[str, str, bytes, str | None, bytes]


class ResponseCache:
    """Encoded answers by (workspace, role, document, operation, variables), LRU by bytes."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        *,
        max_bytes: int,
        max_tokens: int,
        max_plans: int = 256,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._max_bytes = max_bytes
        self._max_tokens = max_tokens
        self._max_plans = max_plans
        self._plans: OrderedDict[tuple[str, str | None], Plan | None] = OrderedDict()
        self._answers: OrderedDict[Key, _Answer] = OrderedDict()
        self.size = 0
        """Bytes of the kept answers."""

    def __len__(self) -> int:
        return len(self._answers)

    async def answer(
        self,
        context: Context,
        request: GraphQLRequestData,
        execute: Callable[[], Awaitable[ExecutionResult]],
    ) -> ExecutionResult:
        """The kept answer when its stamp still holds, else `execute()` (kept if clean)."""
        plan = self._plan(request)
        comparison_id = plan.comparison_id(request.variables) if plan is not None else None
        if comparison_id is None or self._max_bytes <= 0:
            return await execute()
        try:
            actor = context.require()
        except ShipwiseError:
            return await execute()  # the usual path answers the refusal
        async with self._sessionmaker() as session:
            stamp = await read_stamp(
                session, workspace_id=actor.workspace_id, comparison_id=comparison_id
            )
        if stamp is None:  # not this workspace's, or not frozen: answered as usual
            return await execute()
        key: Key = (
            actor.workspace_id,
            actor.role.value,
            hashlib.sha256((request.query or "").encode()).digest(),
            request.operation_name,
            orjson.dumps(request.variables or {}, option=orjson.OPT_SORT_KEYS),
        )
        kept = self._answers.get(key)
        if kept is not None and kept.stamp == stamp:
            self._answers.move_to_end(key)
            return EncodedResult(data=None, errors=None, body=kept.body)
        result = await execute()
        if result.errors or result.extensions or result.data is None:
            return result
        try:
            body = orjson.dumps({"data": result.data})
        except (TypeError, orjson.JSONEncodeError):
            return result
        self._keep(key, _Answer(stamp, body))
        return EncodedResult(data=None, errors=None, body=body)

    def _plan(self, request: GraphQLRequestData) -> Plan | None:
        text = request.query
        if not text or len(text) > MAX_DOCUMENT:
            return None
        key = (text, request.operation_name)
        if key in self._plans:
            self._plans.move_to_end(key)
            return self._plans[key]
        try:
            plan = plan_for(
                parse(text, no_location=True, max_tokens=self._max_tokens),
                request.operation_name,
            )
        except GraphQLError:
            plan = None
        self._plans[key] = plan
        while len(self._plans) > self._max_plans:
            self._plans.popitem(last=False)
        return plan

    def _keep(self, key: Key, answer: _Answer) -> None:
        if len(answer.body) > self._max_bytes // 4:
            return
        old = self._answers.pop(key, None)
        if old is not None:
            self.size -= len(old.body)
        self._answers[key] = answer
        self.size += len(answer.body)
        while self.size > self._max_bytes:
            _, evicted = self._answers.popitem(last=False)
            self.size -= len(evicted.body)
