"""A fake pairwise judge: an OpenAI-compatible server on 127.0.0.1 that answers by content.

Each output names its quality (`quality=3`); the judge compares the two responses of the
prompt (`=== Response A ===`, `=== Response B ===`): a difference of 1 is "slightly
better", 2 or more "much better", equal is a tie — or, with `prefer_a`, "A slightly
better" (a position bias: swapped, the two orders disagree and the pair becomes a tie).

Markers in an output script failures of the calls whose prompt holds them:
`[judge:429]`, `[judge:500]`, `[judge:404]`, `[judge:slow]` (answers after `slow_seconds`),
`[judge:garbage]` (a reply that is no verdict), each with `-once` to fail only the first
attempt of that prompt, or `-as-A` to fail only when that output is response A.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from bench.kit.openai_server import Behaviour, FakeOpenAI, RecordedRequest, json_or_none

_QUALITY = re.compile(r"quality=(\d+)")
_MARKER = re.compile(r"\[judge:(429|500|404|slow|garbage)(-once|-as-A)?\]")
_RESPONSES = re.compile(
    r"=== Response A ===\n(?P<a>.*?)\n\n=== Response B ===\n(?P<b>.*?)\n\n=== End of responses ===",
    re.DOTALL,
)


def responses(body: Any) -> tuple[str, str]:
    """Responses A and B of a judge request."""
    messages = body.get("messages") if isinstance(body, dict) else None
    user = messages[-1]["content"] if messages else ""
    found = _RESPONSES.search(user)
    assert found is not None, "the prompt holds no responses A and B"
    return found.group("a"), found.group("b")


class FakeJudge(FakeOpenAI):
    """The fake judge; `prefer_a` adds the position bias, `slow_seconds` the slow answer."""

    def __init__(
        self, *, api_key: str | None = None, prefer_a: bool = False, slow_seconds: float = 2.0
    ) -> None:
        super().__init__(api_key=api_key, models=("judge-1",))
        self.prefer_a = prefer_a
        self.slow_seconds = slow_seconds
        self._seen: Counter[str] = Counter()

    def __enter__(self) -> FakeJudge:
        self.start()
        return self

    def verdict(self, a: str, b: str) -> str:
        """The verdict this judge gives for responses A and B."""
        difference = _quality(a) - _quality(b)
        if difference == 0:
            return "A_SLIGHTLY_BETTER" if self.prefer_a else "TIE"
        side = "A" if difference > 0 else "B"
        return f"{side}_MUCH_BETTER" if abs(difference) >= 2 else f"{side}_SLIGHTLY_BETTER"

    def prompts_with(self, text: str) -> list[RecordedRequest]:
        """The requests whose prompt contains `text`."""
        return [r for r in self.requests if text in json.dumps(r.body)]

    async def _chat_completions(self, request: Request) -> Response:
        body = await json_or_none(request)
        with self._lock:
            self._requests.append(
                RecordedRequest(
                    method=request.method,
                    path=request.url.path,
                    headers={k.lower(): v for k, v in request.headers.items()},
                    body=body,
                )
            )
            key = json.dumps(body, sort_keys=True)
            self._seen[key] += 1
            attempt = self._seen[key]
        a, b = responses(body)
        behaviour = self._scripted(a, b, attempt)
        if behaviour.delay_seconds:
            await asyncio.sleep(behaviour.delay_seconds)
        return self._respond(request, behaviour, body, self._completion_body)

    def _scripted(self, a: str, b: str, attempt: int) -> Behaviour:
        for text, is_a in ((a, True), (b, False)):
            for kind, scope in _MARKER.findall(text):
                if scope == "-once" and attempt > 1:
                    continue
                if scope == "-as-A" and not is_a:
                    continue
                return self._failure(kind, a, b)
        return Behaviour(reply=json.dumps({"verdict": self.verdict(a, b)}))

    def _failure(self, kind: str, a: str, b: str) -> Behaviour:
        if kind == "slow":
            reply = json.dumps({"verdict": self.verdict(a, b)})
            return Behaviour(delay_seconds=self.slow_seconds, reply=reply)
        if kind == "garbage":
            return Behaviour(reply="I think both are fine, really.")
        return Behaviour(status=int(kind))


def _quality(text: str) -> int:
    found = _QUALITY.search(text)
    assert found is not None, f"an output without quality=N: {text!r}"
    return int(found.group(1))
