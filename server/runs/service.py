"""Imported runs: `startRunImport` → `appendRunItems` (chunks) → `completeRun` / `failRun`.

Idempotency: the workspace's idempotency key names one live run (RUNNING or COMPLETED);
starting again with it returns that run, appending items already there is a no-op when
they are the same and CONFLICT when they differ; after `FAILED` the key starts afresh.
Every change to a run happens with its row locked, so counts stay true under retries.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sqlalchemy import func, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

from server.audit import service as audit
from server.datasets.cases import CaseError, check_json
from server.db import utcnow
from server.errors import Conflict, NotFound, QuotaExceeded, ValidationFailed
from server.experiments import service as experiment_service
from server.ids import new_id
from server.judges.rubric_grade import Graded
from server.pagination import Page, keyset_page
from server.runs import grading, item_store
from server.runs import vectors as run_vectors
from server.runs.items import MAX_ITEMS_PER_RUN, MAX_POSITION, check_chunk
from server.runs.models import Run, RunItem, RunSource, RunStatus
from server.validation import check_range, clean_name
from server.workspaces.roles import Actor, Role

MAX_METADATA_BYTES = 64_000
MAX_ERROR_CODE_LENGTH = 64


async def get(
    *, session: AsyncSession, workspace_id: str, run_id: str, field: str | None = None
) -> Run:
    """The workspace's run; another workspace's or an unknown id is NOT_FOUND (naming `field`,
    the argument that carried the id, when a call takes more than one run)."""
    run = await session.scalar(
        select(Run).where(Run.id == run_id, Run.workspace_id == workspace_id)
    )
    if run is None:
        raise NotFound("run not found", **({} if field is None else {"field": field}))
    return run


async def get_page(
    *,
    session: AsyncSession,
    workspace_id: str,
    first: int,
    after: str | None,
    experiment_id: str | None = None,
) -> Page[Run]:
    """The workspace's runs (of one experiment when given), newest first."""
    stmt = select(Run).where(Run.workspace_id == workspace_id)
    if experiment_id is not None:
        await experiment_service.get(
            session=session, workspace_id=workspace_id, experiment_id=experiment_id
        )
        stmt = stmt.where(Run.experiment_id == experiment_id)
    return await keyset_page(session, stmt, key=Run.id, first=first, after=after, descending=True)


async def get_items_page(
    *, session: AsyncSession, run_id: str, first: int, after: str | None
) -> Page[RunItem]:
    """A run's items by position (the run is already scoped)."""
    stmt = select(RunItem).where(RunItem.run_id == run_id)
    return await keyset_page(session, stmt, key=RunItem.position, first=first, after=after)


async def get_item(*, session: AsyncSession, run_id: str, position: int) -> RunItem | None:
    """A run's item at `position`, or None (the run is already scoped)."""
    return await session.scalar(
        select(RunItem).where(RunItem.run_id == run_id, RunItem.position == position)
    )


async def start_import(
    *,
    session: AsyncSession,
    actor: Actor,
    experiment_id: str,
    idempotency_key: str,
    metadata: object = None,
    checks: object = None,
    judge_evaluator: str | None = None,
    budget_cap_micros: int | None = None,
) -> Run:
    """A new RUNNING imported run, or the live run this key already started (a no-op; the
    same `checks` or none must be named again). Named checks are graded by the server
    (JUDGE_RUBRIC ones resolved first: `server.judged_imports.start`), their judge calls
    capped at `budget_cap_micros`; `judge_evaluator` names the evaluator that is an LLM
    judge's grade."""
    actor.require(Role.MEMBER)
    key = clean_name(idempotency_key, field="idempotencyKey")
    meta = _check_metadata(metadata)
    specs = grading.validate_import_checks(checks)
    judge = None if judge_evaluator is None else clean_name(judge_evaluator, field="judgeEvaluator")
    experiment = await experiment_service.get(
        session=session, workspace_id=actor.workspace_id, experiment_id=experiment_id
    )
    # Serialize starts in the experiment, so one key never starts two live runs.
    await session.execute(
        select(type(experiment).id).where(type(experiment).id == experiment.id).with_for_update()
    )
    existing = await session.scalar(
        select(Run).where(
            Run.workspace_id == actor.workspace_id,
            Run.idempotency_key == key,
            Run.status != RunStatus.FAILED,
        )
    )
    if existing is not None:
        if existing.experiment_id != experiment.id:
            raise Conflict(
                "this idempotencyKey already started a run in another experiment",
                field="idempotencyKey",
                runId=existing.id,
            )
        if specs is not None and specs != existing.checks:
            raise Conflict(
                "this idempotencyKey started a run with other checks",
                field="checks",
                runId=existing.id,
            )
        return existing
    run = Run(
        id=new_id("run"),
        workspace_id=actor.workspace_id,
        experiment_id=experiment.id,
        source=RunSource.IMPORTED,
        status=RunStatus.RUNNING,
        item_count=0,
        metadata_=meta,
        idempotency_key=key,
        checks=specs,
        judge_evaluator=judge,
        budget_cap_micros=budget_cap_micros,
        judge_spent_micros=0,
        judge_call_count=0,
        created_by_member_id=actor.member_id,
    )
    session.add(run)
    await session.flush()
    details: dict[str, object] = {"experimentId": experiment.id}
    if specs:
        details["checks"] = [spec["kind"] for spec in specs]
    await _audit(session, actor, "run.import_start", run, details)
    return run


