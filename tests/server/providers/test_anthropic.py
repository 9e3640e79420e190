"""The ANTHROPIC provider against a fake Messages API: the request it sends, the answer it
reads, retries on 429/529/5xx honouring `retry-after`, and faults as bounded codes."""

from __future__ import annotations

import logging
import math
from collections.abc import AsyncIterator

import httpx
import pytest

from bench.kit.openai_server import PROVIDER_TEXT, Behaviour
from server.connections.endpoints import anthropic_root
from server.providers.anthropic import AnthropicProvider, request_body
from server.providers.base import CallResult, DispatchError, ModelCall
from tests.conftest import PROVIDER_KEY
from tests.fakes.anthropic_server import FakeAnthropic
from tests.server.providers.conftest import RecordedSleep

MESSAGES = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "What is the capital of France?"},
]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "lookup_capital",
            "description": "The capital of a country.",
            "parameters": {"type": "object", "properties": {"country": {"type": "string"}}},
        },
    }
]


def _call(**overrides: object) -> ModelCall:
    fields: dict[str, object] = {
        "messages": MESSAGES,
        "model": "claude-fake-1",
        "max_output_tokens": 64,
        "trial_header": "cmp_1/0/3/2",
        "delivery_header": "dlv_7",
    }
    fields.update(overrides)
    return ModelCall(**fields)  # type: ignore[arg-type]


@pytest.fixture
async def provider(
    fake_anthropic: FakeAnthropic, sleeps: RecordedSleep
) -> AsyncIterator[AnthropicProvider]:
    p = AnthropicProvider(
        fake_anthropic.base_url, PROVIDER_KEY, timeout=httpx.Timeout(2.0), sleep=sleeps
    )
    yield p
    await p.aclose()


@pytest.mark.parametrize(
    ("base", "root"),
    [
        ("https://api.anthropic.com", "https://api.anthropic.com/v1"),
        ("https://api.anthropic.com/", "https://api.anthropic.com/v1"),
        ("https://api.anthropic.com/v1", "https://api.anthropic.com/v1"),
        ("https://gateway.example/anthropic/v1/", "https://gateway.example/anthropic/v1"),
    ],
)
def test_the_api_root_takes_a_base_with_or_without_v1(base: str, root: str) -> None:
    assert anthropic_root(base) == root


async def test_the_request_has_the_messages_api_shape_and_headers(
    provider: AnthropicProvider, fake_anthropic: FakeAnthropic
) -> None:
    params = {"top_k": 5, "stop": "END", "tool_choice": "required", "model": "x", "stream": True}
    result = await provider.call(_call(temperature=0.2, tools=TOOLS, params=params))
    assert result.error is None
    (request,) = fake_anthropic.requests
    assert (request.method, request.path) == ("POST", "/v1/messages")
    assert request.headers["x-api-key"] == PROVIDER_KEY
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in request.headers
    assert request.headers["x-shipwise-trial"] == "cmp_1/0/3/2"
    assert request.headers["x-shipwise-delivery"] == "dlv_7"
    # The system message moved to `system`; tools in the Messages API's own form; OpenAI's
    # `stop` and `tool_choice` said in its words; the fixed fields win over `params`.
    assert request.body == {
        "top_k": 5,
        "stop_sequences": ["END"],
        "tool_choice": {"type": "any"},
        "model": "claude-fake-1",
        "messages": [{"role": "user", "content": "What is the capital of France?"}],
        "max_tokens": 64,
        "system": "Be brief.",
        "temperature": 0.2,
        "tools": [
            {
                "name": "lookup_capital",
                "input_schema": TOOLS[0]["function"]["parameters"],  # type: ignore[index]
                "description": "The capital of a country.",
            }
        ],
    }


def test_turns_with_tool_calls_and_results_are_mapped() -> None:
    turns = [
        {"role": "developer", "content": [{"type": "text", "text": "Use tools."}]},
        {"role": "user", "content": [{"type": "text", "text": "France?"}]},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "lookup_capital", "arguments": '{"country": "France"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "Paris"},
    ]
    body = request_body(_call(messages=turns))
    assert body["system"] == "Use tools."
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "France?"}]},
        {
            "role": "assistant",
            "content": [
                {
                    "type": "tool_use",
                    "id": "call_1",
                    "name": "lookup_capital",
                    "input": {"country": "France"},
                }
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "call_1", "content": "Paris"}],
        },
    ]


async def test_text_tool_use_and_usage_are_read(
    provider: AnthropicProvider, fake_anthropic: FakeAnthropic, sleeps: RecordedSleep
) -> None:
    fake_anthropic.behaviour = Behaviour(
        reply="Paris.", tool_calls=({"name": "lookup_capital", "arguments": {"country": "FR"}},)
    )
    result = await provider.call(_call(tools=TOOLS))
    chars = sum(len(m["content"]) for m in MESSAGES)
    assert result == CallResult(
        output="Paris.",
        tool_calls=[{"name": "lookup_capital", "arguments": {"country": "FR"}}],
        input_tokens=math.ceil(chars / 4),
        output_tokens=2,
        latency_ms=result.latency_ms,
        attempts=1,
    )
    assert sleeps.delays == []


