"""`maxCallsPerComparison`: a workspace's call limit, set by an ADMIN (20,000 for a new
workspace, up to 2,000,000), shown in the preview and enforced at create."""

from __future__ import annotations

from typing import Any

import pytest

from bench.kit.factories import ComparisonSetup, make_comparison_setup, make_workspace
from bench.kit.harness import Backend, GraphQLResult
from server.workspaces.roles import Role
from tests.server.comparisons.documents import CREATE, PREVIEW, count_rows, error_extensions

SET_LIMIT = """
mutation($value: Int!) {
  updateWorkspaceSettings(input: {maxCallsPerComparison: $value}) {
    settings { maxCallsPerComparison }
  }
}
"""
SETTINGS = "{ workspace { settings { maxCallsPerComparison } } }"
AUDIT = "{ auditEvents(first: 1) { edges { node { action details } } } }"


async def _setup(backend: Backend, cases: int) -> ComparisonSetup:
    ws = await make_workspace(backend.sessionmaker)
    return await make_comparison_setup(backend.sessionmaker, ws, cases=cases)


async def _set(backend: Backend, setup: ComparisonSetup, value: int, role: Role) -> GraphQLResult:
    return await backend.gql(SET_LIMIT, {"value": value}, token=setup.workspace.tokens[role])


async def _limit(backend: Backend, setup: ComparisonSetup) -> int:
    result = await backend.gql(SETTINGS, token=setup.workspace.tokens[Role.VIEWER])
    return int(result.ok()["workspace"]["settings"]["maxCallsPerComparison"])


async def _preview(backend: Backend, setup: ComparisonSetup, **fields: Any) -> dict[str, Any]:
    result = await backend.gql(
        PREVIEW, {"input": setup.input(**fields)}, token=setup.workspace.tokens[Role.MEMBER]
    )
    preview: dict[str, Any] = result.ok()["comparisonPreview"]
    return preview


async def _create(backend: Backend, setup: ComparisonSetup, **fields: Any) -> GraphQLResult:
    return await backend.gql(
        CREATE, {"input": setup.input(**fields)}, token=setup.workspace.tokens[Role.MEMBER]
    )


async def test_an_admin_raises_the_limit_and_a_larger_comparison_is_created(
    backend: Backend,
) -> None:
    # 1,001 cases × 10 trials × 2 cohorts = 20,020 calls: over the default 20,000.
    setup = await _setup(backend, cases=1001)
    other = await _setup(backend, cases=1001)
    assert await _limit(backend, setup) == 20_000
    before = await _preview(backend, setup, trialsPerCase=10)
    assert (before["totalCalls"], before["callLimit"]) == (20_020, 20_000)
    assert before["canStart"] is False
    assert [b["code"] for b in before["blockers"]] == ["OVER_CALL_LIMIT"]
    assert (await _create(backend, setup, trialsPerCase=10)).codes == ["QUOTA_EXCEEDED"]

    raised = (await _set(backend, setup, 2_000_000, Role.ADMIN)).ok()
    assert raised["updateWorkspaceSettings"]["settings"] == {"maxCallsPerComparison": 2_000_000}
    assert await _limit(backend, setup) == 2_000_000
    after = await _preview(backend, setup, trialsPerCase=10)
    assert (after["callLimit"], after["blockers"], after["canStart"]) == (2_000_000, [], True)
    created = (await _create(backend, setup, trialsPerCase=10)).ok()["createComparison"]
    assert created["progress"]["totalCalls"] == 20_020
    event = (await backend.gql(AUDIT, token=setup.workspace.owner)).ok()["auditEvents"]
    assert [e["node"]["action"] for e in event["edges"]] == ["comparison.create"]

    # Another workspace keeps its own limit.
    assert await _limit(backend, other) == 20_000
    refused = await _create(backend, other, trialsPerCase=10)
    assert refused.codes == ["QUOTA_EXCEEDED"]
    assert error_extensions(refused)["limit"] == 20_000


async def test_a_lowered_limit_is_named_in_the_preview_and_refused_at_create(
    backend: Backend,
) -> None:
    setup = await _setup(backend, cases=20)
    (await _set(backend, setup, 100, Role.ADMIN)).ok()
    # 20 cases × 3 trials × 2 cohorts = 120 calls.
    preview = await _preview(backend, setup, trialsPerCase=3)
    assert (preview["totalCalls"], preview["callLimit"]) == (120, 100)
    assert [b["code"] for b in preview["blockers"]] == ["OVER_CALL_LIMIT"]
    assert "at most 100." in preview["blockers"][0]["message"]
    before = await count_rows(backend, setup.workspace.id)
    refused = await _create(backend, setup, trialsPerCase=3)
    assert refused.codes == ["QUOTA_EXCEEDED"]
    assert (error_extensions(refused)["calls"], error_extensions(refused)["limit"]) == (120, 100)
    assert await count_rows(backend, setup.workspace.id) == before
    exactly = (await _create(backend, setup, trialsPerCase=3, sample={"size": 16})).ok()
    assert exactly["createComparison"]["progress"]["totalCalls"] == 96


@pytest.mark.parametrize("role", [Role.VIEWER, Role.MEMBER])
async def test_below_admin_may_not_change_it(backend: Backend, role: Role) -> None:
    setup = await _setup(backend, cases=3)
    assert (await _set(backend, setup, 100_000, role)).codes == ["FORBIDDEN"]
    assert await _limit(backend, setup) == 20_000


@pytest.mark.parametrize("value", [0, -1, 2_000_001])
async def test_out_of_range_is_refused_and_changes_nothing(backend: Backend, value: int) -> None:
    setup = await _setup(backend, cases=3)
    refused = await _set(backend, setup, value, Role.ADMIN)
    assert refused.codes == ["VALIDATION_FAILED"]
    assert error_extensions(refused)["field"] == "maxCallsPerComparison"
    assert await _limit(backend, setup) == 20_000


async def test_the_change_is_audited(backend: Backend) -> None:
    setup = await _setup(backend, cases=3)
    (await _set(backend, setup, 50_000, Role.ADMIN)).ok()
    event = (await backend.gql(AUDIT, token=setup.workspace.owner)).ok()["auditEvents"]
    node = event["edges"][0]["node"]
    assert node["action"] == "workspace.update_settings"
    assert node["details"] == {"maxCallsPerComparison": 50_000}
