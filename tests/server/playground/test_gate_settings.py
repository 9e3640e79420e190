"""`setPromptGateSettings` through the API: stored on the prompt, read back on the asset,
MEMBER and audited, bad input refused in words with nothing changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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


async def test_another_workspaces_ids_answer_as_unknown_ones(backend: Backend) -> None:
    """Every ID a Playground input takes (tests/server/test_foreign_input_ids.py lists them
    here): another workspace's answers exactly as an id that does not exist, refused."""
    from tests.server.playground.api import RUN, connection, pane

    mine = await make_workspace(backend.sessionmaker, name="mine")
    theirs = await make_workspace(backend.sessionmaker, name="theirs")
    made_up = "xyz_00000000000000000000000000"
    my_prompt = await make_prompt_version(backend.sessionmaker, mine)
    my_conn = await connection(backend, mine.owner, kind="SIMULATED")
    their_dataset = (await make_dataset(backend.sessionmaker, theirs, cases=3)).asset_id
    their_version = await make_prompt_version(backend.sessionmaker, theirs)
    their_conn = await connection(backend, theirs.owner, kind="SIMULATED")
    asks: dict[str, tuple[Callable[[str], dict[str, Any]], str]] = {
        "PlaygroundPaneInput.connectionId": (
            lambda x: {"panes": [pane(x)], "variables": {"name": "Ada"}},
            their_conn,
        ),
        "PlaygroundPaneInput.promptVersionId": (
            lambda x: {"panes": [pane(my_conn, messages=None, promptVersionId=x)]},
            their_version.id,
        ),
        "PlaygroundPaneInput.assetId": (
            lambda x: {"panes": [pane(my_conn, assetId=x)], "variables": {"name": "Ada"}},
            their_version.asset_id,
        ),
        "PlaygroundRunInput.datasetId": (
            lambda x: {"panes": [pane(my_conn)], "datasetId": x},
            their_dataset,
        ),
    }
    for field, (build, foreign) in asks.items():
        answers = []
        for sent in (foreign, made_up):
            result = await backend.gql(RUN, {"input": build(sent)}, token=mine.owner)
            answers.append(
                [
                    (e["extensions"]["code"], e["message"].replace(sent, "<id>"))
                    for e in result.errors
                ]
            )
        assert answers[0] == answers[1] and answers[0][0][0] in (
            "NOT_FOUND",
            "VALIDATION_FAILED",
        ), (
            field,
            answers,
        )
    gate = []
    for sent in (their_dataset, made_up):
        result = await backend.gql(
            SET, {"a": my_prompt.asset_id, "s": {"datasetId": sent}}, token=mine.owner
        )
        gate.append(
            [(e["extensions"]["code"], e["message"].replace(sent, "<id>")) for e in result.errors]
        )
    assert gate[0] == gate[1] and gate[0][0][0] in ("NOT_FOUND", "VALIDATION_FAILED"), gate
