"""`shipwise live watch ID --gate`, as a deploy pipeline runs it: it waits while the canary
runs, then exits 0 on SHIP and 1 on DONT_SHIP; 2 on an operational error."""

from __future__ import annotations

import asyncio

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.cli.commands.test_runs_cli import client_env
from tests.server.cli.invoke import shipwise
from tests.server.live.canary import create, pattern, post_release


async def test_watch_gate_waits_then_exits_1_on_dont_ship(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    live = await create(backend, ws)
    env = client_env(backend, ws.tokens[Role.VIEWER])
    watching = asyncio.create_task(shipwise("live", "watch", live["id"], "--gate", env=env))
    await post_release(backend, ws, release="v2", passes=[True] * 5)
    assert not watching.done()  # five traces decide nothing: it waits
    for _ in range(4):
        await post_release(backend, ws, release="v2", passes=pattern(0.5, 50))
        await post_release(backend, ws, release="v1", passes=[True] * 50)
    done = await asyncio.wait_for(watching, timeout=120)
    assert done.code == 1, (done.stdout, done.stderr)
    assert "decision: Don't ship v2" in done.stdout
    assert "[Decided]" in done.stdout


async def test_watch_gate_exits_0_on_ship(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    live = await create(backend, ws, shipPolicy={"qualityMarginPoints": 10, "guardrails": []})
    env = client_env(backend, ws.tokens[Role.VIEWER])
    watching = asyncio.create_task(shipwise("live", "watch", live["id"], "--gate", env=env))
    for _ in range(10):
        await post_release(backend, ws, release="v2", passes=[True] * 50)
        await post_release(backend, ws, release="v1", passes=[True] * 50)
        if watching.done():
            break
    done = await asyncio.wait_for(watching, timeout=120)
    assert done.code == 0, (done.stdout, done.stderr)
    assert "decision: Ship v2" in done.stdout


async def test_watch_operational_errors_exit_2(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    live = await create(backend, ws)
    foreign = await shipwise(
        "live", "watch", live["id"], "--gate", env=client_env(backend, other.owner)
    )
    assert foreign.code == 2 and "NOT_FOUND" in foreign.stderr
    assert "Traceback" not in foreign.stderr
    bad = await shipwise("live", "watch", live["id"], env=client_env(backend, "sw_nope"))
    assert bad.code == 2 and "refused the token" in bad.stderr
