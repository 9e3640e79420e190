"""An isolated production stack for crash tests: its own PostgreSQL database, Redis
database, in-process API, and `shipwise worker` processes the test starts and kills."""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from server.comparisons.models import Trial
from server.migrate import upgrade
from server.settings import Settings
from tests import services
from tests.fakes.openai_server import FakeOpenAI
from tests.harness import Backend, start_backend, start_worker_process, stop_worker_process

CRASH_REDIS_DB_OFFSET = 7

STATUS = """
query($id: ID!) { comparison(id: $id) { status stopReason errorCode
  progress { doneCalls totalCalls failedCalls } } }
"""


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

    def stop_all(self) -> None:
        for process in self.workers:
            stop_worker_process(process, timeout=30)


@asynccontextmanager
async def crash_stack(
    admin_url: str, tmp_path: Path, fernet_key: str, *, lease_seconds: int = 2
) -> AsyncIterator[CrashStack]:
    import asyncpg

    name = f"shipwise_crash_{secrets.token_hex(4)}"
    plain = admin_url.replace("postgresql+asyncpg", "postgresql")
    conn = await asyncpg.connect(plain)
    await conn.execute(f'CREATE DATABASE "{name}"')
    await conn.close()
    url = f"{admin_url.rpartition('/')[0]}/{name}"
    await asyncio.to_thread(upgrade, url)
    redis_url = crash_redis_url()
    env = {
        **os.environ,
        "SHIPWISE_DATABASE_URL": url,
        "SHIPWISE_REDIS_URL": redis_url,
        "SHIPWISE_SECRET_KEY": fernet_key,
        "SHIPWISE_DATA_DIR": str(tmp_path / "data"),
        "SHIPWISE_DISPATCH_LEASE_SECONDS": str(lease_seconds),
        "SHIPWISE_JOB_TIMEOUT_SECONDS": "60",
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
        conn = await asyncpg.connect(plain)
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.close()


async def poll_status(
    backend: Backend, token: str, comparison_id: str, *, until: Any, timeout: float = 90
) -> dict[str, Any]:
    """Poll `comparison(id)` until `until(comparison)` holds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        data = (await backend.gql(STATUS, {"id": comparison_id}, token=token)).ok()
        comparison: dict[str, Any] = data["comparison"]
        if until(comparison):
            return comparison
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out; last state {comparison}")
        await asyncio.sleep(0.1)


async def trial_counts(backend: Backend, comparison_id: str) -> dict[str, int]:
    async with backend.sessionmaker() as session:
        rows = await session.execute(
            select(Trial.state, func.count())
            .where(Trial.comparison_id == comparison_id)
            .group_by(Trial.state)
        )
        return {state.value: int(count) for state, count in rows}


def deliveries_per_trial(fake: FakeOpenAI, comparison_id: str) -> dict[str, set[str]]:
    """Trial header → the delivery headers that sent it (one each, if none was re-sent)."""
    seen: dict[str, set[str]] = defaultdict(set)
    for request in fake.requests:
        trial = request.headers.get("x-shipwise-trial", "")
        if trial.startswith(comparison_id + "/"):
            seen[trial].add(request.headers.get("x-shipwise-delivery", ""))
    return seen
