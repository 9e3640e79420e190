"""Moved to `bench/kit/tool_records.py`: the benches share it."""

from bench.kit.tool_records import *  # noqa: F403
