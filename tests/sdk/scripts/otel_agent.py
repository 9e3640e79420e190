"""A user's agent, instrumented by one package (argv[1]) and evaluated with shipwise: the
OpenAI client calls the provider at argv[2] (key argv[3]), the tool runs in a span of its
own; `shipwise.evaluate` records each trial's spans (no tracer provider set up here: it
makes one). Prints `{"run": …, "failed": …}`."""

from __future__ import annotations

import json
import sys
from typing import Any

import openai
import shipwise
from opentelemetry import trace

PACKAGE, BASE_URL, KEY, EXPERIMENT = sys.argv[1:5]
TOOLS: Any = [{"type": "function", "function": {"name": "lookup", "parameters": {
    "type": "object", "properties": {"country": {"type": "string"}}}}}]  # fmt: skip

if PACKAGE == "opentelemetry-instrumentation-openai-v2":
    from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor as Official

    Official().instrument()  # type: ignore[no-untyped-call]
elif PACKAGE == "openinference-instrumentation-openai":
    from openinference.instrumentation.openai import OpenAIInstrumentor as Arize

    Arize().instrument()
else:
    from opentelemetry.instrumentation.openai import OpenAIInstrumentor as Traceloop

    Traceloop().instrument()

client = openai.OpenAI(base_url=BASE_URL, api_key=KEY, max_retries=0)
tracer = trace.get_tracer("agent")


def task(case: dict[str, str]) -> str:
    question: Any = [{"role": "user", "content": f"Capital of {case['country']}?"}]
    first = client.chat.completions.create(model="fake-1", messages=question, tools=TOOLS)
    (call,) = first.choices[0].message.tool_calls or []
    arguments = call.function.arguments  # type: ignore[union-attr]
    attributes = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "lookup",
        "gen_ai.tool.call.id": call.id,
        "gen_ai.tool.call.arguments": arguments,
    }
    with tracer.start_as_current_span("execute_tool lookup", attributes=attributes) as span:
        span.set_attribute("gen_ai.tool.call.result", json.dumps({"city": "Paris"}))
    second = client.chat.completions.create(model="fake-1", messages=question)
    return str(second.choices[0].message.content)


checks = [
    shipwise.checks.tool_called("lookup", {"country": "X"}),
    shipwise.checks.tool_order("lookup"),
    shipwise.checks.max_llm_calls(2),
    shipwise.checks.max_steps(3),
]
result = shipwise.evaluate(
    task, "Capitals", EXPERIMENT, checks=checks, concurrency=1, baseline=None, progress=False
)
sys.stdout.write(json.dumps({"run": result.run_id, "failed": result.failed_trials}) + "\n")
