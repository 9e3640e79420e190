"""Rows as CSV or JSON Lines, one line (or CSV record) at a time.

A row is a dict of plain values. JSONL writes it as one JSON object per line. CSV writes
the header once, then each row: `None` is an empty cell, booleans `true`/`false`, lists and
objects their JSON; `csv` quotes cells holding commas, quotes or line breaks. Untrusted
text stays text in a spreadsheet: a text cell starting with `=`, `+`, `-`, `@`, a tab or a
carriage return gets a leading `'` (OWASP's CSV-injection advice), so no formula runs.
"""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator, Sequence
from enum import StrEnum
from typing import Any

import orjson

FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")


class ExportFormat(StrEnum):
    CSV = "csv"
    JSONL = "jsonl"


MEDIA_TYPES = {
    ExportFormat.CSV: "text/csv; charset=utf-8",
    ExportFormat.JSONL: "application/x-ndjson",
}


def text_cell(value: str) -> str:
    """Text that a spreadsheet shows as text, never as a formula."""
    return "'" + value if value.startswith(FORMULA_LEADS) else value


def csv_cell(value: Any) -> str | int | float:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return value  # numbers we computed: never a formula, left as numbers
    if isinstance(value, str):
        return text_cell(value)
    return text_cell(orjson.dumps(value).decode())


class _Line:
    """A file-like sink for `csv.writer` that hands back what one `writerow` wrote."""

    def __init__(self) -> None:
        self._buffer = io.StringIO()

    def write(self, text: str) -> int:
        return self._buffer.write(text)

    def take(self) -> bytes:
        text = self._buffer.getvalue()
        self._buffer.seek(0)
        self._buffer.truncate()
        return text.encode()


async def encode(
    rows: AsyncIterator[dict[str, Any]], columns: Sequence[str], export_format: ExportFormat
) -> AsyncIterator[bytes]:
    """The export's bytes, a chunk per batch of rows (about 64 KiB), never the whole file."""
    chunk: list[bytes] = []
    size = 0
    if export_format == ExportFormat.CSV:
        line = _Line()
        writer = csv.writer(line, lineterminator="\r\n")
        writer.writerow(columns)
        chunk.append(line.take())
    async for row in rows:
        if export_format == ExportFormat.CSV:
            writer.writerow([csv_cell(row.get(c)) for c in columns])
            data = line.take()
        else:
            data = orjson.dumps({c: row.get(c) for c in columns}) + b"\n"
        chunk.append(data)
        size += len(data)
        if size >= 64 * 1024:
            yield b"".join(chunk)
            chunk, size = [], 0
    if chunk:
        yield b"".join(chunk)
