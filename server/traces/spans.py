"""A received span as plain values: what decoding yields and normalization reads. Made once a
span and never changed, but not `frozen`: a frozen dataclass sets each field through
`object.__setattr__`, which made building one ~3× slower (server/traces/prepare.py builds one
a span)."""

from __future__ import annotations

from dataclasses import dataclass, field

from server.traces.attributes import Attributes


@dataclass(slots=True)
class ReceivedEvent:
    name: str
    time_unix_nano: int
    attributes: Attributes


@dataclass(slots=True)
class ReceivedSpan:
    """One span with its resource's attributes, ids in hex, values cleaned."""

    trace_id: str
    span_id: str
    parent_span_id: str | None
    name: str
    start_unix_nano: int
    end_unix_nano: int
    error: bool
    status_message: str
    attributes: Attributes
    resource: Attributes = field(default_factory=dict)
    events: tuple[ReceivedEvent, ...] = ()
