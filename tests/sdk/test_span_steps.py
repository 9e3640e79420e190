"""A span as a trajectory step (`shipwise.span_steps`), for what the three instrumentations
of tests/sdk/test_otel.py do not write against the fake: the older GenAI attributes
(`gen_ai.prompt.N.*`, `gen_ai.completion.N.*`), an agent's and a retriever's span, a failed
span, and a span of no convention (an `OTHER` step); every step is one the server takes."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from shipwise.span_steps import MAX_TEXT, step_of

from server.runs.items import check_item


class Code(Enum):
    UNSET = 0
    OK = 1
    ERROR = 2


@dataclass
class Status:
    status_code: Code = Code.UNSET
    description: str | None = None


@dataclass
class Context:
    span_id: int


@dataclass
class Span:
    """What `step_of` reads of an SDK `ReadableSpan`."""

    name: str
    attributes: dict[str, Any]
    span_id: int
    parent_id: int | None = None
    start_time: int = 1_796_000_000_000_000_000
    end_time: int = 1_796_000_000_250_000_000
    status: Status = field(default_factory=Status)

    @property
    def context(self) -> Context:
        return Context(self.span_id)

    @property
    def parent(self) -> Context | None:
        return None if self.parent_id is None else Context(self.parent_id)


OLDER_LLM = {
    "llm.request.type": "chat",
    "gen_ai.system": "openai",
    "gen_ai.request.model": "gpt-x",
    "gen_ai.usage.prompt_tokens": 11,
    "gen_ai.usage.completion_tokens": 4,
    "gen_ai.prompt.0.role": "system",
    "gen_ai.prompt.0.content": "Be brief.",
    "gen_ai.prompt.1.role": "user",
    "gen_ai.prompt.1.content": "Refund A-7",
    "gen_ai.completion.0.role": "assistant",
    "gen_ai.completion.0.finish_reason": "tool_calls",
    "gen_ai.completion.0.tool_calls.0.id": "call_1",
    "gen_ai.completion.0.tool_calls.0.name": "refund",
    "gen_ai.completion.0.tool_calls.0.arguments": '{"order": "A-7"}',
}


def test_the_older_genai_attributes() -> None:
    step = step_of(Span("openai.chat", OLDER_LLM, 2, parent_id=1), {1, 2})
    assert step["kind"] == "LLM" and step["parentId"] == format(1, "016x")
    assert (step["provider"], step["model"], step["inputTokens"], step["outputTokens"]) == (
        "openai",
        "gpt-x",
        11,
        4,
    )
    assert step["inputMessages"] == [
        {"role": "system", "content": "Be brief.", "toolCalls": []},
        {"role": "user", "content": "Refund A-7", "toolCalls": []},
    ]
    assert step["outputMessages"] == [
        {
            "role": "assistant",
            "content": None,
            "toolCalls": [{"id": "call_1", "name": "refund", "arguments": {"order": "A-7"}}],
        }
    ]
    assert step["startedAt"].startswith("2026-") and step["durationMs"] == 250.0


def test_kinds_status_and_what_no_convention_names() -> None:
    agent = step_of(Span("invoke_agent support", {"gen_ai.operation.name": "invoke_agent"}, 1))
    retriever = step_of(Span("search docs", {"openinference.span.kind": "RETRIEVER"}, 3))
    failed = step_of(
        Span(
            "execute_tool refund",
            {"openinference.span.kind": "TOOL", "tool.name": "refund", "input.value": "x" * 20_000},
            4,
            parent_id=99,  # not a span of this trial
            status=Status(Code.ERROR, "TimeoutError: no answer"),
        ),
        {4},
    )
    plain = step_of(Span("SELECT orders", {"db.system": "postgresql"}, 5))
    assert [agent["kind"], retriever["kind"], failed["kind"], plain["kind"]] == [
        "AGENT",
        "RETRIEVAL",
        "TOOL",
        "OTHER",
    ]
    assert (failed["status"], failed["errorType"], failed["toolName"]) == (
        "ERROR",
        "TimeoutError: no answer",
        "refund",
    )
    assert "parentId" not in failed and len(failed["arguments"]) == MAX_TEXT
    assert plain["status"] == "OK" and plain["name"] == "SELECT orders"
    steps = [agent, step_of(Span("openai.chat", OLDER_LLM, 2)), retriever, failed, plain]
    # The server takes them as they are.
    row = check_item({"input": "q", "trials": [{"output": "x", "trajectory": steps}]}, 0)
    assert row["trials"][0]["metrics"]["errors"] == 1
