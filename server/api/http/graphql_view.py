"""The Strawberry ASGI view: authentication and rate limiting for HTTP and websockets.

Every refusal at the HTTP level (a body that is not one JSON object, an unsupported content
type, a mutation over GET, …) answers a coded GraphQL error in JSON with a 4xx status, so
a client reads it like any other error and its keep-alive connection goes on working.
Answers are `application/json`, or `application/graphql-response+json` when the client's
`Accept` prefers it (`server.api.http.media_type`).
"""

from __future__ import annotations

import json
import logging
from functools import partial
from typing import Any, cast

import orjson
from cross_web import AsyncHTTPRequestAdapter, HTTPException, parse_content_type
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL
from strawberry.exceptions import ConnectionRejectionError
from strawberry.http import GraphQLHTTPResponse, GraphQLRequestData
from strawberry.schema import BaseSchema
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.types import ExecutionResult, SubscriptionExecutionResult
from strawberry.types.unset import UNSET, UnsetType

from server.api.context import Context
from server.api.http import persisted
from server.api.http.body import decode_json, operation_from_body
from server.api.http.cached_reads import RULES
from server.api.http.compiled_documents import CompiledDocuments
from server.api.http.graphql_errors import (
    INTERNAL_MESSAGE,
    UNAVAILABLE_MESSAGE,
    to_coded_error,
)
from server.api.http.media_type import (
    CONTENT_TYPES,
    GRAPHQL_RESPONSE,
    JSON,
    answer_status,
    negotiate,
)
from server.api.http.response_cache import EncodedResult, ResponseCache
from server.auth import bearer_token
from server.db_retry import database_unavailable
from server.errors import ErrorCode, RateLimited, ShipwiseError
from server.graphiql import page as graphiql_page
from server.state import AppState
from server.workspaces.roles import Actor

logger = logging.getLogger("shipwise.http")


def error_response(message: str, code: ErrorCode, status: int, media_type: str = JSON) -> Response:
    """`{"data": null, "errors": [{"message", "extensions": {"code"}}]}` with `status`; no
    `data` in `application/graphql-response+json`, where nothing ran means no `data`."""
    body: dict[str, object] = {"errors": [{"message": message, "extensions": {"code": code.value}}]}
    if media_type == JSON:
        body = {"data": None, **body}
    return Response(
        json.dumps(body),
        status_code=status,
        headers={"Content-Type": CONTENT_TYPES[media_type], "Vary": "Accept"},
    )


