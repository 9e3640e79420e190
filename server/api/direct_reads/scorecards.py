"""The portal's scorecard of a comparison (`ComparisonScorecard`): its read model's value
(`server.page_reads.scorecard`), read on the driver and shown as the persisted document
selects it (`present`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.api.direct_reads.documents import (
    DirectDocument,
    Persisted,
    Reading,
    a_string,
    variables_of,
)
from server.api.direct_reads.present import one_root, show_root
from server.page_reads import scorecard
from server.page_reads.scorecard import ScorecardPageRead


async def answer(
    reading: Reading, given: Mapping[str, Any], persisted: Persisted
) -> dict[str, Any] | None:
    variables = variables_of(given, {"id": a_string})
    if variables is None:
        return None
    try:
        page = await scorecard.read(
            reading.connections.fetch,
            workspace_id=reading.actor.workspace_id,
            comparison_id=variables["id"],
        )
    except ValueError:
        return None  # a verdict the schema refuses to show
    if page is None:
        return None  # the schema answers: NOT_FOUND
    return show_root(persisted, ScorecardPageRead, page)


def covers(persisted: Persisted) -> list[str]:
    return one_root(persisted, "comparison", ScorecardPageRead, frozenset())


DOCUMENTS = (DirectDocument("ComparisonScorecard", answer, covers),)
