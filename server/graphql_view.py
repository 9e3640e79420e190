"""The Strawberry ASGI view: authentication and rate limiting for HTTP and websockets."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL
from strawberry.exceptions import ConnectionRejectionError
from strawberry.schema import BaseSchema
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.types.unset import UNSET, UnsetType

from server.auth import Actor, authenticate, bearer_token
from server.context import AppState, Context
from server.errors import RateLimited, ShipwiseError


class ShipwiseGraphQL(GraphQL[Context, None]):
    def __init__(self, schema: BaseSchema, state: AppState) -> None:
        super().__init__(
            schema,
            subscription_protocols=[GRAPHQL_TRANSPORT_WS_PROTOCOL],
            keep_alive=True,
            keep_alive_interval=15,
        )
        self.state = state

    async def get_context(
        self,
        request: Request | WebSocket,
        response: Response | WebSocket,  # noqa: ARG002 - Strawberry's signature
    ) -> Context:
        context = Context(app=self.state, request=request)
        if isinstance(request, Request):
            await self._authenticate(context, bearer_token(request.headers.get("authorization")))
        return context

    async def on_ws_connect(self, context: Context) -> UnsetType | dict[str, object] | None:
        """Websockets authenticate once, from the `connection_init` payload; else close 4403."""
        await self._authenticate(context, _token_from_params(context.connection_params or {}))
        try:
            context.require()
        except ShipwiseError as exc:
            raise ConnectionRejectionError() from exc
        unset: UnsetType = UNSET
        return unset

    async def _authenticate(self, context: Context, token: str | None) -> None:
        try:
            async with self.state.sessionmaker() as session:
                actor = await authenticate(session, token)
            await self._check_rate(actor)
        except ShipwiseError as failure:
            context.authenticate_as(None, failure)
        else:
            context.authenticate_as(actor, None)

    async def _check_rate(self, actor: Actor) -> None:
        allowed = await self.state.rate_limiter.hit(
            f"token:{actor.token_id}", limit=actor.requests_per_minute
        )
        if not allowed:
            raise RateLimited(
                f"over {actor.requests_per_minute} requests per minute for this token"
            )


def _token_from_params(params: dict[str, Any]) -> str | None:
    """`{"Authorization": "Bearer …"}`, `{"authorization": …}` or `{"token": …}`."""
    for key in ("Authorization", "authorization"):
        value = params.get(key)
        if isinstance(value, str):
            return bearer_token(value)
    token = params.get("token")
    return token if isinstance(token, str) else None
