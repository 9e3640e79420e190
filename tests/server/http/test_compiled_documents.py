"""The portal's persisted documents answered from their compiled plans
(`server.api.http.compiled_documents`) are the schema's own answers: the same document sent
by its hash (compiled) and as text (graphql-core's execution) to one server give equal
bodies (key order included) over running, finalized, reported, empty and refused cases;
whatever the plan does not answer — a refusal, another workspace's id, a bad variable —
is left to the schema, which answers it with its errors. Nothing knows a page: every
persisted query compiles."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select, update

from bench.kit.factories import (
    WorkspaceFixture,
    make_comparison,
    make_comparison_setup,
    make_workspace,
)
from bench.kit.harness import Backend, start_backend
from bench.kit.portal_documents import document
from bench.kit.scenarios import finalized, scripted_setup
from bench.kit.statements import counting_statements
from server.api.http.compiled_documents import CompiledDocuments
from server.api.http.persisted import load
from server.api.schema import build_schema
from server.metrics import REGISTRY
from server.settings import PERSISTED_DOCUMENTS, Settings
from server.verdicts.models import ComparisonVerdict
from server.workspaces.roles import Role
from tests.server.running_comparisons import running_comparison

LIST, PAGE = "ComparisonsList", "ComparisonPage"
"""The portal's operations, sent as the portal sends them: by their persisted hash."""
GENERATE = "mutation($id: ID!) { generateReport(comparisonId: $id) { id } }"


@pytest.fixture(scope="module")
async def uncached(postgres_backend: Backend) -> AsyncIterator[Backend]:
    """The same database served with no kept answers, so each request runs."""
    settings = postgres_backend.settings.model_copy(update={"response_cache_bytes": 0})
    async with start_backend("postgres-uncached", settings) as backend:
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


def _answered_by_plan() -> float:
    return REGISTRY.get_sample_value("shipwise_compiled_answers_total", {"by": "plan"}) or 0.0


@dataclass(frozen=True)
class Servers:
    """The server (no kept answers) and the workspace it reads."""

    server: Backend
    ws: WorkspaceFixture
    ids: dict[str, str]

    async def both(
        self, name: str, variables: dict[str, Any], token: str | None = None
    ) -> tuple[Any, list[str], bool]:
        """The body of the portal's operation `name` by its hash and as text (as the
        workspace's VIEWER unless `token` says), asserted equal (a running page's ETA moves
        with the clock between the two requests: only its presence is compared); the body,
        the statements of the request by hash, and whether its plan answered it."""
        token = self.ws.tokens[Role.VIEWER] if token is None else token
        before = _answered_by_plan()
        with counting_statements(self.server) as statements:
            answered = await self.server.portal(name, variables, token=token)
        by_plan = _answered_by_plan() > before
        expected = await self.server.gql(document(name), variables, token=token)
        assert _answered_by_plan() == before + by_plan, "text is never compiled"
        assert answered.status == expected.status
        assert _steady(answered.body) == _steady(expected.body)
        return answered.body, list(statements), by_plan


@pytest.fixture(scope="module")
async def servers(uncached: Backend, workspace: tuple[WorkspaceFixture, dict[str, str]]) -> Servers:
    return Servers(uncached, *workspace)


def _steady(body: dict[str, Any]) -> str:
    """The body to compare: errors without their locations (the text sent is printed apart
    from the persisted one, so its lines differ), a running page's ETA as "now"."""
    errors = [{k: v for k, v in e.items() if k != "locations"} for e in body.get("errors", [])]
    body = {**body, "errors": errors} if errors else body
    text = json.dumps(body, sort_keys=True)
    progress = (body.get("data") or {}).get("comparison", {}) or {}
    eta = (progress.get("progress") or {}).get("etaSeconds")
    return text.replace(f'"etaSeconds": {json.dumps(eta)}', '"etaSeconds": "now"')


