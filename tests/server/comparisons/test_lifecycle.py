"""start, cancel, rerun and the queries: states, limits, pass rates, authorization.

A comparison that must stay RUNNING while a test looks uses a SIMULATED connection whose
calls take seconds; each test cancels what it started, so no dispatch outlives it for long.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from sqlalchemy import insert, select, update

from bench.kit.factories import (
    ComparisonSetup,
    WorkspaceFixture,
    make_comparison,
    make_comparison_setup,
    make_workspace,
)
from bench.kit.harness import Backend
from bench.kit.statements import counting_statements
from bench.kit.waiting import eventually
from server.comparisons import cohort_rates
from server.comparisons.models import (
    Comparison,
    ComparisonCase,
    ComparisonCohort,
    ComparisonStatus,
    Trial,
    TrialState,
)
from server.connections.service import Simulation
from server.db import utcnow
from server.pagination import encode_cursor
from server.workspaces.roles import Role
from tests.server.comparisons.documents import (
    CANCEL,
    CREATE,
    GET,
    LIST,
    RERUN,
    START,
    error_extensions,
)
from tests.server.dispatch.api import leased

SLOW = Simulation(latency_ms=3000)
"""Calls that outlast a test's look at a RUNNING comparison."""


async def _slow(backend: Backend, ws: WorkspaceFixture | None = None) -> ComparisonSetup:
    ws = ws or await make_workspace(backend.sessionmaker)
    return await make_comparison_setup(backend.sessionmaker, ws, cases=2, simulation=SLOW)


async def _created(backend: Backend, setup: ComparisonSetup, **fields: Any) -> str:
    return await make_comparison(backend.sessionmaker, setup, trials=1, **fields)


async def _row(backend: Backend, comparison_id: str) -> Comparison:
    async with backend.sessionmaker() as session:
        row = await session.get(Comparison, comparison_id)
    assert row is not None
    return row


async def _gql(backend: Backend, doc: str, ws: WorkspaceFixture, **variables: Any) -> Any:
    return await backend.gql(doc, variables, token=ws.tokens[Role.MEMBER])


async def test_start_runs_a_setup_comparison_once(backend: Backend) -> None:
    setup = await _slow(backend)
    ws = setup.workspace
    comparison_id = await _created(backend, setup)
    started = (await _gql(backend, START, ws, id=comparison_id)).ok()["startComparison"]
    assert started["status"] == "RUNNING"
    assert started["startedAt"] is not None and started["endedAt"] is None
    progress = started["progress"]
    assert (progress["status"], progress["seq"], progress["totalCalls"]) == ("RUNNING", 1, 4)
    assert (progress["doneCalls"], progress["failedCalls"], progress["percent"]) == (0, 0, 0.0)
    row = await _row(backend, comparison_id)
    assert row.started_by_member_id == ws.member_ids[Role.MEMBER]
    again = await _gql(backend, START, ws, id=comparison_id)
    assert again.codes == ["CONFLICT"]
    assert error_extensions(again)["reason"] == "NOT_SETUP"
    (await _gql(backend, CANCEL, ws, id=comparison_id)).ok()


async def test_start_refuses_while_hosted_runs_are_off(backend: Backend) -> None:
    setup = await _slow(backend)
    ws = setup.workspace
    comparison_id = await _created(backend, setup)
    off = "mutation { updateWorkspaceSettings(input: {allowHostedRuns: false}) { id } }"
    (await backend.gql(off, token=ws.owner)).ok()
    result = await _gql(backend, START, ws, id=comparison_id)
    assert result.codes == ["CONFLICT"]
    assert error_extensions(result)["reason"] == "HOSTED_RUNS_OFF"
    assert (await _row(backend, comparison_id)).status == ComparisonStatus.SETUP


