"""`shipwise.evaluate` records each trial's spans as its trajectory (`shipwise.tracing`), with
each of the three instrumentations of the OpenAI client wrapping an agent that calls the fake
provider on 127.0.0.1 and runs a tool in a span of its own: the steps, tools and tokens read
back, the metrics filled from them, and the trajectory checks graded on them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import Behaviour, FakeOpenAI
from server.workspaces.roles import Role
from tests.conftest import PROVIDER_KEY
from tests.sdk.helpers import capital_cases, client_env, run_python, sealed_dataset

SCRIPTS = Path(__file__).parent / "scripts"

TRIALS = """query($id: ID!) {
  run(id: $id) { items(first: 10) { edges { node { input trials {
    output passed evaluators { name score }
    metrics { tokens turns toolCalls errors wallMs }
    trajectory { id parentId kind name model inputTokens outputTokens toolName toolCallId
                 arguments result status
                 inputMessages { role content }
                 outputMessages { role content toolCalls { id name arguments } } }
  } } } } }
}"""
PACKAGES = [
    "opentelemetry-instrumentation-openai-v2",
    "openinference-instrumentation-openai",
    "opentelemetry-instrumentation-openai",
]


@pytest.mark.parametrize("instrumented", PACKAGES)
async def test_each_trials_spans_are_its_trajectory(
    backend: Backend, fake_openai: FakeOpenAI, instrumented: str, tmp_path: Path
) -> None:
    """The user's process (`scripts/otel_agent.py`, one instrumentation each: they cannot
    all be undone in one process) evaluates its agent."""
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    await sealed_dataset(backend, ws, "Capitals", capital_cases(2))
    for _ in range(2):
        fake_openai.enqueue(
            Behaviour(reply=None, tool_calls=({"name": "lookup", "arguments": {"country": "X"}},)),
            Behaviour(reply="Paris"),
        )
    env = {
        **client_env(backend, token),
        "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "SPAN_ONLY",
        "OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental",
        "TRACELOOP_TRACE_CONTENT": "true",
    }
    args = (instrumented, fake_openai.base_url, PROVIDER_KEY, f"otel-{instrumented}")
    code, out, err = await run_python(
        Path(sys.executable), SCRIPTS / "otel_agent.py", env, *args, cwd=tmp_path
    )
    assert code == 0, err
    answer = json.loads(out.splitlines()[-1])
    assert answer["failed"] == 0, err

    found = (await backend.gql(TRIALS, {"id": answer["run"]}, token=token)).ok()
    for edge in found["run"]["items"]["edges"]:
        (stored,) = edge["node"]["trials"]
        steps = stored["trajectory"]
        assert [s["kind"] for s in steps] == ["LLM", "TOOL", "LLM"], (instrumented, steps)
        first, tool, second = steps
        assert first["model"] == "fake-1" and first["inputTokens"] > 0
        assert first["inputMessages"][0]["role"] == "user"
        assert "Capital of" in first["inputMessages"][0]["content"]
        (asked,) = first["outputMessages"][0]["toolCalls"]
        assert asked["name"] == "lookup" and asked["id"] == tool["toolCallId"]
        assert (tool["toolName"], tool["arguments"], tool["result"]) == (
            "lookup", {"country": "X"}, {"city": "Paris"},
        )  # fmt: skip
        assert second["outputMessages"][0]["content"] == "Paris"
        assert stored["output"] == "Paris"
        assert stored["metrics"]["turns"] == 2 and stored["metrics"]["toolCalls"] == 1
        assert stored["metrics"]["tokens"] == sum(
            s["inputTokens"] + s["outputTokens"] for s in (first, second)
        )
        assert stored["passed"] is True, stored["evaluators"]
