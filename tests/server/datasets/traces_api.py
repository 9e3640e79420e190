"""Traces posted over OTLP for the dataset-from-traces tests, and the GraphQL documents."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from bench.kit.harness import Backend, GraphQLResult
from tests.server.traces.otlp_bodies import SpanSpec, new_trace_id, post_spans

COUNTS = "matched taken duplicates withoutInput redacted withExpected strata { key matched taken }"
CREATE = (
    "mutation($i: CreateDatasetFromTracesInput!) { createDatasetFromTraces(input: $i) { "
    f"{COUNTS} dataset {{ id name }} version {{ id number state caseCount contentHash }} }} }}"
)
PREVIEW = (
    "query($i: CreateDatasetFromTracesInput!) { previewDatasetFromTraces(input: $i) { "
    f"{COUNTS} dataset {{ id }} version {{ id }} }} }}"
)
ADD = (
    "mutation($t: ID!, $d: ID!, $e: String, $r: [Redaction!]) "
    "{ addTraceToDataset(traceId: $t, datasetId: $d, expected: $e, redact: $r) "
    "{ id number state caseCount } }"
)
VERSION_CASES = (
    "query($id: ID!) { datasetVersion(id: $id) { id state caseCount "
    "cases(first: 100) { edges { node { datasetItemId input expected split tags metadata } } } } }"
)


@dataclass
class Posted:
    trace_id: str
    question: str
    release: str
    extra: dict[str, object] = field(default_factory=dict)


def chat_span(
    trace_id: str,
    question: str,
    *,
    release: str,
    model: str = "gpt-a",
    answer: str | None = None,
    system: str | None = "You are terse.",
    extra: dict[str, object] | None = None,
) -> SpanSpec:
    messages: list[dict[str, Any]] = []
    if system is not None:
        messages.append({"role": "system", "parts": [{"type": "text", "content": system}]})
    messages.append({"role": "user", "parts": [{"type": "text", "content": question}]})
    reply = answer if answer is not None else f"answer to {question}"
    return SpanSpec(
        trace_id,
        "chat",
        base_ns=time.time_ns(),
        attributes={
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": model,
            "gen_ai.usage.input_tokens": 10,
            "gen_ai.usage.output_tokens": 4,
            "gen_ai.input.messages": json.dumps(messages),
            "gen_ai.output.messages": json.dumps(
                [{"role": "assistant", "parts": [{"type": "text", "content": reply}]}]
            ),
            "shipwise.release": release,
            **(extra or {}),
        },
    )


async def post_chats(
    backend: Backend,
    token: str,
    questions: list[str],
    *,
    release: str = "r1",
    service: str = "shop",
    **options: Any,
) -> list[str]:
    """One single-span chat trace per question, in one export; their ids in order."""
    ids = [new_trace_id() for _ in questions]
    spans = [
        chat_span(i, q, release=release, **options) for i, q in zip(ids, questions, strict=True)
    ]
    await post_spans(backend, spans, token=token, service=service)
    return ids


async def create(backend: Backend, token: str, **fields: Any) -> GraphQLResult:
    return await backend.gql(CREATE, {"i": {"filter": {}, **fields}}, token=token)


async def preview(backend: Backend, token: str, **fields: Any) -> GraphQLResult:
    return await backend.gql(PREVIEW, {"i": {"filter": {}, **fields}}, token=token)


async def cases_of(backend: Backend, token: str, version_id: str) -> list[dict[str, Any]]:
    result = await backend.gql(VERSION_CASES, {"id": version_id}, token=token)
    edges = result.ok()["datasetVersion"]["cases"]["edges"]
    return [edge["node"] for edge in edges]
