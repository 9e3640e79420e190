"""Finalization as a job and a mutation: hosted runs, idempotency, retries and failures."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select, update

from bench.kit.factories import WorkspaceFixture, make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import (
    CREATE,
    finalized,
    scorecard_of,
    scripted_setup,
    wait_finalized,
)
from server.audit.models import AuditEvent
from server.comparisons.models import Comparison, Trial
from server.runs.models import Run, RunItem, RunItemScore
from server.verdicts.models import ComparisonVerdict, VerdictCase
from server.workspaces.roles import Role

FINALIZE = """
mutation($id: ID!) { finalizeComparison(id: $id) { id verdictState verdictErrorCode } }
"""
CANDIDATE = ["PP", "PF", "FF", "PE"] * 6
BASELINE = ["PP"] * 24


async def _finalized(backend: Backend) -> tuple[WorkspaceFixture, str, dict[str, Any]]:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(
        backend.sessionmaker,
        ws,
        [CANDIDATE, BASELINE],
        output_cents_per_million_tokens=1_000_000.0,
        latency_ms=[3, 4],
    )
    comparison_id, comparison = await finalized(
        backend, setup, trialsPerCase=2, checks=[{"kind": "CONTAINS"}, {"kind": "EXACT_MATCH"}]
    )
    return ws, comparison_id, comparison


async def unfinalize(backend: Backend, comparison_id: str) -> None:
    """As if the dispatch hook's job had been lost: DONE and never finalized."""
    async with backend.sessionmaker() as session, session.begin():
        runs = select(Run.id).where(Run.comparison_id == comparison_id).scalar_subquery()
        await session.execute(delete(RunItemScore).where(RunItemScore.run_id.in_(runs)))
        await session.execute(delete(RunItem).where(RunItem.run_id.in_(runs)))
        await session.execute(delete(Run).where(Run.comparison_id == comparison_id))
        await session.execute(delete(VerdictCase).where(VerdictCase.comparison_id == comparison_id))
        await session.execute(
            delete(ComparisonVerdict).where(ComparisonVerdict.comparison_id == comparison_id)
        )
        await session.execute(
            update(Comparison).where(Comparison.id == comparison_id).values(finalized_at=None)
        )


async def test_one_hosted_run_per_cohort_in_the_experiment(backend: Backend) -> None:
    _, comparison_id, comparison = await _finalized(backend)
    names = [m["name"] for m in comparison["scorecard"]["metrics"]]
    assert names[:3] == ["pass_rate", "pass_rate.CONTAINS", "pass_rate.EXACT_MATCH"]
    async with backend.sessionmaker() as session:
        experiment_id = await session.scalar(
            select(Comparison.experiment_id).where(Comparison.id == comparison_id)
        )
        runs = list(
            await session.scalars(
                select(Run).where(Run.comparison_id == comparison_id).order_by(Run.cohort_index)
            )
        )
        assert [(r.cohort_index, r.source.value, r.status.value) for r in runs] == [
            (0, "HOSTED", "COMPLETED"),
            (1, "HOSTED", "COMPLETED"),
        ]
        assert {r.experiment_id for r in runs} == {experiment_id}
        assert [r.item_count for r in runs] == [24, 24]
        assert runs[0].metadata_["comparisonId"] == comparison_id
        assert runs[0].completed_at is not None
        items = list(
            await session.scalars(
                select(RunItem).where(RunItem.run_id == runs[0].id).order_by(RunItem.position)
            )
        )
        scores = list(
            await session.scalars(
                select(RunItemScore)
                .where(RunItemScore.run_id == runs[0].id)
                .order_by(RunItemScore.position, RunItemScore.evaluator)
            )
        )
    assert [i.position for i in items] == list(range(24))
    counts = {"PP": (2, 2, 2), "PF": (2, 2, 1), "FF": (2, 2, 0), "PE": (2, 1, 1)}
    for item, letters in zip(items, CANDIDATE, strict=True):
        assert (item.trial_count, item.graded_count, item.passed_count) == counts[letters]
        assert item.dataset_item_id == f"q-{item.position:03d}"
        assert item.input == {"question": f"What is {item.position:03d} + {item.position:03d}?"}
    first, errored = items[0].trials[0], items[3].trials[1]
    assert first == {
        "trialIndex": 0,
        "passed": True,
        "evaluators": {"CONTAINS": 1.0, "EXACT_MATCH": 1.0},
        "output": "0",
        "metrics": {"tokens": first["inputTokens"] + 1, "turns": 1, "toolCalls": 0,
                    "wallMs": 3, "errors": 0, "costUsd": 0.01, "outputTokens": 1},
        "errorCode": None,
        "latencyMs": 3,
        "inputTokens": first["inputTokens"],
        "outputTokens": 1,
        "costMicros": 10_000,
    }  # fmt: skip
    assert (errored["passed"], errored["evaluators"], errored["errorCode"]) == (
        None,
        {},
        "simulated_error",
    )
    assert errored["metrics"]["errors"] == 1
    # One score per evaluator and item: the mean over its graded trials.
    by_item = {(s.position, s.evaluator): (s.mean, s.count) for s in scores}
    assert by_item[(1, "CONTAINS")] == (0.5, 2)  # PF
    assert by_item[(3, "EXACT_MATCH")] == (1.0, 1)  # PE: one graded trial
    assert len(scores) == 2 * 24


