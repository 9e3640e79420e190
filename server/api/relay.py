"""Cursor connections (`edges { node cursor }`, `pageInfo`, `totalCount`) over a keyset
`Page` (`server.pagination`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

import strawberry

from server.pagination import Page

T = TypeVar("T")
M = TypeVar("M")
N = TypeVar("N")


@strawberry.type
class PageInfo:
    has_next_page: bool
    has_previous_page: bool
    start_cursor: str | None
    end_cursor: str | None


@strawberry.type
class Edge(Generic[T]):
    node: T
    cursor: str


@strawberry.type
class Connection(Generic[T]):
    edges: list[Edge[T]]
    page_info: PageInfo
    total_count: int

    @classmethod
    def of(cls, page: Page[M], convert: Callable[[M], N]) -> Connection[N]:
        """Convert each row of a page with `convert` into the GraphQL connection."""
        edges = [
            Edge(node=convert(item), cursor=cursor)
            for item, cursor in zip(page.items, page.cursors, strict=True)
        ]
        return Connection(
            edges=edges,
            page_info=PageInfo(
                has_next_page=page.has_next,
                has_previous_page=page.has_previous,
                start_cursor=page.cursors[0] if page.cursors else None,
                end_cursor=page.cursors[-1] if page.cursors else None,
            ),
            total_count=page.total,
        )
