"""Moved to `bench/kit/services.py`: the benches share it; the tests import it here."""

from bench.kit.services import *  # noqa: F403
