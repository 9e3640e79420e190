"""A keyset page's `pageInfo`, as the comparisons list and the case page both show it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PageInfoRead:
    has_next_page: bool
    has_previous_page: bool
    start_cursor: str | None
    end_cursor: str | None


def page_info(cursors: Sequence[str], *, more: bool, after: str | None) -> PageInfoRead:
    """The page of `cursors` (its rows in order); `more`: a row beyond it was found."""
    return PageInfoRead(
        more, after is not None, cursors[0] if cursors else None, cursors[-1] if cursors else None
    )
