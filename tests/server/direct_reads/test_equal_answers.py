"""The portal's live pages answered directly (`server.api.direct_reads`, PostgreSQL) are the
schema's own answers: the same documents sent to a second server on the same database with
`direct_reads` off give equal bodies (key order included) over running, finalized,
reported, empty and refused cases; and what the direct way does not know goes to the
schema."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select, update
from strawberry.http import GraphQLRequestData

from bench.kit.factories import (
    WorkspaceFixture,
    actor_for,
    make_comparison,
    make_comparison_setup,
    make_workspace,
)
from bench.kit.harness import Backend, start_backend
from bench.kit.portal_documents import document, persisted_body
from bench.kit.scenarios import finalized, scripted_setup
from bench.kit.statements import counting_statements
from server.api.context import Context
from server.api.direct_reads.documents import DirectReads
from server.api.direct_reads.known import DOCUMENTS
from server.api.http.persisted import load
from server.db import create_engine
from server.verdicts.models import ComparisonVerdict
from server.workspaces.roles import Role
from tests.private_services import free_port
from tests.server.running_comparisons import running_comparison

LIST, PAGE = "ComparisonsList", "ComparisonPage"
"""The portal's operations, sent as the portal sends them: by their persisted hash."""
GENERATE = "mutation($id: ID!) { generateReport(comparisonId: $id) { id } }"


@pytest.fixture(scope="module")
async def schema_only(postgres_backend: Backend) -> AsyncIterator[Backend]:
    """The same database served with every document through the schema (and no kept
    answers, so each one runs)."""
    settings = postgres_backend.settings.model_copy(
        update={"direct_reads": False, "response_cache_bytes": 0}
    )
    async with start_backend("postgres-schema", settings) as backend:
        yield backend


@pytest.fixture(scope="module")
async def workspace(postgres_backend: Backend) -> tuple[WorkspaceFixture, dict[str, str]]:
    """Four running comparisons at different points, one left in SETUP, and one finalized
    with a verdict against each baseline: {name: id}."""
    backend = postgres_backend
    ws = await make_workspace(backend.sessionmaker)
    scripted = await scripted_setup(backend.sessionmaker, ws, [["F"] * 8, ["P"] * 8, ["F"] * 8])
    ids = {"finalized": (await finalized(backend, scripted, trialsPerCase=1))[0]}
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=6)
    for n in range(4):  # left RUNNING without starting (the workspace starts two at most)
        ids[f"running{n}"] = await running_comparison(backend, setup, recorded=n)
    ids["setup"] = await make_comparison(backend.sessionmaker, setup, trials=1)
    return ws, ids


@dataclass(frozen=True)
class Servers:
    """The direct server, the schema's, and the workspace both read."""

    direct: Backend
    schema: Backend
    ws: WorkspaceFixture
    ids: dict[str, str]

    async def both(
        self, name: str, variables: dict[str, Any], token: str | None = None
    ) -> tuple[Any, list[str]]:
        """The body from each server for the portal's operation `name` (as the workspace's
        VIEWER unless `token` says), asserted equal (a running page's ETA moves with the
        clock between the two requests: only its presence is compared); the body and the
        direct server's statements."""
        token = self.ws.tokens[Role.VIEWER] if token is None else token
        with counting_statements(self.direct) as statements:
            answered = await self.direct.portal(name, variables, token=token)
        expected = await self.schema.portal(name, variables, token=token)
        assert answered.status == expected.status
        assert _steady(answered.body) == _steady(expected.body)
        return answered.body, list(statements)


@pytest.fixture(scope="module")
async def servers(
    postgres_backend: Backend,
    schema_only: Backend,
    workspace: tuple[WorkspaceFixture, dict[str, str]],
) -> Servers:
    return Servers(postgres_backend, schema_only, *workspace)


def _steady(body: dict[str, Any]) -> str:
    text = json.dumps(body, sort_keys=True)  # the order of keys is the document's
    progress = (body.get("data") or {}).get("comparison", {}) or {}
    eta = (progress.get("progress") or {}).get("etaSeconds")
    return text.replace(f'"etaSeconds": {json.dumps(eta)}', '"etaSeconds": "now"')


def _direct(statements: list[str]) -> bool:
    """Whether the direct way read: its one statement aggregates the cohorts as JSON, and
    reads no ORM entity (the schema's read of the same read model adds the comparison's
    whole row, `checks` included)."""
    return any("json_agg" in s and "comparison.checks" not in s for s in statements)


