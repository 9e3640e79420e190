"""Which addresses a webhook may be sent to, and how far apart its retries are."""

from __future__ import annotations

import ipaddress
from datetime import timedelta

import pytest

from server.webhooks import addresses
from server.webhooks.sender import MAX_ATTEMPTS, retry_delay


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("93.184.215.14", True),
        ("2606:4700::1111", True),
        ("127.0.0.1", False),
        ("10.0.0.1", False),
        ("172.16.5.4", False),
        ("192.168.1.1", False),
        ("169.254.169.254", False),
        ("0.0.0.0", False),
        ("224.0.0.1", False),
        ("::1", False),
        ("fe80::1", False),
        ("fc00::1", False),
        ("::ffff:127.0.0.1", False),
        ("::ffff:93.184.215.14", True),
    ],
)
def test_public_addresses(address: str, public: bool) -> None:
    assert addresses.is_public(ipaddress.ip_address(address)) is public


@pytest.mark.parametrize(
    "url",
    ["ftp://a.example/x", "https://", "mailto:x@y.z", "https://u:p@a.example/", "http://a.b/#f"],
)
def test_urls_that_are_not_http_or_carry_credentials_are_refused(url: str) -> None:
    with pytest.raises(addresses.Refused) as refused:
        addresses.parse(url)
    assert refused.value.reason == addresses.Refusal.INVALID_URL


async def test_a_checked_target_connects_to_the_address_and_names_the_host() -> None:
    target = await addresses.check("https://93.184.215.14:8443/hook?x=1", allow_private=False)
    assert str(target.connect_url) == "https://93.184.215.14:8443/hook?x=1"
    assert target.host_header == "93.184.215.14:8443"
    local = await addresses.check("http://localhost/hook", allow_private=True)
    assert (local.address, local.host_header) == ("127.0.0.1", "localhost")


@pytest.mark.parametrize(
    ("failed", "seconds"), [(1, 10), (2, 20), (3, 40), (4, 80), (5, 160)]
)
def test_retries_wait_ten_seconds_times_two_to_the_n(failed: int, seconds: int) -> None:
    assert retry_delay(failed, 10.0) == timedelta(seconds=seconds)


def test_a_round_has_six_attempts() -> None:
    assert MAX_ATTEMPTS == 6
