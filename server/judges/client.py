"""The pairwise judge client: one OpenAI-compatible chat completion per call, through the
provider path's client and adapter (`server.providers`: one wire client, bounded faults).

One call is one attempt; retries belong to `server.judges.pair`. A failure is a
`JudgeError` with an error class, whether it is retryable (timeout, 429, connection) and a
short message of our own: the endpoint's error body is never read or repeated.
"""

from __future__ import annotations

from typing import Any, Final
from urllib.parse import urlsplit

from server.providers.base import DispatchError, ModelCall
from server.providers.http import Attempt, Timeouts
from server.providers.openai_compatible import OpenAICompatibleProvider

TIMEOUT: Final = "timeout"
RATE_LIMITED: Final = "rate_limited"
CONNECTION: Final = "connection"
HTTP_ERROR: Final = "http_error"
BAD_REPLY: Final = "bad_reply"
MAX_MESSAGE_CHARS: Final = 300
MAX_REPLY_BYTES: Final = 1024 * 1024


class JudgeError(Exception):
    """One failed judge call: `error_class`, `retryable` and a bounded `message`."""

    def __init__(
        self, error_class: str, message: str, *, retryable: bool, retry_after: float | None = None
    ) -> None:
        super().__init__(message[:MAX_MESSAGE_CHARS])
        self.error_class = error_class
        self.message = message[:MAX_MESSAGE_CHARS]
        self.retryable = retryable
        self.retry_after = retry_after


class _JudgeProvider(OpenAICompatibleProvider):
    """The provider path's OpenAI-compatible adapter with the judge's body: the model and
    the messages only (no `temperature` or `max_tokens`: reasoning models refuse any but
    their defaults); a base URL may already end in `/chat/completions`."""

    @staticmethod
    def endpoint(base_url: str) -> str:
        base = base_url.rstrip("/")
        return base if base.endswith("/chat/completions") else base + "/chat/completions"

    def request_body(self, call: ModelCall) -> dict[str, Any]:
        return {"model": call.model, "messages": call.messages}


class JudgeClient:
    """`POST {base_url}/chat/completions` with the judge model through the provider path's
    client (`server.providers`); `complete` returns the text, one attempt a call."""

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        headers: dict[str, str] | None = None,
        timeout_seconds: float = 120.0,
        max_connections: int = 16,
    ) -> None:
        self._provider = _JudgeProvider(
            base_url,
            api_key,
            headers=headers,
            timeout=Timeouts(connect=timeout_seconds, read=timeout_seconds),
            max_connections=max_connections,
            max_attempts=1,
        )
        self._url = _JudgeProvider.endpoint(base_url)
        self._host = urlsplit(self._url).netloc or self._url
        self.model = model
        self._timeout_seconds = timeout_seconds

    async def complete(self, messages: list[dict[str, str]]) -> str:
        """The assistant's text for `messages`; JudgeError on any failure."""
        call = ModelCall(messages=list(messages), model=self.model, max_output_tokens=0)
        outcome = await self._provider.attempt(call)
        if outcome.completion is not None:
            if len(outcome.completion.output.encode()) > MAX_REPLY_BYTES:
                raise JudgeError(BAD_REPLY, "the judge's reply is too large", retryable=False)
            return outcome.completion.output
        raise self._error(outcome)

    def _error(self, outcome: Attempt) -> JudgeError:
        status = outcome.http_status
        if outcome.error is DispatchError.PROVIDER_TIMEOUT:
            millis = round(self._timeout_seconds * 1000)
            return JudgeError(
                TIMEOUT, f"Timeout after {millis}ms waiting for the judge", retryable=True
            )
        if outcome.error is DispatchError.PROVIDER_UNREACHABLE and not outcome.retryable:
            return JudgeError(CONNECTION, f"cannot use the judge URL {self._url}", retryable=False)
        if outcome.error is DispatchError.PROVIDER_UNREACHABLE:
            return JudgeError(
                CONNECTION,
                f"cannot connect to the judge at {self._host} ({outcome.error_type})",
                retryable=True,
            )
        if outcome.error is DispatchError.PROVIDER_MALFORMED_RESPONSE or status is None:
            return JudgeError(
                BAD_REPLY, "the judge's reply is not a chat completion", retryable=False
            )
        if status == 429:
            return JudgeError(
                RATE_LIMITED,
                "HTTP 429 from the judge (rate limited)",
                retryable=True,
                retry_after=outcome.retry_after,
            )
        if status in (401, 403):
            hint = " (check SHIPWISE_JUDGE_API_KEY)"
        elif status == 404:
            hint = f' (is model "{self.model}" available?)'
        else:
            hint = ""
        return JudgeError(HTTP_ERROR, f"HTTP {status} from the judge{hint}", retryable=False)

    async def aclose(self) -> None:
        """Close the pooled connections."""
        await self._provider.aclose()