async def test_the_comparisons_page_is_the_schemas_page_from_one_statement(
    servers: Servers,
) -> None:
    ws, ids = servers.ws, servers.ids
    token = ws.tokens[Role.VIEWER]
    body, statements = await servers.both(LIST, {"first": 20}, token)
    page = body["data"]["comparisons"]
    assert page["totalCount"] == 6 and [e["node"]["id"] for e in page["edges"]] == sorted(
        ids.values(), reverse=True
    )
    done = next(e["node"] for e in page["edges"] if e["node"]["id"] == ids["finalized"])
    assert done["verdictState"] == "FINALIZED" and len(done["scorecard"]["verdicts"]) == 2
    assert all(c["passRate"] is not None for c in done["cohorts"])
    assert _direct(statements) and len(statements) == 1, statements

    # Pages after a cursor, a status, an empty page and a page of none all agree too.
    first_two = (await servers.direct.portal(LIST, {"first": 2}, token=token)).ok()
    cursor = first_two["comparisons"]["pageInfo"]["endCursor"]
    for variables in (
        {"first": 2, "after": cursor},
        {"first": 20, "status": "RUNNING"},
        {"first": 20, "status": "DONE", "after": None},
        {"first": 0},
        {"first": 20, "status": "FAILED"},
    ):
        await servers.both(LIST, variables, token)

    # Sent as text, the same document is the schema's: direct reads go by the hash alone.
    with counting_statements(servers.direct) as statements:
        as_text = await servers.direct.gql(document(LIST), {"first": 3}, token=token)
    assert as_text.ok()["comparisons"]["totalCount"] == 6
    assert not _direct(list(statements)), statements


@pytest.mark.parametrize(
    "variables",
    [
        {"first": 1000},
        {"first": 20, "after": "not-a-cursor"},
        {"first": 20, "after": "MTI="},  # a cursor holding 12: another list's
        {"first": 20, "status": "NOPE"},
        {"first": "20"},
        {"first": True},
        {},
        {"first": 20, "unknown": 1},
    ],
)
async def test_what_the_list_refuses_is_refused_as_the_schema_refuses_it(
    servers: Servers,
    variables: dict[str, Any],
) -> None:
    ws = servers.ws
    body, statements = await servers.both(LIST, variables, ws.tokens[Role.VIEWER])
    assert not _direct(statements)
    if "unknown" not in variables:
        assert body["errors"][0]["extensions"]["code"] == "VALIDATION_FAILED", body


async def test_a_comparisons_page_is_the_schemas_page_running_finalized_or_reported(
    servers: Servers,
) -> None:
    ws, ids = servers.ws, servers.ids
    viewer = ws.tokens[Role.VIEWER]
    for name in ("running3", "running0", "setup", "finalized"):
        body, statements = await servers.both(PAGE, {"id": ids[name]}, viewer)
        assert body["data"]["comparison"]["id"] == ids[name]
        assert _direct(statements) and len(statements) == 1, statements
    running = (await servers.direct.portal(PAGE, {"id": ids["running3"]}, token=viewer)).ok()
    progress = running["comparison"]["progress"]
    assert progress["status"] == "RUNNING" and progress["doneCalls"] == 12
    assert isinstance(progress["etaSeconds"], float)

    # A reported comparison lists its reports: the schema reads them, to the same answer.
    member = ws.tokens[Role.MEMBER]
    (await servers.direct.gql(GENERATE, {"id": ids["finalized"]}, token=member)).ok()
    body, _ = await servers.both(PAGE, {"id": ids["finalized"]}, viewer)
    assert [r["version"] for r in body["data"]["comparison"]["reports"]] == [1]


async def test_another_workspaces_or_an_unknown_comparison_is_not_found_as_ever(
    servers: Servers,
) -> None:
    ids = servers.ids
    other = await make_workspace(servers.direct.sessionmaker)
    token = other.tokens[Role.OWNER]
    for variables in ({"id": ids["running1"]}, {"id": "cmp_unknown"}):
        body, _ = await servers.both(PAGE, variables, token)
        assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    body, _ = await servers.both(PAGE, {"id": 12}, token)
    assert body["errors"], body
    # No token: refused before anything is read.
    body, statements = await servers.both(LIST, {"first": 5}, "")
    assert body["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"
    assert not _direct(statements)


CASES = "ComparisonCases"


async def test_a_case_page_is_the_schemas_page_from_one_statement(
    servers: Servers,
) -> None:
    ws, ids = servers.ws, servers.ids
    token = ws.tokens[Role.VIEWER]
    regressions = {"id": ids["finalized"], "filter": "REGRESSIONS", "baseline": 1, "first": 3}
    body, statements = await servers.both(CASES, regressions, token)
    cases = body["data"]["comparison"]["cases"]
    assert cases["totalCount"] == 8 and len(cases["edges"]) == 3
    node = cases["edges"][0]["node"]
    assert node["classification"] == "REGRESSED"
    assert [c["passFraction"] for c in node["cohorts"]] == [0.0, 1.0, 0.0]
    assert [len(c["trials"]) for c in node["cohorts"]] == [1, 1, 1]
    # The response cache's stamp (a finalized page may be kept), then the one statement.
    assert _direct(statements) and len(statements) == 2, statements

    cursor = cases["pageInfo"]["endCursor"]
    for variables in (
        {**regressions, "after": cursor},
        {**regressions, "first": 20},
        {**regressions, "baseline": 2},  # no regressions against baseline 2: an empty page
        {**regressions, "first": 0},
        {"id": ids["finalized"], "filter": "ALL", "first": 5},
        {"id": ids["finalized"], "filter": "DIVERGED", "first": 5, "baseline": None},
        {"id": ids["finalized"], "filter": "IMPROVEMENTS", "first": 5},
        {"id": ids["finalized"], "filter": "REGRESSIONS", "first": 5},
        {"id": ids["finalized"], "filter": "DIVERGED", "first": 5, "baseline": 2},
        {"id": ids["finalized"], "filter": "IMPROVEMENTS", "first": 5, "baseline": 1},
        {"id": ids["finalized"], "filter": "ALL", "first": 5, "baseline": 1},
        {"id": ids["running2"], "filter": "REGRESSIONS", "first": 5},  # none until finalized
    ):
        _, statements = await servers.both(CASES, variables, token)
        assert _direct(statements), variables


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"baseline": 0}, "VALIDATION_FAILED"),
        ({"baseline": 3}, "VALIDATION_FAILED"),
        ({"baseline": 40}, "VALIDATION_FAILED"),
        ({"first": 1000}, "VALIDATION_FAILED"),
        ({"after": "bm9wZQ=="}, "VALIDATION_FAILED"),  # a cursor holding "nope"
        ({"filter": "WORSE"}, "VALIDATION_FAILED"),
        ({"id": "cmp_unknown"}, "NOT_FOUND"),
    ],
)
async def test_what_a_case_page_refuses_is_refused_as_the_schema_refuses_it(
    servers: Servers,
    change: dict[str, Any],
    code: str,
) -> None:
    ws, ids = servers.ws, servers.ids
    variables = {"id": ids["finalized"], "filter": "REGRESSIONS", "baseline": 1, "first": 3}
    body, _ = await servers.both(CASES, {**variables, **change}, ws.tokens[Role.VIEWER])
    assert body["errors"][0]["extensions"]["code"] == code, body


