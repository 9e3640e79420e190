"""What every HTTP provider shares: one keep-alive client, retries, and faults as bounded codes.

A provider kind (`openai_compatible`, `anthropic`) says where a call goes, which headers it
carries, how a `ModelCall` becomes a request body and how a 2xx body becomes a `Completion`;
this module does the rest. Provider bodies, exception texts, prompts, outputs, keys and
header values never reach a log line or a `CallResult` other than its `output`: logs carry
codes, HTTP statuses, attempt numbers and exception class names only (docs/errors.md).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx
import orjson
from tenacity import AsyncRetrying, RetryCallState, retry_if_result, stop_after_attempt

from server.providers.base import CallResult, DispatchError, ModelCall
from server.providers.pricing import estimate_input_tokens, estimate_output_tokens
from server.providers.wire import BadAnswer, InvalidTarget, WireClient, header_lines
from server.retrying import Doubling, doubling_delay

logger = logging.getLogger("shipwise.providers")

for _library in ("httpx", "httpcore"):
    # Their INFO and DEBUG lines quote the provider's reason phrase and response headers,
    # which are provider text: only their warnings may reach our logs.
    logging.getLogger(_library).setLevel(logging.WARNING)


@dataclass(frozen=True, slots=True)
class Timeouts:
    """Seconds to open a connection, and to wait for each read of the answer (so a body that
    stalls half-way times out too); None waits forever."""

    connect: float | None = 5.0
    read: float | None = 60.0


ProviderTimeout = Timeouts | httpx.Timeout
"""Ours, or an httpx timeout read as (connect, read)."""
DEFAULT_TIMEOUT = Timeouts()
MAX_ATTEMPTS = 3
BACKOFF_BASE_SECONDS = 0.5
BACKOFF_CAP_SECONDS = 30.0
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
"""A larger answer is treated as malformed: no answer we store is this big."""

Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Completion:
    """A parsed answer; a token count is None when the provider did not report it."""

    output: str
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    input_tokens: int | None = None
    output_tokens: int | None = None


class Malformed(Exception):
    """The body is not the answer the provider's API documents; carries no text on purpose."""


@dataclass(frozen=True, slots=True)
class Attempt:
    """One attempt's outcome: the completion, or the bounded fault (code, HTTP status, whether
    it may be retried and the `Retry-After` asked, the exception's class name)."""

    completion: Completion | None = None
    latency_ms: int = 0
    error: DispatchError | None = None
    retryable: bool = False
    retry_after: float | None = None
    http_status: int | None = None
    error_type: str | None = None


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """`Retry-After` as seconds (delta-seconds or an HTTP date), within 0 … 30; None if unusable."""
    if value is None or not value.strip():
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        try:
            when = parsedate_to_datetime(value.strip())
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - (now or datetime.now(UTC))).total_seconds()
    if not math.isfinite(seconds):
        return None
    return min(max(seconds, 0.0), BACKOFF_CAP_SECONDS)


def backoff_delay(retry_index: int, retry_after: float | None = None) -> float:
    """0.5·2ⁿ s for the n-th retry (n = 0, 1, …), at least `Retry-After`, at most 30 s."""
    delay = doubling_delay(retry_index + 1, BACKOFF_BASE_SECONDS, BACKOFF_CAP_SECONDS)
    if retry_after is not None:
        delay = max(delay, retry_after)
    return min(delay, BACKOFF_CAP_SECONDS)


def trial_headers(call: ModelCall) -> dict[str, str]:
    """`X-Shipwise-Trial` and `X-Shipwise-Delivery`, when the call names them."""
    headers = {}
    if call.trial_header:
        headers["X-Shipwise-Trial"] = call.trial_header
    if call.delivery_header:
        headers["X-Shipwise-Delivery"] = call.delivery_header
    return headers


def _trial_lines(call: ModelCall) -> bytes:
    """`trial_headers` as header lines; our own ids, checked as any header is."""
    return header_lines(trial_headers(call))


def token_count(usage: Any, key: str) -> int | None:
    """`usage[key]` when it is a non-negative integer, else None (not reported)."""
    value = usage.get(key) if isinstance(usage, dict) else None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return None
    return value


def joined_text(parts: list[Any]) -> str:
    """The text of content parts (`{"text": …}` objects), joined; other parts are skipped."""
    texts = [p.get("text") for p in parts if isinstance(p, dict)]
    return "".join(t for t in texts if isinstance(t, str))


