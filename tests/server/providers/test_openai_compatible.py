"""The OPENAI_COMPATIBLE provider over real HTTP against the fake provider on 127.0.0.1."""

from __future__ import annotations

import logging
import math
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest

from bench.kit.openai_server import PROVIDER_TEXT, Behaviour, FakeOpenAI, closed_base_url
from server.logs import JsonFormatter
from server.providers.base import CallResult, DispatchError, ModelCall
from server.providers.openai_compatible import (
    OpenAICompatibleProvider,
    backoff_delay,
    parse_retry_after,
)
from tests.server.providers.conftest import PROVIDER_KEY, RecordedSleep

MESSAGES = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "What is the capital of France?"},
]


def _call(**overrides: object) -> ModelCall:
    fields: dict[str, object] = {
        "messages": MESSAGES,
        "model": "fake-1",
        "max_output_tokens": 64,
        "trial_header": "cmp_1/0/3/2",
        "delivery_header": "dlv_7",
    }
    fields.update(overrides)
    return ModelCall(**fields)  # type: ignore[arg-type]


@pytest.fixture
async def provider(
    fake_openai: FakeOpenAI, sleeps: RecordedSleep
) -> AsyncIterator[OpenAICompatibleProvider]:
    p = OpenAICompatibleProvider(
        fake_openai.base_url, PROVIDER_KEY, timeout=httpx.Timeout(2.0), sleep=sleeps
    )
    yield p
    await p.aclose()


async def test_an_answer_with_usage(
    provider: OpenAICompatibleProvider, fake_openai: FakeOpenAI, sleeps: RecordedSleep
) -> None:
    fake_openai.behaviour = Behaviour(reply="Paris.")
    result = await provider.call(_call())
    assert result.error is None
    assert result.output == "Paris."
    assert result.tool_calls == []
    chars = sum(len(m["content"]) for m in MESSAGES)
    assert (result.input_tokens, result.output_tokens) == (math.ceil(chars / 4), 2)
    assert result.attempts == 1
    assert sleeps.delays == []


async def test_the_request_carries_body_and_headers(
    provider: OpenAICompatibleProvider, fake_openai: FakeOpenAI
) -> None:
    tools = [{"type": "function", "function": {"name": "search", "parameters": {}}}]
    params = {"top_p": 0.5, "model": "other", "stream": True, "max_tokens": 99_999}
    await provider.call(_call(temperature=0.2, tools=tools, params=params))
    (request,) = fake_openai.requests
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {PROVIDER_KEY}"
    assert request.headers["x-shipwise-trial"] == "cmp_1/0/3/2"
    assert request.headers["x-shipwise-delivery"] == "dlv_7"
    # `params` are merged, but cannot change the model, the output bound or the shape.
    assert request.body == {
        "top_p": 0.5,
        "model": "fake-1",
        "messages": MESSAGES,
        "max_tokens": 64,
        "temperature": 0.2,
        "tools": tools,
    }


async def test_no_key_sends_no_authorization(fake_openai: FakeOpenAI) -> None:
    fake_openai.api_key = None
    provider = OpenAICompatibleProvider(fake_openai.base_url, None)
    try:
        result = await provider.call(_call())
    finally:
        await provider.aclose()
    assert result.error is None
    assert "authorization" not in fake_openai.requests[0].headers


async def test_tool_calls_are_normalized(
    provider: OpenAICompatibleProvider, fake_openai: FakeOpenAI
) -> None:
    fake_openai.behaviour = Behaviour(
        reply=None,
        tool_calls=(
            {"name": "search", "arguments": {"query": "paris"}},
            {"name": "lookup", "arguments": "not json {"},
        ),
    )
    result = await provider.call(_call())
    assert result.error is None
    assert result.output == ""
    assert result.tool_calls == [
        {"name": "search", "arguments": {"query": "paris"}},
        {"name": "lookup", "arguments": "not json {"},
    ]


