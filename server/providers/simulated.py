"""The SIMULATED provider: deterministic answers by seed, for demos and tests without a model.

Each call draws two stable pseudo-random numbers from the connection's seed, the case, the
trial's cohort/case/trial parts (not the comparison id, so a rerun repeats its outcomes),
the model and the rendered messages (so two prompt templates get different, reproducible
outcomes). One decides a simulated error (`errorRate`), the other a right or wrong answer
(`accuracy`). A per-case `script` overrides both; a script entry `{"trials": [...]}` answers
trial i with its i-th entry (cycling), an entry `{"models": {model: entry}}` answers each
model with its own entry (an unlisted model draws), and an entry `{"error": true}` fails the
call with `simulated_error`, so a test or a demo can script every trial's outcome.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Mapping
from typing import Any

from server.providers.base import CallResult, DispatchError, ModelCall
from server.providers.openai_compatible import Sleep
from server.providers.pricing import CHARS_PER_TOKEN, estimate_input_tokens, estimate_output_tokens

WRONG_ANSWER = "I am not sure."
NO_EXPECTED_ANSWER = "This is a simulated answer."
"""What a 'right' answer says when the case has no expected answer to give."""


def _unit(chunk: bytes) -> float:
    """Eight bytes of a digest as a number in [0, 1)."""
    return int.from_bytes(chunk, "big") / 2**64


def _as_text(value: Any) -> str:
    # JSON for every non-string, so EXACT_MATCH (which compares JSON) agrees with it.
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)


def _scripted_calls(value: Any) -> list[dict[str, Any]]:
    calls = []
    for item in value if isinstance(value, list) else []:
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            arguments = item.get("arguments", {})
            if not isinstance(arguments, dict | str):
                arguments = json.dumps(arguments, default=str)
            calls.append({"name": item["name"], "arguments": arguments})
    return calls


def scripted_answer(entry: Any) -> tuple[str, list[dict[str, Any]]]:
    """A script entry as (output, tool calls): a string, `{output, toolCalls}`, or any other
    object, which is answered as its JSON."""
    if isinstance(entry, dict) and ("output" in entry or "toolCalls" in entry):
        output = entry.get("output")
        return ("" if output is None else _as_text(output)), _scripted_calls(entry.get("toolCalls"))
    return _as_text(entry), []


def by_model(entry: Any, model: str) -> Any:
    """A `{"models": {...}}` entry's answer for `model` (None: not scripted for it)."""
    if isinstance(entry, dict) and isinstance(entry.get("models"), dict):
        return entry["models"].get(model)
    return entry


def per_trial(entry: Any, trial_header: str) -> Any:
    """A `{"trials": [...]}` entry's answer for the header's trial index (cycling)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("trials"), list):
        return entry
    answers = entry["trials"]
    if not answers:
        return ""
    index = trial_header.rsplit("/", 1)[-1]
    return answers[int(index) % len(answers) if index.isdigit() else 0]


class SimulatedProvider:
    """Answers `expected` with probability `accuracy`, fails with probability `errorRate`."""

    simulated = True

    def __init__(self, simulation: Mapping[str, Any] | None, *, sleep: Sleep = asyncio.sleep):
        sim = simulation or {}
        self._seed = int(sim.get("seed") or 0)
        self._accuracy = float(sim.get("accuracy", 0.8))
        self._error_rate = float(sim.get("errorRate") or 0.0)
        self._latency_ms = max(0, int(sim.get("latencyMs") or 0))
        self._script: dict[str, Any] = dict(sim.get("script") or {})
        self._sleep = sleep

    def draws(self, request: ModelCall) -> tuple[float, float]:
        """The call's two stable numbers in [0, 1): (error draw, accuracy draw)."""
        _comparison, _, trial_parts = request.trial_header.partition("/")
        rendered = json.dumps(request.messages, sort_keys=True, ensure_ascii=False, default=str)
        key = json.dumps(
            [
                self._seed,
                request.case_key,
                trial_parts,
                request.model,
                hashlib.sha256(rendered.encode()).hexdigest(),
            ]
        )
        digest = hashlib.sha256(key.encode()).digest()
        return _unit(digest[:8]), _unit(digest[8:16])

    async def call(self, request: ModelCall) -> CallResult:
        """A deterministic answer (or `simulated_error`) after `latencyMs`."""
        if self._latency_ms:
            await self._sleep(self._latency_ms / 1000)
        entry = by_model(self._script.get(request.case_key), request.model)
        if entry is not None:
            entry = per_trial(entry, request.trial_header)
            if isinstance(entry, dict) and entry.get("error"):
                return CallResult(
                    output=None, latency_ms=self._latency_ms, error=DispatchError.SIMULATED_ERROR
                )
            output, tool_calls = scripted_answer(entry)
        else:
            error_draw, answer_draw = self.draws(request)
            if error_draw < self._error_rate:
                return CallResult(
                    output=None,
                    latency_ms=self._latency_ms,
                    error=DispatchError.SIMULATED_ERROR,
                )
            output, tool_calls = self._answer(request, right=answer_draw < self._accuracy)
        # Like a real model, never more than the output bound the cost estimate relies on.
        output = output[: request.max_output_tokens * CHARS_PER_TOKEN]
        return CallResult(
            output=output,
            tool_calls=tool_calls,
            input_tokens=estimate_input_tokens(request.messages),
            output_tokens=estimate_output_tokens(output, tool_calls),
            latency_ms=self._latency_ms,
        )

    def _answer(self, request: ModelCall, *, right: bool) -> tuple[str, list[dict[str, Any]]]:
        if not right:
            return WRONG_ANSWER, []
        output = NO_EXPECTED_ANSWER if request.expected is None else _as_text(request.expected)
        # With tools on offer, a right answer also calls the first one (a TOOL_CALL check on it
        # then passes at the same rate as the answer).
        name = _first_tool_name(request.tools)
        return output, ([{"name": name, "arguments": {}}] if name else [])

    async def aclose(self) -> None:
        """Nothing to close."""


def _first_tool_name(tools: list[dict[str, Any]] | None) -> str | None:
    for tool in tools or []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            return str(function["name"])
    return None
