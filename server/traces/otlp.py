"""OTLP/HTTP trace bodies decoded with `opentelemetry-proto`: protobuf or the OTLP JSON
encoding, gzip or not, into plain spans (`ReceivedSpan`); unreadable spans counted."""

from __future__ import annotations

import base64
import binascii
import gzip
import json
import zlib
from dataclasses import dataclass
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

from server.traces.attributes import (
    MAX_VALUE_BYTES,
    REDACTED,
    Attributes,
    clean_text,
    clean_value,
    cut_text,
    names_a_secret,
)
from server.traces.spans import ReceivedEvent, ReceivedSpan

PROTOBUF = "application/x-protobuf"
JSON = "application/json"


class NotOtlp(ValueError):
    """The body is not an OTLP trace export (400 with an OTLP `Status`)."""


@dataclass(frozen=True, slots=True)
class Decoded:
    spans: list[ReceivedSpan]
    rejected: int
    reasons: list[str]


def decompress(body: bytes, encoding: str | None) -> bytes:
    """The body without its `Content-Encoding` (gzip, deflate or none)."""
    name = (encoding or "identity").strip().lower()
    try:
        if name == "gzip":
            return gzip.decompress(body)
        if name == "deflate":
            return zlib.decompress(body)
    except (OSError, EOFError, zlib.error) as exc:
        raise NotOtlp(f"the body is not valid {name}") from exc
    if name not in ("identity", ""):
        raise NotOtlp(f"Content-Encoding {name} is not supported (gzip is)")
    return body


def decode(body: bytes, media_type: str) -> Decoded:
    """Every readable span of an export; unreadable ones counted with a reason."""
    request = ExportTraceServiceRequest()
    if media_type == PROTOBUF:
        try:
            request.ParseFromString(body)
        except DecodeError as exc:
            raise NotOtlp("the body is not an OTLP protobuf ExportTraceServiceRequest") from exc
        if body and not request.resource_spans:  # bytes that parse only as unknown fields
            raise NotOtlp("the body is not an OTLP protobuf ExportTraceServiceRequest")
    else:
        try:
            document = json.loads(body)
        except (ValueError, UnicodeDecodeError) as exc:
            raise NotOtlp("the body is not JSON") from exc
        if not isinstance(document, dict) or (
            document and not {"resourceSpans", "resource_spans"} & document.keys()
        ):
            raise NotOtlp("the body is not an OTLP JSON ExportTraceServiceRequest")
        try:
            json_format.ParseDict(_ids_as_base64(document), request, ignore_unknown_fields=True)
        except (json_format.ParseError, ValueError, TypeError) as exc:
            raise NotOtlp("the body is not an OTLP JSON ExportTraceServiceRequest") from exc
    return _spans_of(request)


def response_body(rejected: int, reason: str, media_type: str) -> bytes:
    """The `ExportTraceServiceResponse`, `partial_success` set when spans were rejected."""
    response = ExportTraceServiceResponse()
    if rejected:
        response.partial_success.rejected_spans = rejected
        response.partial_success.error_message = reason
    if media_type == PROTOBUF:
        encoded: bytes = response.SerializeToString()
        return encoded
    return json.dumps(json_format.MessageToDict(response)).encode()


def status_body(code: int, message: str, media_type: str) -> bytes:
    """A `google.rpc.Status` (the OTLP error body) with a gRPC code and the reason."""
    from google.rpc.status_pb2 import Status as RpcStatus

    status = RpcStatus(code=code, message=message)
    if media_type == PROTOBUF:
        encoded: bytes = status.SerializeToString()
        return encoded
    return json.dumps({"code": code, "message": message}).encode()


def _spans_of(request: ExportTraceServiceRequest) -> Decoded:
    spans: list[ReceivedSpan] = []
    reasons: list[str] = []
    rejected = 0
    for resource_spans in request.resource_spans:
        resource = _attributes(resource_spans.resource.attributes)
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                why = _unreadable(span)
                if why is not None:
                    rejected += 1
                    if why not in reasons:
                        reasons.append(why)
                    continue
                spans.append(_received(span, resource))
    return Decoded(spans, rejected, reasons)


_NO_TRACE_ID = bytes(16)
_NO_SPAN_ID = bytes(8)


