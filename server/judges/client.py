"""The pairwise judge client: one OpenAI-compatible chat completion per call, over httpx.

One call is one attempt; retries belong to `server.judges.pair`. A failure is a
`JudgeError` with an error class, whether it is retryable (timeout, 429, connection) and a
short message of our own: the endpoint's error body is never read or repeated.
"""

from __future__ import annotations

import json
from typing import Any, Final
from urllib.parse import urlsplit

import httpx

from server.providers.openai_compatible import parse_retry_after
from server.tls import client_tls

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


class JudgeClient:
    """`POST {base_url}/chat/completions` with the judge model; `complete` returns the text."""

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
        base = base_url.rstrip("/")
        self._url = base if base.endswith("/chat/completions") else base + "/chat/completions"
        self._host = urlsplit(self._url).netloc or self._url
        self.model = model
        self._timeout_seconds = timeout_seconds
        headers = dict(headers or {})
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        limits = httpx.Limits(
            max_connections=max_connections, max_keepalive_connections=max_connections
        )
        # Waiting for a pooled connection is not the judge being slow: no pool timeout.
        self._client = httpx.AsyncClient(
            timeout=httpx.Timeout(timeout_seconds, pool=None),
            limits=limits,
            headers=headers,
            follow_redirects=False,
            verify=client_tls(),
        )

    async def complete(self, messages: list[dict[str, str]]) -> str:
        """The assistant's text for `messages`; JudgeError on any failure."""
        # No `temperature`: reasoning models refuse any but their default.
        body = {"model": self.model, "messages": messages}
        try:
            async with self._client.stream("POST", self._url, json=body) as response:
                if not 200 <= response.status_code < 300:
                    raise self._status_error(response)
                raw = await _read_capped(response)
        except httpx.TimeoutException:
            millis = round(self._timeout_seconds * 1000)
            raise JudgeError(
                TIMEOUT, f"Timeout after {millis}ms waiting for the judge", retryable=True
            ) from None
        except (httpx.UnsupportedProtocol, httpx.InvalidURL):
            raise JudgeError(
                CONNECTION, f"cannot use the judge URL {self._url}", retryable=False
            ) from None
        except (httpx.TransportError, OSError) as exc:
            raise JudgeError(
                CONNECTION,
                f"cannot connect to the judge at {self._host} ({type(exc).__name__})",
                retryable=True,
            ) from None
        return _content(raw)

    def _status_error(self, response: httpx.Response) -> JudgeError:
        status = response.status_code
        if status == 429:
            return JudgeError(
                RATE_LIMITED,
                "HTTP 429 from the judge (rate limited)",
                retryable=True,
                retry_after=parse_retry_after(response.headers.get("retry-after")),
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
        await self._client.aclose()


async def _read_capped(response: httpx.Response) -> bytes:
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > MAX_REPLY_BYTES:
            raise JudgeError(BAD_REPLY, "the judge's reply is too large", retryable=False)
        chunks.append(chunk)
    return b"".join(chunks)


def _content(raw: bytes) -> str:
    try:
        data: Any = json.loads(raw)
        content = data["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise JudgeError(
            BAD_REPLY, "the judge's reply is not a chat completion", retryable=False
        ) from None
    if isinstance(content, list):  # content parts: keep the text ones
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    if not isinstance(content, str):
        raise JudgeError(BAD_REPLY, "the judge's reply has no text", retryable=False)
    return content
