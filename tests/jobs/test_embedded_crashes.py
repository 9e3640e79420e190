"""Embedded mode, for real: `shipwise serve` on SQLite stopped mid-run with SIGTERM resumes
to DONE at its next start; killed with -9 instead, nothing is ever sent twice and the run
resumes to DONE with the ambiguous trials missing (or, under FAIL_RUN, ends FAILED with the
ambiguity code)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bench.kit.databases import create_migrated_sqlite
from bench.kit.factories import make_comparison, make_comparison_setup, make_workspace
from bench.kit.openai_server import Behaviour, FakeOpenAI
from bench.kit.waiting import API_POLL_SECONDS, eventually
from server.comparisons.models import Comparison, ComparisonStatus, Trial
from server.comparisons.stopping import StoppingRule, StoppingSpec
from server.db import create_engine, create_sessionmaker
from server.settings import Settings
from server.tls import client_tls
from server.workspaces.roles import Role
from tests.jobs.crash_stack import (
    INPUT_CENTS_PER_MILLION,
    MAX_OUTPUT_TOKENS,
    OUTPUT_CENTS_PER_MILLION,
    POLICIES,
    SET_POLICY,
    assert_closed_as_missing,
    trials_of,
)
from tests.server.dispatch.api import deliveries_per_trial

pytestmark = pytest.mark.slow

CASES, TRIALS, COHORTS = 30, 2, 2
TOTAL = CASES * TRIALS * COHORTS
GRACE_SECONDS = 10
"""What the embedded queue gives running jobs at shutdown before it cancels them."""
STATUS = """
query($id: ID!) { comparison(id: $id) { status stopReason errorCode
  progress { doneCalls totalCalls failedCalls spentCentsSoFar } } }
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class EmbeddedServer:
    """`shipwise serve` processes, one at a time, on one data directory."""

    data_dir: Path
    process: subprocess.Popen[bytes] | None = None
    runs: int = 0
    base_url: str = ""
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    async def start(self) -> None:
        port = _free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("SHIPWISE_")}
        env.update(SHIPWISE_DATA_DIR=str(self.data_dir), SHIPWISE_DISPATCH_LEASE_SECONDS="2")
        with open(self.data_dir.parent / f"serve-{self.runs}.log", "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "server.cli", "serve", "--port", str(port)],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self.processes.append(self.process)
        self.runs += 1
        self.base_url = f"http://127.0.0.1:{port}"
        process = self.process
        async with httpx.AsyncClient() as client:

            async def healthy() -> bool:
                assert process.poll() is None, "shipwise serve exited at start-up"
                try:
                    return (await client.get(f"{self.base_url}/healthz")).status_code == 200
                except httpx.HTTPError:
                    return False

            await eventually(healthy, timeout=120, what="shipwise serve answers /healthz")

    async def stop(self, sig: signal.Signals) -> int:
        assert self.process is not None
        self.process.send_signal(sig)
        code = await asyncio.to_thread(self.process.wait, 40)
        self.process = None
        return code

    def log(self, run: int) -> str:
        """What the `run`-th server process wrote."""
        return (self.data_dir.parent / f"serve-{run}.log").read_text()

    def logs(self) -> str:
        """The last lines of every server process's log that mention a failure."""
        lines = [
            f"serve-{run}: {line}"
            for run in range(self.runs)
            for line in self.log(run).splitlines()
            if "fail" in line.lower() or "error" in line.lower()
        ]
        return "\n".join(lines[-40:])

    def kill_all(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait()

    async def gql(self, token: str, query: str, variables: dict[str, Any]) -> dict[str, Any]:
        async with httpx.AsyncClient(timeout=30, verify=client_tls()) as client:
            response = await client.post(
                f"{self.base_url}/graphql",
                json={"query": query, "variables": variables},
                headers={"Authorization": f"Bearer {token}"},
            )
        body = response.json()
        assert not body.get("errors"), body
        data: dict[str, Any] = body["data"]
        return data

    async def poll(
        self, token: str, comparison_id: str, until: Any, timeout: float = 60
    ) -> dict[str, Any]:

        async def comparison() -> dict[str, Any]:
            found = await self.gql(token, STATUS, {"id": comparison_id})
            return cast(dict[str, Any], found["comparison"])

        return await eventually(
            comparison, until=until, timeout=timeout, interval=API_POLL_SECONDS,
            what="the comparison",
        )  # fmt: skip


@dataclass
class Stack:
    server: EmbeddedServer
    sessionmaker: async_sessionmaker[AsyncSession]
    fake: FakeOpenAI


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
async def stack(tmp_path: Path, fake: FakeOpenAI) -> AsyncIterator[Stack]:
    """A migrated SQLite data directory, a test-side engine on it, and no server yet."""
    data_dir = tmp_path / "data"
    settings = Settings(data_dir=data_dir)
    await asyncio.to_thread(create_migrated_sqlite, settings.database_url)
    engine = create_engine(settings.database_url)
    server = EmbeddedServer(data_dir)
    try:
        yield Stack(server, create_sessionmaker(engine), fake)
    finally:
        server.kill_all()
        await engine.dispose()


async def _start_run(
    stack: Stack, policy: str = "COUNT_AS_MISSING", stopping: StoppingSpec | None = None
) -> tuple[str, str]:
    """A comparison made on the server's database beforehand, started through HTTP once
    the server runs; it is mid-run (at least 8 calls committed) on return."""
    ws = await make_workspace(stack.sessionmaker)
    setup = await make_comparison_setup(
        stack.sessionmaker,
        ws,
        cases=CASES,
        connection_kind="OPENAI_COMPATIBLE",
        base_url=stack.fake.base_url,
        max_concurrency=4,
        max_output_tokens=MAX_OUTPUT_TOKENS,
        input_cents_per_million_tokens=INPUT_CENTS_PER_MILLION,
        output_cents_per_million_tokens=OUTPUT_CENTS_PER_MILLION,
    )
    comparison_id = await make_comparison(
        stack.sessionmaker, setup, trials=TRIALS, stopping=stopping
    )
    stack.fake.behaviour = Behaviour(delay_seconds=0.3, reply="the answer")
    token = ws.tokens[Role.MEMBER]
    await stack.server.start()
    await stack.server.gql(ws.tokens[Role.ADMIN], SET_POLICY, {"value": policy})
    await stack.server.gql(
        token, "mutation($id: ID!) { startComparison(id: $id) { status } }", {"id": comparison_id}
    )
    await stack.server.poll(token, comparison_id, lambda c: c["progress"]["doneCalls"] >= 8)
    return comparison_id, token


async def _rows(stack: Stack, comparison_id: str) -> dict[str, int]:
    async with stack.sessionmaker() as session:
        rows = await session.execute(
            select(Trial.state, func.count())
            .where(Trial.comparison_id == comparison_id)
            .group_by(Trial.state)
        )
        return {state.value: int(count) for state, count in rows}


async def _outcomes(stack: Stack, comparison_id: str) -> dict[tuple[str, str | None], int]:
    """Trials by (state, error code): what a failed assertion prints."""
    async with stack.sessionmaker() as session:
        rows = await session.execute(
            select(Trial.state, Trial.error_code, func.count())
            .where(Trial.comparison_id == comparison_id)
            .group_by(Trial.state, Trial.error_code)
        )
        return {(state.value, code): int(count) for state, code, count in rows}


async def _running(stack: Stack) -> int:
    async with stack.sessionmaker() as session:
        count = await session.scalar(
            select(func.count())
            .select_from(Comparison)
            .where(Comparison.status == ComparisonStatus.RUNNING)
        )
    return int(count or 0)


def _terminal(comparison: dict[str, Any]) -> bool:
    return comparison["status"] in ("DONE", "FAILED", "CANCELLED")


async def test_sigterm_mid_run_then_restart_resumes_to_done(stack: Stack) -> None:
    comparison_id, token = await _start_run(stack)
    # uvicorn re-raises SIGTERM once its graceful shutdown is complete.
    assert await stack.server.stop(signal.SIGTERM) in (0, -signal.SIGTERM)
    assert "Application shutdown complete" in stack.server.log(0)
    rows = await _rows(stack, comparison_id)
    at_stop = await _outcomes(stack, comparison_id)
    assert rows.get("ADMITTED", 0) == 0, f"in-flight calls finished and committed: {at_stop}"
    assert 8 <= rows.get("COMPLETED", 0) < TOTAL, at_stop
    assert rows.get("ERRORED", 0) == 0, f"the graceful stop failed no call: {at_stop}"
    assert await _running(stack) == 1, "left RUNNING for the next start-up"

    await stack.server.start()
    ended = await stack.server.poll(token, comparison_id, _terminal)
    outcomes = await _outcomes(stack, comparison_id)
    assert (ended["status"], ended["stopReason"]) == ("DONE", "COMPLETED"), (ended, outcomes)
    assert ended["progress"]["doneCalls"] == TOTAL
    assert await _rows(stack, comparison_id) == {"COMPLETED": TOTAL}, (
        f"trials by (state, error code): {outcomes}; the servers' logs: {stack.server.logs()}"
    )
    sent = deliveries_per_trial(stack.fake, comparison_id)
    assert len(sent) == TOTAL
    assert all(len(deliveries) == 1 for deliveries in sent.values())
    assert len(set().union(*sent.values())) >= 2, "a delivery after the restart finished it"
    assert await _running(stack) == 0


async def test_sigterm_while_calls_outlive_the_grace_still_records_them_completed(
    stack: Stack,
) -> None:
    """The embedded queue gives a delivery 10 s to end at shutdown, then cancels it; the
    calls it had sent go on (their pipeline cancels only what is not sent), so the providers
    they use must not be closed under them: each is recorded COMPLETED, none ERRORED."""
    comparison_id, token = await _start_run(stack)
    sent_before = len(stack.fake.requests)
    stack.fake.behaviour = Behaviour(delay_seconds=GRACE_SECONDS + 4, reply="the answer")
    await eventually(
        lambda: len(stack.fake.requests) - sent_before,
        until=lambda slow: slow >= 1,
        what="a call that outlives the grace in flight",
    )
    assert await stack.server.stop(signal.SIGTERM) in (0, -signal.SIGTERM)
    log = stack.server.log(0)
    assert "Application shutdown complete" in log
    assert "still running at shutdown" in log, "the delivery outlived the grace"
    at_stop = await _outcomes(stack, comparison_id)
    rows = await _rows(stack, comparison_id)
    assert rows.get("ERRORED", 0) == 0, f"trials by (state, error code): {at_stop}"
    assert rows.get("ADMITTED", 0) == 0, f"every call in flight was recorded: {at_stop}"

    stack.fake.behaviour = Behaviour(delay_seconds=0.05, reply="the answer")
    await stack.server.start()
    ended = await stack.server.poll(token, comparison_id, _terminal)
    outcomes = await _outcomes(stack, comparison_id)
    assert (ended["status"], ended["stopReason"]) == ("DONE", "COMPLETED"), (ended, outcomes)
    assert outcomes == {("COMPLETED", None): TOTAL}, stack.server.logs()
    sent = deliveries_per_trial(stack.fake, comparison_id)
    assert len(sent) == TOTAL and all(len(d) == 1 for d in sent.values()), "none sent twice"


@pytest.mark.parametrize("policy", POLICIES)
async def test_kill_9_mid_run_then_restart_never_resends_and_ends_as_the_policy_says(
    stack: Stack, policy: str
) -> None:
    comparison_id, token = await _start_run(stack, policy)
    await stack.server.stop(signal.SIGKILL)
    at_kill = await _rows(stack, comparison_id)
    admitted = {
        t.id for t in await trials_of(stack.sessionmaker, comparison_id) if t.state == "ADMITTED"
    }
    sent_at_kill = deliveries_per_trial(stack.fake, comparison_id)
    assert at_kill.get("ADMITTED", 0) >= 1, "the crash left admitted calls as evidence"

    await stack.server.start()
    ended = await stack.server.poll(token, comparison_id, _terminal)
    rows = await _rows(stack, comparison_id)
    sent = deliveries_per_trial(stack.fake, comparison_id)
    assert all(len(deliveries) == 1 for deliveries in sent.values())
    assert {t: sent[t] for t in sent_at_kill} == sent_at_kill, "nothing sent again"
    assert await _running(stack) == 0
    if policy == "FAIL_RUN":
        assert ended["status"] == "FAILED"
        assert ended["errorCode"] == "comparison_dispatch_outcome_ambiguous"
        assert rows == at_kill, "committed outcomes kept; nothing admitted or re-sent since"
        committed = rows.get("COMPLETED", 0) + rows.get("ERRORED", 0)
        assert committed >= 8 and ended["progress"]["doneCalls"] == committed
        assert sent == sent_at_kill
        assert committed <= len(sent) <= committed + rows["ADMITTED"]
        return
    assert (ended["status"], ended["stopReason"], ended["errorCode"]) == ("DONE", "COMPLETED", None)
    assert rows == {"COMPLETED": TOTAL - len(admitted), "ERRORED": len(admitted)}
    progress = ended["progress"]
    assert progress["doneCalls"] == TOTAL and progress["failedCalls"] == len(admitted)
    assert_closed_as_missing(
        await trials_of(stack.sessionmaker, comparison_id),
        admitted_at_kill=admitted,
        spent_cents=progress["spentCentsSoFar"],
    )
    # Every trial not left admitted by the kill was sent exactly once.
    assert TOTAL - len(admitted) <= len(sent) <= TOTAL


async def test_kill_9_during_a_sequential_run_resumes_as_any_run_does(stack: Stack) -> None:
    """Sequential stopping changes nothing of crash recovery: the ambiguous trials close as
    missing, nothing is re-sent, and (undecided at its looks) the run ends COMPLETED."""
    sequential = StoppingSpec(StoppingRule.ANYTIME_VALID, min_cases=20, look_every_cases=5)
    comparison_id, token = await _start_run(stack, stopping=sequential)
    await stack.server.stop(signal.SIGKILL)
    admitted = {
        t.id for t in await trials_of(stack.sessionmaker, comparison_id) if t.state == "ADMITTED"
    }
    sent_at_kill = deliveries_per_trial(stack.fake, comparison_id)
    assert admitted, "the crash left admitted calls as evidence"

    await stack.server.start()
    ended = await stack.server.poll(token, comparison_id, _terminal)
    sent = deliveries_per_trial(stack.fake, comparison_id)
    assert all(len(deliveries) == 1 for deliveries in sent.values())
    assert {t: sent[t] for t in sent_at_kill} == sent_at_kill, "nothing sent again"
    assert (ended["status"], ended["stopReason"], ended["errorCode"]) == ("DONE", "COMPLETED", None)
    rows = await _rows(stack, comparison_id)
    assert rows == {"COMPLETED": TOTAL - len(admitted), "ERRORED": len(admitted)}
    assert await _running(stack) == 0