def load_json(raw: bytes) -> Any:
    """The body as JSON; `Malformed` when it is not (bad UTF-8 included)."""
    try:
        return orjson.loads(raw)
    except ValueError:  # orjson.JSONDecodeError included
        raise Malformed from None


def _status_failure(status: int, retry_after: str | None) -> Attempt:
    if status == 429:
        return Attempt(
            error=DispatchError.PROVIDER_RATE_LIMITED,
            retryable=True,
            retry_after=parse_retry_after(retry_after),
            http_status=status,
        )
    if status >= 500:  # Anthropic's 529 "overloaded" included
        return Attempt(
            error=DispatchError.PROVIDER_SERVER_ERROR,
            retryable=True,
            retry_after=parse_retry_after(retry_after),
            http_status=status,
        )
    # 4xx (a bad key, an unknown model, a refused request) and unfollowed redirects: the
    # same request would fail again, so it is not retried.
    return Attempt(error=DispatchError.PROVIDER_CLIENT_ERROR, http_status=status)


def client_timeout(timeout: ProviderTimeout) -> Timeouts:
    """Our timeouts for either kind: an httpx timeout is read as (connect, read)."""
    if isinstance(timeout, Timeouts):
        return timeout
    return Timeouts(connect=timeout.connect, read=timeout.read)


def provider_timeout(read_seconds: float) -> Timeouts:
    """The settings' provider timeout: each read within `read_seconds`, a connect within 5 s."""
    return Timeouts(connect=5.0, read=read_seconds)


class HttpProvider(ABC):
    """`POST` one JSON body to the API's endpoint, retried on 429, 5xx, timeouts and
    connection errors. A kind says where (`endpoint`), with which headers (`fixed_headers`),
    what the body is (`request_body`) and what a 2xx JSON object means (`completion`).

    One `WireClient` (`server.providers.wire`: keep-alive, at most `max_connections`
    sockets, the request head written once) is created in the running loop on the first call
    and closed by `aclose`; the fixed headers (the key, the connection's extra headers) live
    only in that client, never on this object.
    """

    simulated = False

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        *,
        headers: Mapping[str, str] | None = None,
        timeout: ProviderTimeout = DEFAULT_TIMEOUT,
        max_connections: int = 8,
        sleep: Sleep = asyncio.sleep,
        max_attempts: int = MAX_ATTEMPTS,
    ) -> None:
        self._url = self.endpoint(base_url)
        self._timeout = client_timeout(timeout)
        self._max_connections = max(1, max_connections)
        self._headers: dict[str, str] | None = {
            "Content-Type": "application/json",
            **self.fixed_headers(api_key, headers or {}),
        }
        self._wire: WireClient | None = None
        self._closed = False
        self._sleep = sleep
        self._max_attempts = max(1, max_attempts)

    @staticmethod
    @abstractmethod
    def endpoint(base_url: str) -> str:
        """Where a call goes, from the connection's base URL."""

    @staticmethod
    @abstractmethod
    def fixed_headers(api_key: str | None, headers: Mapping[str, str]) -> dict[str, str]:
        """Every request's headers: the key's and the connection's extra ones."""

    @abstractmethod
    def request_body(self, call: ModelCall) -> dict[str, Any]:
        """The JSON body of `call` in the provider's API."""

    @abstractmethod
    def completion(self, data: dict[str, Any]) -> Completion:
        """The answer in a 2xx JSON object; raises `Malformed`."""

    def parse(self, raw: bytes) -> Completion:
        """A 2xx body: a JSON object the kind reads (`completion`); raises `Malformed`."""
        data = load_json(raw)
        if not isinstance(data, dict):
            raise Malformed
        return self.completion(data)

    @property
    def closed(self) -> bool:
        return self._closed

    def _client(self) -> WireClient:
        if self._wire is None:
            if self._closed or self._headers is None:
                raise RuntimeError("provider is closed")
            self._wire = WireClient(
                self._url,
                self._headers,
                connect_timeout=self._timeout.connect,
                read_timeout=self._timeout.read,
                max_connections=self._max_connections,
                max_bytes=MAX_RESPONSE_BYTES,
            )
            self._headers = None
        return self._wire

    async def call(self, request: ModelCall) -> CallResult:
        """The answer after at most `max_attempts` attempts; faults become error codes.

        The retries are tenacity's, with the service's waits (`server.retrying`). The first
        attempt is made before tenacity is built: building and running it costs ~60 µs a
        call, about this client's whole CPU per call (`bench/dispatch.py`), and nearly
        every call succeeds at once, so only a call that failed pays for it."""
        body = orjson.dumps(self.request_body(request), default=str)
        headers = _trial_lines(request)
        first = await self._attempt(body, headers)
        if first.completion is not None:
            return _result(request, first.completion, first.latency_ms, 1)
        pending = [first]  # tenacity's first attempt is the one already made
        made = 0

        async def attempt() -> Attempt:
            nonlocal made
            made += 1
            return pending.pop() if pending else await self._attempt(body, headers)

        outcome: Attempt = await AsyncRetrying(
            stop=stop_after_attempt(self._max_attempts),
            retry=retry_if_result(_retryable),
            wait=Doubling(BACKOFF_BASE_SECONDS, BACKOFF_CAP_SECONDS, asked=_retry_after),
            sleep=self._sleep,
            before_sleep=_log_retry,
            retry_error_callback=_last_outcome,
        )(attempt)
        if outcome.completion is not None:
            return _result(request, outcome.completion, outcome.latency_ms, made)
        error = outcome.error or DispatchError.DISPATCH_INTERNAL
        logger.warning("provider call failed", extra=_log_fields(outcome, made))
        return CallResult(output=None, attempts=made, error=error)

    async def attempt(self, request: ModelCall) -> Attempt:
        """One attempt and no retries, for a caller with its own rules (the judges')."""
        body = orjson.dumps(self.request_body(request), default=str)
        return await self._attempt(body, _trial_lines(request))

    async def _attempt(self, body: bytes, headers: bytes) -> Attempt:
        started = time.monotonic()
        status: int | None = None
        try:
            answer = await self._client().post(body, headers)
            status = answer.status
            if not 200 <= status < 300:
                # The error body is never read: it is provider text.
                return _status_failure(status, answer.retry_after)
            completion = self.parse(answer.body)
        except TimeoutError as exc:  # a connect or a read that took too long
            return Attempt(
                error=DispatchError.PROVIDER_TIMEOUT, retryable=True, error_type=_name(exc)
            )
        except InvalidTarget as exc:  # a URL nobody can be asked at
            return Attempt(error=DispatchError.PROVIDER_UNREACHABLE, error_type=_name(exc))
        except OSError as exc:
            # Refused, reset, DNS, TLS, a server that hung up: nobody answered usefully.
            return Attempt(
                error=DispatchError.PROVIDER_UNREACHABLE, retryable=True, error_type=_name(exc)
            )
        except (Malformed, BadAnswer) as exc:
            # A 2xx that is not an answer: asking again would most likely repeat it.
            return Attempt(
                error=DispatchError.PROVIDER_MALFORMED_RESPONSE,
                http_status=status,
                error_type=_name(exc),
            )
        latency_ms = round((time.monotonic() - started) * 1000)
        return Attempt(completion=completion, latency_ms=latency_ms)

    async def aclose(self) -> None:
        """Close the client and its connections."""
        self._closed = True
        if self._wire is not None:
            await self._wire.aclose()


