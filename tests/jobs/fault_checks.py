"""What every infrastructure-fault test checks once its run is over, and a second run after it.

The run ended DONE; the provider fake saw every trial once (by its `X-Shipwise-Trial`
header); the counters equal the trial rows; the same connection runs the next comparison to
DONE.
"""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request
from collections import Counter
from typing import Any

import httpx
from gql import Client, GraphQLRequest
from gql.transport.websockets import WebsocketsTransport

from bench.kit.factories import ComparisonSetup, make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import FakeOpenAI
from bench.kit.scenarios import wait_hosted_runs
from bench.kit.waiting import eventually
from server import db_retry
from server.workspaces.roles import Role
from tests.jobs.crash_stack import (
    INPUT_CENTS_PER_MILLION,
    MAX_OUTPUT_TOKENS,
    OUTPUT_CENTS_PER_MILLION,
    STATUS,
)
from tests.server.dispatch.api import trial_rows

SUBSCRIBE = """
subscription($id: ID!, $after: Int) { comparisonProgress(id: $id, afterSeq: $after) {
  seq status doneCalls totalCalls } }
"""
CREATE = "mutation($i: CreateComparisonInput!) { createComparison(input: $i) { id } }"
START = "mutation($id: ID!) { startComparison(id: $id) { status } }"


async def new_setup(
    backend: Backend, fake: FakeOpenAI, *, cases: int, max_concurrency: int
) -> tuple[ComparisonSetup, str]:
    """A workspace with a comparison set-up on one connection to `fake`; (it, a MEMBER token)."""
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(
        backend.sessionmaker,
        ws,
        cases=cases,
        connection_kind="OPENAI_COMPATIBLE",
        base_url=fake.base_url,
        secret_box=backend.state.secret_box,
        max_concurrency=max_concurrency,
        max_output_tokens=MAX_OUTPUT_TOKENS,
        input_cents_per_million_tokens=INPUT_CENTS_PER_MILLION,
        output_cents_per_million_tokens=OUTPUT_CENTS_PER_MILLION,
    )
    return setup, ws.tokens[Role.MEMBER]


async def start(backend: Backend, setup: ComparisonSetup, token: str, *, trials: int) -> str:
    created = (
        await backend.gql(CREATE, {"i": setup.input(trialsPerCase=trials)}, token=token)
    ).ok()
    comparison_id: str = created["createComparison"]["id"]
    (await backend.gql(START, {"id": comparison_id}, token=token)).ok()
    return comparison_id


async def poll_tolerant(
    backend: Backend, token: str, comparison_id: str, *, until: Any, timeout: float = 90
) -> dict[str, Any]:
    """Poll `comparison(id)` until `until(comparison)` holds; an answer with errors (the
    database or Redis is away a moment) is polled again."""

    async def probe() -> dict[str, Any] | str:
        try:
            result = await backend.gql(STATUS, {"id": comparison_id}, token=token)
        except httpx.HTTPError as exc:
            return type(exc).__name__
        if result.errors:
            return str(result.errors)
        comparison: dict[str, Any] = result.data["comparison"]
        return comparison

    answer = await eventually(
        probe,
        until=lambda a: isinstance(a, dict) and until(a),
        timeout=timeout,
        interval=0.1,
        what=f"comparison {comparison_id}",
    )
    assert isinstance(answer, dict)
    return answer


def done_at_least(n: int) -> Any:
    return lambda c: c["progress"]["doneCalls"] >= n


def terminal(c: dict[str, Any]) -> bool:
    return c["status"] in ("DONE", "FAILED", "CANCELLED")


async def assert_done_once_each(
    backend: Backend, fake: FakeOpenAI, token: str, comparison_id: str, *, total: int,
    timeout: float = 60,
) -> dict[str, Any]:  # fmt: skip
    """The run ends DONE with every trial sent once and counters equal to its rows."""
    ended = await poll_tolerant(backend, token, comparison_id, until=terminal, timeout=timeout)
    assert (ended["status"], ended["stopReason"]) == ("DONE", "COMPLETED"), ended
    sent = Counter(
        r.headers.get("x-shipwise-trial", "")
        for r in fake.requests
        if r.headers.get("x-shipwise-trial", "").startswith(comparison_id + "/")
    )
    twice = {trial: n for trial, n in sent.items() if n > 1}
    assert twice == {}, f"trials answered more than once: {twice}"
    rows = await db_retry.retried(lambda: trial_rows(backend, comparison_id), what="counting")
    assert "ADMITTED" not in rows and sum(rows.values()) == total, rows
    progress = ended["progress"]
    assert progress["totalCalls"] == total and progress["doneCalls"] == total, progress
    assert progress["failedCalls"] == rows.get("ERRORED", 0), (progress, rows)
    return ended


def probe(port: int, path: str) -> int:
    """The worker's health probe's status for `path` (0 when it does not answer)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as answer:
            status: int = answer.status
            return status
    except urllib.error.HTTPError as refused:
        return refused.code
    except OSError:
        return 0


async def follow(
    backend: Backend, token: str, comparison_id: str, *, after_seq: int | None = None
) -> list[dict[str, Any]]:
    """Every `comparisonProgress` snapshot until the server ends the subscription."""
    transport = WebsocketsTransport(
        url=backend.ws_url,
        init_payload={"Authorization": f"Bearer {token}"},
        subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL],
    )
    request = GraphQLRequest(SUBSCRIBE, variable_values={"id": comparison_id, "after": after_seq})
    async with Client(transport=transport) as session, asyncio.timeout(90):
        return [r["comparisonProgress"] async for r in session.subscribe(request)]


def assert_in_order_to_done(snapshots: list[dict[str, Any]], *, after_seq: int = -1) -> None:
    seqs = [s["seq"] for s in snapshots]
    assert seqs and seqs == sorted(set(seqs)) and seqs[0] > after_seq, seqs
    assert snapshots[-1]["status"] == "DONE", snapshots[-1]


VERDICT_STATE = "query($id: ID!) { comparison(id: $id) { verdictState } }"


async def assert_finalized(backend: Backend, token: str, comparison_id: str) -> None:
    """The finalization job queued at the end of the run was not lost, nor its follow-up:
    FINALIZED, and every hosted run COMPLETED."""

    async def state() -> str | None:
        answer = await backend.gql(VERDICT_STATE, {"id": comparison_id}, token=token)
        return None if answer.errors else str(answer.data["comparison"]["verdictState"])

    await eventually(state, until=lambda s: s == "FINALIZED", timeout=30, interval=0.1)
    await wait_hosted_runs(backend, token, comparison_id, timeout=30)