class ShipwiseGraphQL(GraphQL[Context, None]):
    def __init__(
        self,
        schema: BaseSchema,
        state: AppState,
        persisted_documents: dict[str, str] | None = None,
    ) -> None:
        super().__init__(
            schema,
            subscription_protocols=[GRAPHQL_TRANSPORT_WS_PROTOCOL],
            keep_alive=True,
            keep_alive_interval=15,
        )
        self.state = state
        self.persisted = persisted_documents or {}
        """The portal's documents by hash (`server.api.http.persisted`)."""
        self.compiled = CompiledDocuments(schema, self.persisted, state.settings)
        """The same documents compiled, answered from their plans."""
        self.responses = ResponseCache(
            state.engine,
            rules=RULES,
            max_bytes=state.settings.response_cache_bytes,
            max_tokens=state.settings.max_query_tokens,
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        request = Request(scope, receive)
        media_type = negotiate(request.headers.get("accept")) or JSON
        try:
            response = await self.run(request)
        except HTTPException as refusal:
            response = error_response(
                refusal.reason, ErrorCode.VALIDATION_FAILED, refusal.status_code, media_type
            )
        except Exception as exc:  # answered in JSON all the same: never a bare 500
            if database_unavailable(exc):  # e.g. the token's read, before GraphQL ran
                response = error_response(
                    UNAVAILABLE_MESSAGE, ErrorCode.UNAVAILABLE, 503, media_type
                )
                response.headers["Retry-After"] = "1"
                await response(scope, receive, send)
                return
            logger.error(
                "unexpected error in the GraphQL view", extra={"error_type": type(exc).__name__}
            )
            response = error_response(INTERNAL_MESSAGE, ErrorCode.INTERNAL, 500, media_type)
        await response(scope, receive, send)

    async def render_graphql_ide(self, request: Request) -> Response:
        url = str(request.url.replace(query=""))
        return graphiql_page.render(self.state.settings.graphiql_assets_dir, url)

    async def get_sub_response(self, request: Request | WebSocket) -> Response:
        """It carries the answer's media type, negotiated once, to `create_response`."""
        sub_response = await super().get_sub_response(request)
        sub_response.media_type = negotiate(request.headers.get("accept"))
        sub_response.headers["Vary"] = "Accept"
        return sub_response

    def create_response(
        self, response_data: GraphQLHTTPResponse | list[GraphQLHTTPResponse], sub_response: Response
    ) -> Response:
        """An answer from `ResponseCache` goes out as its kept bytes. In
        `application/graphql-response+json` a request error answers 400 without `data`."""
        media_type = sub_response.media_type or JSON
        if isinstance(response_data, _Encoded):
            response = Response(response_data.body)
            response.headers.raw.extend(sub_response.headers.raw)
        else:
            if media_type == GRAPHQL_RESPONSE and isinstance(response_data, dict):
                status = answer_status(response_data)
                if status != 200:
                    sub_response.status_code = status
                    response_data = cast(
                        GraphQLHTTPResponse,
                        {key: value for key, value in response_data.items() if key != "data"},
                    )
            response = super().create_response(response_data, sub_response)
        response.headers["Content-Type"] = CONTENT_TYPES[media_type]
        return response

    def encode_json(self, data: object) -> str:
        """orjson: several times faster than `json` on the large results of a case page.
        Text, not bytes: websocket messages must go out as text frames."""
        try:
            return orjson.dumps(data).decode()
        except (TypeError, orjson.JSONEncodeError):  # e.g. an integer beyond 64 bits
            return json.dumps(data, separators=(",", ":"))

    def decode_json(self, data: str | bytes) -> object:
        return decode_json(data)

    async def parse_http_body(
        self, request: AsyncHTTPRequestAdapter
    ) -> GraphQLRequestData | list[GraphQLRequestData]:
        if negotiate(request.headers.get("accept")) is None:
            raise HTTPException(406, f"accept {JSON} or {GRAPHQL_RESPONSE}")
        if request.method == "GET":
            return await super().parse_http_body(request)
        content_type, _ = parse_content_type(request.content_type or "")
        if content_type != "application/json":
            raise HTTPException(415, "send the operation as an application/json body")
        operation = operation_from_body(self.decode_json(await request.get_body()))
        return persisted.resolved(operation, self.persisted)

    async def execute_operation(
        self,
        request: Request,
        request_adapter: AsyncHTTPRequestAdapter,
        request_data: GraphQLRequestData | list[GraphQLRequestData],
        context: Context,
        root_value: None,
        sub_response: Response,
    ) -> ExecutionResult | list[ExecutionResult] | SubscriptionExecutionResult:
        """One plain HTTP operation may be answered from `ResponseCache` (reads of frozen
        data, checked per request) or from its compiled document (`compiled`, when it names
        a persisted one); batches and streams always run through the schema."""
        through_schema = partial(
            super().execute_operation,
            request=request,
            request_adapter=request_adapter,
            request_data=request_data,
            context=context,
            root_value=root_value,
            sub_response=sub_response,
        )
        if not isinstance(request_data, GraphQLRequestData) or request_data.protocol != "http":
            return await through_schema()
        compiled, operation = self.compiled, request_data

        async def execute() -> ExecutionResult:
            answered = await compiled.answer(context, operation)
            return answered if answered is not None else await through_schema()  # type: ignore[return-value]

        return await self.responses.answer(context, request_data, execute)

    async def process_result(
        self, request: Request, result: ExecutionResult
    ) -> GraphQLHTTPResponse:
        """Errors raised outside the masking extension's reach still leave with a code."""
        if isinstance(result, EncodedResult):
            return cast(GraphQLHTTPResponse, _Encoded(result.body))
        if result.errors:
            result.errors = [
                error if (error.extensions or {}).get("code") else to_coded_error(error)
                for error in result.errors
            ]
        return await super().process_result(request, result)

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
            actor = await self.state.tokens.authenticate(token)
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


class _Encoded(dict[str, object]):
    """A kept answer on its way from `process_result` to `create_response`, as bytes."""

    def __init__(self, body: bytes) -> None:
        super().__init__()
        self.body = body


def _token_from_params(params: dict[str, Any]) -> str | None:
    """`{"Authorization": "Bearer …"}`, `{"authorization": …}` or `{"token": …}`."""
    for key in ("Authorization", "authorization"):
        value = params.get(key)
        if isinstance(value, str):
            return bearer_token(value)
    token = params.get("token")
    return token if isinstance(token, str) else None
