"""The fake judge the pairwise tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import PROVIDER_KEY
from tests.fakes.judge_server import FakeJudge


@pytest.fixture
def judge() -> Iterator[FakeJudge]:
    """A judge that prefers response A when the two are equally good."""
    with FakeJudge(api_key=PROVIDER_KEY, prefer_a=True) as fake:
        yield fake
