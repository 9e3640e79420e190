"""The fake provider fixtures live in tests/conftest.py; `PROVIDER_KEY` is re-exported here."""

from __future__ import annotations

from tests.conftest import PROVIDER_KEY

__all__ = ["PROVIDER_KEY"]
