"""One fake provider for the session, reset before each test that uses it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.openai_server import FakeOpenAI

PROVIDER_KEY = "sk-fake-0123456789abcdefSECRET"


@pytest.fixture(scope="session")
def _fake_openai_server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def fake_openai(_fake_openai_server: FakeOpenAI) -> FakeOpenAI:
    """The fake OpenAI-compatible provider, accepting only `PROVIDER_KEY`, with no history."""
    _fake_openai_server.reset()
    _fake_openai_server.api_key = PROVIDER_KEY
    return _fake_openai_server
