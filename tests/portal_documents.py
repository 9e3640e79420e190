"""Moved to `bench/kit/portal_documents.py`: the benches share it."""

from bench.kit.portal_documents import *  # noqa: F403
