"""OTLP trace exports built with `opentelemetry-proto`, as an exporter sends them, and the
receiver's answers read back."""

from __future__ import annotations

import gzip
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans, Span, Status

from bench.kit.harness import Backend

PROTOBUF = "application/x-protobuf"


def new_trace_id() -> str:
    return os.urandom(16).hex()


def new_span_id() -> str:
    return os.urandom(8).hex()


def any_value(value: object) -> AnyValue:
    if isinstance(value, bool):
        return AnyValue(bool_value=value)
    if isinstance(value, int):
        return AnyValue(int_value=value)
    if isinstance(value, float):
        return AnyValue(double_value=value)
    if isinstance(value, list):
        result = AnyValue()
        result.array_value.values.extend(any_value(v) for v in value)
        return result
    return AnyValue(string_value=str(value))


@dataclass
class SpanSpec:
    trace_id: str
    name: str
    span_id: str = field(default_factory=new_span_id)
    parent_id: str | None = None
    start_ms: float = 0.0
    duration_ms: float = 10.0
    attributes: dict[str, object] = field(default_factory=dict)
    error: bool = False
    base_ns: int = field(default_factory=time.time_ns)
    events: list[tuple[str, dict[str, object]]] = field(default_factory=list)

    def proto(self) -> Span:
        start = self.base_ns + int(self.start_ms * 1e6)
        span = Span(
            trace_id=bytes.fromhex(self.trace_id),
            span_id=bytes.fromhex(self.span_id),
            name=self.name,
            start_time_unix_nano=start,
            end_time_unix_nano=start + int(self.duration_ms * 1e6),
            kind=Span.SPAN_KIND_INTERNAL,
        )
        if self.parent_id:
            span.parent_span_id = bytes.fromhex(self.parent_id)
        if self.error:
            span.status.code = Status.STATUS_CODE_ERROR
        span.attributes.extend(
            KeyValue(key=k, value=any_value(v)) for k, v in self.attributes.items()
        )
        for name, attributes in self.events:
            event = span.events.add(name=name, time_unix_nano=start)
            event.attributes.extend(
                KeyValue(key=k, value=any_value(v)) for k, v in attributes.items()
            )
        return span


def export(
    spans: list[SpanSpec], service: str = "agent-app", **resource: object
) -> ExportTraceServiceRequest:
    request = ExportTraceServiceRequest()
    resource_spans = ResourceSpans()
    attributes = {"service.name": service, **resource}
    resource_spans.resource.attributes.extend(
        KeyValue(key=k, value=any_value(v)) for k, v in attributes.items()
    )
    scope = ScopeSpans()
    scope.spans.extend(s.proto() for s in spans)
    resource_spans.scope_spans.append(scope)
    request.resource_spans.append(resource_spans)
    return request


def otlp_json(request: ExportTraceServiceRequest) -> dict[str, Any]:
    """The OTLP JSON encoding: protobuf's JSON mapping with ids in hex."""
    document: dict[str, Any] = json_format.MessageToDict(request)
    for resource_spans in document.get("resourceSpans", []):
        for scope_spans in resource_spans.get("scopeSpans", []):
            for span in scope_spans.get("spans", []):
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in span:
                        span[key] = _b64_to_hex(span[key])
    return document


def _b64_to_hex(value: str) -> str:
    import base64

    return base64.b64decode(value).hex()


@dataclass
class Posted:
    status: int
    headers: httpx.Headers
    body: bytes

    def response(self) -> ExportTraceServiceResponse:
        answer = ExportTraceServiceResponse()
        if self.headers.get("content-type", "").startswith("application/json"):
            json_format.Parse(self.body, answer)
        else:
            answer.ParseFromString(self.body)
        return answer

    def status_message(self) -> dict[str, Any]:
        if self.headers.get("content-type", "").startswith("application/json"):
            found: dict[str, Any] = json.loads(self.body)
            return found
        from google.rpc.status_pb2 import Status as RpcStatus

        status = RpcStatus()
        status.ParseFromString(self.body)
        return {"code": status.code, "message": status.message}


