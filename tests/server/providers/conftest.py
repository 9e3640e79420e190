"""A fresh fake provider per test, and a sleep that records instead of waiting."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bench.kit.openai_server import FakeOpenAI

PROVIDER_KEY = "sk-fake-providers-0123456789SECRET"


class RecordedSleep:
    """An injectable `sleep`: records each delay and returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """The fake OpenAI-compatible provider, accepting only `PROVIDER_KEY`."""
    with FakeOpenAI(api_key=PROVIDER_KEY) as fake:
        yield fake


@pytest.fixture
def sleeps() -> RecordedSleep:
    return RecordedSleep()
