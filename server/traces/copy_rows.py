"""A span's `trace_span` row in PostgreSQL's binary `COPY` format (the "Binary Format" of
PostgreSQL's `COPY` page: a field count, then each field as its length and bytes, -1 for
NULL). Rows are encoded where an export is prepared (server/traces/prepare.py, in a worker
process when it is large), so the API process only joins them between `HEADER` and `TRAILER`
and forwards the bytes (server/traces/span_rows.py); a row that cannot be copied (its trace
was stored before, or the database is SQLite) is decoded back into a `SpanRow`."""

from __future__ import annotations

import struct
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
"""The signature, no flags (no OIDs), no header extension."""
TRAILER = struct.pack(">h", -1)


class SpanRow(NamedTuple):
    """A `trace_span` row, its columns in `COLUMNS`' order; the two JSON columns as JSON
    text (UTF-8)."""

    workspace_id: str
    trace_id: str
    span_id: str
    parent_span_id: str | None
    started_at: datetime
    service: str | None
    step: bytes
    attributes: bytes
    received_at: datetime


COLUMNS = SpanRow._fields

_FIELD_COUNT = struct.pack(">h", len(COLUMNS))
_NULL = struct.pack(">i", -1)
_LENGTH = struct.Struct(">i")
_TIMESTAMP = struct.Struct(">iq")
"""A `timestamptz` field: its length (8) and microseconds since 2000-01-01 UTC."""
_POSTGRES_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


class Encoder:
    """Rows of one export: its workspace and time received are the same in each."""

    def __init__(self, workspace_id: str, received_at: datetime) -> None:
        self._head = _FIELD_COUNT + _text(workspace_id)
        self._tail = _timestamp(received_at)

    def encode(
        self,
        trace_id: str,
        span_id: str,
        parent_span_id: str | None,
        started_at: datetime,
        service: str | None,
        step: bytes,
        attributes: bytes,
    ) -> bytes:
        return b"".join(
            (
                self._head,
                _text(trace_id),
                _text(span_id),
                _NULL if parent_span_id is None else _text(parent_span_id),
                _timestamp(started_at),
                _NULL if service is None else _text(service),
                _LENGTH.pack(len(step)),  # a `json` field is its text
                step,
                _LENGTH.pack(len(attributes)),
                attributes,
                self._tail,
            )
        )


def payload(rows: list[bytes]) -> memoryview:
    """A whole `COPY … (FORMAT binary)` body. A memoryview, as asyncpg's `copy_to_table`
    takes `bytes` for a file's path."""
    return memoryview(b"".join((HEADER, *rows, TRAILER)))


def decode(row: bytes) -> SpanRow:
    """A row as `Encoder.encode` wrote it."""
    fields: list[bytes | None] = []
    at = 2
    for _ in range(len(COLUMNS)):
        (length,) = _LENGTH.unpack_from(row, at)
        at += 4
        if length < 0:
            fields.append(None)
            continue
        fields.append(row[at : at + length])
        at += length
    (
        workspace_id,
        trace_id,
        span_id,
        parent_span_id,
        started_at,
        service,
        step,
        attributes,
        received_at,
    ) = fields
    assert workspace_id and trace_id and span_id and started_at and step and attributes
    assert received_at is not None
    return SpanRow(
        workspace_id.decode(),
        trace_id.decode(),
        span_id.decode(),
        None if parent_span_id is None else parent_span_id.decode(),
        _time_of(started_at),
        None if service is None else service.decode(),
        step,
        attributes,
        _time_of(received_at),
    )


def _text(value: str) -> bytes:
    encoded = value.encode()
    return _LENGTH.pack(len(encoded)) + encoded


def _timestamp(value: datetime) -> bytes:
    return _TIMESTAMP.pack(8, (value - _POSTGRES_EPOCH) // _MICROSECOND)


def _time_of(field: bytes) -> datetime:
    (micros,) = struct.unpack(">q", field)
    return _POSTGRES_EPOCH + timedelta(microseconds=micros)
