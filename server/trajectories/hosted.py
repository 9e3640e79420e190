"""A hosted comparison's trial as a trajectory: its one model call, with the tool calls the
model asked for (nobody runs them), so trajectory checks grade hosted and imported trials
alike (docs/domain.md, "Trajectories in runs")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def one_call(
    *,
    model: str | None,
    output: str | None,
    tool_calls: Sequence[dict[str, Any]],
    input_tokens: int | None,
    output_tokens: int | None,
    latency_ms: float | None,
) -> list[dict[str, Any]]:
    """The trajectory of one model call: a single LLM step (`model` left out when unknown:
    a stored trial keeps no model name)."""
    step: dict[str, Any] = {
        "kind": "LLM",
        "name": "chat",
        "status": "OK",
        "durationMs": latency_ms,
        "inputTokens": input_tokens,
        "outputTokens": output_tokens,
        "outputMessages": [
            {
                "role": "assistant",
                "content": output,
                "toolCalls": [
                    {"name": call.get("name"), "arguments": call.get("arguments")}
                    for call in tool_calls
                ],
            }
        ],
    }
    if model is not None:
        step["model"] = model
    return [step]
