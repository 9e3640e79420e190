"""Signed links: a token opens exactly its own page of its own workspace until it expires."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable

import pytest

from server.signed_links import LinkExpired, LinkGrant, LinkRefused, read, sign, verify

SECRET = "a-server-secret"


def token(**overrides: object) -> str:
    fields: dict[str, object] = {
        "secret": SECRET, "kind": "run_diff", "subject": "run_a/run_b",
        "workspace_id": "ws_1", "expires_at": 2_000,
    }  # fmt: skip
    fields.update(overrides)
    return sign(**fields)  # type: ignore[arg-type]


def test_a_valid_token_grants_its_workspace_until_it_expires() -> None:
    grant = verify(token(), secret=SECRET, kind="run_diff", subject="run_a/run_b", now=1_999)
    assert (grant.workspace_id, grant.expires_at) == ("ws_1", 2_000)
    with pytest.raises(LinkRefused, match="expired"):
        verify(token(), secret=SECRET, kind="run_diff", subject="run_a/run_b", now=2_000)


@pytest.mark.parametrize(
    ("kind", "subject", "secret"),
    [
        ("report", "run_a/run_b", SECRET),  # another kind of page
        ("run_diff", "run_b/run_a", SECRET),  # the pair the other way round
        ("run_diff", "run_a/run_b", "another-secret"),  # another server's key
    ],
)
def test_a_token_opens_nothing_else(kind: str, subject: str, secret: str) -> None:
    with pytest.raises(LinkRefused):
        verify(token(), secret=secret, kind=kind, subject=subject, now=0)


def test_tampered_and_malformed_tokens_are_refused() -> None:
    payload, signature = token().split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=="))
    claims["w"] = "ws_2"
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    for bad in (f"{forged}.{signature}", f"{payload}.{signature[:-2]}xx", "nodot", "a.b.c", "",
                "x" * 3000, f"{payload}.!!!"):  # fmt: skip
        with pytest.raises(LinkRefused):
            verify(bad, secret=SECRET, kind="run_diff", subject="run_a/run_b", now=0)


def test_read_names_the_subject_and_tells_expiry_from_other_refusals() -> None:
    grant = read(token(), secret=SECRET, kind="run_diff", now=1_999)
    assert (grant.subject, grant.workspace_id) == ("run_a/run_b", "ws_1")
    with pytest.raises(LinkExpired):
        read(token(), secret=SECRET, kind="run_diff", now=2_000)
    refusals: list[Callable[[], LinkGrant]] = [
        lambda: read(token(), secret=SECRET, kind="report", now=0),
        lambda: verify(token(), secret=SECRET, kind="run_diff", subject="run_b/run_a", now=0),
        lambda: read(token(secret="another-secret"), secret=SECRET, kind="run_diff", now=0),
    ]
    for refused in refusals:
        with pytest.raises(LinkRefused) as caught:
            refused()
        assert not isinstance(caught.value, LinkExpired)
