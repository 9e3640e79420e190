"""maxConcurrency bounds a connection's calls across worker processes, not just within one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.kit import services
from bench.kit.factories import actor_for, make_comparison, make_comparison_setup, make_workspace
from bench.kit.harness import start_worker_process, stop_worker_process
from bench.kit.openai_server import Behaviour, FakeOpenAI
from server.comparisons import lifecycle
from server.runtime.redis import ArqQueue
from server.workspaces.roles import Role
from tests.conftest import require_services
from tests.jobs.crash_stack import (
    WORKER_PROCESS_TESTS,
    CrashStack,
    crash_redis_url,
    crash_stack,
    poll_status,
    workers_polling,
)

pytestmark = WORKER_PROCESS_TESTS


@pytest.fixture
async def stack(tmp_path: Path, fernet_key: str) -> Any:
    require_services("postgres", "redis")
    # The product's lease (30 s), not the crash tests' 2 s: slots expire with their holder's
    # lease, so a worker stalled past a 2 s lease on a loaded host loses its slots to the
    # other worker by design (it is presumed dead), which is not what this test is about.
    async with crash_stack(
        services.postgres_url(), tmp_path, fernet_key, lease_seconds=30
    ) as built:
        yield built


async def test_two_workers_share_one_connections_limit(stack: CrashStack, tmp_path: Path) -> None:
    backend = stack.backend
    with FakeOpenAI() as fake:
        fake.behaviour = Behaviour(delay_seconds=0.1, reply="ok")
        ws = await make_workspace(backend.sessionmaker)
        setup = await make_comparison_setup(
            backend.sessionmaker,
            ws,
            cases=15,
            connection_kind="OPENAI_COMPATIBLE",
            base_url=fake.base_url,
            secret_box=backend.state.secret_box,
            max_concurrency=3,
        )
        comparisons = [await make_comparison(backend.sessionmaker, setup, trials=2) for _ in "ab"]
        # Each worker reads a queue of its own, so each comparison runs in its own process.
        workers, queues = [], []
        for index in range(len(comparisons)):
            queue_name = f"{stack.env['SHIPWISE_QUEUE_NAME']}-{index}"
            env = {**stack.env, "SHIPWISE_QUEUE_NAME": queue_name}
            workers.append(start_worker_process(env, tmp_path / f"shared-{index}.log"))
            queues.append(ArqQueue(crash_redis_url(), queue_name=queue_name))
        try:
            await workers_polling(*(tmp_path / f"shared-{i}.log" for i in range(len(workers))))
            for comparison_id, queue in zip(comparisons, queues, strict=True):
                await lifecycle.start(
                    sessionmaker=backend.sessionmaker,
                    events=backend.state.events,
                    queue=queue,
                    actor=actor_for(ws, Role.MEMBER),
                    comparison_id=comparison_id,
                )
            for comparison_id in comparisons:
                ended = await poll_status(
                    backend,
                    ws.tokens[Role.MEMBER],
                    comparison_id,
                    until=lambda c: c["status"] in ("DONE", "FAILED", "CANCELLED"),
                )
                assert (ended["status"], ended["stopReason"]) == ("DONE", "COMPLETED")
        finally:
            for worker in workers:
                stop_worker_process(worker)
            for queue in queues:
                await queue.close()
        deliveries = {
            r.headers["x-shipwise-delivery"]
            for r in fake.requests
            if r.path.endswith("/chat/completions")
        }
        assert len(deliveries) == 2, "each comparison was dispatched by its own worker"
        assert fake.peak_concurrency == 3