async def test_start_refuses_a_connection_that_is_not_ready(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(
        backend.sessionmaker,
        ws,
        cases=2,
        connection_kind="OPENAI_COMPATIBLE",
        base_url="http://127.0.0.1:9/v1",
    )
    comparison_id = await _created(backend, setup)
    result = await _gql(backend, START, ws, id=comparison_id)
    assert result.codes == ["CONFLICT"]
    assert error_extensions(result)["reason"] == "CONNECTION_NOT_READY"
    assert (await _row(backend, comparison_id)).status == ComparisonStatus.SETUP


async def test_max_running_comparisons_is_quota_exceeded_at_start(backend: Backend) -> None:
    setup = await _slow(backend)
    ws = setup.workspace
    one = "mutation { updateWorkspaceSettings(input: {maxRunningComparisons: 1}) { id } }"
    (await backend.gql(one, token=ws.owner)).ok()
    first, second = await _created(backend, setup), await _created(backend, setup)
    (await _gql(backend, START, ws, id=first)).ok()
    refused = await _gql(backend, START, ws, id=second)
    assert refused.codes == ["QUOTA_EXCEEDED"]
    assert error_extensions(refused)["limit"] == 1
    assert (await _row(backend, second)).status == ComparisonStatus.SETUP
    (await _gql(backend, CANCEL, ws, id=first)).ok()
    assert (await _gql(backend, START, ws, id=second)).ok()["startComparison"]["status"] == (
        "RUNNING"
    )
    (await _gql(backend, CANCEL, ws, id=second)).ok()


async def test_cancel_from_setup_ends_it_for_good(backend: Backend) -> None:
    setup = await _slow(backend)
    ws = setup.workspace
    comparison_id = await _created(backend, setup)
    cancelled = (await _gql(backend, CANCEL, ws, id=comparison_id)).ok()["cancelComparison"]
    assert cancelled["status"] == "CANCELLED"
    assert cancelled["endedAt"] is not None and cancelled["startedAt"] is None
    assert (cancelled["progress"]["status"], cancelled["progress"]["seq"]) == ("CANCELLED", 1)
    assert cancelled["progress"]["etaSeconds"] == 0.0
    for doc in (CANCEL, START):
        result = await _gql(backend, doc, ws, id=comparison_id)
        assert result.codes == ["CONFLICT"]
    assert (await _row(backend, comparison_id)).status == ComparisonStatus.CANCELLED


async def test_cancel_from_running_stops_it_and_bumps_seq(backend: Backend) -> None:
    setup = await _slow(backend)
    ws = setup.workspace
    comparison_id = await _created(backend, setup)
    started = (await _gql(backend, START, ws, id=comparison_id)).ok()["startComparison"]
    cancelled = (await _gql(backend, CANCEL, ws, id=comparison_id)).ok()["cancelComparison"]
    assert cancelled["status"] == "CANCELLED"
    assert cancelled["progress"]["seq"] > started["progress"]["seq"]
    assert cancelled["endedAt"] >= cancelled["startedAt"]
    # The dispatcher notices and lets go (no lease held): the status never changes again.
    await eventually(
        lambda: leased(backend, comparison_id), until=lambda held: not held, what="let go"
    )
    read = (await _gql(backend, GET, ws, id=comparison_id)).ok()["comparison"]
    assert read["status"] == "CANCELLED"
    assert [c["passRate"] for c in read["cohorts"]] == [None, None]


async def test_rerun_copies_cases_cohorts_options_cap_and_experiment(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=30, cohorts=2)
    cohorts = [
        {"kind": "RELEASE", "releaseId": setup.release_ids[0]},
        {
            "kind": "VARIANT",
            "baseReleaseId": setup.release_ids[0],
            "overrides": [
                {"role": "MODEL_CONFIG", "assetVersionId": setup.model_config_version_ids[1]}
            ],
        },
    ]
    fields = {
        "cohorts": cohorts,
        "trialsPerCase": 2,
        "checks": [{"kind": "EXACT_MATCH"}],
        "sample": {"size": 12, "seed": 3},
        "variables": [{"variable": "question", "path": "input.question"}],
        "missingFieldPolicy": "REFUSE",
        "budgetCapCents": 42.5,
        "label": "weekly",
    }
    source = (await _gql(backend, CREATE, ws, input=setup.input(**fields))).ok()
    source = source["createComparison"]
    (await _gql(backend, CANCEL, ws, id=source["id"])).ok()
    copy = (await _gql(backend, RERUN, ws, id=source["id"])).ok()["rerunComparison"]
    assert copy["id"] != source["id"]
    assert (copy["status"], copy["rerunOfId"]) == ("SETUP", source["id"])
    same = ("label", "split", "trialsPerCase", "checks", "budgetCapCents", "caseCount")
    assert {k: copy[k] for k in same} == {k: source[k] for k in same}
    for key in ("experiment", "datasetVersion", "cohorts"):
        assert copy[key] == source[key]
    assert (copy["progress"]["seq"], copy["progress"]["status"]) == (0, "SETUP")
    original, original_cohorts, original_cases = await _frozen(backend, source["id"])
    rerun, rerun_cohorts, rerun_cases = await _frozen(backend, copy["id"])
    assert rerun_cases == original_cases and len(rerun_cases) == 12
    assert [(c.kind, c.bindings, c.overrides, c.release_id) for c in rerun_cohorts] == [
        (c.kind, c.bindings, c.overrides, c.release_id) for c in original_cohorts
    ]
    for column in ("sample", "variables", "missing_field_policy", "pairwise", "total_calls"):
        assert getattr(rerun, column) == getattr(original, column)
    assert rerun.budget_cap_micros == 425_000


async def _frozen(
    backend: Backend, comparison_id: str
) -> tuple[Comparison, list[ComparisonCohort], list[int]]:
    """The row, its cohorts and its frozen dataset case ids, in order."""
    async with backend.sessionmaker() as session:
        row = await session.get(Comparison, comparison_id)
        cohorts = await session.scalars(
            select(ComparisonCohort)
            .where(ComparisonCohort.comparison_id == comparison_id)
            .order_by(ComparisonCohort.cohort_index)
        )
        cases = await session.scalars(
            select(ComparisonCase.dataset_case_id)
            .where(ComparisonCase.comparison_id == comparison_id)
            .order_by(ComparisonCase.ordinal)
        )
        assert row is not None
        return row, list(cohorts), list(cases)


async def test_comparisons_are_listed_newest_first_with_pages_and_a_status_filter(
    backend: Backend,
) -> None:
    setup = await _slow(backend)
    ws = setup.workspace
    ids = [await _created(backend, setup) for _ in range(3)]
    (await _gql(backend, CANCEL, ws, id=ids[1])).ok()
    page = (await _gql(backend, LIST, ws, first=2)).ok()["comparisons"]
    assert page["totalCount"] == 3
    assert [e["node"]["id"] for e in page["edges"]] == [ids[2], ids[1]]
    assert page["pageInfo"]["hasNextPage"] is True
    rest = (await _gql(backend, LIST, ws, first=2, after=page["pageInfo"]["endCursor"])).ok()
    assert [e["node"]["id"] for e in rest["comparisons"]["edges"]] == [ids[0]]
    past = (await _gql(backend, LIST, ws, after=rest["comparisons"]["pageInfo"]["endCursor"])).ok()
    assert past["comparisons"]["edges"] == [] and past["comparisons"]["totalCount"] == 3
    for cursor in ("not a cursor", encode_cursor(7), encode_cursor(None)):
        refused = await _gql(backend, LIST, ws, after=cursor)
        assert refused.codes == ["VALIDATION_FAILED"], cursor
    cancelled = (await _gql(backend, LIST, ws, status="CANCELLED")).ok()["comparisons"]
    assert [e["node"]["id"] for e in cancelled["edges"]] == [ids[1]]
    assert cancelled["edges"][0]["node"]["progress"]["status"] == "CANCELLED"


async def _add_trials(
    backend: Backend, comparison_id: str, connection_id: str, outcomes: dict[int, list[Any]]
) -> None:
    """Trial rows: per cohort, per case ordinal a list of True/False (COMPLETED) or None
    (ERRORED)."""
    rows = []
    for cohort, cases in outcomes.items():
        for ordinal, trials in enumerate(cases):
            for index, passed in enumerate(trials):
                rows.append(
                    {
                        "comparison_id": comparison_id,
                        "case_ordinal": ordinal,
                        "cohort_index": cohort,
                        "trial_index": index,
                        "connection_id": connection_id,
                        "state": TrialState.ERRORED if passed is None else TrialState.COMPLETED,
                        "delivery_id": "dlv_test",
                        "lease_token": 1,
                        "passed": passed,
                        "completed_at": utcnow(),
                    }
                )
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(insert(Trial), rows)


async def _set_status(backend: Backend, comparison_id: str, status: ComparisonStatus) -> None:
    """End the run as dispatch's finishing transaction does: the status, the stored rates."""
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(Comparison).where(Comparison.id == comparison_id).values(status=status)
        )
        await cohort_rates.settle(session, comparison_id=comparison_id)