async def test_missing_usage_is_estimated_from_characters(
    provider: OpenAICompatibleProvider, fake_openai: FakeOpenAI
) -> None:
    fake_openai.behaviour = Behaviour(reply="x" * 10, usage=False)
    result = await provider.call(_call())
    chars = sum(len(m["content"]) for m in MESSAGES)
    assert (result.input_tokens, result.output_tokens) == (math.ceil(chars / 4), 3)


async def test_a_500_then_success_takes_two_attempts(
    provider: OpenAICompatibleProvider, fake_openai: FakeOpenAI, sleeps: RecordedSleep
) -> None:
    fake_openai.enqueue(Behaviour(status=500, delay_seconds=0.3))
    result = await provider.call(_call())
    assert (result.error, result.output, result.attempts) == (None, "fake reply", 2)
    assert sleeps.delays == [0.5]
    # Latency is the successful attempt's, not the failed one's 300 ms.
    assert 0 <= result.latency_ms < 300
    assert len(fake_openai.requests) == 2


async def test_retry_after_is_honoured(
    provider: OpenAICompatibleProvider, fake_openai: FakeOpenAI, sleeps: RecordedSleep
) -> None:
    fake_openai.enqueue(Behaviour(status=429, retry_after="1"))
    result = await provider.call(_call())
    assert result.error is None
    assert result.attempts == 2
    assert len(sleeps.delays) == 1
    assert sleeps.delays[0] >= 1


async def test_three_500s_give_up_with_a_server_error(
    provider: OpenAICompatibleProvider, fake_openai: FakeOpenAI, sleeps: RecordedSleep
) -> None:
    fake_openai.behaviour = Behaviour(status=503)
    result = await provider.call(_call())
    assert result == CallResult(output=None, attempts=3, error=DispatchError.PROVIDER_SERVER_ERROR)
    assert sleeps.delays == [0.5, 1.0]
    assert len(fake_openai.requests) == 3


async def test_three_429s_give_up_rate_limited(
    provider: OpenAICompatibleProvider, fake_openai: FakeOpenAI
) -> None:
    fake_openai.behaviour = Behaviour(status=429)
    result = await provider.call(_call())
    assert (result.error, result.attempts) == (DispatchError.PROVIDER_RATE_LIMITED, 3)


@pytest.mark.parametrize("status", [400, 404, 422])
async def test_a_client_error_is_not_retried(
    provider: OpenAICompatibleProvider,
    fake_openai: FakeOpenAI,
    sleeps: RecordedSleep,
    status: int,
) -> None:
    fake_openai.behaviour = Behaviour(status=status)
    result = await provider.call(_call())
    assert (result.error, result.attempts) == (DispatchError.PROVIDER_CLIENT_ERROR, 1)
    assert sleeps.delays == []


async def test_a_wrong_key_is_a_client_error(fake_openai: FakeOpenAI) -> None:
    provider = OpenAICompatibleProvider(fake_openai.base_url, "sk-wrong")
    try:
        result = await provider.call(_call())
    finally:
        await provider.aclose()
    assert (result.error, result.attempts) == (DispatchError.PROVIDER_CLIENT_ERROR, 1)


@pytest.mark.parametrize(
    "behaviour",
    [
        Behaviour(status=200, malformed=True),
        Behaviour(body={"choices": []}),
        Behaviour(body={"choices": [{"message": "Paris"}]}),
        Behaviour(body=["not", "an", "object"]),
        Behaviour(body={"choices": [{"message": {"tool_calls": [{"function": {}}]}}]}),
    ],
)
async def test_a_malformed_answer_is_not_retried(
    provider: OpenAICompatibleProvider, fake_openai: FakeOpenAI, behaviour: Behaviour
) -> None:
    fake_openai.behaviour = behaviour
    result = await provider.call(_call())
    assert (result.error, result.attempts) == (DispatchError.PROVIDER_MALFORMED_RESPONSE, 1)
    assert result.output is None


