"""A model connection opened as the pairwise judge: ANTHROPIC connections judge through the
Messages API, with the connection's key and headers."""

from __future__ import annotations

from cryptography.fernet import Fernet

from bench.kit.openai_server import Behaviour
from server.connections.headers import encrypt_headers
from server.connections.models import ConnectionKind, ModelConnection
from server.judges.client import RATE_LIMITED, JudgeError
from server.judges.connections import open_judge
from server.security import SecretBox
from tests.conftest import PROVIDER_KEY
from tests.fakes.anthropic_server import FakeAnthropic

CONFIG = {"model": "claude-judge", "maxOutputTokens": 64}
RUBRIC = {"text": "Prefer the correct answer."}


def _connection(fake: FakeAnthropic, box: SecretBox) -> ModelConnection:
    return ModelConnection(
        id="conn_judge",
        workspace_id="ws",
        name="claude",
        kind=ConnectionKind.ANTHROPIC,
        base_url=fake.base_url,
        api_key_encrypted=box.encrypt(PROVIDER_KEY),
        headers_encrypted=encrypt_headers({"anthropic-beta": "b1"}, box),
        input_micros_per_million_tokens=1_000_000,
        output_micros_per_million_tokens=1_000_000,
        max_concurrency=2,
    )


async def test_an_anthropic_connection_judges_through_the_messages_api(
    fake_anthropic: FakeAnthropic,
) -> None:
    box = SecretBox(Fernet.generate_key().decode())
    fake_anthropic.behaviour = Behaviour(reply='{"verdict": "A"}')
    opened = open_judge(
        connection=_connection(fake_anthropic, box),
        config=CONFIG,
        rubric=RUBRIC,
        secrets=box,
        timeout_seconds=5,
    )
    try:
        messages = [
            {"role": "system", "content": "Judge."},
            {"role": "user", "content": "A or B?"},
        ]
        reply = await opened.judge.complete(messages)
        fake_anthropic.behaviour = Behaviour(status=429)
        try:
            await opened.judge.complete(messages)
            raised = None
        except JudgeError as exc:
            raised = exc
    finally:
        await opened.aclose()
    assert reply == '{"verdict": "A"}'
    assert opened.meter.calls == 1 and opened.meter.micros > 0
    first, limited = fake_anthropic.requests
    assert (first.path, first.body["system"], first.body["max_tokens"]) == (
        "/v1/messages",
        "Judge.",
        64,
    )
    assert (first.headers["x-api-key"], first.headers["anthropic-beta"]) == (PROVIDER_KEY, "b1")
    # One attempt per call (the pair judge retries), a 429 a retryable rate limit.
    assert raised is not None and (raised.error_class, raised.retryable) == (RATE_LIMITED, True)
    assert limited.path == "/v1/messages"
