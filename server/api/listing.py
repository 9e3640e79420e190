"""One way every workspace list query runs: the caller, the page size, a short session, the page."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from server.api.context import Context
from server.api.relay import Connection
from server.pagination import Page, check_page_size

M = TypeVar("M")
N = TypeVar("N")


async def workspace_connection(
    context: Context,
    *,
    first: int | None,
    after: str | None,
    fetch: Callable[..., Awaitable[Page[M]]],
    convert: Callable[[M], N],
    **filters: Any,
) -> Connection[N]:
    """`fetch(session=…, workspace_id=…, first=…, after=…, **filters)` for the caller (VIEWER)."""
    actor = context.require()
    size = check_page_size(first, context.settings.max_page_size)
    async with context.read() as session:
        page = await fetch(
            session=session, workspace_id=actor.workspace_id, first=size, after=after, **filters
        )
    return Connection.of(page, convert)
