"""Moved to `bench/kit/browser.py`: the benches share it; the tests import it here."""

from bench.kit.browser import *  # noqa: F403
