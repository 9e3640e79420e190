"""A run diff's paired items as its ship decision reads them, and that decision for a pair of
runs (docs/decision.md): the policy given or the workspace's, the items read only as far as
the policy needs, the decision taken by `server/decisions/run_diff.py` off the event loop.
"""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.decisions import policy as ship_policy_option
from server.decisions import run_diff
from server.runs import diff_queries as q
from server.runs.diff import completed_pair, pair_seed
from server.workspaces.models import Workspace


async def policy_for(
    session: AsyncSession, workspace_id: str, spec: ship_policy_option.ShipPolicySpec | None
) -> ship_policy_option.ShipPolicySpec:
    """The policy given, else the workspace's `defaultShipPolicy`, else docs/decision.md's."""
    if spec is not None:
        ship_policy_option.check(spec, where="policy")
        return spec
    workspace = await session.get(Workspace, workspace_id)
    return ship_policy_option.from_document(workspace.default_ship_policy if workspace else None)


async def decide(
    *,
    session: AsyncSession,
    workspace_id: str,
    candidate_run_id: str,
    baseline_run_id: str,
    policy: ship_policy_option.ShipPolicySpec | None = None,
) -> dict[str, Any]:
    """The decision document for the candidate run against the baseline run."""
    spec = await policy_for(session, workspace_id, policy)
    candidate, baseline = await completed_pair(
        session=session,
        workspace_id=workspace_id,
        candidate_run_id=candidate_run_id,
        baseline_run_id=baseline_run_id,
    )
    engine_policy = ship_policy_option.to_engine(spec)
    pairing = await q.pairing(session, candidate.id, baseline.id)
    sides = q.Sides(candidate.id, baseline.id, pairing)
    rows = await _paired_items(session, sides, with_trials=run_diff.needs_trials(engine_policy))
    labels = {0: f"run {candidate.id}", 1: f"run {baseline.id}"}
    seed = pair_seed(candidate.id, baseline.id)
    return await asyncio.get_running_loop().run_in_executor(
        None, run_diff.decide, rows, engine_policy, seed, labels
    )


async def _paired_items(
    session: AsyncSession, sides: q.Sides, *, with_trials: bool
) -> list[tuple[Any, ...]]:
    """Per pair, by candidate position: each side's trial, graded and passed counts (and
    trials)."""
    c, b, on = q._items(sides)
    columns: list[Any] = [
        c.position,
        c.trial_count,
        c.graded_count,
        c.passed_count,
        b.trial_count,
        b.graded_count,
        b.passed_count,
    ]
    if with_trials:
        columns += [c.trials, b.trials]
    stmt = (
        select(*columns)
        .select_from(c)
        .join(b, on)
        .where(c.run_id == sides.candidate)
        .order_by(c.position)
    )
    return [tuple(row) for row in (await session.execute(stmt)).all()]
