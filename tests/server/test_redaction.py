"""`server/redaction.py`, pure: what each kind replaces and what it leaves alone."""

from __future__ import annotations

import pytest

from server.redaction import Redaction, Redactor, luhn_valid


@pytest.mark.parametrize(
    ("kind", "text", "expected"),
    [
        (Redaction.EMAIL, "write to ann.lee+x@mail.example.co.uk.", "write to [email]."),
        (Redaction.PHONE, "call +44 20 7946 0958", "call [phone]"),
        (Redaction.PHONE, "call (415) 555-0100 now", "call [phone] now"),
        (Redaction.PHONE, "on 2026-12-07 order 12345678", "on 2026-12-07 order 12345678"),
        (Redaction.PHONE, "version 1.2.3, 12.50 USD", "version 1.2.3, 12.50 USD"),
        (Redaction.CARD_NUMBER, "card 4111-1111-1111-1111.", "card [card]."),
        (Redaction.CARD_NUMBER, "card 4111 1111 1111 1112", "card 4111 1111 1111 1112"),
        (Redaction.API_KEY, "key sk-ant-api03-abcdefghijklmnopqrst", "key [api_key]"),
        (Redaction.API_KEY, "AKIAIOSFODNN7EXAMPLE and ghp_" + "a" * 36, "[api_key] and [api_key]"),
        (Redaction.API_KEY, "a sketch-of-the-plan", "a sketch-of-the-plan"),
        (Redaction.IP_ADDRESS, "from 10.0.0.255 and fe80::1", "from [ip] and [ip]"),
        (Redaction.IP_ADDRESS, "at 10:30:00, not 999.1.1.1", "at 10:30:00, not 999.1.1.1"),
    ],
)
def test_each_kind(kind: Redaction, text: str, expected: str) -> None:
    redactor = Redactor(kinds=[kind])
    assert redactor.text(text) == expected
    assert redactor.count == (text != expected) * expected.count("[")


@pytest.mark.parametrize(
    ("digits", "valid"),
    [("4111111111111111", True), ("4111111111111112", False), ("79927398713", True)],
)
def test_luhn(digits: str, valid: bool) -> None:
    assert luhn_valid(digits) is valid
