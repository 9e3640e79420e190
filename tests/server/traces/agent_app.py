"""A small support agent, as a user's application: the real `openai` client wrapped by one of
the three real instrumentations, its spans sent by the real OTLP/HTTP exporter.

    python -m tests.server.traces.agent_app CONVENTION ENDPOINT TOKEN PROVIDER_URL API_KEY

CONVENTION is `genai` (opentelemetry-instrumentation-openai-v2), `openinference`
(openinference-instrumentation-openai) or `openllmetry` (Traceloop's
opentelemetry-instrumentation-openai). The agent asks the model, runs the tool the model
calls (a span written in the same convention), and asks again with the tool's result. It
prints the trace id (hex) on its last line.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

CASE_ID = "case-7"
RELEASE = "agent-v2"
QUESTION = "Where is order 7?"
TOOL_RESULT = {"order_id": "7", "status": "shipped"}
LOOKUP: Any = {
    "type": "function",
    "function": {
        "name": "lookup_order",
        "description": "Find an order by its id.",
        "parameters": {
            "type": "object",
            "properties": {"order_id": {"type": "string"}},
            "required": ["order_id"],
        },
    },
}

CONTENT_SWITCHES = {
    # Message content is opt-in for the official instrumentation (and its newest
    # conventions put it on the span only when asked to).
    "genai": {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "span_only"},
    "openinference": {},
    "openllmetry": {"TRACELOOP_TRACE_CONTENT": "true"},
}


def _instrument(convention: str, provider: Any) -> None:
    if convention == "genai":
        from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor

        OpenAIInstrumentor().instrument(tracer_provider=provider)  # type: ignore[no-untyped-call]
    elif convention == "openinference":
        from openinference.instrumentation.openai import OpenAIInstrumentor as OIInstrumentor

        OIInstrumentor().instrument(tracer_provider=provider)
    else:
        from opentelemetry.instrumentation.openai import OpenAIInstrumentor as TLInstrumentor

        TLInstrumentor().instrument(tracer_provider=provider)


def _agent_attributes(convention: str) -> dict[str, Any]:
    common = {"shipwise.case_id": CASE_ID, "shipwise.release": RELEASE}
    if convention == "genai":
        return {**common, "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "support"}
    if convention == "openinference":
        return {**common, "openinference.span.kind": "AGENT", "input.value": QUESTION}
    return {**common, "traceloop.span.kind": "agent", "traceloop.entity.name": "support"}


def _tool_attributes(convention: str, call_id: str, arguments: str) -> dict[str, Any]:
    result = json.dumps(TOOL_RESULT)
    if convention == "genai":
        return {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": "lookup_order",
            "gen_ai.tool.call.id": call_id,
            "gen_ai.tool.call.arguments": arguments,
            "gen_ai.tool.call.result": result,
        }
    if convention == "openinference":
        return {
            "openinference.span.kind": "TOOL",
            "tool.name": "lookup_order",
            "tool_call.id": call_id,
            "input.value": arguments,
            "output.value": result,
        }
    return {
        "traceloop.span.kind": "tool",
        "traceloop.entity.name": "lookup_order",
        "traceloop.entity.input": arguments,
        "traceloop.entity.output": result,
    }


def run(convention: str, endpoint: str, token: str, provider_url: str, api_key: str) -> str:
    """Run the agent once; the trace id in hex."""
    os.environ.update(CONTENT_SWITCHES[convention])
    from openai import OpenAI
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor

    provider = TracerProvider(resource=Resource.create({"service.name": f"support-{convention}"}))
    exporter = OTLPSpanExporter(endpoint=endpoint, headers={"Authorization": f"Bearer {token}"})
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    _instrument(convention, provider)
    tracer = provider.get_tracer("support-agent")
    client = OpenAI(base_url=provider_url, api_key=api_key, max_retries=0)
    messages: list[Any] = [
        {"role": "system", "content": "You answer questions about orders."},
        {"role": "user", "content": QUESTION},
    ]
    with tracer.start_as_current_span(
        "invoke_agent support", attributes=_agent_attributes(convention)
    ) as root:
        first = client.chat.completions.create(model="fake-1", messages=messages, tools=[LOOKUP])
        asked = first.choices[0].message
        call = (asked.tool_calls or [])[0]
        arguments = call.function.arguments  # type: ignore[union-attr]
        with tracer.start_as_current_span(
            "execute_tool lookup_order",
            attributes=_tool_attributes(convention, call.id, arguments),
        ):
            pass  # the tool's work: TOOL_RESULT
        messages.append(asked.model_dump(exclude_none=True))
        messages.append(
            {"role": "tool", "tool_call_id": call.id, "content": json.dumps(TOOL_RESULT)}
        )
        client.chat.completions.create(model="fake-1", messages=messages, tools=[LOOKUP])
        trace_id = format(root.get_span_context().trace_id, "032x")
    provider.shutdown()
    return trace_id


if __name__ == "__main__":
    print(run(*sys.argv[1:6]))  # noqa: T201 - the caller reads the trace id
