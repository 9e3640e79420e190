"""The SIMULATED provider: deterministic by seed, accuracy and error rate respected, scripts."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from server.providers.base import CallResult, DispatchError, ModelCall
from server.providers.simulated import NO_EXPECTED_ANSWER, WRONG_ANSWER, SimulatedProvider
from tests.server.providers.conftest import RecordedSleep

TEMPLATE_A = [{"role": "user", "content": "Answer: what is 2 + 2?"}]
TEMPLATE_B = [{"role": "user", "content": "Please answer carefully: what is 2 + 2?"}]


def _call(case: int, *, trial: int = 0, comparison: str = "cmp_1", **fields: Any) -> ModelCall:
    values: dict[str, Any] = {
        "messages": TEMPLATE_A,
        "model": "sim-1",
        "max_output_tokens": 256,
        "trial_header": f"{comparison}/0/{case}/{trial}",
        "delivery_header": "dlv_1",
        "case_key": f"item-{case}",
        "expected": "4",
    }
    values.update(fields)
    return ModelCall(**values)


async def _run(provider: SimulatedProvider, calls: list[ModelCall]) -> list[CallResult]:
    return [await provider.call(c) for c in calls]


async def test_the_same_call_gets_the_same_answer_every_time() -> None:
    simulation = {"seed": 7, "accuracy": 0.5, "errorRate": 0.2}
    calls = [_call(case, trial=t) for case in range(50) for t in range(3)]
    first = await _run(SimulatedProvider(simulation), calls)
    second = await _run(SimulatedProvider(simulation), calls)
    assert first == second
    # A rerun is a new comparison id: its outcomes repeat.
    rerun = await _run(
        SimulatedProvider(simulation),
        [_call(case, trial=t, comparison="cmp_2") for case in range(50) for t in range(3)],
    )
    assert rerun == first
    assert {r.output for r in first} == {"4", WRONG_ANSWER, None}


async def test_seed_and_template_change_the_outcomes_reproducibly() -> None:
    calls_a = [_call(case) for case in range(200)]
    calls_b = [_call(case, messages=TEMPLATE_B) for case in range(200)]
    base = await _run(SimulatedProvider({"seed": 1, "accuracy": 0.5}), calls_a)
    other_seed = await _run(SimulatedProvider({"seed": 2, "accuracy": 0.5}), calls_a)
    other_template = await _run(SimulatedProvider({"seed": 1, "accuracy": 0.5}), calls_b)
    assert [r.output for r in base] != [r.output for r in other_seed]
    assert [r.output for r in base] != [r.output for r in other_template]
    again = await _run(SimulatedProvider({"seed": 1, "accuracy": 0.5}), calls_b)
    assert again == other_template


@pytest.mark.parametrize("accuracy", [0.0, 0.3, 0.9, 1.0])
async def test_accuracy_is_respected_over_1000_calls(accuracy: float) -> None:
    provider = SimulatedProvider({"seed": 11, "accuracy": accuracy, "errorRate": 0})
    results = await _run(provider, [_call(case) for case in range(1000)])
    right = sum(r.output == "4" for r in results) / len(results)
    assert abs(right - accuracy) < 0.05
    assert all(r.error is None for r in results)
    assert {r.output for r in results} <= {"4", WRONG_ANSWER}


async def test_error_rate_is_respected() -> None:
    provider = SimulatedProvider({"seed": 3, "accuracy": 1, "errorRate": 0.25})
    results = await _run(provider, [_call(case) for case in range(1000)])
    errors = [r for r in results if r.error is not None]
    assert abs(len(errors) / 1000 - 0.25) < 0.05
    assert all(
        r.error == DispatchError.SIMULATED_ERROR and r.output is None and r.input_tokens == 0
        for r in errors
    )


async def test_a_script_overrides_the_draw() -> None:
    script = {
        "item-0": "scripted text",
        "item-1": {
            "output": "with a tool",
            "toolCalls": [{"name": "search", "arguments": {"q": 1}}],
        },
        "item-2": {"answer": 42},
        "item-3": {"toolCalls": [{"name": "lookup"}, {"bad": True}]},
    }
    # accuracy 0 and errorRate 1: only the script answers.
    provider = SimulatedProvider({"seed": 0, "accuracy": 0, "errorRate": 1, "script": script})
    results = await _run(provider, [_call(case) for case in range(5)])
    assert results[0].output == "scripted text"
    assert (results[1].output, results[1].tool_calls) == (
        "with a tool",
        [{"name": "search", "arguments": {"q": 1}}],
    )
    assert json.loads(results[2].output or "") == {"answer": 42}
    assert (results[3].output, results[3].tool_calls) == ("", [{"name": "lookup", "arguments": {}}])
    assert results[4].error == DispatchError.SIMULATED_ERROR


@pytest.mark.parametrize(
    ("expected", "answer"),
    [
        ("Paris", "Paris"),
        ({"b": 1, "a": [1, 2]}, '{"a": [1, 2], "b": 1}'),
        (42, "42"),
        (True, "true"),
        (None, NO_EXPECTED_ANSWER),
    ],
)
async def test_a_right_answer_is_the_expected_one(expected: Any, answer: str) -> None:
    provider = SimulatedProvider({"seed": 0, "accuracy": 1})
    result = await provider.call(_call(0, expected=expected))
    assert result.output == answer


async def test_a_right_answer_calls_the_first_tool_on_offer() -> None:
    tools = [{"type": "function", "function": {"name": "web_search", "parameters": {}}}]
    right = await SimulatedProvider({"accuracy": 1}).call(_call(0, tools=tools))
    wrong = await SimulatedProvider({"accuracy": 0}).call(_call(0, tools=tools))
    assert right.tool_calls == [{"name": "web_search", "arguments": {}}]
    assert wrong.tool_calls == []


async def test_latency_tokens_and_output_bound() -> None:
    sleeps = RecordedSleep()
    provider = SimulatedProvider({"accuracy": 1, "latencyMs": 250}, sleep=sleeps)
    result = await provider.call(_call(0, expected="x" * 100, max_output_tokens=5))
    assert sleeps.delays == [0.25]
    assert result.latency_ms == 250
    assert result.output == "x" * 20  # 5 tokens × 4 characters
    assert result.input_tokens == math.ceil(len(TEMPLATE_A[0]["content"]) / 4)
    assert result.output_tokens == 5
    assert SimulatedProvider.simulated is True


async def test_defaults_when_the_simulation_is_empty() -> None:
    results = await _run(SimulatedProvider(None), [_call(case) for case in range(300)])
    assert all(r.error is None for r in results)
    right = sum(r.output == "4" for r in results) / len(results)
    assert 0.7 < right < 0.9  # the connection default, accuracy 0.8


async def test_a_script_answers_trial_by_trial_model_by_model_and_can_fail() -> None:
    script = {
        "item-0": {"trials": ["first", "second", {"error": True}]},
        "item-1": {"models": {"sim-2": "only sim-2 is scripted"}},
        "item-2": {"trials": []},
    }
    provider = SimulatedProvider({"seed": 0, "accuracy": 1, "script": script})
    trials = await _run(provider, [_call(0, trial=t) for t in range(4)])
    assert [r.output for r in trials] == ["first", "second", None, "first"]  # cycling
    assert trials[2].error == DispatchError.SIMULATED_ERROR
    scripted = await provider.call(_call(1, model="sim-2"))
    drawn = await provider.call(_call(1, model="sim-1"))
    assert scripted.output == "only sim-2 is scripted"
    assert drawn.output == "4"  # accuracy 1: the expected answer
    assert (await provider.call(_call(2))).output == ""