async def test_pass_rates_are_means_of_case_fractions_and_only_for_done(backend: Backend) -> None:
    setup = await _slow(backend)
    ws = setup.workspace
    outcomes = {
        # case 0: 1 of 2 completed trials passed (the errored one does not count); case 1: 3/3
        0: [[True, False, None], [True, True, True]],
        # case 0: 0/3; case 1: no completed trial, so it is left out of the mean
        1: [[False, False, False], [None, None, None]],
    }
    done, cancelled = await _created(backend, setup), await _created(backend, setup)
    for comparison_id, status in (
        (done, ComparisonStatus.DONE),
        (cancelled, ComparisonStatus.CANCELLED),
    ):
        await _add_trials(backend, comparison_id, setup.connection_id, outcomes)
        await _set_status(backend, comparison_id, status)
    read = (await _gql(backend, GET, ws, id=done)).ok()["comparison"]
    assert [c["passRate"] for c in read["cohorts"]] == [pytest.approx(0.75), 0.0]
    read = (await _gql(backend, GET, ws, id=cancelled)).ok()["comparison"]
    assert [c["passRate"] for c in read["cohorts"]] == [None, None]


# Passed of completed per case: a float mean over these depends on the order of the cases
# (0.23611111111111113 one way, …08 the other); the exact mean is 17/72.
_FRACTIONS = [(2, 3), (1, 2), (0, 1), (0, 1), (0, 1), (1, 3), (3, 3), (1, 3), (0, 3), (0, 1)]
_FRACTIONS += [(0, 3), (0, 3)]


