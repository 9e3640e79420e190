"""What is read from a checked trajectory (`server.trajectories.steps`): its steps in start
order, the tool calls it made in order, and the trial metrics it gives (tokens, turns,
toolCalls, wallMs, errors, costUsd: docs/domain.md, "Trajectories in runs").

A tool call is a TOOL step (`toolName`, else its `name`), or a call an LLM step asked for
that no later TOOL step answered (by `toolCallId`, else by name): a hosted comparison's
trajectory is its one model call, whose calls nobody ran, and a traced agent's calls are
counted once, where they ran.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from server.trajectories.steps import started_at

Step = Mapping[str, Any]


def in_start_order(steps: Sequence[Step]) -> list[Step]:
    """The steps by `startedAt` when every step has one (ties as given), else as given."""
    starts = [started_at(step.get("startedAt")) for step in steps]
    if any(start is None for start in starts):
        return list(steps)
    order = sorted(range(len(steps)), key=lambda i: starts[i] or datetime.min)
    return [steps[i] for i in order]


def tool_calls(steps: Sequence[Step]) -> list[dict[str, Any]]:
    """Each tool call `{name, arguments, id}` in the order made."""
    made: list[dict[str, Any] | None] = []
    pending: list[int] = []
    """Places in `made` of calls an LLM step asked for that no TOOL step has answered yet."""
    for step in in_start_order(steps):
        if step.get("kind") == "LLM":
            for message in step.get("outputMessages") or ():
                for call in message.get("toolCalls") or ():
                    pending.append(len(made))
                    made.append(
                        {
                            "name": call.get("name"),
                            "arguments": call.get("arguments"),
                            "id": call.get("id"),
                        }
                    )
        elif step.get("kind") == "TOOL":
            call = {
                "name": step.get("toolName") or step.get("name"),
                "arguments": step.get("arguments"),
                "id": step.get("toolCallId"),
            }
            answered = _answered(made, pending, call)
            if answered is not None:
                pending.remove(answered)
                made[answered] = None
            made.append(call)
    return [call for call in made if call is not None]


def _answered(
    made: list[dict[str, Any] | None], pending: list[int], call: Mapping[str, Any]
) -> int | None:
    """The place of the asked-for call this TOOL step answers: the same id when both have
    one, else the first with the same name."""
    for place in pending:
        asked = made[place]
        assert asked is not None
        if asked.get("id") and call.get("id"):
            if asked["id"] == call["id"]:
                return place
        elif asked.get("name") == call.get("name"):
            return place
    return None


def llm_calls(steps: Sequence[Step]) -> int:
    return sum(1 for step in steps if step.get("kind") == "LLM")


def metrics(steps: Sequence[Step]) -> dict[str, float]:
    """The trial metrics the trajectory gives; a metric it says nothing of is left out."""
    found: dict[str, float] = {
        "turns": llm_calls(steps),
        "toolCalls": len(tool_calls(steps)),
        "errors": sum(1 for step in steps if step.get("status") == "ERROR"),
    }
    inputs = [s["inputTokens"] for s in steps if s.get("inputTokens") is not None]
    outputs = [s["outputTokens"] for s in steps if s.get("outputTokens") is not None]
    if inputs or outputs:
        found["tokens"] = sum(inputs) + sum(outputs)
    if outputs:
        found["outputTokens"] = sum(outputs)
    costs = [s["costCents"] for s in steps if s.get("costCents") is not None]
    if costs:
        found["costUsd"] = sum(costs) / 100
    wall = wall_ms(steps)
    if wall is not None:
        found["wallMs"] = wall
    return found


def wall_ms(steps: Sequence[Step]) -> float | None:
    """From the first step's start to the last step's end; without times, the longest
    top-level step (no `parentId`)."""
    spans = [
        (start, float(step.get("durationMs") or 0))
        for step in steps
        if (start := started_at(step.get("startedAt"))) is not None
    ]
    if spans:
        first = min(start for start, _ in spans)
        return max((start - first).total_seconds() * 1000 + duration for start, duration in spans)
    roots = [
        float(step["durationMs"])
        for step in steps
        if step.get("durationMs") is not None and not step.get("parentId")
    ]
    return max(roots) if roots else None
