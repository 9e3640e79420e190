"""Signed, expiring links to pages (run diffs, reports): HMAC-SHA256 with the server secret.

A token is `<payload>.<signature>`, both base64url: the payload names what it opens
(`kind`, `subject`), the workspace it belongs to and when it expires. Verification
recomputes the HMAC in constant time, then checks kind, expiry and subject, so a token
for one page never opens another. Every page's link is valid 1 to `MAX_HOURS` hours.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from dataclasses import dataclass

DOMAIN = b"shipwise signed link v1\x00"
MAX_TOKEN_LENGTH = 2_000
DEFAULT_HOURS = 168
MAX_HOURS = 720


class LinkRefused(Exception):
    """A token that is malformed, tampered with, expired or for something else."""


class LinkExpired(LinkRefused):
    """A genuine token whose time is up."""


@dataclass(frozen=True, slots=True)
class LinkGrant:
    subject: str
    workspace_id: str
    expires_at: int


def _key(secret: str) -> bytes:
    # A key of its own, so link signatures never double as anything the secret signs.
    return hashlib.sha256(DOMAIN + secret.encode()).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(*, secret: str, kind: str, subject: str, workspace_id: str, expires_at: int) -> str:
    """A token opening `kind`/`subject` of `workspace_id` until `expires_at` (unix seconds)."""
    payload = json.dumps(
        {"k": kind, "s": subject, "w": workspace_id, "e": expires_at}, separators=(",", ":")
    ).encode()
    signature = hmac.new(_key(secret), payload, hashlib.sha256).digest()
    return f"{_b64(payload)}.{_b64(signature)}"


def read(token: str, *, secret: str, kind: str, now: float | None = None) -> LinkGrant:
    """The grant of a genuine, unexpired token of this kind, whatever subject it names.

    For pages that must tell "another workspace's" (404) from "not valid" (403): the
    caller compares the grant's workspace and subject itself. LinkRefused otherwise.
    """
    if len(token) > MAX_TOKEN_LENGTH or token.count(".") != 1:
        raise LinkRefused("malformed")
    encoded, signature = token.split(".")
    try:
        payload = _unb64(encoded)
        given = _unb64(signature)
    except (ValueError, binascii.Error):
        raise LinkRefused("malformed") from None
    expected = hmac.new(_key(secret), payload, hashlib.sha256).digest()
    if not hmac.compare_digest(expected, given):
        raise LinkRefused("bad signature")
    try:
        claims = json.loads(payload)
    except ValueError:
        raise LinkRefused("malformed") from None
    if not isinstance(claims, dict) or claims.get("k") != kind:
        raise LinkRefused("for something else")
    subject, expires_at, workspace_id = claims.get("s"), claims.get("e"), claims.get("w")
    if (
        not isinstance(subject, str)
        or not isinstance(expires_at, int)
        or not isinstance(workspace_id, str)
    ):
        raise LinkRefused("malformed")
    if (time.time() if now is None else now) >= expires_at:
        raise LinkExpired("expired")
    return LinkGrant(subject=subject, workspace_id=workspace_id, expires_at=expires_at)


def verify(
    token: str, *, secret: str, kind: str, subject: str, now: float | None = None
) -> LinkGrant:
    """The grant of a valid token for exactly this kind and subject; LinkRefused otherwise."""
    grant = read(token, secret=secret, kind=kind, now=now)
    if grant.subject != subject:
        raise LinkRefused("for something else")
    return grant
