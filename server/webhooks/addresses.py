"""Where a webhook may be sent: http(s) URLs whose host resolves only to public addresses.

The check runs at creation and again before every send, and the send then connects to the
address that was checked (the host still goes in `Host` and TLS SNI), so a name that
re-resolves to a private address between the check and the connection is not followed.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from enum import StrEnum

import httpx

MAX_URL_LENGTH = 2000

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class Refusal(StrEnum):
    """Why a URL cannot be sent to (a bounded code, recorded on the attempt)."""

    INVALID_URL = "INVALID_URL"
    UNRESOLVABLE = "UNRESOLVABLE"
    PRIVATE_ADDRESS = "PRIVATE_ADDRESS"


class Refused(Exception):
    def __init__(self, reason: Refusal, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


@dataclass(frozen=True, slots=True)
class Target:
    """A checked URL: the address to connect to, and the host the request names."""

    url: httpx.URL
    address: str

    @property
    def connect_url(self) -> httpx.URL:
        """The URL with its host replaced by the checked address."""
        return self.url.copy_with(host=self.address)

    @property
    def host_header(self) -> str:
        default = {"http": 80, "https": 443}[self.url.scheme]
        host = self.url.host if ":" not in self.url.host else f"[{self.url.host}]"
        port = self.url.port
        return host if port in (None, default) else f"{host}:{port}"


def parse(url: str) -> httpx.URL:
    """An http(s) URL with a host and no credentials; `Refused(INVALID_URL)` otherwise."""
    invalid = Refused(Refusal.INVALID_URL, "`url` must be an http(s) URL with a host")
    if not url or len(url) > MAX_URL_LENGTH:
        raise Refused(Refusal.INVALID_URL, f"`url` must be 1 to {MAX_URL_LENGTH} characters")
    try:
        parsed = httpx.URL(url.strip())
        port = parsed.port
    except (httpx.InvalidURL, ValueError) as exc:
        raise invalid from exc
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise invalid
    if port is not None and not 1 <= port <= 65535:
        raise invalid
    if parsed.userinfo:
        raise Refused(Refusal.INVALID_URL, "`url` must not contain credentials")
    if parsed.fragment:
        raise Refused(Refusal.INVALID_URL, "`url` must not have a fragment")
    return parsed


def is_public(address: IPAddress) -> bool:
    """Not private, loopback, link-local, multicast, reserved or unspecified (IPv4-mapped
    IPv6 addresses are judged by the IPv4 address they carry)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return not (
        address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
    )


async def resolve(url: httpx.URL) -> list[IPAddress]:
    """Every address the URL's host resolves to (an IP literal resolves to itself)."""
    host = url.host
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    port = url.port or (443 if url.scheme == "https" else 80)
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(
            host, port, type=socket.SOCK_STREAM
        )
    except (OSError, UnicodeError) as exc:  # socket.gaierror is an OSError
        raise Refused(Refusal.UNRESOLVABLE, "the `url`'s host does not resolve") from exc
    found: list[IPAddress] = []
    for *_, sockaddr in infos:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if address not in found:
            found.append(address)
    if not found:
        raise Refused(Refusal.UNRESOLVABLE, "the `url`'s host does not resolve")
    return found


async def check(url: str, *, allow_private: bool) -> Target:
    """The URL checked and pinned to one of its addresses; `Refused` when it may not be used.

    Every address must be public unless `allow_private`: a name with one private address
    among public ones could be steered to it.
    """
    parsed = parse(url)
    addresses = await resolve(parsed)
    if not allow_private and not all(is_public(a) for a in addresses):
        raise Refused(
            Refusal.PRIVATE_ADDRESS,
            "the `url` resolves to a private, loopback or link-local address",
        )
    return Target(url=parsed, address=str(addresses[0]))
