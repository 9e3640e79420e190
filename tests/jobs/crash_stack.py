"""An isolated production stack for crash tests: its own PostgreSQL database, Redis
database, in-process API, and `shipwise worker` processes the test starts and kills."""

from __future__ import annotations

import math
import os
import secrets
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from sqlalchemy import select

from bench.kit import services
from bench.kit.databases import create_migrated_database, drop_database
from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend, start_backend, start_worker_process, stop_worker_process
from bench.kit.openai_server import FakeOpenAI
from bench.kit.waiting import API_POLL_SECONDS, eventually
from server.comparisons.models import Trial, TrialState
from server.settings import Settings
from server.workspaces.roles import Role
from tests.server.dispatch.api import start_comparison

CRASH_REDIS_DB_OFFSET = 7

STATUS = """
query($id: ID!) { comparison(id: $id) { status stopReason errorCode
  progress { doneCalls totalCalls failedCalls spentCentsSoFar } } }
"""
POLICIES = ("COUNT_AS_MISSING", "FAIL_RUN")

WORKER_PROCESS_TESTS = [pytest.mark.slow, pytest.mark.timeout(600)]
"""The marks of a test that starts `shipwise worker` processes. A process's start (an
interpreter and our imports, 1–2.5 s of CPU) took 50 s at load 25 and 100 s at load 30–35,
so two starts, a run and a graceful stop outgrew the suite's 120 s per-test bound
(docs/testing.md, Under load); the bound stays a guard against a hang, not a measure of the
host's speed. Such a test waits for each worker to poll (`workers_polling`) before it times
anything the worker does."""
"""Both `ambiguousOutcomes` settings: every kill -9 test runs under each."""
SET_POLICY = """
mutation($value: AmbiguousOutcomes!) { updateWorkspaceSettings(input: {ambiguousOutcomes: $value})
  { settings { ambiguousOutcomes } } }
"""

# Prices for crash runs: 1 µ$ an input token, 2 µ$ an output token.
INPUT_CENTS_PER_MILLION, OUTPUT_CENTS_PER_MILLION = 100.0, 200.0
MAX_OUTPUT_TOKENS = 256
SYSTEM = "You are a careful assistant."  # the factory's system message


def bound_micros(case_ordinal: int, cohort_index: int) -> tuple[int, int]:
    """(input tokens, micro-dollars) of a factory trial at its bound: the rendered prompt's
    characters ÷ 4 rounded up, and max output tokens."""
    prompt = f"Answer briefly ({cohort_index}): What is {case_ordinal:03d} + {case_ordinal:03d}?"
    tokens_in = math.ceil((len(SYSTEM) + len(prompt)) / 4)
    return tokens_in, tokens_in * 1 + MAX_OUTPUT_TOKENS * 2


async def trials_of(sessionmaker: Any, comparison_id: str) -> list[Trial]:
    async with sessionmaker() as session:
        rows = await session.execute(select(Trial).where(Trial.comparison_id == comparison_id))
        return list(rows.scalars())


def assert_closed_as_missing(
    trials: list[Trial], *, admitted_at_kill: set[int], spent_cents: float
) -> None:
    """The trials a kill left admitted closed as `outcome_ambiguous` (failed-or-missing) with
    their cost at the bound, marked estimated; the spend shown counts them."""
    closed = [t for t in trials if t.id in admitted_at_kill]
    assert closed and len(closed) == len(admitted_at_kill)
    for trial in closed:
        tokens_in, micros = bound_micros(trial.case_ordinal, trial.cohort_index)
        assert (trial.state, trial.error_code) == (TrialState.ERRORED, "outcome_ambiguous")
        assert (trial.input_tokens, trial.output_tokens) == (tokens_in, MAX_OUTPUT_TOKENS)
        assert trial.cost_micros == micros and trial.cost_estimated is True
    assert not any(t.cost_estimated for t in trials if t.id not in admitted_at_kill)
    assert all(t.state != TrialState.ADMITTED for t in trials)
    assert spent_cents == sum(t.cost_micros for t in trials) / 10_000


def crash_redis_url() -> str:
    base, _, db = services.redis_url().rpartition("/")
    return f"{base}/{(int(db or 0) + CRASH_REDIS_DB_OFFSET) % 16}"


