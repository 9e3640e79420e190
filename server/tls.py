"""One TLS context per process for outgoing HTTP clients.

httpx builds a new `ssl.SSLContext` for every client it makes, and building one loads the CA
bundle: about 20 ms of CPU, paid by each connection check, webhook delivery, judge client and
CLI command. The context is shareable, so each process builds it once, with httpx's own
defaults (certificate and host name verified; `SSL_CERT_FILE`/`SSL_CERT_DIR` honoured unless
`trust_env` is off).
"""

from __future__ import annotations

import ssl
from functools import cache

import httpx


@cache
def client_tls(*, trust_env: bool = True) -> ssl.SSLContext:
    """The process's context for `httpx` clients' `verify=`."""
    return httpx.create_ssl_context(trust_env=trust_env)
