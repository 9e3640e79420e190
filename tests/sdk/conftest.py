"""The SDK installed from its wheel into a clean venv, once per test session."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.sdk.helpers import build_clean_venv


@pytest.fixture(scope="session")
async def clean_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a venv holding shipwise-client and httpx's dependencies only."""
    root = tmp_path_factory.mktemp("sdk-venv")
    return await asyncio.to_thread(build_clean_venv, root)
