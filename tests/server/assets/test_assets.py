"""Assets through the API: numbered sealed versions, validation, built-ins, scoping, audit."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import func, select

from bench.kit.factories import WorkspaceFixture, make_connection, make_workspace
from bench.kit.harness import Backend
from server.assets.builtins import BUILTINS
from server.assets.models import AssetVersion, VersionState
from server.assets.versioning import content_hash
from server.audit.models import AuditEvent
from server.workspaces.roles import Role

CREATE = """
mutation($input: CreateAssetInput!) {
  createAsset(input: $input) { id kind name description builtIn versions { id } }
}"""
ADD = """
mutation($id: ID!, $content: JSON!) {
  addAssetVersion(input: {assetId: $id, content: $content}) {
    id number kind contentHash content variables caseCount createdAt asset { id name }
  }
}"""
LIST = """
query($kind: AssetKind, $first: Int, $after: String) {
  assets(kind: $kind, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { node { id kind name builtIn versions { id number contentHash variables } } }
  }
}"""

RUBRIC = {"text": "Is the answer right?", "scale": "PASS_FAIL"}
PROMPT = {
    "messages": [
        {"role": "system", "content": "Answer in {{ language }}."},
        {"role": "user", "content": "{{ question }}"},
    ]
}


async def _create(
    backend: Backend, ws: WorkspaceFixture, kind: str = "RUBRIC", name: str = "grader"
) -> str:
    data = (await backend.gql(CREATE, {"input": {"kind": kind, "name": name}}, token=ws.owner)).ok()
    return str(data["createAsset"]["id"])


async def _add(backend: Backend, ws: WorkspaceFixture, asset_id: str, content: Any) -> Any:
    return await backend.gql(ADD, {"id": asset_id, "content": content}, token=ws.owner)


async def _counts(backend: Backend, ws: WorkspaceFixture) -> tuple[int, int]:
    """(asset versions, audit events) of the workspace: bad input must change neither."""
    async with backend.sessionmaker() as session:
        versions = await session.scalar(
            select(func.count()).select_from(AssetVersion).where(AssetVersion.workspace_id == ws.id)
        )
        events = await session.scalar(
            select(func.count()).select_from(AuditEvent).where(AuditEvent.workspace_id == ws.id)
        )
    return int(versions or 0), int(events or 0)


async def test_versions_are_numbered_hashed_and_sealed(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    asset_id = await _create(backend, ws)
    contents = [RUBRIC, {**RUBRIC, "scale": "SCORE_0_1"}, {**RUBRIC, "text": "Is it kind?"}]
    versions = [(await _add(backend, ws, asset_id, c)).ok()["addAssetVersion"] for c in contents]
    assert [v["number"] for v in versions] == [1, 2, 3]
    assert [v["contentHash"] for v in versions] == [content_hash(c) for c in contents]
    assert [v["content"] for v in versions] == contents
    assert versions[0]["kind"] == "RUBRIC"
    assert versions[0]["asset"] == {"id": asset_id, "name": "grader"}
    async with backend.sessionmaker() as session:
        rows = (
            (await session.execute(select(AssetVersion).where(AssetVersion.asset_id == asset_id)))
            .scalars()
            .all()
        )
    assert {row.state for row in rows} == {VersionState.SEALED}
    assert all(row.sealed_at is not None for row in rows)
    listed = (await backend.gql(LIST, {"kind": "RUBRIC"}, token=ws.tokens[Role.VIEWER])).ok()
    ours = next(e["node"] for e in listed["assets"]["edges"] if e["node"]["id"] == asset_id)
    assert [v["number"] for v in ours["versions"]] == [1, 2, 3]


async def test_the_same_content_twice_is_a_new_version_with_the_same_hash(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    asset_id = await _create(backend, ws)
    first = (await _add(backend, ws, asset_id, RUBRIC)).ok()["addAssetVersion"]
    reordered = {"scale": RUBRIC["scale"], "text": RUBRIC["text"]}
    second = (await _add(backend, ws, asset_id, reordered)).ok()["addAssetVersion"]
    assert (second["number"], second["contentHash"]) == (2, first["contentHash"])


async def test_concurrent_versions_get_distinct_numbers(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    asset_id = await _create(backend, ws)
    results = await asyncio.gather(
        *(_add(backend, ws, asset_id, {**RUBRIC, "text": f"v{i}"}) for i in range(6))
    )
    numbers = sorted(r.ok()["addAssetVersion"]["number"] for r in results)
    assert numbers == [1, 2, 3, 4, 5, 6]


async def test_a_prompt_templates_variables_are_found_by_parsing(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    asset_id = await _create(backend, ws, "PROMPT_TEMPLATE", "answer")
    version = (await _add(backend, ws, asset_id, PROMPT)).ok()["addAssetVersion"]
    assert version["variables"] == ["language", "question"]
    assert version["caseCount"] == 0


async def test_a_template_that_does_not_parse_is_refused_with_the_reason(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    asset_id = await _create(backend, ws, "PROMPT_TEMPLATE", "answer")
    before = await _counts(backend, ws)
    broken = {"messages": [{"role": "user", "content": "Hi\n{% if question %}{{ question }}"}]}
    result = await _add(backend, ws, asset_id, broken)
    assert result.codes == ["VALIDATION_FAILED"]
    error = result.errors[0]
    assert error["extensions"]["field"] == "content.messages[0].content"
    assert "is not a valid template" in error["message"]
    assert "endif" in error["message"]
    assert await _counts(backend, ws) == before


BAD_CONTENT = [
    ("RUBRIC", {"text": "x", "scale": "1-10"}, "content.scale"),
    ("RUBRIC", {"text": "x", "scale": "PASS_FAIL", "weight": 2}, "content.weight"),
    (
        "PROMPT_TEMPLATE",
        {"messages": [{"role": "robot", "content": "x"}]},
        "content.messages[0].role",
    ),
    (
        "TOOL_SCHEMA",
        {"tools": [{"type": "function", "function": {"name": "f"}}]},
        "content.tools[0].function",
    ),
    (
        "MODEL_CONFIG",
        {"connectionId": "c", "model": "m", "maxOutputTokens": 0},
        "content.maxOutputTokens",
    ),
    ("RUBRIC", "just text", "content"),
]


@pytest.mark.parametrize(("kind", "content", "field"), BAD_CONTENT, ids=lambda v: str(v)[:30])
async def test_bad_content_is_refused_naming_the_path_and_writes_nothing(
    backend: Backend, kind: str, content: Any, field: str
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    asset_id = await _create(backend, ws, kind, "target")
    before = await _counts(backend, ws)
    result = await _add(backend, ws, asset_id, content)
    assert result.codes == ["VALIDATION_FAILED"]
    assert result.errors[0]["extensions"]["field"] == field
    assert f"`{field}`" in result.errors[0]["message"]
    assert await _counts(backend, ws) == before


async def test_a_model_config_needs_a_connection_of_this_workspace(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    ours = await make_connection(backend.sessionmaker, ws)
    theirs = await make_connection(backend.sessionmaker, other)
    asset_id = await _create(backend, ws, "MODEL_CONFIG", "sim")
    config = {"model": "sim-1", "temperature": 0.2, "maxOutputTokens": 512}
    before = await _counts(backend, ws)
    for connection_id in (theirs.id, "conn_missing"):
        result = await _add(backend, ws, asset_id, {**config, "connectionId": connection_id})
        assert result.codes == ["VALIDATION_FAILED"]
        assert result.errors[0]["extensions"]["field"] == "content.connectionId"
    assert await _counts(backend, ws) == before
    ok = (await _add(backend, ws, asset_id, {**config, "connectionId": ours.id})).ok()
    assert ok["addAssetVersion"]["content"]["connectionId"] == ours.id


async def test_assets_lists_this_workspaces_and_the_builtins_only(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    mine = {await _create(backend, ws, "RUBRIC", f"r{i}") for i in range(3)}
    theirs = await _create(backend, other, "RUBRIC", "r0")
    seen: dict[str, Any] = {}
    after = None
    while True:
        page = (
            await backend.gql(LIST, {"first": 2, "after": after}, token=ws.tokens[Role.VIEWER])
        ).ok()["assets"]
        seen |= {e["node"]["id"]: e["node"] for e in page["edges"]}
        assert page["totalCount"] == len(mine) + len(BUILTINS)
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert set(seen) == mine | {b.id for b in BUILTINS}
    assert theirs not in seen
    assert all(seen[i]["builtIn"] is False and seen[i]["versions"] == [] for i in mine)
    for builtin in BUILTINS:
        node = seen[builtin.id]
        assert (node["builtIn"], node["name"], node["kind"]) == (
            True,
            builtin.name,
            builtin.kind.value,
        )
        assert node["versions"] == [
            {
                "id": builtin.version_id,
                "number": 1,
                "contentHash": content_hash(builtin.content),
                "variables": ["question"] if builtin.kind.value == "PROMPT_TEMPLATE" else [],
            }
        ]
    rubrics = (await backend.gql(LIST, {"kind": "TOOL_SCHEMA"}, token=ws.owner)).ok()["assets"]
    assert {e["node"]["kind"] for e in rubrics["edges"]} == {"TOOL_SCHEMA"}


async def test_a_builtin_can_never_change(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    before = await _counts(backend, ws)
    for builtin in BUILTINS:
        result = await _add(backend, ws, builtin.id, builtin.content)
        assert result.codes == ["FORBIDDEN"]
    async with backend.sessionmaker() as session:
        builtin_versions = await session.scalar(
            select(func.count())
            .select_from(AssetVersion)
            .where(AssetVersion.workspace_id.is_(None))
        )
    assert builtin_versions == len(BUILTINS)
    assert await _counts(backend, ws) == before


async def test_names_are_unique_per_workspace_and_kind(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    await _create(backend, ws, "RUBRIC", "grader")
    before = await _counts(backend, ws)
    again = await backend.gql(
        CREATE, {"input": {"kind": "RUBRIC", "name": " grader "}}, token=ws.owner
    )
    assert again.codes == ["CONFLICT"]
    assert again.errors[0]["extensions"]["field"] == "name"
    blank = await backend.gql(CREATE, {"input": {"kind": "RUBRIC", "name": "  "}}, token=ws.owner)
    assert blank.codes == ["VALIDATION_FAILED"]
    assert await _counts(backend, ws) == before
    await _create(backend, ws, "PROMPT_TEMPLATE", "grader")
    await _create(backend, other, "RUBRIC", "grader")
    await _create(backend, ws, "RUBRIC", BUILTINS[0].name)


async def test_an_evaluation_suite_version_holds_cases(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    asset_id = await _create(backend, ws, "EVALUATION_SUITE", "faq")
    cases = [
        {"datasetItemId": "a", "input": {"question": "2+2?"}, "expected": "4"},
        {"datasetItemId": "b", "input": "Capital of France?", "split": "HOLDOUT"},
    ]
    versions_before, events_before = await _counts(backend, ws)
    version = (await _add(backend, ws, asset_id, {"cases": cases})).ok()["addAssetVersion"]
    assert await _counts(backend, ws) == (versions_before + 1, events_before + 1)
    assert (version["number"], version["kind"], version["caseCount"]) == (1, "EVALUATION_SUITE", 2)
    assert version["contentHash"]
    before = await _counts(backend, ws)
    extra = await _add(backend, ws, asset_id, {"cases": cases, "name": "x"})
    assert extra.codes == ["VALIDATION_FAILED"]
    assert await _counts(backend, ws) == before


async def test_every_change_is_audited_without_content(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    asset_id = await _create(backend, ws, "PROMPT_TEMPLATE", "answer")
    version = (await _add(backend, ws, asset_id, PROMPT)).ok()["addAssetVersion"]
    async with backend.sessionmaker() as session:
        events = (
            (
                await session.execute(
                    select(AuditEvent)
                    .where(AuditEvent.workspace_id == ws.id, AuditEvent.action.like("asset.%"))
                    .order_by(AuditEvent.id)
                )
            )
            .scalars()
            .all()
        )
    assert [(e.action, e.target_id, e.actor_member_id) for e in events] == [
        ("asset.create", asset_id, ws.member_ids[Role.OWNER]),
        ("asset.add_version", version["id"], ws.member_ids[Role.OWNER]),
    ]
    assert events[0].details == {"kind": "PROMPT_TEMPLATE", "name": "answer"}
    assert events[1].details == {
        "assetId": asset_id,
        "kind": "PROMPT_TEMPLATE",
        "number": 1,
        "contentHash": content_hash(PROMPT),
    }


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.value)
async def test_each_role_reads_and_only_members_and_up_write(backend: Backend, role: Role) -> None:
    ws = await make_workspace(backend.sessionmaker)
    asset_id = await _create(backend, ws)
    token = ws.tokens[role]
    assert (await backend.gql(LIST, {}, token=token)).ok()["assets"]["totalCount"] == 1 + len(
        BUILTINS
    )
    created = await backend.gql(CREATE, {"input": {"kind": "RUBRIC", "name": "new"}}, token=token)
    added = await backend.gql(ADD, {"id": asset_id, "content": RUBRIC}, token=token)
    if role.at_least(Role.MEMBER):
        assert created.ok()["createAsset"]["name"] == "new"
        assert added.ok()["addAssetVersion"]["number"] == 1
    else:
        assert (created.codes, created.data) == (["FORBIDDEN"], None)
        assert (added.codes, added.data) == (["FORBIDDEN"], None)
    for document, variables in ((LIST, {}), (ADD, {"id": asset_id, "content": RUBRIC})):
        assert (await backend.gql(document, variables)).codes == ["UNAUTHENTICATED"]


async def test_another_workspaces_asset_is_not_found(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    theirs = await _create(backend, other)
    before = await _counts(backend, other)
    result = await _add(backend, ws, theirs, RUBRIC)
    assert result.codes == ["NOT_FOUND"]
    assert (await _add(backend, ws, "ast_missing", RUBRIC)).codes == ["NOT_FOUND"]
    assert await _counts(backend, other) == before