def _name(exc: BaseException) -> str:
    return type(exc).__name__


def _retryable(outcome: Attempt) -> bool:
    return outcome.completion is None and outcome.retryable


def _retry_after(state: RetryCallState) -> float | None:
    outcome: Attempt | None = state.outcome.result() if state.outcome is not None else None
    return outcome.retry_after if outcome is not None else None


def _last_outcome(state: RetryCallState) -> Attempt:
    """The last attempt's outcome when tenacity stops: the call's failure."""
    assert state.outcome is not None
    outcome: Attempt = state.outcome.result()
    return outcome


def _log_fields(outcome: Attempt, attempt: int) -> dict[str, Any]:
    return {
        "error_code": (outcome.error or DispatchError.DISPATCH_INTERNAL).value,
        "http_status": outcome.http_status,
        "error_type": outcome.error_type,
        "attempt": attempt,
    }


def _log_retry(state: RetryCallState) -> None:
    logger.warning(
        "provider attempt failed; retrying",
        extra=_log_fields(_last_outcome(state), state.attempt_number),
    )


def _result(
    request: ModelCall, completion: Completion, latency_ms: int, attempts: int
) -> CallResult:
    input_tokens = completion.input_tokens
    if input_tokens is None:
        input_tokens = estimate_input_tokens(request.messages)
    output_tokens = completion.output_tokens
    if output_tokens is None:
        output_tokens = estimate_output_tokens(completion.output, completion.tool_calls)
    return CallResult(
        output=completion.output,
        tool_calls=completion.tool_calls,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        latency_ms=latency_ms,
        attempts=attempts,
    )
