"""The `Shipwise-Signature` header: `t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.

Receivers recompute the HMAC over the raw body and refuse a `t` older than five minutes.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

HEADER = "Shipwise-Signature"
TOLERANCE_SECONDS = 300


def body_of(payload: dict[str, Any]) -> bytes:
    """The exact bytes sent (and signed): compact JSON with sorted keys."""
    return json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()


def signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return mac.hexdigest()


def header(secret: str, timestamp: int, body: bytes) -> str:
    return f"t={timestamp},v1={signature(secret, timestamp, body)}"


def verify(secret: str, value: str, body: bytes, *, now: int) -> bool:
    """True when `value` signs `body` with `secret` and its `t` is within the tolerance."""
    fields: dict[str, list[str]] = {}
    for part in value.split(","):
        key, _, item = part.strip().partition("=")
        fields.setdefault(key, []).append(item)
    try:
        timestamp = int(fields["t"][0])
    except (KeyError, ValueError):
        return False
    if abs(now - timestamp) > TOLERANCE_SECONDS:
        return False
    expected = signature(secret, timestamp, body)
    return any(hmac.compare_digest(expected, v) for v in fields.get("v1", []))
