"""The pairwise judge of a model connection: the compare package's `PairJudge` over it.

OPENAI_COMPATIBLE: `JudgeClient` on the connection's base URL with its decrypted key and
headers; ANTHROPIC: the Messages API provider (one call is one attempt either way;
`PairJudge` retries). SIMULATED: deterministic by the prompt, shown as simulated. Spend is
estimated (characters ÷ 4 each way) at the connection's prices.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from cryptography.fernet import InvalidToken

from server.connections.headers import decrypt_headers
from server.connections.models import ConnectionKind, ModelConnection
from server.judges.client import (
    BAD_REPLY,
    CONNECTION,
    HTTP_ERROR,
    RATE_LIMITED,
    TIMEOUT,
    JudgeClient,
    JudgeError,
)
from server.judges.pair import Complete, PairJudge, Sleep
from server.judges.pair_prompt import DEFAULT_RUBRIC, VERDICTS
from server.providers.anthropic import AnthropicProvider
from server.providers.base import DispatchError, ModelCall
from server.providers.pricing import Prices, Rates, call_cost
from server.security import SecretBox


class JudgeUnavailable(Exception):
    """The connection cannot be called (no base URL, an undecryptable key)."""


@dataclass(slots=True)
class SpendMeter:
    """The estimated cost of the judge calls that got a reply."""

    prices: Prices
    micros: int = 0
    calls: int = 0

    def add(self, messages: list[dict[str, str]], reply: str) -> None:
        chars = sum(len(m.get("content", "")) for m in messages)
        self.micros += call_cost(
            self.prices, input_tokens=max(1, chars // 4), output_tokens=max(1, len(reply) // 4)
        )
        self.calls += 1


@dataclass(slots=True)
class OpenJudge:
    """A judge ready to use; `aclose` when done."""

    judge: PairJudge
    meter: SpendMeter
    simulated: bool
    concurrency: int
    _client: JudgeClient | AnthropicProvider | None = field(default=None)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()


def rubric_text(content: dict[str, Any]) -> str:
    text = content.get("text")
    return text if isinstance(text, str) and text.strip() else DEFAULT_RUBRIC


def open_judge(
    *,
    connection: ModelConnection,
    config: dict[str, Any],
    rubric: dict[str, Any],
    secrets: SecretBox,
    timeout_seconds: float,
    sleep: Sleep = asyncio.sleep,
) -> OpenJudge:
    """The judge of `config` (a MODEL_CONFIG's content) on its connection."""
    model = str(config.get("model") or "")
    meter = SpendMeter(
        Rates(
            connection.input_micros_per_million_tokens,
            connection.output_micros_per_million_tokens,
        )
    )
    concurrency = max(1, connection.max_concurrency)
    client: JudgeClient | AnthropicProvider | None = None
    if connection.kind == ConnectionKind.SIMULATED:
        base: Complete = _simulated
    else:
        if not connection.base_url:
            raise JudgeUnavailable("the judge's connection has no base URL")
        try:
            api_key = (
                secrets.decrypt(connection.api_key_encrypted)
                if connection.api_key_encrypted
                else None
            )
            headers = decrypt_headers(connection, secrets)
        except InvalidToken:
            raise JudgeUnavailable("the judge's key cannot be decrypted") from None
        if connection.kind == ConnectionKind.ANTHROPIC:
            client = AnthropicProvider(
                connection.base_url,
                api_key,
                headers=headers,
                max_connections=concurrency * 2,
                max_attempts=1,
            )
            base = _messages_judge(client, model, int(config.get("maxOutputTokens") or 1024))
        else:
            client = JudgeClient(
                base_url=connection.base_url,
                model=model,
                api_key=api_key,
                headers=headers,
                timeout_seconds=timeout_seconds,
                max_connections=concurrency * 2,
            )
            base = client.complete

    async def complete(messages: list[dict[str, str]]) -> str:
        reply = await base(messages)
        meter.add(messages, reply)
        return reply

    judge = PairJudge(complete=complete, model=model, rubric=rubric_text(rubric), sleep=sleep)
    return OpenJudge(
        judge=judge,
        meter=meter,
        simulated=connection.kind == ConnectionKind.SIMULATED,
        concurrency=concurrency,
        _client=client,
    )


_JUDGE_ERRORS = {
    DispatchError.PROVIDER_TIMEOUT: (TIMEOUT, True),
    DispatchError.PROVIDER_RATE_LIMITED: (RATE_LIMITED, True),
    DispatchError.PROVIDER_SERVER_ERROR: (HTTP_ERROR, True),
    DispatchError.PROVIDER_UNREACHABLE: (CONNECTION, True),
    DispatchError.PROVIDER_MALFORMED_RESPONSE: (BAD_REPLY, False),
}


def _messages_judge(provider: AnthropicProvider, model: str, max_tokens: int) -> Complete:
    """One Messages API call per judgement; a failure is a `JudgeError` naming its code."""

    async def complete(messages: list[dict[str, str]]) -> str:
        result = await provider.call(
            ModelCall(messages=list(messages), model=model, max_output_tokens=max_tokens)
        )
        if result.error is None:
            return result.output or ""
        error_class, retryable = _JUDGE_ERRORS.get(result.error, (HTTP_ERROR, False))
        raise JudgeError(
            error_class, f"the judge call failed: {result.error.value}", retryable=retryable
        )

    return complete


async def _simulated(messages: list[dict[str, str]]) -> str:
    """A verdict drawn from the prompt's hash: the same prompt, the same verdict."""
    if not messages:
        raise JudgeError(CONNECTION, "the simulated judge got no prompt", retryable=False)
    digest = hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).digest()
    verdicts = list(VERDICTS)
    return json.dumps({"verdict": verdicts[digest[0] % len(verdicts)]})