async def test_a_slow_answer_times_out(fake_openai: FakeOpenAI, sleeps: RecordedSleep) -> None:
    provider = OpenAICompatibleProvider(
        fake_openai.base_url, PROVIDER_KEY, timeout=httpx.Timeout(0.2), sleep=sleeps
    )
    fake_openai.behaviour = Behaviour(delay_seconds=1.0)
    try:
        result = await provider.call(_call())
    finally:
        await provider.aclose()
    assert (result.error, result.attempts) == (DispatchError.PROVIDER_TIMEOUT, 3)
    assert sleeps.delays == [0.5, 1.0]


async def test_a_body_that_stalls_times_out(fake_openai: FakeOpenAI, sleeps: RecordedSleep) -> None:
    provider = OpenAICompatibleProvider(
        fake_openai.base_url, PROVIDER_KEY, timeout=httpx.Timeout(0.2), sleep=sleeps
    )
    fake_openai.enqueue(Behaviour(stall_seconds=1.0))
    try:
        result = await provider.call(_call())
    finally:
        await provider.aclose()
    # The stalled body times out; the second attempt answers.
    assert (result.error, result.attempts, result.output) == (None, 2, "fake reply")


async def test_connection_refused_is_unreachable(sleeps: RecordedSleep) -> None:
    provider = OpenAICompatibleProvider(closed_base_url(), PROVIDER_KEY, sleep=sleeps)
    try:
        result = await provider.call(_call())
    finally:
        await provider.aclose()
    assert (result.error, result.attempts) == (DispatchError.PROVIDER_UNREACHABLE, 3)
    assert sleeps.delays == [0.5, 1.0]


async def test_provider_text_and_key_reach_no_result_and_no_log(
    fake_openai: FakeOpenAI, sleeps: RecordedSleep, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    provider = OpenAICompatibleProvider(
        fake_openai.base_url, PROVIDER_KEY, timeout=httpx.Timeout(0.2), sleep=sleeps
    )
    behaviours = [
        Behaviour(status=500),
        Behaviour(status=429, retry_after="0"),
        Behaviour(status=400),
        Behaviour(malformed=True),
        Behaviour(body={"error": {"message": PROVIDER_TEXT}}),
        Behaviour(delay_seconds=0.5),
    ]
    results = []
    try:
        for behaviour in behaviours:
            fake_openai.behaviour = behaviour
            results.append(await provider.call(_call()))
        unreachable = OpenAICompatibleProvider(closed_base_url(), None, sleep=sleeps)
        results.append(await unreachable.call(_call()))
        await unreachable.aclose()
    finally:
        await provider.aclose()
    assert all(r.error is not None for r in results)
    logged = "\n".join(JsonFormatter().format(r) for r in caplog.records)
    assert "provider call failed" in logged
    for secret in (PROVIDER_TEXT, PROVIDER_KEY, "capital of France"):
        assert secret not in repr(results)
        assert secret not in logged


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        (None, None),
        ("", None),
        ("1", 1.0),
        ("2.5", 2.5),
        ("-3", 0.0),
        ("120", 30.0),
        ("nan", None),
        ("soon", None),
        ("Wed, 21 Oct 2015 07:28:00 GMT", 0.0),
    ],
)
def test_retry_after_values(value: str | None, seconds: float | None) -> None:
    assert parse_retry_after(value) == seconds


def test_retry_after_as_an_http_date() -> None:
    now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    assert (
        parse_retry_after(format_datetime(now + timedelta(seconds=10), usegmt=True), now=now) == 10
    )
    assert parse_retry_after(format_datetime(now + timedelta(hours=1), usegmt=True), now=now) == 30


@pytest.mark.parametrize(
    ("index", "retry_after", "delay"),
    [
        (0, None, 0.5),
        (1, None, 1.0),
        (2, None, 2.0),
        (6, None, 30.0),
        (40, None, 30.0),
        (0, 3.0, 3.0),
        (1, 0.0, 1.0),
        (0, 30.0, 30.0),
    ],
)
def test_backoff(index: int, retry_after: float | None, delay: float) -> None:
    assert backoff_delay(index, retry_after) == delay
