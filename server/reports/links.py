"""Signed, expiring report links: HMAC-SHA256 with a key derived from the server secret.

The link names the workspace, the report and the expiry; the signature covers all three, so
changing any of them (or pointing the link at another report) is refused.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Final
from urllib.parse import urlencode

DEFAULT_HOURS: Final = 168
MAX_HOURS: Final = 720


class LinkCheck(StrEnum):
    VALID = "VALID"
    INVALID = "INVALID"
    EXPIRED = "EXPIRED"


@dataclass(frozen=True, slots=True)
class SignedLink:
    path: str
    expires_at: datetime


def _key(secret: str) -> bytes:
    """A key for links alone, so the secret's other uses never sign a link."""
    return hmac.new(secret.encode(), b"shipwise report link v1", hashlib.sha256).digest()


def _signature(secret: str, workspace_id: str, report_id: str, expires: int) -> str:
    message = f"report:{workspace_id}:{report_id}:{expires}".encode()
    return hmac.new(_key(secret), message, hashlib.sha256).hexdigest()


def page_path(report_id: str) -> str:
    return f"/reports/{report_id}.html"


def sign(
    *, secret: str, workspace_id: str, report_id: str, hours: int, now: datetime
) -> SignedLink:
    expires_at = (now + timedelta(hours=hours)).replace(microsecond=0)
    expires = int(expires_at.timestamp())
    query = urlencode(
        {
            "ws": workspace_id,
            "exp": expires,
            "sig": _signature(secret, workspace_id, report_id, expires),
        }
    )
    return SignedLink(path=f"{page_path(report_id)}?{query}", expires_at=expires_at)


def check(
    *,
    secret: str,
    workspace_id: str,
    report_id: str,
    expires: str,
    signature: str,
    now: datetime,
) -> LinkCheck:
    """VALID, INVALID (altered or not signed by us) or EXPIRED (checked after the signature)."""
    if not expires.isdigit() or len(expires) > 12:
        return LinkCheck.INVALID
    expected = _signature(secret, workspace_id, report_id, int(expires))
    if not hmac.compare_digest(expected, signature):
        return LinkCheck.INVALID
    if datetime.fromtimestamp(int(expires), UTC) <= now:
        return LinkCheck.EXPIRED
    return LinkCheck.VALID
