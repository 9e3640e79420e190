"""Moved to `bench/kit/harness.py`: the benches share it; the tests import it here."""

from bench.kit.harness import *  # noqa: F403
