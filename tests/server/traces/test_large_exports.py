"""Exports over 256 KiB, which the receiver prepares in its worker processes
(server/traces/preparer.py), are stored as small ones are: spans of a trace over several
exports make one trace, a retry adds nothing, secrets are redacted, unreadable spans counted,
a body that is not OTLP refused."""

from __future__ import annotations

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.traces.preparer import INLINE_BYTES
from tests.server.traces.otlp_bodies import (
    SpanSpec,
    export,
    new_trace_id,
    post,
    post_spans,
    read_trace,
)

PADDING = "order A-7 shipped on Monday; " * 2_000
"""~58 KB a span: five spans make an export larger than `INLINE_BYTES`."""


def chat(trace_id: str, root: SpanSpec, n: int) -> SpanSpec:
    return SpanSpec(
        trace_id,
        f"chat {n}",
        parent_id=root.span_id,
        start_ms=10 + n,
        base_ns=root.base_ns,
        attributes={
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "gpt-4o-mini",
            "gen_ai.usage.input_tokens": n + 1,
            "openai.api_key": "sk-SECRET",
            "padding": PADDING,
        },
    )


async def test_large_exports_make_whole_traces_over_several_requests(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    trace_ids = [new_trace_id() for _ in range(3)]
    roots = {
        t: SpanSpec(
            t,
            "invoke_agent support",
            duration_ms=500,
            attributes={"padding": PADDING, "db.password": "SECRET"},  # an OTHER step's, shown
        )
        for t in trace_ids
    }
    calls = {t: [chat(t, roots[t], n) for n in range(3)] for t in trace_ids}
    children = [span for t in trace_ids for span in calls[t]]
    assert len(export(children).SerializeToString()) > INLINE_BYTES
    await post_spans(backend, children, token=ws.owner)  # the children first
    broken = SpanSpec(trace_ids[0], "broken", attributes={"padding": PADDING})
    broken.span_id = "00" * 8
    body = export([*roots.values(), *children[:2], broken]).SerializeToString()
    assert len(body) > INLINE_BYTES
    posted = await post(backend, body, token=ws.owner)  # the roots, a retry, one unreadable
    assert posted.status == 200, posted.body[:300]
    assert posted.response().partial_success.rejected_spans == 1

    for trace_id in trace_ids:
        trace = await read_trace(backend, trace_id, token=ws.owner)
        assert (trace["stepCount"], trace["llmCalls"], trace["inputTokens"]) == (4, 3, 6)
        assert trace["rootName"] == "invoke_agent support"
        assert [s["name"] for s in trace["steps"]] == [
            "invoke_agent support",
            *(f"chat {n}" for n in range(3)),
        ]
        assert trace["steps"][0]["attributes"]["db.password"] == "[redacted]"
        assert "SECRET" not in str(trace)

    not_otlp = b"\xff" * (INLINE_BYTES + 1)
    refused = await post(backend, not_otlp, token=ws.owner)
    assert refused.status == 400
