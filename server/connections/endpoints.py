"""Where each connection kind's API lives and how a request to it is authenticated: what the
providers (calls) and the connection checks (`GET …/models`) share."""

from __future__ import annotations

from collections.abc import Mapping

from server.connections.models import ConnectionKind

ANTHROPIC_BASE_URL = "https://api.anthropic.com"
"""An ANTHROPIC connection's base URL when none is given."""
ANTHROPIC_VERSION = "2023-06-01"
"""The `anthropic-version` header every Messages API request carries."""


def anthropic_root(base_url: str) -> str:
    """`https://api.anthropic.com` and `https://api.anthropic.com/v1` both mean `…/v1`."""
    base = base_url.rstrip("/")
    return base if base.endswith("/v1") else base + "/v1"


def anthropic_headers(api_key: str | None) -> dict[str, str]:
    """`x-api-key` (when a key is set) and `anthropic-version`."""
    headers = {"anthropic-version": ANTHROPIC_VERSION}
    if api_key:
        headers["x-api-key"] = api_key
    return headers


def openai_headers(api_key: str | None) -> dict[str, str]:
    """`Authorization: Bearer <key>` when a key is set."""
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


def models_request(
    *, kind: ConnectionKind, base_url: str, api_key: str | None, headers: Mapping[str, str]
) -> tuple[str, dict[str, str]]:
    """(URL, headers) of a connection check: the models list of the connection's API; the
    connection's extra headers go last, so `anthropic-version` may be overridden."""
    if kind == ConnectionKind.ANTHROPIC:
        return anthropic_root(base_url) + "/models", {**anthropic_headers(api_key), **headers}
    return f"{base_url}/models", {**headers, **openai_headers(api_key)}
