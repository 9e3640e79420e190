"""A NUL or an unpaired surrogate in any string argument: VALIDATION_FAILED naming the field.

Bodies are encoded with `json.dumps` (ASCII escapes), as a client would send a lone
surrogate; httpx's own encoder refuses to write one.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets
from sqlalchemy import func, select

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend, GraphQLResult
from server.assets.models import Asset
from server.audit.models import AuditEvent
from server.workspaces.models import ApiToken
from tests.server.datasets.api import create_dataset, open_version

PROTOCOL = "graphql-transport-ws"
NUL = "\x00"
LONE = "\udcff"


async def post(
    backend: Backend, query: str, variables: dict[str, Any], token: str
) -> GraphQLResult:
    response = await backend.client.post(
        "/graphql",
        content=json.dumps({"query": query, "variables": variables}),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    return GraphQLResult(response.status_code, response.json())


ADD_VERSION = (
    "mutation($id: ID!, $content: JSON!) "
    "{ addAssetVersion(input: {assetId: $id, content: $content}) { id } }"
)
CREATE_COMPARISON = (
    "mutation($input: CreateComparisonInput!) { createComparison(input: $input) { id } }"
)

# (id, document, variables, the field named, the words of the reason)
CASES: list[Any] = [
    pytest.param(
        'mutation { createToken(name: "a\\u0000b") { secret } }',
        {},
        "name",
        "NUL",
        id="string-literal",
    ),
    pytest.param(
        "mutation($n: String!) { createToken(name: $n) { secret } }",
        {"n": f"tok{LONE}"},
        "name",
        "unpaired surrogate",
        id="string-variable",
    ),
    pytest.param(
        'mutation($n: String = "x\\u0000") { createToken(name: $n) { secret } }',
        {},
        "$n",
        "NUL",
        id="variable-default",
    ),
    pytest.param(
        "mutation($input: CreateDatasetInput!) { createDataset(input: $input) { id } }",
        {"input": {"name": "qa", "description": f"one{NUL}two"}},
        "input.description",
        "NUL",
        id="input-object-field",
    ),
    pytest.param(
        "query($id: ID!) { dataset(id: $id) { id } }",
        {"id": f"ds_{NUL}"},
        "id",
        "NUL",
        id="id-argument",
    ),
    pytest.param(
        ADD_VERSION,
        {"id": "ast_x", "content": {"text": f"Right?{LONE}", "scale": "PASS_FAIL"}},
        "input.content.text",
        "unpaired surrogate",
        id="asset-content",
    ),
    pytest.param(
        ADD_VERSION,
        {"id": "ast_x", "content": {"text": "Right?", "scale": "PASS_FAIL", f"k{NUL}": 1}},
        "input.content",
        "key",
        id="json-key",
    ),
    pytest.param(
        CREATE_COMPARISON,
        {
            "input": {
                "datasetId": "ds_x",
                "cohorts": [{"kind": "RELEASE", "releaseId": "rel_x"}],
                "checks": [
                    {"kind": "CONTAINS"},
                    {"kind": "JSON_SCHEMA", "schema": {"description": f"a{NUL}"}},
                ],
            }
        },
        "input.checks[1].schema.description",
        "NUL",
        id="checks",
    ),
]


async def _rows(backend: Backend, workspace_id: str) -> tuple[int, int, int]:
    async with backend.sessionmaker() as session:
        counts = []
        for model in (ApiToken, Asset, AuditEvent):
            counts.append(
                await session.scalar(
                    select(func.count())
                    .select_from(model)
                    .where(model.workspace_id == workspace_id)
                )
            )
    return counts[0] or 0, counts[1] or 0, counts[2] or 0


@pytest.mark.parametrize(("query", "variables", "field", "words"), CASES)
async def test_a_bad_string_anywhere_is_refused_naming_its_field(
    backend: Backend, query: str, variables: dict[str, Any], field: str, words: str
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    before = await _rows(backend, ws.id)
    result = await post(backend, query, variables, ws.owner)
    assert result.status == 200
    assert result.codes == ["VALIDATION_FAILED"], result.body
    assert result.data is None
    error = result.errors[0]
    assert error["extensions"]["field"] == field
    assert error["message"].startswith(f"{field}: ") and words in error["message"]
    assert await _rows(backend, ws.id) == before


async def test_a_bad_case_string_names_the_case_and_stores_nothing(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    version_id = await open_version(backend, ws.owner, await create_dataset(backend, ws.owner))
    cases = [
        {"datasetItemId": "fine", "input": "x"},
        {"datasetItemId": "odd", "input": {"turns": ["ok", f"no{LONE}"]}},
    ]
    result = await post(
        backend,
        "mutation($id: ID!, $cases: JSON!) "
        "{ appendDatasetCases(versionId: $id, cases: $cases) { caseCount } }",
        {"id": version_id, "cases": cases},
        ws.owner,
    )
    assert result.codes == ["VALIDATION_FAILED"]
    extensions = result.errors[0]["extensions"]
    assert extensions["field"] == "cases[1].input.turns[1]" and extensions["index"] == 1
    count = await backend.gql(
        "query($id: ID!) { dataset(id: $id) { versions { caseCount } } }",
        {"id": await _dataset_of(backend, version_id)},
        token=ws.owner,
    )
    assert count.ok()["dataset"]["versions"][0]["caseCount"] == 0


async def _dataset_of(backend: Backend, version_id: str) -> str:
    from server.assets.models import AssetVersion

    async with backend.sessionmaker() as session:
        asset_id = await session.scalar(
            select(AssetVersion.asset_id).where(AssetVersion.id == version_id)
        )
    assert asset_id is not None
    return str(asset_id)


async def test_clean_text_with_unicode_still_goes_through(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    name = "Ünïcødé 名前 🚀"
    result = await post(
        backend,
        "mutation($input: CreateDatasetInput!) { createDataset(input: $input) { name } }",
        {"input": {"name": name}},
        ws.owner,
    )
    assert result.ok()["createDataset"]["name"] == name


async def test_a_subscription_argument_is_checked_too(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    async with websockets.connect(backend.ws_url, subprotocols=[PROTOCOL]) as socket:  # type: ignore[list-item]
        await socket.send(json.dumps({"type": "connection_init", "payload": {"token": ws.owner}}))
        assert json.loads(await socket.recv()) == {"type": "connection_ack"}
        subscribe = {
            "id": "1",
            "type": "subscribe",
            "payload": {
                "query": "subscription($id: ID!) { comparisonProgress(id: $id) { seq } }",
                "variables": {"id": f"cmp_{NUL}"},
            },
        }
        await socket.send(json.dumps(subscribe))
        message = json.loads(await asyncio.wait_for(socket.recv(), 10))
    assert message["type"] == "error"
    [error] = message["payload"]
    assert error["extensions"]["code"] == "VALIDATION_FAILED"
    assert error["extensions"]["field"] == "id" and "NUL" in error["message"]
