"""A stored JSON document a page's read carries as its text, decoded only when read.

A finalized comparison's scorecard document is the largest value its page's statement
reads, and only the fields that show it (`scorecard`, `decision`) read it: decoded on every
read, it cost the case page and the comparison's page (which select neither) about as much
as the rest of their values. Read as text (`json_text`), it is decoded the first time
`value` is asked for and kept with the read; equal texts are equal values, so a read stays a
plain value (`server.page_reads.comparison_page`)."""

from __future__ import annotations

from typing import Any, Final

import orjson
from sqlalchemy import Text, cast
from sqlalchemy.sql.elements import ColumnElement

_UNREAD: Final = object()


class StoredJson:
    """A JSON document's text, and its value once read (orjson, as the engine's own JSON
    columns are decoded: `server.db`)."""

    __slots__ = ("_value", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._value: Any = _UNREAD

    @property
    def value(self) -> Any:
        if self._value is _UNREAD:
            self._value = orjson.loads(self.text)
        return self._value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StoredJson) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"StoredJson({self.text[:40]!r}…)"


def stored(text: str | None) -> StoredJson | None:
    """The column's text as read (None: SQL NULL)."""
    return StoredJson(text) if text is not None else None


def value_of(document: StoredJson | None) -> Any:
    """The document's value (None for none)."""
    return document.value if document is not None else None


def json_text(column: Any) -> ColumnElement[str]:
    """A JSON column read as its text, not decoded by the driver."""
    return cast(column, Text)
