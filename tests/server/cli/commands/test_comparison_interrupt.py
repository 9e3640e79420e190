"""Ctrl-C during `shipwise comparison start --wait`, in a real process: only the waiting
stops; the command says the comparison goes on running and how to cancel it, and exits 130."""

from __future__ import annotations

import asyncio
import os
import signal
import sys

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import Behaviour, FakeOpenAI
from bench.kit.waiting import API_POLL_SECONDS, eventually
from server.workspaces.roles import Role
from tests.server.dispatch.api import create, openai_setup, status, wait_terminal

CANCEL = "mutation($id: ID!) { cancelComparison(id: $id) { status } }"


async def test_ctrl_c_while_waiting_says_the_comparison_goes_on_and_how_to_cancel_it(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await openai_setup(backend, fake_openai, ws, cases=20, max_concurrency=1)
    fake_openai.behaviour = Behaviour(delay_seconds=0.3, reply="slow reply")  # 120 calls: ~36 s
    member = ws.tokens[Role.MEMBER]
    comparison_id = await create(backend, member, setup.input(trialsPerCase=3))
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHIPWISE_")}
    env |= {"SHIPWISE_URL": backend.base_url, "SHIPWISE_TOKEN": member}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server.cli", "comparison", "start", comparison_id, "--wait",
        env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stderr is not None
    try:
        first = await asyncio.wait_for(process.stderr.readline(), timeout=60)
        assert first.decode().strip() == f"comparison {comparison_id}: started"
        await eventually(
            lambda: status(backend, member, comparison_id),
            until=lambda c: c["status"] == "RUNNING" and c["progress"]["doneCalls"] >= 1,
            what="a call done",
            interval=API_POLL_SECONDS,
        )
        process.send_signal(signal.SIGINT)
        stdout, rest = await asyncio.wait_for(process.communicate(), timeout=60)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    said = rest.decode()
    assert process.returncode == 130, said
    assert "Traceback" not in said
    assert f"Comparison {comparison_id} is still running on the server (" in said
    assert f"To stop it: shipwise comparison cancel {comparison_id}\n" in said
    assert stdout == b""
    assert (await status(backend, member, comparison_id))["status"] == "RUNNING"

    cancelled = await backend.gql(CANCEL, {"id": comparison_id}, token=member)
    assert cancelled.ok()["cancelComparison"]["status"] == "CANCELLED"
    await wait_terminal(backend, member, comparison_id)