@dataclass
class CrashStack:
    backend: Backend
    env: dict[str, str]
    log_dir: Path
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start_worker(self) -> subprocess.Popen[bytes]:
        index = len(self.workers)
        process = start_worker_process(self.env, self.log_dir / f"worker-{index}.log")
        self.workers.append(process)
        return process

    def log_of(self, process: subprocess.Popen[bytes]) -> Path:
        """What the worker `process` wrote."""
        return self.log_dir / f"worker-{self.workers.index(process)}.log"

    def stop_all(self) -> None:
        for process in self.workers:
            stop_worker_process(process, timeout=30)


@asynccontextmanager
async def crash_stack(
    admin_url: str,
    tmp_path: Path,
    fernet_key: str,
    *,
    lease_seconds: int = 2,
    job_timeout_seconds: int = 60,
    redis_url: str | None = None,
    env: dict[str, str] | None = None,
) -> AsyncIterator[CrashStack]:
    """`redis_url`: a Redis of the test's own instead of the shared test database; `env`:
    more settings for the workers."""
    url, name = await create_migrated_database(admin_url, "shipwise_crash")
    redis_url = redis_url or crash_redis_url()
    env = {
        **os.environ,
        **(env or {}),
        "SHIPWISE_DATABASE_URL": url,
        "SHIPWISE_REDIS_URL": redis_url,
        "SHIPWISE_SECRET_KEY": fernet_key,
        "SHIPWISE_DATA_DIR": str(tmp_path / "data"),
        "SHIPWISE_DISPATCH_LEASE_SECONDS": str(lease_seconds),
        "SHIPWISE_JOB_TIMEOUT_SECONDS": str(job_timeout_seconds),
        "SHIPWISE_QUEUE_NAME": f"shipwise-crash-{secrets.token_hex(4)}",
    }
    settings = Settings(
        data_dir=tmp_path / "api",
        database_url=url,
        redis_url=redis_url,
        secret_key=fernet_key,
        dispatch_lease_seconds=lease_seconds,
        queue_name=env["SHIPWISE_QUEUE_NAME"],
    )
    stack: CrashStack | None = None
    try:
        async with start_backend("crash", settings) as backend:
            stack = CrashStack(backend=backend, env=env, log_dir=tmp_path)
            yield stack
    finally:
        if stack is not None:
            stack.stop_all()
        await drop_database(admin_url, name)


async def poll_status(
    backend: Backend, token: str, comparison_id: str, *, until: Any, timeout: float = 90
) -> dict[str, Any]:
    """Poll `comparison(id)` until `until(comparison)` holds."""

    async def comparison() -> dict[str, Any]:
        data = (await backend.gql(STATUS, {"id": comparison_id}, token=token)).ok()
        return cast(dict[str, Any], data["comparison"])

    return await eventually(
        comparison, until=until, timeout=timeout, interval=API_POLL_SECONDS, what="the comparison"
    )


async def workers_polling(*logs: Path, timeout: float = 240) -> None:
    """Each worker process (by its log) is connected to Redis and about to poll: arq logs
    `redis_version=` once connected, then runs the start-up hook and polls. (A heartbeat
    would not tell: it is a queue job, and one worker may run every worker's.)"""

    def not_yet() -> list[str]:
        return [p.name for p in logs if not (p.is_file() and "redis_version=" in p.read_text())]

    await eventually(
        not_yet, until=lambda waiting: not waiting, timeout=timeout, what="every worker polling"
    )


async def start_run(
    stack: CrashStack,
    fake: FakeOpenAI,
    *,
    policy: str,
    cases: int,
    trials: int,
    max_concurrency: int,
) -> tuple[str, str]:
    """A comparison against `fake` under the `ambiguousOutcomes` policy, created and started
    through the API; (its id, a MEMBER token)."""
    backend = stack.backend
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
    (await backend.gql(SET_POLICY, {"value": policy}, token=ws.tokens[Role.ADMIN])).ok()
    token = ws.tokens[Role.MEMBER]
    comparison_id = await start_comparison(backend, token, setup.input(trialsPerCase=trials))
    return comparison_id, token