async def test_finalize_comparison_is_admin_only_idempotent_and_retries(backend: Backend) -> None:
    ws, comparison_id, comparison = await _finalized(backend)
    first_time = comparison["scorecard"]["finalizedAt"]
    for role in (Role.VIEWER, Role.MEMBER):
        result = await backend.gql(FINALIZE, {"id": comparison_id}, token=ws.tokens[role])
        assert result.codes == ["FORBIDDEN"]
    # A FINALIZED comparison: a no-op.
    again = (await backend.gql(FINALIZE, {"id": comparison_id}, token=ws.tokens[Role.ADMIN])).ok()
    assert again["finalizeComparison"]["verdictState"] == "FINALIZED"
    after = await scorecard_of(backend, ws.tokens[Role.ADMIN], comparison_id)
    assert after["scorecard"] == comparison["scorecard"]
    assert after["scorecard"]["finalizedAt"] == first_time

    # A finalization that fails leaves NOT_FINALIZED with a bounded code; the retry works.
    await unfinalize(backend, comparison_id)
    # A trial row that names a case the comparison does not have: finalization breaks.
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(Trial)
            .where(Trial.comparison_id == comparison_id, Trial.case_ordinal == 0)
            .values(case_ordinal=999)
        )
    admin = ws.tokens[Role.ADMIN]
    for _ in range(2):
        queued = (await backend.gql(FINALIZE, {"id": comparison_id}, token=admin)).ok()
        assert queued["finalizeComparison"]["verdictState"] == "NOT_FINALIZED"
        state = await wait_finalized(backend, admin, comparison_id)
        assert state == {
            "status": "DONE",
            "verdictState": "NOT_FINALIZED",
            "verdictErrorCode": "verdict_finalize_internal",
        }
        failed = await scorecard_of(backend, admin, comparison_id)
        assert failed["scorecard"] is None
    async with backend.sessionmaker() as session:
        jobs = list(
            await session.scalars(
                select(AuditEvent.details).where(
                    AuditEvent.target_id == comparison_id,
                    AuditEvent.action == "comparison.finalize",
                )
            )
        )
        assert len({details["jobId"] for details in jobs}) == 2  # a fresh job id each time
        runs = await session.scalar(
            select(func.count()).select_from(Run).where(Run.comparison_id == comparison_id)
        )
        assert runs == 0
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(Trial)
            .where(Trial.comparison_id == comparison_id, Trial.case_ordinal == 999)
            .values(case_ordinal=0)
        )
    (await backend.gql(FINALIZE, {"id": comparison_id}, token=admin)).ok()
    state = await wait_finalized(backend, admin, comparison_id)
    assert (state["verdictState"], state["verdictErrorCode"]) == ("FINALIZED", None)
    retried = await scorecard_of(backend, admin, comparison_id)
    assert retried["scorecard"]["metrics"] == comparison["scorecard"]["metrics"]
    assert retried["scorecard"]["verdicts"] == comparison["scorecard"]["verdicts"]
    async with backend.sessionmaker() as session:
        runs = await session.scalar(
            select(func.count()).select_from(Run).where(Run.comparison_id == comparison_id)
        )
        cases = await session.scalar(
            select(func.count())
            .select_from(VerdictCase)
            .where(VerdictCase.comparison_id == comparison_id)
        )
    assert (runs, cases) == (2, 24)


async def test_only_a_done_comparison_finalizes(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [["P"] * 3, ["F"] * 3])
    created = (await backend.gql(CREATE, {"input": setup.input()}, token=ws.owner)).ok()
    comparison_id = created["createComparison"]["id"]
    result = await backend.gql(FINALIZE, {"id": comparison_id}, token=ws.owner)
    assert result.codes == ["CONFLICT"]
    assert result.errors[0]["extensions"]["reason"] == "NOT_DONE"
    stranger = await make_workspace(backend.sessionmaker, name="stranger")
    result = await backend.gql(FINALIZE, {"id": comparison_id}, token=stranger.owner)
    assert result.codes == ["NOT_FOUND"]
    state = await scorecard_of(backend, ws.owner, comparison_id)
    assert (state["verdictState"], state["scorecard"], state["verdict"]) == (
        "NOT_FINALIZED",
        None,
        None,
    )


async def test_a_cancelled_comparison_shows_no_cases_and_no_verdict(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(
        backend.sessionmaker, ws, [["PPP"] * 30, ["PPP"] * 30], latency_ms=[50, 50]
    )
    member = ws.tokens[Role.MEMBER]
    created = (await backend.gql(CREATE, {"input": setup.input()}, token=member)).ok()
    comparison_id = created["createComparison"]["id"]
    start = "mutation($id: ID!) { startComparison(id: $id) { status } }"
    (await backend.gql(start, {"id": comparison_id}, token=member)).ok()
    cancel = "mutation($id: ID!) { cancelComparison(id: $id) { status } }"
    (await backend.gql(cancel, {"id": comparison_id}, token=member)).ok()
    result = await backend.gql(FINALIZE, {"id": comparison_id}, token=ws.tokens[Role.ADMIN])
    assert result.codes == ["CONFLICT"]
    assert result.errors[0]["extensions"]["reason"] == "NOT_DONE"
    query = """query($id: ID!) { comparison(id: $id) { status verdictState scorecard { usableCases }
      cases(filter: ALL) { totalCount edges { node { ordinal } } } } }"""
    found = (await backend.gql(query, {"id": comparison_id}, token=member)).ok()["comparison"]
    assert found == {
        "status": "CANCELLED",
        "verdictState": "NOT_FINALIZED",
        "scorecard": None,
        "cases": {"totalCount": 0, "edges": []},
    }
