"""Releases through the API: bindings of the role's kind, scoping, conflicts and audit."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from bench.kit.factories import (
    WorkspaceFixture,
    make_asset_version,
    make_model_config_version,
    make_prompt_version,
    make_workspace,
)
from bench.kit.harness import Backend
from server.assets.builtins import BUILTINS
from server.assets.models import AssetKind, AssetVersion, VersionState
from server.audit.models import AuditEvent
from server.ids import new_id
from server.releases.models import Release, ReleaseBinding
from server.workspaces.roles import Role

CREATE = """
mutation($input: CreateReleaseInput!) {
  createRelease(input: $input) {
    id name description
    bindings { role assetVersion { id number kind asset { id name builtIn } } }
  }
}"""
LIST = """
query($first: Int, $after: String) {
  releases(first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { node { id name bindings { role assetVersion { id } } } }
  }
}"""

RUBRIC = next(b for b in BUILTINS if b.kind == AssetKind.RUBRIC)
TOOLS = next(b for b in BUILTINS if b.kind == AssetKind.TOOL_SCHEMA)
BUILTIN_PROMPT = next(b for b in BUILTINS if b.kind == AssetKind.PROMPT_TEMPLATE)


async def _versions(backend: Backend, ws: WorkspaceFixture) -> dict[str, str]:
    """A fresh prompt template and model config of the workspace: {role: version id}."""
    prompt = await make_prompt_version(backend.sessionmaker, ws)
    config = await make_model_config_version(backend.sessionmaker, ws)
    return {"PROMPT_TEMPLATE": prompt.id, "MODEL_CONFIG": config.id}


def _input(name: str, bindings: dict[str, str], **extra: Any) -> dict[str, Any]:
    return {
        "input": {
            "name": name,
            "bindings": [{"role": r, "assetVersionId": v} for r, v in bindings.items()],
            **extra,
        }
    }


async def _counts(backend: Backend, ws: WorkspaceFixture) -> tuple[int, int, int]:
    """(releases, bindings, audit events) of the workspace: bad input changes none."""
    async with backend.sessionmaker() as session:
        releases = await session.scalar(
            select(func.count()).select_from(Release).where(Release.workspace_id == ws.id)
        )
        bindings = await session.scalar(
            select(func.count())
            .select_from(ReleaseBinding)
            .join(Release, Release.id == ReleaseBinding.release_id)
            .where(Release.workspace_id == ws.id)
        )
        events = await session.scalar(
            select(func.count()).select_from(AuditEvent).where(AuditEvent.workspace_id == ws.id)
        )
    return int(releases or 0), int(bindings or 0), int(events or 0)


async def test_a_release_binds_each_role_and_lists_newest_first(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    versions = await _versions(backend, ws)
    bindings = {**versions, "RUBRIC": RUBRIC.version_id, "TOOLS": TOOLS.version_id}
    created = (
        await backend.gql(CREATE, _input("v1", bindings, description="first"), token=ws.owner)
    ).ok()["createRelease"]
    assert (created["name"], created["description"]) == ("v1", "first")
    assert [b["role"] for b in created["bindings"]] == [
        "PROMPT_TEMPLATE",
        "MODEL_CONFIG",
        "RUBRIC",
        "TOOLS",
    ]
    assert {b["role"]: b["assetVersion"]["id"] for b in created["bindings"]} == bindings
    rubric = created["bindings"][2]["assetVersion"]
    assert rubric["asset"] == {"id": RUBRIC.id, "name": RUBRIC.name, "builtIn": True}
    assert (rubric["kind"], rubric["number"]) == ("RUBRIC", 1)
    second = (await backend.gql(CREATE, _input("v2", versions), token=ws.owner)).ok()
    listed = (await backend.gql(LIST, {"first": 1}, token=ws.tokens[Role.VIEWER])).ok()
    page = listed["releases"]
    assert page["totalCount"] == 2
    assert page["edges"][0]["node"]["id"] == second["createRelease"]["id"]
    assert len(page["edges"][0]["node"]["bindings"]) == 2
    rest = (await backend.gql(LIST, {"after": page["pageInfo"]["endCursor"]}, token=ws.owner)).ok()[
        "releases"
    ]
    assert [e["node"]["id"] for e in rest["edges"]] == [created["id"]]
    assert rest["pageInfo"]["hasNextPage"] is False


async def test_a_builtin_prompt_template_is_bindable(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    versions = await _versions(backend, ws)
    bindings = {**versions, "PROMPT_TEMPLATE": BUILTIN_PROMPT.version_id}
    data = (await backend.gql(CREATE, _input("builtin", bindings), token=ws.owner)).ok()
    assert data["createRelease"]["bindings"][0]["assetVersion"]["asset"]["builtIn"] is True


async def _other_workspace_prompt(backend: Backend) -> str:
    other = await make_workspace(backend.sessionmaker, name="other")
    return (await make_prompt_version(backend.sessionmaker, other)).id


async def _open_prompt_version(backend: Backend, ws: WorkspaceFixture) -> str:
    """A prompt-template version left OPEN (as a dataset version is while being filled)."""
    version = await make_prompt_version(backend.sessionmaker, ws)
    async with backend.sessionmaker() as session, session.begin():
        open_version = AssetVersion(
            id=new_id("astv"),
            asset_id=version.asset_id,
            workspace_id=ws.id,
            kind=AssetKind.PROMPT_TEMPLATE,
            number=2,
            state=VersionState.OPEN,
        )
        session.add(open_version)
    return open_version.id


@pytest.mark.parametrize(
    ("case", "role", "words"),
    [
        ("wrong kind", "MODEL_CONFIG", "is a RUBRIC, not a MODEL_CONFIG"),
        ("tools bound to a rubric", "TOOLS", "is a RUBRIC, not a TOOL_SCHEMA"),
        ("another workspace", "PROMPT_TEMPLATE", "was not found"),
        ("missing", "PROMPT_TEMPLATE", "was not found"),
        ("not sealed", "PROMPT_TEMPLATE", "is not sealed"),
        ("required role left out", "MODEL_CONFIG", "the role is required"),
        ("role twice", "RUBRIC", "bound more than once"),
    ],
)
async def test_a_bad_binding_is_refused_naming_the_role_and_writes_nothing(
    backend: Backend, case: str, role: str, words: str
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    versions = await _versions(backend, ws)
    bindings: list[tuple[str, str]] = list(versions.items())
    if case == "wrong kind":
        bindings[1] = ("MODEL_CONFIG", RUBRIC.version_id)
    elif case == "tools bound to a rubric":
        bindings.append(("TOOLS", RUBRIC.version_id))
    elif case == "another workspace":
        bindings[0] = ("PROMPT_TEMPLATE", await _other_workspace_prompt(backend))
    elif case == "missing":
        bindings[0] = ("PROMPT_TEMPLATE", "astv_missing")
    elif case == "not sealed":
        bindings[0] = ("PROMPT_TEMPLATE", await _open_prompt_version(backend, ws))
    elif case == "required role left out":
        bindings = bindings[:1]
    elif case == "role twice":
        bindings += [("RUBRIC", RUBRIC.version_id), ("RUBRIC", RUBRIC.version_id)]
    before = await _counts(backend, ws)
    variables = {
        "input": {
            "name": "r",
            "bindings": [{"role": r, "assetVersionId": v} for r, v in bindings],
        }
    }
    result = await backend.gql(CREATE, variables, token=ws.owner)
    assert result.codes == ["VALIDATION_FAILED"], case
    error = result.errors[0]
    assert error["message"].startswith(f"binding {role.lower()}: ")
    assert words in error["message"]
    assert error["extensions"]["role"] == role
    assert await _counts(backend, ws) == before


async def test_another_workspaces_version_reads_exactly_like_a_missing_one(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    versions = await _versions(backend, ws)
    theirs = await _other_workspace_prompt(backend)
    messages = []
    for version_id in (theirs, "astv_missing"):
        bindings = {**versions, "PROMPT_TEMPLATE": version_id}
        result = await backend.gql(CREATE, _input("r", bindings), token=ws.owner)
        messages.append(result.errors[0]["message"].replace(version_id, "ID"))
    assert messages[0] == messages[1]


async def test_names_are_unique_per_workspace(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    versions = await _versions(backend, ws)
    (await backend.gql(CREATE, _input("v1", versions), token=ws.owner)).ok()
    before = await _counts(backend, ws)
    again = await backend.gql(CREATE, _input(" v1 ", versions), token=ws.owner)
    assert again.codes == ["CONFLICT"]
    assert again.errors[0]["extensions"]["field"] == "name"
    blank = await backend.gql(CREATE, _input(" ", versions), token=ws.owner)
    assert blank.codes == ["VALIDATION_FAILED"]
    assert await _counts(backend, ws) == before
    theirs = await _versions(backend, other)
    (await backend.gql(CREATE, _input("v1", theirs), token=other.owner)).ok()


async def test_creating_a_release_is_audited_with_ids_only(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    versions = await _versions(backend, ws)
    bindings = {**versions, "RUBRIC": RUBRIC.version_id}
    created = (await backend.gql(CREATE, _input("v1", bindings), token=ws.owner)).ok()
    async with backend.sessionmaker() as session:
        event = (
            await session.execute(
                select(AuditEvent).where(
                    AuditEvent.workspace_id == ws.id, AuditEvent.action == "release.create"
                )
            )
        ).scalar_one()
    assert event.target_id == created["createRelease"]["id"]
    assert event.details == {
        "name": "v1",
        "bindings": {
            "prompt_template": versions["PROMPT_TEMPLATE"],
            "model_config": versions["MODEL_CONFIG"],
            "rubric": RUBRIC.version_id,
        },
    }


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.value)
async def test_each_role_reads_and_only_members_and_up_create(backend: Backend, role: Role) -> None:
    ws = await make_workspace(backend.sessionmaker)
    versions = await _versions(backend, ws)
    token = ws.tokens[role]
    assert (await backend.gql(LIST, {}, token=token)).ok()["releases"]["totalCount"] == 0
    created = await backend.gql(CREATE, _input("v1", versions), token=token)
    if role.at_least(Role.MEMBER):
        assert created.ok()["createRelease"]["name"] == "v1"
    else:
        assert (created.codes, created.data) == (["FORBIDDEN"], None)
    for document, variables in ((LIST, {}), (CREATE, _input("v2", versions))):
        assert (await backend.gql(document, variables)).codes == ["UNAUTHENTICATED"]


async def test_releases_show_only_the_callers_workspace(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    theirs = await _versions(backend, other)
    (await backend.gql(CREATE, _input("theirs", theirs), token=other.owner)).ok()
    assert (await backend.gql(LIST, {}, token=ws.owner)).ok()["releases"]["totalCount"] == 0


async def test_a_rubric_asset_of_the_workspace_binds_to_rubric(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    versions = await _versions(backend, ws)
    rubric = await make_asset_version(
        backend.sessionmaker,
        ws,
        kind=AssetKind.RUBRIC,
        content={"text": "Right?", "scale": "PASS_FAIL"},
        name="mine",
    )
    bindings = {**versions, "RUBRIC": rubric.id}
    data = (await backend.gql(CREATE, _input("v1", bindings), token=ws.owner)).ok()
    bound = data["createRelease"]["bindings"][2]["assetVersion"]
    assert (bound["id"], bound["asset"]["name"], bound["asset"]["builtIn"]) == (
        rubric.id,
        "mine",
        False,
    )
