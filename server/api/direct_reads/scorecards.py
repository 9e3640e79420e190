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
from server.api.direct_reads.present import one_root, selected, shower
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
    (root,) = selected(persisted.operation.selection_set, persisted.fragments)
    key = root.alias.value if root.alias else root.name.value
    assert root.selection_set is not None  # `covers` saw to it
    return {key: shower(ScorecardPageRead, root.selection_set, persisted.fragments, {})(page)}


def covers(persisted: Persisted) -> list[str]:
    return one_root(persisted, "comparison", ScorecardPageRead, frozenset())


DOCUMENTS = (DirectDocument("ComparisonScorecard", answer, covers),)
