"""Model connections: create (checked at once), check on demand, read; every change audited.

The provider key and the extra headers' values are write-only: encrypted with the service's
secret box before they touch a row, and never put in a response, an audit event, a log line
or an error message (only the headers' names are shown).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx
from cryptography.fernet import InvalidToken
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.audit import service as audit
from server.connections import checks
from server.connections.endpoints import ANTHROPIC_BASE_URL
from server.connections.headers import clean_headers, decrypt_headers, encrypt_headers
from server.connections.models import ConnectionKind, ConnectionStatus, ModelConnection
from server.db import utcnow
from server.errors import ValidationFailed
from server.ids import new_id
from server.money import cents_to_micros, optional_cents_to_micros
from server.pagination import Page
from server.security import SecretBox
from server.validation import check_range, clean_name
from server.workspaces.roles import Actor, Role
from server.workspaces.scoped import get_in_workspace, page_in_workspace

logger = logging.getLogger("shipwise.connections")

MAX_BASE_URL_LENGTH = 2000
MAX_API_KEY_LENGTH = 4096
MAX_SCRIPTED_CASES = 100_000
MAX_LATENCY_MS = 600_000


@dataclass(frozen=True, slots=True)
class Simulation:
    """How a SIMULATED connection answers: deterministic by `seed`."""

    seed: int = 0
    accuracy: float = 0.8
    latency_ms: int = 0
    error_rate: float = 0.0
    script: Any = None


def clean_base_url(kind: ConnectionKind, base_url: str | None) -> str | None:
    """An http(s) URL with a host, no credentials, query or fragment, without a trailing `/`."""
    if kind == ConnectionKind.SIMULATED:
        if base_url is not None:
            raise ValidationFailed("a SIMULATED connection takes no `baseUrl`", field="baseUrl")
        return None
    if kind == ConnectionKind.ANTHROPIC and (base_url is None or not base_url.strip()):
        return ANTHROPIC_BASE_URL
    if base_url is None or not base_url.strip():
        raise ValidationFailed("an OPENAI_COMPATIBLE connection needs `baseUrl`", field="baseUrl")
    cleaned = base_url.strip().rstrip("/")
    # The URL itself is not echoed in messages: a pasted URL may carry a credential.
    invalid = ValidationFailed("`baseUrl` must be an http(s) URL with a host", field="baseUrl")
    if len(cleaned) > MAX_BASE_URL_LENGTH:
        raise ValidationFailed(
            f"`baseUrl` must be at most {MAX_BASE_URL_LENGTH} characters", field="baseUrl"
        )
    try:
        url = httpx.URL(cleaned)
        port = url.port
    except (httpx.InvalidURL, ValueError) as exc:
        raise invalid from exc
    if url.scheme not in ("http", "https") or not url.host:
        raise invalid
    if port is not None and not 1 <= port <= 65535:
        raise invalid
    if url.userinfo:
        raise ValidationFailed(
            "`baseUrl` must not contain credentials; give the key as `apiKey`", field="baseUrl"
        )
    if url.query or url.fragment:
        raise ValidationFailed("`baseUrl` must not have a query or fragment", field="baseUrl")
    return cleaned


def _clean_api_key(kind: ConnectionKind, api_key: str | None) -> str | None:
    """A key that can travel in an `Authorization` header; never echoed back."""
    if api_key is None:
        return None
    if kind == ConnectionKind.SIMULATED:
        raise ValidationFailed("a SIMULATED connection takes no `apiKey`", field="apiKey")
    if not api_key or len(api_key) > MAX_API_KEY_LENGTH:
        raise ValidationFailed(
            f"`apiKey` must be 1 to {MAX_API_KEY_LENGTH} characters", field="apiKey"
        )
    if not all("!" <= ch <= "~" for ch in api_key):
        raise ValidationFailed("`apiKey` must be printable ASCII without spaces", field="apiKey")
    return api_key


def _check_fraction(value: float, *, field: str) -> float:
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ValidationFailed(f"`{field}` must be between 0 and 1", field=field)
    return value


def _clean_script(script: Any) -> dict[str, Any] | None:
    """Scripted outputs keyed by `datasetItemId`: a string, `{output, toolCalls}`, or any
    other JSON value (answered as its JSON); only `null` says nothing and is refused."""
    field = "simulation.script"
    if script is None:
        return None
    if not isinstance(script, dict):
        raise ValidationFailed(f"`{field}` must be an object keyed by datasetItemId", field=field)
    if len(script) > MAX_SCRIPTED_CASES:
        raise ValidationFailed(
            f"`{field}` may script at most {MAX_SCRIPTED_CASES} cases", field=field
        )
    for item_id, output in script.items():
        if not item_id or len(item_id) > 200:
            raise ValidationFailed(f"`{field}` keys must be 1 to 200 characters", field=field)
        if output is None:
            raise ValidationFailed(
                f"`{field}` values must not be null (case {item_id[:200]!r})", field=field
            )
    return script


def _clean_simulation(kind: ConnectionKind, simulation: Simulation | None) -> dict[str, Any] | None:
    """The stored `{seed, accuracy, latencyMs, errorRate, script}`; defaults when omitted."""
    if kind != ConnectionKind.SIMULATED:
        if simulation is not None:
            raise ValidationFailed(
                "only a SIMULATED connection takes `simulation`", field="simulation"
            )
        return None
    sim = simulation or Simulation()
    return {
        "seed": sim.seed,
        "accuracy": _check_fraction(sim.accuracy, field="simulation.accuracy"),
        "latencyMs": check_range(
            sim.latency_ms, field="simulation.latencyMs", low=0, high=MAX_LATENCY_MS
        ),
        "errorRate": _check_fraction(sim.error_rate, field="simulation.errorRate"),
        "script": _clean_script(sim.script),
    }


async def create(
    *,
    session: AsyncSession,
    actor: Actor,
    secret_box: SecretBox,
    name: str,
    kind: ConnectionKind,
    base_url: str | None = None,
    api_key: str | None = None,
    input_cents_per_million_tokens: float = 0.0,
    output_cents_per_million_tokens: float = 0.0,
    monthly_cap_cents: float | None = None,
    max_concurrency: int = 8,
    simulation: Simulation | None = None,
    headers: Sequence[tuple[str, str]] | None = None,
) -> ModelConnection:
    """A validated connection, stored with its key and headers encrypted, its status checked."""
    actor.require(Role.ADMIN)
    row = ModelConnection(
        id=new_id("conn"),
        workspace_id=actor.workspace_id,
        name=clean_name(name),
        kind=kind,
        base_url=clean_base_url(kind, base_url),
        input_micros_per_million_tokens=cents_to_micros(
            input_cents_per_million_tokens, field="inputCentsPerMillionTokens"
        ),
        output_micros_per_million_tokens=cents_to_micros(
            output_cents_per_million_tokens, field="outputCentsPerMillionTokens"
        ),
        monthly_cap_micros=optional_cents_to_micros(monthly_cap_cents, field="monthlyCapCents"),
        max_concurrency=check_range(max_concurrency, field="maxConcurrency", low=1, high=256),
        simulation=_clean_simulation(kind, simulation),
        created_by_member_id=actor.member_id,
    )
    key = _clean_api_key(kind, api_key)
    row.api_key_encrypted = secret_box.encrypt(key) if key is not None else None
    extra = clean_headers(kind, headers, has_api_key=key is not None)
    if extra:
        row.headers_encrypted = encrypt_headers(extra, secret_box)
        row.header_names = list(extra)
    # Before the first SQL statement, so no transaction (on SQLite: the one write lock) is
    # open while the provider takes its time.
    result = await checks.check(kind=kind, base_url=row.base_url, api_key=key, headers=extra)
    _record_check(row, result)
    session.add(row)
    await session.flush()
    _log_check(row, result)
    await _audit(session, actor, "connection.create", row, _facts(row))
    return row


async def check(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    actor: Actor,
    secret_box: SecretBox,
    connection_id: str,
) -> ModelConnection:
    """Ask the provider again and record the status (audited as `connection.check`)."""
    # A sessionmaker, not a session: one short session reads, another writes, and none is
    # open while the provider takes up to the check's timeout to answer.
    actor.require(Role.ADMIN)
    async with sessionmaker() as session:
        row = await get(
            session=session, workspace_id=actor.workspace_id, connection_id=connection_id
        )
    result = await _check_row(row, secret_box)
    async with sessionmaker() as session, session.begin():
        row = await get(session=session, workspace_id=actor.workspace_id, connection_id=row.id)
        previous = row.status
        _record_check(row, result)
        details: dict[str, object] = {"from": previous.value, "to": result.status.value}
        if result.reason is not None:
            details["reason"] = result.reason
        if result.http_status is not None:
            details["httpStatus"] = result.http_status
        if result.error_type is not None:
            details["errorType"] = result.error_type
        await _audit(session, actor, "connection.check", row, details)
    _log_check(row, result)
    return row


def _record_check(row: ModelConnection, result: checks.CheckResult) -> None:
    row.status, row.checked_at = result.status, utcnow()
    row.check_reason, row.check_http_status = result.reason, result.http_status


async def _check_row(row: ModelConnection, secret_box: SecretBox) -> checks.CheckResult:
    """Check with the plaintext key and headers (for the outgoing request only); a secret
    sealed with another service key cannot be sent, so the check says so without asking."""
    try:
        key = secret_box.decrypt(row.api_key_encrypted) if row.api_key_encrypted else None
        extra = decrypt_headers(row, secret_box)
    except InvalidToken:
        logger.warning("connection secret cannot be decrypted", extra={"connection_id": row.id})
        return checks.CheckResult(ConnectionStatus.UNVERIFIED, checks.SECRET_UNREADABLE)
    return await checks.check(kind=row.kind, base_url=row.base_url, api_key=key, headers=extra)


async def get(*, session: AsyncSession, workspace_id: str, connection_id: str) -> ModelConnection:
    """The workspace's connection; another workspace's or an unknown id is NOT_FOUND."""
    return await get_in_workspace(
        session, ModelConnection, connection_id, workspace_id, "model connection"
    )


async def get_page(
    *, session: AsyncSession, workspace_id: str, first: int, after: str | None
) -> Page[ModelConnection]:
    return await page_in_workspace(session, ModelConnection, workspace_id, first=first, after=after)


def _facts(row: ModelConnection) -> dict[str, object]:
    """What the audit log keeps of a connection: everything but the key."""
    return {
        "name": row.name,
        "kind": row.kind.value,
        "baseUrl": row.base_url,
        "hasApiKey": row.api_key_encrypted is not None,
        "headerNames": row.header_names or [],
        "status": row.status.value,
        "maxConcurrency": row.max_concurrency,
        "inputMicrosPerMillionTokens": row.input_micros_per_million_tokens,
        "outputMicrosPerMillionTokens": row.output_micros_per_million_tokens,
        "monthlyCapMicros": row.monthly_cap_micros,
    }


def _log_check(row: ModelConnection, result: checks.CheckResult) -> None:
    logger.info(
        "model connection checked",
        extra={
            "connection_id": row.id,
            "status": result.status.value,
            "reason": result.reason,
            "http_status": result.http_status,
            "error_type": result.error_type,
        },
    )


async def _audit(
    session: AsyncSession,
    actor: Actor,
    action: str,
    row: ModelConnection,
    details: dict[str, object],
) -> None:
    await audit.record(
        session=session,
        actor=actor,
        action=action,
        target_type="model_connection",
        target_id=row.id,
        details=details,
    )
