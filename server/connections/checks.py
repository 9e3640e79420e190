"""Connection checks: does the provider answer `GET …/models` with our key and headers?

The outcome is a status, a bounded reason (said in words by `status_message`) and, for
logs, the HTTP status or the exception's class name — never the provider's body or the
exception's text, which may echo credentials.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import httpx

from server.connections.endpoints import models_request
from server.connections.models import ConnectionKind, ConnectionStatus
from server.tls import client_tls

CHECK_TIMEOUT = httpx.Timeout(5.0, connect=5.0)
"""Short on purpose: a check answers an admin who is waiting for the mutation."""

ANSWERED = "answered"
SIMULATED = "simulated"
KEY_REFUSED = "key_refused"
NOT_FOUND = "not_found"
RATE_LIMITED = "rate_limited"
REFUSED = "refused"
SERVER_ERROR = "server_error"
TIMEOUT = "timeout"
UNREACHABLE = "unreachable"
NO_BASE_URL = "no_base_url"
SECRET_UNREADABLE = "secret_unreadable"


@dataclass(frozen=True, slots=True)
class CheckResult:
    status: ConnectionStatus
    reason: str | None = None
    http_status: int | None = None
    error_type: str | None = None


def status_for_http(code: int) -> ConnectionStatus:
    """2xx → READY; 5xx → UNREACHABLE (the server is not serving); any other → UNVERIFIED."""
    if 200 <= code < 300:
        return ConnectionStatus.READY
    if code >= 500:
        return ConnectionStatus.UNREACHABLE
    return ConnectionStatus.UNVERIFIED


def reason_for_http(code: int) -> str:
    if 200 <= code < 300:
        return ANSWERED
    if code in (401, 403):
        return KEY_REFUSED
    if code == 404:
        return NOT_FOUND
    if code == 429:
        return RATE_LIMITED
    return SERVER_ERROR if code >= 500 else REFUSED


_WORDS = {
    ANSWERED: "Ready: the provider answered the check.",
    SIMULATED: "Ready: a simulated connection needs no provider.",
    KEY_REFUSED: "The provider refused the key{http}: enter the key again, or check its "
    "permissions and the connection's headers.",
    NOT_FOUND: "The provider has no models endpoint at this base URL{http}: check the base URL.",
    RATE_LIMITED: "The provider is rate limiting{http}: check again in a minute.",
    REFUSED: "The provider refused the check{http}: check the base URL, the key and the headers.",
    SERVER_ERROR: "The provider answered with a server error{http}: check again later.",
    TIMEOUT: "The provider did not answer within 5 seconds: check the base URL and the "
    "provider's load.",
    UNREACHABLE: "Nothing answered at the base URL: check the URL and that the server is up "
    "and reachable from shipwise.",
    NO_BASE_URL: "The connection has no base URL.",
    SECRET_UNREADABLE: "The stored key or headers cannot be decrypted (the service's secret "
    "key changed): enter them again.",
}
_BY_STATUS = {
    ConnectionStatus.READY: "Ready.",
    ConnectionStatus.UNREACHABLE: "Unreachable at the last check.",
    ConnectionStatus.UNVERIFIED: "Not verified: the last check did not succeed.",
}


def status_message(status: ConnectionStatus, reason: str | None, http_status: int | None) -> str:
    """The status in words for people (never provider text); rows checked before reasons
    were kept fall back to the status alone."""
    words = _WORDS.get(reason or "")
    if words is None:
        return _BY_STATUS[status]
    return words.format(http=f" (HTTP {http_status})" if http_status is not None else "")


async def check_http(*, url: str, headers: Mapping[str, str]) -> CheckResult:
    """`GET url`: the status from the HTTP status, or UNREACHABLE when nobody answered."""
    try:
        async with (
            httpx.AsyncClient(
                timeout=CHECK_TIMEOUT, follow_redirects=False, verify=client_tls()
            ) as client,
            # Streamed so a large or hostile body is never downloaded: the status is enough.
            client.stream("GET", url, headers=dict(headers)) as response,
        ):
            code = response.status_code
    except httpx.TimeoutException as exc:
        return CheckResult(ConnectionStatus.UNREACHABLE, TIMEOUT, error_type=type(exc).__name__)
    except (httpx.HTTPError, OSError) as exc:
        # Connection refused, DNS failure, protocol errors: nobody answered usefully.
        return CheckResult(ConnectionStatus.UNREACHABLE, UNREACHABLE, error_type=type(exc).__name__)
    return CheckResult(status_for_http(code), reason_for_http(code), http_status=code)


async def check(
    *,
    kind: ConnectionKind,
    base_url: str | None,
    api_key: str | None,
    headers: Mapping[str, str] | None = None,
) -> CheckResult:
    """The status of a connection; a SIMULATED one is always READY."""
    if kind == ConnectionKind.SIMULATED:
        return CheckResult(ConnectionStatus.READY, SIMULATED)
    if base_url is None:
        return CheckResult(ConnectionStatus.UNVERIFIED, NO_BASE_URL)
    url, sent = models_request(kind=kind, base_url=base_url, api_key=api_key, headers=headers or {})
    return await check_http(url=url, headers=sent)
