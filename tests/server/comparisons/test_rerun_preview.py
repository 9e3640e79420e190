"""`rerunPreview(id)`: what a re-run would run and cost — the preview of the comparison's own
input, read back from its row — so the portal's "Re-run" can say its cost bound first."""

from __future__ import annotations

from typing import Any

from bench.kit.factories import make_asset_version, make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from server.assets.models import AssetKind
from server.workspaces.roles import Role
from tests.server.comparisons.documents import CREATE, PREVIEW

RERUN_PREVIEW = PREVIEW.replace(
    "query($input: CreateComparisonInput!) {\n  comparisonPreview(input: $input) {",
    "query($id: ID!) {\n  rerunPreview(id: $id) {",
)


async def test_a_rerun_previews_as_the_comparison_s_own_input_did(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(
        backend.sessionmaker,
        ws,
        cases=30,
        input_cents_per_million_tokens=100.0,
        output_cents_per_million_tokens=200.0,
    )
    longer = await make_asset_version(
        backend.sessionmaker,
        ws,
        kind=AssetKind.PROMPT_TEMPLATE,
        content={
            "messages": [
                {"role": "system", "content": "Think it through, then answer. " * 20},
                {"role": "user", "content": "{{ question }}"},
            ]
        },
    )
    fields: dict[str, Any] = {
        "cohorts": [
            {
                "kind": "VARIANT",
                "baseReleaseId": setup.release_ids[0],
                "overrides": [{"role": "PROMPT_TEMPLATE", "assetVersionId": longer.id}],
                "label": "long prompt",
            },
            {"kind": "RELEASE", "releaseId": setup.release_ids[1], "label": "v1"},
        ],
        "trialsPerCase": 2,
        "sample": {"size": 20, "seed": 7},
        "budgetCapCents": 250.0,
        "checks": [{"kind": "EXACT_MATCH"}],
    }
    member = ws.tokens[Role.MEMBER]
    spec = setup.input(**fields)
    before = (await backend.gql(PREVIEW, {"input": spec}, token=member)).ok()["comparisonPreview"]
    made = (await backend.gql(CREATE, {"input": spec}, token=member)).ok()["createComparison"]

    again = await backend.gql(RERUN_PREVIEW, {"id": made["id"]}, token=member)
    rerun = again.ok()["rerunPreview"]
    assert rerun == before
    assert (rerun["totalCalls"], rerun["caseCount"]) == (20 * 2 * 2, 20)
    assert rerun["costBoundCents"] > 0
    assert rerun["summary"].startswith("Up to 80 model calls")
    # A viewer reads it too, with the role's blocker.
    viewer = await backend.gql(RERUN_PREVIEW, {"id": made["id"]}, token=ws.tokens[Role.VIEWER])
    assert [b["code"] for b in viewer.ok()["rerunPreview"]["blockers"]] == ["ROLE_TOO_LOW"]


async def test_another_workspace_s_comparison_is_not_found(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=4)
    made = await backend.gql(CREATE, {"input": setup.input()}, token=ws.tokens[Role.MEMBER])
    other = await make_workspace(backend.sessionmaker, name="other")
    result = await backend.gql(
        RERUN_PREVIEW, {"id": made.ok()["createComparison"]["id"]}, token=other.owner
    )
    assert result.codes == ["NOT_FOUND"]
