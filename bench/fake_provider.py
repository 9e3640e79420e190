"""Run the fake OpenAI-compatible provider as its own process (benchmarks).

python bench/fake_provider.py --delay 0.05     # prints its base URL, serves until killed

Its own process keeps no request bodies (the kit's fake records every request for the
tests that read them; at 900,000 calls that list alone weighs gigabytes and its garbage
collection stalls the answers): it counts each `X-Shipwise-Trial` header (docs/domain.md,
"Dispatch") instead, and `GET /log` answers the fake's log: calls, distinct trials, and
the trials answered more than once.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import threading
from collections import Counter
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.kit.openai_server import Behaviour, FakeOpenAI, json_or_none

TRIAL_HEADER = "x-shipwise-trial"


class CountingFake(FakeOpenAI):
    """The fake provider keeping a count per trial header instead of every request."""

    def __init__(self) -> None:
        super().__init__()
        self.trials: Counter[str] = Counter()
        self.calls = 0

    def routes(self) -> list[Route]:
        return [
            Route("/v1/models", self._models, methods=["GET"]),
            Route("/v1/chat/completions", self._counted, methods=["POST"]),
            Route("/log", self._log, methods=["GET"]),
        ]

    async def _counted(self, request: Request) -> Response:
        self.calls += 1
        self.trials[request.headers.get(TRIAL_HEADER, "")] += 1
        body = await json_or_none(request)
        behaviour = self.behaviour
        if behaviour.delay_seconds:
            await asyncio.sleep(behaviour.delay_seconds)
        return self._respond(request, behaviour, body, self._completion_body)

    async def _log(self, request: Request) -> Response:
        prefix = request.query_params.get("comparison", "")
        counts = {k: n for k, n in self.trials.items() if k.startswith(prefix)}
        twice = sorted(k for k, n in counts.items() if n > 1)
        return JSONResponse(
            {
                "calls": sum(counts.values()),
                "distinct": len(counts),
                "answered_twice": len(twice),
                "examples": twice[:10],
            }
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--delay", type=float, default=0.05, help="seconds per answer")
    args = parser.parse_args()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with CountingFake() as fake:
        fake.behaviour = Behaviour(delay_seconds=args.delay, reply="Paris")
        print(fake.base_url, flush=True)  # noqa: T201 - the parent reads it
        stop.wait()


if __name__ == "__main__":
    main()
