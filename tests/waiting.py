"""Moved to `bench/kit/waiting.py`: the benches share it; the tests import it here."""

from bench.kit.waiting import *  # noqa: F403
