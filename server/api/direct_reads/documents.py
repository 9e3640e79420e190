"""Which documents are answered directly, found by their text, and their variables."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from graphql import GraphQLError, parse, print_ast
from sqlalchemy import Select
from sqlalchemy.ext.asyncio import AsyncEngine
from strawberry.http import GraphQLRequestData
from strawberry.types import ExecutionResult

from server.api.context import Context
from server.api.direct_reads.statements import DATABASE_ERRORS, DriverConnections
from server.errors import ShipwiseError
from server.settings import Settings
from server.workspaces.roles import Actor

logger = logging.getLogger("shipwise.direct_reads")

MAX_KEPT_TEXTS: Final = 256
MAX_TEXT: Final = 16 * 1024
INT_RANGE: Final = range(-(2**31), 2**31)
"""GraphQL's Int: a variable outside it is refused by the schema, so left to it."""


@dataclass(frozen=True, slots=True)
class Reading:
    """What a direct answer reads with: the caller, the settings and the connections."""

    actor: Actor
    settings: Settings
    connections: DriverConnections


Answer = Callable[[Reading, Mapping[str, Any]], Awaitable[dict[str, Any] | None]]
"""The `data` of an answer, or None: the schema answers instead."""


@dataclass(frozen=True, slots=True)
class DirectDocument:
    operation: str
    """The operation's name: a text without it is never parsed here."""
    source: str
    """The document as a client sends it (any layout: it is compared once printed)."""
    answer: Answer


class DirectReads:
    """The documents answered directly, by the text a request sends (kept per text)."""

    def __init__(self, engine: AsyncEngine, documents: Iterable[DirectDocument]) -> None:
        # A direct read runs on the driver, which begins no transaction: no BEGIN, no
        # ROLLBACK, and no isolation level to set and reset at each checkout either.
        self._connections = DriverConnections(engine)
        self._enabled = engine.dialect.name == "postgresql"
        self._known = {_printed(d.source): d for d in documents}
        self._names = {d.operation for d in self._known.values()}
        self._texts: OrderedDict[str, DirectDocument | None] = OrderedDict()

    async def answer(self, context: Context, request: GraphQLRequestData) -> ExecutionResult | None:
        """The answer to `request` when it is a known document that can be answered
        directly; else None (the schema answers it)."""
        document = self._document(request.query) if self._enabled else None
        if document is None or request.operation_name not in (None, document.operation):
            return None
        try:
            actor = context.require()
        except ShipwiseError:
            return None
        reading = Reading(actor, context.settings, self._connections)
        try:
            data = await document.answer(reading, request.variables or {})
        except DATABASE_ERRORS as exc:
            logger.warning("direct read failed", extra={"error_type": type(exc).__name__})
            return None
        return None if data is None else ExecutionResult(data=data, errors=None)

    async def close(self) -> None:
        await self._connections.close()

    def _document(self, text: str | None) -> DirectDocument | None:
        if not text or len(text) > MAX_TEXT:
            return None
        if text in self._texts:
            self._texts.move_to_end(text)
            return self._texts[text]
        found = None
        if any(name in text for name in self._names):  # else not worth a parse
            found = self._known.get(_printed(text) or "")
        self._texts[text] = found
        while len(self._texts) > MAX_KEPT_TEXTS:
            self._texts.popitem(last=False)
        return found


def _printed(text: str) -> str | None:
    try:
        return print_ast(parse(text, no_location=True))
    except GraphQLError:
        return None


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