async def test_the_comparisons_page_is_the_schemas_page_from_one_statement(
    servers: Servers,
) -> None:
    ws, ids = servers.ws, servers.ids
    token = ws.tokens[Role.VIEWER]
    body, statements, by_plan = await servers.both(LIST, {"first": 20}, token)
    page = body["data"]["comparisons"]
    assert page["totalCount"] == 6 and [e["node"]["id"] for e in page["edges"]] == sorted(
        ids.values(), reverse=True
    )
    done = next(e["node"] for e in page["edges"] if e["node"]["id"] == ids["finalized"])
    assert done["verdictState"] == "FINALIZED" and len(done["scorecard"]["verdicts"]) == 2
    assert all(c["passRate"] is not None for c in done["cohorts"])
    assert by_plan and len(statements) == 1, statements

    # Pages after a cursor, a status, an empty page and a page of none all agree too.
    first_two = (await servers.server.portal(LIST, {"first": 2}, token=token)).ok()
    cursor = first_two["comparisons"]["pageInfo"]["endCursor"]
    for variables in (
        {"first": 2, "after": cursor},
        {"first": 20, "status": "RUNNING"},
        {"first": 20, "status": "DONE", "after": None},
        {"first": 0},
        {"first": 20, "status": "FAILED"},
    ):
        await servers.both(LIST, variables, token)


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
    body, statements, by_plan = await servers.both(LIST, variables, ws.tokens[Role.VIEWER])
    assert by_plan == ("unknown" in variables)  # a variable nothing declares is ignored
    if "unknown" not in variables:
        assert body["errors"][0]["extensions"]["code"] == "VALIDATION_FAILED", body


async def test_a_comparisons_page_is_the_schemas_page_running_finalized_or_reported(
    servers: Servers,
) -> None:
    ws, ids = servers.ws, servers.ids
    viewer = ws.tokens[Role.VIEWER]
    for name in ("running3", "running0", "setup", "finalized"):
        body, statements, by_plan = await servers.both(PAGE, {"id": ids[name]}, viewer)
        assert body["data"]["comparison"]["id"] == ids[name]
        assert by_plan and len(statements) == 1, statements
    running = (await servers.server.portal(PAGE, {"id": ids["running3"]}, token=viewer)).ok()
    progress = running["comparison"]["progress"]
    assert progress["status"] == "RUNNING" and progress["doneCalls"] == 12
    assert isinstance(progress["etaSeconds"], float)

    # A reported comparison lists its reports: the schema reads them, to the same answer.
    member = ws.tokens[Role.MEMBER]
    (await servers.server.gql(GENERATE, {"id": ids["finalized"]}, token=member)).ok()
    body, _, by_plan = await servers.both(PAGE, {"id": ids["finalized"]}, viewer)
    assert [r["version"] for r in body["data"]["comparison"]["reports"]] == [1]


