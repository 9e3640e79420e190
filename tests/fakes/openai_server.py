"""Moved to `bench/kit/openai_server.py`: the benches share it."""

from bench.kit.openai_server import *  # noqa: F403
