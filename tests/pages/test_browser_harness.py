"""The page-test harness itself: Chromium renders a page served on 127.0.0.1 and reports errors."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

PAGE = b"""<!doctype html><html><body><svg id="forest" width="320" height="20"></svg>
<script>document.body.dataset.ready = "yes"; console.error("deliberate");</script>
</body></html>"""


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def page_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


async def test_chromium_renders_and_records_console_errors(
    browser_page: Any,
    page_url: str,
) -> None:
    await browser_page.goto(page_url)
    assert await browser_page.get_attribute("body", "data-ready") == "yes"
    box = await browser_page.locator("svg#forest").bounding_box()
    assert box is not None and box["width"] == 320
    assert browser_page.console_errors == ["console: deliberate"]
