"""A repeated read of a finalized comparison's scorecard and cases is answered from the
process's response cache for one statement, and is never stale, never another workspace's
and never kept when it failed."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from graphql import parse
from sqlalchemy import insert, update

from bench.kit.factories import make_comparison, make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import finalized, scripted_setup
from bench.kit.statements import counting_statements
from bench.kit.waiting import eventually
from server.api.http.cached_reads import RULES
from server.api.http.response_cache import CachedAnswer, ResponseCache, plan_for
from server.comparisons.models import Comparison, ComparisonStatus, Trial, TrialState
from server.db import create_engine, utcnow
from server.experiments.models import Experiment
from server.reports import verdict_rows
from server.verdicts import erasure
from server.verdicts.models import ComparisonVerdict, SignOffVerdict
from server.workspaces.models import ApiToken
from server.workspaces.roles import Role

PAGE = """
query($id: ID!, $first: Int) { comparison(id: $id) {
  id label status verdictState verdict
  scorecard {
    usableCases finalizedAt staleness { days note }
    verdicts { baselineCohortIndex outcome summary }
  }
  cases(filter: ALL, first: $first) {
    totalCount pageInfo { hasNextPage endCursor }
    edges { node { ordinal classification
      cohorts { cohortIndex passFraction trials { trialIndex passed output } } } }
  } } }
