"""Experiments: named groups of runs with an optional daily budget; names unique per workspace."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.audit import service as audit
from server.errors import Conflict
from server.experiments.models import Experiment
from server.ids import new_id
from server.money import optional_cents_to_micros, optional_micros_to_cents
from server.pagination import Page
from server.validation import clean_name
from server.workspaces.roles import Actor, Role
from server.workspaces.scoped import get_in_workspace, page_in_workspace


async def create(
    *, session: AsyncSession, actor: Actor, name: str, daily_budget_cents: float | None = None
) -> Experiment:
    """A new experiment; a name already used in the workspace is CONFLICT."""
    actor.require(Role.MEMBER)
    experiment = Experiment(
        id=new_id("exp"),
        workspace_id=actor.workspace_id,
        name=clean_name(name),
        daily_budget_micros=optional_cents_to_micros(daily_budget_cents, field="dailyBudgetCents"),
        created_by_member_id=actor.member_id,
    )
    if not await _insert(session, experiment):
        raise Conflict("an experiment with this `name` already exists", field="name")
    await _audit_create(session, actor, experiment, on_demand=False)
    return experiment


async def get_or_create_by_name(*, session: AsyncSession, actor: Actor, name: str) -> Experiment:
    """The workspace's experiment of this name, created (without a budget) if there is none."""
    actor.require(Role.MEMBER)
    cleaned = clean_name(name)
    existing = await _find_by_name(session, actor.workspace_id, cleaned)
    if existing is not None:
        return existing
    experiment = Experiment(
        id=new_id("exp"),
        workspace_id=actor.workspace_id,
        name=cleaned,
        created_by_member_id=actor.member_id,
    )
    if not await _insert(session, experiment):
        # Another request created it between our look and our insert: use theirs.
        raced = await _find_by_name(session, actor.workspace_id, cleaned)
        if raced is None:
            raise Conflict("the experiment could not be created; try again", field="name")
        return raced
    await _audit_create(session, actor, experiment, on_demand=True)
    return experiment


async def get(*, session: AsyncSession, workspace_id: str, experiment_id: str) -> Experiment:
    """The workspace's experiment; another workspace's or an unknown id is NOT_FOUND."""
    return await get_in_workspace(session, Experiment, experiment_id, workspace_id, "experiment")


async def get_page(
    *, session: AsyncSession, workspace_id: str, first: int, after: str | None
) -> Page[Experiment]:
    return await page_in_workspace(session, Experiment, workspace_id, first=first, after=after)


async def _find_by_name(session: AsyncSession, workspace_id: str, name: str) -> Experiment | None:
    stmt = select(Experiment).where(
        Experiment.workspace_id == workspace_id, Experiment.name == name
    )
    return (await session.execute(stmt)).scalar_one_or_none()


async def _insert(session: AsyncSession, experiment: Experiment) -> bool:
    """Insert in a savepoint; False when the unique name is taken (the outer transaction
    stays usable, which a caller creating a comparison in the same transaction needs)."""
    try:
        async with session.begin_nested():
            session.add(experiment)
    except IntegrityError:
        return False
    return True


async def _audit_create(
    session: AsyncSession, actor: Actor, experiment: Experiment, *, on_demand: bool
) -> None:
    await audit.record(
        session=session,
        actor=actor,
        action="experiment.create",
        target_type="experiment",
        target_id=experiment.id,
        details={
            "name": experiment.name,
            "dailyBudgetCents": optional_micros_to_cents(experiment.daily_budget_micros),
            "onDemand": on_demand,
        },
    )
