"""The older GenAI conventions (`gen_ai.prompt.N.*` / `gen_ai.completion.N.*` attributes and
`gen_ai.*.message` events), OpenInference's indexed messages, errors and unknown spans, as
posted to the receiver and read back as steps."""

from __future__ import annotations

import json

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from tests.server.traces.otlp_bodies import SpanSpec, new_trace_id, post_spans, read_trace

OLD_ATTRIBUTES = {
    "llm.request.type": "chat",
    "gen_ai.system": "openai",
    "gen_ai.request.model": "gpt-4o",
    "gen_ai.usage.prompt_tokens": 30,
    "gen_ai.usage.completion_tokens": 9,
    "gen_ai.prompt.0.role": "system",
    "gen_ai.prompt.0.content": "Be brief.",
    "gen_ai.prompt.1.role": "user",
    "gen_ai.prompt.1.content": "Refund order 9",
    "gen_ai.completion.0.role": "assistant",
    "gen_ai.completion.0.finish_reason": "tool_calls",
    "gen_ai.completion.0.tool_calls.0.id": "call_9",
    "gen_ai.completion.0.tool_calls.0.name": "refund",
    "gen_ai.completion.0.tool_calls.0.arguments": '{"order": 9}',
}
EVENTS: list[tuple[str, dict[str, object]]] = [
    ("gen_ai.system.message", {"content": "Be brief."}),
    ("gen_ai.user.message", {"content": "Is it refunded?"}),
    (
        "gen_ai.choice",
        {
            "index": 0,
            "finish_reason": "stop",
            "message": json.dumps({"role": "assistant", "content": "Yes, refunded."}),
        },
    ),
]
OPENINFERENCE = {
    "openinference.span.kind": "LLM",
    "llm.model_name": "claude-x",
    "llm.provider": "anthropic",
    "llm.token_count.prompt": 7,
    "llm.token_count.completion": 2,
    "llm.input_messages.0.message.role": "user",
    "llm.input_messages.0.message.contents.0.message_content.text": "Say ",
    "llm.input_messages.0.message.contents.1.message_content.text": "hi",
    "llm.output_messages.0.message.role": "assistant",
    "llm.output_messages.0.message.content": "hi",
}


async def test_older_and_other_conventions_read_as_one_step_shape(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    trace_id = new_trace_id()
    old = SpanSpec(trace_id, "openai.chat", attributes=OLD_ATTRIBUTES)
    evented = SpanSpec(
        trace_id,
        "chat gpt-4o",
        start_ms=20,
        base_ns=old.base_ns,
        attributes={"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o"},
        events=EVENTS,
    )
    inference = SpanSpec(
        trace_id, "ChatCompletion", start_ms=40, base_ns=old.base_ns, attributes=OPENINFERENCE
    )
    failed = SpanSpec(
        trace_id,
        "cache.get",
        start_ms=60,
        base_ns=old.base_ns,
        error=True,
        attributes={"cache.key": "k1"},
        events=[("exception", {"exception.type": "TimeoutError"})],
    )
    await post_spans(backend, [failed, inference, evented, old], token=ws.owner)
    trace = await read_trace(backend, trace_id, token=ws.owner)
    first, second, third, fourth = trace["steps"]

    assert (first["kind"], first["provider"], first["model"]) == ("LLM", "openai", "gpt-4o")
    assert [(m["role"], m["content"]) for m in first["inputMessages"]] == [
        ("system", "Be brief."),
        ("user", "Refund order 9"),
    ]
    assert first["outputMessages"][0]["toolCalls"] == [
        {"id": "call_9", "name": "refund", "arguments": {"order": 9}}
    ]
    assert (first["finishReasons"], first["inputTokens"], first["outputTokens"]) == (
        ["tool_calls"],
        30,
        9,
    )

    assert [(m["role"], m["content"]) for m in second["inputMessages"]] == [
        ("system", "Be brief."),
        ("user", "Is it refunded?"),
    ]
    assert second["outputMessages"][0]["content"] == "Yes, refunded."
    assert second["finishReasons"] == ["stop"]

    assert (third["kind"], third["provider"], third["model"]) == ("LLM", "anthropic", "claude-x")
    assert third["inputMessages"][0]["content"] == "Say hi"
    assert (third["inputTokens"], third["outputTokens"]) == (7, 2)

    assert (fourth["kind"], fourth["status"], fourth["errorType"]) == (
        "OTHER",
        "ERROR",
        "TimeoutError",
    )
    assert fourth["attributes"] == {"cache.key": "k1"}

    assert (trace["status"], trace["llmCalls"], trace["toolCalls"]) == ("ERROR", 3, 1)
    assert (trace["input"], trace["output"]) == ("Refund order 9", "hi")
    assert trace["models"] == ["gpt-4o", "claude-x"]
    assert (trace["inputTokens"], trace["outputTokens"]) == (37, 11)