async def post(
    backend: Backend,
    body: bytes,
    *,
    token: str | None,
    content_type: str = PROTOBUF,
    gzipped: bool = False,
) -> Posted:
    headers = {"Content-Type": content_type}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if gzipped:
        headers["Content-Encoding"] = "gzip"
        body = gzip.compress(body)
    answer = await backend.client.post("/v1/traces", content=body, headers=headers)
    return Posted(answer.status_code, answer.headers, answer.content)


async def post_spans(
    backend: Backend,
    spans: list[SpanSpec],
    *,
    token: str,
    service: str = "agent-app",
    **resource: object,
) -> Posted:
    body = export(spans, service=service, **resource).SerializeToString()
    posted = await post(backend, body, token=token)
    assert posted.status == 200, (posted.status, posted.body[:500])
    return posted


TRACE_FIELDS = """
  id service release startedAt durationMs status rootName input output models stepCount
  llmCalls toolCalls inputTokens outputTokens costCents caseId expected hasFeedback
  steps {
    id kind name startedAt durationMs status errorType provider model
    inputMessages { role content toolCalls { id name arguments } }
    outputMessages { role content toolCalls { id name arguments } }
    finishReasons inputTokens outputTokens costCents toolName toolCallId arguments result
    parentId attributes
  }
  feedback { name value comment source }
"""


async def read_trace(backend: Backend, trace_id: str, *, token: str) -> dict[str, Any]:
    result = await backend.gql(
        f"query($id: ID!) {{ trace(id: $id) {{ {TRACE_FIELDS} }} }}", {"id": trace_id}, token=token
    )
    found: dict[str, Any] = result.ok()["trace"]
    return found


def agent_trace(trace_id: str, question: str, answer: str) -> list[SpanSpec]:
    """An agent's four spans: invoke_agent, a chat asking for a tool, the tool, the answer."""
    root = SpanSpec(
        trace_id,
        "invoke_agent support",
        duration_ms=80,
        attributes={"gen_ai.operation.name": "invoke_agent"},
    )
    ask = SpanSpec(
        trace_id,
        "chat fake-1",
        parent_id=root.span_id,
        start_ms=5,
        duration_ms=20,
        base_ns=root.base_ns,
        attributes={
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "fake-1",
            "gen_ai.usage.input_tokens": 20,
            "gen_ai.usage.output_tokens": 6,
            "gen_ai.input.messages": json.dumps(
                [{"role": "user", "parts": [{"type": "text", "content": question}]}]
            ),
            "gen_ai.output.messages": json.dumps(
                [
                    {
                        "role": "assistant",
                        "parts": [
                            {
                                "type": "tool_call",
                                "id": "call_1",
                                "name": "lookup_order",
                                "arguments": {"order_id": "7"},
                            }
                        ],
                    }
                ]
            ),
        },
    )
    tool = SpanSpec(
        trace_id,
        "execute_tool lookup_order",
        parent_id=root.span_id,
        start_ms=30,
        duration_ms=10,
        base_ns=root.base_ns,
        attributes={
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": "lookup_order",
            "gen_ai.tool.call.id": "call_1",
            "gen_ai.tool.call.arguments": '{"order_id": "7"}',
            "gen_ai.tool.call.result": '{"status": "shipped"}',
        },
    )
    reply = SpanSpec(
        trace_id,
        "chat fake-1",
        parent_id=root.span_id,
        start_ms=45,
        duration_ms=30,
        base_ns=root.base_ns,
        attributes={
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "fake-1",
            "gen_ai.usage.input_tokens": 40,
            "gen_ai.usage.output_tokens": 9,
            "gen_ai.output.messages": json.dumps(
                [{"role": "assistant", "parts": [{"type": "text", "content": answer}]}]
            ),
        },
    )
    return [root, ask, tool, reply]
