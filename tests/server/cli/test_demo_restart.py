"""`shipwise serve --demo` starts again after whatever a user did with the printed token.

Issue 34 (a): a second dataset in the demo workspace made the next start crash
(`MultipleResultsFound`). Each start here is followed by changes a user can make, and the
next start must serve, print a token that works and ids that the printed Compare accepts.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.demo_server import Printed, demo_server

pytestmark = pytest.mark.slow


def _gql(base: str, token: str, document: str, variables: dict[str, Any] | None = None) -> Any:
    response = httpx.post(
        f"{base}/graphql",
        json={"query": document, "variables": variables or {}},
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
    )
    body = response.json()
    assert not body.get("errors"), body
    return body["data"]


def _token(printed: Printed) -> str:
    found = re.search(r"Token:\s+(sw_\S+)", printed.banner)
    assert found, printed.banner
    return found.group(1)


def _compare_as_printed(base: str, printed: Printed) -> dict[str, Any]:
    """The banner's Compare mutation, run as printed: its ids must all still be usable."""
    create = printed.banner.split("mutation Compare", 1)[1].split("then, with the id", 1)[0]
    comparison: dict[str, Any] = _gql(base, _token(printed), "mutation Compare" + create)[
        "createComparison"
    ]
    return comparison


def _change_everything(base: str, token: str) -> None:
    """What the README invites and the API allows: more of every kind of thing."""
    me = _gql(base, token, "{ me { member { id } } }")["me"]["member"]["id"]
    dataset = _gql(
        base,
        token,
        'mutation { createDataset(input: {name: "My second set"}) { id } }',
    )["createDataset"]["id"]
    version = _gql(
        base,
        token,
        "mutation($d: ID!) { openDatasetVersion(datasetId: $d) { id } }",
        {"d": dataset},
    )["openDatasetVersion"]["id"]
    cases = [{"datasetItemId": "a", "input": {"country": "Peru"}, "expected": "Lima"}]
    _gql(
        base,
        token,
        "mutation($v: ID!, $c: JSON!) { appendDatasetCases(versionId: $v, cases: $c) "
        "{ caseCount } }",
        {"v": version, "c": cases},
    )
    _gql(
        base,
        token,
        "mutation($v: ID!) { sealDatasetVersion(versionId: $v) { id } }",
        {"v": version},
    )
    # A second version of the demo dataset itself, and an empty dataset left unsealed.
    demo_dataset = _gql(base, token, "{ datasets(first: 10) { edges { node { id name } } } }")
    capitals = [
        e["node"]["id"]
        for e in demo_dataset["datasets"]["edges"]
        if e["node"]["name"] == "Capital cities"
    ]
    (capitals_id,) = capitals
    _gql(
        base,
        token,
        "mutation($a: ID!, $c: JSON!) { addAssetVersion(input: {assetId: $a, content: $c}) "
        "{ id } }",
        {"a": capitals_id, "c": {"cases": cases}},
    )
    prompt = _gql(
        base,
        token,
        'mutation { createAsset(input: {kind: PROMPT_TEMPLATE, name: "my prompt"}) { id } }',
    )["createAsset"]["id"]
    prompt_version = _gql(
        base,
        token,
        "mutation($a: ID!, $c: JSON!) { addAssetVersion(input: {assetId: $a, content: $c}) "
        "{ id } }",
        {
            "a": prompt,
            "c": {"messages": [{"role": "user", "content": "Capital of {{ country }}?"}]},
        },
    )["addAssetVersion"]["id"]
    connection = _gql(
        base,
        token,
        'mutation { createModelConnection(input: {name: "Simulated model", kind: SIMULATED}) '
        "{ id } }",
    )["createModelConnection"]["id"]
    config = _gql(
        base,
        token,
        'mutation { createAsset(input: {kind: MODEL_CONFIG, name: "my config"}) { id } }',
    )["createAsset"]["id"]
    config_version = _gql(
        base,
        token,
        "mutation($a: ID!, $c: JSON!) { addAssetVersion(input: {assetId: $a, content: $c}) "
        "{ id } }",
        {"a": config, "c": {"connectionId": connection, "model": "m", "maxOutputTokens": 8}},
    )["addAssetVersion"]["id"]
    _gql(
        base,
        token,
        'mutation($p: ID!, $m: ID!) { createRelease(input: {name: "my release", bindings: '
        "[{role: PROMPT_TEMPLATE, assetVersionId: $p}, {role: MODEL_CONFIG, assetVersionId: $m}]})"
        " { id } }",
        {"p": prompt_version, "m": config_version},
    )
    _gql(base, token, 'mutation { createExperiment(input: {name: "my experiment"}) { id } }')
    _gql(
        base,
        token,
        "mutation { updateWorkspaceSettings(input: {allowSelfSignOff: true, "
        "maxRunningComparisons: 3}) { id } }",
    )
    # A second owner takes over and removes the member the demo's tokens belong to.
    other = _gql(base, token, 'mutation { addMember(name: "Second owner", role: OWNER) { id } }')
    other_id = other["addMember"]["id"]
    other_token = _gql(
        base,
        token,
        'mutation($m: ID!) { createToken(name: "mine", memberId: $m) { secret } }',
        {"m": other_id},
    )["createToken"]["secret"]
    _gql(base, other_token, "mutation($m: ID!) { removeMember(memberId: $m) { id } }", {"m": me})


def _rename_and_delete(database: Path) -> None:
    """What the API cannot do yet but a later version or an operator may: rename the demo's
    dataset, connection and a release, and delete the other release (never run)."""
    with sqlite3.connect(database) as db:
        db.execute("UPDATE asset SET name = 'Capitals (mine)' WHERE name = 'Capital cities'")
        db.execute("UPDATE model_connection SET name = 'Sim (mine)'")
        db.execute("UPDATE release SET name = 'baseline (mine)' WHERE name = 'capitals v1'")
        db.execute(
            "DELETE FROM release_binding WHERE release_id IN "
            "(SELECT id FROM release WHERE name = 'my release')"
        )
        db.execute("DELETE FROM release WHERE name = 'my release'")


def test_the_demo_starts_again_after_the_user_changed_its_workspace(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with demo_server(data_dir) as (base, printed):
        first = _compare_as_printed(base, printed)
        _change_everything(base, _token(printed))
    with demo_server(data_dir) as (base, printed):
        token = _token(printed)
        me = _gql(base, token, "{ me { role member { name } workspace { name } } }")["me"]
        assert me["role"] == "OWNER" and me["member"]["name"] == "Second owner"
        assert me["workspace"]["name"] == "shipwise demo"
        again = _compare_as_printed(base, printed)
        assert first["progress"] == {"totalCalls": 60 * 3 * 2}
        assert again["progress"] == {"totalCalls": 1 * 3 * 2}  # the version the user added
        datasets = _gql(base, token, "{ datasets(first: 10) { totalCount } }")["datasets"]
        assert datasets["totalCount"] == 2  # nothing made twice
    _rename_and_delete(data_dir / "shipwise.db")
    with demo_server(data_dir) as (base, printed):
        token = _token(printed)
        again = _compare_as_printed(base, printed)
        assert again["progress"] == first["progress"]  # the demo's pieces, made again
        releases = _gql(base, token, "{ releases(first: 10) { edges { node { name } } } }")
        names = {e["node"]["name"] for e in releases["releases"]["edges"]}
        assert names == {"baseline (mine)", "capitals v1", "capitals v2"}
        workspaces = sqlite3.connect(data_dir / "shipwise.db").execute(
            "SELECT count(*) FROM workspace"
        )
        assert workspaces.fetchone() == (1,)