def _unreadable(span: Span) -> str | None:
    trace_id, span_id, parent = span.trace_id, span.span_id, span.parent_span_id
    if len(trace_id) != 16 or trace_id == _NO_TRACE_ID:
        return "a span's trace id is not 16 bytes"
    if len(span_id) != 8 or span_id == _NO_SPAN_ID:
        return "a span's span id is not 8 bytes"
    if parent and len(parent) != 8:
        return "a span's parent span id is not 8 bytes"
    if span.start_time_unix_nano == 0:
        return "a span has no start time"
    return None


def _received(span: Span, resource: Attributes) -> ReceivedSpan:
    start = span.start_time_unix_nano
    parent = span.parent_span_id
    return ReceivedSpan(
        trace_id=span.trace_id.hex(),
        span_id=span.span_id.hex(),
        parent_span_id=parent.hex() if parent and parent != _NO_SPAN_ID else None,
        name=clean_text(span.name[:500]),
        start_unix_nano=start,
        end_unix_nano=max(span.end_time_unix_nano, start),
        error=span.status.code == Status.STATUS_CODE_ERROR,
        status_message=clean_text(span.status.message[:2000]),
        attributes=_attributes(span.attributes),
        resource=resource,
        events=tuple(
            ReceivedEvent(
                name=clean_text(event.name[:500]),
                time_unix_nano=event.time_unix_nano,
                attributes=_attributes(event.attributes),
            )
            for event in span.events
        )
        if span.events
        else (),
    )


_KEYS: dict[str, tuple[str, bool]] = {}
"""Each key seen as stored and whether it names a secret: exporters repeat a handful."""
_MAX_KEYS = 4_096
_SHORT_TEXT = MAX_VALUE_BYTES // 4
"""Text no longer than this many characters fits `MAX_VALUE_BYTES` whatever its UTF-8."""


def _key(key: str) -> tuple[str, bool]:
    known = _KEYS.get(key)
    if known is None:
        if len(_KEYS) >= _MAX_KEYS:
            _KEYS.clear()
        known = _KEYS[key] = (clean_text(key), names_a_secret(key))
    return known


def _attributes(pairs: Any) -> Attributes:
    """OTLP key-values by key, each value cleaned (`clean_value`), a repeated key keeping its
    last value; a string (most values) read the short way."""
    found: Attributes = {}
    for pair in pairs:
        key, secret = _key(pair.key)
        if secret:
            found[key] = REDACTED
            continue
        value: AnyValue = pair.value
        if value.WhichOneof("value") == "string_value":
            text: str = value.string_value
            if "\x00" in text:
                text = clean_text(text)
            found[key] = text if len(text) <= _SHORT_TEXT else cut_text(text)
        else:
            found[key] = clean_value(pair.key, value_of(value))
    return found


def value_of(value: AnyValue) -> object:
    """An `AnyValue` as a plain value (bytes as base64 text)."""
    kind = value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [value_of(item) for item in value.array_value.values]
    if kind == "kvlist_value":
        return {pair.key: value_of(pair.value) for pair in value.kvlist_value.values}
    if kind == "bytes_value":
        return base64.b64encode(value.bytes_value).decode()
    found: object = getattr(value, kind)
    return found


_ID_KEYS = ("traceId", "trace_id", "spanId", "span_id", "parentSpanId", "parent_span_id")


def _ids_as_base64(document: dict[str, Any]) -> dict[str, Any]:
    """OTLP JSON writes ids as hex where protobuf's JSON mapping reads base64: convert in
    place; an id that is not hex becomes empty, so its span is rejected, not the export."""
    for resource_spans in _dicts(document.get("resourceSpans", document.get("resource_spans"))):
        for scope_spans in _dicts(
            resource_spans.get("scopeSpans", resource_spans.get("scope_spans"))
        ):
            for span in _dicts(scope_spans.get("spans")):
                _convert_ids(span)
                for link in _dicts(span.get("links")):
                    _convert_ids(link)
    return document


def _dicts(value: object) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, dict)]


def _convert_ids(holder: dict[str, Any]) -> None:
    for key in _ID_KEYS:
        found = holder.get(key)
        if not isinstance(found, str):
            continue
        try:
            holder[key] = base64.b64encode(bytes.fromhex(found)).decode()
        except (ValueError, binascii.Error):
            holder[key] = ""