async def append_items(
    *,
    session: AsyncSession,
    actor: Actor,
    run_id: str,
    items: object,
    position: int | None = None,
    judged: Mapping[tuple[int, int], Graded] | None = None,
) -> tuple[Run, int]:
    """Write a chunk; (run, items written). An item goes to its own `position`, if it gives
    one, else to the chunk's `position` (default: the number of items so far) + its index.

    Items already stored at those positions are compared: the same is a no-op (a retry),
    different is CONFLICT. A COMPLETED run accepts only such repeats. A run's JUDGE_RUBRIC
    grades come in `judged`, by (position, trial index) (`server.judged_imports` calls the
    judges before this write).
    """
    actor.require(Role.MEMBER)
    run = await _locked(session, actor, run_id, shared=True)
    if run.status == RunStatus.FAILED:
        raise Conflict("this run is FAILED; start a new import", reason="RUN_FAILED")
    start = run.item_count if position is None else position
    check_range(start, field="position", low=0, high=MAX_POSITION)
    rows = check_chunk(items, start=start)
    stored = await item_store.stored_positions(session, run.id, rows, run.checks)
    fresh = [row for row in rows if row["position"] not in stored]
    if not fresh:
        return run, 0
    if run.status == RunStatus.COMPLETED:
        raise Conflict("this run is COMPLETED: it takes no new items", reason="RUN_COMPLETED")
    if run.checks:
        fresh = await grading.grade_rows(fresh, run.checks, judged)
    if run.item_count + len(fresh) > MAX_ITEMS_PER_RUN:
        raise QuotaExceeded(f"a run holds at most {MAX_ITEMS_PER_RUN:,} items", field="items")
    try:
        async with session.begin_nested():
            await item_store.insert(session, run.id, fresh)
    except IntegrityError:
        raise Conflict(
            "another chunk is writing these positions at the same time; retry this one",
            reason="CONCURRENT_APPEND",
        ) from None
    count = (
        await session.execute(
            update(Run)
            .where(Run.id == run.id)
            .values(item_count=Run.item_count + len(fresh))
            .returning(Run.item_count)
            .execution_options(synchronize_session=False)
        )
    ).scalar_one()
    if count > MAX_ITEMS_PER_RUN:  # chunks written side by side went over together
        raise QuotaExceeded(f"a run holds at most {MAX_ITEMS_PER_RUN:,} items", field="items")
    set_committed_value(run, "item_count", count)
    await _audit(session, actor, "run.items_append", run, {"count": len(fresh), "position": start})
    return run, len(fresh)


async def complete(
    *, session: AsyncSession, actor: Actor, run_id: str, item_count: int | None = None
) -> Run:
    """Mark the run COMPLETED (a no-op when it is); it must hold at least one item, and
    `item_count` items when given (how a client that sent chunks side by side knows none
    is missing)."""
    actor.require(Role.MEMBER)
    run = await _locked(session, actor, run_id)
    if run.status == RunStatus.COMPLETED:
        return run
    if run.status == RunStatus.FAILED:
        raise Conflict("this run is FAILED; start a new import", reason="RUN_FAILED")
    if run.item_count == 0:
        raise ValidationFailed("a run without items cannot be completed: append items first")
    if item_count is not None and item_count != run.item_count:
        raise ValidationFailed(
            f"the run holds {run.item_count} items, not {item_count}: a chunk is missing",
            field="itemCount",
        )
    duplicate = await session.scalar(
        select(RunItem.dataset_item_id)
        .where(RunItem.run_id == run.id, RunItem.dataset_item_id.is_not(None))
        .group_by(RunItem.dataset_item_id)
        .having(func.count() > 1)
        .limit(1)
    )
    if duplicate is not None:
        raise ValidationFailed(
            f"`datasetItemId` {duplicate!r} appears on more than one item",
            field="datasetItemId",
            datasetItemId=duplicate,
        )
    run.status = RunStatus.COMPLETED
    run.completed_at = utcnow()
    await _refresh_statistics(session)
    if (await session.connection()).dialect.name == "postgresql":
        await run_vectors.build(session, [run.id])  # what its diffs zip
    await _audit(session, actor, "run.complete", run, {"itemCount": run.item_count})
    return run


