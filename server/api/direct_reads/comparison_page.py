"""The portal's page of a comparison (`ComparisonPage`): its read model's value
(`server.page_reads.comparison_page`), read on the driver and shown as the persisted
document selects it (`present`). A comparison with reports or stopped at a connection's
cap is left to the schema: those two fields read rows the page's read does not hold."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from server.api.direct_reads.documents import (
    DirectDocument,
    Persisted,
    Reading,
    a_string,
    variables_of,
)
from server.api.direct_reads.present import one_root, show_root
from server.comparisons.models import StopReason
from server.page_reads import comparison_page
from server.page_reads.comparison_page import ComparisonPageRead

ROOT: Final = "comparison"
GIVEN: Final[dict[str, Any]] = {"reports": [], "cappedConnections": []}
"""Fields shown as given: the page's read answers only when it has no reports and no cap."""


async def answer(
    reading: Reading, given: Mapping[str, Any], persisted: Persisted
) -> dict[str, Any] | None:
    variables = variables_of(given, {"id": a_string})
    if variables is None:
        return None
    page = await comparison_page.read(
        reading.connections.fetch,
        dialect="postgresql",
        workspace_id=reading.actor.workspace_id,
        comparison_id=variables["id"],
    )
    if page is None or not _plain(page):
        return None  # the schema answers: NOT_FOUND, or rows the read does not hold
    return show_root(persisted, ComparisonPageRead, page, GIVEN)


def _plain(page: ComparisonPageRead) -> bool:
    return (
        page.dataset_version is not None
        and page.experiment is not None
        and not page.has_reports
        and page.stop_reason != StopReason.CONNECTION_CAP
    )


def covers(persisted: Persisted) -> list[str]:
    return one_root(persisted, ROOT, ComparisonPageRead, frozenset(GIVEN))


DOCUMENTS = (DirectDocument("ComparisonPage", answer, covers),)
