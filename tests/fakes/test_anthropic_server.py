"""The fake Messages API itself: the documented answer and error shapes, and its refusals."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from bench.kit.openai_server import PROVIDER_TEXT, Behaviour
from tests.fakes.anthropic_server import FakeAnthropic

KEY = "sk-ant-fake"
BODY = {
    "model": "claude-fake-1",
    "max_tokens": 16,
    "system": "Be brief.",
    "messages": [{"role": "user", "content": "x" * 11}],
    "tools": [{"name": "search", "input_schema": {"type": "object"}}],
}


async def _post(
    fake: FakeAnthropic, body: Any = BODY, headers: dict[str, str] | None = None
) -> httpx.Response:
    sent = {"x-api-key": KEY, "anthropic-version": "2023-06-01", **(headers or {})}
    async with httpx.AsyncClient(base_url=fake.base_url) as client:
        return await client.post("/v1/messages", json=body, headers=sent)


async def test_a_message_has_content_blocks_and_usage() -> None:
    with FakeAnthropic(api_key=KEY) as fake:
        fake.behaviour = Behaviour(
            reply="Paris", tool_calls=({"name": "search", "arguments": {"q": "p"}},)
        )
        response = await _post(fake)
    body = response.json()
    assert response.status_code == 200
    assert (body["type"], body["role"], body["stop_reason"]) == ("message", "assistant", "tool_use")
    assert body["content"] == [
        {"type": "text", "text": "Paris"},
        {"type": "tool_use", "id": "toolu_fake_0", "name": "search", "input": {"q": "p"}},
    ]
    assert body["usage"] == {"input_tokens": 5, "output_tokens": 2}  # (9 + 11) / 4; 5 / 4


@pytest.mark.parametrize(
    ("status", "kind"),
    [(429, "rate_limit_error"), (500, "api_error"), (529, "overloaded_error")],
)
async def test_errors_have_the_documented_shape(status: int, kind: str) -> None:
    with FakeAnthropic(api_key=KEY) as fake:
        fake.behaviour = Behaviour(status=status, retry_after="3")
        response = await _post(fake)
    assert response.status_code == status
    assert response.headers["retry-after"] == "3"
    assert response.json() == {
        "type": "error",
        "error": {"type": kind, "message": PROVIDER_TEXT},
        "request_id": "req_fake_0123",
    }


@pytest.mark.parametrize(
    ("body", "headers", "status"),
    [
        (BODY, {"x-api-key": "other"}, 401),
        (BODY, {"anthropic-version": ""}, 400),
        ({**BODY, "messages": [{"role": "system", "content": "no"}]}, {}, 400),
        ({k: v for k, v in BODY.items() if k != "max_tokens"}, {}, 400),
        ({**BODY, "tools": [{"type": "function", "function": {"name": "s"}}]}, {}, 400),
    ],
)
async def test_refusals(body: Any, headers: dict[str, str], status: int) -> None:
    with FakeAnthropic(api_key=KEY) as fake:
        response = await _post(fake, body, headers)
    assert response.status_code == status
    assert response.json()["error"]["type"] in ("authentication_error", "invalid_request_error")


async def test_models_lists_the_configured_models() -> None:
    with FakeAnthropic(api_key=KEY) as fake:
        async with httpx.AsyncClient() as client:
            response = await client.get(
                fake.base_url + "/v1/models",
                headers={"x-api-key": KEY, "anthropic-version": "2023-06-01"},
            )
    assert [m["id"] for m in response.json()["data"]] == ["claude-fake-1"]


async def test_a_streamed_message_is_the_apis_events_a_word_per_delta() -> None:
    with FakeAnthropic(api_key=KEY) as fake:
        fake.behaviour = Behaviour(reply="Paris is lovely")
        response = await _post(fake, {**BODY, "stream": True})
    assert response.headers["content-type"].startswith("text/event-stream")
    events = [line[7:] for line in response.text.splitlines() if line.startswith("event: ")]
    assert events[:2] == ["message_start", "content_block_start"]
    assert events[-3:] == ["content_block_stop", "message_delta", "message_stop"]
    assert events.count("content_block_delta") == 3
    assert '"text": "Paris "' in response.text
