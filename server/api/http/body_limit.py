"""Refuse request bodies over the limit with a coded GraphQL error before parsing them."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send


def _too_large_body(limit: int) -> bytes:
    message = f"the request body is over the {limit}-byte limit"
    return json.dumps(
        {
            "data": None,
            "errors": [{"message": message, "extensions": {"code": "VALIDATION_FAILED"}}],
        }
    ).encode()


class BodyLimitMiddleware:
    """Buffers at most `limit` bytes of an HTTP body, answering 413 beyond it."""

    def __init__(self, app: ASGIApp, *, limit: int, own_limits: tuple[str, ...] = ()) -> None:
        self.app = app
        self.limit = limit
        self.own_limits = own_limits
        """Paths whose endpoint keeps a limit of its own (`POST /v1/traces`: 8 MiB, OTLP's
        answer)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] in ("GET", "HEAD", "OPTIONS")
            or scope["path"] in self.own_limits
        ):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self._refuse(send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        body = _too_large_body(self.limit)
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
