"""Every bounded code is documented in docs/errors.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.checks import CheckReason
from server.errors import ErrorCode
from server.providers.base import DispatchError

DOC = (Path(__file__).parents[3] / "docs" / "errors.md").read_text()


@pytest.mark.parametrize("code", [*DispatchError, *CheckReason, *ErrorCode], ids=str)
def test_the_code_is_documented(code: str) -> None:
    assert f"| `{code}` |" in DOC