async def fail(
    *, session: AsyncSession, actor: Actor, run_id: str, error_code: str | None = None
) -> Run:
    """Mark the run FAILED (a no-op when it is): it is never diffed, and its key is free."""
    actor.require(Role.MEMBER)
    run = await _locked(session, actor, run_id)
    if run.status == RunStatus.FAILED:
        return run
    if run.status == RunStatus.COMPLETED:
        raise Conflict("this run is COMPLETED and cannot fail", reason="RUN_COMPLETED")
    if error_code is not None:
        error_code = clean_name(error_code, field="errorCode", max_length=MAX_ERROR_CODE_LENGTH)
    run.status = RunStatus.FAILED
    run.error_code = error_code or "import_failed"
    run.completed_at = utcnow()
    await _audit(session, actor, "run.fail", run, {"errorCode": run.error_code})
    return run


async def previous_completed_imported_run(
    *, session: AsyncSession, workspace_id: str, run_id: str
) -> Run | None:
    """The experiment's last imported run that completed before `run_id` did (for alerts)."""
    run = await get(session=session, workspace_id=workspace_id, run_id=run_id)
    if run.status != RunStatus.COMPLETED or run.completed_at is None:
        return None
    return await session.scalar(
        select(Run)
        .where(
            Run.experiment_id == run.experiment_id,
            Run.source == RunSource.IMPORTED,
            Run.status == RunStatus.COMPLETED,
            Run.id != run.id,
            (Run.completed_at < run.completed_at)
            | ((Run.completed_at == run.completed_at) & (Run.id < run.id)),
        )
        .order_by(Run.completed_at.desc(), Run.id.desc())
        .limit(1)
    )


async def _refresh_statistics(session: AsyncSession) -> None:
    """PostgreSQL: re-sample the item tables, so the first diff of a big import plans well.

    ANALYZE reads a fixed-size sample (30,000 rows at the default target), so this stays
    a fraction of a second however large the tables grow.
    """
    if (await session.connection()).dialect.name == "postgresql":
        await session.execute(text("ANALYZE run_item, run_item_score"))


async def _locked(session: AsyncSession, actor: Actor, run_id: str, *, shared: bool = False) -> Run:
    """The workspace's imported run, re-read under its row lock.

    Appends hold it shared (FOR KEY SHARE), so chunks in flight are written side by side
    and still add to `item_count`; completing or failing holds it exclusively, so it
    waits for them.
    """
    stmt = select(Run).where(Run.id == run_id, Run.workspace_id == actor.workspace_id)
    stmt = stmt.with_for_update(read=True, key_share=True) if shared else stmt.with_for_update()
    run = await session.scalar(stmt.execution_options(populate_existing=True))
    if run is None:
        raise NotFound("run not found")
    if run.source != RunSource.IMPORTED:
        raise Conflict("hosted runs are written by their comparison", reason="RUN_HOSTED")
    return run


def _check_metadata(metadata: object) -> dict[str, Any]:
    if metadata is None:
        return {}
    if not isinstance(metadata, dict):
        raise ValidationFailed("`metadata` must be a JSON object", field="metadata")
    try:
        check_json(metadata, "metadata", 0)
    except CaseError as error:
        raise ValidationFailed(error.reason, field="metadata") from None
    if len(json.dumps(metadata)) > MAX_METADATA_BYTES:
        raise ValidationFailed(
            f"`metadata` must be at most {MAX_METADATA_BYTES:,} bytes of JSON", field="metadata"
        )
    return metadata


async def _audit(
    session: AsyncSession, actor: Actor, action: str, run: Run, details: dict[str, Any]
) -> None:
    await audit.record(
        session=session,
        actor=actor,
        action=action,
        target_type="run",
        target_id=run.id,
        details=details,
    )
