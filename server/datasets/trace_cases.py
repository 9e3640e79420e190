"""Reading traces for dataset cases: the candidates a filter matches (id, stratum, input) and,
for the chosen ones, what a case is made of (docs/traces.md "Datasets from traces").

A case's input is the input messages of the trace's first model call, without its system
messages (a release brings its own), as turns `{role, content}`; a trace whose call carried
none gives its first user message as the one turn.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.datasets.trace_sample import Candidate
from server.traces.models import Trace, TraceFeedback, TraceSpan

IDS_PER_QUERY = 1000
EXPECTED_ATTRIBUTE = "shipwise.expected"
"""The attribute the trace summary keeps in `Trace.expected`: read from there."""


@dataclass(slots=True)
class TraceSource:
    """What one case is made of."""

    trace_id: str
    input: str | None
    output: str | None
    expected_attribute: str | None
    messages: list[dict[str, Any]] = field(default_factory=list)
    feedback: list[float] = field(default_factory=list)

    def turns(self) -> list[dict[str, Any]]:
        if self.messages:
            return self.messages
        return [{"role": "user", "content": self.input or ""}]

    @property
    def positive(self) -> bool:
        """Scored, and every score above zero (a thumbs-up of 1, not a 0 or a -1)."""
        return bool(self.feedback) and min(self.feedback) > 0


def _attribute(key: str) -> ColumnElement[Any]:
    """A span's attribute `key`, else its resource's (stored as {span, resource, events})."""
    return func.coalesce(
        TraceSpan.attributes[("span", key)].as_string(),
        TraceSpan.attributes[("resource", key)].as_string(),
    )


def _chunks(ids: Sequence[str]) -> Iterator[Sequence[str]]:
    for low in range(0, len(ids), IDS_PER_QUERY):
        yield ids[low : low + IDS_PER_QUERY]


async def candidates(
    *,
    session: AsyncSession,
    workspace_id: str,
    conditions: list[Any],
    stratify_by: str | None,
    attribute: str | None,
) -> list[Candidate]:
    """Every trace the conditions match, with its stratum key and its first user message."""
    columns: dict[str, Any] = {
        "RELEASE": Trace.release,
        "MODEL": Trace.model_key,
        "SERVICE": Trace.service,
    }
    stratum = columns.get(stratify_by or "")
    stmt: Any = select(Trace.id, Trace.input)
    if stratify_by == "ATTRIBUTE" and attribute:
        values = (
            select(TraceSpan.trace_id.label("trace_id"), func.max(_attribute(attribute)).label("v"))
            .where(TraceSpan.workspace_id == workspace_id)
            .group_by(TraceSpan.trace_id)
            .subquery()
        )
        stmt = select(Trace.id, Trace.input, values.c.v).outerjoin(
            values, values.c.trace_id == Trace.id
        )
    elif stratum is not None:
        stmt = select(Trace.id, Trace.input, stratum)
    rows = (await session.execute(stmt.where(*conditions))).all()
    return [Candidate(row[0], row[2] if len(row) > 2 else None, row[1]) for row in rows]


def _turns(documents: Sequence[Any]) -> list[dict[str, Any]]:
    turns = []
    for message in documents or ():
        if not isinstance(message, dict):
            continue
        role, content = message.get("role"), message.get("content")
        if isinstance(role, str) and role and role != "system" and isinstance(content, str):
            if content:
                turns.append({"role": role, "content": content})
    return turns


async def sources(
    *,
    session: AsyncSession,
    workspace_id: str,
    trace_ids: Sequence[str],
    expected_attribute: str | None,
    with_feedback: bool,
) -> dict[str, TraceSource]:
    """The chosen traces' texts, input messages, expected attribute and feedback scores."""
    found: dict[str, TraceSource] = {}
    from_column = expected_attribute in (None, EXPECTED_ATTRIBUTE)
    for ids in _chunks(trace_ids):
        rows = await session.execute(
            select(Trace.id, Trace.input, Trace.output, Trace.expected, Trace.span_feedback).where(
                Trace.workspace_id == workspace_id, Trace.id.in_(ids)
            )
        )
        for trace_id, text, output, expected, span_feedback in rows:
            source = TraceSource(trace_id, text, output, expected if from_column else None)
            source.feedback = [float(f["value"]) for f in span_feedback or []]
            found[trace_id] = source
        steps = await session.execute(
            select(TraceSpan.trace_id, TraceSpan.step["inputMessages"])
            .where(
                TraceSpan.workspace_id == workspace_id,
                TraceSpan.trace_id.in_(ids),
                TraceSpan.step["kind"].as_string() == "LLM",
            )
            .order_by(TraceSpan.trace_id, TraceSpan.started_at, TraceSpan.span_id)
        )
        for trace_id, messages in steps:
            source = found[trace_id]
            if not source.messages:
                source.messages = _turns(messages)
        if not from_column and expected_attribute:
            await _read_attribute(session, workspace_id, ids, expected_attribute, found)
        if with_feedback:
            given = await session.execute(
                select(TraceFeedback.trace_id, TraceFeedback.value).where(
                    TraceFeedback.workspace_id == workspace_id, TraceFeedback.trace_id.in_(ids)
                )
            )
            for trace_id, value in given:
                found[trace_id].feedback.append(float(value))
    return found


async def _read_attribute(
    session: AsyncSession,
    workspace_id: str,
    ids: Sequence[str],
    key: str,
    found: dict[str, TraceSource],
) -> None:
    rows = await session.execute(
        select(TraceSpan.trace_id, func.max(_attribute(key)))
        .where(TraceSpan.workspace_id == workspace_id, TraceSpan.trace_id.in_(ids))
        .group_by(TraceSpan.trace_id)
    )
    for trace_id, value in rows:
        found[trace_id].expected_attribute = value
