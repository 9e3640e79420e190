"""Grading a live comparison's new traces in batches, then deciding again (docs/live.md).

One batch runs under the live comparison's row lock, so concurrent workers take turns and
arrival order (`ordinal`) is the order of grading. Which traces a batch takes is
`server.live.cursor`: the rows written since the last batch, read by a cursor that moves
with the batch's grade rows. A grade row's key is (live comparison, trace): a trace is
graded once, even when a worker dies mid-batch (its uncommitted grades and cursor vanish
with it and the next batch grades those traces again). Only traces of the watched service
and releases that started at or after the comparison's start count.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.checks.evaluate import run_in_order
from server.checks.spec import TRAJECTORY_KINDS, CheckKind
from server.db import transaction, utcnow
from server.decisions import live as live_decision
from server.judges.rubric_grade import Case, grade_output
from server.live import cursor, feedback_checks, figures, history, service
from server.live.judging import Judging, open_judging
from server.live.models import LiveComparison, LiveGrade, LiveStatus
from server.providers.registry import ProviderPool
from server.traces.models import Trace
from server.traces.reads import trajectories_of
from server.trajectories.reading import tool_calls

BATCH: Final = 500
YIELD_EVERY: Final = 50
"""Traces graded between yields to the event loop: in the embedded runtime the API answers
on the same loop, and a 500-trace batch graded in one go held its readers up."""
FINAL_OUTCOMES: Final = frozenset({"SHIP", "DONT_SHIP"})


@dataclass(frozen=True, slots=True)
class Graded:
    """What one batch did: traces graded, and the events it made true."""

    live_id: str
    workspace_id: str
    seq: int
    graded: int
    decided: bool
    guardrail_violated: bool
    decision: dict[str, Any] | None


def _insert(session: AsyncSession) -> Any:
    dialect = session.get_bind().dialect.name
    return (pg_insert if dialect == "postgresql" else sqlite_insert)(LiveGrade)


async def grade_trace(
    trace: Trace,
    checks: Sequence[dict[str, Any]],
    steps: list[dict[str, Any]] | None,
    judging: Judging | None,
    feedback: Sequence[bool | None] = (),
) -> dict[str, Any]:
    """One trace's grade: the pass fraction of its checks on its output (and steps; judge
    checks only on the judge's sample, within the day's cap; its FEEDBACK checks' results in
    `feedback`), or failed or missing when the trace errored or has no output. Without a
    judge's grade or a feedback score a trace's quality is read from its other checks, and a
    trace with only such checks has none."""
    failed = trace.status == "ERROR" or trace.output is None
    passed: float | None = None
    judged, cost = False, 0
    if trace.output is not None and not failed:
        calls = tool_calls(steps) if steps is not None else []
        results, gaps = run_in_order(list(checks), trace.output, calls, trace.expected, steps)
        if gaps and judging is not None and judging.takes(trace.id):
            case = Case(
                input=trace.input,
                expected=trace.expected,
                case_key=trace.id,
                trial_header=f"{judging.live_id}/{trace.id}",
                delivery_header=judging.live_id,
            )
            graded = await grade_output(
                list(checks), trace.output, calls, case, trajectory=steps,
                judges=judging.judges, call=judging.call, may_call=judging.may_call,
            )  # fmt: skip
            cost = graded.cost_micros
            judging.count(graded.by_connection)
            if graded.results is not None:
                results, gaps, judged = list(graded.results), {}, True
        kept = [r.passed for r in results if r is not None]
        kept += [f for f in feedback if f is not None]
        if kept:
            passed = sum(1.0 for r in kept if r) / len(kept)
        elif not gaps and not feedback:
            passed = 1.0  # no checks at all
    return {
        "trace_id": trace.id,
        "release": trace.release or "",
        "passed": passed,
        "failed_or_missing": failed,
        "cost_micros": int(trace.cost_micros or 0),
        "output_tokens": int(trace.output_tokens or 0),
        "duration_ms": float(trace.duration_ms or 0.0),
        "judged": judged,
        "judge_cost_micros": cost,
        "trace_started_at": trace.started_at,
    }


async def _traces_seen(
    session: AsyncSession, row: LiveComparison, grades: history.History, *, backlog: bool
) -> dict[str, int]:
    """Traces seen an arm: the graded ones and, under a backlog, those waiting after the
    cursor. With no backlog the batch took every watched trace, so no count is run."""
    if not backlog:
        return {}
    waiting = await cursor.waiting(session, row)
    return {
        release: arm.traces + waiting.get(release, 0)
        for release, arm in zip(grades.releases, grades.arms, strict=True)
    }


async def _history(
    session: AsyncSession, row: LiveComparison, graded_before: int, new: list[history.Grade]
) -> history.History:
    """Every grade so far: the kept columns plus this batch's, or all read again when the
    kept ones do not hold exactly the rows the comparison counted before this batch."""
    releases = (row.candidate_release, *row.baseline_releases)
    alpha = _alpha(row)
    found = history.kept(row.id, graded=graded_before, releases=releases, alpha=alpha)
    if found is not None:
        return found.extend(new)
    return history.History.empty(releases, alpha).extend(await _all_grades(session, row.id))


def _alpha(row: LiveComparison) -> float:
    """The level of the comparison's running sequences: 1 − 2α of its policy."""
    return 2.0 * live_decision.engine_policy(row.ship_policy).alpha


