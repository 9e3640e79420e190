"""The admin commands, run as a user would run them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from alembic.script import ScriptDirectory

from bench.kit.harness import start_backend
from server.migrate import alembic_config
from server.settings import Settings


def _shipwise(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHIPWISE_")}
    env["SHIPWISE_DATA_DIR"] = str(data_dir)
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


async def test_workspace_create_prints_a_working_owner_token_last(tmp_path: Path) -> None:
    done = _shipwise("workspace", "create", "Acme Labs", data_dir=tmp_path)
    assert done.returncode == 0, done.stderr
    token = done.stdout.strip().splitlines()[-1]
    assert token.startswith("sw_") and " " not in token
    settings = Settings(data_dir=tmp_path)
    async with start_backend("cli", settings) as backend:
        me = (await backend.gql("{ me { role workspace { name } } }", token=token)).ok()
    assert me["me"] == {"role": "OWNER", "workspace": {"name": "Acme Labs"}}


def test_workspace_create_refuses_a_blank_name(tmp_path: Path) -> None:
    done = _shipwise("workspace", "create", "   ", data_dir=tmp_path)
    assert done.returncode == 2
    assert "name" in done.stderr and "Traceback" not in done.stderr


def test_migrate_says_what_it_did_to_an_empty_database_and_then_that_nothing_was_left(
    tmp_path: Path,
) -> None:
    head = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
    count = len(list(ScriptDirectory.from_config(alembic_config("sqlite://")).walk_revisions()))
    done = _shipwise("migrate", data_dir=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "shipwise.db").exists()
    said = done.stdout.strip()
    assert "shipwise.db: was empty; created the schema" in said
    assert f"with {count} migrations (0001 to {head})" in said
    again = _shipwise("migrate", data_dir=tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip().endswith(f"already at the newest schema ({head}); nothing to do")


def test_serve_refuses_several_workers_without_redis(tmp_path: Path) -> None:
    done = _shipwise("serve", "--workers", "2", "--port", "0", data_dir=tmp_path)
    assert done.returncode == 2
    assert "SHIPWISE_REDIS_URL" in done.stderr and "Traceback" not in done.stderr
