"""Settings: the embedded defaults, and what PostgreSQL requires."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from pydantic import ValidationError

from server.settings import Settings


def test_the_default_is_sqlite_under_the_data_directory(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    assert settings.database_url == f"sqlite+aiosqlite:///{tmp_path / 'shipwise.db'}"
    assert settings.redis_url is None
    assert settings.max_calls_per_comparison == 2_000_000


def test_postgres_requires_a_secret_key(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="SHIPWISE_SECRET_KEY"):
        Settings(data_dir=tmp_path, database_url="postgresql+asyncpg://x@localhost/db")


def test_the_embedded_key_is_generated_once_and_kept(tmp_path: Path) -> None:
    first = Settings(data_dir=tmp_path).resolved_secret_key()
    second = Settings(data_dir=tmp_path).resolved_secret_key()
    assert first == second
    Fernet(first.encode())  # a valid key
    assert (tmp_path / "secret.key").stat().st_mode & 0o077 == 0


def test_settings_come_from_shipwise_variables(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SHIPWISE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("SHIPWISE_REDIS_URL", "redis://example:6379/2")
    monkeypatch.setenv("SHIPWISE_MAX_QUERY_DEPTH", "7")
    settings = Settings()
    assert settings.redis_url == "redis://example:6379/2"
    assert settings.max_query_depth == 7
    assert settings.data_dir == tmp_path
