"""Outgoing HTTP clients share one TLS context per process (server/tls.py) and it still verifies."""

from __future__ import annotations

import ssl
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from server.connections.checks import check_http
from server.connections.models import ConnectionStatus
from server.tls import client_tls


class _Ok(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def plain_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Ok)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/models"
    finally:
        server.shutdown()


def test_the_shared_context_verifies_certificates_and_host_names() -> None:
    for trust_env in (True, False):
        context = client_tls(trust_env=trust_env)
        assert context.verify_mode is ssl.CERT_REQUIRED
        assert context.check_hostname is True
        assert context.cert_store_stats()["x509_ca"] > 0, "the CA bundle is loaded"
    assert client_tls() is client_tls()


async def test_connection_checks_build_no_tls_context_of_their_own(
    plain_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    client_tls(), client_tls(trust_env=False)  # the process's, built before counting
    built: list[object] = []
    original = ssl.create_default_context

    def counting(*args: Any, **kwargs: Any) -> ssl.SSLContext:
        built.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(ssl, "create_default_context", counting)
    results = [await check_http(url=plain_url, headers={}) for _ in range(3)]
    assert [r.status for r in results] == [ConnectionStatus.READY] * 3
    assert built == []
