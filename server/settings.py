"""Configuration from `SHIPWISE_*` environment variables (pydantic-settings)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from server.graphiql.assets import DEFAULT_DIR as GRAPHIQL_ASSETS_DIR
from server.portal.files import DEFAULT_DIR as PORTAL_DIR

PERSISTED_DOCUMENTS = PORTAL_DIR.parent / "src" / "gql" / "persisted-documents.json"

DEFAULT_DATA_DIR = Path(".shipwise")


class Settings(BaseSettings):
    """Every setting the service reads; the README has a table of them."""

    model_config = SettingsConfigDict(env_prefix="SHIPWISE_", extra="ignore")

    data_dir: Path = Field(DEFAULT_DATA_DIR, description="Where the embedded default keeps state.")
    database_url: str = Field(
        "", description="SQLAlchemy async URL; default SQLite under the data directory."
    )
    redis_url: str | None = Field(
        None, description="Redis URL; unset runs jobs and events in-process."
    )
    secret_key: str | None = Field(
        None,
        description="Fernet key for secrets at rest; required with PostgreSQL, "
        "generated under the data directory for the embedded default.",
    )
    log_level: str = Field("INFO", description="Python log level name.")
    max_query_depth: int = Field(
        12,
        description="Largest operation depth (defined in server/api/http/depth_limit.py and the "
        "README).",
    )
    max_aliases: int = Field(50, description="Most aliases in one GraphQL document.")
    max_query_tokens: int = Field(5000, description="Most lexical tokens in one document.")
    max_body_bytes: int = Field(2 * 1024 * 1024, description="Largest accepted request body.")
    max_page_size: int = Field(100, description="Largest `first` of a connection.")
    max_calls_per_comparison: int = Field(
        2_000_000,
        description="The deployment's ceiling on a comparison's calls: a workspace's "
        "`maxCallsPerComparison` (20,000 unless an ADMIN raises it) applies up to this.",
    )
    job_timeout_seconds: int = Field(300, description="arq timeout of every job.")
    queue_name: str = Field(
        "arq:queue", description="The Redis job queue; deployments sharing a Redis each use one."
    )
    verdict_sweep_seconds: int = Field(
        300,
        gt=0,
        description="How often the verdict sweep queues a finalization whose job was lost "
        "(a divisor of a minute or an hour: it runs as a cron job).",
    )
    verdict_settle_seconds: int = Field(
        60,
        ge=0,
        description="How long after its end a comparison is left to its own finalization job "
        "(and hosted runs to theirs) before the verdict sweep queues another.",
    )
    dispatch_lease_seconds: int = Field(
        30, description="How long a silent dispatcher keeps a comparison before another may."
    )
    dispatch_slice_seconds: int = Field(
        60, description="A dispatch job hands over to its continuation after this long."
    )
    dispatch_range_cases: int = Field(
        100, ge=1, description="Cases per dispatch range (each range has its own lease)."
    )
    provider_timeout_seconds: float = Field(
        60.0, gt=0, description="How long one provider request may wait for an answer."
    )
    graphiql_assets_dir: Path = Field(
        GRAPHIQL_ASSETS_DIR, description="Where GraphiQL's files are (`make install` puts them)."
    )
    worker_health_port: int | None = Field(
        None, description="`shipwise worker`'s health probe port (/healthz, /readyz); unset: none."
    )
    portal_dir: Path = Field(
        PORTAL_DIR, description="Where the built portal is (`make install` builds web/ there)."
    )
    webhook_allow_private: bool = Field(
        False, description="Allow webhook URLs that resolve to private addresses."
    )
    webhook_timeout_seconds: float = Field(
        10.0, gt=0, description="How long one webhook request may take."
    )
    webhook_retry_base_seconds: float = Field(
        10.0, gt=0, description="Webhook retries wait base · 2ⁿ seconds (n = 0, 1, …)."
    )
    token_cache_seconds: float = Field(
        2.0,
        ge=0,
        le=4,
        description="How long a process trusts a verified API token before checking it again "
        "(a revoked token is refused within this, plus a second: well within 5 s).",
    )

    response_cache_bytes: int = Field(
        64 * 1024 * 1024,
        ge=0,
        description="Bytes of answers to reads of finalized comparisons kept per API process "
        "(server/api/http/response_cache.py); 0 turns the cache off.",
    )

    trace_prepare_processes: int = Field(
        2,
        ge=0,
        le=32,
        description="Worker processes per API process that decode OTLP exports over 256 KiB "
        "and read their spans as steps (server/traces/preparer.py); 0: a thread of the API's.",
    )

    persisted_documents: Path | None = Field(
        None,
        description="The portal's persisted documents, hash to text; unset: the built "
        "portal's copy (`npm run build` puts it in web/dist), else web/src/gql's (written by "
        "`npm run codegen`). Absent: only documents sent as text are run.",
    )

    def persisted_documents_file(self) -> Path:
        """The map the served portal was built with, when there is one."""
        if self.persisted_documents is not None:
            return self.persisted_documents
        built = self.portal_dir / PERSISTED_DOCUMENTS.name
        return built if built.is_file() else PERSISTED_DOCUMENTS

    @model_validator(mode="after")
    def _fill_defaults(self) -> Settings:
        if not self.database_url:
            self.database_url = f"sqlite+aiosqlite:///{self.data_dir / 'shipwise.db'}"
        if self.is_postgres and not self.secret_key:
            raise ValueError("SHIPWISE_SECRET_KEY is required with PostgreSQL")
        return self

    @property
    def is_postgres(self) -> bool:
        return self.database_url.startswith("postgresql")

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    def resolved_secret_key(self) -> str:
        """The Fernet key: configured, or generated once and kept under the data directory."""
        if self.secret_key:
            return self.secret_key
        path = self.data_dir / "secret.key"
        if path.exists():
            return path.read_text().strip()
        from cryptography.fernet import Fernet

        self.data_dir.mkdir(parents=True, exist_ok=True)
        key = Fernet.generate_key().decode()
        path.touch(mode=0o600)
        path.write_text(key)
        return key


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
