"""`startRunImport(checks, budgetCapCents)`: each JUDGE_RUBRIC check's rubric and judge model
resolved in the caller's workspace as a comparison's are, before the run starts."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from server.checks.spec import CheckKind
from server.comparisons.resolution import resolve_judge
from server.money import optional_cents_to_micros
from server.runs import grading
from server.runs import service as run_service
from server.runs.models import Run
from server.workspaces.roles import Actor, Role


async def start(
    *,
    session: AsyncSession,
    actor: Actor,
    experiment_id: str,
    idempotency_key: str,
    metadata: object = None,
    checks: object = None,
    judge_evaluator: str | None = None,
    budget_cap_cents: float | None = None,
) -> Run:
    """`server.runs.service.start_import`, its judges checked first: a rubric or model
    config version that is missing, another workspace's or of the wrong kind is NOT_FOUND or
    VALIDATION_FAILED naming `checks[i].rubricVersionId` / `…judgeModelConfigVersionId`."""
    actor.require(Role.MEMBER)
    specs = grading.validate_import_checks(checks)
    for index, spec in enumerate(specs or []):
        if spec["kind"] == CheckKind.JUDGE_RUBRIC:
            await resolve_judge(
                session=session,
                workspace_id=actor.workspace_id,
                rubric_id=spec["rubricVersionId"],
                config_id=spec["judgeModelConfigVersionId"],
                where=f"checks[{index}]",
            )
    cap = optional_cents_to_micros(budget_cap_cents, field="budgetCapCents")
    return await run_service.start_import(
        session=session,
        actor=actor,
        experiment_id=experiment_id,
        idempotency_key=idempotency_key,
        metadata=metadata,
        checks=specs,
        judge_evaluator=judge_evaluator,
        budget_cap_micros=cap,
    )