async def _all_grades(session: AsyncSession, live_id: str) -> list[history.Grade]:
    rows = await session.execute(
        select(
            LiveGrade.release,
            LiveGrade.passed,
            LiveGrade.failed_or_missing,
            LiveGrade.cost_micros,
            LiveGrade.output_tokens,
            LiveGrade.duration_ms,
            LiveGrade.graded_at,
        )
        .where(LiveGrade.live_comparison_id == live_id)
        .order_by(LiveGrade.ordinal)
    )
    return [history.Grade(*r) for r in rows.all()]


async def grade_batch(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    live_id: str,
    providers: ProviderPool | None = None,
    batch: int = BATCH,
) -> Graded | None:
    """Grade up to `batch` new traces of one RUNNING live comparison and decide again;
    None when there was nothing to grade."""
    async with transaction(sessionmaker) as session:
        row = await session.get(LiveComparison, live_id, with_for_update=True)
        if row is None or row.status != LiveStatus.RUNNING.value:
            history.forget(live_id)
            return None
        picked = await cursor.pick(session, row, batch=batch, now=utcnow())
        traces = picked.traces
        if not traces:
            return None  # the cursor's move over traces seen and skipped still commits
        on_feedback, checks = feedback_checks.split(row.checks)
        scores: Mapping[str, feedback_checks.Scores] = {}
        if on_feedback:
            scores = await feedback_checks.scores_of(session, row.workspace_id, traces, on_feedback)
        steps: dict[str, list[dict[str, Any]]] = {}
        if any(CheckKind(c["kind"]) in TRAJECTORY_KINDS for c in checks):
            steps = await trajectories_of(
                session=session, workspace_id=row.workspace_id, trace_ids=[t.id for t in traces]
            )
        judging = await open_judging(session, row, providers)
        now = utcnow()
        values = []
        for offset, trace in enumerate(traces):
            grade = await grade_trace(
                trace,
                checks,
                steps.get(trace.id) if steps else None,
                judging,
                feedback_checks.results(on_feedback, scores.get(trace.id, {})),
            )
            grade.update(live_comparison_id=row.id, ordinal=row.graded + offset + 1, graded_at=now)
            values.append(grade)
            if offset % YIELD_EVERY == YIELD_EVERY - 1:
                await asyncio.sleep(0)
        # executemany of one cached statement: a 500-row VALUES compiled anew each batch cost
        # the worker more than grading the traces
        inserted = await session.execute(
            _insert(session).on_conflict_do_nothing().returning(LiveGrade.trace_id), values
        )
        if judging is not None:
            await judging.record(session)
        graded_before = row.graded
        stored = len(inserted.all())
        if stored == len(values):
            row.graded += stored
            grades = await _history(session, row, graded_before, [_as_grade(v) for v in values])
        else:  # a grade row was there already: the stored rows are the truth
            grades = history.History.empty(
                (row.candidate_release, *row.baseline_releases), _alpha(row)
            ).extend(await _all_grades(session, row.id))
            row.graded = grades.graded
        seen = await _traces_seen(session, row, grades, backlog=picked.backlog)
        shown = await asyncio.to_thread(
            figures.compute,
            candidate=row.candidate_release,
            baselines=row.baseline_releases,
            policy_document=row.ship_policy,
            history=grades,
            traces=seen,
        )
        done = _record(row, shown, len(values))
        counted = row.graded
    # Kept only once the batch committed, and only as many rows as the row now counts.
    if done.decided or grades.graded != counted:
        history.forget(live_id)
    else:
        history.keep(live_id, grades)
    return done


def _as_grade(value: dict[str, Any]) -> history.Grade:
    return history.Grade(
        release=value["release"],
        passed=value["passed"],
        failed_or_missing=value["failed_or_missing"],
        cost_micros=value["cost_micros"],
        output_tokens=value["output_tokens"],
        duration_ms=value["duration_ms"],
        graded_at=value["graded_at"],
    )


def _record(row: LiveComparison, shown: figures.Figures, count: int) -> Graded:
    """The new figures on the row; DECIDED on SHIP or DONT_SHIP (both final)."""
    now = utcnow()
    row.arms, row.sequence, row.decision = shown.arms, shown.sequence, shown.decision
    row.seq += 1
    row.updated_at = now
    decided = shown.decision["outcome"] in FINAL_OUTCOMES
    if decided:
        row.status, row.decided_at, row.ended_at = LiveStatus.DECIDED.value, now, now
    violated = any(
        c["kind"] == "GUARDRAIL" and c["status"] == "VIOLATED"
        for c in shown.decision.get("criteria", [])
    )
    alert = violated and not row.guardrail_alerted
    row.guardrail_alerted = row.guardrail_alerted or violated
    return Graded(row.id, row.workspace_id, row.seq, count, decided, alert, shown.decision)


async def running_ids(
    *, sessionmaker: async_sessionmaker[AsyncSession], workspace_id: str
) -> list[str]:
    """The workspace's RUNNING live comparisons (closing the expired ones)."""
    async with transaction(sessionmaker) as session:
        rows = await service.running(session=session, workspace_id=workspace_id)
        return [r.id for r in rows]
