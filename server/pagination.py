"""Keyset pages and their cursors: what a list read returns (`server.api.relay` shows it as a
cursor connection)."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from sqlalchemy import BindParameter, Integer, Select, bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from server.errors import ValidationFailed

M = TypeVar("M")
N = TypeVar("N")

DEFAULT_PAGE_SIZE = 20


def encode_cursor(key: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(key).encode()).decode()


def decode_cursor(cursor: str) -> Any:
    try:
        return json.loads(base64.urlsafe_b64decode(cursor.encode()))
    except (ValueError, binascii.Error) as exc:
        raise ValidationFailed("`after` is not a cursor from this API") from exc


@dataclass(frozen=True, slots=True)
class Page(Generic[M]):
    """One page of rows with the cursor of each, from `keyset_page`."""

    items: Sequence[M]
    cursors: Sequence[str]
    has_next: bool
    has_previous: bool
    total: int

    def with_items(self, items: Sequence[N]) -> Page[N]:
        """The same page (cursors, counts) over `items`, one for each of its own."""
        return Page(items, self.cursors, self.has_next, self.has_previous, self.total)


def check_page_size(first: int | None, maximum: int) -> int:
    size = DEFAULT_PAGE_SIZE if first is None else first
    if size < 0 or size > maximum:
        raise ValidationFailed(f"`first` must be between 0 and {maximum}")
    return size


async def keyset_page(
    session: AsyncSession,
    stmt: Select[M] | KeysetStatements,
    *,
    key: InstrumentedAttribute[Any] | None = None,
    first: int,
    after: str | None,
    descending: bool = False,
    params: dict[str, Any] | None = None,
) -> Page[M]:
    """Rows of `stmt` ordered by the unique `key`, starting after the cursor's key (or of
    kept `keyset_statements` with their bound `params`)."""
    page = await keyset_rows(
        session, stmt, key=key, first=first, after=after, descending=descending, params=params
    )
    return page.with_items([cast(M, row[0]) for row in page.items])


def cursor_key(after: str, key: InstrumentedAttribute[Any]) -> str | int:
    """The key a cursor holds, of the key column's own type (else the cursor is another
    list's or made up: refused, never compared in SQL)."""
    found = decode_cursor(after)
    wanted = key.type.python_type
    if type(found) is not wanted or wanted not in (str, int):
        raise ValidationFailed("`after` is not a cursor from this API")
    return cast(str | int, found)


@dataclass(frozen=True, slots=True)
class KeysetStatements:
    """A keyset page's statements, built once: the first page, a page after a cursor (its
    key the bound parameter `after_key`), and the count alone; each page's size is the
    bound parameter `page_limit`."""

    key: InstrumentedAttribute[Any]
    first_page: Select[Any]
    after_page: Select[Any]
    counted: Select[Any]


def keyset_statements(
    stmt: Select[Any],
    *,
    key: InstrumentedAttribute[Any],
    descending: bool = False,
    joined: Callable[[Select[Any]], Select[Any]] | None = None,
) -> KeysetStatements:
    """The statements of pages of `stmt` ordered by the unique `key`; `joined` adds to the
    pages (not to the count) rows joined one to one, as further columns. The total rides
    on each page's own statement as a scalar subquery (one round trip).

    Built with bound parameters, a caller keeps them across requests, so SQLAlchemy finds
    its compiled statement without walking a new one each time."""
    counted = select(func.count()).select_from(stmt.subquery())
    page_stmt = stmt if joined is None else joined(stmt)
    after_key: BindParameter[Any] = bindparam("after_key")
    after_page = page_stmt.where(key < after_key if descending else key > after_key)

    def paged(page: Select[Any]) -> Select[Any]:
        return (
            page.add_columns(counted.correlate(None).scalar_subquery())
            .order_by(key.desc() if descending else key.asc())
            .limit(bindparam("page_limit", type_=Integer))
        )

    return KeysetStatements(key, paged(page_stmt), paged(after_page), counted)


async def keyset_rows(
    session: AsyncSession,
    stmt: Select[Any] | KeysetStatements,
    *,
    key: InstrumentedAttribute[Any] | None = None,
    first: int,
    after: str | None,
    descending: bool = False,
    joined: Callable[[Select[Any]], Select[Any]] | None = None,
    params: dict[str, Any] | None = None,
) -> Page[tuple[Any, ...]]:
    """`keyset_page` with each item the whole row: of `stmt` by `key` (`keyset_statements`),
    or of statements kept by the caller with their bound `params`. Only a page past the
    end, which has no row to carry the total, counts on its own."""
    if isinstance(stmt, KeysetStatements):
        statements = stmt
    else:
        assert key is not None, "a statement is paged by its key"
        statements = keyset_statements(stmt, key=key, descending=descending, joined=joined)
    bound = {**(params or {}), "page_limit": first + 1}
    page_stmt = statements.first_page
    if after is not None:
        page_stmt, bound["after_key"] = statements.after_page, cursor_key(after, statements.key)
    found = (await session.execute(page_stmt, bound)).all()
    if found:
        total = cast(int, found[0][-1])
    elif after is None:
        total = 0
    else:
        total = (await session.execute(statements.counted, params or {})).scalar_one()
    has_next = len(found) > first
    rows = [tuple(row[:-1]) for row in found[:first]]
    cursors = [encode_cursor(getattr(row[0], statements.key.key)) for row in rows]
    return Page(
        items=rows, cursors=cursors, has_next=has_next, has_previous=after is not None, total=total
    )