"""
UNCACHED = PAGE.replace("id label status", "__typename id label status")
"""The same answer from another document text: a key of its own, so it runs."""


async def _finalized(backend: Backend) -> tuple[Any, str]:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [["PP"] * 6, ["PF"] * 6])
    comparison_id, _ = await finalized(backend, setup, trialsPerCase=2)
    return ws, comparison_id


async def _read(
    backend: Backend, token: str, comparison_id: str, query: str = PAGE
) -> tuple[dict[str, Any], list[str]]:
    with counting_statements(backend) as seen:
        result = await backend.gql(query, {"id": comparison_id, "first": 4}, token=token)
    return result.body, list(seen)


async def test_a_repeated_read_costs_one_statement_and_equals_the_uncached_answer(
    backend: Backend,
) -> None:
    ws, comparison_id = await _finalized(backend)
    viewer = ws.tokens[Role.VIEWER]
    first, ran = await _read(backend, viewer, comparison_id)
    again, kept = await _read(backend, viewer, comparison_id)
    uncached, ran_again = await _read(backend, viewer, comparison_id, UNCACHED)
    assert "errors" not in first and len(first["data"]["comparison"]["cases"]["edges"]) == 4
    assert again == first
    assert {k: v for k, v in uncached["data"]["comparison"].items() if k != "__typename"} == (
        first["data"]["comparison"]
    )
    reads = [s for s in kept if not s.startswith("BEGIN")]  # SQLite begins every session
    assert len(reads) == 1 and "comparison_verdict" in reads[0], kept  # the stamp alone
    # Run: the stamp, the page's read and its case page's (on PostgreSQL one statement each).
    assert len(ran) >= 3 and len(ran_again) >= 3, (ran, ran_again)


async def test_a_field_outside_the_frozen_set_runs_every_time(backend: Backend) -> None:
    ws, comparison_id = await _finalized(backend)
    query = PAGE.replace("verdictState verdict", "verdictState verdict stopping { alpha }")
    await _read(backend, ws.tokens[Role.VIEWER], comparison_id, query)
    body, ran = await _read(backend, ws.tokens[Role.VIEWER], comparison_id, query)
    reads = [s for s in ran if not s.startswith("BEGIN")]  # SQLite begins every session
    assert "errors" not in body and len(reads) > 1, ran  # executed, not the stamp alone


async def test_the_pages_own_fields_are_kept_under_its_reads_stamp(backend: Backend) -> None:
    """The stamp is the page's read (`server.page_reads.comparison_page`): whatever the read
    holds (cohorts, experiment, progress) is kept, and a change to it is seen."""
    ws, comparison_id = await _finalized(backend)
    query = PAGE.replace(
        "verdictState verdict",
        "verdictState verdict cohorts { label passRate } experiment { name } "
        "progress { percent cohorts { state } }",
    )
    first, _ = await _read(backend, ws.tokens[Role.VIEWER], comparison_id, query)
    again, ran = await _read(backend, ws.tokens[Role.VIEWER], comparison_id, query)
    reads = [s for s in ran if not s.startswith("BEGIN")]
    assert "errors" not in first and again == first and len(reads) == 1, ran
    async with backend.sessionmaker() as session, session.begin():
        row = await session.get(Comparison, comparison_id)
        assert row is not None
        await session.execute(
            update(Experiment).where(Experiment.id == row.experiment_id).values(name="renamed")
        )
    renamed, ran = await _read(backend, ws.tokens[Role.VIEWER], comparison_id, query)
    assert renamed["data"]["comparison"]["experiment"]["name"] == "renamed"
    assert len([s for s in ran if not s.startswith("BEGIN")]) > 1, ran


async def test_another_workspaces_token_gets_not_found_never_the_kept_answer(
    backend: Backend,
) -> None:
    ws, comparison_id = await _finalized(backend)
    other = await make_workspace(backend.sessionmaker, name="other")
    await _read(backend, ws.tokens[Role.VIEWER], comparison_id)
    for role in (Role.VIEWER, Role.OWNER):
        body, _ = await _read(backend, other.tokens[role], comparison_id)
        assert body["data"] is None
        assert [e["extensions"]["code"] for e in body["errors"]] == ["NOT_FOUND"]
    body, _ = await _read(backend, "not-a-token", comparison_id)
    assert [e["extensions"]["code"] for e in body["errors"]] == ["UNAUTHENTICATED"]


async def test_a_revoked_token_is_refused_within_5_seconds_though_its_answer_is_kept(
    backend: Backend,
) -> None:
    ws, comparison_id = await _finalized(backend)
    viewer = ws.tokens[Role.VIEWER]
    await _read(backend, viewer, comparison_id)
    async with backend.sessionmaker() as session, session.begin():  # as another API process
        await session.execute(
            update(ApiToken)
            .where(ApiToken.member_id == ws.member_ids[Role.VIEWER])
            .values(revoked_at=utcnow())
        )
    started = time.monotonic()

    async def answer() -> dict[str, Any]:
        body, _ = await _read(backend, viewer, comparison_id)
        return body

    body = await eventually(answer, until=lambda b: b.get("errors"), timeout=10, what="refused")
    assert [e["extensions"]["code"] for e in body["errors"]] == ["UNAUTHENTICATED"]
    assert time.monotonic() - started < 5


async def test_whatever_changes_the_comparison_or_its_verdict_changes_the_answer(
    backend: Backend,
) -> None:
    ws, comparison_id = await _finalized(backend)
    viewer = ws.tokens[Role.VIEWER]
    before, _ = await _read(backend, viewer, comparison_id)
    assert before["data"]["comparison"]["verdict"] is None
    async with backend.sessionmaker() as session, session.begin():  # what sign-off writes
        await verdict_rows.set_verdict(
            session=session, comparison_id=comparison_id, verdict=SignOffVerdict.PROMOTE
        )
    signed, _ = await _read(backend, viewer, comparison_id)
    assert signed["data"]["comparison"]["verdict"] == "PROMOTE"
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(Comparison).where(Comparison.id == comparison_id).values(label="renamed")
        )
    renamed, _ = await _read(backend, viewer, comparison_id)
    assert renamed["data"]["comparison"]["label"] == "renamed"
    async with backend.sessionmaker() as session, session.begin():  # 8 days on
        await session.execute(
            update(ComparisonVerdict)
            .where(ComparisonVerdict.comparison_id == comparison_id)
            .values(finalized_at=utcnow() - timedelta(days=8))
        )
    aged, _ = await _read(backend, viewer, comparison_id)
    assert aged["data"]["comparison"]["scorecard"]["staleness"]["days"] == 8


async def test_an_answer_with_errors_is_never_kept(backend: Backend) -> None:
    ws, comparison_id = await _finalized(backend)
    viewer = ws.tokens[Role.VIEWER]
    for _ in range(2):
        with counting_statements(backend) as seen:
            result = await backend.gql(PAGE, {"id": comparison_id, "first": 1000}, token=viewer)
        assert result.codes == ["VALIDATION_FAILED"]
        assert len(seen) > 1, seen  # ran again: nothing was kept


async def test_an_unfinalized_comparison_is_never_kept_and_shows_its_erasure(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=2)
    comparison_id = await make_comparison(backend.sessionmaker, setup, trials=1)
    rows = [
        {
            "comparison_id": comparison_id,
            "case_ordinal": ordinal,
            "cohort_index": cohort,
            "trial_index": 0,
            "connection_id": setup.connection_id,
            "state": TrialState.COMPLETED,
            "delivery_id": "dlv_test",
            "lease_token": 1,
            "passed": True,
            "completed_at": utcnow(),
        }
        for ordinal in range(2)
        for cohort in range(2)
    ]
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(insert(Trial), rows)
        await session.execute(
            update(Comparison)
            .where(Comparison.id == comparison_id)
            .values(status=ComparisonStatus.DONE, ended_at=utcnow())
        )
    query = "query($id: ID!) { comparison(id: $id) { verdictState verdictErrorCode } }"
    viewer = ws.tokens[Role.VIEWER]
    for _ in range(2):
        with counting_statements(backend) as seen:
            before = (await backend.gql(query, {"id": comparison_id}, token=viewer)).ok()
        assert before["comparison"]["verdictErrorCode"] is None
        assert len(seen) > 1, seen  # not frozen: it runs every time
    async with backend.sessionmaker() as session, session.begin():
        await erasure.erase_stale(session=session, now=utcnow() + timedelta(days=31))
    erased = (await backend.gql(query, {"id": comparison_id}, token=viewer)).ok()
    assert erased["comparison"] == {
        "verdictState": "NOT_FINALIZED",
        "verdictErrorCode": "verdict_cases_erased",
    }


@pytest.mark.parametrize(
    ("document", "root"),
    [
        ("query($id: ID!) { comparison(id: $id) { id scorecard { usableCases } } }", "comparison"),
        ('{ comparison(id: "c") { ...F } } fragment F on Comparison { cases { totalCount } }',
         "comparison"),
        ('{ __typename comparison(id: "c") { ... on Comparison { verdict } } }', "comparison"),
        ("{ comparisons(first: 5) { edges { node { id cohorts { passRate } } } } }",
         "comparisons"),
        ("{ comparisons { totalCount edges { node { progress { cohorts { state } } } } } }",
         "comparisons"),
        ("{ comparisons { edges { node { label trialsPerCase experiment { name } } } } }",
         "comparisons"),  # the list's read, and columns beside it
        ("{ comparisons { edges { node { decision { outcome } } } } }", None),  # the portal's
        ('{ comparison(id: "c") { cohorts { passRate } } }', "comparison"),  # the page's read
        ('{ comparison(id: "c") { experiment { name } } }', "comparison"),
        ('{ comparison(id: "c") { experiment { createdAt } } }', "comparison"),
        ('{ comparison(id: "c") { reports { id } } }', None),
        ('{ comparison(id: "c") { stopping { alpha } } }', None),
        ("{ comparisons { edges { node { scorecard { usableCases } } } } }", None),
        ("{ comparisons { edges { node { reports { id } } } } }", None),
        ("{ comparisons { edges { node { datasetVersion { caseCounts { dev } } } } } }", None),
        ('{ comparison(id: "c") { id } me { role } }', None),
        ('{ a: comparison(id: "c") { id } b: comparison(id: "d") { id } }', None),
        ('mutation { cancelComparison(id: "c") { id } }', None),
        ('query A { comparison(id: "c") { id } } query B { me { role } }', None),
        ('{ comparison(id: "c") { ...Missing } }', None),
        ("{ comparison { id } }", None),
        ("{ experiments { totalCount } }", None),
    ],
)  # fmt: skip
def test_only_reads_their_stamps_cover_qualify(document: str, root: str | None) -> None:
    plan = plan_for(parse(document), None, RULES)
    assert (plan.rule.root if plan is not None else None) == root


def test_arguments_resolve_from_variables_and_their_declared_defaults() -> None:
    document = parse(
        "query($n: Int = 7, $s: ComparisonStatus) { comparisons(first: $n, status: $s) {"
        " totalCount } }"
    )
    plan = plan_for(document, None, RULES)
    assert plan is not None
    assert plan.resolve({}) == {"first": 7, "status": None}
    assert plan.resolve({"n": 2, "s": "DONE"}) == {"first": 2, "status": "DONE"}


def test_kept_answers_stay_within_their_bytes_least_recently_used_first() -> None:
    engine = create_engine("sqlite+aiosqlite://")
    cache = ResponseCache(engine, rules=(), max_bytes=1000, max_tokens=5000)
    for index in range(10):  # 200 bytes each: 199 of body, 1 of variables
        key = ("ws", "VIEWER", b"doc", None, str(index).encode())
        cache._keep(key, CachedAnswer((), b"x" * 199))
    assert cache.size == 1000 and len(cache) == 5
    cache._keep(("ws", "VIEWER", b"doc", None, b"v"), CachedAnswer((), b"x" * 249))
    assert cache.size == 850 and len(cache) == 4  # the two oldest answers gave way
    cache._keep(("ws", "VIEWER", b"doc", None, b"w"), CachedAnswer((), b"x" * 250))
    assert cache.size == 850 and len(cache) == 4  # over a quarter of the bytes: not kept
