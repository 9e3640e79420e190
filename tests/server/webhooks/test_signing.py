"""The `Shipwise-Signature` header, checked against HMAC-SHA256 computed here."""

from __future__ import annotations

import hashlib
import hmac

from server.webhooks import signing

BODY = b'{"event":"RUN_REGRESSED","id":"evt_1"}'


def test_the_header_is_t_and_the_hex_hmac_of_t_dot_body() -> None:
    expected = hmac.new(b"s3cret", b"1700000000." + BODY, hashlib.sha256).hexdigest()
    assert signing.header("s3cret", 1_700_000_000, BODY) == f"t=1700000000,v1={expected}"


def test_a_receiver_accepts_a_fresh_signature_and_refuses_a_stale_or_forged_one() -> None:
    value = signing.header("s3cret", 1_700_000_000, BODY)
    assert signing.verify("s3cret", value, BODY, now=1_700_000_000 + 299)
    assert not signing.verify("s3cret", value, BODY, now=1_700_000_000 + 301)
    assert not signing.verify("other", value, BODY, now=1_700_000_000)
    assert not signing.verify("s3cret", value, BODY + b" ", now=1_700_000_000)
    assert not signing.verify("s3cret", "v1=abc", BODY, now=1_700_000_000)


def test_the_body_is_compact_json_with_sorted_keys() -> None:
    assert signing.body_of({"b": 1, "a": [1, 2]}) == b'{"a":[1,2],"b":1}'
