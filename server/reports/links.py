"""Signed, expiring report links: a `signed_links` token for the report page.

The token names the report (its subject), its workspace and the expiry; the signature covers
all three, so changing any of them (or pointing the link at another report) is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final
from urllib.parse import urlencode

from server import signed_links

KIND: Final = "report"
DEFAULT_HOURS: Final = signed_links.DEFAULT_HOURS
MAX_HOURS: Final = signed_links.MAX_HOURS


@dataclass(frozen=True, slots=True)
class SignedLink:
    path: str
    expires_at: datetime


def page_path(report_id: str) -> str:
    return f"/reports/{report_id}.html"


def sign(
    *, secret: str, workspace_id: str, report_id: str, hours: int, now: datetime
) -> SignedLink:
    """The page path with `?token=…` opening this report until `now + hours` (whole seconds)."""
    expires_at = (now + timedelta(hours=hours)).replace(microsecond=0)
    return sign_until(
        secret=secret, workspace_id=workspace_id, report_id=report_id, expires_at=expires_at
    )


def sign_until(
    *, secret: str, workspace_id: str, report_id: str, expires_at: datetime
) -> SignedLink:
    """The link opening this report until `expires_at`: the same link each time (no nonce)."""
    token = signed_links.sign(
        secret=secret,
        kind=KIND,
        subject=report_id,
        workspace_id=workspace_id,
        expires_at=int(expires_at.timestamp()),
    )
    path = f"{page_path(report_id)}?{urlencode({'token': token})}"
    return SignedLink(path=path, expires_at=expires_at)
