"""A comparison's page has one read (`server.page_reads.comparison_page.page_of` makes its
value): what that value holds is what its type shows, by the persisted hash (the compiled
plan) as by text (graphql-core's execution), and what the response cache's stamp compares.
A field changed in the read model alone is seen by all three."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend, start_backend
from bench.kit.portal_documents import document
from bench.kit.scenarios import finalized, scripted_setup
from bench.kit.statements import counting_statements
from server.api.http.cached_reads import comparison as cached_comparison
from server.page_reads import comparison_page, comparisons_list
from server.page_reads.comparison_page import ComparisonPageRead
from server.page_reads.comparisons_list import ComparisonRowRead
from server.workspaces.roles import Role

MARK = "as the read model has it"


@pytest.fixture
async def schema_only(postgres_backend: Backend) -> AsyncIterator[Backend]:
    settings = postgres_backend.settings.model_copy(update={"response_cache_bytes": 0})
    async with start_backend("postgres-uncached", settings) as backend:
        yield backend


async def test_a_field_of_the_read_model_is_what_plan_schema_and_stamp_see(
    postgres_backend: Backend, schema_only: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = await make_workspace(postgres_backend.sessionmaker)
    setup = await scripted_setup(postgres_backend.sessionmaker, ws, [["P"], ["P"], ["F"]])
    comparison_id, _ = await finalized(postgres_backend, setup, trialsPerCase=1)
    token = ws.tokens[Role.VIEWER]
    made = comparison_page.page_of

    def marked(row: Any) -> ComparisonPageRead:
        page = made(row)
        cohorts = tuple(c._replace(label=f"{c.label} {MARK}") for c in page.cohorts)
        return dataclasses.replace(page, label=MARK, cohorts=cohorts)

    monkeypatch.setattr(comparison_page, "page_of", marked)
    variables = {"id": comparison_id}
    with counting_statements(schema_only) as reads:
        direct = (await schema_only.portal("ComparisonPage", variables, token=token)).ok()
    schema = (await schema_only.gql(document("ComparisonPage"), variables, token=token)).ok()
    assert any("json_agg" in s for s in reads), reads  # the page's read
    for answer in (direct, schema):
        assert answer["comparison"]["label"] == MARK
        assert all(c["label"].endswith(MARK) for c in answer["comparison"]["cohorts"])
    assert direct == schema

    connections = postgres_backend.state.page_connections
    assert connections is not None  # PostgreSQL: stamps are read on the driver's connection
    stamp = await cached_comparison.read_stamp(
        connections.fetch,
        dialect="postgresql",
        workspace_id=ws.id,
        arguments=variables,
        max_page_size=100,
    )
    assert stamp is not None and isinstance(stamp[0], ComparisonPageRead)
    assert stamp[0].label == MARK


async def test_a_field_of_the_lists_read_model_is_what_plan_and_schema_see(
    postgres_backend: Backend, schema_only: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = await make_workspace(postgres_backend.sessionmaker)
    setup = await scripted_setup(postgres_backend.sessionmaker, ws, [["P"], ["P"], ["F"]])
    await finalized(postgres_backend, setup, trialsPerCase=1)
    token = ws.tokens[Role.VIEWER]
    made = comparisons_list.row_of

    def marked(row: Any) -> ComparisonRowRead:
        node = made(row)
        cohorts = tuple(c._replace(label=f"{c.label} {MARK}") for c in node.cohorts)
        return node._replace(label=MARK, cohorts=cohorts)

    monkeypatch.setattr(comparisons_list, "row_of", marked)
    variables = {"first": 5}
    with counting_statements(schema_only) as reads:
        direct = (await schema_only.portal("ComparisonsList", variables, token=token)).ok()
    schema = (await schema_only.gql(document("ComparisonsList"), variables, token=token)).ok()
    assert any("json_agg" in s for s in reads), reads
    for answer in (direct, schema):
        (edge,) = answer["comparisons"]["edges"]
        assert edge["node"]["label"] == MARK
        assert all(c["label"].endswith(MARK) for c in edge["node"]["cohorts"])
    assert direct == schema
