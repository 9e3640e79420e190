"""Moved to `bench/kit/statements.py`: the benches share it; the tests import it here."""

from bench.kit.statements import *  # noqa: F403
