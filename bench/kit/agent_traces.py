"""Synthetic agent traces as OTLP/HTTP protobuf bodies, for bench/trace_ingest.py: the
four-span agent shape (an `invoke_agent` root, a model call asking for a tool, the tool, a
model call answering), each span with ~1.5 KB of messages, arguments or results, written as
the GenAI semantic conventions write them (docs/traces.md).

One body is encoded once; each request swaps its 8-byte trace-id prefix for fresh random
bytes (`Template.body`), so every request is new traces at the cost of one `bytes.replace`
and the client never limits the server. One trace in ten has its tool fail."""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

SPANS_PER_TRACE = 4
MODEL = "gpt-bench"
FILLER = "The customer asks about order A-7, shipped on Monday; " * 20
"""~1.1 KB of prose: with the JSON around it each span carries ~1.5 KB."""


def _kv(key: str, value: str | int) -> KeyValue:
    if isinstance(value, int):
        return KeyValue(key=key, value=AnyValue(int_value=value))
    return KeyValue(key=key, value=AnyValue(string_value=value))


def _messages(role: str, text: str) -> str:
    return json.dumps([{"role": role, "parts": [{"type": "text", "content": text}]}])


@dataclass(frozen=True)
class Template:
    """One encoded export of `traces` traces whose ids start with `marker`."""

    traces: int
    marker: bytes
    encoded: bytes

    @property
    def spans(self) -> int:
        return self.traces * SPANS_PER_TRACE

    def body(self) -> tuple[bytes, bytes]:
        """A body of new traces, and the 8-byte prefix of their ids."""
        prefix = os.urandom(8)
        return self.encoded.replace(self.marker, prefix), prefix

    def trace_id(self, prefix: bytes, index: int) -> str:
        """The hex id of trace `index` of a body sent with `prefix`."""
        return (prefix + index.to_bytes(8, "big")).hex()


def template(traces: int) -> Template:
    """An export of `traces` four-span agent traces, started a minute ago."""
    marker = os.urandom(8)
    request = ExportTraceServiceRequest()
    resource = request.resource_spans.add()
    resource.resource.attributes.extend(
        [_kv("service.name", "bench-agent"), _kv("service.version", "v1")]
    )
    scope = resource.scope_spans.add()
    scope.scope.name = "bench"
    base = time.time_ns() - 60 * 10**9
    for index in range(traces):
        trace_id = marker + index.to_bytes(8, "big")
        start = base + index * 1_000_000
        failed = index % 10 == 0
        root = _span(scope.spans.add(), trace_id, 1, None, "invoke_agent support", start, 900)
        root.attributes.extend(
            [
                _kv("gen_ai.operation.name", "invoke_agent"),
                _kv("shipwise.case_id", f"case-{index % 500}"),
                _kv("gen_ai.input.messages", _messages("user", f"Where is A-7? {FILLER}")),
            ]
        )
        call = {"type": "tool_call", "id": "c1", "name": "lookup_order", "arguments": {"id": "A-7"}}
        ask = _span(scope.spans.add(), trace_id, 2, 1, f"chat {MODEL}", start + 10**6, 300)
        ask.attributes.extend(
            [
                *_llm(),
                _kv("gen_ai.input.messages", _messages("user", f"Where is A-7? {FILLER}")),
                _kv("gen_ai.output.messages", json.dumps([{"role": "assistant", "parts": [call]}])),
            ]
        )
        tool = _span(
            scope.spans.add(), trace_id, 3, 1, "execute_tool lookup_order", start + 320 * 10**6, 80
        )
        tool.attributes.extend(
            [
                _kv("gen_ai.operation.name", "execute_tool"),
                _kv("gen_ai.tool.name", "lookup_order"),
                _kv("gen_ai.tool.call.id", "c1"),
                _kv("gen_ai.tool.call.arguments", json.dumps({"id": "A-7"})),
                _kv("gen_ai.tool.call.result", json.dumps({"status": "shipped", "log": FILLER})),
            ]
        )
        if failed:
            tool.status.code = Status.STATUS_CODE_ERROR
            tool.attributes.append(_kv("error.type", "TimeoutError"))
        answer = _span(scope.spans.add(), trace_id, 4, 1, f"chat {MODEL}", start + 420 * 10**6, 400)
        answer.attributes.extend(
            [
                *_llm(),
                _kv("gen_ai.input.messages", _messages("tool", f"shipped {FILLER}")),
                _kv("gen_ai.output.messages", _messages("assistant", f"It shipped. {FILLER}")),
            ]
        )
    return Template(traces, marker, request.SerializeToString())


def _span(
    span: Span, trace_id: bytes, n: int, parent: int | None, name: str, start: int, ms: int
) -> Span:
    span.trace_id = trace_id
    span.span_id = n.to_bytes(8, "big")
    if parent is not None:
        span.parent_span_id = parent.to_bytes(8, "big")
    span.name = name
    span.kind = Span.SPAN_KIND_INTERNAL
    span.start_time_unix_nano = start
    span.end_time_unix_nano = start + ms * 1_000_000
    return span


def _llm() -> list[KeyValue]:
    return [
        _kv("gen_ai.operation.name", "chat"),
        _kv("gen_ai.provider.name", "openai"),
        _kv("gen_ai.request.model", MODEL),
        _kv("gen_ai.usage.input_tokens", 420),
        _kv("gen_ai.usage.output_tokens", 60),
    ]