def _trials(passed: int, completed: int) -> list[bool]:
    return [index < passed for index in range(completed)]


async def test_identical_pass_sets_give_identical_pass_rates(backend: Backend) -> None:
    setup = await _slow(backend)
    comparison_id = await _created(backend, setup)
    cases = [_trials(passed, completed) for passed, completed in _FRACTIONS]
    outcomes = {0: cases, 1: cases[::-1]}  # the same cases' outcomes, in reverse order
    await _add_trials(backend, comparison_id, setup.connection_id, outcomes)
    await _set_status(backend, comparison_id, ComparisonStatus.DONE)
    read = (await _gql(backend, GET, setup.workspace, id=comparison_id)).ok()["comparison"]
    rates = [c["passRate"] for c in read["cohorts"]]
    exact = sum(Fraction(p, c) for p, c in _FRACTIONS) / len(_FRACTIONS)
    assert exact == Fraction(17, 72)
    assert rates == [float(exact), float(exact)]


async def test_listing_costs_the_same_statements_for_one_or_ten(backend: Backend) -> None:
    async def statements(count: int) -> int:
        setup = await _slow(backend)
        for _ in range(count):
            await _created(backend, setup)
        with counting_statements(backend) as seen:
            page = (await _gql(backend, LIST, setup.workspace, first=20)).ok()
        assert len(page["comparisons"]["edges"]) == count
        return len(seen)

    assert await statements(1) == await statements(10)


