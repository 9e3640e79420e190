"""A running shipwise server per backend, and a small GraphQL client for tests."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bench.kit.portal_documents import persisted_body
from bench.kit.statements import TagCountedRequests, tag_counted_request
from bench.kit.waiting import eventually
from server.app import create_app
from server.cli.app import UVICORN_OPTIONS
from server.settings import Settings
from server.state import AppState
from server.tls import client_tls


@dataclass
class GraphQLResult:
    status: int
    body: dict[str, Any]

    @property
    def data(self) -> Any:
        return self.body.get("data")

    @property
    def errors(self) -> list[dict[str, Any]]:
        return list(self.body.get("errors") or [])

    @property
    def codes(self) -> list[str]:
        return [e.get("extensions", {}).get("code") for e in self.errors]

    def ok(self) -> Any:
        assert not self.errors, self.errors
        return self.data


@dataclass
class Backend:
    """A served app on one backend; `state` gives tests the same database the server uses."""

    name: str
    settings: Settings
    base_url: str
    state: AppState
    client: httpx.AsyncClient
    extra: dict[str, Any] = field(default_factory=dict)
    server_config: uvicorn.Config | None = None
    """The uvicorn config serving it: what a new connection is made with."""

    @property
    def sessionmaker(self) -> async_sessionmaker[AsyncSession]:
        return self.state.sessionmaker

    @property
    def ws_url(self) -> str:
        return self.base_url.replace("http://", "ws://") + "/graphql"

    async def gql(
        self, query: str, variables: dict[str, Any] | None = None, *, token: str | None = None
    ) -> GraphQLResult:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = await self.client.post(
            "/graphql", json={"query": query, "variables": variables or {}}, headers=headers
        )
        return GraphQLResult(response.status_code, response.json())

    async def portal(
        self, name: str, variables: dict[str, Any] | None = None, *, token: str | None = None
    ) -> GraphQLResult:
        """The portal's operation `name` as the portal sends it: by its persisted hash."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        body = persisted_body(name, variables)
        response = await self.client.post("/graphql", json=body, headers=headers)
        return GraphQLResult(response.status_code, response.json())


@asynccontextmanager
async def start_backend(name: str, settings: Settings) -> AsyncIterator[Backend]:
    """Serve the app with a real uvicorn on an ephemeral port inside this event loop."""
    app = create_app(settings)
    served = TagCountedRequests(app)  # bench/kit/statements.py counts a request's own statements
    # `shipwise serve`'s own options (server/cli/app.py), its keep-alive above all: at uvicorn's
    # default of 5 s the server closed connections this client (httpx, 5 s) was reusing at that
    # moment, and a seeding request failed with `ReadError` on a loaded machine.
    config = uvicorn.Config(served, host="127.0.0.1", port=0, **UVICORN_OPTIONS)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())

    def started() -> bool:
        if task.done():
            task.result()  # raises what stopped the server
        return server.started

    await eventually(started, timeout=60, what="uvicorn started")
    port = server.servers[0].sockets[0].getsockname()[1]
    base_url = f"http://127.0.0.1:{port}"
    hooks = {"request": [tag_counted_request]}
    async with httpx.AsyncClient(base_url=base_url, timeout=30, event_hooks=hooks) as client:
        try:
            yield Backend(
                name, settings, base_url, app.state.shipwise, client, server_config=config
            )
        finally:
            server.should_exit = True
            await task


def start_worker_process(env: dict[str, str], log_path: Path) -> subprocess.Popen[bytes]:
    """`shipwise worker` as its own process, as in production, at the suite's CPU priority
    (`--nice 0`): here it shares the cores with pytest workers and Chromium, not only with
    the API it yields to in production, and a niced worker would time the host's load.
    The default niceness is tested in tests/jobs/test_worker_nice.py."""
    log = open(log_path, "ab")
    return subprocess.Popen(
        [sys.executable, "-m", "server.cli", "worker", "--nice", "0"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=os.getcwd(),
    )


def stop_worker_process(process: subprocess.Popen[bytes], timeout: float = 20) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def api_healthy(api: str) -> bool:
    """Whether a served API at `api` answers `/healthz`."""
    try:  # the process's TLS context: httpx builds one a client (~20 ms of CPU) otherwise
        async with httpx.AsyncClient(verify=client_tls()) as client:
            return (await client.get(f"{api}/healthz")).status_code == 200
    except httpx.HTTPError:
        return False
