"""`playgroundRun` through the API: panes streamed from real (fake) providers over the
subscription, counted as spend, capped, governed and audited."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from bench.kit.factories import make_connection, make_dataset, make_prompt_version, make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import PROVIDER_TEXT, Behaviour, FakeOpenAI
from bench.kit.waiting import eventually
from server.connections.service import Simulation
from server.spend.models import PlaygroundCall
from server.workspaces.roles import Role
from tests.conftest import PROVIDER_KEY
from tests.fakes.anthropic_server import FakeAnthropic
from tests.server.playground.api import (
    EVENTS,
    RUN,
    STOP,
    connection,
    pane,
    snapshots,
)

REPLY = "Hello there Ada, nice to meet you"
PRICES = {"inputCentsPerMillionTokens": 100_000, "outputCentsPerMillionTokens": 200_000}


async def test_two_panes_stream_from_openai_and_anthropic(
    backend: Backend, fake_openai: FakeOpenAI, fake_anthropic: FakeAnthropic
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    openai = await connection(
        backend,
        ws.owner,
        kind="OPENAI_COMPATIBLE",
        baseUrl=fake_openai.base_url,
        apiKey=PROVIDER_KEY,
        **PRICES,
    )
    claude = await connection(
        backend,
        ws.owner,
        kind="ANTHROPIC",
        baseUrl=fake_anthropic.base_url,
        apiKey=PROVIDER_KEY,
        **PRICES,
    )
    fake_openai.behaviour = Behaviour(reply=REPLY, chunk_seconds=0.05)
    fake_anthropic.behaviour = Behaviour(reply="Bonjour " + REPLY, chunk_seconds=0.05)
    variables = {"name": "Ada"}
    started = (
        await backend.gql(
            RUN,
            {
                "input": {
                    "panes": [pane(openai), pane(claude, model="claude-fake-1")],
                    "variables": variables,
                }
            },
            token=ws.tokens[Role.MEMBER],
        )
    ).ok()["playgroundRun"]
    seen = await snapshots(backend, ws.tokens[Role.MEMBER], started["id"])
    last = seen[-1]
    assert last["status"] == "DONE"
    first, second = last["cells"]
    assert (first["status"], first["output"]) == ("DONE", REPLY)
    assert (second["status"], second["output"]) == ("DONE", "Bonjour " + REPLY)
    for cell in (first, second):
        assert cell["inputTokens"] > 0 and cell["outputTokens"] > 0
        assert cell["costCents"] > 0
        assert cell["latencyMs"] >= 0
    # Streamed: some snapshot held part of an answer, not yet all of it.
    partial = [
        c["output"] for s in seen for c in s["cells"] if c["status"] == "STREAMING" and c["output"]
    ]
    assert any(REPLY.startswith(p) and p != REPLY for p in partial) or any(
        ("Bonjour " + REPLY).startswith(p) and p != "Bonjour " + REPLY for p in partial
    )
    [asked] = [r for r in fake_openai.requests if r.method == "POST"]
    assert asked.body["stream"] is True
    assert asked.body["messages"] == [{"role": "user", "content": "Say hello to Ada."}]
    [asked] = [r for r in fake_anthropic.requests if r.method == "POST"]
    assert asked.body["stream"] is True
    # Counted as spend: two calls recorded, the connection's month shows them.
    async with backend.sessionmaker() as session:
        calls = await session.scalar(
            select(func.count())
            .select_from(PlaygroundCall)
            .where(PlaygroundCall.workspace_id == ws.id)
        )
    assert calls == 2
    spent = (
        await backend.gql(
            "{ modelConnections(first: 10) { edges { node { id monthToDateSpentCents } } } }",
            token=ws.owner,
        )
    ).ok()["modelConnections"]["edges"]
    assert all(e["node"]["monthToDateSpentCents"] > 0 for e in spent)
    # Audited without the prompt's or the input's text.
    events = (await backend.gql(EVENTS, token=ws.owner)).ok()["auditEvents"]["edges"]
    [event] = [e["node"] for e in events if e["node"]["action"] == "playground.run"]
    assert event["targetId"] == started["id"]
    assert "Say hello" not in str(event) and "Ada" not in str(event)
    assert PROVIDER_TEXT not in str(seen)


async def test_a_simulated_connection_answers_as_in_the_demo(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    sim = await make_connection(
        backend.sessionmaker, ws, simulation=Simulation(seed=1, accuracy=1.0)
    )
    started = (
        await backend.gql(
            RUN,
            {"input": {"panes": [pane(sim.id, model="sim-1")], "variables": {"name": "Ada"}}},
            token=ws.tokens[Role.MEMBER],
        )
    ).ok()["playgroundRun"]
    last = (await snapshots(backend, ws.tokens[Role.MEMBER], started["id"]))[-1]
    [cell] = last["cells"]
    assert (cell["status"], cell["output"]) == ("DONE", "This is a simulated answer.")


async def test_a_reached_cap_refuses_the_run_in_the_comparison_caps_words(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    capped = await connection(
        backend,
        ws.owner,
        name="my-connection",
        kind="OPENAI_COMPATIBLE",
        baseUrl=fake_openai.base_url,
        apiKey=PROVIDER_KEY,
        monthlyCapCents=0.01,
        **PRICES,
    )
    body = {"input": {"panes": [pane(capped)], "variables": {"name": "Ada"}}}
    first = (await backend.gql(RUN, body, token=ws.tokens[Role.MEMBER])).ok()["playgroundRun"]
    await snapshots(backend, ws.tokens[Role.MEMBER], first["id"])
    refused = await backend.gql(RUN, body, token=ws.tokens[Role.MEMBER])
    assert refused.codes == ["QUOTA_EXCEEDED"]
    assert refused.errors[0]["message"] == (
        "Stopped: my-connection reached its monthly cap of 0.01 ¢."
    )
    assert len([r for r in fake_openai.requests if r.method == "POST"]) == 1


async def test_refusals_say_why_and_change_nothing(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    conn = await connection(
        backend,
        ws.owner,
        kind="OPENAI_COMPATIBLE",
        baseUrl=fake_openai.base_url,
        apiKey=PROVIDER_KEY,
    )
    ok = {"panes": [pane(conn)], "variables": {"name": "Ada"}}
    viewer = await backend.gql(RUN, {"input": ok}, token=ws.tokens[Role.VIEWER])
    assert viewer.codes == ["FORBIDDEN"]
    long_input = {**ok, "variables": {"name": "x" * 25_000}}
    too_long = await backend.gql(RUN, {"input": long_input}, token=ws.owner)
    assert too_long.codes == ["VALIDATION_FAILED"]
    assert too_long.errors[0]["message"].startswith("The input is too long: 25,")
    five = {**ok, "panes": [pane(conn)] * 5}
    assert (await backend.gql(RUN, {"input": five}, token=ws.owner)).codes == ["VALIDATION_FAILED"]
    unfilled = await backend.gql(RUN, {"input": {**ok, "variables": {}}}, token=ws.owner)
    assert unfilled.errors[0]["message"] == (
        "Pane 1: the template could not be filled with this input. Fill name."
    )
    # A connection that is not READY is refused in words at its pane.
    from server.connections.models import ConnectionStatus, ModelConnection

    async with backend.sessionmaker() as session, session.begin():
        row = await session.get(ModelConnection, conn)
        assert row is not None
        row.status = ConnectionStatus.UNREACHABLE
    not_ready = await backend.gql(RUN, {"input": ok}, token=ws.owner)
    assert not_ready.errors[0]["message"] == (
        "Pane 1: model connection 'conn' is UNREACHABLE, not READY. An owner or admin can "
        "check it again in Settings, Model connections."
    )
    assert not [r for r in fake_openai.requests if r.method == "POST"]
    events = (await backend.gql(EVENTS, token=ws.owner)).ok()["auditEvents"]["edges"]
    assert not [e for e in events if e["node"]["action"] == "playground.run"]


async def test_stop_cancels_the_calls_in_flight(backend: Backend, fake_openai: FakeOpenAI) -> None:
    ws = await make_workspace(backend.sessionmaker)
    conn = await connection(
        backend,
        ws.owner,
        kind="OPENAI_COMPATIBLE",
        baseUrl=fake_openai.base_url,
        apiKey=PROVIDER_KEY,
    )
    fake_openai.behaviour = Behaviour(reply=" ".join(["word"] * 200), chunk_seconds=0.2)
    started = (
        await backend.gql(
            RUN, {"input": {"panes": [pane(conn)], "variables": {"name": "Ada"}}}, token=ws.owner
        )
    ).ok()["playgroundRun"]
    await eventually(
        lambda: [r for r in fake_openai.requests if r.method == "POST"], what="the call asked"
    )
    # Another workspace's member learns nothing of the run and cannot stop it: as unknown.
    other = await make_workspace(backend.sessionmaker, name="other")
    for run_id in (started["id"], "plr_00000000000000000000000000"):
        refused = await backend.gql(STOP, {"id": run_id}, token=other.owner)
        assert [e["extensions"]["code"] for e in refused.errors] == ["NOT_FOUND"]
    stopped = (await backend.gql(STOP, {"id": started["id"]}, token=ws.owner)).ok()
    assert stopped["stopPlaygroundRun"]["status"] == "STOPPED"
    [cell] = stopped["stopPlaygroundRun"]["cells"]
    assert cell["status"] == "STOPPED"
    assert len(cell["output"]) < len(" ".join(["word"] * 200))
    # What was asked still counts: the stopped call is recorded as spend.
    async with backend.sessionmaker() as session:
        recorded = await session.scalar(
            select(func.count())
            .select_from(PlaygroundCall)
            .where(PlaygroundCall.run_id == started["id"])
        )
    assert recorded == 1


async def test_run_on_five_cases_grades_the_gate_settings_checks(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    dataset = await make_dataset(backend.sessionmaker, ws, cases=8)
    version = await make_prompt_version(backend.sessionmaker, ws)
    settings = await backend.gql(
        """mutation($a: ID!, $s: PromptGateSettingsInput!) {
          setPromptGateSettings(assetId: $a, settings: $s) { id }
        }""",
        {
            "a": version.asset_id,
            "s": {"datasetId": dataset.asset_id, "checks": [{"kind": "EXACT_MATCH"}]},
        },
        token=ws.tokens[Role.MEMBER],
    )
    settings.ok()
    script = {f"case-{i:04d}": str(2 * i) if i % 2 == 0 else "wrong" for i in range(8)}
    sim = await make_connection(backend.sessionmaker, ws, simulation=Simulation(script=script))
    run_input: dict[str, Any] = {
        "panes": [{"connectionId": sim.id, "model": "sim-1", "promptVersionId": version.id}],
        "datasetId": dataset.asset_id,
    }
    started = (await backend.gql(RUN, {"input": run_input}, token=ws.tokens[Role.MEMBER])).ok()[
        "playgroundRun"
    ]
    last = (await snapshots(backend, ws.tokens[Role.MEMBER], started["id"]))[-1]
    cells = last["cells"]
    assert [c["caseId"] for c in cells] == [f"case-{i:04d}" for i in range(5)]
    assert [c["passed"] for c in cells] == [True, False, True, False, True]
    assert {k["kind"] for c in cells for k in c["checks"]} == {"EXACT_MATCH"}
