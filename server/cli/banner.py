"""What `shipwise serve` prints: one banner, once the server accepts connections."""

from __future__ import annotations

import asyncio
import socket
import sys
from collections.abc import Awaitable, Callable

import uvicorn

from server.cli.demo import Demo, instructions


class BannerServer(uvicorn.Server):
    """uvicorn's server, printing `banner(url)` to stdout right after its start-up."""

    def __init__(
        self,
        config: uvicorn.Config,
        banner: Callable[[str], str],
        after_start: Callable[[str], Awaitable[object]] | None = None,
    ) -> None:
        super().__init__(config)
        self.banner = banner
        self.after_start = after_start
        self._background: set[asyncio.Task[object]] = set()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started and not self.should_exit:
            sys.stdout.write(self.banner(self.url()))
            sys.stdout.flush()
            if self.after_start is not None:  # the demo's traced agent (server/cli/demo_agent.py)
                task = asyncio.ensure_future(self.after_start(self.url()))
                self._background.add(task)
                task.add_done_callback(self._background.discard)

    def url(self) -> str:
        """The address clients use: the bound port, and loopback for a wildcard host."""
        host = self.config.host
        port = self.config.port
        for server in getattr(self, "servers", []):
            for sock in server.sockets or []:
                port = sock.getsockname()[1]
                break
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
        return f"http://{host}:{port}"


def serve_banner(url: str) -> str:
    return (
        f"\nshipwise is serving; the portal at {url}/, GraphQL and GraphiQL at {url}/graphql\n"
        f"Client commands find it with --url {url}, or: export SHIPWISE_URL={url}\n"
    )


def demo_banner(demo: Demo, url: str) -> str:
    return instructions(demo, url)
