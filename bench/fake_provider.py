"""Run the fake OpenAI-compatible provider as its own process (benchmarks).

python bench/fake_provider.py --delay 0.05     # prints its base URL, serves until killed
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.kit.openai_server import Behaviour, FakeOpenAI


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--delay", type=float, default=0.05, help="seconds per answer")
    args = parser.parse_args()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with FakeOpenAI() as fake:
        fake.behaviour = Behaviour(delay_seconds=args.delay, reply="Paris")
        print(fake.base_url, flush=True)  # noqa: T201 - the parent reads it
        stop.wait()


if __name__ == "__main__":
    main()
