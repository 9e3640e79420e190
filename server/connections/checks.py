"""Connection checks: does the provider answer `GET {baseUrl}/models` with our key?

The outcome is a status and, for logs, the HTTP status or the exception's class name —
never the provider's body or the exception's text, which may echo credentials.
"""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from server.connections.models import ConnectionKind, ConnectionStatus

CHECK_TIMEOUT = httpx.Timeout(5.0, connect=5.0)
"""Short on purpose: a check answers an admin who is waiting for the mutation."""


@dataclass(frozen=True, slots=True)
class CheckResult:
    status: ConnectionStatus
    http_status: int | None = None
    error_type: str | None = None


def status_for_http(code: int) -> ConnectionStatus:
    """2xx → READY; 5xx → UNREACHABLE (the server is not serving); any other → UNVERIFIED."""
    if 200 <= code < 300:
        return ConnectionStatus.READY
    if code >= 500:
        return ConnectionStatus.UNREACHABLE
    return ConnectionStatus.UNVERIFIED


async def check_openai_compatible(*, base_url: str, api_key: str | None) -> CheckResult:
    """`GET {base_url}/models`, with `Authorization: Bearer <key>` when a key is set."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        async with (
            httpx.AsyncClient(timeout=CHECK_TIMEOUT, follow_redirects=False) as client,
            # Streamed so a large or hostile body is never downloaded: the status is enough.
            client.stream("GET", f"{base_url}/models", headers=headers) as response,
        ):
            code = response.status_code
    except (httpx.HTTPError, OSError) as exc:
        # Connection refused, DNS failure, timeouts, protocol errors: nobody answered usefully.
        return CheckResult(ConnectionStatus.UNREACHABLE, error_type=type(exc).__name__)
    return CheckResult(status_for_http(code), http_status=code)


async def check(*, kind: ConnectionKind, base_url: str | None, api_key: str | None) -> CheckResult:
    """The status of a connection; a SIMULATED one is always READY."""
    if kind == ConnectionKind.SIMULATED:
        return CheckResult(ConnectionStatus.READY)
    if base_url is None:
        return CheckResult(ConnectionStatus.UNVERIFIED)
    return await check_openai_compatible(base_url=base_url, api_key=api_key)
