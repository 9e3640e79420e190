"""Each side's trajectory as the pairwise judge's evidence (docs/domain.md, "Trajectories in
runs"): its metrics, then its steps in start order with the tool calls and their arguments,
at most 32 KiB of UTF-8 a side, a cut said in words. Every text in it is the agent's or the
model's: the judge is told it is evidence, not instructions."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

MAX_EVIDENCE_BYTES: Final = 32 * 1024
CUT: Final = "[trajectory cut at 32 KiB]"
_METRICS: Final = ("tokens", "turns", "toolCalls", "wallMs", "errors", "costUsd")


def render_trajectory(
    steps: Sequence[Mapping[str, Any]] | None, metrics: Mapping[str, Any] | None = None
) -> str | None:
    """The trajectory as the judge reads it; None without one."""
    if steps is None:
        return None
    lines: list[str] = []
    given = metrics or {}
    shown = [f"{name}={given[name]:g}" for name in _METRICS if _number(given, name)]
    lines.append("Metrics: " + (", ".join(shown) if shown else "(none given)"))
    lines.append(f"Steps ({len(steps)}):")
    for index, step in enumerate(steps, start=1):
        lines.extend(_step_lines(index, step))
    return bounded("\n".join(lines))


def bounded(text: str, limit: int = MAX_EVIDENCE_BYTES) -> str:
    """`text` when it fits in `limit` bytes of UTF-8, else its head (whole characters) with
    the cut said on a line of its own, the whole within `limit`."""
    encoded = text.encode("utf-8")
    if len(encoded) <= limit:
        return text
    room = limit - len(CUT.encode("utf-8")) - 1
    head = encoded[:room].decode("utf-8", errors="ignore")
    return f"{head}\n{CUT}"


def _step_lines(index: int, step: Mapping[str, Any]) -> list[str]:
    kind, name = step.get("kind") or "OTHER", step.get("name") or ""
    facts = [
        f"{label} {step[key]}"
        for key, label in (("model", "model"), ("durationMs", "ms"), ("status", "status"))
        if step.get(key) is not None
    ]
    if step.get("inputTokens") is not None or step.get("outputTokens") is not None:
        facts.append(
            f"tokens in {step.get('inputTokens') or 0} out {step.get('outputTokens') or 0}"
        )
    if step.get("errorType"):
        facts.append(f"error {step['errorType']}")
    head = f"[{index}] {kind} {name}" + (f" ({', '.join(facts)})" if facts else "")
    lines = [head]
    if kind == "TOOL" or step.get("toolName"):
        lines.append(
            f"    tool {step.get('toolName') or name} arguments: {_json(step.get('arguments'))}"
        )
        if step.get("result") is not None:
            lines.append(f"    result: {_json(step.get('result'))}")
    for message in step.get("outputMessages") or ():
        if not isinstance(message, Mapping):
            continue
        if message.get("content"):
            lines.append(f"    {message.get('role') or 'assistant'}: {message['content']}")
        for call in message.get("toolCalls") or ():
            if isinstance(call, Mapping):
                lines.append(
                    f"    asks tool {call.get('name')} arguments: {_json(call.get('arguments'))}"
                )
    return lines


def _json(value: Any) -> str:
    if value is None:
        return "(none)"
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _number(metrics: Mapping[str, Any], name: str) -> bool:
    value = metrics.get(name)
    return isinstance(value, int | float) and not isinstance(value, bool)
