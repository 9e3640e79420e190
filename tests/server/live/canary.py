"""Synthetic GenAI traces of two releases with known pass rates, costs and latencies, posted
over OTLP as an instrumented app exports them; and the live comparison's GraphQL."""

from __future__ import annotations

import json
import time
from typing import Any

from bench.kit.factories import WorkspaceFixture
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.traces.otlp_bodies import SpanSpec, new_trace_id, post_spans

LIVE_FIELDS = """
  id label service candidateRelease baselineReleases status seq startedAt decidedAt
  tracesNeeded marginPoints
  arms { release isCandidate traces graded passRate costPerTrace latencyP95Ms errorRate }
  decision { outcome reason sentence criteria { kind metric status estimate low high } }
  sequence { at traces estimate low high }
"""
CREATE = f"""
mutation($input: CreateLiveComparisonInput!) {{
  createLiveComparison(input: $input) {{ {LIVE_FIELDS} }}
}}
"""
READ = f"query($id: ID!) {{ liveComparison(id: $id) {{ {LIVE_FIELDS} }} }}"
CANCEL = "mutation($id: ID!) { cancelLiveComparison(id: $id) { id status } }"
LIST = """
query($status: LiveComparisonStatus) {
  liveComparisons(first: 10, status: $status) { totalCount edges { node { id status } } }
}
"""


def chat_span(
    *, release_answer: str, model: str, tokens: tuple[int, int], duration_ms: float, at_ns: int
) -> SpanSpec:
    attributes: dict[str, object] = {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": model,
        "gen_ai.usage.input_tokens": tokens[0],
        "gen_ai.usage.output_tokens": tokens[1],
        "gen_ai.input.messages": json.dumps(
            [{"role": "user", "parts": [{"type": "text", "content": "Capital of France?"}]}]
        ),
        "gen_ai.output.messages": json.dumps(
            [{"role": "assistant", "parts": [{"type": "text", "content": release_answer}]}]
        ),
        "shipwise.expected": "Paris",
    }
    return SpanSpec(
        new_trace_id(), "chat", duration_ms=duration_ms, attributes=attributes, base_ns=at_ns
    )


async def post_release(
    backend: Backend,
    ws: WorkspaceFixture,
    *,
    release: str,
    passes: list[bool],
    service: str = "shop",
    model: str = "gpt-a",
    output_tokens: int = 20,
    duration_ms: float = 100.0,
    at_ns: int | None = None,
) -> None:
    """One export holding one single-span trace per entry of `passes`."""
    start = at_ns or time.time_ns()
    spans = [
        chat_span(
            release_answer="It is Paris." if ok else "It is Lyon.",
            model=model,
            tokens=(30, output_tokens),
            duration_ms=duration_ms * (0.8 + 0.4 * ((i * 7919) % 100) / 100),
            at_ns=start + i * 1000,
        )
        for i, ok in enumerate(passes)
    ]
    await post_spans(
        backend,
        spans,
        token=ws.tokens[Role.MEMBER],
        service=service,
        **{"shipwise.release": release},
    )


def pattern(rate: float, n: int) -> list[bool]:
    """n outcomes with exactly round(rate · k) passes in every k-prefix (spread evenly)."""
    return [int((i + 1) * rate) > int(i * rate) for i in range(n)]


async def create(backend: Backend, ws: WorkspaceFixture, **overrides: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "service": "shop",
        "candidateRelease": "v2",
        "baselineReleases": ["v1"],
        "checks": [{"kind": "CONTAINS"}],
        **overrides,
    }
    result = await backend.gql(CREATE, {"input": spec}, token=ws.tokens[Role.MEMBER])
    found: dict[str, Any] = result.ok()["createLiveComparison"]
    return found


async def read(backend: Backend, token: str, live_id: str) -> dict[str, Any]:
    found: dict[str, Any] = (await backend.gql(READ, {"id": live_id}, token=token)).ok()[
        "liveComparison"
    ]
    return found


def chat_traces(n: int, passes: list[bool]) -> list[SpanSpec]:
    """`n` single-span chat traces starting now, passing as `passes` says."""
    now = time.time_ns()
    return [
        chat_span(
            release_answer="It is Paris." if ok else "It is Lyon.",
            model="m",
            tokens=(10, 10),
            duration_ms=50.0,
            at_ns=now + i * 1000,
        )  # fmt: skip
        for i, ok in zip(range(n), passes, strict=True)
    ]
