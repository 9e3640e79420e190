"""FEEDBACK checks: a live comparison's traces' feedback scores as a quality result
(docs/live.md, "Feedback as quality").

`{"kind": "FEEDBACK", "name": "thumbs", "atLeast": 1}` passes a trace whose score named
`thumbs` is at least 1 when the trace is graded: the latest `scoreTrace` of that name, else the
last `shipwise.feedback.thumbs` span attribute. A trace with no such score then has no result
from the check, as a judge check outside its sample has none. Only live comparisons take these
checks: a replayed case has no production feedback.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.errors import ValidationFailed
from server.traces.models import Trace, TraceFeedback
from server.validation import clean_name

KIND: Final = "FEEDBACK"
DEFAULT_AT_LEAST: Final = 1.0

Scores = Mapping[str, float]
"""A trace's feedback: the score of each name."""


def _fail(path: str, problem: str) -> ValidationFailed:
    return ValidationFailed(f"`{path}` {problem}", field=path)


def validate(spec: dict[str, Any], field: str) -> dict[str, Any]:
    """One FEEDBACK check, with its `atLeast` filled in."""
    for key in spec:
        if key not in ("kind", "name", "atLeast"):
            raise _fail(f"{field}.{key}", "is not a field of a FEEDBACK check")
    name = spec.get("name")
    if not isinstance(name, str):
        raise _fail(f"{field}.name", "is required by a FEEDBACK check")
    at_least = spec.get("atLeast", DEFAULT_AT_LEAST)
    if type(at_least) not in (int, float) or not math.isfinite(at_least):
        raise _fail(f"{field}.atLeast", "must be a finite number")
    return {
        "kind": KIND,
        "name": clean_name(name, field=f"{field}.name"),
        "atLeast": float(at_least),
    }


def split(checks: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the FEEDBACK checks, the others), each in its order."""
    feedback = [c for c in checks if c.get("kind") == KIND]
    return feedback, [c for c in checks if c.get("kind") != KIND]


async def scores_of(
    session: AsyncSession,
    workspace_id: str,
    traces: Sequence[Trace],
    checks: Sequence[dict[str, Any]],
) -> Mapping[str, Scores]:
    """Each trace's scores of the names the checks ask for: span attributes first, then the
    API's scores in the order given, so the latest `scoreTrace` wins."""
    names = {str(c["name"]) for c in checks}
    found: dict[str, dict[str, float]] = {t.id: {} for t in traces}
    for trace in traces:
        for given in trace.span_feedback or ():
            if given.get("name") in names:
                found[trace.id][str(given["name"])] = float(given["value"])
    scored = [t.id for t in traces if t.has_feedback]  # most traces have none: no read
    if not scored:
        return found
    rows = await session.execute(
        select(TraceFeedback.trace_id, TraceFeedback.name, TraceFeedback.value)
        .where(
            TraceFeedback.workspace_id == workspace_id,
            TraceFeedback.trace_id.in_(scored),
            TraceFeedback.name.in_(names),
        )
        .order_by(TraceFeedback.id)
    )
    for trace_id, name, value in rows.all():
        found[trace_id][name] = float(value)
    return found


def results(checks: Sequence[dict[str, Any]], scores: Scores) -> list[bool | None]:
    """Each check's result on one trace: None where the trace has no score of its name."""
    out: list[bool | None] = []
    for check in checks:
        score = scores.get(str(check["name"]))
        out.append(None if score is None else score >= float(check["atLeast"]))
    return out
