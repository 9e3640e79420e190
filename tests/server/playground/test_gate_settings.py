"""`setPromptGateSettings` through the API: stored on the prompt, read back on the asset,
MEMBER and audited, bad input refused in words with nothing changed."""

from __future__ import annotations

from bench.kit.factories import make_dataset, make_prompt_version, make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role

SET = """mutation($a: ID!, $s: PromptGateSettingsInput!) {
  setPromptGateSettings(assetId: $a, settings: $s) {
    id gateSettings { datasetId split trialsPerCase checks shipPolicy { qualityMarginPoints } }
  }
}"""
READ = """{ assets(kind: PROMPT_TEMPLATE, first: 10) { edges { node {
  id gateSettings { datasetId split trialsPerCase checks }
} } } }"""
EVENTS = "{ auditEvents(first: 50) { edges { node { action targetId details } } } }"


async def test_gate_settings_are_stored_on_the_prompt_and_audited(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    dataset = await make_dataset(backend.sessionmaker, ws, cases=3)
    version = await make_prompt_version(backend.sessionmaker, ws)
    settings = {
        "datasetId": dataset.asset_id,
        "split": "HOLDOUT",
        "trialsPerCase": 5,
        "checks": [{"kind": "EXACT_MATCH"}],
        "shipPolicy": {"qualityMarginPoints": 3},
    }
    result = await backend.gql(
        SET, {"a": version.asset_id, "s": settings}, token=ws.tokens[Role.MEMBER]
    )
    stored = result.ok()["setPromptGateSettings"]["gateSettings"]
    assert stored == {
        "datasetId": dataset.asset_id,
        "split": "HOLDOUT",
        "trialsPerCase": 5,
        "checks": [{"kind": "EXACT_MATCH"}],
        "shipPolicy": {"qualityMarginPoints": 3.0},
    }
    [node] = [
        e["node"]
        for e in (await backend.gql(READ, token=ws.tokens[Role.VIEWER])).ok()["assets"]["edges"]
        if e["node"]["id"] == version.asset_id
    ]
    assert node["gateSettings"]["trialsPerCase"] == 5
    events = (await backend.gql(EVENTS, token=ws.owner)).ok()["auditEvents"]["edges"]
    [event] = [e["node"] for e in events if e["node"]["action"] == "prompt.set_gate_settings"]
    assert event["targetId"] == version.asset_id


async def test_bad_gate_settings_are_refused_and_change_nothing(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    version = await make_prompt_version(backend.sessionmaker, ws)
    viewer = await backend.gql(SET, {"a": version.asset_id, "s": {}}, token=ws.tokens[Role.VIEWER])
    assert viewer.codes == ["FORBIDDEN"]
    too_many = await backend.gql(
        SET, {"a": version.asset_id, "s": {"trialsPerCase": 11}}, token=ws.owner
    )
    assert too_many.codes == ["VALIDATION_FAILED"]
    assert too_many.errors[0]["message"] == "Trials per case must be from 1 to 10."
    no_dataset = await backend.gql(
        SET, {"a": version.asset_id, "s": {"datasetId": "ast_nope"}}, token=ws.owner
    )
    assert (
        no_dataset.errors[0]["message"] == "That dataset is not one of this workspace's datasets."
    )
    edges = (await backend.gql(READ, token=ws.owner)).ok()["assets"]["edges"]
    [node] = [e["node"] for e in edges if e["node"]["id"] == version.asset_id]
    assert node["gateSettings"] is None
    events = (await backend.gql(EVENTS, token=ws.owner)).ok()["auditEvents"]["edges"]
    assert not [e for e in events if e["node"]["action"] == "prompt.set_gate_settings"]
