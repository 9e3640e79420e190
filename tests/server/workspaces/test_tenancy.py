"""Members, tokens and settings through the API, each change audited."""

from __future__ import annotations

from sqlalchemy import select

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.models import ApiToken
from server.workspaces.roles import Role


async def test_a_created_token_is_shown_once_stored_hashed_and_works(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    created = (
        await backend.gql(
            'mutation { createToken(name: "ci") { secret token { id prefix name } } }',
            token=ws.tokens[Role.ADMIN],
        )
    ).ok()["createToken"]
    secret = created["secret"]
    assert secret.startswith("sw_") and secret.startswith(created["token"]["prefix"])
    async with backend.sessionmaker() as session:
        row = (
            await session.execute(select(ApiToken).where(ApiToken.id == created["token"]["id"]))
        ).scalar_one()
    assert row.token_hash != secret and secret not in row.token_hash
    listed = (
        await backend.gql(
            "{ workspace { tokens(first: 50) { edges { node { id prefix } } } } }", token=secret
        )
    ).ok()
    assert created["token"]["id"] in {
        e["node"]["id"] for e in listed["workspace"]["tokens"]["edges"]
    }
    assert secret not in str(listed)
    me = (await backend.gql("{ me { role member { id } } }", token=secret)).ok()["me"]
    assert me["role"] == "ADMIN"


async def test_a_removed_member_loses_access(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    viewer_token = ws.tokens[Role.VIEWER]
    assert (await backend.gql("{ me { role } }", token=viewer_token)).ok()
    (
        await backend.gql(
            "mutation($id: ID!) { removeMember(memberId: $id) { id } }",
            {"id": ws.member_ids[Role.VIEWER]},
            token=ws.tokens[Role.ADMIN],
        )
    ).ok()
    assert (await backend.gql("{ me { role } }", token=viewer_token)).codes == ["UNAUTHENTICATED"]
    members = (await backend.gql("{ members { totalCount } }", token=ws.owner)).ok()
    assert members["members"]["totalCount"] == 3


async def test_a_role_change_takes_effect_on_the_next_request(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    add = 'mutation { addMember(name: "n", role: VIEWER) { id } }'
    assert (await backend.gql(add, token=ws.tokens[Role.MEMBER])).codes == ["FORBIDDEN"]
    (
        await backend.gql(
            "mutation($id: ID!) { setMemberRole(memberId: $id, role: ADMIN) { role } }",
            {"id": ws.member_ids[Role.MEMBER]},
            token=ws.owner,
        )
    ).ok()
    assert (await backend.gql(add, token=ws.tokens[Role.MEMBER])).ok()


async def test_the_last_owner_cannot_be_demoted_or_removed(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    owner_id = ws.member_ids[Role.OWNER]
    demote = await backend.gql(
        "mutation($id: ID!) { setMemberRole(memberId: $id, role: ADMIN) { id } }",
        {"id": owner_id},
        token=ws.owner,
    )
    assert demote.codes == ["CONFLICT"]
    remove = await backend.gql(
        "mutation($id: ID!) { removeMember(memberId: $id) { id } }",
        {"id": owner_id},
        token=ws.owner,
    )
    assert remove.codes == ["CONFLICT"]
    assert (await backend.gql("{ me { role } }", token=ws.owner)).ok()["me"]["role"] == "OWNER"


async def test_settings_have_spec_defaults_and_update(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    query = (
        "{ workspace { settings { allowHostedRuns allowSelfSignOff maxRunningComparisons "
        "requestsPerMinutePerToken ambiguousOutcomes } } }"
    )
    settings = (await backend.gql(query, token=ws.owner)).ok()["workspace"]["settings"]
    assert settings == {
        "allowHostedRuns": True,
        "allowSelfSignOff": False,
        "maxRunningComparisons": 2,
        "requestsPerMinutePerToken": 600,
        "ambiguousOutcomes": "COUNT_AS_MISSING",
    }
    updated = (
        await backend.gql(
            "mutation { updateWorkspaceSettings(input: {allowHostedRuns: false, "
            "maxRunningComparisons: 5}) { settings { allowHostedRuns maxRunningComparisons "
            "allowSelfSignOff } } }",
            token=ws.tokens[Role.ADMIN],
        )
    ).ok()["updateWorkspaceSettings"]["settings"]
    assert updated == {
        "allowHostedRuns": False,
        "maxRunningComparisons": 5,
        "allowSelfSignOff": False,
    }


AMBIGUOUS = """
mutation($value: AmbiguousOutcomes!) {
  updateWorkspaceSettings(input: {ambiguousOutcomes: $value}) { settings { ambiguousOutcomes } }
}
"""
AUDIT = "{ auditEvents(first: 1) { edges { node { action actorRole details } } } }"


async def test_ambiguous_outcomes_is_an_admin_setting_and_audited(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    refused = await backend.gql(AMBIGUOUS, {"value": "FAIL_RUN"}, token=ws.tokens[Role.MEMBER])
    assert refused.codes == ["FORBIDDEN"]
    bad = await backend.gql(AMBIGUOUS, {"value": "RETRY"}, token=ws.tokens[Role.ADMIN])
    assert bad.codes == ["VALIDATION_FAILED"]
    query = "{ workspace { settings { ambiguousOutcomes } } }"
    assert (await backend.gql(query, token=ws.owner)).ok()["workspace"]["settings"] == {
        "ambiguousOutcomes": "COUNT_AS_MISSING"
    }
    updated = (
        await backend.gql(AMBIGUOUS, {"value": "FAIL_RUN"}, token=ws.tokens[Role.ADMIN])
    ).ok()["updateWorkspaceSettings"]["settings"]
    assert updated == {"ambiguousOutcomes": "FAIL_RUN"}
    assert (await backend.gql(query, token=ws.tokens[Role.VIEWER])).ok()["workspace"][
        "settings"
    ] == {"ambiguousOutcomes": "FAIL_RUN"}
    event = (await backend.gql(AUDIT, token=ws.owner)).ok()["auditEvents"]["edges"][0]["node"]
    assert event == {
        "action": "workspace.update_settings",
        "actorRole": "ADMIN",
        "details": {"ambiguousOutcomes": "FAIL_RUN"},
    }


async def test_requests_beyond_the_per_token_rate_are_rate_limited(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    (
        await backend.gql(
            "mutation { updateWorkspaceSettings(input: {requestsPerMinutePerToken: 3}) { id } }",
            token=ws.owner,
        )
    ).ok()
    # A fresh token starts a fresh window; the limit now applies to every token.
    token = ws.tokens[Role.VIEWER]
    results = [await backend.gql("{ me { role } }", token=token) for _ in range(4)]
    assert [r.codes for r in results[:3]] == [[], [], []]
    assert results[3].codes == ["RATE_LIMITED"]
    assert results[3].data is None
    # Another token has its own budget.
    assert (await backend.gql("{ me { role } }", token=ws.tokens[Role.MEMBER])).codes == []
