"""Which documents are answered directly, found by their persisted hash, and their variables."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from graphql import (
    DocumentNode,
    FragmentDefinitionNode,
    GraphQLError,
    OperationDefinitionNode,
    parse,
)
from sqlalchemy import Select
from sqlalchemy.ext.asyncio import AsyncEngine
from strawberry.http import GraphQLRequestData
from strawberry.types import ExecutionResult

from server.api.context import Context
from server.api.direct_reads.statements import DATABASE_ERRORS, DriverConnections
from server.api.http.persisted import persisted_hash
from server.errors import ShipwiseError
from server.settings import Settings
from server.workspaces.roles import Actor

logger = logging.getLogger("shipwise.direct_reads")

INT_RANGE: Final = range(-(2**31), 2**31)
"""GraphQL's Int: a variable outside it is refused by the schema, so left to it."""


@dataclass(frozen=True, slots=True)
class Reading:
    """What a direct answer reads with: the caller, the settings and the connections."""

    actor: Actor
    settings: Settings
    connections: DriverConnections


@dataclass(frozen=True, slots=True)
class Persisted:
    """A persisted document, parsed: its one operation and its fragments by name."""

    operation: OperationDefinitionNode
    fragments: dict[str, FragmentDefinitionNode]

    @classmethod
    def of(cls, document: DocumentNode) -> Persisted | None:
        operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
        if len(operations) != 1:
            return None
        fragments = {
            d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
        }
        return cls(operations[0], fragments)


Answer = Callable[[Reading, Mapping[str, Any], Persisted], Awaitable[dict[str, Any] | None]]
"""The `data` of an answer, or None: the schema answers instead."""
Covers = Callable[[Persisted], list[str]]
"""What a persisted document selects that the answer does not show (none: it shows it all)."""


@dataclass(frozen=True, slots=True)
class DirectDocument:
    operation: str
    """The name of the portal's operation it answers."""
    answer: Answer
    covers: Covers


class DirectReads:
    """The persisted documents answered directly, by their hash."""

    def __init__(
        self,
        engine: AsyncEngine,
        documents: Iterable[DirectDocument],
        persisted: Mapping[str, str],
    ) -> None:
        # A direct read runs on the driver, which begins no transaction: no BEGIN, no
        # ROLLBACK, and no isolation level to set and reset at each checkout either.
        self._connections = DriverConnections(engine)
        self._enabled = engine.dialect.name == "postgresql"
        self.known, self.refused = known_documents(documents, persisted)

    async def answer(self, context: Context, request: GraphQLRequestData) -> ExecutionResult | None:
        """The answer to `request` when it names a known persisted document that can be
        answered directly; else None (the schema answers it)."""
        found = persisted_hash(request.extensions) if self._enabled else None
        known = self.known.get(found) if found is not None else None
        if known is None:
            return None
        document, persisted = known
        if request.operation_name not in (None, document.operation):
            return None
        try:
            actor = context.require()
        except ShipwiseError:
            return None
        reading = Reading(actor, context.settings, self._connections)
        try:
            data = await document.answer(reading, request.variables or {}, persisted)
        except DATABASE_ERRORS as exc:
            logger.warning("direct read failed", extra={"error_type": type(exc).__name__})
            return None
        return None if data is None else ExecutionResult(data=data, errors=None)

    async def close(self) -> None:
        await self._connections.close()


def known_documents(
    documents: Iterable[DirectDocument], persisted: Mapping[str, str]
) -> tuple[dict[str, tuple[DirectDocument, Persisted]], dict[str, list[str]]]:
    """({hash: its answer and document}, {operation: what its answer does not show}): each
    persisted document of a direct read's operation whose every field the answer shows."""
    by_name = {d.operation: d for d in documents}
    known: dict[str, tuple[DirectDocument, Persisted]] = {}
    refused: dict[str, list[str]] = {}
    for found, text in persisted.items():
        try:
            parsed = Persisted.of(parse(text, no_location=True))
        except GraphQLError:
            continue
        name = parsed.operation.name if parsed is not None else None
        document = by_name.get(name.value) if name is not None else None
        if parsed is None or document is None:
            continue
        absent = document.covers(parsed)
        if absent:
            logger.warning(
                "a direct read does not show what its document selects: the schema answers",
                extra={"operation": document.operation, "fields": ", ".join(absent)},
            )
            refused[document.operation] = absent
        else:
            known[found] = (document, parsed)
    return known, refused


async def the_comparison_row(
    reading: Reading, given: Mapping[str, Any], statement: Select[Any]
) -> Any | None:
    """The row `statement` reads for the comparison the `id` variable names, in the caller's
    workspace (its `comparison_id` and `workspace_id` parameters); None when the variables
    are not just a string `id` or no such comparison is there (the schema answers)."""
    variables = variables_of(given, {"id": a_string})
    if variables is None:
        return None
    values = {"comparison_id": variables["id"], "workspace_id": reading.actor.workspace_id}
    rows = await reading.connections.fetch(statement, values)
    return rows[0] if rows else None


# --- variables: a value the schema would coerce otherwise (or refuse) is left to it ---------

Check = Callable[[Any], bool]


def variables_of(given: Mapping[str, Any], declared: Mapping[str, Check]) -> dict[str, Any] | None:
    """The declared variables (absent ones None) when each passes its check and none other
    is given; else None."""
    if not set(given) <= set(declared):
        return None
    values = {name: given.get(name) for name in declared}
    return values if all(check(values[name]) for name, check in declared.items()) else None


def an_int(value: Any) -> bool:
    return type(value) is int and value in INT_RANGE


def a_string(value: Any) -> bool:
    return type(value) is str


def or_none(check: Check) -> Check:
    return lambda value: value is None or check(value)


def a_name_of(enum: type[Enum]) -> Check:
    names = frozenset(enum.__members__)
    return lambda value: type(value) is str and value in names