async def test_another_workspaces_or_an_unknown_comparison_is_not_found_as_ever(
    servers: Servers,
) -> None:
    ids = servers.ids
    other = await make_workspace(servers.server.sessionmaker)
    token = other.tokens[Role.OWNER]
    for variables in ({"id": ids["running1"]}, {"id": "cmp_unknown"}):
        body, _, by_plan = await servers.both(PAGE, variables, token)
        assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    body, _, by_plan = await servers.both(PAGE, {"id": 12}, token)
    assert body["errors"], body
    # No token: refused before anything is read.
    body, statements, by_plan = await servers.both(LIST, {"first": 5}, "")
    assert body["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"
    assert not by_plan


CASES = "ComparisonCases"


async def test_a_case_page_is_the_schemas_page_from_one_statement(
    servers: Servers,
) -> None:
    ws, ids = servers.ws, servers.ids
    token = ws.tokens[Role.VIEWER]
    regressions = {"id": ids["finalized"], "filter": "REGRESSIONS", "baseline": 1, "first": 3}
    body, statements, by_plan = await servers.both(CASES, regressions, token)
    cases = body["data"]["comparison"]["cases"]
    assert cases["totalCount"] == 8 and len(cases["edges"]) == 3
    node = cases["edges"][0]["node"]
    assert node["classification"] == "REGRESSED"
    assert [c["passFraction"] for c in node["cohorts"]] == [0.0, 1.0, 0.0]
    assert [len(c["trials"]) for c in node["cohorts"]] == [1, 1, 1]
    # The response cache's stamp (a finalized page may be kept), then the one statement.
    assert by_plan, statements

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
        _, statements, by_plan = await servers.both(CASES, variables, token)
        assert by_plan, variables


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
    body, _, by_plan = await servers.both(CASES, {**variables, **change}, ws.tokens[Role.VIEWER])
    assert body["errors"][0]["extensions"]["code"] == code, body


async def test_another_workspaces_case_page_is_not_found(
    servers: Servers,
) -> None:
    ids = servers.ids
    other = await make_workspace(servers.server.sessionmaker)
    variables = {"id": ids["finalized"], "filter": "ALL", "first": 3}
    body, _, by_plan = await servers.both(CASES, variables, other.tokens[Role.OWNER])
    assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"


SCORECARD = "ComparisonScorecard"


async def test_a_scorecard_is_the_schemas_scorecard_fresh_or_stale(
    servers: Servers,
) -> None:
    ws, ids = servers.ws, servers.ids
    token = ws.tokens[Role.VIEWER]
    body, statements, by_plan = await servers.both(SCORECARD, {"id": ids["finalized"]}, token)
    card = body["data"]["comparison"]["scorecard"]
    assert card["failureAnalysis"]["regressed"] == 8 and card["staleness"] is None
    assert [v["baselineCohortIndex"] for v in card["verdicts"]] == [1, 2]
    assert any("comparison_verdict.scorecard" in s for s in statements), statements

    # A verdict 10 days old is shown stale, with its note.
    stale = update(ComparisonVerdict).where(ComparisonVerdict.comparison_id == ids["finalized"])
    async with servers.server.sessionmaker() as session, session.begin():
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
        body, _, by_plan = await servers.both(SCORECARD, {"id": ids["finalized"]}, token)
        assert body["data"]["comparison"]["scorecard"]["staleness"]["days"] == 10
    finally:
        async with servers.server.sessionmaker() as session, session.begin():
            await session.execute(stale.values(finalized_at=finalized_at))

    # Not finalized: no scorecard. Another workspace's, or none: NOT_FOUND, as ever.
    body, _, by_plan = await servers.both(SCORECARD, {"id": ids["running1"]}, token)
    assert body["data"]["comparison"]["scorecard"] is None
    other = (await make_workspace(servers.server.sessionmaker)).tokens[Role.VIEWER]
    for variables in ({"id": ids["finalized"]}, {"id": "cmp_unknown"}):
        body, _, by_plan = await servers.both(SCORECARD, variables, other)
        assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"


PAGES = ("ComparisonsList", "ComparisonPage", "ComparisonScorecard", "ComparisonCases")


def test_every_persisted_query_compiles_by_its_hash_alone() -> None:
    """Any query the portal persists is compiled the same way, the pages among them; a
    changed document under the same hash is compiled from what the map holds."""
    documents = load(PERSISTED_DOCUMENTS)
    settings = Settings()
    compiled = CompiledDocuments(build_schema(settings), documents, settings)
    queries = {
        found: text
        for found, text in documents.items()
        if not text.lstrip().startswith(("mutation", "subscription"))
        and " subscription " not in text
        and " mutation " not in text
    }
    names = {found: compiled.compiled(found) for found in queries}
    done = {c.name for c in names.values() if c is not None}
    assert set(PAGES) <= done
    left = sorted(queries[found][:60] for found, c in names.items() if c is None)
    assert len(left) <= len(queries) // 4, left
    found, text = next((k, t) for k, t in documents.items() if "query ComparisonPage(" in t)
    changed = text.replace("caseCount", "caseCount rerunOfId shipPolicy { alpha }", 1)
    again = CompiledDocuments(build_schema(settings), {found: changed}, settings).compiled(found)
    assert again is not None and again.name == PAGE
