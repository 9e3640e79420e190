"""Moved to `bench/kit/scenarios.py`: the benches share it; the tests import it here."""

from bench.kit.scenarios import *  # noqa: F403
