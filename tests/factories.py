"""Moved to `bench/kit/factories.py`: the benches share it; the tests import it here."""

from bench.kit.factories import *  # noqa: F403
