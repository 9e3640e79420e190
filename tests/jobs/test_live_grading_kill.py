"""A grader killed (-9) mid-batch, for real: the batch's grade rows and its cursor's move
(server/live/cursor.py) die with its transaction, and the next batch grades the same traces,
each once. On PostgreSQL the grader is a `shipwise worker` process; on SQLite, `shipwise
serve`'s embedded queue. The batch is held mid-way by a judge check whose judge (the fake
OpenAI on 127.0.0.1) holds its first calls until the kill."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bench.kit import services
from bench.kit.databases import create_migrated_sqlite
from bench.kit.factories import WorkspaceFixture, make_judge, make_workspace
from bench.kit.openai_server import Behaviour, FakeOpenAI
from bench.kit.waiting import API_POLL_SECONDS, eventually
from server.db import create_engine, create_sessionmaker
from server.live.models import LiveGrade
from server.security import SecretBox
from server.settings import Settings
from server.workspaces.roles import Role
from tests.conftest import PROVIDER_KEY, require_services
from tests.jobs.crash_stack import WORKER_PROCESS_TESTS, crash_stack, workers_polling
from tests.jobs.test_embedded_crashes import EmbeddedServer
from tests.server.dispatch.test_judge_rubric import graded_by_city
from tests.server.live.canary import CREATE, READ, chat_traces, pattern
from tests.server.live.test_live_cursor import UNDECIDED
from tests.server.runs.test_judged_imports import judge_requests
from tests.server.traces.otlp_bodies import PROTOBUF, export

pytestmark = WORKER_PROCESS_TESTS

CANDIDATE, BASELINE = 20, 20


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        server.api_key = PROVIDER_KEY
        server.behaviour = Behaviour(reply=graded_by_city)
        server.hold = lambda _request: True  # in flight until the grader is killed
        yield server


class Api:
    """GraphQL and OTLP over HTTP to a served API."""

    def __init__(self, base_url: str, ws: WorkspaceFixture) -> None:
        self.base_url, self.ws = base_url, ws

    async def gql(self, query: str, variables: dict[str, Any], role: Role) -> Any:
        async with httpx.AsyncClient(base_url=self.base_url, timeout=60) as client:
            answer = await client.post(
                "/graphql", json={"query": query, "variables": variables},
                headers={"Authorization": f"Bearer {self.ws.tokens[role]}"},
            )  # fmt: skip
        body = answer.json()
        assert not body.get("errors"), body
        return body["data"]

    async def post(self, release: str, passes: list[bool]) -> None:
        spans = chat_traces(len(passes), passes)
        body = export(spans, service="shop", **{"shipwise.release": release}).SerializeToString()
        async with httpx.AsyncClient(base_url=self.base_url, timeout=120) as client:
            answer = await client.post(
                "/v1/traces", content=body,
                headers={"Content-Type": PROTOBUF,
                         "Authorization": f"Bearer {self.ws.tokens[Role.MEMBER]}"},
            )  # fmt: skip
        assert answer.status_code == 200, answer.text

    async def graded(self, live_id: str) -> list[int]:
        found = (await self.gql(READ, {"id": live_id}, Role.VIEWER))["liveComparison"]
        return [a["graded"] for a in found["arms"]]


async def _create(api: Api, judge_check: dict[str, Any]) -> str:
    spec = {
        "service": "shop", "candidateRelease": "v2", "baselineReleases": ["v1"],
        "checks": [judge_check], "judgeSampleRate": 1.0, "shipPolicy": UNDECIDED,
    }  # fmt: skip
    created = await api.gql(CREATE, {"input": spec}, Role.MEMBER)
    live_id: str = created["createLiveComparison"]["id"]
    return live_id


async def _mid_batch(fake: FakeOpenAI) -> None:
    await eventually(lambda: judge_requests(fake), what="a batch waiting on its judge", timeout=120)


async def _graded_once(
    api: Api, maker: async_sessionmaker[AsyncSession], live_id: str, fake: FakeOpenAI
) -> None:
    """After the kill: the judge answers at once, the baseline's traces queue grading, and
    every trace, the killed batch's too, is graded exactly once."""
    fake.hold = None
    fake.release_held()
    await api.post("v1", pattern(0.9, BASELINE))
    await eventually(
        lambda: api.graded(live_id), until=lambda g: g == [CANDIDATE, BASELINE],
        interval=API_POLL_SECONDS, timeout=180, what="every trace graded",
    )  # fmt: skip
    async with maker() as session:
        where = LiveGrade.live_comparison_id == live_id
        rows = await session.scalar(select(func.count()).where(where))
        distinct = await session.scalar(
            select(func.count(LiveGrade.trace_id.distinct())).where(where)
        )
    assert (rows, distinct) == (CANDIDATE + BASELINE, CANDIDATE + BASELINE)


async def test_a_worker_killed_mid_batch_on_postgresql(
    tmp_path: Path, fernet_key: str, fake: FakeOpenAI
) -> None:
    require_services("postgres", "redis")
    async with crash_stack(services.postgres_url(), tmp_path, fernet_key) as stack:
        backend = stack.backend
        ws = await make_workspace(backend.sessionmaker)
        judge = await make_judge(
            backend.sessionmaker, ws, rubric="The answer names the reference answer.",
            kind="OPENAI_COMPATIBLE", secret_box=backend.state.secret_box,
            base_url=fake.base_url, api_key=PROVIDER_KEY,
        )  # fmt: skip
        api = Api(backend.base_url, ws)
        live_id = await _create(api, judge.check())
        worker = stack.start_worker()
        await workers_polling(stack.log_of(worker))
        await api.post("v2", pattern(0.9, CANDIDATE))
        await _mid_batch(fake)
        worker.send_signal(signal.SIGKILL)
        await asyncio.to_thread(worker.wait)
        assert await api.graded(live_id) == [0, 0]  # the killed batch left nothing
        await workers_polling(stack.log_of(stack.start_worker()))
        await _graded_once(api, backend.sessionmaker, live_id, fake)


async def test_the_embedded_server_killed_mid_batch_on_sqlite(
    tmp_path: Path, fake: FakeOpenAI
) -> None:
    data_dir = tmp_path / "data"
    settings = Settings(data_dir=data_dir)
    await asyncio.to_thread(create_migrated_sqlite, settings.database_url)
    engine = create_engine(settings.database_url)
    maker = create_sessionmaker(engine)
    server = EmbeddedServer(data_dir)
    try:
        ws = await make_workspace(maker)
        judge = await make_judge(
            maker, ws, rubric="The answer names the reference answer.",
            kind="OPENAI_COMPATIBLE", secret_box=SecretBox(settings.resolved_secret_key()),
            base_url=fake.base_url, api_key=PROVIDER_KEY,
        )  # fmt: skip
        await server.start()
        api = Api(server.base_url, ws)
        live_id = await _create(api, judge.check())
        await api.post("v2", pattern(0.9, CANDIDATE))
        await _mid_batch(fake)
        assert await server.stop(signal.SIGKILL) == -signal.SIGKILL
        await server.start()  # on a new port
        api.base_url = server.base_url
        assert await api.graded(live_id) == [0, 0]  # the killed batch left nothing
        await _graded_once(api, maker, live_id, fake)
    finally:
        server.kill_all()
        await engine.dispose()