async def test_another_workspaces_case_page_is_not_found(
    servers: Servers,
) -> None:
    ids = servers.ids
    other = await make_workspace(servers.direct.sessionmaker)
    variables = {"id": ids["finalized"], "filter": "ALL", "first": 3}
    body, _ = await servers.both(CASES, variables, other.tokens[Role.OWNER])
    assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"


SCORECARD = "ComparisonScorecard"


async def test_a_scorecard_is_the_schemas_scorecard_fresh_or_stale(
    servers: Servers,
) -> None:
    ws, ids = servers.ws, servers.ids
    token = ws.tokens[Role.VIEWER]
    body, statements = await servers.both(SCORECARD, {"id": ids["finalized"]}, token)
    card = body["data"]["comparison"]["scorecard"]
    assert card["failureAnalysis"]["regressed"] == 8 and card["staleness"] is None
    assert [v["baselineCohortIndex"] for v in card["verdicts"]] == [1, 2]
    assert any("comparison_verdict.scorecard" in s for s in statements), statements

    # A verdict 10 days old is shown stale, with its note.
    stale = update(ComparisonVerdict).where(ComparisonVerdict.comparison_id == ids["finalized"])
    async with servers.direct.sessionmaker() as session, session.begin():
        finalized_at = (
            await session.execute(
                select(ComparisonVerdict.finalized_at).where(
                    ComparisonVerdict.comparison_id == ids["finalized"]
                )
            )
        ).scalar_one()
        assert finalized_at is not None
        await session.execute(stale.values(finalized_at=finalized_at - timedelta(days=10)))
    try:
        body, _ = await servers.both(SCORECARD, {"id": ids["finalized"]}, token)
        assert body["data"]["comparison"]["scorecard"]["staleness"]["days"] == 10
    finally:
        async with servers.direct.sessionmaker() as session, session.begin():
            await session.execute(stale.values(finalized_at=finalized_at))

    # Not finalized: no scorecard. Another workspace's, or none: NOT_FOUND, as ever.
    body, _ = await servers.both(SCORECARD, {"id": ids["running1"]}, token)
    assert body["data"]["comparison"]["scorecard"] is None
    other = (await make_workspace(servers.direct.sessionmaker)).tokens[Role.VIEWER]
    for variables in ({"id": ids["finalized"]}, {"id": "cmp_unknown"}):
        body, _ = await servers.both(SCORECARD, variables, other)
        assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"


async def test_a_database_that_is_away_leaves_the_answer_to_the_schema(
    servers: Servers,
) -> None:
    ws = servers.ws
    gone = create_engine(f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/test")
    direct = DirectReads(gone, DOCUMENTS, load(servers.direct.settings.persisted_documents_file()))
    context = Context(app=servers.direct.state)
    context.authenticate_as(actor_for(ws, Role.VIEWER), None)
    body = persisted_body(LIST, {"first": 5})
    request = GraphQLRequestData(
        query=None,
        variables=body["variables"],
        operation_name=LIST,
        extensions=body["extensions"],
        protocol="http",
    )
    try:
        assert await direct.answer(context, request) is None
    finally:
        await direct.close()
        await gone.dispose()
