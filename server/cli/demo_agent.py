"""`shipwise serve --demo`'s traced demo agent (docs/live.md): two releases of a small
"capitals" agent answer questions, and their traces are exported over OTLP/HTTP JSON to the
server's own `/v1/traces`, as an instrumented app would. `capitals v2` answers right about
half as often as `capitals v1`, so the demo's live comparison reaches DONT_SHIP within a
minute and a newcomer sees the canary page move; `/traces` has traces from the first start.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import time
from typing import Any, Final

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.live import service as live_service
from server.live.models import LiveComparison
from server.workspaces.roles import Actor

logger = logging.getLogger("shipwise.demo")

SERVICE: Final = "capitals-agent"
CANDIDATE: Final = "capitals v2"
BASELINE: Final = "capitals v1"
LABEL: Final = "Demo canary: capitals v2"
PASS_RATES: Final = {CANDIDATE: 0.5, BASELINE: 0.9}
EXPORT_SECONDS: Final = 0.5
TRACES_AN_EXPORT: Final = 4
"""Per release: 8 traces a second in all, so the 30-point drop decides in about 10 s."""
TOTAL_TRACES: Final = 1_200
"""The agent stops after this many, so a demo left running does not grow its database."""
QUESTIONS: Final = {"France": "Paris", "Japan": "Tokyo", "Kenya": "Nairobi", "Peru": "Lima"}


async def seed_live(*, session: AsyncSession, actor: Actor) -> str:
    """The demo's RUNNING live comparison (a new one when none runs: a decided canary stays
    decided, and the next start watches afresh)."""
    found = await session.scalar(
        select(LiveComparison.id).where(
            LiveComparison.workspace_id == actor.workspace_id,
            LiveComparison.label == LABEL,
            LiveComparison.status == "RUNNING",
        )
    )
    if found is not None:
        return found
    spec = live_service.LiveSpec(
        service=SERVICE,
        candidate_release=CANDIDATE,
        baseline_releases=[BASELINE],
        label=LABEL,
        checks=[{"kind": "CONTAINS"}],
    )
    return (await live_service.create(session=session, actor=actor, spec=spec)).id


def _attribute(key: str, value: str | int) -> dict[str, Any]:
    typed = {"intValue": str(value)} if isinstance(value, int) else {"stringValue": value}
    return {"key": key, "value": typed}


def export_body(release: str, rng: random.Random, count: int) -> dict[str, Any]:
    """One OTLP JSON export of `count` single-span chat traces of `release`."""
    spans = []
    now = time.time_ns()
    for index in range(count):
        country, city = rng.choice(list(QUESTIONS.items()))
        right = rng.random() < PASS_RATES[release]
        answer = f"The capital of {country} is {city}." if right else "I am not sure."
        duration = int(rng.uniform(300, 900) * 1e6)
        spans.append(
            {
                "traceId": os.urandom(16).hex(),
                "spanId": os.urandom(8).hex(),
                "name": "chat capitals",
                "kind": 1,
                "startTimeUnixNano": str(now + index),
                "endTimeUnixNano": str(now + index + duration),
                "attributes": [
                    _attribute("gen_ai.operation.name", "chat"),
                    _attribute("gen_ai.request.model", "sim-1"),
                    _attribute("gen_ai.usage.input_tokens", 24),
                    _attribute("gen_ai.usage.output_tokens", 9),
                    _attribute("gen_ai.prompt.0.role", "user"),
                    _attribute("gen_ai.prompt.0.content", f"What is the capital of {country}?"),
                    _attribute("gen_ai.completion.0.role", "assistant"),
                    _attribute("gen_ai.completion.0.content", answer),
                    _attribute("shipwise.expected", city),
                ],
            }
        )
    resource = [_attribute("service.name", SERVICE), _attribute("shipwise.release", release)]
    return {
        "resourceSpans": [{"resource": {"attributes": resource}, "scopeSpans": [{"spans": spans}]}]
    }


async def run_agent(url: str, token: str, *, total: int = TOTAL_TRACES, seed: int = 7) -> int:
    """Export both releases' traces to `url` until `total` are sent; how many were sent.
    Never raises: the demo server goes on serving if its agent cannot reach it."""
    rng = random.Random(seed)
    sent = 0
    headers = {"Authorization": f"Bearer {token}"}
    try:
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=10) as client:
            while sent < total:
                for release in (CANDIDATE, BASELINE):
                    body = export_body(release, rng, TRACES_AN_EXPORT)
                    answer = await client.post("/v1/traces", json=body)
                    answer.raise_for_status()
                    sent += TRACES_AN_EXPORT
                await asyncio.sleep(EXPORT_SECONDS)
    except (httpx.HTTPError, OSError) as exc:
        logger.warning("the demo agent stopped", extra={"error_type": type(exc).__name__})
    return sent
