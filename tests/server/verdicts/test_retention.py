"""Time and finalization: holdout looks counted once, staleness at 7 days, and the erasure
of cases nobody finalized within 30 days (then CONFLICT, reason CASES_ERASED)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select, update

from bench.kit.factories import WorkspaceFixture, make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import finalized, scorecard_of, scripted_setup, wait_finalized
from jobs.erasure import erase_stale_cases
from jobs.registry import build_registry
from jobs.verdict_sweep import sweep_verdicts
from jobs.worker import cron_fields
from server.comparisons.models import Comparison, ComparisonCase, Trial
from server.db import utcnow
from server.settings import Settings
from server.verdicts.models import ComparisonVerdict
from server.workspaces.roles import Role
from tests.server.dispatch.by_hand import HeldQueue
from tests.server.verdicts.test_finalize import FINALIZE, unfinalize

LOOKS = "query($id: ID!) { dataset(id: $id) { latestVersion { holdoutLooks } } }"
RERUN = "mutation($id: ID!) { rerunComparison(id: $id) { id } }"


async def test_a_holdout_comparison_counts_once_in_holdout_looks(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [["P"] * 4, ["F"] * 4], split="HOLDOUT")

    async def looks() -> int:
        data = (await backend.gql(LOOKS, {"id": setup.dataset_id}, token=ws.owner)).ok()
        count: int = data["dataset"]["latestVersion"]["holdoutLooks"]
        return count

    assert await looks() == 0
    comparison_id, _ = await finalized(backend, setup, trialsPerCase=1, split="HOLDOUT")
    assert await looks() == 1
    for _ in range(2):  # finalizing again is a no-op, and so is the count
        (await backend.gql(FINALIZE, {"id": comparison_id}, token=ws.tokens[Role.ADMIN])).ok()
    assert await looks() == 1
    await finalized(backend, setup, trialsPerCase=1, split="HOLDOUT")  # another look
    assert await looks() == 2


async def test_a_verdict_seven_days_old_is_stale(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [["P"] * 3, ["F"] * 3])
    comparison_id, comparison = await finalized(backend, setup, trialsPerCase=1)
    assert comparison["scorecard"]["staleness"] is None
    for days, expected in ((6, None), (9, 9)):
        async with backend.sessionmaker() as session, session.begin():
            await session.execute(
                update(ComparisonVerdict)
                .where(ComparisonVerdict.comparison_id == comparison_id)
                .values(finalized_at=utcnow() - timedelta(days=days, hours=1))
            )
        card = (await scorecard_of(backend, ws.owner, comparison_id))["scorecard"]
        if expected is None:
            assert card["staleness"] is None
        else:
            assert card["staleness"] == {
                "days": 9,
                "note": "This verdict is 9 days old. The provider may have changed the model "
                "since then.",
            }


async def test_cases_not_finalized_within_thirty_days_are_erased(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [["P"] * 5, ["F"] * 5])
    comparison_id, _ = await finalized(backend, setup, trialsPerCase=1)
    await unfinalize(backend, comparison_id)
    ctx = {"sessionmaker": backend.sessionmaker}

    async def backdate(days: int) -> None:
        async with backend.sessionmaker() as session, session.begin():
            await session.execute(
                update(Comparison)
                .where(Comparison.id == comparison_id)
                .values(ended_at=utcnow() - timedelta(days=days))
            )

    await backdate(29)
    await erase_stale_cases(ctx)
    async with backend.sessionmaker() as session:
        kept = await session.scalar(
            select(func.count())
            .select_from(ComparisonCase)
            .where(ComparisonCase.comparison_id == comparison_id)
        )
    assert kept == 5  # 29 days: kept
    await backdate(31)
    assert await erase_stale_cases(ctx) >= 1
    async with backend.sessionmaker() as session:
        kept = await session.scalar(
            select(func.count())
            .select_from(ComparisonCase)
            .where(ComparisonCase.comparison_id == comparison_id)
        )
        trials = list(
            await session.scalars(select(Trial).where(Trial.comparison_id == comparison_id))
        )
    assert kept == 0
    assert {(t.output, t.check_results) for t in trials} == {(None, None)}
    assert all(t.cost_micros >= 0 and t.state.value == "COMPLETED" for t in trials)
    admin = ws.tokens[Role.ADMIN]
    result = await backend.gql(FINALIZE, {"id": comparison_id}, token=admin)
    assert result.codes == ["CONFLICT"]
    assert result.errors[0]["extensions"]["reason"] == "CASES_ERASED"
    state = await scorecard_of(backend, admin, comparison_id)
    assert (state["verdictState"], state["verdictErrorCode"], state["scorecard"]) == (
        "NOT_FINALIZED",
        "verdict_cases_erased",
        None,
    )
    rerun = await backend.gql(RERUN, {"id": comparison_id}, token=ws.tokens[Role.MEMBER])
    assert rerun.codes == ["CONFLICT"]
    assert await erase_stale_cases(ctx) == 0  # nothing left to erase


async def _unfinalized_ended(backend: Backend, ago: timedelta) -> tuple[WorkspaceFixture, str]:
    """A finalized comparison set back to NOT_FINALIZED, as if its finalization job was lost,
    that ended `ago`."""
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [["P"] * 3, ["F"] * 3])
    comparison_id, _ = await finalized(backend, setup, trialsPerCase=1)
    await unfinalize(backend, comparison_id)
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(Comparison).where(Comparison.id == comparison_id).values(ended_at=utcnow() - ago)
        )
    return ws, comparison_id


async def test_a_lost_finalization_job_is_queued_again_by_the_sweep(backend: Backend) -> None:
    ws, comparison_id = await _unfinalized_ended(backend, timedelta(minutes=2))
    assert (
        await sweep_verdicts({"sessionmaker": backend.sessionmaker, "queue": backend.state.queue})
        >= 1
    )
    state = await wait_finalized(backend, ws.owner, comparison_id)
    assert state["verdictState"] == "FINALIZED"


async def test_the_sweep_waits_the_settle_time_the_settings_give(backend: Backend) -> None:
    """`SHIPWISE_VERDICT_SETTLE_SECONDS`: a comparison ended 20 s ago is left to its own job
    under the default minute, and queued under a 5 s settle (what bench/soak.py's smoke run
    sets, with the sweep every 5 s)."""
    ws, comparison_id = await _unfinalized_ended(backend, timedelta(seconds=20))
    watching = HeldQueue()
    ctx = {"sessionmaker": backend.sessionmaker, "queue": watching}
    default = backend.settings.model_copy(update={"verdict_settle_seconds": 60})
    assert await sweep_verdicts({**ctx, "settings": default}) == 0
    assert await sweep_verdicts(ctx) == 0  # no settings: the same minute
    assert watching.enqueued == []

    quick = backend.settings.model_copy(update={"verdict_settle_seconds": 5})
    assert await sweep_verdicts({**ctx, "settings": quick}) == 1
    assert [(name, args) for name, args, *_ in watching.enqueued] == [
        ("finalize_comparison", (comparison_id,))
    ]


def test_the_verdict_sweep_runs_on_the_period_the_settings_give() -> None:
    def period(settings: Settings) -> timedelta:
        jobs = {job.name: job.every for job in build_registry(settings).periodic}
        return jobs["sweep_verdicts"]

    assert period(Settings()) == timedelta(minutes=5)
    assert period(Settings(verdict_sweep_seconds=5)) == timedelta(seconds=5)
    assert cron_fields(period(Settings(verdict_sweep_seconds=5)))["second"] == set(range(0, 60, 5))