@pytest.mark.parametrize(
    ("usage", "tokens"),
    [
        ({"input_tokens": 10, "output_tokens": 4}, (10, 4)),
        # Cached prompt tokens are counted apart by the API; they are still input.
        (
            {
                "input_tokens": 10,
                "cache_creation_input_tokens": 5,
                "cache_read_input_tokens": 20,
                "output_tokens": 4,
            },
            (35, 4),
        ),
    ],
)
async def test_usage_counts_every_input_token(
    provider: AnthropicProvider,
    fake_anthropic: FakeAnthropic,
    usage: dict[str, int],
    tokens: tuple[int, int],
) -> None:
    fake_anthropic.behaviour = Behaviour(
        body={
            "type": "message",
            "role": "assistant",
            "content": [{"type": "thinking", "thinking": "…"}, {"type": "text", "text": "ok"}],
            "usage": usage,
        }
    )
    result = await provider.call(_call())
    assert (result.output, result.input_tokens, result.output_tokens) == ("ok", *tokens)


async def test_a_529_then_success_honours_retry_after(
    provider: AnthropicProvider, fake_anthropic: FakeAnthropic, sleeps: RecordedSleep
) -> None:
    fake_anthropic.enqueue(Behaviour(status=529, retry_after="7"))
    result = await provider.call(_call())
    assert (result.error, result.output, result.attempts) == (None, "fake reply", 2)
    assert sleeps.delays == [7.0]  # longer than the 0.5 s backoff: the provider's wait wins
    assert len(fake_anthropic.requests) == 2


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (429, DispatchError.PROVIDER_RATE_LIMITED),
        (500, DispatchError.PROVIDER_SERVER_ERROR),
        (529, DispatchError.PROVIDER_SERVER_ERROR),
    ],
)
async def test_retryable_statuses_give_up_after_three_attempts(
    provider: AnthropicProvider,
    fake_anthropic: FakeAnthropic,
    sleeps: RecordedSleep,
    status: int,
    error: DispatchError,
) -> None:
    fake_anthropic.behaviour = Behaviour(status=status)
    result = await provider.call(_call())
    assert result == CallResult(output=None, attempts=3, error=error)
    assert sleeps.delays == [0.5, 1.0]


async def test_a_refused_key_is_a_client_error_never_retried_nor_quoted(
    fake_anthropic: FakeAnthropic, sleeps: RecordedSleep, caplog: pytest.LogCaptureFixture
) -> None:
    provider = AnthropicProvider(fake_anthropic.base_url, "sk-ant-wrong", sleep=sleeps)
    caplog.set_level(logging.DEBUG)
    try:
        result = await provider.call(_call())
    finally:
        await provider.aclose()
    assert result == CallResult(output=None, attempts=1, error=DispatchError.PROVIDER_CLIENT_ERROR)
    assert sleeps.delays == []
    assert PROVIDER_TEXT not in caplog.text
    assert "sk-ant-wrong" not in caplog.text
    assert [r.__dict__.get("http_status") for r in caplog.records if r.name.startswith("ship")] == [
        401
    ]


async def test_a_body_the_api_refuses_is_a_client_error(
    provider: AnthropicProvider, fake_anthropic: FakeAnthropic
) -> None:
    # No user turn at all: the API answers 400 invalid_request_error.
    result = await provider.call(_call(messages=[{"role": "system", "content": "only"}]))
    assert (result.error, result.attempts) == (DispatchError.PROVIDER_CLIENT_ERROR, 1)
    assert len(fake_anthropic.requests) == 1


@pytest.mark.parametrize(
    "behaviour",
    [
        Behaviour(status=200, malformed=True),
        Behaviour(body={"type": "message", "content": "Paris"}),
        Behaviour(body={"type": "message", "content": [{"type": "text", "text": 3}]}),
        Behaviour(body={"type": "message", "content": [{"type": "tool_use", "input": {}}]}),
        Behaviour(body=["not", "a", "message"]),
    ],
)
async def test_a_2xx_that_is_not_a_message_is_malformed(
    provider: AnthropicProvider, fake_anthropic: FakeAnthropic, behaviour: Behaviour
) -> None:
    fake_anthropic.behaviour = behaviour
    result = await provider.call(_call())
    assert (result.error, result.attempts) == (DispatchError.PROVIDER_MALFORMED_RESPONSE, 1)


async def test_extra_headers_travel_with_every_call(fake_anthropic: FakeAnthropic) -> None:
    provider = AnthropicProvider(
        fake_anthropic.base_url + "/v1",
        PROVIDER_KEY,
        headers={"anthropic-beta": "tools-2024-04-04", "X-Gateway": "g-secret"},
    )
    try:
        await provider.call(_call())
        await provider.call(_call())
    finally:
        await provider.aclose()
    assert [r.headers["anthropic-beta"] for r in fake_anthropic.requests] == [
        "tools-2024-04-04"
    ] * 2
    assert {r.headers["x-gateway"] for r in fake_anthropic.requests} == {"g-secret"}
    # The headers live in the session only, never on the provider object.
    assert "g-secret" not in repr(vars(provider))
