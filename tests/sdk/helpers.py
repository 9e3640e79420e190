"""Datasets, runs and a clean virtual environment for the SDK's tests."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench.kit.factories import WorkspaceFixture, actor_for
from bench.kit.harness import Backend
from server.assets.models import AssetVersion
from server.workspaces.roles import Role
from tests.server.runs.api import RUN

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "sdk" / "python"

RUNS = """query($e: ID!) { runs(experimentId: $e, first: 100) {
  edges { node { id status itemCount idempotencyKey metadata } } } }"""
EXPERIMENTS = "{ experiments(first: 100) { edges { node { id name } } } }"


def capital_cases(count: int = 60) -> list[dict[str, Any]]:
    from server.cli.demo import CAPITALS

    return [
        {"datasetItemId": f"capital-{i:02d}", "input": {"country": country},
         "expected": city, "split": "DEV", "tags": ["geography"]}
        for i, (country, city) in enumerate(list(CAPITALS.items())[:count])
    ]  # fmt: skip


async def sealed_dataset(
    backend: Backend, ws: WorkspaceFixture, name: str, cases: list[dict[str, Any]]
) -> AssetVersion:
    from server.datasets import service as dataset_service
    from server.datasets import versions as dataset_versions

    async with backend.sessionmaker() as session, session.begin():
        actor = actor_for(ws, Role.MEMBER)
        dataset = await dataset_service.create_dataset(session=session, actor=actor, name=name)
        return await dataset_versions.create_sealed_version(
            session=session, actor=actor, asset=dataset, cases=cases
        )


async def run_items(backend: Backend, token: str, run_id: str) -> tuple[dict[str, Any], list[Any]]:
    """The run and every one of its items, in position order."""
    items: list[Any] = []
    after = None
    while True:
        found = await backend.gql(RUN, {"id": run_id, "first": 100, "after": after}, token=token)
        run = found.ok()["run"]
        page = run["items"]
        items += [edge["node"] for edge in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            return run, items
        after = page["pageInfo"]["endCursor"]


async def experiment_runs(backend: Backend, token: str, name: str) -> list[dict[str, Any]]:
    """The runs of the experiment with this name, newest first ([] when there is none)."""
    found = (await backend.gql(EXPERIMENTS, token=token)).ok()["experiments"]["edges"]
    ids = [e["node"]["id"] for e in found if e["node"]["name"] == name]
    if not ids:
        return []
    runs = (await backend.gql(RUNS, {"e": ids[0]}, token=token)).ok()["runs"]["edges"]
    return [edge["node"] for edge in runs]


def client_env(backend: Backend, token: str) -> dict[str, str]:
    """The environment of a user's process: no test settings, the server and a token."""
    keep = {k: v for k, v in os.environ.items() if not k.startswith("SHIPWISE_")}
    return {**keep, "SHIPWISE_URL": backend.base_url, "SHIPWISE_TOKEN": token}


def build_clean_venv(root: Path) -> Path:
    """The SDK's wheel built and installed, with its dependencies alone, into a new venv
    (no server package, no database driver, no scipy); the venv's python."""
    wheels = root / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(SDK)],
        check=True, capture_output=True,
    )  # fmt: skip
    (wheel,) = wheels.glob("shipwise_client-*.whl")
    venv = root / "venv"
    # No pip of its own (bootstrapping one was a third of this set-up): ours installs into it.
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True
    )
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", str(wheel)],
        check=True, capture_output=True,
    )  # fmt: skip
    return python


async def run_python(
    python: Path, script: Path, env: dict[str, str], *args: str, cwd: Path | None = None
) -> tuple[int, str, str]:
    """A script run to its end without blocking the loop that serves the backend."""
    process = await asyncio.create_subprocess_exec(
        str(python), str(script), *args, env=env, cwd=cwd,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def server_decides(backend: Backend, token: str) -> bool:
    """Whether this server's `RunDiff` answers a ship `decision` (docs/decision.md)."""
    found = await backend.gql('{ __type(name: "RunDiff") { fields { name } } }', token=token)
    return "decision" in {f["name"] for f in found.ok()["__type"]["fields"]}
