"""One row of the caller's workspace by its id, or NOT_FOUND; a page of its rows.

Every service reads the rows a caller names through `get_in_workspace`, so another
workspace's row and an unknown id answer alike ("<what> not found", `extensions.code`
NOT_FOUND): an id never tells a caller that it exists elsewhere.
"""

from __future__ import annotations

from typing import ClassVar, Protocol, TypeVar

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from server.errors import NotFound
from server.pagination import Page, keyset_page


class WorkspaceRow(Protocol):
    """A mapped row owned by a workspace (None: a built-in every workspace reads)."""

    @property
    def workspace_id(self) -> str | None: ...


RowT = TypeVar("RowT", bound=WorkspaceRow)


async def get_in_workspace(
    session: AsyncSession,
    model: type[RowT],
    row_id: str,
    workspace_id: str,
    what: str,
    *,
    field: str | None = None,
    built_in_too: bool = False,
    fresh: bool = False,
    for_update: bool = False,
) -> RowT:
    """The row `row_id` of `model` if `workspace_id` owns it (or, `built_in_too`, no one does).

    `what` names the row in the error ("model connection" → "model connection not found");
    `field` names the argument that carried the id where a call takes more than one.
    `fresh` reads the row's columns again over what the session holds; `for_update` locks it.
    """
    row = await session.get(model, row_id, populate_existing=fresh, with_for_update=for_update)
    allowed = (workspace_id, None) if built_in_too else (workspace_id,)
    if row is None or row.workspace_id not in allowed:
        raise NotFound(f"{what} not found", **({} if field is None else {"field": field}))
    return row


class OwnedTable(Protocol):
    """A mapped class whose rows each belong to one workspace, keyed by a string id."""

    id: ClassVar[InstrumentedAttribute[str]]
    workspace_id: ClassVar[InstrumentedAttribute[str]]


TableT = TypeVar("TableT", bound=OwnedTable)


async def page_in_workspace(
    session: AsyncSession, model: type[TableT], workspace_id: str, *, first: int, after: str | None
) -> Page[TableT]:
    """A keyset page of the workspace's rows of `model`, oldest id first."""
    stmt = select(model).where(model.workspace_id == workspace_id)
    return await keyset_page(session, stmt, key=model.id, first=first, after=after)
