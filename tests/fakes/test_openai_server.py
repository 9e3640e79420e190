"""The fake provider itself: response shapes, switches, recording and the concurrency peak."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from bench.kit.openai_server import PROVIDER_TEXT, Behaviour, FakeOpenAI, closed_base_url

CHAT = {"model": "fake-1", "messages": [{"role": "user", "content": "x" * 10}]}


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(api_key="sk-k") as fake:
        yield fake


@pytest.fixture
def fake(server: FakeOpenAI) -> FakeOpenAI:
    server.reset()
    return server


async def _post(fake: FakeOpenAI, body: Any = CHAT, key: str = "sk-k") -> httpx.Response:
    async with httpx.AsyncClient(base_url=fake.base_url) as client:
        return await client.post(
            "/chat/completions", json=body, headers={"Authorization": f"Bearer {key}"}
        )


async def test_chat_completion_has_the_openai_shape_and_usage(fake: FakeOpenAI) -> None:
    fake.behaviour = Behaviour(reply=lambda body: "echo " + body["messages"][0]["content"])
    response = await _post(fake)
    assert response.status_code == 200
    body = response.json()
    assert body["object"] == "chat.completion"
    assert body["model"] == "fake-1"
    assert body["choices"][0]["message"] == {"role": "assistant", "content": "echo " + "x" * 10}
    assert body["choices"][0]["finish_reason"] == "stop"
    assert body["usage"] == {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}
    [seen] = fake.requests
    assert (seen.method, seen.path, seen.body) == ("POST", "/v1/chat/completions", CHAT)
    assert seen.headers["authorization"] == "Bearer sk-k"


async def test_models_lists_the_configured_models(fake: FakeOpenAI) -> None:
    async with httpx.AsyncClient() as client:
        response = await client.get(
            fake.base_url + "/models", headers={"Authorization": "Bearer sk-k"}
        )
    assert [m["id"] for m in response.json()["data"]] == ["fake-1"]


async def test_a_wrong_key_is_401_with_provider_text(fake: FakeOpenAI) -> None:
    response = await _post(fake, key="sk-other")
    assert response.status_code == 401
    assert response.json()["error"]["message"] == PROVIDER_TEXT


async def test_status_retry_after_and_one_shot_behaviours(fake: FakeOpenAI) -> None:
    fake.enqueue(Behaviour(status=429, retry_after="2"), Behaviour(status=503))
    first, second, third = [await _post(fake) for _ in range(3)]
    assert (first.status_code, first.headers["retry-after"]) == (429, "2")
    assert second.status_code == 503 and "retry-after" not in second.headers
    assert third.status_code == 200
    assert len(fake.requests) == 3


async def test_a_malformed_body_is_not_json(fake: FakeOpenAI) -> None:
    fake.behaviour = Behaviour(malformed=True)
    response = await _post(fake)
    assert response.status_code == 200
    with pytest.raises(ValueError):
        response.json()


async def test_the_peak_concurrency_is_counted(fake: FakeOpenAI) -> None:
    fake.behaviour = Behaviour(delay_seconds=0.2)
    responses = await asyncio.gather(*(_post(fake) for _ in range(5)))
    assert all(r.status_code == 200 for r in responses)
    assert fake.peak_concurrency == 5
    assert fake.in_flight == 0
    fake.reset()
    assert fake.peak_concurrency == 0 and fake.requests == []


async def test_a_closed_base_url_refuses_connections() -> None:
    async with httpx.AsyncClient() as client:
        with pytest.raises(httpx.ConnectError):
            await client.get(closed_base_url() + "/models")


async def test_a_streamed_completion_is_chunks_then_usage_then_done(fake: FakeOpenAI) -> None:
    fake.behaviour = Behaviour(reply="one two three")
    body = {**CHAT, "stream": True, "stream_options": {"include_usage": True}}
    response = await _post(fake, body)
    assert response.headers["content-type"].startswith("text/event-stream")
    data = [line[6:] for line in response.text.splitlines() if line.startswith("data: ")]
    assert data[-1] == "[DONE]"
    chunks = [json.loads(d) for d in data[:-1]]
    pieces = [c["choices"][0]["delta"].get("content") for c in chunks if c["choices"]]
    assert [p for p in pieces if p] == ["one ", "two ", "three"]
    assert chunks[-1]["usage"]["completion_tokens"] == 4