async def test_start_cancel_and_rerun_are_audited(backend: Backend) -> None:
    setup = await _slow(backend)
    ws = setup.workspace
    comparison_id = await _created(backend, setup)
    (await _gql(backend, START, ws, id=comparison_id)).ok()
    (await _gql(backend, CANCEL, ws, id=comparison_id)).ok()
    copy = (await _gql(backend, RERUN, ws, id=comparison_id)).ok()["rerunComparison"]
    events = await backend.gql(
        "{ auditEvents(first: 10) { edges { node { action targetId } } } }", token=ws.owner
    )
    seen = {
        (e["node"]["action"], e["node"]["targetId"]) for e in events.ok()["auditEvents"]["edges"]
    }
    assert {
        ("comparison.start", comparison_id),
        ("comparison.cancel", comparison_id),
        ("comparison.rerun", copy["id"]),
    } <= seen


@dataclass(frozen=True)
class Operation:
    name: str
    document: str
    lowest: Role
    field: str


OPERATIONS = [
    Operation("comparison", GET, Role.VIEWER, "comparison"),
    Operation("startComparison", START, Role.MEMBER, "startComparison"),
    Operation("cancelComparison", CANCEL, Role.MEMBER, "cancelComparison"),
    Operation("rerunComparison", RERUN, Role.MEMBER, "rerunComparison"),
]


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.value)
@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda o: o.name)
async def test_each_role_is_allowed_exactly_from_the_lowest_role(
    backend: Backend, operation: Operation, role: Role
) -> None:
    setup = await _slow(backend)
    ws = setup.workspace
    comparison_id = await _created(backend, setup)
    result = await backend.gql(operation.document, {"id": comparison_id}, token=ws.tokens[role])
    if role.at_least(operation.lowest):
        assert result.ok()[operation.field]["id"]
    else:
        assert result.codes == ["FORBIDDEN"]
        assert result.data is None
        assert (await _row(backend, comparison_id)).status == ComparisonStatus.SETUP
    listed = await backend.gql(LIST, token=ws.tokens[role])
    assert listed.ok()["comparisons"]["totalCount"] >= 1
    await _cancel_if_running(backend, ws, comparison_id)


async def _cancel_if_running(backend: Backend, ws: WorkspaceFixture, comparison_id: str) -> None:
    if (await _row(backend, comparison_id)).status == ComparisonStatus.RUNNING:
        (await _gql(backend, CANCEL, ws, id=comparison_id)).ok()


async def test_another_workspaces_comparison_is_not_found(backend: Backend) -> None:
    setup = await _slow(backend)
    theirs = await _created(backend, setup)
    ours = await make_workspace(backend.sessionmaker)
    for doc in (GET, START, CANCEL, RERUN):
        result = await backend.gql(doc, {"id": theirs}, token=ours.owner)
        assert result.codes == ["NOT_FOUND"], doc
    listed = (await backend.gql(LIST, token=ours.owner)).ok()["comparisons"]
    assert listed["totalCount"] == 0
    assert (await _row(backend, theirs)).status == ComparisonStatus.SETUP


async def test_start_in_foreground_returns_when_terminal(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=3)
    comparison_id = await _created(backend, setup)
    result = await _gql(backend, START, ws, id=comparison_id, background=False)
    done = result.ok()["startComparison"]
    assert done["status"] == "DONE"
    assert done["stopReason"] == "COMPLETED"
    assert done["progress"]["doneCalls"] == done["progress"]["totalCalls"] == 6
    assert all(c["passRate"] is not None for c in done["cohorts"])
